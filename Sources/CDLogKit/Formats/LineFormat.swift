import CDLogCore
import CScan

/// A line-oriented input format: decides which lines start an entry and where their message begins.
///
/// Contract: `header(of:)` returns nil for a continuation line (it belongs to the entry before it) and
/// never reads outside `line`. Boilerplate (preambles, column headers, statistics footers) is
/// recognised by `isBoilerplate` and belongs to no entry.
public protocol LineFormat: Sendable {
    var format: InputFormat { get }
    func header(of line: UnsafeRawBufferPointer) -> LineHeader?
    /// The same parse in C, when the format has one whose header lines start an entry in any state
    /// (never blank, boilerplate or a pasted report's first line): quiet entries are then skipped in C
    /// (an `EntrySkipper` such as `QuietEntrySkipper`). Nil by default.
    var headerParser: cscan_header_parser? { get }
}

extension LineFormat {
    public var headerParser: cscan_header_parser? { nil }

    /// The header of a line indented by a paste (a tab or up to eight spaces before a timestamped
    /// prefix, as a page or an issue's list item indents part of a capture): a header with a timestamp,
    /// moved past the indentation; nil for an unindented line or one whose text after the indentation has
    /// no timestamped prefix. Only lines whose text opens with a digit or a month name are parsed.
    public func indentedHeader(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let first = line.first, ByteClass.isBlank(first) else { return nil }
        let start = ByteScan.spaces(line, at: 0)
        guard start <= 8, start < line.count else { return nil }
        let lead = line[start]
        guard (lead >= 48 && lead <= 57) || (lead >= 65 && lead <= 90 && start + 3 < line.count && line[start + 3] == 32) else { return nil }
        guard let header = self.header(of: UnsafeRawBufferPointer(rebasing: line[start...])), header.timestamp != nil else { return nil }
        return header.shifted(by: start)
    }
}

extension LineFormat {
    /// Lines that `log show`/`log stream` print around the events.
    public func isBoilerplate(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first else { return false }
        switch first {
        case UInt8(ascii: "F"): return line.hasPrefix("Filtering the log data")
        case UInt8(ascii: "S"): return line.hasPrefix("Skipping info and debug messages")
        case UInt8(ascii: "T"): return line.hasPrefix("Timestamp ") && !line.contains(byte: UInt8(ascii: "["), before: 11) && isColumnHeader(line)
        case UInt8(ascii: "-"): return line.count >= 20 && line.allSatisfy { $0 == UInt8(ascii: "-") }
        case UInt8(ascii: "L"): return line.hasPrefix("Log      - Default:")
        case UInt8(ascii: "A"): return line.hasPrefix("Activity - Create:")
        default: return false
        }
    }

    private func isColumnHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        line.contains(sequence: "Thread") || line.contains(sequence: "Ty ") || line.contains(sequence: "(process)")
            || line.contains(sequence: "Process[")
    }
}
