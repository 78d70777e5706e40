/// The `-shm` file and how it relates to the WAL.
public struct WALIndexSection: Sendable {
    public var index: WALIndex
    /// "current", "stale", "missing" or "invalid".
    public var state: String
    /// One sentence explaining `state`.
    public var reason: String
    /// Another process has the wal-index open (it holds the lock SQLite's connections hold): SQLite
    /// trusts the index as it is. At rest, the next connection rebuilds it from the WAL.
    public var inUse = false
    /// A checkpoint stopped part-way: the index records an attempt past nBackfill *and* the database
    /// file already holds pages copied from frames of that attempt (a recovery leaves the marks, not the
    /// pages).
    public var checkpointInterrupted = false
}
