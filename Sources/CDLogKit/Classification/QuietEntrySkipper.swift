import CDLogCore
import CScan

/// The `EntrySkipper` of a classifying run: skips, unbuilt, the entries no rule can match (one-line entries
/// of a format with a C header parser, `LineFormat.headerParser`, whose message admits none of `gate`'s
/// rules, ended by a header line). The walk over them is one C loop (`cscan_skip_quiet_lines`); the entries
/// are not emitted, and `skipped(n)` reports how many were skipped in a row, where they stand among the
/// emitted entries. With the catalog's gate (`Classifier.quietEntryGate`) that is most of a healthy log.
/// A class: the splitter's per-line closure binds one reference, not a struct of references to copy.
public final class QuietEntrySkipper: EntrySkipper {
    let gate: QuietEntryGate
    /// The thread's classifier scratch: the walk marks literals in its prefilter evaluation.
    let scratch: Classifier.Scratch
    private let onSkipped: (Int) -> Void
    /// The number of a line known to admit a rule (found when a walk stopped there), so that its
    /// message is not gated again when it is handed out; -1 when none.
    @exclusivity(unchecked) private var loudLine = -1

    /// `scratch` is used by this splitter's thread only, as `Classifier.Scratch` requires.
    public init(gate: QuietEntryGate, scratch: Classifier.Scratch, skipped: @escaping (Int) -> Void) {
        self.gate = gate
        self.scratch = scratch
        onSkipped = skipped
    }

    /// Skips the entry whose header line `line` (message from `messageStart`) was handed out last, and
    /// the quiet entries after it, when it is quiet; returns how many entries that was, or nil.
    @inline(__always)
    public func skip(_ line: UnsafeRawBufferPointer, messageStart: Int, parser: cscan_header_parser, reader: LineReader) -> Int? {
        guard reader.lineNumber != loudLine, let lineBase = line.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return nil
        }
        let prefixEnd = min(messageStart, line.count)
        var entries: Int? = nil
        var stoppedAtLoud: Int32 = 0
        let marks = scratch.prefilter.gateMarks
        reader.skipBufferedLines { rest, maxLineBytes in
            guard let restBase = rest.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (0, 0) }
            // The line's buffer goes on with the rest (after its `\n` or `\r\n`): the scan of its
            // message may read on into it.
            let lineEnd = lineBase + line.count
            let messageReadable = restBase >= lineEnd && restBase - lineEnd <= 2
                ? restBase + rest.count - (lineBase + prefixEnd) : line.count - prefixEnd
            return gate.scanner.withScanRoom { _, room, capacity in
                var bytes = 0
                let lines = cscan_skip_quiet_lines(gate.gate, marks, room, capacity, parser, lineBase + prefixEnd,
                                                   line.count - prefixEnd, messageReadable, restBase, rest.count,
                                                   maxLineBytes, &bytes, &stoppedAtLoud)
                guard lines >= 0 else { return (0, 0) }
                entries = 1 + lines
                return (lines, bytes)
            }
        }
        // The line after the skipped ones admits a rule.
        if stoppedAtLoud != 0 { loudLine = reader.lineNumber + 1 }
        return entries
    }

    public func skipped(_ count: Int) { onSkipped(count) }
}
