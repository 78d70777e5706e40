import ArgumentParser
import CDLogCore
import CDLogKit
import ReportKit

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List, test and explain classification rules.",
        subcommands: [List.self, Test.self, Explain.self, Eval.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every rule (json: id, category, severity, patterns).")
        enum Format: String, CaseIterable, ExpressibleByArgument {
            case text, json
            init?(argument: String) { self.init(rawValue: argument.lowercased()) }
        }

        @Option(name: .long, help: "Output format.") var format: Format = .text
        @OptionGroup var rules: RuleOptions

        func run() throws {
            let set = try rules.loadRuleSet()
            let sink = OutputSink()
            try sink.write(format == .json ? RuleCatalogListing.json(set) : visibleControlCharacters(RuleCatalogListing.text(set)))
            try sink.flush()
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run every rule's examples; exit 1 when any fails or a pattern has no example.",
            discussion: "With DIR, the rules of DIR are loaded on top of the built-in catalog and only they are tested.")
        @Argument(help: "A directory (or file) of rule files to test; default: the built-in catalog.") var directory: String?
        @Flag(help: ArgumentHelp("Kept for scripts: the patterns no example shows are always listed now.", visibility: .hidden)) var unshownPatterns = false
        @OptionGroup var rules: RuleOptions

        func run() throws {
            var options = rules
            if let directory { options.directories.append(directory) }
            let set = try options.loadRuleSet()
            let classifier = try Classifier(ruleSet: set)
            var tested = set.rules
            if let directory {
                let ids = Set(try RuleSet(files: try RuleSet.readRuleFiles(in: directory)).rules.map(\.id))
                tested = set.rules.filter { ids.contains($0.id) }
            }
            let failures = RuleTester(classifier: classifier).run(rules: tested)
            let unshown = RuleTester(classifier: classifier).patternsWithoutExample(rules: tested)
            let examples = tested.reduce(0) { $0 + $1.matchExamples.count + $1.nomatchExamples.count }
            // The diagnoses' references into the catalog (rule ids) and walcheck (finding ids) resolve.
            let dangling = try DiagnosisCatalog.embedded().danglingReferences(ruleIDs: set.rules.map(\.id))
            let sink = OutputSink()
            for failure in failures { try sink.write(visibleControlCharacters(failure.description) + "\n") }
            for problem in dangling { try sink.write("Rules/diagnoses: error: " + visibleControlCharacters(problem) + "\n") }
            try sink.write(counted(tested.count, "rule", "rules") + ", " + counted(examples, "example", "examples") + ": \(examples - failures.count) passed, \(failures.count) failed\n")
            if !dangling.isEmpty { try sink.write("\(dangling.count) diagnosis references do not resolve\n") }
            // Every pattern earns an example that shows it working (lnav refuses a format whose pattern
            // matches none of its samples).
            for problem in unshown { try sink.write(visibleControlCharacters(problem.description) + "\n") }
            if !unshown.isEmpty { try sink.write(counted(unshown.count, "pattern is", "patterns are") + " matched by none of their rule's examples\n") }
            try sink.flush()
            if !failures.isEmpty || !dangling.isEmpty || !unshown.isEmpty { throw ExitCode(ExitStatus.findings.rawValue) }
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show everything about one rule or report diagnosis.")
        @Argument(help: "A rule id (cloudkit.quota-exceeded) or a diagnosis id that reports print (launch.watchdog.checkpoint).") var id: String
        @OptionGroup var rules: RuleOptions

        func run() throws {
            let set = try rules.loadRuleSet()
            if set.rule(id: id) == nil, let diagnosis = try DiagnosisCatalog.embedded().diagnoses.first(where: { $0.id == id }) {
                let sink = OutputSink()
                try sink.write(visibleControlCharacters(Self.explain(diagnosis)))
                try sink.flush()
                return
            }
            guard let rule = set.rule(id: id) else {
                let diagnosisIDs = (try? DiagnosisCatalog.embedded().diagnoses.map(\.id)) ?? []
                let near = (set.rules.map(\.id) + diagnosisIDs).filter { $0.contains(id) || id.contains($0) }.prefix(5)
                throw ToolFailure("no rule with id '\(id)'" + (near.isEmpty ? "" : " (did you mean: \(near.joined(separator: ", "))?)"))
            }
            let sink = OutputSink()
            try sink.write(visibleControlCharacters(RuleCatalogListing.explain(rule)))
            try sink.flush()
        }

        /// A report diagnosis: what it needs, what it says, what to do.
        static func explain(_ d: DiagnosisRule) -> String {
            var o = "\(d.id)  (report diagnosis)\n  \(d.title)\n  severity: \(d.severity.name)   priority: \(d.priority)\n"
            o += "  holds when:\n"
            for c in d.conditions {
                o += "    - \(c.label) (\(c.kind.rawValue)\(c.optional ? ", supporting" : ", required"))\n"
            }
            if let statement = d.statements.first { o += "  says: \(statement)\n" }
            if !d.advice.isEmpty {
                o += "  what to do:\n" + d.advice.map { "    - \($0)\n" }.joined()
            }
            if !d.references.isEmpty { o += "  references: " + d.references.joined(separator: "; ") + "\n" }
            o += "  defined in \(d.location.file):\(d.location.line)\n"
            return o
        }
    }

    struct Eval: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score the catalog on a labelled corpus of real console text (Eval/README.md).",
            discussion: "Prints category accuracy per category, severity agreement, false alarms on noise lines and entry boundaries on whole pastes, one table per PATH.")
        @Argument(help: "Corpus folders or .jsonl files, e.g. Eval/dev.") var paths: [String]
        @Flag(name: .long, help: "List every entry whose category or severity is wrong.") var verbose = false
        @Flag(name: .customLong("by-rule"), help: "Add a table of the rules that decided entries: how many each decided and got right, worst first.") var byRule = false
        @OptionGroup var rules: RuleOptions

        func run() throws {
            let evaluation = CorpusEvaluation(classifier: try Classifier(ruleSet: try rules.loadRuleSet()))
            let sink = OutputSink()
            for path in paths {
                let score = try evaluation.score(try CorpusEvaluation.readRecords(at: path))
                try sink.write(visibleControlCharacters(CorpusEvaluation.render(score, title: path, verbose: verbose)) + "\n")
                if byRule { try sink.write(visibleControlCharacters(CorpusEvaluation.renderByRule(score)) + "\n") }
            }
            try sink.flush()
        }
    }
}
