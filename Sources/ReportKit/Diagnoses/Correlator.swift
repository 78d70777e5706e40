import CDLogCore
import CDLogKit
import StoreInspection

/// One cited entry: where it is and what it says.
public struct Citation: Sendable {
    public var source: String
    public var line: Int
    public var endLine: Int
    public var rule: String?
    public var title: String?
    public var severity: Severity?
    /// The first line of the message (cut).
    public var excerpt: String
    public var count: Int
    public var timestamp: String?
    public var fields: [(name: String, value: String)]
    public var isCrash: Bool

    /// `app.log:12` or `app.log:12-15`.
    public var location: String { Citation.location(source: source, line: line, endLine: endLine) }

    static func location(source: String, line: Int, endLine: Int) -> String {
        endLine > line ? "\(source):\(line)-\(endLine)" : "\(source):\(line)"
    }

    public func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    init(_ reported: ClassifiedEntry, cutter: ExcerptCutter = .plain) {
        self.init(entry: reported.entry, classification: reported.classification, count: reported.count, cutter: cutter)
    }

    init(entry e: Entry, classification: Classification?, count: Int, cutter: ExcerptCutter = .plain) {
        source = e.source
        line = e.line
        endLine = e.endLine
        rule = classification?.rule.id
        title = classification?.rule.title
        severity = classification?.severity
        excerpt = cutter.firstLine(e.message, limit: 300)
        self.count = count
        timestamp = e.timestamp
        fields = classification?.fields ?? e.presetFields
        isCrash = e.format == .crashReport
    }
}

/// Streams entries past every entry condition of a catalog, counting matches and keeping the first
/// few citations of each (memory: conditions × `keep`).
public final class EvidenceCollector {
    struct Tally {
        var count = 0
        var citations: [Citation] = []
    }

    /// One entry condition of the catalog, flattened (its place, and what it asks of an entry).
    private final class EntryCondition {
        let index: Int
        let diagnosis: Int
        let condition: Int
        let crashOnly: Bool
        let matcher: EntryMatcher
        init(index: Int, diagnosis: Int, condition: Int, crashOnly: Bool, matcher: EntryMatcher) {
            self.index = index
            self.diagnosis = diagnosis
            self.condition = condition
            self.crashOnly = crashOnly
            self.matcher = matcher
        }
    }

    let catalog: DiagnosisCatalog
    let keep: Int
    let cutter: ExcerptCutter
    private let scratch = MatchScratch()
    /// [diagnosis][condition]
    private(set) var tallies: [[Tally]]
    /// Every condition with an entry matcher, in catalog order.
    private let conditions: [EntryCondition]
    /// Per category (by `Category.ordinal`): the conditions an entry of that category can meet (those
    /// naming it, and those naming none); and those an unclassified entry can meet. Each entry is tried
    /// only against its own list, and no condition is copied on the way.
    private let byCategory: [[EntryCondition]]
    private let forUnclassified: [EntryCondition]
    /// Per rule met so far: does each condition's rule pattern match its id (indexed like `conditions`),
    /// so an entry costs one lookup by the rule object, not one by id string per condition.
    private var ruleVerdicts: [ObjectIdentifier: [Bool]] = [:]

    /// With a redacting `cutter`, citations are redacted before their excerpts are cut.
    init(catalog: DiagnosisCatalog, keep: Int = 5, cutter: ExcerptCutter) {
        self.catalog = catalog
        self.keep = keep
        self.cutter = cutter
        tallies = catalog.diagnoses.map { [Tally](repeating: Tally(), count: $0.conditions.count) }
        var flat: [EntryCondition] = []
        for (d, diagnosis) in catalog.diagnoses.enumerated() {
            for (c, condition) in diagnosis.conditions.enumerated() {
                guard let matcher = condition.entry else { continue }
                flat.append(EntryCondition(index: flat.count, diagnosis: d, condition: c, crashOnly: condition.kind == .crash, matcher: matcher))
            }
        }
        conditions = flat
        byCategory = Category.allCases.map { category in flat.filter { $0.matcher.categories.isEmpty || $0.matcher.categories.contains(category) } }
        forUnclassified = flat.filter { $0.matcher.categories.isEmpty && $0.matcher.minimumSeverity == nil && $0.matcher.rule == nil }
    }

    public func offer(_ reported: ClassifiedEntry) {
        offer(entry: reported.entry, classification: reported.classification, count: reported.count)
    }

    /// Offers one entry (`count` echoes folded into it).
    public func offer(entry: Entry, classification: Classification?, count: Int) {
        let isCrash = entry.format == .crashReport
        var citation: Citation?
        let verdicts = classification.map { ruleVerdicts(for: $0.rule) }
        let candidates = classification.map { byCategory[$0.category.ordinal] } ?? forUnclassified
        for condition in candidates {
            if condition.crashOnly && !isCrash { continue }
            let ruleMatches = verdicts.map { $0[condition.index] } ?? false
            guard matches(condition.matcher, entry, classification, ruleMatches: ruleMatches) else { continue }
            let d = condition.diagnosis, c = condition.condition
            tallies[d][c].count += count
            if tallies[d][c].citations.count < keep {
                if citation == nil { citation = Citation(entry: entry, classification: classification, count: count, cutter: cutter) }
                tallies[d][c].citations.append(citation!)
            }
        }
    }

    /// Whether each condition's rule pattern matches `rule`'s id, worked out the first time the rule is met.
    private func ruleVerdicts(for rule: Rule) -> [Bool] {
        if let known = ruleVerdicts[ObjectIdentifier(rule)] { return known }
        let verdicts = conditions.map { $0.matcher.rule?.matches(rule.id, scratch: scratch) ?? false }
        ruleVerdicts[ObjectIdentifier(rule)] = verdicts
        return verdicts
    }

    private func matches(_ m: EntryMatcher, _ entry: Entry, _ classification: Classification?, ruleMatches: Bool) -> Bool {
        if !m.categories.isEmpty {
            guard let category = classification?.category, m.categories.contains(category) else { return false }
        }
        if let minimum = m.minimumSeverity {
            guard let severity = classification?.severity, severity >= minimum else { return false }
        }
        if m.rule != nil, !ruleMatches { return false }
        if !m.fields.isEmpty {
            let fields = classification?.fields ?? entry.presetFields
            for (name, regex) in m.fields {
                guard let value = fields.first(where: { $0.name == name })?.value, regex.matches(value, scratch: scratch) else { return false }
            }
        }
        if let message = m.message, !message.matches(entry.message, scratch: scratch) { return false }
        return true
    }
}

/// A diagnosis that holds, with its evidence.
public struct DiagnosisResult: Sendable {
    public struct Evidence: Sendable {
        public var condition: String
        public var label: String
        public var kind: Condition.Kind
        public var optional: Bool
        /// Matching entries (echoes included); for store evidence, 1.
        public var count: Int
        public var citations: [Citation]
        /// The store that satisfied a store condition, with the figures the condition tested.
        public var storePath: String?
        public var storeFigures: [(name: String, value: String, test: String)]
    }

    public var id: String
    public var title: String
    public var severity: Severity
    public var priority: Int
    public var statement: String
    public var advice: [String]
    public var references: [String]
    public var evidence: [Evidence]
    /// Optional conditions that held, of how many.
    public var supportHeld: Int
    public var supportTotal: Int
    /// The labels of the optional conditions that did not hold: what would make the diagnosis surer.
    public var missingSupport: [String] = []
    var order: Int

    /// "high" when every optional condition held, "medium" otherwise.
    public var confidence: String { supportHeld == supportTotal ? "high" : "medium" }
}

/// Evaluates a catalog against collected evidence and inspected stores.
public enum Correlator {
    /// Every diagnosis that holds, best first: priority, severity, optional conditions held, declaration order.
    public static func evaluate(_ catalog: DiagnosisCatalog, evidence: EvidenceCollector, stores: [StoreFacts]) -> [DiagnosisResult] {
        var results: [DiagnosisResult] = []
        for (d, rule) in catalog.diagnoses.enumerated() {
            var held: [DiagnosisResult.Evidence] = []
            var failedRequired = false
            var storeForCondition: [String: StoreFacts] = [:]
            var firstFields: [String: Citation] = [:]
            for (c, condition) in rule.conditions.enumerated() {
                var item: DiagnosisResult.Evidence?
                switch condition.kind {
                case .log, .crash:
                    let tally = evidence.tallies[d][c]
                    if condition.entry!.count.holds(Double(tally.count)) && (tally.count > 0 || condition.entry!.count.op == .le || condition.entry!.count.op == .lt || condition.entry!.count.op == .eq) {
                        item = .init(condition: condition.name, label: condition.label, kind: condition.kind, optional: condition.optional,
                                     count: tally.count, citations: tally.citations, storePath: nil, storeFigures: [])
                        if let first = tally.citations.first { firstFields[condition.name] = first }
                    }
                case .store:
                    let matcher = condition.store!
                    if let store = stores.first(where: { holds(matcher, $0) }) {
                        storeForCondition[condition.name] = store
                        item = .init(condition: condition.name, label: condition.label, kind: .store, optional: condition.optional,
                                     count: 1, citations: [], storePath: store.path,
                                     storeFigures: matcher.figures.map { ($0.name, store.formatted($0.name) ?? "?",
                                                                            $0.name.hasSuffix("Bytes") ? "\($0.comparison.op.rawValue) \(Format.bytes($0.comparison.value))" : $0.comparison.description) }
                                        + matcher.findings.map { ("finding", $0, "present") })
                    }
                }
                if let item { held.append(item) } else if !condition.optional { failedRequired = true; break }
            }
            if failedRequired { continue }
            let optionalHeld = held.filter(\.optional).count
            guard optionalHeld >= rule.atLeast else { continue }

            func resolve(_ placeholder: String) -> String? {
                let parts = placeholder.split(separator: ".", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { return nil }
                let (name, key) = (parts[0], parts[1])
                if let store = storeForCondition[name] {
                    if key == "path" { return store.path }
                    if key == "walPath" { return store.walPath }
                    return store.formatted(key)
                }
                guard let item = held.first(where: { $0.condition == name }) else { return nil }
                if key == "count" { return Format.grouped(item.count) }
                guard let first = firstFields[name] else { return nil }
                switch key {
                case "line": return first.location
                case "rule": return first.rule
                case "title": return first.title
                default: return first.field(key)
                }
            }
            let statement = rule.statements.lazy.compactMap { Placeholders.fill($0, resolve) }.first ?? rule.title
            results.append(DiagnosisResult(id: rule.id, title: rule.title, severity: rule.severity, priority: rule.priority,
                                           statement: statement, advice: rule.advice, references: rule.references,
                                           evidence: held, supportHeld: optionalHeld,
                                           supportTotal: rule.conditions.filter(\.optional).count,
                                           missingSupport: rule.conditions.filter { c in c.optional && !held.contains { $0.condition == c.name } }.map(\.label),
                                           order: rule.order))
        }
        return results.sorted {
            if $0.priority != $1.priority { return $0.priority > $1.priority }
            if $0.severity != $1.severity { return $0.severity > $1.severity }
            if $0.supportHeld != $1.supportHeld { return $0.supportHeld > $1.supportHeld }
            return $0.order < $1.order
        }
    }

    static func holds(_ m: StoreMatcher, _ store: StoreFacts) -> Bool {
        for (name, comparison) in m.figures {
            guard let value = store.figures[name], comparison.holds(value) else { return false }
        }
        for id in m.findings where !store.findings.contains(where: { $0.id == id }) { return false }
        return true
    }
}

extension DiagnosisCatalog {
    /// The literals an unclassified entry must hold to matter to a report: `extra` (the appendix's
    /// Core Data / CloudKit words) and, for every entry condition an unclassified entry could satisfy
    /// (no rule, category or severity), the literals its message pattern requires. Nil when such a
    /// condition has no case-sensitive required literal: then every unclassified entry is wanted.
    public func unclassifiedLiterals(extra: [String]) -> [[UInt8]]? {
        var literals = extra.map { Array($0.utf8) }
        for diagnosis in diagnoses {
            for condition in diagnosis.conditions {
                guard let matcher = condition.entry, matcher.rule == nil, matcher.categories.isEmpty,
                      matcher.minimumSeverity == nil, condition.kind != .crash else { continue }
                guard let message = matcher.message, let required = RequiredLiterals.of(pattern: message.pattern),
                      !required.caseless else {
                    // Fields alone come from crash reports, which are always wanted; anything else: all.
                    if matcher.message == nil && !matcher.fields.isEmpty { continue }
                    return nil
                }
                literals.append(contentsOf: required.alternatives)
            }
        }
        return literals
    }
}

extension DiagnosisCatalog {
    /// What the catalog names that does not exist: a condition's `rule:` pattern no rule id of `ruleIDs`
    /// matches, a `findings:` id walcheck never gives. One line each (`diagnosis id, condition: …`);
    /// empty when every reference resolves. `cdlog rules test` prints them as failures.
    public func danglingReferences(ruleIDs: [String]) -> [String] {
        let scratch = MatchScratch()
        var problems: [String] = []
        for diagnosis in diagnoses {
            for condition in diagnosis.conditions {
                if let rule = condition.entry?.rule, !ruleIDs.contains(where: { rule.matches($0, scratch: scratch) }) {
                    problems.append("\(diagnosis.id), condition \(condition.name): rule pattern `\(rule.pattern)` matches no rule id")
                }
                for finding in condition.store?.findings ?? [] where !FindingRules.ids.contains(finding) {
                    problems.append("\(diagnosis.id), condition \(condition.name): walcheck gives no finding `\(finding)`")
                }
            }
        }
        return problems
    }
}
