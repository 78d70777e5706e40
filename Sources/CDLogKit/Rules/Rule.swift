import CDLogCore

/// Where something came from in a rule file (1-based line and column).
public struct SourceLocation: Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public var description: String { "\(file):\(line):\(column)" }
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
}

/// One example of a rule: a text that the rule must classify (`match`) or must not match (`nomatch`).
public struct RuleExample: Sendable {
    public let text: String
    /// Fields the classification must contain (match examples only).
    public let expectedFields: [String: String]
    public let location: SourceLocation
}

/// A built-in field extractor that a rule can ask for (see Rules/README.md).
public enum BuiltinExtractor: String, CaseIterable, Sendable {
    case retryAfter
    case partialErrors
    case errorCode
    case exception
}

/// How a rule whose patterns matched turns into a finding when its verdict comes from data rather than
/// from the rule itself (Rules/README.md, "Code tables").
public enum RuleResolution: String, CaseIterable, Sendable {
    /// The code tables decide: the most specific known (domain, code) of the entry gives the category,
    /// severity, title and advice; an entry with no known code is left to the next rule.
    case codes
    /// As `codes`, reading the tables' printed sentences too (`database is locked` → SQLite 5): a rule of
    /// its own whose patterns are those sentences, so the sentence search runs only on entries the
    /// prefilter found one in.
    case messages
    /// The last resort for an error-level entry that names Core Data, CloudKit, SwiftData or SQLite:
    /// an "Unrecognised … error" finding whose category comes from the markers it carries.
    case fallback
    /// The last resort for an entry that names Core Data, CloudKit, SwiftData, SQLite or a persistence
    /// library and reports no failure: an activity finding at the severity its activity marker gives
    /// (a sync library importing, a store loading, a history token handed on).
    case activity
}

/// Which entries a rule applies to.
///
/// Crash-report summaries are classified only by `crash` and `any` rules, so words in stack frames
/// never trigger console-log rules; console entries only by `log` and `any` rules.
public enum RuleInput: String, CaseIterable, Sendable {
    /// Console entries (the default).
    case log
    /// Only crash-report summaries (the text `CrashReportReader` produces).
    case crash
    /// Both, e.g. a termination code that appears in reports and in pasted log lines.
    case any

    func applies(toCrashReport isCrashReport: Bool) -> Bool {
        switch self {
        case .any: return true
        case .crash: return isCrashReport
        case .log: return !isCrashReport
        }
    }
}

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

    init(id: String, title: String, category: Category, severity: Severity, priority: Int, input: RuleInput,
         patterns: [PCRERegex], required: [PCRERegex], excluded: [PCRERegex],
         fieldPatterns: [(name: String, regex: PCRERegex)], extractors: [BuiltinExtractor],
         advice: String?, references: [String], matchExamples: [RuleExample],
         nomatchExamples: [RuleExample], location: SourceLocation, order: Int, resolution: RuleResolution? = nil) {
        self.id = id; self.title = title; self.category = category; self.severity = severity
        self.priority = priority; self.input = input; self.patterns = patterns; self.required = required
        self.excluded = excluded; self.fieldPatterns = fieldPatterns; self.extractors = extractors
        self.advice = advice; self.references = references; self.matchExamples = matchExamples
        self.nomatchExamples = nomatchExamples; self.location = location; self.order = order
        self.resolution = resolution
    }

    /// The same rule at another severity (a fatal wrapper raises a finding to `fatal`).
    func with(severity: Severity) -> Rule {
        Rule(id: id, title: title, category: category, severity: severity, priority: priority, input: input,
             patterns: patterns, required: required, excluded: excluded, fieldPatterns: fieldPatterns,
             extractors: extractors, advice: advice, references: references, matchExamples: matchExamples,
             nomatchExamples: nomatchExamples, location: location, order: order, resolution: resolution)
    }

    /// The same rule in another category, its advice led by `leadingAdvice` (an area table row moved it).
    func with(category: Category, leadingAdvice: String) -> Rule {
        Rule(id: id, title: title, category: category, severity: severity, priority: priority, input: input,
             patterns: patterns, required: required, excluded: excluded, fieldPatterns: fieldPatterns,
             extractors: extractors, advice: advice.map { leadingAdvice + " " + $0 } ?? leadingAdvice, references: references,
             matchExamples: matchExamples, nomatchExamples: nomatchExamples, location: location, order: order,
             resolution: resolution)
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
