import CDLogCore

/// Counts over everything a classify run read.
///
/// `entries` counts entries read; `classified` counts classified entries (echoes included), so the
/// `byCategory` and `bySeverity` values add up to `classified`; `findings` counts reported lines after
/// echo folding and `--min-severity`.
public struct ClassifySummary: Sendable {
    public var entries = 0
    public var classified = 0
    public var findings = 0
    public var truncatedEntries = 0
    public var byCategory: [Category: Int] = [:]
    public var bySeverity: [Severity: Int] = [:]
    public var highestSeverity: Severity?
    public var sources: [String] = []

    public init() {}

    mutating func count(_ classification: Classification?) {
        guard let classification else { return }
        classified += 1
        byCategory[classification.category, default: 0] += 1
        bySeverity[classification.severity, default: 0] += 1
        if highestSeverity.map({ classification.severity > $0 }) ?? true { highestSeverity = classification.severity }
    }
}
