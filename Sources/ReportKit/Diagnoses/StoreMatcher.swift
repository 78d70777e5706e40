/// Matches the figures and findings of an inspected store.
public struct StoreMatcher: Sendable {
    public let figures: [(name: String, comparison: Comparison)]
    /// walcheck finding ids that must be present.
    public let findings: [String]
}
