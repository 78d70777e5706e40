import CDLogCore

/// A diagnosis that holds, with its evidence.
public struct DiagnosisResult: Sendable {
    public struct Evidence: Sendable {
        public var condition: String
        public var label: String
        public var kind: Condition.Kind
        public var optional: Bool
        /// Matching entries (echoes included); for store evidence, 1.
        public var count: Int
        public var citations: [Citation]
        /// The store that satisfied a store condition, with the figures the condition tested.
        public var storePath: String?
        public var storeFigures: [(name: String, value: String, test: String)]
    }

    public var id: String
    public var title: String
    public var severity: Severity
    public var priority: Int
    public var statement: String
    public var advice: [String]
    public var references: [String]
    public var evidence: [Evidence]
    /// Optional conditions that held, of how many.
    public var supportHeld: Int
    public var supportTotal: Int
    /// The labels of the optional conditions that did not hold: what would make the diagnosis surer.
    public var missingSupport: [String] = []
    var order: Int

    /// "high" when every optional condition held, "medium" otherwise.
    public var confidence: String { supportHeld == supportTotal ? "high" : "medium" }
}
