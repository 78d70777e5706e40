import CDLogCore

/// `--format text`: one line per finding (location, severity, category, title, key fields, `#` and the
/// fingerprint), then a
/// summary by category and the advice for each rule that fired. Colour only when asked for.
final class TextFindingWriter: RenderingFindingWriter {
    private let sink: OutputSink
    private let color: Bool
    private var adviceOrder: [Rule] = []
    private var seenRules: Set<String> = []
    private let masker = TemplateMasker()

    init(sink: OutputSink, color: Bool) {
        self.sink = sink
        self.color = color
    }

    private func paint(_ text: String, _ code: String) -> String { TextFindingWriter.paint(text, code, color: color) }

    static func paint(_ text: String, _ code: String, color: Bool) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    static func severityColor(_ severity: Severity?) -> String {
        switch severity {
        case .fatal?: return "1;35"
        case .error?: return "1;31"
        case .warning?: return "33"
        case .info?: return "36"
        default: return "2"
        }
    }

    static func location(_ entry: Entry) -> String {
        let source = visibleControlCharacters(entry.source, newlines: true)
        return entry.endLine > entry.line ? "\(source):\(entry.line)-\(entry.endLine)" : "\(source):\(entry.line)"
    }

    /// The finding's line, newline included.
    static func line(_ reported: ClassifiedEntry, color: Bool, masker: TemplateMasker) -> String {
        let entry = reported.entry
        let severity = reported.classification?.severity
        let severityText = (severity?.name ?? "-").padding(7)
        let categoryText = (reported.classification?.category.id ?? "unclassified").padding(14)
        var line = "\(location(entry))  \(paint(severityText, severityColor(severity), color: color))  \(categoryText)  "
        if let classification = reported.classification {
            // Titles of user rules, field values and messages are the input's text: control characters
            // are shown, never sent to the terminal (only the colours above are).
            line += visibleControlCharacters(classification.rule.title, newlines: true)
            let shown = classification.fields.prefix(4).map { "\($0.name)=\($0.value.clipped(60))" }
            if !shown.isEmpty { line += paint(visibleControlCharacters("  [" + shown.joined(separator: " ") + "]", newlines: true), "2", color: color) }
            line += paint("  #" + Fingerprint.text(Fingerprint.of(entry, ruleID: classification.rule.id, masker: masker)), "2", color: color)
        } else {
            line += visibleControlCharacters(entry.message.firstLine.clipped(120), newlines: true)
        }
        if reported.count > 1 { line += paint("  ×\(reported.count)", "2", color: color) }
        if entry.truncated { line += paint("  (entry cut at 1 MiB)", "2", color: color) }
        return line + "\n"
    }

    /// Remembers a rule that fired, for the advice at the end (in the order rules first fired).
    private func note(_ rule: Rule) {
        if seenRules.insert(rule.id).inserted { adviceOrder.append(rule) }
    }

    func report(_ reported: ClassifiedEntry) throws {
        if let rule = reported.classification?.rule { note(rule) }
        try sink.write(TextFindingWriter.line(reported, color: color, masker: masker))
    }

    func makeRenderer() -> any EntryRenderer { TextEntryRenderer(color: color) }

    func report(rendered: RenderedFindings) throws {
        rendered.rules.forEach(note)
        try sink.write(bytes: rendered.bytes)
    }

    func flush() throws { try sink.flush() }

    func finish(summary: ClassifySummary) throws {
        var out = "\n"
        out += counted(summary.entries, "entry", "entries") + " read, \(summary.classified) classified, " + counted(summary.findings, "finding", "findings") + " shown\n"
        if !summary.byCategory.isEmpty {
            let parts = summary.byCategory.map { "\($0.category.id) \($0.count)" }
            out += "by category: " + parts.joined(separator: ", ") + "\n"
            let severities = summary.bySeverity.map { "\($0.severity.name) \($0.count)" }
            out += "by severity: " + severities.joined(separator: ", ") + "\n"
        }
        if summary.truncatedEntries > 0 { out += counted(summary.truncatedEntries, "entry was", "entries were") + " cut at 1 MiB\n" }
        if summary.entries > 0 && summary.classified == 0 { out += ClassifySummary.nothingRelevantHint + "\n" }
        let advised = adviceOrder.filter { $0.advice != nil && $0.severity >= .warning }
        if !advised.isEmpty {
            out += "\nwhat to do:\n"
            for rule in advised {
                out += "- " + paint(visibleControlCharacters(rule.title, newlines: true), "1") + " (\(rule.id))\n"
                out += "  " + visibleControlCharacters(rule.advice ?? "").replacingNewlines(with: "\n  ") + "\n"
            }
        }
        try sink.write(out)
        try sink.flush()
    }
}

/// Renders findings as `TextFindingWriter` prints them. One per thread (its masker is not thread-safe).
final class TextEntryRenderer: EntryRenderer, @unchecked Sendable {
    let color: Bool
    private let masker = TemplateMasker()
    init(color: Bool) { self.color = color }

    func render(_ entry: ClassifiedEntry, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: TextFindingWriter.line(entry, color: color, masker: masker).utf8)
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func clipped(_ limit: Int) -> String {
        let flat = replacingNewlines(with: " ")
        return flat.count <= limit ? flat : String(flat.prefix(limit - 1)) + "…"
    }

    var firstLine: String { textLines().first.map(String.init) ?? "" }

    func replacingNewlines(with separator: String) -> String {
        textLines().joined(separator: separator)
    }
}
