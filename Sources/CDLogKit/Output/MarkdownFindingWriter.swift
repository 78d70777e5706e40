import CDLogCore

/// `--format markdown`: a summary table and the findings, ready to paste into a GitHub or Jira issue.
/// Collects findings (bounded by the input's findings) and writes the document at the end.
final class MarkdownFindingWriter: FindingWriter {
    private let sink: OutputSink
    private var rows: [String] = []
    private var rules: [Rule] = []
    private var seenRules: Set<String> = []
    /// Beyond this many rows the table says how many more there were instead of growing without bound.
    static let maxRows = 2000
    private var omittedRows = 0
    private let masker = TemplateMasker()

    init(sink: OutputSink) { self.sink = sink }

    static func cell(_ text: String) -> String {
        text.replacingNewlines(with: " ").replacingPipes().clipped(160)
    }

    func report(_ reported: ClassifiedEntry) throws {
        let entry = reported.entry
        guard rows.count < MarkdownFindingWriter.maxRows else { omittedRows += 1; return }
        let location = "`\(TextFindingWriter.location(entry))`"
        let what: String
        if let c = reported.classification {
            let fields = c.fields.prefix(4).map { "`\($0.name)=\($0.value.clipped(50).replacingPipes())`" }.joined(separator: " ")
            let fingerprint = Fingerprint.text(Fingerprint.of(entry, ruleID: c.rule.id, masker: masker))
            what = MarkdownFindingWriter.cell(c.rule.title) + (fields.isEmpty ? "" : "<br>" + fields) + "<br>`#\(fingerprint)`"
            if seenRules.insert(c.rule.id).inserted { rules.append(c.rule) }
        } else {
            what = "`" + MarkdownFindingWriter.cell(entry.message.firstLine).replacingOccurrencesOfBacktick() + "`"
        }
        let count = reported.count > 1 ? " ×\(reported.count)" : ""
        let row = "| \(location) | \(reported.classification?.severity.name ?? "–") | \(reported.classification?.category.id ?? "–") | \(what)\(count) |"
        rows.append(visibleControlCharacters(row, newlines: true))
    }

    func finish(summary: ClassifySummary) throws {
        var out = "## cdlog findings\n\n"
        out += counted(summary.entries, "entry", "entries") + " read · \(summary.classified) classified · " + counted(summary.findings, "finding", "findings") + " shown\n\n"
        if !summary.byCategory.isEmpty {
            out += "| Category | Count |\n|---|---:|\n"
            for (c, n) in summary.byCategory { out += "| \(c.id) | \(n) |\n" }
            out += "\n| Severity | Count |\n|---|---:|\n"
            for (s, n) in summary.bySeverity { out += "| \(s.name) | \(n) |\n" }
            out += "\n"
        }
        if !rows.isEmpty {
            out += "### Findings\n\n| Where | Severity | Category | Finding |\n|---|---|---|---|\n"
            out += rows.joined(separator: "\n") + "\n"
            if omittedRows > 0 { out += "\n_\(omittedRows) more findings not shown._\n" }
            out += "\n"
        }
        let advised = rules.filter { $0.advice != nil }
        if !advised.isEmpty {
            out += "### What to do\n\n"
            for rule in advised {
                out += "<details><summary><b>\(rule.title)</b> (<code>\(rule.id)</code>, \(rule.severity.name))</summary>\n\n"
                out += (rule.advice ?? "") + "\n"
                if !rule.references.isEmpty {
                    out += "\nReferences: " + rule.references.joined(separator: "; ") + "\n"
                }
                out += "\n</details>\n\n"
            }
        }
        try sink.write(out)
        try sink.flush()
    }
}

extension String {
    func replacingPipes() -> String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
    func replacingOccurrencesOfBacktick() -> String { split(separator: "`", omittingEmptySubsequences: false).joined(separator: "'") }
}
