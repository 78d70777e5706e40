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
