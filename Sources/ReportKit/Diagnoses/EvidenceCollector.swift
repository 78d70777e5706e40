import CDLogCore
import CDLogKit

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
