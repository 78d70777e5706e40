/// One piece of evidence a diagnosis looks for.
public struct Condition: Sendable {
    public enum Kind: String, Sendable { case log, crash, store }
    public let name: String
    public let kind: Kind
    /// Shown beside the evidence ("Migration lines in the log").
    public let label: String
    public let optional: Bool
    public let entry: EntryMatcher?
    public let store: StoreMatcher?
}
