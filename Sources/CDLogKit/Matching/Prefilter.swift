import CScan

/// Decides cheaply which rules could match an entry, so most entries never reach PCRE2.
///
/// Contract: conservative — a rule (or pattern) it rules out cannot match: each of its patterns needs a
/// literal that is absent, or a `require` pattern does. Patterns without a usable literal are always
/// candidates.
///
/// One pass of a `LiteralScanner` over the entry finds which literals it contains; an inverted index
/// (literal → rules) turns them into the short, rank-ordered list of candidate rules, so an entry costs
/// work in proportion to the rules it could match, not to the size of the catalog.
public final class Prefilter: Sendable {
    /// What the per-entry work reads, as plain pointers (no reference counting when threads share it;
    /// see `LiteralScanner.Tables`). Valid while the `Prefilter` lives.
    public struct Tables: @unchecked Sendable {
        var scanner: LiteralScanner.Tables
        /// Per rule (rank order): its patterns are `rulePatternStart[r]..<rulePatternStart[r + 1]`.
        let rulePatternStart: UnsafePointer<Int32>
        /// Per pattern: literal ids (any of which admits it) at `patternLiteralStart[p]..<[p + 1]` of
        /// `patternLiteralIDs`; `patternAlways[p]` when it has no usable literal.
        let patternLiteralStart: UnsafePointer<Int32>
        let patternLiteralIDs: UnsafePointer<Int32>
        let patternAlways: UnsafePointer<Bool>
        /// Per literal: the rules with a pattern it admits (`literalRuleStart` into `literalRules`).
        let literalRuleStart: UnsafePointer<Int32>
        let literalRules: UnsafePointer<Int32>
        /// The rules' `require` clauses and the literals searched for on demand, as C reads them; shared
        /// by `admitsRequirements` and the quiet walk (`cscan_rule_clauses_hold`, `cscan_gate_admits`).
        var ruleGate: UnsafePointer<cscan_rule_gate>
        /// Rules with a pattern that has no literal: candidates for every entry.
        let alwaysCandidates: UnsafeBufferPointer<Int32>
    }

    public let tables: Tables
    private let scanner: LiteralScanner
    private let literals: [(bytes: [UInt8], caseless: Bool)]
    private let storage: FrozenStorage
    private let ruleCount: Int

    /// `patterns[i]` and `required[i]` are rule `i`'s patterns and `require` patterns, in rank order: the
    /// candidates an entry gets are these indices.
    public init(patterns: [[PCRERegex]], required: [[PCRERegex]]) {
        precondition(patterns.count == required.count, "one list of require patterns per rule")
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
        let patternLiterals = patterns.map { $0.map(literalIDs) }
        let requiredClauses = required.map { $0.compactMap(literalIDs) }
        // A `require` literal of at most one window that no pattern needs is searched for on demand, only
        // in entries with a candidate rule it could admit: scanned, a three- or four-byte literal would put
        // 256 windows per byte it lacks into the scanner's filter (`LiteralScanner`), and one or two bytes
        // would be searched for in every entry.
        let neededByPatterns = Set(patternLiterals.flatMap { $0.flatMap { $0 ?? [] } })
        let onDemand = literals.indices.map { id in
            !neededByPatterns.contains(Int32(id)) && literals[id].bytes.count <= Int(CSCAN_WINDOW_BYTES)
        }
        let onDemandBytes = literals.indices.map { id -> [UInt8] in
            guard onDemand[id] else { return [] }
            return literals[id].caseless ? literals[id].bytes.map(RequiredLiterals.asciiLowercased) : literals[id].bytes
        }
        // The scanner gets them empty (never found), so that ids stay the same.
        let scanned = literals.indices.map { id in onDemand[id] ? (bytes: [UInt8](), caseless: literals[id].caseless) : literals[id] }
        self.literals = scanned
        scanner = LiteralScanner(literals: scanned)
        let storage = FrozenStorage()
        self.storage = storage
        var rulesOfLiteral = [[Int32]](repeating: [], count: literals.count)
        var always: [Int32] = []
        for (ruleIndex, patterns) in patternLiterals.enumerated() {
            if patterns.contains(where: { $0 == nil }) { always.append(Int32(ruleIndex)); continue }
            for id in Set(patterns.flatMap { $0 ?? [] }) { rulesOfLiteral[Int(id)].append(Int32(ruleIndex)) }
        }
        func offsets<T>(_ groups: [[T]]) -> [Int32] {
            var result: [Int32] = [0]
            for group in groups { result.append(result.last! + Int32(group.count)) }
            return result
        }
        let patterns = patternLiterals.flatMap { $0 }
        let clauses = requiredClauses.flatMap { $0 }
        let alwaysCandidates = storage.freeze(always)
        let literalRuleStart = storage.freeze(offsets(rulesOfLiteral))
        let literalRules = storage.freeze(rulesOfLiteral.flatMap { $0.sorted() })
        let ruleGate = storage.freeze([cscan_rule_gate(
            window: scanner.tables.window, literal_count: literals.count,
            literal_rule_start: literalRuleStart, literal_rules: literalRules,
            literal_admits_alone: storage.freeze(rulesOfLiteral.map { rules in
                rules.contains { requiredClauses[Int($0)].isEmpty } ? UInt8(1) : 0
            }),
            rule_clause_start: storage.freeze(offsets(requiredClauses)),
            clause_literal_start: storage.freeze(offsets(clauses)),
            clause_literal_ids: storage.freeze(clauses.flatMap { $0 }),
            on_demand: storage.freeze(onDemand.map { $0 ? UInt8(1) : 0 }),
            on_demand_start: storage.freeze(offsets(onDemandBytes).map { UInt32($0) }),
            on_demand_bytes: storage.freeze(onDemandBytes.flatMap { $0 }),
            caseless: scanner.tables.caseless)])
        tables = Tables(
            scanner: scanner.tables,
            rulePatternStart: storage.freeze(offsets(patternLiterals)),
            patternLiteralStart: storage.freeze(offsets(patterns.map { $0 ?? [] })),
            patternLiteralIDs: storage.freeze(patterns.flatMap { $0 ?? [] }),
            patternAlways: storage.freeze(patterns.map { $0 == nil }),
            literalRuleStart: literalRuleStart,
            literalRules: literalRules,
            ruleGate: ruleGate,
            alwaysCandidates: UnsafeBufferPointer(start: alwaysCandidates, count: always.count))
        ruleCount = patterns.count
        ungatedRuleCount = always.filter { requiredClauses[Int($0)].isEmpty }.count
        onDemandCount = onDemand.filter { $0 }.count
    }

    /// The same prefilter with its literals anchored on the windows rarest in `sample` (see
    /// `LiteralScanner`): it admits exactly the same rules, usually faster on text like the sample.
    @_spi(Testing) public func tuned(toSample sample: UnsafeRawBufferPointer) -> Prefilter {
        Prefilter(tuning: self, scanner: LiteralScanner(literals: literals, sample: sample))
    }

    /// Shares `base`'s index tables (their storage too, so they live as long as either) with another
    /// scanner over the same literals.
    private init(tuning base: Prefilter, scanner: LiteralScanner) {
        var tables = base.tables
        tables.scanner = scanner.tables
        // The same gate over the new scanner (its tables, not the base's, which may go first).
        var ruleGate = base.tables.ruleGate.pointee
        ruleGate.window = scanner.tables.window
        ruleGate.caseless = scanner.tables.caseless
        tables.ruleGate = base.storage.freeze([ruleGate])
        self.tables = tables
        self.scanner = scanner
        literals = base.literals
        storage = base.storage
        ruleCount = base.ruleCount
        ungatedRuleCount = base.ungatedRuleCount
        onDemandCount = base.onDemandCount
    }

    /// Per-entry state: which literals the current entry contains and which rules are candidates.
    /// Reuse one per thread; not for sharing. Plain memory rather than arrays: every write to an array
    /// checked its uniqueness, several times per entry.
    public final class Evaluation {
        let literalCount: Int
        let ruleCount: Int
        /// Per literal / per rule: the generation (entry) that last saw it.
        let seenGeneration: UnsafeMutablePointer<UInt32>
        let candidateGeneration: UnsafeMutablePointer<UInt32>
        private let candidateStorage: UnsafeMutablePointer<Int32>
        /// The quiet walk's marks of found literals (`cscan_gate_admits`), apart from `seenGeneration`:
        /// the walk starts a generation per message and does not know `candidateGeneration`.
        let gateMarks: OpaquePointer
        @exclusivity(unchecked) var generation: UInt32 = 0
        @exclusivity(unchecked) var candidateCount = 0

        init(literalCount: Int, ruleCount: Int) {
            self.literalCount = literalCount
            self.ruleCount = ruleCount
            seenGeneration = .allocate(capacity: max(1, literalCount))
            seenGeneration.initialize(repeating: 0, count: max(1, literalCount))
            candidateGeneration = .allocate(capacity: max(1, ruleCount))
            candidateGeneration.initialize(repeating: 0, count: max(1, ruleCount))
            candidateStorage = .allocate(capacity: max(1, ruleCount))
            gateMarks = cscan_gate_marks_create(literalCount)
        }

        deinit {
            cscan_gate_marks_destroy(gateMarks)
            seenGeneration.deallocate()
            candidateGeneration.deallocate()
            candidateStorage.deallocate()
        }

        /// Rules (rank indices) that may match the entry last scanned, in rank order, each once.
        public var candidates: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: candidateStorage, count: candidateCount) }

        @inline(__always) func sawAny(_ ids: UnsafePointer<Int32>, from start: Int32, to end: Int32) -> Bool {
            for k in Int(start)..<Int(end) where seenGeneration[Int(ids[k])] == generation { return true }
            return false
        }

        /// Adds `rule` unless already there (each rule once: at most `ruleCount` candidates).
        @inline(__always) func addCandidate(_ rule: Int32) {
            guard candidateGeneration[Int(rule)] != generation else { return }
            candidateGeneration[Int(rule)] = generation
            candidateStorage[candidateCount] = rule
            candidateCount += 1
        }

        /// Starts a new entry: nothing seen, no candidates.
        @inline(__always) func beginEntry() {
            generation &+= 1
            if generation == 0 {
                seenGeneration.update(repeating: 0, count: max(1, literalCount))
                candidateGeneration.update(repeating: 0, count: max(1, ruleCount))
                generation = 1
            }
            candidateCount = 0
        }

        func sortCandidates() {
            var stored = UnsafeMutableBufferPointer(start: candidateStorage, count: candidateCount)
            stored.sort()
        }
    }

    public func makeEvaluation() -> Evaluation {
        Evaluation(literalCount: scanner.literalCount, ruleCount: ruleCount)
    }

    /// The gate of the quiet walk when every rule needs one of its anchored literals (no rule has a
    /// pattern without literals, and no literal is one or two bytes, searched for apart): an entry whose
    /// literals admit no rule (`cscan_gate_admits`: a pattern literal, and a literal of each `require`
    /// clause) has no candidate rule, so `classify` gives it no verdict. Nil otherwise.
    @_spi(Testing) public var quietEntryGate: QuietEntryGate? {
        tables.alwaysCandidates.isEmpty && tables.scanner.shortLiterals.isEmpty
            ? QuietEntryGate(gate: tables.ruleGate, scanner: tables.scanner) : nil
    }

    /// How many rules have no literal gate (a pattern without literals and no `require` literals):
    /// they run PCRE2 on every entry.
    public let ungatedRuleCount: Int
    public var literalCount: Int { scanner.literalCount }
    /// How many `require` literals are searched for on demand (`Tables.onDemand`).
    @_spi(Testing) public let onDemandCount: Int
    /// "N literals (A anchored on 4-byte windows, S searched for alone, D on demand)" for `rules list`
    /// and the benchmark.
    public var statistics: String {
        let searchedAlone = scanner.literalCount - scanner.anchoredCount - onDemandCount
        return "\(scanner.literalCount) literals (\(scanner.anchoredCount) anchored on \(CSCAN_WINDOW_BYTES)-byte windows, "
            + "\(searchedAlone) searched for alone, \(onDemandCount) on demand)"
    }
}

extension Prefilter.Tables {
    /// Scans a new entry and collects its candidate rules. Returns false when there are none (the
    /// common case for noise), so the caller can skip the entry at once.
    @inline(__always)
    public func scan(_ message: UnsafeRawBufferPointer, _ evaluation: Prefilter.Evaluation) -> Bool {
        evaluation.beginEntry()
        let generation = evaluation.generation
        let literalRuleStart = literalRuleStart, literalRules = literalRules
        scanner.scan(message) { id in
            guard evaluation.seenGeneration[id] != generation else { return }
            evaluation.seenGeneration[id] = generation
            for k in Int(literalRuleStart[id])..<Int(literalRuleStart[id + 1]) { evaluation.addCandidate(literalRules[k]) }
        }
        for rule in alwaysCandidates { evaluation.addCandidate(rule) }
        if evaluation.candidateCount > 1 { evaluation.sortCandidates() }
        return evaluation.candidateCount > 0
    }

    /// True when every `require` pattern of rule `ruleIndex` has one of its literals in `message`, the
    /// entry last scanned (rules without `require` literals: always).
    @inline(__always)
    public func admitsRequirements(ruleIndex: Int, _ evaluation: Prefilter.Evaluation, message: UnsafeRawBufferPointer) -> Bool {
        cscan_rule_clauses_hold(ruleGate, evaluation.seenGeneration, evaluation.generation, Int32(ruleIndex),
                                message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) != 0
    }

    /// True when pattern number `patternIndex` of rule `ruleIndex` may match the entry last scanned.
    @inline(__always)
    public func admits(ruleIndex: Int, patternIndex: Int, _ evaluation: Prefilter.Evaluation) -> Bool {
        let pattern = Int(rulePatternStart[ruleIndex]) + patternIndex
        if patternAlways[pattern] { return true }
        return evaluation.sawAny(patternLiteralIDs, from: patternLiteralStart[pattern], to: patternLiteralStart[pattern + 1])
    }
}
