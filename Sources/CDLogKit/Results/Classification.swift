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
