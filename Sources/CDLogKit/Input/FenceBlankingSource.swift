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
    static func mayBeFence(_ prefix: [UInt8]) -> Bool {
        var i = 0
        while i < prefix.count, i < 3, prefix[i] == 0x20 { i += 1 }
        guard i < prefix.count else { return true }
        let mark = prefix[i]
        guard mark == UInt8(ascii: "`") || mark == UInt8(ascii: "~") else { return false }
        var marks = 0
        while i < prefix.count, prefix[i] == mark { i += 1; marks += 1 }
        guard i < prefix.count else { return true }
        guard marks >= 3 else { return false }
        // The info string: a language or file name, then blanks (and a carriage return).
        while i < prefix.count {
            let c = prefix[i]
            let word = (c | 0x20) >= 97 && (c | 0x20) <= 122 || (c >= 48 && c <= 57)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
            guard word || c == 0x20 || c == 0x09 || c == 0x0D else { return false }
            i += 1
        }
        return true
    }

    /// True when `line` (without its line break) is a whole fence line.
    static func isFence<C: Collection>(_ line: C) -> Bool where C.Element == UInt8 {
        let bytes = Array(line.prefix(longest + 1))
        guard bytes.count <= longest, mayBeFence(bytes) else { return false }
        return bytes.filter { $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: "~") }.count >= 3
    }
}
