import CDLogCore
import CDLogKit

/// A correlation rule: a root cause that several pieces of evidence (classified log entries, crash
/// reports, store figures) point to together. Loaded from `Rules/diagnoses/*.yaml` (schema in
/// `Rules/diagnoses/README.md`).
public struct DiagnosisRule: Sendable {
    public let id: String
    public let title: String
    public let severity: Severity
    /// Higher wins when several diagnoses hold.
    public let priority: Int
    public let conditions: [Condition]
    /// How many of the optional conditions must hold (default 0).
    public let atLeast: Int
    /// One-sentence statements with `{condition.key}` placeholders; the first whose placeholders all
    /// resolve is used.
    public let statements: [String]
    /// Concrete steps.
    public let advice: [String]
    public let references: [String]
    public let matchExamples: [DiagnosisExample]
    public let nomatchExamples: [DiagnosisExample]
    public let location: SourceLocation
    /// Declaration order across all files (the last tie-break).
    public let order: Int
}
