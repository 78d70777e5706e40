import CDLogCore
import Foundation

/// GitHub-flavoured Markdown: tables, `<details>` for long evidence.
enum MarkdownRenderer {
    static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "*", with: "\\*").replacingOccurrences(of: "_", with: "\\_")
    }

    /// Inline code that survives tables: backticks chosen so the content cannot close them.
    static func code(_ s: String) -> String {
        let flat = s.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
        let fence = flat.contains("`") ? "``" : "`"
        let pad = flat.hasPrefix("`") || flat.hasSuffix("`") ? " " : ""
        return fence + pad + flat + pad + fence
    }

    static func block(_ s: String) -> String {
        var fence = "```"
        while s.contains(fence) { fence += "`" }
        return fence + "text\n" + s + "\n" + fence
    }

    static func details(_ summary: String, _ body: String) -> String {
        "<details><summary>\(HTMLRenderer.escape(summary))</summary>\n\n\(body)\n\n</details>\n"
    }

    static func render(_ doc: ReportDocument) -> String {
        var o = "# \(Wording.title)\n\n"
        var inputs = "**Inputs:** " + (doc.sources.isEmpty ? "none" : doc.sources.map(code).joined(separator: ", "))
        if !doc.storePaths.isEmpty { inputs += " · **Store:** " + doc.storePaths.map(code).joined(separator: ", ") }
        o += inputs + "\n"
        if doc.redacted {
            o += "\n*Redacted:* personal data replaced by placeholders"
            o += doc.redactions.isEmpty ? " (none found).\n" : " (" + doc.redactions.map { "\($0.values) \($0.kind)" }.joined(separator: ", ") + ").\n"
        }

        // Headline.
        o += "\n## Diagnosis\n\n"
        if let d = doc.headline {
            o += "> **\(cell(d.statement))**\n\n"
            o += "`\(d.severity.name)` · \(Wording.support(d)) · diagnosis `\(d.id)`\n\n"
            o += "### Evidence\n\n| # | evidence | where | what it shows |\n|---|---|---|---|\n"
            for (i, e) in d.evidence.enumerated() {
                let whereText = e.kind == .store ? code(e.storePath ?? "") : e.citations.map { code($0.location) }.joined(separator: ", ")
                    + (e.count > e.citations.count ? " (+\(Format.grouped(e.count - e.citations.count)) more)" : "")
                o += "| \(i + 1) | \(cell(e.label)) | \(whereText) | \(cell(Wording.evidenceDetail(e))) |\n"
            }
            o += "\n"
            for e in d.evidence where e.kind != .store {
                var body: [String] = []
                for c in e.citations {
                    var lines = ["\(c.location)  \(c.excerpt)"]
                    if c.isCrash {
                        if let f = c.field("blamedFrames") { lines.append("blamed frames:\n  " + f.components(separatedBy: "; ").joined(separator: "\n  ")) }
                        if let f = c.field("mainThreadFrames") { lines.append("main thread:\n  " + f.components(separatedBy: "; ").joined(separator: "\n  ")) }
                    }
                    body.append(lines.joined(separator: "\n"))
                }
                if !body.isEmpty { o += details("\(e.label): \(e.citations.count) cited line\(e.citations.count == 1 ? "" : "s")", block(body.joined(separator: "\n\n"))) + "\n" }
            }
            o += "### What to do\n\n"
            for (i, step) in d.advice.enumerated() { o += "\(i + 1). \(step)\n" }
            if !d.references.isEmpty { o += "\nReferences: " + d.references.map { "*\($0)*" }.joined(separator: "; ") + "\n" }
        } else {
            o += "> **\(cell(doc.fallbackHeadline ?? ""))**\n\n"
            if let c = doc.fallbackCitation { o += "Evidence: \(code(c.location)) \(code(c.excerpt))\n\n" }
            if let a = doc.fallbackAdvice { o += "What to do: \(a)\n" }
        }
        if let note = doc.privateDataNote { o += "\n*Hidden by the unified log:* \(note)\n" }
        if doc.diagnoses.count > 1 {
            o += "\n### Other diagnoses that hold\n\n| diagnosis | severity | statement | evidence |\n|---|---|---|---|\n"
            for d in doc.diagnoses.dropFirst() {
                let cites = d.evidence.flatMap { $0.kind == .store ? [$0.storePath ?? ""] : $0.citations.prefix(2).map(\.location) }
                o += "| `\(d.id)` | \(d.severity.name) | \(cell(d.statement)) | \(cites.map(code).joined(separator: ", ")) |\n"
            }
        }

        // What the evidence cannot show.
        if !doc.evidenceGaps.isEmpty {
            o += "\n## What the evidence cannot show\n\n"
            for gap in doc.evidenceGaps { o += "- \(gap.gap) *How to get it:* \(gap.how)\n" }
        }
        if !doc.nextCommands.isEmpty {
            o += "\n## Next commands\n\n```sh\n" + doc.nextCommands.joined(separator: "\n") + "\n```\n"
        }

        // Environment.
        o += "\n## Environment\n\n"
        if doc.environment.isEmpty { o += "Nothing known (no crash report, no store).\n" } else {
            o += "| | value | from |\n|---|---|---|\n"
            for f in doc.environment { o += "| \(cell(f.label)) | \(cell(f.value)) | \(f.source.map(code) ?? "") |\n" }
        }

        // Timeline.
        o += "\n## Timeline\n\n"
        o += "\(doc.timeline.count) event\(doc.timeline.count == 1 ? "" : "s")" + (doc.timelineOrder == "time" ? ", by time" : ", in input order")
            + "; repeated events are folded into one row with a count" + (doc.timelineMinimumSeverity > .debug ? "; below \(doc.timelineMinimumSeverity.name) left out" : "") + ".\n\n"
        if !doc.timeline.isEmpty {
            o += "| time | where | severity | category | event | count |\n|---|---|---|---|---|---|\n"
            for row in doc.timeline {
                let whereText = row.count > 1 && row.lastLocation != row.first.location ? "\(code(row.first.location)) … \(code(row.lastLocation))" : code(row.first.location)
                o += "| \(row.first.timestamp.map(cell) ?? "—") | \(whereText) | \(row.severity.name) | \(row.category.id) | \(cell(row.first.title ?? row.first.rule ?? "")) `#\(row.fingerprint)` | \(row.count) |\n"
            }
        }
        if let note = Wording.timelineNote(doc) { o += "\n\(note)\n" }

        // Counts.
        o += "\n## Counts\n\n" + counted(doc.entries, "entry", "entries", number: { Format.grouped($0) }) + " read, \(Format.grouped(doc.classified)) classified.\n\n"
        if !doc.byCategory.isEmpty {
            o += "| category | entries |\n|---|---|\n" + doc.byCategory.map { "| \($0.0.id) | \($0.1) |\n" }.joined() + "\n"
            o += "| severity | entries |\n|---|---|\n" + doc.bySeverity.map { "| \($0.0.name) | \($0.1) |\n" }.joined()
        }

        // Crashes.
        o += "\n## Crash reports\n\n"
        if doc.crashes.isEmpty { o += "None given.\n" }
        for crash in doc.crashes {
            o += "### \(code(crash.citation.location))\(crash.title.map { " — " + cell($0) } ?? "")\n\n"
            o += "\(cell(crash.headline))\n\n| field | value |\n|---|---|\n"
            for f in crash.facts { o += "| \(cell(f.label)) | \(cell(f.value)) |\n" }
            o += "\n"
            if !crash.blamedFrames.isEmpty {
                o += "**Blamed frames:**\n\n" + crash.blamedFrames.map { "- \(code($0))\n" }.joined() + "\n"
            }
            if !crash.exceptionBacktrace.isEmpty {
                o += details("Exception backtrace (top \(counted(crash.exceptionBacktrace.count, "frame", "frames")))", block(crash.exceptionBacktrace.joined(separator: "\n"))) + "\n"
            }
            if let thread = crash.crashedThread, !crash.crashedThreadFrames.isEmpty {
                o += details("Crashed thread \(thread) (top \(counted(crash.crashedThreadFrames.count, "frame", "frames")))", block(crash.crashedThreadFrames.joined(separator: "\n"))) + "\n"
            }
            if !crash.mainThreadFrames.isEmpty {
                o += details("Main thread (top \(counted(crash.mainThreadFrames.count, "frame", "frames")))", block(crash.mainThreadFrames.joined(separator: "\n"))) + "\n"
            }
            if !crash.cannotTell.isEmpty {
                o += details("What this report cannot tell", crash.cannotTell.map { "- \(cell($0))" }.joined(separator: "\n")) + "\n"
            }
        }
        if doc.crashesOmitted > 0 { o += "… and \(doc.crashesOmitted) more crash reports not shown.\n" }

        // Stores.
        o += "\n## Store\n\n"
        if doc.stores.isEmpty { o += "No store given (`--store PATH` adds walcheck's analysis).\n" }
        for store in doc.stores {
            o += "### \(code(store.path))\n\n| figure | value |\n|---|---|\n"
            for f in store.facts { o += "| \(cell(f.label)) | \(cell(f.value)) |\n" }
            if !store.findings.isEmpty {
                o += "\n| walcheck finding | severity | title |\n|---|---|---|\n"
                for f in store.findings { o += "| `\(f.id)` | \(f.severity.name) | \(cell(f.title)) |\n" }
                o += "\n" + details("Finding details", store.findings.map { "- **\($0.id)**: \(cell($0.detail))" }.joined(separator: "\n"))
            }
            if !store.entities.isEmpty {
                o += "\n" + details("Entities (\(store.entities.count))", "| entity | rows |\n|---|---|\n"
                    + store.entities.map { "| \(cell($0.name)) | \($0.rows.map(String.init) ?? "?") |" }.joined(separator: "\n"))
            }
        }

        // Appendix.
        o += "\n## Appendix: unclassified Core Data / CloudKit lines\n\n"
        if doc.templates.isEmpty {
            o += "None: every Core Data / CloudKit line was classified.\n"
        } else {
            o += "\(counted(doc.unclassifiedRelevant, "line", "lines", number: { Format.grouped($0) })) no rule classified, grouped into \(counted(doc.templates.count, "template", "templates")) (UUIDs, addresses, numbers, paths and record names masked) — material for new rules.\n\n"
            o += "| # | template | count | first | last |\n|---|---|---|---|---|\n"
            for (i, t) in doc.templates.enumerated() {
                o += "| \(i + 1) | \(code(t.template.cut(200))) | \(t.count) | \(code(t.firstLocation)) | \(code(t.lastLocation)) |\n"
            }
            if let note = Wording.templatesNote(doc) { o += "\n\(note)\n" }
            o += "\n" + details("Examples (one verbatim line per template)",
                                doc.templates.enumerated().map { "\($0.offset + 1). \(code($0.element.firstLocation))\n\n" + block($0.element.example) }.joined(separator: "\n\n"))
        }
        return o
    }
}
