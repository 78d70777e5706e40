import CDLogCore

/// One example of a rule: a text that the rule must classify (`match`) or must not match (`nomatch`).
public struct RuleExample: Sendable {
    public let text: String
    /// Fields the classification must contain (match examples only).
    public let expectedFields: [String: String]
    public let location: SourceLocation
}
