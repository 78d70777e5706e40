/// Derives, from a PCRE2 pattern's source, literals of which every match must contain at least one,
/// for the prefilter.
///
/// Contract: the result is conservative. `nil` means "no usable literal" (the pattern must always be
/// run); otherwise a match is only possible when the subject contains at least one of `alternatives`
/// (compared caselessly when `caseless`). A pattern with any caseless part is treated as caseless as a
/// whole (a caseless check admits more, never less). Anything the analysis does not understand
/// (`(?x)`, `\Q…\E`, backreferences, conditionals) yields `nil`, never a wrong literal. A straight quote is
/// no part of a literal: typography may have curled it in the text (`Classifier.plainText`).
public struct RequiredLiterals: Equatable, Sendable {
    public var alternatives: [[UInt8]]
    public var caseless: Bool

    /// Literals shorter than this are not worth a prefilter check.
    public static let minimumLength = 3

    public static func of(pattern: String) -> RequiredLiterals? {
        let bytes = Array(pattern.utf8)
        var parser = Parser(bytes: bytes)
        guard let set = parser.parseAlternation(), parser.index == bytes.count, !parser.unsupported,
              let chosen = set, !chosen.isEmpty else { return nil }
        let caseless = parser.sawCaseless
        let alternatives = caseless ? chosen.map { $0.map(asciiLowercased) } : chosen
        return RequiredLiterals(alternatives: Array(Set(alternatives)).sorted { $0.lexicographicallyPrecedes($1) }, caseless: caseless)
    }

    @inline(__always) static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte | 0x20 : byte
    }

    /// A literal set: any match contains at least one member. Nil inside = unknown.
    typealias LiteralSet = [[UInt8]]?

    /// Picks the more selective of two sets: the one whose shortest member is longer.
    static func better(_ a: LiteralSet, _ b: LiteralSet) -> LiteralSet {
        guard let a, !a.isEmpty else { return b }
        guard let b, !b.isEmpty else { return a }
        let minA = a.map(\.count).min()!, minB = b.map(\.count).min()!
        if minA != minB { return minA > minB ? a : b }
        return a.count <= b.count ? a : b
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var unsupported = false
        var sawCaseless = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// Parses branches until `)` or the end. Returns the set for the whole alternation: the union of
        /// each branch's set, or nil (inner) when any branch has none.
        mutating func parseAlternation() -> LiteralSet? {
            var union: [[UInt8]] = []
            var known = true
            while true {
                let branch = parseSequence()
                if unsupported { return nil }
                if let branch, !branch.isEmpty { union.append(contentsOf: branch) } else { known = false }
                if index < bytes.count, bytes[index] == UInt8(ascii: "|") { index += 1; continue }
                break
            }
            return .some(known ? union : nil)
        }

        /// Parses one branch; returns its best literal set (nil when it has none).
        mutating func parseSequence() -> LiteralSet {
            var best: LiteralSet = nil
            var run: [UInt8] = []
            var lastAtomStart = 0
            func finishRun() {
                if run.count >= RequiredLiterals.minimumLength { best = RequiredLiterals.better(best, [run]) }
                run.removeAll(keepingCapacity: true)
                lastAtomStart = 0
            }
            func applyQuantifier(_ effect: QuantifierEffect, _ atomStart: Int) {
                switch effect {
                case .none: break
                case .dropAtom: run.removeSubrange(atomStart...); finishRun()
                case .endRun: finishRun()
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "|"), UInt8(ascii: ")"):
                    finishRun()
                    return best
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { unsupported = true; return nil }
                    let next = bytes[index + 1]
                    index += 2
                    if next == UInt8(ascii: "Q") || next == UInt8(ascii: "g") || next == UInt8(ascii: "k")
                        || (next >= UInt8(ascii: "1") && next <= UInt8(ascii: "9")) {
                        unsupported = true
                        return nil
                    }
                    if next == UInt8(ascii: "'") || next == UInt8(ascii: "\"") {
                        // A quote a page may have curled: no part of a literal (see `default:`).
                        finishRun()
                        skipQuantifier()
                    } else if Parser.isEscapedLiteral(next) {
                        lastAtomStart = run.count
                        run.append(next)
                        applyQuantifier(quantifierAfterLiteral(), lastAtomStart)
                    } else {
                        finishRun()
                        // \x{…}, \p{…}, \o{…}: skip the braces.
                        if index < bytes.count, bytes[index] == UInt8(ascii: "{"),
                           let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) {
                            index = close + 1
                        }
                        skipQuantifier()
                    }
                case UInt8(ascii: "["):
                    finishRun()
                    index = Parser.skipClass(bytes, from: index)
                    skipQuantifier()
                case UInt8(ascii: "("):
                    finishRun()
                    guard let groupSet = parseGroup() else {
                        if unsupported { return nil }
                        continue
                    }
                    if !consumeOptionalQuantifier() { best = RequiredLiterals.better(best, groupSet) }
                case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                    finishRun()
                    index += 1
                    skipQuantifier()
                case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"):
                    // A quantifier after a breaker: nothing to undo.
                    finishRun()
                    skipQuantifier()
                case UInt8(ascii: "'"), UInt8(ascii: "\""):
                    // A quote ends a literal: a forum or blog engine prints it curled (`Can’t`, `“x”`), and
                    // the message must still reach the classifier's reading in plain typography.
                    finishRun()
                    index += 1
                    skipQuantifier()
                default:
                    lastAtomStart = run.count
                    run.append(byte)
                    index += 1
                    if byte >= 0xC0 {
                        while index < bytes.count, bytes[index] & 0xC0 == 0x80 {
                            run.append(bytes[index])
                            index += 1
                        }
                    }
                    applyQuantifier(quantifierAfterLiteral(), lastAtomStart)
                }
            }
            finishRun()
            return best
        }

        enum QuantifierEffect { case none, dropAtom, endRun }

        /// After a literal atom: an optional quantifier drops the atom; `+`/`{n,}` keep one copy and end
        /// the run. Consumes the quantifier.
        mutating func quantifierAfterLiteral() -> QuantifierEffect {
            guard index < bytes.count else { return .none }
            let effect: QuantifierEffect
            switch bytes[index] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"): effect = .dropAtom
            case UInt8(ascii: "+"): effect = .endRun
            case UInt8(ascii: "{"):
                effect = (index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "0")) ? .dropAtom : .endRun
            default: return .none
            }
            skipQuantifier()
            return effect
        }

        /// Skips a quantifier at `index` if there is one (with a lazy/possessive suffix).
        mutating func skipQuantifier() {
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"): index += 1
            case UInt8(ascii: "{"):
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else { index += 1; return }
                index = close + 1
            default: return
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        }

        /// True (and consumed) when a quantifier that allows zero repetitions follows.
        mutating func consumeOptionalQuantifier() -> Bool {
            guard index < bytes.count else { return false }
            let b = bytes[index]
            let optional = b == UInt8(ascii: "?") || b == UInt8(ascii: "*")
                || (b == UInt8(ascii: "{") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "0"))
            skipQuantifier()
            return optional
        }

        /// Parses a group at `(`; returns its literal set, or nil for lookarounds and option settings
        /// (which require nothing) — `unsupported` is set for constructs that defeat the analysis.
        mutating func parseGroup() -> [[UInt8]]? {
            index += 1  // (
            var capturesLiterals = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
                index += 1
                guard index < bytes.count else { unsupported = true; return nil }
                let kind = bytes[index]
                switch kind {
                case UInt8(ascii: ":"), UInt8(ascii: ">"), UInt8(ascii: "|"): index += 1
                case UInt8(ascii: "="), UInt8(ascii: "!"): index += 1; capturesLiterals = false
                case UInt8(ascii: "<"):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "=") || bytes[index + 1] == UInt8(ascii: "!") {
                        index += 2; capturesLiterals = false
                    } else {
                        guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { unsupported = true; return nil }
                        index = close + 1
                    }
                case UInt8(ascii: "P"), UInt8(ascii: "'"):
                    guard let close = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "'") && $0 != kind }) ?? bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "'")) else { unsupported = true; return nil }
                    index = close + 1
                default:
                    // Option letters: (?i) (?i: (?-i) (?s) … ; x changes how the pattern reads.
                    var flags: [UInt8] = []
                    while index < bytes.count, bytes[index] != UInt8(ascii: ")"), bytes[index] != UInt8(ascii: ":") {
                        flags.append(bytes[index])
                        index += 1
                    }
                    guard index < bytes.count, flags.allSatisfy({ "imsxnUJ-^".utf8.contains($0) }) else { unsupported = true; return nil }
                    if flags.contains(UInt8(ascii: "x")) { unsupported = true; return nil }
                    if flags.contains(UInt8(ascii: "i")) { sawCaseless = true }
                    if bytes[index] == UInt8(ascii: ")") { index += 1; return nil }  // option setting only
                    index += 1  // ':'
                }
            }
            guard let inner = parseAlternation() else { return nil }
            guard index < bytes.count, bytes[index] == UInt8(ascii: ")") else { unsupported = true; return nil }
            index += 1
            return capturesLiterals ? inner : nil
        }

        static func isEscapedLiteral(_ byte: UInt8) -> Bool {
            !(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) &&
                !(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) &&
                !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }

        /// Index just past the character class starting at `from` (which holds `[`).
        static func skipClass(_ bytes: [UInt8], from: Int) -> Int {
            var index = from + 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
                if bytes[index] == UInt8(ascii: "["), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":"),
                   let end = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "]")) {
                    index = end + 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") { return index + 1 }
                index += 1
            }
            return bytes.count
        }
    }
}
