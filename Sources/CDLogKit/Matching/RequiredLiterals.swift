/// Derives, from a PCRE2 pattern's source, literals that every match must contain, for the prefilter.
///
/// Contract: the result is conservative. `nil` means "no usable literal" (the pattern must always be
/// run); otherwise a match is only possible when the subject contains at least one of `alternatives`
/// (compared caselessly when `caseless`). Anything the analysis does not understand (`(?x)`, `\Q…\E`,
/// backreferences, lookbehind tricks) yields `nil`, never a wrong literal.
public struct RequiredLiterals: Equatable, Sendable {
    public var alternatives: [[UInt8]]
    public var caseless: Bool

    /// Literals shorter than this are not worth a prefilter check.
    public static let minimumLength = 3

    public static func of(pattern: String) -> RequiredLiterals? {
        var bytes = Array(pattern.utf8)
        var caseless = false
        // Leading inline option groups: (?i), (?s), (?m), (?is) …
        while bytes.count >= 4, bytes[0] == UInt8(ascii: "("), bytes[1] == UInt8(ascii: "?"),
              let close = bytes.firstIndex(of: UInt8(ascii: ")")),
              bytes[2..<close].allSatisfy({ "imsnUJ-".utf8.contains($0) }) {
            let flags = bytes[2..<close]
            if flags.contains(UInt8(ascii: "i")) && !flags.contains(UInt8(ascii: "-")) { caseless = true }
            bytes.removeSubrange(0...close)
        }
        // Options switched on mid-pattern change how later literals compare: stay conservative.
        if String(decoding: bytes, as: UTF8.self).contains("(?") && containsInlineOptions(bytes) { return nil }
        guard let branches = splitTopLevelAlternation(bytes) else { return nil }
        var alternatives: [[UInt8]] = []
        for branch in branches {
            guard let literal = longestLiteral(in: branch), literal.count >= minimumLength else { return nil }
            alternatives.append(caseless ? literal.map(asciiLowercased) : literal)
        }
        return alternatives.isEmpty ? nil : RequiredLiterals(alternatives: alternatives, caseless: caseless)
    }

    @inline(__always) static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte | 0x20 : byte
    }

    /// Splits at `|` outside groups and classes; nil when the pattern's brackets do not balance.
    private static func splitTopLevelAlternation(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        var branches: [ArraySlice<UInt8>] = []
        var depth = 0, start = 0, index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 1
            case UInt8(ascii: "["): index = skipClass(bytes, from: index) - 1
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1; if depth < 0 { return nil }
            case UInt8(ascii: "|") where depth == 0:
                branches.append(bytes[start..<index]); start = index + 1
            default: break
            }
            index += 1
        }
        guard depth == 0 else { return nil }
        branches.append(bytes[start..<bytes.count])
        return branches
    }

    /// Index just past the character class starting at `from` (which holds `[`).
    private static func skipClass(_ bytes: [UInt8], from: Int) -> Int {
        var index = from + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
            if bytes[index] == UInt8(ascii: "[") , index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":") {
                if let end = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "]")) { index = end + 1; continue }
            }
            if bytes[index] == UInt8(ascii: "]") { return index + 1 }
            index += 1
        }
        return bytes.count
    }

    /// The longest run of literal bytes in one top-level sequence (groups and classes break runs).
    private static func longestLiteral(in branch: ArraySlice<UInt8>) -> [UInt8]? {
        let bytes = Array(branch)
        var best: [UInt8] = []
        var current: [UInt8] = []
        // Length of `current` before its last atom, so a following quantifier can drop that atom.
        var lastAtomStart = 0
        func finishRun() {
            if current.count > best.count { best = current }
            current.removeAll(keepingCapacity: true)
            lastAtomStart = 0
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                let next = bytes[index + 1]
                if next == UInt8(ascii: "Q") || (next >= UInt8(ascii: "1") && next <= UInt8(ascii: "9")) { return nil }
                if isEscapedLiteral(next) {
                    lastAtomStart = current.count
                    current.append(next)
                } else {
                    finishRun()  // \d \s \w \b \x{…} \p{…} …
                    if next == UInt8(ascii: "x") || next == UInt8(ascii: "p") || next == UInt8(ascii: "P") {
                        if index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: "{"),
                           let end = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) {
                            index = end + 1
                            continue
                        }
                    }
                }
                index += 2
                continue
            case UInt8(ascii: "["):
                finishRun()
                index = skipClass(bytes, from: index)
                continue
            case UInt8(ascii: "("):
                finishRun()
                // Skip the whole group: its content is optional or alternative as far as we know.
                var depth = 0
                while index < bytes.count {
                    let b = bytes[index]
                    if b == UInt8(ascii: "\\") { index += 2; continue }
                    if b == UInt8(ascii: "[") { index = skipClass(bytes, from: index); continue }
                    if b == UInt8(ascii: "(") { depth += 1 }
                    if b == UInt8(ascii: ")") { depth -= 1; if depth == 0 { index += 1; break } }
                    index += 1
                }
                continue
            case UInt8(ascii: "?"), UInt8(ascii: "*"):
                current.removeSubrange(lastAtomStart...)
                finishRun()
            case UInt8(ascii: "{"):
                // {0,…} makes the last atom optional; {n,…} with n ≥ 1 keeps one copy.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "0") {
                    current.removeSubrange(lastAtomStart...)
                }
                finishRun()
                while index < bytes.count, bytes[index] != UInt8(ascii: "}") { index += 1 }
            case UInt8(ascii: "+"):
                finishRun()
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: ")"), UInt8(ascii: "|"):
                finishRun()
            default:
                // A multi-byte UTF-8 character is one atom.
                lastAtomStart = current.count
                current.append(byte)
                if byte >= 0xC0 {
                    while index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 {
                        index += 1
                        current.append(bytes[index])
                    }
                }
            }
            index += 1
        }
        finishRun()
        return best.isEmpty ? nil : best
    }

    private static func isEscapedLiteral(_ byte: UInt8) -> Bool {
        // Punctuation escapes stand for themselves; letters and digits are classes or special.
        !(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) &&
            !(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) &&
            !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}

extension RequiredLiterals {
    /// True when `bytes` holds an inline option setting such as `(?i)`, `(?x:` or `(?-i)`.
    fileprivate static func containsInlineOptions(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
            if bytes[index] == UInt8(ascii: "("), bytes[index + 1] == UInt8(ascii: "?") {
                let next = bytes[index + 2]
                if "imsxnUJ-^".utf8.contains(next) { return true }
            }
            index += 1
        }
        return false
    }
}
