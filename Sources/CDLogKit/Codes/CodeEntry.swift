import CDLogCore

/// One row of a code table (Rules/README.md, "Code tables"): what a (domain, code) pair means.
public struct CodeEntry: Sendable {
    public let domain: String
    /// The lowest code the row covers; equal to `last` unless the row is a range.
    public let code: Int
    public let last: Int
    public let name: String
    /// The name CloudKit prints in quotes (`"Partial Failure"`), when the table gives it.
    public let printed: String?
    /// Sentences a library prints for the code without its number (SQLite's `database is locked`), found
    /// anywhere in an entry as printed (case-sensitive).
    public let messages: [String]
    /// The names CloudKit's web services and CloudKit JS give the code (`serverErrorCode` `ZONE_NOT_FOUND`).
    public let server: [String]
    public let category: Category
    public let severity: Severity
    /// True when the code says less than a code it wraps (134060 "Core Data error", CKError 2 partial
    /// failure): a non-generic code in the same entry decides.
    public let generic: Bool
    /// True when the code is common outside persistence (a Foundation file error): it counts only in an
    /// entry that the table's `context` pattern finds (a store, Core Data, SQLite).
    public let needsContext: Bool
    /// True when the code reports success (SQLITE_OK, SQLITE_DONE): in an entry that says something failed,
    /// it only says that a wrapper lost the real code, so it decides nothing there.
    public let success: Bool
    public let meaning: String
    public let advice: String
    /// The rule a finding of this row carries (id `code.<table key>.<code>`).
    public let rule: Rule

    public var isRange: Bool { last != code }
}
