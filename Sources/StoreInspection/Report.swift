import CDLogCore

/// One diagnosis, with a stable id (see `FindingRules`).
public struct Finding: Sendable, Equatable {
    public var id: String
    public var severity: Severity
    public var title: String
    public var detail: String
    public var advice: String
}

/// The main database file as read from its bytes.
public struct DatabaseSection: Sendable {
    public var path: String
    /// The symlink target SQLite would open, when different from `path`.
    public var resolvedPath: String?
    public var bytes: Int64
    public var header: DatabaseHeader
    /// Whole pages in the file (`bytes / pageSize`).
    public var pagesInFile: Int { header.pageSize > 0 ? Int(bytes / Int64(header.pageSize)) : 0 }
    /// Database size in pages: the in-header size when valid, else `pagesInFile`.
    public var pageCount: Int { header.inHeaderSizeValid ? Int(header.inHeaderPageCount) : pagesInFile }
}

/// The `-wal` file.
public struct WALSection: Sendable {
    public var present = false
    public var path: String?
    public var bytes: Int64 = 0
    public var header: WALHeader?
    /// Why SQLite would ignore the file (nil when the header is valid or the file is absent/empty).
    public var problem: String?
    public var scan: WALScan?
    /// The page size of the WAL equals the database header's.
    public var pageSizeMatchesDatabase: Bool?
    /// The newest committed image of page 1 starts with the SQLite header (nil: no page 1 in the WAL).
    public var pageOneValid: Bool?

    public var frameSize: Int { (header?.pageSize ?? 0) + WALReader.frameHeaderSize }
    /// Bytes of the file that hold live committed frames (`32 + mxFrame × frameSize`).
    public var liveBytes: Int64 {
        guard let scan, scan.mxFrame > 0 else { return 0 }
        return Int64(WALHeader.size) + Int64(scan.mxFrame) * Int64(frameSize)
    }
}

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

/// A rollback journal beside the database.
public struct JournalSection: Sendable {
    public var present = false
    public var bytes: Int64 = 0
    /// Non-empty with a valid journal header: the last transaction did not finish.
    public var hot = false
}

/// `--measure-checkpoint`: SQLite's own recovery and TRUNCATE checkpoint timed on a private copy.
public struct CheckpointMeasurement: Sendable {
    public var recoverySeconds: Double
    public var recoveryBytes: Int64
    public var checkpointSeconds: Double
    public var checkpointWriteBytes: Int64
    /// SQLite's `PRAGMA wal_checkpoint(TRUNCATE)` row: busy, log (frames), checkpointed.
    public var busy: Int
    public var logFrames: Int
    public var checkpointedFrames: Int
    public var recoveryMBps: Double? { rate(recoveryBytes, recoverySeconds) }
    public var checkpointMBps: Double? { rate(checkpointWriteBytes, checkpointSeconds) }
    public static let note = "measured on this machine with a warm page cache; device speed differs"
    private func rate(_ bytes: Int64, _ seconds: Double) -> Double? {
        seconds > 0 && bytes > 0 ? Double(bytes) / 1_048_576 / seconds : nil
    }
}

/// Everything walcheck knows about one store. Built by `StoreInspector`; rendered by `ReportRenderer`.
public struct StoreReport: Sendable {
    public var database: DatabaseSection
    public var wal: WALSection
    public var walIndex: WALIndexSection
    public var checkpoint: CheckpointSection
    public var journal: JournalSection
    /// Companions that are symlinks, folders, FIFOs, devices or sockets (`StoreFiles.companionNotes`).
    public var companions: [CompanionNote] = []
    /// SQL on a private copy (nil when skipped with `--no-sql`).
    public var sql: SQLView?
    public var measurement: CheckpointMeasurement?
    /// Why the measurement failed, when it did.
    public var measurementError: String?
    public var findings: [Finding] = []

    /// The most severe finding (nil when there is none).
    public var maxSeverity: Severity? { findings.map(\.severity).max() }
}
