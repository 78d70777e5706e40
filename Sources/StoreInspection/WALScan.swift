/// The result of scanning a WAL's frames (reference §2.4).
public struct WALScan: Sendable {
    public var framesInFile = 0
    /// Bytes after the last complete frame (a torn, partial frame).
    public var partialFrameBytes = 0
    /// Valid frames from frame 1 up to the first invalid one (committed or not).
    public var validFrames = 0
    /// SQLite's mxFrame: the last valid commit frame.
    public var mxFrame = 0
    /// Commit frames among 1…mxFrame.
    public var commits = 0
    /// Distinct pages among 1…mxFrame.
    public var distinctPages = 0
    /// The frame `distinctPagesAfterSplit` counts after (the `pendingPagesAfter` given to the scan; 0 when none).
    public var splitFrame = 0
    /// Distinct pages whose newest image among 1…mxFrame is in a frame after `splitFrame`.
    public var distinctPagesAfterSplit = 0
    /// The database size in pages after the last valid commit (0 when there is none).
    public var databasePages = 0
    /// The first frame that is not valid, and why ("salt", "page0", "checksum"); nil when all are valid.
    public var firstInvalidFrame: Int?
    public var firstInvalidReason: String?
    /// Frames after the valid run whose salts belong to earlier WAL generations.
    public var staleFrames = 0
    /// Distinct salt-1 values among `staleFrames`.
    public var staleGenerations = 0
    /// Frames after the valid run that carry the current salts (torn or corrupt, ignored by SQLite).
    public var ignoredCurrentFrames = 0
    /// Commit frames with current salts after the first invalid frame: commits SQLite will not see.
    public var ignoredCommits = 0
    /// The first frame whose checksum was verified through the chain (1 = all; nil = none verified).
    public var checksumsVerifiedFrom: Int?
    /// "full", "after-wal-index" or "none".
    public var checksumCoverage = "none"
    /// The stored checksum of each frame asked for in `recordChecksumOf`.
    public var recordedChecksum: WALChecksum?
    /// Frames ≤ wal-index mxFrame whose page number differs from the wal-index's aPgno entry.
    public var walIndexPageMismatches = 0
    /// The last frame ≤ mxFrame holding page 1, if any.
    public var lastPageOneFrame: Int?
    /// The first frame after the valid run whose 24-byte header is all zeros (never written: a sparse
    /// hole or a preallocated tail). The scan stops there: SQLite writes frames in order from frame 1, so
    /// nothing it wrote lies beyond. Nil when the scan reached the end of the file.
    public var zeroTailFrame: Int?
    /// Bytes from `zeroTailFrame` to the end of the file.
    public var zeroTailBytes: Int64 = 0
    /// Bytes the file was read for this scan.
    public var bytesRead: Int64 = 0

    /// Distinct pages whose newest image is in a frame after `frame` (what a checkpoint from
    /// nBackfill = `frame` must copy). Known for `frame` ≤ 0, `frame` = `splitFrame` and `frame` ≥ mxFrame;
    /// nil for other frames (the scan keeps no per-page frame numbers: pass the frame as `pendingPagesAfter`).
    /// Distinct pages among 1…mxFrame numbered above `databasePages` (after a commit that shrank the
    /// database: VACUUM, incremental auto-vacuum). A checkpoint does not write them.
    public var distinctPagesBeyondEnd = 0
    /// The same among the frames after `splitFrame`.
    public var distinctPagesAfterSplitBeyondEnd = 0

    /// Distinct pages a checkpoint from `frame` (nBackfill) writes: those written after it, except pages
    /// beyond the database's size at the last commit (SQLite's checkpointer skips them).
    public func pagesToCheckpoint(after frame: Int) -> Int? {
        if frame <= 0 { return distinctPages - distinctPagesBeyondEnd }
        if frame >= mxFrame { return 0 }
        if frame == splitFrame { return distinctPagesAfterSplit - distinctPagesAfterSplitBeyondEnd }
        return nil
    }

    public func distinctPages(after frame: Int) -> Int? {
        if frame <= 0 { return distinctPages }
        if frame >= mxFrame { return 0 }
        if frame == splitFrame { return distinctPagesAfterSplit }
        return nil
    }
}
