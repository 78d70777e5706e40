import CDLogCore

/// A classification rule, loaded and compiled. Immutable; shared by all threads.
public final class Rule: Sendable {
    public let id: String
    public let title: String
    public let category: Category
    public let severity: Severity
    public let priority: Int
    public let input: RuleInput
    /// The rule matches when any of these matches…
    public let patterns: [PCRERegex]
    /// …and all of these match…
    public let required: [PCRERegex]
    /// …and none of these matches.
    public let excluded: [PCRERegex]
    /// Extra field extractors: each pattern's named groups, or its first group under `name`.
    public let fieldPatterns: [(name: String, regex: PCRERegex)]
    public let extractors: [BuiltinExtractor]
    public let advice: String?
    public let references: [String]
    public let matchExamples: [RuleExample]
    public let nomatchExamples: [RuleExample]
    /// Set when the verdict comes from data (the code tables) or the fallback, not from this rule.
    public let resolution: RuleResolution?
    public let location: SourceLocation
    /// Global declaration order (files by name, then position): the last tie-breaker. It increases in
    /// that order, with gaps between files (`RuleSet.ordersPerFile`).
    public let order: Int
    /// This rule at the severity its `before-termination:` key gives a finding whose very next entry is the
    /// termination it announces (EchoFolder swaps it in when the termination follows): the runtime's `-[X y]:
    /// unrecognized selector …` line alone means the app stopped, but printed just before its own `*** Terminating
    /// app due to uncaught exception …` it is the error that entry reports as fatal; `ClassifyRun.asConsoleLine` also
    /// swaps it in for the line as a console printed it (a time or process prefix) when the line itself names no
    /// termination. Nil for other rules.
    public let beforeTerminationTwin: Rule?

    init(id: String, title: String, category: Category, severity: Severity, priority: Int, input: RuleInput,
         patterns: [PCRERegex], required: [PCRERegex], excluded: [PCRERegex],
         fieldPatterns: [(name: String, regex: PCRERegex)], extractors: [BuiltinExtractor],
         advice: String?, references: [String], matchExamples: [RuleExample],
         nomatchExamples: [RuleExample], location: SourceLocation, order: Int, resolution: RuleResolution? = nil,
         severityBeforeTermination: Severity? = nil) {
        self.id = id; self.title = title; self.category = category; self.severity = severity
        self.priority = priority; self.input = input; self.patterns = patterns; self.required = required
        self.excluded = excluded; self.fieldPatterns = fieldPatterns; self.extractors = extractors
        self.advice = advice; self.references = references; self.matchExamples = matchExamples
        self.nomatchExamples = nomatchExamples; self.location = location; self.order = order
        self.resolution = resolution
        self.namesOnlyAnException = id.hasPrefix("exception.name.")
        if let lowered = severityBeforeTermination, lowered < severity {
            beforeTerminationTwin = Rule(id: id, title: title, category: category, severity: lowered, priority: priority, input: input,
                                         patterns: patterns, required: required, excluded: excluded, fieldPatterns: fieldPatterns,
                                         extractors: extractors, advice: advice, references: references, matchExamples: matchExamples,
                                         nomatchExamples: nomatchExamples, location: location, order: order, resolution: resolution)
        } else {
            beforeTerminationTwin = nil
        }
    }

    /// An exception table's `names` row (`exception.name.<name>`): the exception's name alone decided, not
    /// what its reason says.
    public let namesOnlyAnException: Bool

    /// The same rule at another severity (a fatal wrapper raises a finding to `fatal`).
    func with(severity: Severity) -> Rule {
        Rule(id: id, title: title, category: category, severity: severity, priority: priority, input: input,
             patterns: patterns, required: required, excluded: excluded, fieldPatterns: fieldPatterns,
             extractors: extractors, advice: advice, references: references, matchExamples: matchExamples,
             nomatchExamples: nomatchExamples, location: location, order: order, resolution: resolution,
             severityBeforeTermination: beforeTerminationTwin.map(\.severity))
    }

    /// The same rule in another category, its advice led by `leadingAdvice` (an area table row moved it).
    func with(category: Category, leadingAdvice: String) -> Rule {
        Rule(id: id, title: title, category: category, severity: severity, priority: priority, input: input,
             patterns: patterns, required: required, excluded: excluded, fieldPatterns: fieldPatterns,
             extractors: extractors, advice: advice.map { leadingAdvice + " " + $0 } ?? leadingAdvice, references: references,
             matchExamples: matchExamples, nomatchExamples: nomatchExamples, location: location, order: order,
             resolution: resolution, severityBeforeTermination: beforeTerminationTwin.map(\.severity))
    }

    /// A rule that speaks only when nothing more specific does: the fallbacks, the activity fallback and
    /// the catch-all crash rules (negative priority).
    var isCatchAll: Bool { priority < 0 || resolution == .fallback || resolution == .activity }

    /// True when `self` wins over `other` for the same entry (Rules/README.md, "Which rule wins").
    public func outranks(_ other: Rule) -> Bool {
        if priority != other.priority { return priority > other.priority }
        if severity != other.severity { return severity > other.severity }
        return order < other.order
    }
}
