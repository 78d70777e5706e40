import CDLogCore
import CDLogKit

/// Matches reported entries (`log`: any entry; `crash`: crash-report entries only).
public struct EntryMatcher: @unchecked Sendable {
    /// Rule id pattern (PCRE2, unanchored unless the pattern anchors).
    public let rule: PCRERegex?
    public let categories: [Category]
    public let minimumSeverity: Severity?
    public let message: PCRERegex?
    public let fields: [(name: String, regex: PCRERegex)]
    /// How many matching entries (echoes included) are needed.
    public let count: Comparison
}
