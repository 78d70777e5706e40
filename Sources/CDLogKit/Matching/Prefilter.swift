/// Decides cheaply which rules could match an entry, so most entries never reach PCRE2.
///
/// Contract: conservative — a rule it rules out cannot match (each of its patterns needs a literal
/// that is absent). Rules without a usable literal are always candidates.
///
/// Two stages keep the common case (an entry no rule cares about) cheap: a small automaton over the
/// first four bytes of every literal (caseless) says whether any literal could be present; only then
/// does the full automaton find which literals are. The small one's table fits in the L1/L2 cache, the
/// full one (thousands of states) does not.
public struct Prefilter: Sendable {
    private let automaton: LiteralAutomaton
    private let gate: LiteralAutomaton
    /// Bytes of each literal's start the gate looks for.
    static let gatePrefixLength = 4
    /// For each rule (by index in rank order): literal ids, any of which admits it; nil = always.
    private let ruleLiterals: [[Int]?]

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
        automaton = LiteralAutomaton(literals: literals)
        let prefixes = Set(literals.map { literal in
            literal.bytes.prefix(Prefilter.gatePrefixLength).map(RequiredLiterals.asciiLowercased)
        })
        gate = LiteralAutomaton(literals: prefixes.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, true) })
        self.ruleLiterals = ruleLiterals
        ungatedRuleCount = ruleLiterals.filter { $0 == nil }.count
    }

    /// Per-entry state: which literals the current entry contains. Reuse one per thread.
    public struct Evaluation {
        var seenGeneration: [UInt32]
        var generation: UInt32 = 0
    }

    public func makeEvaluation() -> Evaluation {
        Evaluation(seenGeneration: [UInt32](repeating: 0, count: automaton.literalCount))
    }

    /// Scans a new entry. Returns false when no gated rule can match and no rule is ungated
    /// (the common case for noise), so the caller can skip the entry at once.
    public func scan(_ message: UnsafeRawBufferPointer, _ evaluation: inout Evaluation) -> Bool {
        evaluation.generation &+= 1
        if evaluation.generation == 0 {
            for i in evaluation.seenGeneration.indices { evaluation.seenGeneration[i] = 0 }
            evaluation.generation = 1
        }
        let generation = evaluation.generation
        guard gate.containsAny(message) else { return hasUngatedRules }
        var any = false
        evaluation.seenGeneration.withUnsafeMutableBufferPointer { seen in
            automaton.scan(message) { id in
                seen[id] = generation
                any = true
            }
        }
        return any || hasUngatedRules
    }

    /// True when rule number `ruleIndex` (rank order) may match the entry last scanned.
    @inline(__always)
    public func admits(ruleIndex: Int, _ evaluation: Evaluation) -> Bool {
        guard let indices = ruleLiterals[ruleIndex] else { return true }
        for index in indices where evaluation.seenGeneration[index] == evaluation.generation { return true }
        return false
    }

    private var hasUngatedRules: Bool { ungatedRuleCount > 0 }

    /// How many rules have no literal gate (they run PCRE2 on every entry).
    public let ungatedRuleCount: Int
    public var literalCount: Int { automaton.literalCount }
    /// "N literals, S states, C byte classes" for `rules list` and the benchmark.
    public var statistics: String {
        "\(automaton.literalCount) literals, \(automaton.stateCount) automaton states, \(automaton.byteClassCount) byte classes; "
            + "gate: \(gate.literalCount) prefixes, \(gate.stateCount) states"
    }
}
