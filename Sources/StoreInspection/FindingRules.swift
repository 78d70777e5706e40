import CDLogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thresholds behind the findings. Documented in README.md (walcheck, "Findings and thresholds"); change both together.
public enum Thresholds {
    public static let mebibyte: Int64 = 1 << 20
    /// A WAL file at least this big is "large" (warning): the seed app's journal_size_limit was 100 MB,
    /// and a WAL that SQLite's default autocheckpoint keeps in check stays near 4 MB (1000 × 4 KiB pages).
    public static let walFileWarningBytes: Int64 = 100 << 20
    /// A WAL file at least this big is an error: GB-sized WALs are what killed the seed app at launch.
    public static let walFileErrorBytes: Int64 = 1 << 30
    /// Below this size a WAL larger than its database is only `info` (small stores are often all-WAL).
    public static let walLargerThanDatabaseWarningBytes: Int64 = 4 << 20
    /// Launch I/O (recovery read + checkpoint write) at which the launch-risk finding is a warning:
    /// at a conservative 25–50 MB/s effective (cold flash, fsyncs, a busy launch) that is 1–3 s.
    public static let launchWarningBytes: Int64 = 64 << 20
    /// Launch I/O at which the launch-risk finding is an error: 512 MB at 25–50 MB/s is 10–20 s,
    /// the whole ~20 s launch watchdog budget.
    public static let launchErrorBytes: Int64 = 512 << 20
    /// SQLite's default autocheckpoint runs at 1000 frames: more pending frames than that means
    /// checkpoints are off, replaced (Core Data's own WAL hook) or starved by readers.
    public static let pendingFramesInfo = 1000
    /// Ten times the autocheckpoint threshold: warning.
    public static let pendingFramesWarning = 10_000
    /// Dead WAL space (file bytes beyond the live frames) that makes `wal-dead-space` a warning.
    public static let deadSpaceWarningBytes: Int64 = 64 << 20
    /// Persistent-history size that suggests history is never pruned.
    public static let historyTransactionsWarning = 10_000
    public static let historyChangesWarning = 100_000
    /// Span between oldest and newest transaction that suggests history is never pruned (info),
    /// together with at least `historyTransactionsInfo` transactions.
    public static let historySpanDaysInfo = 90.0
    public static let historyTransactionsInfo = 1000
    /// Records waiting for export at which the CloudKit backlog is a warning (below: info).
    public static let exportBacklogWarning = 100
    /// Free pages as a share of the database that earn an info finding (with at least 256 pages).
    public static let freelistShareInfo = 0.25
}

/// Turns a `StoreReport`'s figures into findings. Pure: no I/O.
public enum FindingRules {
    /// Every finding id `evaluate` can give (what report diagnoses may name in `findings:`).
    public static let ids: Set<String> = [
        "companion-symlink", "companion-not-read", "database-truncated", "wal-missing", "wal-header-invalid", "wal-foreign",
        "wal-corrupt-frame", "wal-torn-tail", "wal-dead-space", "wal-zero-tail", "pending-frames", "wal-larger-than-database",
        "wal-file-large", "checkpoint-launch-risk", "wal-index-stale", "wal-index-missing", "wal-index-invalid",
        "checkpoint-interrupted", "checkpoint-starved", "journal-hot", "freelist-large", "sql-unreadable", "history-unpruned",
        "cloudkit-export-backlog", "cloudkit-failed-events",
    ]

    public static func evaluate(_ r: StoreReport) -> [Finding] {
        var out: [Finding] = []
        func add(_ id: String, _ s: Severity, _ title: String, _ detail: String, _ advice: String) {
            assert(ids.contains(id), "finding id \(id) is missing from FindingRules.ids")
            out.append(Finding(id: id, severity: s, title: title, detail: detail, advice: advice))
        }
        let db = r.database, wal = r.wal, cp = r.checkpoint, idx = r.walIndex.index
        let pageSize = db.header.pageSize

        // Companions that are not plain files beside the store.
        for note in r.companions {
            let name = lastComponent(note.path)
            if note.read {
                add("companion-symlink", .info, "\(name) is a symlink",
                    "\(name) is \(note.what); SQLite follows it, and walcheck read it.",
                    "Copy the store with the target's bytes (cp -L), not the link, when sending it on.")
            } else {
                let unread = note.suffix == "-shm" ? "the wal-index" : note.suffix == "-wal" ? "the WAL (and any transactions committed only in it)" : "the rollback journal"
                let outside = note.leavesFolder
                add("companion-not-read", note.suffix == "-shm" ? .warning : .error,
                    "\(name) is \(outside ? "a symlink leaving the store's folder" : note.what): not read",
                    "\(name) is \(note.what). walcheck did not open it, so \(unread) is missing from every figure here"
                        + (outside ? "." : "; SQLite cannot use it either, and the app's open of this store fails or hangs."),
                    outside ? "Check where the link points; pass --follow-symlinks to read it anyway."
                        : "Find out what replaced the file (a sync tool, a backup restore, a script), and copy the store again from the device or container.")
            }
        }
        // A main file shorter than its own header says (cut while copied).
        if db.header.inHeaderSizeValid, Int64(db.header.inHeaderPageCount) * Int64(pageSize) > db.bytes {
            add("database-truncated", .error, "Database file is shorter than its header says",
                "The header gives \(db.header.inHeaderPageCount) pages of \(pageSize) bytes (\(mb(Int64(db.header.inHeaderPageCount) * Int64(pageSize)))), the file holds \(db.bytes) bytes (\(db.pagesInFile) whole pages): the copy was cut short, or the disk was full while it was written. Pages past the end read as missing, and SQLite reports the store as corrupt (SQLITE_CORRUPT, 11) when it reaches them.",
                "Copy the store again, all files together, and check the copy's size against the original's.")
        }
        
        // A WAL-mode database without its WAL.
        if db.header.journalMode == "wal" && !wal.present && !r.companions.contains(where: { $0.suffix == "-wal" }) {
            if idx.present && idx.headerValid && idx.mxFrame > idx.nBackfill {
                add("wal-missing", .error, "Database in WAL mode copied without its -wal: committed data lost",
                    "The -shm records \(idx.mxFrame - idx.nBackfill) committed frames not yet checkpointed, but \(lastComponent(db.path))-wal is missing. Those transactions exist nowhere else; the main file alone is an older (and after an interrupted checkpoint possibly inconsistent) version.",
                    "Ask for the -wal taken together with the database (all three files, copied while the app is not running). Never delete a -wal to 'fix' a store.")
            } else {
                add("wal-missing", .warning, "Database in WAL mode without a -wal file",
                    "Header bytes 18/19 say WAL mode, and there is no \(lastComponent(db.path))-wal. That is normal after a clean close; if this copy was taken from a device or backup while the app was running or killed, committed transactions that lived only in the WAL are lost.",
                    "Make sure the store was copied with its -wal and -shm (all files with the same name prefix).")
            }
        }
        // WAL header.
        if wal.present, let problem = wal.problem {
            let frames = wal.header.map { h -> Int in
                h.pageSizeValid ? Int(max(0, wal.bytes - 32) / Int64(h.pageSize + 24)) : 0 } ?? 0
            add("wal-header-invalid", frames > 0 ? .error : .warning, "SQLite ignores this WAL (\(problem))",
                "\(lastComponent(wal.path ?? "-wal")) has \(wal.bytes) bytes but its header is not valid (\(problem)); SQLite treats the WAL as empty, so anything committed only in it is lost.",
                "Check that the -wal belongs to this database and was copied completely; keep the original files unchanged.")
        }
        if let same = wal.pageSizeMatchesDatabase, !same, let h = wal.header {
            add("wal-foreign", .error, "WAL page size differs from the database's",
                "The WAL uses \(h.pageSize)-byte pages, the database header \(pageSize)-byte pages: this -wal most likely belongs to another database.",
                "Make sure the -wal was copied from the same store as the database file.")
        } else if wal.pageOneValid == false {
            add("wal-foreign", .error, "The WAL's copy of page 1 is not a SQLite header",
                "The newest page 1 image in the WAL does not start with \"SQLite format 3\": the -wal belongs to another database or is corrupt.",
                "Make sure the -wal was copied from the same store as the database file.")
        }
        if let scan = wal.scan {
            let frameBytes = Int64(pageSize + 24)
            if scan.ignoredCommits > 0, let bad = scan.firstInvalidFrame {
                add("wal-corrupt-frame", .error, "Corrupt WAL frame hides \(scan.ignoredCommits) later commits",
                    "Frame \(bad) fails the \(scan.firstInvalidReason ?? "validity") check; SQLite's recovery stops there, so \(scan.ignoredCurrentFrames) later frames of this WAL generation (\(scan.ignoredCommits) commits) are ignored: those transactions are lost to SQLite.",
                    "Keep the original files; a byte-level repair may recover the later frames. Check storage health and whether the file was modified after the app wrote it.")
            } else if scan.partialFrameBytes > 0 || scan.validFrames > scan.mxFrame || scan.ignoredCurrentFrames > 0 {
                var parts: [String] = []
                if scan.validFrames > scan.mxFrame { parts.append("\(scan.validFrames - scan.mxFrame) valid frames after the last commit (a transaction that never committed)") }
                if scan.ignoredCurrentFrames > 0, let bad = scan.firstInvalidFrame { parts.append("\(scan.ignoredCurrentFrames) uncommitted frames from frame \(bad) on fail the \(scan.firstInvalidReason ?? "") check") }
                if scan.partialFrameBytes > 0 { parts.append("\(scan.partialFrameBytes) bytes of a partial frame at the end") }
                add("wal-torn-tail", .info, "Torn or uncommitted tail in the WAL",
                    parts.joined(separator: "; ") + ". SQLite ignores these; it is what a crash or kill during a write leaves behind.",
                    "Nothing to do: no committed data is affected.")
            }
            let dead = wal.bytes - wal.liveBytes
            if scan.staleFrames > 0 && (dead >= Thresholds.deadSpaceWarningBytes || dead > wal.liveBytes) {
                add("wal-dead-space", dead >= Thresholds.deadSpaceWarningBytes ? .warning : .info,
                    "WAL file keeps \(mb(dead)) of frames from earlier generations",
                    "\(scan.staleFrames) frames (\(scan.staleGenerations) earlier generation(s), checkpoint sequence \(wal.header?.checkpointSequence ?? 0)) are left over from before a WAL reset; live frames use \(mb(wal.liveBytes)) of the \(mb(wal.bytes)) file. SQLite overwrites rather than truncates unless journal_size_limit is set.",
                    "Set journal_size_limit to 10–20 MB (NSSQLitePragmasOption) so a reset WAL is truncated, or run a TRUNCATE checkpoint when idle.")
            }
            if let zero = scan.zeroTailFrame, scan.zeroTailBytes >= Thresholds.mebibyte {
                add("wal-zero-tail", .info, "WAL ends in \(mb(scan.zeroTailBytes)) that were never written",
                    "From frame \(zero) on the -wal holds only zeros (a sparse hole or preallocated space): SQLite never wrote there, and its recovery stops at frame \(zero). walcheck did not scan or copy that part.",
                    "Nothing is lost there. If the file was made sparse or extended by a copy or backup tool, copy stores with a tool that keeps sizes exact.")
            }
            if cp.pendingFrames >= Thresholds.pendingFramesInfo {
                add("pending-frames", cp.pendingFrames >= Thresholds.pendingFramesWarning ? .warning : .info,
                    "\(cp.pendingFrames) WAL frames not checkpointed",
                    "\(cp.pendingFrames) committed frames (\(mb(cp.pendingBytes)), \(cp.pendingPages) distinct pages) are not in the database file. SQLite's default autocheckpoint runs at \(Thresholds.pendingFramesInfo) frames, so checkpoints are off, replaced by the app's own WAL hook, or starved by long-lived readers.",
                    "Checkpoint periodically (wal_checkpoint(TRUNCATE) when idle); do not rely on PASSIVE checkpoints while background contexts or CloudKit mirroring hold readers.")
            }
            _ = frameBytes
        }
        // WAL size.
        if wal.present && wal.bytes > db.bytes && wal.bytes > 0 {
            add("wal-larger-than-database", wal.bytes >= Thresholds.walLargerThanDatabaseWarningBytes ? .warning : .info,
                "WAL (\(mb(wal.bytes))) is larger than the database (\(mb(db.bytes)))",
                String(format2("The -wal is %.1f× the database file. ", cp.walToDatabaseRatio ?? 0))
                    + "The newest committed data lives in the WAL; the database file alone is out of date.",
                "Copy and back up the store as a set (database, -wal, -shm); checkpoint so the WAL stays small.")
        }
        if wal.bytes >= Thresholds.walFileWarningBytes {
            add("wal-file-large", wal.bytes >= Thresholds.walFileErrorBytes ? .error : .warning,
                "WAL file is \(mb(wal.bytes))",
                "A WAL that SQLite's default autocheckpoint manages stays near 4 MB; this one is \(mb(wal.bytes)) (thresholds: \(mb(Thresholds.walFileWarningBytes)) warning, \(mb(Thresholds.walFileErrorBytes)) error).",
                "Keep journal_size_limit near 10–20 MB and checkpoint (TRUNCATE) periodically; never rely on PASSIVE alone.")
        }
        // Launch risk: WAL to replay plus pages to checkpoint, before the first screen.
        let launchBytes = cp.recoveryBytes + cp.checkpointWriteBytes
        if cp.pendingFrames > 0 || launchBytes >= Thresholds.launchWarningBytes {
            let severity: Severity = launchBytes >= Thresholds.launchErrorBytes ? .error
                : launchBytes >= Thresholds.launchWarningBytes ? .warning : .info
            add("checkpoint-launch-risk", severity,
                "Next launch must replay \(mb(cp.recoveryBytes)) of WAL and checkpoint \(mb(cp.checkpointWriteBytes))",
                "The next cold open rebuilds the wal-index by reading and checksumming \(mb(cp.recoveryBytes)) of WAL (\(wal.scan?.validFrames ?? 0) frames), and a checkpoint must copy \(cp.pendingPages) distinct pages (\(mb(cp.checkpointWriteBytes))) of \(cp.pendingFrames) pending frames into the database. Core Data checkpoints before a migration runs, so after a model change this work happens at launch; on iOS, when the store loads on the main thread, it counts against the ~20 s launch watchdog (0x8badf00d). A multi-GB WAL means the app is killed at every launch before its first screen appears, and again at the next launch, because the work starts over. The severity comes from the sum of the two figures (\(mb(launchBytes)) here) against thresholds of \(mb(Thresholds.launchWarningBytes)) (warning) and \(mb(Thresholds.launchErrorBytes)) (error); use --measure-checkpoint for this machine's timing.",
                "Load persistent stores off the main thread; never rely on PASSIVE checkpoints; keep journal_size_limit near 10–20 MB; checkpoint (TRUNCATE) periodically and before shipping a migration.")
        }
        // wal-index.
        switch r.walIndex.state {
        case "stale" where wal.present: // without a WAL, `wal-missing` tells the story
            add("wal-index-stale", .warning, "Stale wal-index (-shm)",
                "The -shm: \(r.walIndex.reason). Its figures (mxFrame \(idx.mxFrame), nBackfill \(idx.nBackfill)) are out of date; pending work is taken from the WAL scan (an upper bound). Usually the files were copied one by one while the app was writing.",
                "Copy the store's files while the app is not running (or from a quiesced backup), all three together.")
        case "missing" where wal.present && (wal.scan?.mxFrame ?? 0) > 0:
            add("wal-index-missing", .info, "No wal-index (-shm) beside the WAL",
                "Checkpoint progress is unknown, so all \(wal.scan?.mxFrame ?? 0) committed frames count as pending (an upper bound). SQLite rebuilds the index from the WAL at the next open.",
                "Include the -shm when copying a store, for an exact checkpoint picture.")
        case "invalid":
            add("wal-index-invalid", .info, "Unusable wal-index (-shm)",
                "The -shm is \(idx.problem ?? "invalid"). SQLite ignores it and rebuilds the index from the WAL; pending figures are an upper bound.",
                "Nothing to fix in the store; copy the -shm together with the other files for an exact picture.")
        default: break
        }
        if r.walIndex.checkpointInterrupted {
            add("checkpoint-interrupted", .error, "Interrupted checkpoint",
                "nBackfillAttempted \(idx.nBackfillAttempted) > nBackfill \(idx.nBackfill), and the database file already holds pages copied from those frames: a checkpoint started copying frames into the database and did not finish (for example a watchdog kill during the launch checkpoint). The main file alone is now a mix of two versions; only database + WAL together are consistent.",
                "Never delete or discard the -wal of this store; let SQLite finish the checkpoint on a normal open, off the main thread.")
        }
        if r.walIndex.state == "current", idx.nBackfill > 0, idx.nBackfill < idx.mxFrame, !r.walIndex.checkpointInterrupted {
            let marks = idx.readMarks.dropFirst().filter { $0 != 0xFFFF_FFFF && $0 < idx.mxFrame }
            add("checkpoint-starved", .info, "Checkpoint stopped part-way (nBackfill \(idx.nBackfill) of \(idx.mxFrame))",
                "The last checkpoint copied \(idx.nBackfill) of \(idx.mxFrame) frames" + (marks.isEmpty ? "." : "; read marks at \(marks.map(String.init).joined(separator: ", ")) show readers pinned older snapshots (checkpoint starvation)."),
                "End long-lived read transactions (background contexts, history fetches) so checkpoints can complete; use RESTART/TRUNCATE when idle.")
        }
        // Rollback journal.
        if r.journal.hot {
            add("journal-hot", .warning, "Hot rollback journal",
                "\(lastComponent(db.path))-journal (\(r.journal.bytes) bytes) has a valid header: the last transaction did not finish and SQLite will roll it back at the next open.",
                "Keep the -journal with the database; deleting it can corrupt the store.")
        }
        // Freelist.
        let pages = r.sql?.pageCount ?? db.pageCount
        let free = r.sql?.freelistCount ?? Int(db.header.freelistPages)
        if pages >= 256, Double(free) >= Thresholds.freelistShareInfo * Double(pages) {
            add("freelist-large", .info, "\(free) of \(pages) pages are free",
                "Free pages waste \(mb(Int64(free) * Int64(pageSize))) (auto-vacuum: \(db.header.autoVacuum)).",
                "Core Data stores use incremental auto-vacuum; a VACUUM on a copy shows the reclaimable size.")
        }
        // SQL-level findings.
        if let error = r.sql?.error {
            add("sql-unreadable", .warning, "SQLite could not read the private copy",
                error + ". Byte-level figures are still reported; row counts and Core Data metadata are not.",
                "Check the store with `sqlite3 COPY 'PRAGMA integrity_check'` on a copy.")
        }
        if let h = r.sql?.coreData?.history {
            let spanDays = (h.newest ?? 0) - (h.oldest ?? 0) > 0 ? ((h.newest ?? 0) - (h.oldest ?? 0)) / 86400 : 0
            if h.transactions >= Thresholds.historyTransactionsWarning || (h.changes ?? 0) >= Thresholds.historyChangesWarning {
                add("history-unpruned", .warning, "Persistent history is never pruned (\(h.transactions) transactions, \(h.changes ?? 0) changes)",
                    "ATRANSACTION/ACHANGE hold \(h.transactions) transactions and \(h.changes ?? 0) changes spanning \(Int(spanDays)) days. History grows with every save unless purged, and every fetch of history and every CloudKit export walks it.",
                    "Purge history older than what every consumer has processed (NSPersistentHistoryChangeRequest.deleteHistory(before:)); NSPersistentCloudKitContainer keeps what it needs.")
            } else if spanDays >= Thresholds.historySpanDaysInfo && h.transactions >= Thresholds.historyTransactionsInfo {
                add("history-unpruned", .info, "Persistent history spans \(Int(spanDays)) days",
                    "\(h.transactions) transactions from \(isoDate(cocoaSeconds: h.oldest) ?? "?") to \(isoDate(cocoaSeconds: h.newest) ?? "?"): history looks never purged.",
                    "Purge processed history periodically (deleteHistory(before:)).")
            }
        }
        if let ck = r.sql?.coreData?.cloudKit {
            if let pending = ck.pendingExports, pending > 0 {
                add("cloudkit-export-backlog", pending >= Thresholds.exportBacklogWarning ? .warning : .info,
                    "\(pending) records waiting for CloudKit export",
                    "ANSCKRECORDMETADATA marks \(ck.needsUpload ?? 0) records for upload and \(ck.needsCloudDelete ?? 0) for deletion in CloudKit (of \(ck.recordMetadata ?? 0) mirrored records).",
                    "Check the account state, network and the export events (cdlog classify on the console log); large backlogs often follow quota (25) or rate limiting (7).")
            }
            if let failed = ck.failedEvents, failed > 0 {
                let last = ck.lastEvents.first
                let lastFailed = last?.succeeded == false
                add("cloudkit-failed-events", lastFailed ? .warning : .info, "\(failed) failed CloudKit mirroring events",
                    "ANSCKEVENT records \(failed) failed events of \(ck.events ?? 0)" + (last.map { "; the newest is a\($0.type == "import" || $0.type == "export" ? "n" : "") \($0.type) that " + ($0.succeeded == false ? "failed (\($0.errorDomain ?? "?") \($0.errorCode.map(String.init) ?? "?"))" : "succeeded") } ?? "") + ".",
                    "Look up the error domain/code (CKError, NSCocoaErrorDomain) with cdlog; a failing newest event means sync is stuck.")
            }
        }
        return out.enumerated().sorted { $0.element.severity != $1.element.severity ? $0.element.severity > $1.element.severity : $0.offset < $1.offset }.map(\.element)
    }
}

/// "12.3 MiB" (binary units: bytes, KiB below 1 MiB, one decimal below 100 MiB).
func mb(_ bytes: Int64) -> String { ByteCount.text(bytes) }

/// `String(format:)` without Foundation, for one double.
func format2(_ pattern: String, _ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = withVaList([value]) { vsnprintf(&buffer, 64, pattern, $0) }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
