/// Blanks the lines of a Markdown code fence (```` ``` ````, ```` ```swift ````, `~~~`): a paste copied out of
/// an issue or a forum post brings the fences around it, and a fence is neither a message nor a
/// continuation of one. The line stays (empty), so line numbers do not change.
final class FenceBlankingSource: ConvertingSource {
    /// The bytes of the current line while it may still be a fence (at most `FenceBlankingSource.longest`).
    private var pending: [UInt8] = []
    /// The current line can no longer be a fence: its bytes pass straight through up to its line break.
    private var passing = false

    /// The longest line read as a fence: three marks, an info string (`swift`, `text`, `log`) and blanks.
    static let longest = 40

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        for b in bytes {
            if b == 0x0A {
                if !passing, !FenceBlankingSource.isFence(pending) { output.append(contentsOf: pending) }
                output.append(b)
                pending.removeAll(keepingCapacity: true)
                passing = false
                continue
            }
            if passing { output.append(b); continue }
            pending.append(b)
            if pending.count > FenceBlankingSource.longest || !FenceBlankingSource.mayBeFence(pending) {
                output.append(contentsOf: pending)
                pending.removeAll(keepingCapacity: true)
                passing = true
            }
        }
        if atEnd, !passing, !FenceBlankingSource.isFence(pending) { output.append(contentsOf: pending) }
        if atEnd { pending.removeAll() }
    }

    /// True while `prefix` can still open a fence line: up to three blanks, then backticks or tildes.
    static func mayBeFence(_ prefix: [UInt8]) -> Bool { fenceMarks(prefix) != nil }

    /// True when `line` (without its line break) is a whole fence line. Asked of every line of a source's
    /// first 64 KiB (`TextDecoding.pasteWrapping`): it reads the line in place and allocates nothing.
    static func isFence<C: Collection>(_ line: C) -> Bool where C.Element == UInt8 {
        guard line.prefix(longest + 1).count <= longest else { return false }
        return (fenceMarks(line) ?? 0) >= 3
    }

    /// How many marks (backticks or tildes) `bytes` opens with after up to three blanks, when the rest can
    /// still be a fence's info string (a language or file name, then blanks and a carriage return); nil when
    /// `bytes` can no longer be the start of a fence line.
    static func fenceMarks<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        var blanks = 0, marks = 0
        var mark: UInt8 = 0
        var inInfo = false
        for c in bytes {
            if marks == 0 {
                if c == 0x20, blanks < 3 { blanks += 1; continue }
                guard c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
                mark = c
                marks = 1
                continue
            }
            if !inInfo, c == mark { marks += 1; continue }
            guard marks >= 3 else { return nil }
            inInfo = true
            let word = (c | 0x20) >= 97 && (c | 0x20) <= 122 || (c >= 48 && c <= 57)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
            guard word || c == 0x20 || c == 0x09 || c == 0x0D else { return nil }
        }
        return marks
    }
}
