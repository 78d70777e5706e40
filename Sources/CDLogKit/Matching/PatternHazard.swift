/// Finds the pattern shapes that make a backtracking matcher take exponential (or high-polynomial) time,
/// so the rule loader can refuse them in user rule files before they run (issue 22: `(.*a){25}` and
/// `(a|aa)+$` ran for minutes).
///
/// Contract: `find` reads the pattern's syntax only (PCRE2 still compiles it afterwards) and reports the
/// first hazard with its byte offset:
/// - a group repeated without bound (`*`, `+`, `{n,}`) or more than `boundedRepeatLimit` times that
///   itself contains an unbounded repetition of something other than a negated class — `(\w+\s?)*`,
///   `(.*a){25}`;
/// - a group repeated without bound whose alternatives can begin with the same literal character —
///   `(a|aa)+`.
/// Atomic groups `(?>…)` and possessive quantifiers (`*+`, `++`, `{n,}+`) are safe by construction and
/// never reported. It is a screen, not a proof: what it misses is still bounded at run time by the
/// guarded match limits (`MatchScratch.guarded…`). Every pattern of the built-in catalog passes it, so a
/// user may copy any built-in rule to override it.
public enum PatternHazard {
    public struct Hazard: Equatable, Sendable {
        public let offset: Int
        public let message: String
    }

    /// Bounded repetition of a group holding an unbounded one is polynomial; up to this many times it
    /// stays cheap in practice.
    public static let boundedRepeatLimit = 8

    private struct Group {
        let start: Int
        var atomic = false
        var unboundedInside = false
        /// The first literal byte of each alternative (nil: not a plain literal, or none yet).
        var firsts: [UInt8?] = []
        var alternativeOpen = true
    }

    private enum Quantifier {
        case none
        case bounded(max: Int)
        case unbounded
    }

    public static func find(in pattern: String) -> Hazard? {
        let bytes = Array(pattern.utf8)
        var stack = [Group(start: 0)]
        var index = 0

        /// Reads a quantifier at `index` (advancing past it and a possessive/lazy mark).
        func quantifier() -> (Quantifier, possessive: Bool) {
            guard index < bytes.count else { return (.none, false) }
            var result: Quantifier = .none
            switch bytes[index] {
            case UInt8(ascii: "*"), UInt8(ascii: "+"):
                result = .unbounded
                index += 1
            case UInt8(ascii: "?"):
                result = .bounded(max: 1)
                index += 1
            case UInt8(ascii: "{"):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "}") { end += 1 }
                guard end < bytes.count else { return (.none, false) }
                let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                let parts = body.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters() }
                guard (1...2).contains(parts.count), parts.allSatisfy({ $0.isEmpty || Int($0) != nil }),
                      !(parts.first ?? "").isEmpty || parts.count == 2 else { return (.none, false) }
                if parts.count == 2 && parts[1].isEmpty { result = .unbounded }
                else { result = .bounded(max: Int(parts.last!) ?? 0) }
                index = end + 1
            default:
                return (.none, false)
            }
            var possessive = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") { possessive = true; index += 1 }
            else if index < bytes.count, bytes[index] == UInt8(ascii: "?") { index += 1 }
            return (result, possessive)
        }

        /// Records the first literal of the current alternative, once.
        func noteAtom(_ literal: UInt8?) {
            if stack[stack.count - 1].alternativeOpen {
                stack[stack.count - 1].firsts.append(literal)
                stack[stack.count - 1].alternativeOpen = false
            }
        }

        /// After an atom: an unbounded, non-possessive quantifier marks the enclosing group (a negated
        /// class such as `[^,]*` stops at its delimiter, so it is not counted).
        func atomQuantified(negatedClass: Bool) {
            let (q, possessive) = quantifier()
            if case .unbounded = q, !possessive, !negatedClass {
                stack[stack.count - 1].unboundedInside = true
            }
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                let escaped = bytes[index + 1]
                if escaped == UInt8(ascii: "Q") {
                    // \Q…\E: literal text.
                    var end = index + 2
                    while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "\\") && bytes[end + 1] == UInt8(ascii: "E")) { end += 1 }
                    noteAtom(index + 2 < bytes.count ? bytes[index + 2] : nil)
                    index = min(bytes.count, end + 2)
                    continue
                }
                index += 2
                // \x{…}, \p{…}, \N{…}, \g{…}, \k<…>: skip the braces.
                if index < bytes.count, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "<"),
                   [UInt8(ascii: "x"), UInt8(ascii: "p"), UInt8(ascii: "P"), UInt8(ascii: "N"), UInt8(ascii: "g"), UInt8(ascii: "k")].contains(escaped) {
                    let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: ">")
                    while index < bytes.count, bytes[index] != close { index += 1 }
                    index += 1
                }
                let isLetterOrDigit = (escaped >= 0x30 && escaped <= 0x39) || (escaped | 0x20 >= 0x61 && escaped | 0x20 <= 0x7A)
                noteAtom(isLetterOrDigit ? nil : escaped)
                atomQuantified(negatedClass: false)
            case UInt8(ascii: "["):
                let negated = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "^")
                index += negated ? 2 : 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
                    if bytes[index] == UInt8(ascii: "["), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":") {
                        // [:alpha:]
                        index += 2
                        while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "]")) { index += 1 }
                        index += 2
                        continue
                    }
                    index += 1
                }
                index += 1
                noteAtom(nil)
                atomQuantified(negatedClass: negated)
            case UInt8(ascii: "("):
                var group = Group(start: index)
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "#") {
                        while index < bytes.count, bytes[index] != UInt8(ascii: ")") { index += 1 }
                        index += 1
                        continue
                    }
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") { group.atomic = true }
                    // Skip the group's introducer: (?:  (?>  (?=  (?!  (?<=  (?<!  (?<name>  (?'name'  (?P<name>  (?i)  (?i:
                    index += 1
                    if index < bytes.count, bytes[index] == UInt8(ascii: "P") { index += 1 }
                    if index < bytes.count, bytes[index] == UInt8(ascii: "<") || bytes[index] == UInt8(ascii: "'") {
                        let close = bytes[index] == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "'")
                        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "=") || bytes[index + 1] == UInt8(ascii: "!") {
                            index += 2
                        } else {
                            while index < bytes.count, bytes[index] != close { index += 1 }
                            index += 1
                        }
                    } else if index < bytes.count, [UInt8(ascii: ":"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "|")].contains(bytes[index]) {
                        index += 1
                    } else {
                        // Option letters: (?i) sets options and is no group; (?i: opens one.
                        while index < bytes.count, bytes[index] != UInt8(ascii: ")"), bytes[index] != UInt8(ascii: ":") { index += 1 }
                        if index < bytes.count, bytes[index] == UInt8(ascii: ")") { index += 1; continue }
                        index += 1
                    }
                }
                stack.append(group)
            case UInt8(ascii: ")"):
                index += 1
                guard stack.count > 1 else { continue }
                let group = stack.removeLast()
                noteAtom(group.firsts.count == 1 ? group.firsts[0] : nil)
                let (q, possessive) = quantifier()
                let repeats: Bool
                switch q {
                case .none: repeats = false
                case .bounded(let max): repeats = max > boundedRepeatLimit
                case .unbounded: repeats = true
                }
                if repeats && !possessive && !group.atomic {
                    if group.unboundedInside {
                        return Hazard(offset: group.start, message: "a group repeated \(describe(q)) contains a repetition without bound (nested quantifiers); make the inner part possessive (`*+`, `++`) or atomic (`(?>…)`), or anchor each repetition on a literal it cannot match")
                    }
                    if case .unbounded = q {
                        let literals = group.firsts.compactMap { $0 }
                        if group.firsts.count > 1, Set(literals).count < literals.count {
                            return Hazard(offset: group.start, message: "a group repeated without bound has alternatives that begin alike (each repetition can split the text several ways); make the alternatives exclusive or the group atomic (`(?>…)`)")
                        }
                    }
                }
                if !group.atomic {
                    var inner = group.unboundedInside
                    if case .unbounded = q, !possessive { inner = true }
                    if inner { stack[stack.count - 1].unboundedInside = true }
                }
            case UInt8(ascii: "|"):
                index += 1
                stack[stack.count - 1].alternativeOpen = true
            default:
                index += 1
                let literal: UInt8? = [UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$")].contains(byte) ? nil : byte
                if byte == UInt8(ascii: "^") || byte == UInt8(ascii: "$") { continue }
                noteAtom(literal)
                atomQuantified(negatedClass: false)
            }
        }
        return nil
    }

    private static func describe(_ q: Quantifier) -> String {
        switch q {
        case .none: return "once"
        case .bounded(let max): return "up to \(max) times"
        case .unbounded: return "without bound"
        }
    }
}

private extension Substring {
    func trimmingCharacters() -> String {
        String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
