/// Decides cheaply which rules could match an entry, so most entries never reach PCRE2.
///
/// Contract: conservative — a rule (or pattern) it rules out cannot match: each of its patterns needs a
/// literal that is absent, or a `require` pattern does. Patterns without a usable literal are always
/// candidates.
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
    /// Per rule (rank order), per pattern: literal ids any of which admits the pattern; nil = always.
    private let patternLiterals: [[[Int32]?]]
    /// Per rule: one clause per `require` pattern that has literals; every clause needs one of its ids.
    private let requiredClauses: [[[Int32]]]

    public init(rules: [Rule]) {
        var literalIndex: [String: Int32] = [:]
        var literals: [(bytes: [UInt8], caseless: Bool)] = []
        func literalIDs(_ pattern: PCRERegex) -> [Int32]? {
            guard let required = RequiredLiterals.of(pattern: pattern.pattern) else { return nil }
            return required.alternatives.map { alternative in
                let key = (required.caseless ? "i:" : "s:") + String(decoding: alternative, as: UTF8.self)
                if let existing = literalIndex[key] { return existing }
                literalIndex[key] = Int32(literals.count)
                literals.append((alternative, required.caseless))
                return Int32(literals.count - 1)
            }
        }
        patternLiterals = rules.map { rule in rule.patterns.map(literalIDs) }
        requiredClauses = rules.map { rule in rule.required.compactMap(literalIDs) }
        automaton = LiteralAutomaton(literals: literals)
        let prefixes = Set(literals.map { literal in
            literal.bytes.prefix(Prefilter.gatePrefixLength).map(RequiredLiterals.asciiLowercased)
        })
        gate = LiteralAutomaton(literals: prefixes.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, true) },
                                keyLength: Prefilter.gatePrefixLength)
        ungatedRuleCount = zip(patternLiterals, requiredClauses).filter { patterns, clauses in
            clauses.isEmpty && patterns.contains { $0 == nil }
        }.count
    }

    /// Per-entry state: which literals the current entry contains. Reuse one per thread.
    public struct Evaluation {
        var seenGeneration: [UInt32]
        var generation: UInt32 = 0

        @inline(__always) func sawAny(of literals: [Int32]) -> Bool {
            for id in literals where seenGeneration[Int(id)] == generation { return true }
            return false
        }
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

    /// True when rule number `ruleIndex` (rank order) may match the entry last scanned: one of its
    /// patterns may match and every `require` pattern's literals are present.
    @inline(__always)
    public func admits(ruleIndex: Int, _ evaluation: Evaluation) -> Bool {
        for clause in requiredClauses[ruleIndex] where !evaluation.sawAny(of: clause) { return false }
        for literals in patternLiterals[ruleIndex] {
            guard let literals else { return true }
            if evaluation.sawAny(of: literals) { return true }
        }
        return false
    }

    /// True when pattern number `patternIndex` of rule `ruleIndex` may match the entry last scanned.
    @inline(__always)
    public func admits(ruleIndex: Int, patternIndex: Int, _ evaluation: Evaluation) -> Bool {
        guard let literals = patternLiterals[ruleIndex][patternIndex] else { return true }
        return evaluation.sawAny(of: literals)
    }

    private var hasUngatedRules: Bool { ungatedRuleCount > 0 }

    /// How many rules have no literal gate (a pattern without literals and no `require` literals):
    /// they run PCRE2 on every entry.
    public let ungatedRuleCount: Int
    public var literalCount: Int { automaton.literalCount }
    /// "N literals, S states, C byte classes" for `rules list` and the benchmark.
    public var statistics: String {
        "\(automaton.literalCount) literals, \(automaton.stateCount) automaton states, \(automaton.byteClassCount) byte classes; "
            + "gate: \(gate.literalCount) prefixes, \(gate.stateCount) states"
    }
}
