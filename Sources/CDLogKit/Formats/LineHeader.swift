import CDLogCore
/// What a format's prefix says about an entry, as byte ranges into the entry's first line.
///
/// Ranges keep the hot path free of allocations: strings are made only for entries that are reported.
public struct LineHeader: Sendable {
    /// Where the message text starts in the line.
    public var messageStart: Int
    public var timestamp: Range<Int>? { get { spans.0.range } set { spans.0.range = newValue } }
    public var process: Range<Int>? { get { spans.1.range } set { spans.1.range = newValue } }
    public var pid: Range<Int>? { get { spans.2.range } set { spans.2.range = newValue } }
    public var thread: Range<Int>? { get { spans.3.range } set { spans.3.range = newValue } }
    public var subsystem: Range<Int>? { get { spans.4.range } set { spans.4.range = newValue } }
    public var logCategory: Range<Int>? { get { spans.5.range } set { spans.5.range = newValue } }
    public var level: Range<Int>? { get { spans.6.range } set { spans.6.range = newValue } }

    /// The ranges, 8 bytes each: a header is made for every line, and as seven `Range<Int>?` it was
    /// 176 bytes, copied several times per line.
    private var spans = (Span(), Span(), Span(), Span(), Span(), Span(), Span())

    public init(messageStart: Int) { self.messageStart = messageStart }
    /// This header moved `offset` bytes to the right: the header of a line that holds this one's line after
    /// `offset` bytes of indentation.
    func shifted(by offset: Int) -> LineHeader {
        var moved = self
        moved.messageStart += offset
        func shift(_ range: Range<Int>?) -> Range<Int>? { range.map { ($0.lowerBound + offset)..<($0.upperBound + offset) } }
        moved.timestamp = shift(timestamp)
        moved.process = shift(process)
        moved.pid = shift(pid)
        moved.thread = shift(thread)
        moved.subsystem = shift(subsystem)
        moved.logCategory = shift(logCategory)
        moved.level = shift(level)
        return moved
    }

    /// The header a C parser finds: `parse` writes `CSCAN_HEADER_SPANS` (lower, upper) pairs in `spans`
    /// order ((-1, 0) for an absent span) and returns where the message starts, or a negative number
    /// when the line has no header (then nil).
    @inline(__always)
    init?(parsedBy parse: (UnsafeMutablePointer<Int32>) -> Int) {
        var raw: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)
            = (-1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0)
        let start = withUnsafeMutableBytes(of: &raw) { parse($0.baseAddress!.assumingMemoryBound(to: Int32.self)) }
        guard start >= 0 else { return nil }
        messageStart = start
        spans = (Span(raw.0, raw.1), Span(raw.2, raw.3), Span(raw.4, raw.5), Span(raw.6, raw.7), Span(raw.8, raw.9),
                 Span(raw.10, raw.11), Span(raw.12, raw.13))
    }

    /// An optional range of byte offsets within a line or an entry's prefix (both far below 2 GiB).
    struct Span: Sendable {
        private var lower: Int32 = -1
        private var upper: Int32 = 0

        init() {}
        /// A span as a C parser writes it: `lower` -1 for none.
        @inline(__always) init(_ lower: Int32, _ upper: Int32) {
            if lower < 0 || upper < lower { self.lower = -1; self.upper = 0 } else { self.lower = lower; self.upper = upper }
        }

        var range: Range<Int>? {
            @inline(__always) get { lower < 0 ? nil : Int(lower)..<Int(upper) }
            @inline(__always) set {
                if let newValue, newValue.lowerBound >= 0, newValue.upperBound <= Int(Int32.max) {
                    lower = Int32(newValue.lowerBound)
                    upper = Int32(newValue.upperBound)
                } else {
                    lower = -1
                    upper = 0
                }
            }
        }
    }
}

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

extension UnsafeRawBufferPointer {
    @inline(__always) func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard self.count >= count else { return false }
        return memcmp(baseAddress!, prefix.utf8Start, count) == 0
    }

    @inline(__always) func hasPrefix(_ prefix: StaticString, at offset: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard offset >= 0, self.count - offset >= count else { return false }
        return memcmp(baseAddress! + offset, prefix.utf8Start, count) == 0
    }

    func contains(byte: UInt8, before limit: Int) -> Bool {
        let end = Swift.min(limit, count)
        guard end > 0 else { return false }
        return memchr(baseAddress!, Int32(byte), end) != nil
    }

    /// Index of the first `byte` at or after `from`, before `to`.
    @inline(__always) func firstIndex(of byte: UInt8, from: Int, to: Int? = nil) -> Int? {
        let stop = Swift.min(to ?? count, count)
        guard from < stop else { return nil }
        guard let found = memchr(baseAddress! + from, Int32(byte), stop - from) else { return nil }
        return UnsafeRawPointer(found) - baseAddress!
    }
}

import CScan
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
