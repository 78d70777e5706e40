/// A rollback journal beside the database.
public struct JournalSection: Sendable {
    public var present = false
    public var bytes: Int64 = 0
    /// Non-empty with a valid journal header: the last transaction did not finish.
    public var hot = false
}
