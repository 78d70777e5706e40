import CDLogKit

/// A synthetic input for a diagnosis: console text, crash fields and store figures. `match` examples
/// must make the diagnosis hold (and its statement contain `statement` when given); `nomatch` must not.
public struct DiagnosisExample: Sendable {
    public let log: String?
    public let crash: [(name: String, value: String)]?
    public let store: [String: Double]?
    public let storeFindings: [String]
    public let statementContains: String?
    public let location: SourceLocation
}
