import CDLogCore

/// The verdict for one entry: the rule that won and the fields extracted.
public struct Classification: Sendable {
    public let rule: Rule
    /// Extracted fields in a stable order (preset fields, then the winning pattern's groups, then
    /// `fields:` patterns, then built-in extractors); the first value for a name wins.
    public var fields: [(name: String, value: String)]

    public var category: Category { rule.category }
    public var severity: Severity { rule.severity }
}

/// An entry as reporters see it: the entry, its classification (nil when unclassified) and how many
/// consecutive echoes of it were folded into it.
public struct ClassifiedEntry: Sendable {
    public var entry: Entry
    public var classification: Classification?
    public var count: Int
}
