import ArgumentParser
import CDLogCore
import CDLogKit
import ReportKit

/// `cdlog explain`: what the code tables and rules know about a code, a name or a pasted error line.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain an error code, a code name or a pasted error line from the code tables and rules.",
        discussion: """
            Examples: `cdlog explain 134110`, `cdlog explain CKErrorDomain 2`, `cdlog explain partialFailure`, \
            `cdlog explain 'Error Domain=NSCocoaErrorDomain Code=256 … NSSQLiteErrorDomain=522'`, and the rule and \
            diagnosis ids that classify and report print (as `cdlog rules explain`). A bare number \
            lists every table that has it. Exit codes: 0 explained, 2 nothing known or bad usage.
            """)

    @Argument(help: "A code, DOMAIN CODE, a name (partialFailure, NSMigrationError, SQLITE_BUSY), a whole error line, or a rule or diagnosis id.")
    var words: [String]

    @OptionGroup var rules: RuleOptions

    func validate() throws {
        if words.isEmpty { throw ValidationError("give a code, a name or an error line") }
    }

    func run() throws {
        let set = try rules.loadRuleSet()
        guard let codes = set.codes else { throw ToolFailure("no code tables are loaded") }
        let text = words.joined(separator: " ")
        var entries: [CodeEntry] = []
        var heading: String? = nil
        var internalOnly: String? = nil
        if words.count == 1, let code = Int(text) {
            entries = codes.tables.compactMap { codes.entry(domain: $0.domain, code: code) }
            if entries.isEmpty { internalOnly = codes.tables.lazy.compactMap { Self.describeInternal(codes, domain: $0.domain, code: code) }.first }
        } else if words.count == 2, let code = Int(words[1]),
                  codes.isInternalDomain(words[0]) || codes.tables.contains(where: { $0.domain == words[0] || $0.aliases.contains(words[0]) }) {
            entries = codes.entry(domain: words[0], code: code).map { [$0] } ?? []
            if entries.isEmpty { internalOnly = Self.describeInternal(codes, domain: words[0], code: code) }
        } else if words.count == 1 || !text.contains(where: { $0 == " " || $0 == "=" || $0 == "(" }), let named = codes.entry(named: text) {
            entries = [named]
        }
        // A rule id or a report diagnosis id (what `classify` and `report` print): `rules explain`'s answer.
        if entries.isEmpty, words.count == 1, text.contains("."), !text.contains(" "),
           set.rule(id: text) != nil || ((try? DiagnosisCatalog.embedded().diagnoses.contains { $0.id == text }) ?? false) {
            var explain = RulesCommand.Explain()
            explain.id = text
            explain.rules = rules
            return try explain.run()
        }
        var out = ""
        if let internalOnly {
            out = internalOnly
        } else if entries.isEmpty {
            // A pasted line: every code in its chain, then the verdict the classifier gives the whole line.
            let classifier = try Classifier(ruleSet: set)
            let scratch = classifier.makeScratch()
            var bytes = Array(text.utf8)
            let mentions = bytes.withUnsafeMutableBytes { codes.recognise(UnsafeRawBufferPointer($0), scratch: scratch.matchScratch) }
            let verdict = classifier.classify(text: text, scratch: scratch)
            guard !mentions.isEmpty || verdict != nil else { throw ToolFailure("nothing known about '\(text.prefix(80))'") }
            if !mentions.isEmpty { heading = "Codes in this text, outermost first: " + CodeCatalog.chain(mentions) }
            var seen = Set<String>()
            for mention in mentions {
                guard seen.insert("\(mention.domain) \(mention.code)").inserted else { continue }
                if let entry = mention.entry {
                    out += Self.describe(entry, code: mention.code, codes: codes)
                } else if let internalCode = Self.describeInternal(codes, domain: mention.domain, code: mention.code) {
                    out += internalCode
                } else {
                    out += "\(mention.domain) \(mention.code)\n  not in the code tables\n\n"
                }
            }
            if let verdict {
                out += "Verdict for the whole text: [\(verdict.severity.name)] \(verdict.category.id) — \(verdict.rule.title) (\(verdict.rule.id))\n"
                if let advice = verdict.rule.advice { out += "  what to do: \(advice)\n" }
            }
        } else {
            out = entries.map { Self.describe($0, code: Int(words.last ?? "") ?? $0.code, codes: codes) }.joined()
        }
        let sink = OutputSink()
        if let heading { try sink.write(visibleControlCharacters(heading) + "\n\n") }
        try sink.write(visibleControlCharacters(out))
        try sink.flush()
    }

    static func describe(_ entry: CodeEntry, code: Int, codes: CodeCatalog) -> String {
        var out = ""
        if !entry.isRange, code != entry.code, let internalCode = codes.internalCode(domain: entry.domain, code: code) {
            // An internal code the tables map to a public one: say both.
            out += "\(internalCode.domain) \(code)  \(internalCode.name), CloudKit's internal code for:\n"
        }
        out += "\(entry.domain) \(entry.isRange ? code : entry.code)  \(entry.name)"
        if let printed = entry.printed { out += " (\"\(printed)\")" }
        if entry.isRange { out += "  [unlisted code, range \(entry.code)–\(entry.last)]" }
        out += "\n  category: \(entry.category.id)   severity: \(entry.severity.name)   rule: \(entry.rule.id)"
        if entry.generic { out += "   (generic: a more specific code in the same error decides)" }
        out += "\n  meaning: \(entry.meaning)\n  what to do: \(entry.advice)\n\n"
        return out
    }

    /// An internal code the tables name but map to no public code (`CKInternalErrorDomain 2037`), or nil.
    static func describeInternal(_ codes: CodeCatalog, domain: String, code: Int) -> String? {
        guard let internalCode = codes.internalCode(domain: domain, code: code), internalCode.publicCode == nil else { return nil }
        return "\(internalCode.domain) \(code)  \(internalCode.name)\n"
            + "  CloudKit's internal code; no public console text the tables know pairs it with a public CKError code: the\n"
            + "  CKError printed around it (`\"Name\" (public/\(code))`) says the category and what to do.\n\n"
    }
}
