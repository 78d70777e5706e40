/// Decides cheaply which rules could match an entry, so most entries never reach PCRE2.
///
/// Contract: conservative — a rule (or pattern) it rules out cannot match: each of its patterns needs a
/// literal that is absent, or a `require` pattern does. Patterns without a usable literal are always
/// candidates.
///
/// One pass of a literal automaton over the entry finds which literals it contains; an inverted index
/// (literal → rules) turns them into the short, rank-ordered list of candidate rules, so an entry costs
/// work in proportion to the rules it could match, not to the size of the catalog. (An earlier design put
/// a second, smaller automaton over 4-byte literal prefixes in front as a gate; on the benchmark log it
/// let 61 % of entries through and made the whole run 15–30 % slower, so it was removed.)
public struct Prefilter: Sendable {
    private let automaton: LiteralAutomaton
    /// Per rule (rank order), per pattern: literal ids any of which admits the pattern; nil = always.
    private let patternLiterals: [[[Int32]?]]
    /// Per rule: one clause per `require` pattern that has literals; every clause needs one of its ids.
    private let requiredClauses: [[[Int32]]]
    /// Per literal: the rules (rank indices) with a pattern it admits.
    private let rulesOfLiteral: [[Int32]]
    /// Rules with a pattern that has no literal: candidates for every entry.
    private let alwaysCandidates: [Int32]

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
        let patternLiterals = rules.map { rule in rule.patterns.map(literalIDs) }
        let requiredClauses = rules.map { rule in rule.required.compactMap(literalIDs) }
        self.patternLiterals = patternLiterals
        self.requiredClauses = requiredClauses
        automaton = LiteralAutomaton(literals: literals)
        var rulesOfLiteral = [[Int32]](repeating: [], count: literals.count)
        var always: [Int32] = []
        for (ruleIndex, patterns) in patternLiterals.enumerated() {
            if patterns.contains(where: { $0 == nil }) { always.append(Int32(ruleIndex)); continue }
            for id in Set(patterns.flatMap { $0 ?? [] }) { rulesOfLiteral[Int(id)].append(Int32(ruleIndex)) }
        }
        self.rulesOfLiteral = rulesOfLiteral.map { $0.sorted() }
        alwaysCandidates = always
        ungatedRuleCount = always.filter { requiredClauses[Int($0)].isEmpty }.count
    }

    /// Per-entry state: which literals the current entry contains and which rules are candidates.
    /// Reuse one per thread.
    public struct Evaluation {
        var seenGeneration: [UInt32]
        var candidateGeneration: [UInt32]
        var generation: UInt32 = 0
        /// Rules (rank indices) that may match the entry last scanned, in rank order, each once.
        public internal(set) var candidates: [Int32] = []

        @inline(__always) func sawAny(of literals: [Int32]) -> Bool {
            for id in literals where seenGeneration[Int(id)] == generation { return true }
            return false
        }

        @inline(__always) mutating func addCandidate(_ rule: Int32) {
            guard candidateGeneration[Int(rule)] != generation else { return }
            candidateGeneration[Int(rule)] = generation
            candidates.append(rule)
        }
    }

    public func makeEvaluation() -> Evaluation {
        Evaluation(seenGeneration: [UInt32](repeating: 0, count: automaton.literalCount),
                   candidateGeneration: [UInt32](repeating: 0, count: patternLiterals.count))
    }

    /// Scans a new entry and collects its candidate rules. Returns false when there are none (the
    /// common case for noise), so the caller can skip the entry at once.
    public func scan(_ message: UnsafeRawBufferPointer, _ evaluation: inout Evaluation) -> Bool {
        evaluation.generation &+= 1
        if evaluation.generation == 0 {
            for i in evaluation.seenGeneration.indices { evaluation.seenGeneration[i] = 0 }
            for i in evaluation.candidateGeneration.indices { evaluation.candidateGeneration[i] = 0 }
            evaluation.generation = 1
        }
        evaluation.candidates.removeAll(keepingCapacity: true)
        let generation = evaluation.generation
        automaton.scan(message) { id in
            guard evaluation.seenGeneration[id] != generation else { return }
            evaluation.seenGeneration[id] = generation
            for rule in rulesOfLiteral[id] { evaluation.addCandidate(rule) }
        }
        for rule in alwaysCandidates { evaluation.addCandidate(rule) }
        if evaluation.candidates.count > 1 { evaluation.candidates.sort() }
        return !evaluation.candidates.isEmpty
    }

    /// True when every `require` pattern of rule `ruleIndex` has one of its literals in the entry last
    /// scanned (rules without `require` literals: always).
    @inline(__always)
    public func admitsRequirements(ruleIndex: Int, _ evaluation: Evaluation) -> Bool {
        for clause in requiredClauses[ruleIndex] where !evaluation.sawAny(of: clause) { return false }
        return true
    }

    /// True when pattern number `patternIndex` of rule `ruleIndex` may match the entry last scanned.
    @inline(__always)
    public func admits(ruleIndex: Int, patternIndex: Int, _ evaluation: Evaluation) -> Bool {
        guard let literals = patternLiterals[ruleIndex][patternIndex] else { return true }
        return evaluation.sawAny(of: literals)
    }

    /// How many rules have no literal gate (a pattern without literals and no `require` literals):
    /// they run PCRE2 on every entry.
    public let ungatedRuleCount: Int
    public var literalCount: Int { automaton.literalCount }
    /// "N literals, S states, C byte classes" for `rules list` and the benchmark.
    public var statistics: String {
        "\(automaton.literalCount) literals, \(automaton.stateCount) automaton states, \(automaton.byteClassCount) byte classes"
    }
}
