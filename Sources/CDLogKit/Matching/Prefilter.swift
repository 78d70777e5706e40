import CScan

/// Decides cheaply which rules could match an entry, so most entries never reach PCRE2.
///
/// Contract: conservative — a rule it rules out cannot match (each of its patterns needs a literal
/// that is absent). Rules without a usable literal are always candidates.
public struct Prefilter: Sendable {
    /// Distinct literals (case-sensitive ones, then caseless ones lower-cased).
    private let literals: [(bytes: [UInt8], caseless: Bool)]
    /// For each rule (by index in rank order): indices of literals, any of which admits it; nil = always.
    private let ruleLiterals: [[Int]?]
    private let needsLowercase: Bool

    public init(rules: [Rule]) {
        var literalIndex: [String: Int] = [:]
        var literals: [(bytes: [UInt8], caseless: Bool)] = []
        var ruleLiterals: [[Int]?] = []
        for rule in rules {
            var indices: [Int] = []
            var always = false
            for pattern in rule.patterns {
                guard let required = RequiredLiterals.of(pattern: pattern.pattern) else { always = true; break }
                for alternative in required.alternatives {
                    let key = (required.caseless ? "i:" : "s:") + String(decoding: alternative, as: UTF8.self)
                    if let existing = literalIndex[key] { indices.append(existing); continue }
                    literalIndex[key] = literals.count
                    indices.append(literals.count)
                    literals.append((alternative, required.caseless))
                }
            }
            ruleLiterals.append(always ? nil : indices)
        }
        self.literals = literals
        self.ruleLiterals = ruleLiterals
        needsLowercase = literals.contains { $0.caseless }
    }

    /// Per-entry evaluation state; reuse one per thread.
    public struct Evaluation {
        var present: [UInt8] = []   // 0 unknown, 1 present, 2 absent
        var lowered: [UInt8] = []
        var loweredReady = false
    }

    public func makeEvaluation() -> Evaluation {
        Evaluation(present: [UInt8](repeating: 0, count: literals.count))
    }

    /// Starts a new entry.
    public func reset(_ evaluation: inout Evaluation) {
        for i in evaluation.present.indices { evaluation.present[i] = 0 }
        evaluation.loweredReady = false
    }

    /// True when rule number `ruleIndex` (rank order) may match `message`. Literal lookups are cached
    /// per entry in `evaluation`.
    public func admits(ruleIndex: Int, message: UnsafeRawBufferPointer, _ evaluation: inout Evaluation) -> Bool {
        guard let indices = ruleLiterals[ruleIndex] else { return true }
        for index in indices {
            switch evaluation.present[index] {
            case 1: return true
            case 2: continue
            default:
                let literal = literals[index]
                let found: Bool
                if literal.caseless {
                    if !evaluation.loweredReady {
                        evaluation.lowered.removeAll(keepingCapacity: true)
                        evaluation.lowered.append(contentsOf: message.map(RequiredLiterals.asciiLowercased))
                        evaluation.loweredReady = true
                    }
                    found = evaluation.lowered.withUnsafeBytes { Prefilter.contains($0, literal.bytes) }
                } else {
                    found = Prefilter.contains(message, literal.bytes)
                }
                evaluation.present[index] = found ? 1 : 2
                if found { return true }
            }
        }
        return false
    }

    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let base = haystack.baseAddress else { return false }
        return needle.withUnsafeBytes { cscan_find(base, haystack.count, $0.baseAddress!, needle.count) >= 0 }
    }

    /// How many rules have a literal gate (for `rules list` statistics and the benchmark).
    public var gatedRuleCount: Int { ruleLiterals.filter { $0 != nil }.count }
}
