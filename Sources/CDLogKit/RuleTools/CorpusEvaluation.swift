import CDLogCore
import Foundation

/// Scores the classifier on a labelled corpus of real console text (Eval/README.md): category accuracy
/// per category, severity agreement, false alarms on noise, and entry boundaries on whole pastes.
///
/// Contract: each record is run through the whole pipeline a user's file goes through (format detection,
/// entry splitting, classification) as a file of its own. An entry record's verdict is its most severe
/// finding (the first among equals); a record with no finding is "none". A noise record (`none`) is right
/// when nothing above `info` is found, and a false alarm otherwise. A paste's boundaries are right per
/// expected entry whose first and last lines of text (trailing blank lines aside) are exactly an entry of
/// the splitter's. Bad records
/// throw `ToolFailure` naming the file and line. Pure apart from reading the corpus files.
public struct CorpusEvaluation {
    /// One labelled record of the corpus.
    public struct Record: Sendable {
        public struct Span: Sendable {
            public var first: Int
            public var last: Int
            public var category: String
            public var severity: String
        }
        public var id: String
        public var source: String
        public var category: String
        public var severity: String
        public var text: String
        /// Expected entries for a paste; nil for a single entry or a noise line.
        public var spans: [Span]?
    }

    /// What the classifier said about one entry record.
    public struct Outcome: Sendable {
        public var record: Record
        public var category: String
        public var severity: String?
        public var rule: String?
        public var categoryRight: Bool
        public var severityRight: Bool
        public var falseAlarm: Bool
    }

    /// The scores of one corpus part.
    public struct Score: Sendable {
        public var outcomes: [Outcome] = []
        public var boundaryExpected = 0
        public var boundaryFound = 0
        /// Each expected entry of a paste the splitter did not find as it is: `id@first-last`, and the
        /// entries found over those lines.
        public var boundaryMisses: [String] = []
        public var pasteEntriesScored = 0
        public var pasteEntriesRight = 0
        public var sources: Set<String> = []

        public var labelled: [Outcome] { outcomes.filter { $0.record.category != "none" } }
        public var noise: [Outcome] { outcomes.filter { $0.record.category == "none" } }
        public var categoryAccuracy: Double { ratio(labelled.filter(\.categoryRight).count, labelled.count) }
        public var severityAgreement: Double { ratio(labelled.filter(\.severityRight).count, labelled.count) }
        public var falseAlarms: Int { outcomes.filter(\.falseAlarm).count }
        public var boundaryAccuracy: Double { ratio(boundaryFound, boundaryExpected) }

        func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? 1 : Double(a) / Double(b) }
    }

    public let classifier: Classifier
    public init(classifier: Classifier) { self.classifier = classifier }

    /// Reads every `*.jsonl` file under `path` (or the one file `path` names), sorted by name.
    public static func readRecords(at path: String) throws -> [Record] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolFailure("corpus not found: \(path)")
        }
        let files = isDirectory.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted().map { path + "/" + $0 }
            : [path]
        var records: [Record] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { throw ToolFailure("cannot read \(file)") }
            for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
            where !line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
                records.append(try record(Data(line), at: "\(file):\(index + 1)"))
            }
        }
        return records
    }

    @_spi(Testing) public static func record(_ line: Data, at location: String) throws -> Record {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let id = object["id"] as? String, let source = object["source"] as? String,
              let text = object["text"] as? String else {
            throw ToolFailure("\(location): not a corpus record (needs id, source, text)")
        }
        if object["kind"] as? String == "paste" {
            guard let entries = object["entries"] as? [[String: Any]] else {
                throw ToolFailure("\(location): a paste needs `entries`")
            }
            let spans = try entries.map { entry -> Record.Span in
                guard let first = entry["first"] as? Int, let last = entry["last"] as? Int,
                      let category = entry["category"] as? String else {
                    throw ToolFailure("\(location): a paste entry needs first, last, category")
                }
                return Record.Span(first: first, last: last, category: category, severity: entry["severity"] as? String ?? "info")
            }
            return Record(id: id, source: source, category: "paste", severity: "", text: text, spans: spans)
        }
        guard let category = object["category"] as? String, let severity = object["severity"] as? String else {
            throw ToolFailure("\(location): an entry needs category and severity")
        }
        guard category == "none" || Category(rawValue: category) != nil, Severity(name: severity) != nil else {
            throw ToolFailure("\(location): unknown category `\(category)` or severity `\(severity)`")
        }
        return Record(id: id, source: source, category: category, severity: severity, text: text, spans: nil)
    }

    /// Scores `records`.
    public func score(_ records: [Record]) throws -> Score {
        var score = Score()
        for record in records {
            score.sources.insert(record.source)
            // A record cdlog refuses as input (a JSON object with no message member) has no finding.
            let found = (try? classify(record.text)) ?? []
            if var spans = record.spans {
                // Blank lines belong to the entry before them (Eval/COLLECTING.md), but an entry ends at its
                // last line of text: a span's trailing blank lines are not part of the boundary. A quoted
                // paste's blank line is a quote marker alone (`>`), which the input's unwrapping empties.
                let lines = record.text.textLines()
                for i in spans.indices {
                    while spans[i].last > spans[i].first, spans[i].last <= lines.count,
                          lines[spans[i].last - 1].allSatisfy({ $0 == " " || $0 == "\t" || $0 == ">" }) {
                        spans[i].last -= 1
                    }
                }
                for (index, span) in spans.enumerated() {
                    score.boundaryExpected += 1
                    // A message printed twice in a row is folded into one finding with `count` 2 (it counts
                    // once, Eval/COLLECTING.md): that finding is the boundary of each copy it covers, when it
                    // starts and ends where copies of one category start and end.
                    let folded = found.first { found in
                        guard found.count > 1, found.entry.line <= span.first, found.entry.endLine >= span.last else { return false }
                        guard let start = spans.firstIndex(where: { $0.first == found.entry.line }),
                              let end = spans.firstIndex(where: { $0.last == found.entry.endLine }),
                              start <= index, index <= end else { return false }
                        return spans[start...end].allSatisfy { $0.category == span.category }
                    }
                    guard let entry = found.first(where: { $0.entry.line == span.first && $0.entry.endLine == span.last }) ?? folded else {
                        let over = found.filter { $0.entry.line <= span.last && $0.entry.endLine >= span.first }
                            .map { "\($0.entry.line)-\($0.entry.endLine)" }
                        score.boundaryMisses.append("\(record.id)@\(span.first)-\(span.last): found \(over.isEmpty ? "none" : over.joined(separator: ", "))")
                        continue
                    }
                    score.boundaryFound += 1
                    let part = Record(id: record.id + "@\(span.first)", source: record.source, category: span.category,
                                      severity: span.severity, text: "", spans: nil)
                    let outcome = judge(part, [entry])
                    score.outcomes.append(outcome)
                }
                continue
            }
            score.outcomes.append(judge(record, found))
        }
        return score
    }

    func judge(_ record: Record, _ found: [ClassifiedEntry]) -> Outcome {
        // The most severe finding; among equals a rule's or a code's over the fallback's (which only says that
        // nothing knew the message), then the first.
        let top = found.compactMap(\.classification).enumerated()
            .max { a, b in
                if a.element.severity != b.element.severity { return a.element.severity < b.element.severity }
                let aFallback = a.element.rule.id.hasPrefix("fallback."), bFallback = b.element.rule.id.hasPrefix("fallback.")
                if aFallback != bFallback { return aFallback }
                return a.offset > b.offset
            }?.element
        let severity = top?.severity
        if record.category == "none" {
            let quiet = (severity ?? .debug) <= .info
            return Outcome(record: record, category: top?.category.id ?? "none", severity: severity?.name, rule: top?.rule.id,
                           categoryRight: quiet, severityRight: quiet, falseAlarm: !quiet)
        }
        return Outcome(record: record, category: top?.category.id ?? "none", severity: severity?.name, rule: top?.rule.id,
                       categoryRight: top?.category.id == record.category,
                       severityRight: severity?.name == record.severity, falseAlarm: false)
    }

    /// Every entry the pipeline makes of `text`, classified or not.
    public func classify(_ text: String) throws -> [ClassifiedEntry] {
        let collector = Collector()
        var options = ClassifyRun.Options()
        options.includeUnclassified = true
        options.pauseMilliseconds = nil
        _ = try ClassifyRun(classifier: classifier, options: options)
            .run(sources: [MemoryByteSource(name: "corpus", text: text)], reporter: collector)
        return collector.entries
    }

    final class Collector: FindingWriter {
        var entries: [ClassifiedEntry] = []
        func report(_ entry: ClassifiedEntry) throws { entries.append(entry) }
        func finish(summary: ClassifySummary) throws {}
    }

    /// One row per rule (or "no rule") that decided a labelled entry: how many it decided, how many of
    /// those were in the right category and at the right severity, and the labels of its category misses,
    /// most frequent first. Sorted by category misses, most first: the rules that generalise worst lead.
    public static func renderByRule(_ score: Score) -> String {
        struct Row { var decided = 0, categoryRight = 0, severityRight = 0; var wrongLabels: [String: Int] = [:] }
        var rows: [String: Row] = [:]
        for outcome in score.labelled {
            var row = rows[outcome.rule ?? "no rule", default: Row()]
            row.decided += 1
            if outcome.categoryRight { row.categoryRight += 1 } else { row.wrongLabels[outcome.record.category, default: 0] += 1 }
            if outcome.severityRight { row.severityRight += 1 }
            rows[outcome.rule ?? "no rule"] = row
        }
        var out = "rule                                                decided  category  severity  category misses by label\n"
        let ordered = rows.sorted { ($0.value.decided - $0.value.categoryRight, $1.key) > ($1.value.decided - $1.value.categoryRight, $0.key) }
        for (rule, row) in ordered {
            let labels = row.wrongLabels.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
            out += rule.padding(toLength: 50, withPad: " ", startingAt: 0)
                + String(format: " %8d  %7d   %7d", row.decided, row.categoryRight, row.severityRight)
                + (labels.isEmpty ? "" : "   " + labels.joined(separator: ", ")) + "\n"
        }
        return out
    }

    /// The score as a table: one row per category, then the totals (`verbose` adds every miss).
    public static func render(_ score: Score, title: String, verbose: Bool) -> String {
        var out = "\(title): \(score.outcomes.count) scored entries from \(score.sources.count) sources\n"
        func percent(_ a: Int, _ b: Int) -> String { b == 0 ? "   -  " : String(format: "%5.1f%%", 100 * Double(a) / Double(b)) }
        out += "category         entries  category  severity\n"
        let names = Category.allCases.map(\.id) + ["none"]
        for name in names {
            let rows = score.outcomes.filter { $0.record.category == name }
            guard !rows.isEmpty else { continue }
            out += name.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: " %7d", rows.count)
                + "  " + percent(rows.filter(\.categoryRight).count, rows.count)
                + "    " + percent(rows.filter(\.severityRight).count, rows.count) + "\n"
        }
        let labelled = score.labelled
        out += "all (not noise)  " + String(format: "%7d", labelled.count) + "  " + percent(labelled.filter(\.categoryRight).count, labelled.count)
            + "    " + percent(labelled.filter(\.severityRight).count, labelled.count) + "\n"
        out += "false alarms: \(score.falseAlarms) of \(score.noise.count) noise entries\n"
        out += "paste boundaries: \(score.boundaryFound) of \(score.boundaryExpected) (\(percent(score.boundaryFound, score.boundaryExpected)))\n"
        if verbose {
            for outcome in score.outcomes where !outcome.categoryRight || !outcome.severityRight {
                out += "  miss \(outcome.record.id): expected \(outcome.record.category)/\(outcome.record.severity), got \(outcome.category)/\(outcome.severity ?? "-") [\(outcome.rule ?? "no rule")]\n"
            }
            for miss in score.boundaryMisses { out += "  boundary \(miss)\n" }
        }
        return out
    }
}
