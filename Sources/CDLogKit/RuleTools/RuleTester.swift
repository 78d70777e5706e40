import CDLogCore

/// Runs every rule's examples (Rules/README.md, "Examples are tests").
///
/// Contract: returns one `Failure` per problem, each pointing at the example's file and line; an empty
/// result means every example passed. Pure: reads nothing but the rules.
public struct RuleTester {
    public struct Failure: CustomStringConvertible, Sendable {
        public let location: SourceLocation
        public let ruleID: String
        public let message: String
        public var description: String { "\(location): error: [\(ruleID)] \(message)" }
    }

    /// The input formats every match example is also wrapped in.
    public enum Wrapping: String, CaseIterable, Sendable {
        case bare, nslog, logDefault = "log-default", ndjson, typography

        /// The wrappings an example of `rule` is read in: a crash-summary rule's examples are summaries,
        /// not log lines; `typography` only where the example has a straight quote or `...` to curl.
        static func applying(to rule: Rule, _ example: RuleExample) -> [Wrapping] {
            guard rule.input == .log else { return [.bare] }
            let curls = example.text.contains("'") || example.text.contains("\"") || example.text.contains("...")
            return allCases.filter { $0 != .typography || curls }
        }

        public func wrap(_ text: String) -> String {
            switch self {
            case .bare: return text
            case .nslog: return "2024-03-01 10:15:42.123456+0100 MyApp[1234:567890] " + text
            case .logDefault:
                return "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
                    + "2024-03-01 10:15:42.123456+0100 0x1a2b3c   Default     0x0                  1234   0    MyApp: (CoreData) [com.apple.coredata:cloudkit] " + text
            case .typography:
                // As a forum or blog engine prints it: quotes curled, three dots made one character.
                return RuleTester.curled(text)
            case .ndjson:
                return #"{"timestamp":"2024-03-01 10:15:42.123456+0100","messageType":"Default","subsystem":"com.apple.coredata","category":"cloudkit","processImagePath":"/private/var/containers/Bundle/Application/X/MyApp.app/MyApp","processID":1234,"threadID":1715004,"eventMessage":"#
                    + JSONWriter.quoted(text) + "}"
            }
        }
    }

    public let classifier: Classifier
    /// `text` with its straight quotes curled the way typography engines do (an opening quote after a
    /// space, an opening bracket or the start; a closing one elsewhere) and `...` as `…`.
    static func curled(_ text: String) -> String {
        var out = ""
        var previous: Character = " "
        for character in text.replacingOccurrences(of: "...", with: "\u{2026}") {
            let opens = previous.isWhitespace || "([{=:,".contains(previous)
            switch character {
            case "\"": out.append(opens ? "\u{201C}" : "\u{201D}")
            case "'": out.append(opens ? "\u{2018}" : "\u{2019}")
            default: out.append(character)
            }
            previous = character
        }
        return out
    }

    public init(classifier: Classifier) { self.classifier = classifier }

    /// The patterns of `rules` that none of their rule's `match` examples matches (as lnav rejects a
    /// format whose pattern matches no sample): a pattern nothing shows working. One entry each.
    public func patternsWithoutExample(rules: [Rule]? = nil) -> [Failure] {
        let scratch = MatchScratch()
        var failures: [Failure] = []
        for rule in rules ?? classifier.ruleSet.rules where !rule.matchExamples.isEmpty {
            for (index, pattern) in rule.patterns.enumerated()
            where !rule.matchExamples.contains(where: { pattern.matches($0.text, scratch: scratch) }) {
                failures.append(Failure(location: rule.location, ruleID: rule.id,
                                        message: "pattern \(index + 1) (`\(pattern.pattern.prefix(80))`) matches none of the rule's `match` examples"))
            }
        }
        return failures
    }

    /// Tests the given rules (default: all) against their own examples and each other.
    public func run(rules: [Rule]? = nil) -> [Failure] {
        let scratch = classifier.makeScratch()
        var failures: [Failure] = []
        for rule in rules ?? classifier.ruleSet.rules {
            if rule.matchExamples.isEmpty {
                failures.append(Failure(location: rule.location, ruleID: rule.id, message: "rule has no `match` example"))
            }
            for example in rule.matchExamples {
                // Crash-summary rules see crash entries only: their examples are summaries, not log lines.
                for wrapping in Wrapping.applying(to: rule, example) {
                    if let problem = checkMatch(rule, example, wrapping, scratch) {
                        failures.append(Failure(location: example.location, ruleID: rule.id, message: problem))
                        break  // one report per example is enough
                    }
                }
            }
            for example in rule.nomatchExamples {
                scratch.exceededMatchLimit = false
                if classifier.ruleMatches(rule, text: example.text, scratch: scratch), !resolvesNothing(rule, example.text, scratch) {
                    failures.append(Failure(location: example.location, ruleID: rule.id, message: "nomatch example is matched by the rule"))
                } else if let other = classifier.classify(text: example.text, isCrashReport: rule.input.readsCrashReports, scratch: scratch),
                          other.category != rule.category, other.rule.resolution == nil,
                          !other.rule.id.hasPrefix("code."), !other.rule.id.hasPrefix("fallback."), !other.rule.id.hasPrefix("activity.") {
                    failures.append(Failure(location: example.location, ruleID: rule.id,
                                            message: "overlap: nomatch example is classified by `\(other.rule.id)` (category \(other.category.id)); use a near-miss of this rule's own kind"))
                }
                if scratch.exceededMatchLimit {
                    failures.append(Failure(location: example.location, ruleID: rule.id, message: "a pattern hit PCRE2's match limit (catastrophic backtracking?)"))
                }
            }
        }
        return failures
    }

    /// Whether a rule that resolves through the tables (`resolve:`) gives no finding for `text` although its
    /// pattern matches: a code that counts only beside a store (`context: true`) in an entry that names none.
    private func resolvesNothing(_ rule: Rule, _ text: String, _ scratch: Classifier.Scratch) -> Bool {
        guard rule.resolution != nil else { return false }
        return classifier.classify(text: text, isCrashReport: rule.input.readsCrashReports, scratch: scratch) == nil
    }

    private func checkMatch(_ rule: Rule, _ example: RuleExample, _ wrapping: Wrapping, _ scratch: Classifier.Scratch) -> String? {
        scratch.exceededMatchLimit = false
        let input = wrapping.wrap(example.text)
        var result: Classification?
        do {
            let reader = LineReader(source: MemoryByteSource(name: "example", text: input))
            let splitter = try EntrySplitter(reader: reader, forcedFormat: wrapping == .bare || wrapping == .typography ? .xcode : nil)
            var first = true
            try splitter.forEachEntry { raw in
                guard first else { return }
                first = false
                result = classifier.classify(message: raw.message.bytes, isCrashReport: rule.input.readsCrashReports, scratch: scratch)
            }
        } catch {
            return "example could not be read as \(wrapping.rawValue): \(error)"
        }
        let context = wrapping == .bare ? "" : " (wrapped as \(wrapping.rawValue))"
        if scratch.exceededMatchLimit { return "a pattern hit PCRE2's match limit\(context)" }
        guard let result else { return "match example is not classified by any rule\(context)" }
        let resolvedPrefix = rule.resolution.map { $0 == .codes || $0 == .messages || $0 == .names ? "code." : $0 == .activity ? "activity." : "fallback." }
        guard result.rule.id == rule.id || resolvedPrefix.map({ result.rule.id.hasPrefix($0) }) == true else {
            return "match example is classified by `\(result.rule.id)` instead\(context); adjust patterns or priority"
        }
        if let expected = example.expectedCategory, result.category != expected {
            return "category is `\(result.category.rawValue)`, expected `\(expected.rawValue)`\(context)"
        }
        for (name, expected) in example.expectedFields.sorted(by: { $0.key < $1.key }) {
            let actual = result.fields.first { $0.name == name }?.value
            if actual != expected {
                return "field `\(name)` is \(actual.map { "`\($0)`" } ?? "missing"), expected `\(expected)`\(context)"
            }
        }
        return nil
    }
}
