/// Checkpoint progress and cost.
public struct CheckpointSection: Sendable {
    /// Valid WAL frames not yet copied into the database file (docs/domain.md, "Output contracts").
    public var pendingFrames = 0
    /// `pendingFrames × (pageSize + 24)`: the WAL bytes those frames occupy.
    public var pendingBytes: Int64 = 0
    /// Distinct pages among the pending frames that a checkpoint writes (not those beyond the database's
    /// size at the last commit, after a shrinking commit).
    public var pendingPages = 0
    /// `pendingPages × pageSize`.
    public var checkpointWriteBytes: Int64 = 0
    /// Bytes SQLite's recovery reads at the next cold open (`32 + validFrames × frameSize`).
    public var recoveryBytes: Int64 = 0
    /// WAL file bytes / database file bytes (nil without a WAL or with an empty database file).
    public var walToDatabaseRatio: Double?
    /// "no-wal", "empty", "not-checkpointed", "partial", "complete-awaiting-reset", "interrupted", "unknown".
    public var progress = "no-wal"
    /// True when the pending figures come from a current wal-index; false when they are the WAL-scan
    /// upper bound (the wal-index is missing, stale or invalid).
    public var fromWalIndex = false
}
