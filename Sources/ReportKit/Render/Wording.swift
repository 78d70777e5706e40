/// Shared wording of the sections, so the three formats say the same thing.
enum Wording {
    static func evidenceDetail(_ e: DiagnosisResult.Evidence) -> String {
        switch e.kind {
        case .store:
            return e.storeFigures.map { $0.name == "finding" ? "walcheck finding `\($0.value)`" : "\($0.name) \($0.value) (rule: \($0.test))" }
                .joined(separator: "; ")
        case .crash:
            guard let c = e.citations.first else { return "" }
            return ["terminationCode", "watchdogEvent", "blamedCause", "cpuInterpretation"].compactMap { key in
                c.field(key).map { "\(key) \($0)" }
            }.joined(separator: "; ")
        case .log:
            var titles: [String] = []
            for c in e.citations {
                let t = c.title ?? c.rule ?? c.excerpt.cut(80)
                if !titles.contains(t) { titles.append(t) }
            }
            return (e.count > 1 ? "\(Format.grouped(e.count)) entries: " : "") + titles.joined(separator: "; ")
        }
    }

    static func support(_ d: DiagnosisResult) -> String {
        // Say what was not seen rather than a bare count ("0 of 1 supporting signals" read as no evidence at all).
        d.supportTotal == 0 || d.missingSupport.isEmpty ? "confidence \(d.confidence)"
            : "confidence \(d.confidence): the required evidence holds; not seen: " + d.missingSupport.joined(separator: "; ")
    }

    static func timelineNote(_ doc: ReportDocument) -> String? {
        guard doc.timelineOmittedEvents > 0 else { return nil }
        return "… and \(Format.grouped(doc.timelineOmittedEvents)) more events (\(Format.grouped(doc.timelineOmittedRows))\(doc.timelineOmittedRows >= 10_000 ? "+" : "") more distinct rows) not shown: the timeline is capped at \(doc.timeline.count) rows."
    }

    static func templatesNote(_ doc: ReportDocument) -> String? {
        guard doc.templatesOmittedLines > 0 else { return nil }
        return "… and \(Format.grouped(doc.templatesOmittedLines)) more lines in further templates not shown (capped at \(doc.templates.count) templates)."
    }

    static let title = "cdlog report"
}
