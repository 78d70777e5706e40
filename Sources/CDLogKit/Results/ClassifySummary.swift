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
    public var highestSeverity: Severity?
    public var sources: [String] = []
    /// Classified entries by `Category.ordinal` and by `Severity.rawValue`: a finding is counted in an
    /// array slot, not hashed (as its raw-value string) into a dictionary for every finding.
    private var categoryCounts = [Int](repeating: 0, count: Category.allCases.count)
    private var severityCounts = [Int](repeating: 0, count: Severity.allCases.count)

    public init() {}

    /// Classified entries per category, in `Category.allCases` order; categories with none are left out.
    public var byCategory: [(category: Category, count: Int)] {
        Category.allCases.compactMap { category in
            categoryCounts[category.ordinal] > 0 ? (category, categoryCounts[category.ordinal]) : nil
        }
    }

    /// Classified entries per severity, most severe first; severities with none are left out.
    public var bySeverity: [(severity: Severity, count: Int)] {
        Severity.allCases.reversed().compactMap { severity in
            severityCounts[severity.rawValue] > 0 ? (severity, severityCounts[severity.rawValue]) : nil
        }
    }

    /// What to say when an input with entries had nothing relevant in it (issue 26): why that may be, and
    /// the capture that has what cdlog reads.
    public static let nothingRelevantHint = "Nothing in it is Core Data, CloudKit, SwiftData or SQLite output that cdlog knows. The capture may lack those subsystems (a log show filtered on the app's own subsystem or process), come from another process, or end before the problem. Capture again with: log show --last 1h --style ndjson --predicate 'subsystem BEGINSWITH \"com.apple.coredata\" OR subsystem BEGINSWITH \"com.apple.cloudkit\" OR process == \"YourApp\"' (run the app with -com.apple.CoreData.CloudKitDebug 1 for the container's own account)."

    mutating func count(_ classification: Classification?) {
        entries += 1
        guard let classification else { return }
        classified += 1
        let severity = classification.severity
        categoryCounts[classification.category.ordinal] += 1
        severityCounts[severity.rawValue] += 1
        if highestSeverity.map({ severity > $0 }) ?? true { highestSeverity = severity }
    }

    /// Adds `other`'s counts (not its findings or sources) to these.
    mutating func absorb(_ other: ClassifySummary) {
        entries += other.entries
        classified += other.classified
        truncatedEntries += other.truncatedEntries
        for k in categoryCounts.indices { categoryCounts[k] += other.categoryCounts[k] }
        for k in severityCounts.indices { severityCounts[k] += other.severityCounts[k] }
        if let s = other.highestSeverity, highestSeverity.map({ s > $0 }) ?? true { highestSeverity = s }
    }
}
