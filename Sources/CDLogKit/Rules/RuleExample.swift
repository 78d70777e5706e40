import CDLogCore

/// One example of a rule: a text that the rule must classify (`match`) or must not match (`nomatch`).
public struct RuleExample: Sendable {
    public let text: String
    /// Fields the classification must contain (match examples only).
    public let expectedFields: [String: String]
    /// The category the classification must give (match examples only): a rule that resolves through the tables
    /// or the fallback's markers gives the category of the row or marker the text carries.
    public let expectedCategory: Category?
    public let location: SourceLocation

    public init(text: String, expectedFields: [String: String], expectedCategory: Category? = nil, location: SourceLocation) {
        self.text = text
        self.expectedFields = expectedFields
        self.expectedCategory = expectedCategory
        self.location = location
    }
}
