import CDLogCore

/// One self-contained HTML file (inline CSS, no script, no network) with the Markdown report's content
/// and a chart of events over time by severity (`HTMLChart`). It takes the window's width, and prints with
/// every collapsed evidence block open.
enum HTMLRenderer {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static let severityColor: [Severity: String] = [.fatal: "#b0122b", .error: "#d9480f", .warning: "#b08800", .info: "#1c6fb5", .debug: "#6b7280"]

    static let style = """
    body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;max-width:1100px;margin:24px auto;padding:0 16px}
    h1{font-size:24px;border-bottom:1px solid #d0d7de;padding-bottom:6px}h2{font-size:19px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:28px}h3{font-size:16px}
    table{border-collapse:collapse;margin:8px 0 12px;display:block;overflow-x:auto}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
    code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;border-radius:4px}code{padding:1px 4px;overflow-wrap:anywhere}pre{padding:8px;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
    td.t{white-space:nowrap}
    .headline{border-left:4px solid #b0122b;background:#fff5f5;padding:10px 14px;font-size:16px;font-weight:600}.ok{border-left-color:#2da44e;background:#f0fff4}
    .sev{font-weight:600}.muted{color:#656d76}code.fp{color:#656d76;font-size:11px;white-space:nowrap}details{margin:6px 0}summary{cursor:pointer;color:#0969da}
    \(HTMLChart.style)
    @media print{body{max-width:none;margin:0;padding:0;font-size:11px}h2{break-after:avoid}table{display:table}tr,pre,.chart{break-inside:avoid}
    details::details-content{content-visibility:visible;display:block}details>summary{list-style:none;color:#1f2328;font-weight:600}
    .headline{border-left-width:3px}}
    """

    static func code(_ s: String) -> String { "<code>\(escape(s))</code>" }
    /// A path or `path:line` in code type that breaks after its slashes rather than inside a name.
    static func location(_ s: String) -> String {
        "<code>" + escape(s).replacingOccurrences(of: "/", with: "/<wbr>") + "</code>"
    }
    static func sev(_ s: Severity) -> String { "<span class=\"sev\" style=\"color:\(severityColor[s]!)\">\(s.name)</span>" }

    static func render(_ doc: ReportDocument) -> String {
        var o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        o += "<title>\(escape(Wording.title))\(doc.headline.map { " — " + escape($0.title) } ?? "")</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n"
        o += "<h1>\(Wording.title)</h1>\n<p><b>Inputs:</b> " + (doc.sources.isEmpty ? "none" : doc.sources.map(code).joined(separator: ", "))
        if !doc.storePaths.isEmpty { o += " · <b>Store:</b> " + doc.storePaths.map(code).joined(separator: ", ") }
        o += "</p>\n"
        if doc.redacted {
            o += "<p class=\"muted\"><i>Redacted:</i> personal data replaced by placeholders"
                + (doc.redactions.isEmpty ? " (none found)." : " (" + doc.redactions.map { "\($0.values) \($0.kind)" }.joined(separator: ", ") + ").") + "</p>\n"
        }

        o += "<h2>Diagnosis</h2>\n"
        if let d = doc.headline {
            o += "<p class=\"headline\">\(escape(d.statement))</p>\n"
            o += "<p>\(sev(d.severity)) · \(escape(Wording.support(d))) · diagnosis \(code(d.id))</p>\n"
            o += "<h3>Evidence</h3>\n<table><tr><th>#</th><th>evidence</th><th>where</th><th>what it shows</th></tr>\n"
            for (i, e) in d.evidence.enumerated() {
                let whereText = e.kind == .store ? code(e.storePath ?? "") : e.citations.map { location($0.location) }.joined(separator: ", ")
                    + (e.count > e.citations.count ? " (+\(Format.grouped(e.count - e.citations.count)) more)" : "")
                o += "<tr><td>\(i + 1)</td><td>\(escape(e.label))</td><td>\(whereText)</td><td>\(escape(Wording.evidenceDetail(e)))</td></tr>\n"
            }
            o += "</table>\n"
            for e in d.evidence where e.kind != .store && !e.citations.isEmpty {
                var body = ""
                for c in e.citations {
                    body += "\(c.location)  \(c.excerpt)\n"
                    if c.isCrash {
                        if let f = c.field("blamedFrames") { body += "blamed frames:\n  " + f.components(separatedBy: "; ").joined(separator: "\n  ") + "\n" }
                        if let f = c.field("mainThreadFrames") { body += "main thread:\n  " + f.components(separatedBy: "; ").joined(separator: "\n  ") + "\n" }
                    }
                }
                o += "<details><summary>\(escape(e.label)): \(e.citations.count) cited line\(e.citations.count == 1 ? "" : "s")</summary><pre>\(escape(body))</pre></details>\n"
            }
            o += "<h3>What to do</h3>\n<ol>\n" + d.advice.map { "<li>\(escape($0))</li>\n" }.joined() + "</ol>\n"
            if !d.references.isEmpty { o += "<p class=\"muted\">References: " + d.references.map { "<i>\(escape($0))</i>" }.joined(separator: "; ") + "</p>\n" }
        } else {
            o += "<p class=\"headline ok\">\(escape(doc.fallbackHeadline ?? ""))</p>\n"
            if let c = doc.fallbackCitation { o += "<p>Evidence: \(code(c.location)) \(code(c.excerpt))</p>\n" }
            if let a = doc.fallbackAdvice { o += "<p>What to do: \(escape(a))</p>\n" }
        }
        if let note = doc.privateDataNote { o += "<p class=\"muted\"><i>Hidden by the unified log:</i> \(escape(note))</p>\n" }
        if doc.diagnoses.count > 1 {
            o += "<h3>Other diagnoses that hold</h3>\n<table><tr><th>diagnosis</th><th>severity</th><th>statement</th><th>evidence</th></tr>\n"
            for d in doc.diagnoses.dropFirst() {
                let cites = d.evidence.flatMap { $0.kind == .store ? [$0.storePath ?? ""] : $0.citations.prefix(2).map(\.location) }
                o += "<tr><td>\(code(d.id))</td><td>\(sev(d.severity))</td><td>\(escape(d.statement))</td><td>\(cites.map(code).joined(separator: ", "))</td></tr>\n"
            }
            o += "</table>\n"
        }

        if !doc.evidenceGaps.isEmpty {
            o += "<h2>What the evidence cannot show</h2>\n<ul>\n"
            for gap in doc.evidenceGaps { o += "<li>\(escape(gap.gap)) <i>How to get it:</i> \(escape(gap.how))</li>\n" }
            o += "</ul>\n"
        }
        if !doc.nextCommands.isEmpty {
            o += "<h2>Next commands</h2>\n<pre>" + doc.nextCommands.map(escape).joined(separator: "\n") + "</pre>\n"
        }

        o += "<h2>Environment</h2>\n"
        if doc.environment.isEmpty { o += "<p>Nothing known (no crash report, no store).</p>\n" } else {
            o += "<table><tr><th></th><th>value</th><th>from</th></tr>\n"
            for f in doc.environment { o += "<tr><th>\(escape(f.label))</th><td>\(escape(f.value))</td><td>\(f.source.map(code) ?? "")</td></tr>\n" }
            o += "</table>\n"
        }

        o += "<h2>Timeline</h2>\n"
        o += HTMLChart.render(doc.chart)
        o += "<p>\(doc.timeline.count) event\(doc.timeline.count == 1 ? "" : "s")" + (doc.timelineOrder == "time" ? ", by time" : ", in input order")
            + "; repeated events are folded into one row with a count" + (doc.timelineMinimumSeverity > .debug ? "; below \(doc.timelineMinimumSeverity.name) left out" : "") + ".</p>\n"
        if !doc.timeline.isEmpty {
            o += "<table><tr><th>time</th><th>where</th><th>severity</th><th>category</th><th>event</th><th>count</th></tr>\n"
            for row in doc.timeline {
                let whereText = row.count > 1 && row.lastLocation != row.first.location ? "\(location(row.first.location)) … \(location(row.lastLocation))" : location(row.first.location)
                o += "<tr><td class=\"t\">\(escape(row.first.timestamp ?? "—"))</td><td>\(whereText)</td><td>\(sev(row.severity))</td><td>\(row.category.id)</td><td title=\"\(escape(row.first.excerpt))\">\(escape(row.first.title ?? row.first.rule ?? "")) <code class=\"fp\">#\(row.fingerprint)</code></td><td>\(row.count)</td></tr>\n"
            }
            o += "</table>\n"
        }
        if let note = Wording.timelineNote(doc) { o += "<p class=\"muted\">\(escape(note))</p>\n" }

        o += "<h2>Counts</h2>\n<p>" + counted(doc.entries, "entry", "entries", number: { Format.grouped($0) }) + " read, \(Format.grouped(doc.classified)) classified.</p>\n"
        if !doc.byCategory.isEmpty {
            o += "<table><tr><th>category</th><th>entries</th></tr>\n" + doc.byCategory.map { "<tr><td>\($0.0.id)</td><td>\($0.1)</td></tr>\n" }.joined() + "</table>\n"
            o += "<table><tr><th>severity</th><th>entries</th></tr>\n" + doc.bySeverity.map { "<tr><td>\(sev($0.0))</td><td>\($0.1)</td></tr>\n" }.joined() + "</table>\n"
        }

        o += "<h2>Crash reports</h2>\n"
        if doc.crashes.isEmpty { o += "<p>None given.</p>\n" }
        for crash in doc.crashes {
            o += "<h3>\(code(crash.citation.location))\(crash.title.map { " — " + escape($0) } ?? "")</h3>\n<p>\(escape(crash.headline))</p>\n"
            o += "<table><tr><th>field</th><th>value</th></tr>\n" + crash.facts.map { "<tr><td>\(escape($0.label))</td><td>\(escape($0.value))</td></tr>\n" }.joined() + "</table>\n"
            if !crash.blamedFrames.isEmpty { o += "<p><b>Blamed frames:</b></p>\n<ul>\n" + crash.blamedFrames.map { "<li>\(code($0))</li>\n" }.joined() + "</ul>\n" }
            if !crash.exceptionBacktrace.isEmpty {
                o += "<details><summary>Exception backtrace (top \(counted(crash.exceptionBacktrace.count, "frame", "frames")))</summary><pre>\(escape(crash.exceptionBacktrace.joined(separator: "\n")))</pre></details>\n"
            }
            if let thread = crash.crashedThread, !crash.crashedThreadFrames.isEmpty {
                o += "<details><summary>Crashed thread \(escape(thread)) (top \(counted(crash.crashedThreadFrames.count, "frame", "frames")))</summary><pre>\(escape(crash.crashedThreadFrames.joined(separator: "\n")))</pre></details>\n"
            }
            if !crash.mainThreadFrames.isEmpty {
                o += "<details><summary>Main thread (top \(counted(crash.mainThreadFrames.count, "frame", "frames")))</summary><pre>\(escape(crash.mainThreadFrames.joined(separator: "\n")))</pre></details>\n"
            }
            if !crash.cannotTell.isEmpty {
                o += "<details><summary>What this report cannot tell</summary><ul>\n" + crash.cannotTell.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul></details>\n"
            }
        }
        if doc.crashesOmitted > 0 { o += "<p class=\"muted\">… and \(doc.crashesOmitted) more crash reports not shown.</p>\n" }

        o += "<h2>Store</h2>\n"
        if doc.stores.isEmpty { o += "<p>No store given (<code>--store PATH</code> adds walcheck's analysis).</p>\n" }
        for store in doc.stores {
            o += "<h3>\(code(store.path))</h3>\n<table><tr><th>figure</th><th>value</th></tr>\n"
                + store.facts.map { "<tr><td>\(escape($0.label))</td><td>\(escape($0.value))</td></tr>\n" }.joined() + "</table>\n"
            if !store.findings.isEmpty {
                o += "<table><tr><th>walcheck finding</th><th>severity</th><th>title</th></tr>\n"
                    + store.findings.map { "<tr><td>\(code($0.id))</td><td>\(sev($0.severity))</td><td>\(escape($0.title))</td></tr>\n" }.joined() + "</table>\n"
                o += "<details><summary>Finding details</summary><ul>\n" + store.findings.map { "<li><b>\(escape($0.id))</b>: \(escape($0.detail))</li>\n" }.joined() + "</ul></details>\n"
            }
            if !store.entities.isEmpty {
                o += "<details><summary>Entities (\(store.entities.count))</summary><table><tr><th>entity</th><th>rows</th></tr>\n"
                    + store.entities.map { "<tr><td>\(escape($0.name))</td><td>\($0.rows.map(String.init) ?? "?")</td></tr>\n" }.joined() + "</table></details>\n"
            }
        }

        o += "<h2>Appendix: unclassified Core Data / CloudKit lines</h2>\n"
        if doc.templates.isEmpty {
            o += "<p>None: every Core Data / CloudKit line was classified.</p>\n"
        } else {
            o += "<p>\(counted(doc.unclassifiedRelevant, "line", "lines", number: { Format.grouped($0) })) no rule classified, grouped into \(counted(doc.templates.count, "template", "templates")) (UUIDs, addresses, numbers, paths and record names masked) — material for new rules.</p>\n"
            o += "<table><tr><th>#</th><th>template</th><th>count</th><th>first</th><th>last</th></tr>\n"
            for (i, t) in doc.templates.enumerated() {
                o += "<tr><td>\(i + 1)</td><td>\(code(t.template.cut(200)))<details><summary>example</summary><pre>\(escape(t.example))</pre></details></td><td>\(t.count)</td><td>\(code(t.firstLocation))</td><td>\(code(t.lastLocation))</td></tr>\n"
            }
            o += "</table>\n"
            if let note = Wording.templatesNote(doc) { o += "<p class=\"muted\">\(escape(note))</p>\n" }
        }
        o += "</body>\n</html>\n"
        return o
    }
}
