import CDLogCore
import CSQLite

/// Inspects one store without changing it.
///
/// Contract: the user's files are only opened `O_RDONLY` and read with `pread`; SQLite only ever opens
/// private copies (`SnapshotCopy`), which are deleted before `inspect` returns. Throws `ToolFailure`
/// (one line) when the main database file cannot be read or is not a SQLite database (wrong magic,
/// truncated header, invalid page size). Everything wrong with the `-wal`, `-shm` or the SQL content
/// is reported in the `StoreReport` (as fields and findings) rather than thrown.
public enum StoreInspector {
    static let journalMagic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

    public static func inspect(_ files: StoreFiles, options: InspectionOptions = InspectionOptions()) throws -> StoreReport {
        let dbFile = try ReadOnlyFile(path: files.database)
        let header = try DatabaseHeader.parse(try dbFile.read(at: 0, count: DatabaseHeader.size), name: files.database)
        let database = DatabaseSection(path: files.database,
                                       resolvedPath: files.resolvedDatabase == files.database ? nil : files.resolvedDatabase,
                                       bytes: dbFile.size, header: header)

        // wal-index first (it gives the checksum anchor), straight from the bytes: its header now, its
        // aPgno entries streamed from the open file during the WAL scan.
        var index = WALIndex(path: files.resolvedDatabase + "-shm")
        var indexFile: ReadOnlyFile?
        var indexInUse = false
        if let path = files.walIndex, try FileStatus.status(path) != nil {
            // An unreadable -shm is a finding (wal-index-invalid), not a failure: SQLite would rebuild it.
            do {
                let file = try ReadOnlyFile(path: path)
                index = try WALIndex.read(file: file, path: path)
                indexFile = file
                indexInUse = file.isLockedByAnotherProcess(byte: WALIndex.deadManSwitchByte)
            } catch let failure as ToolFailure {
                index.present = true
                index.problem = "unreadable (\(failure.message))"
            }
        } else if let path = files.walIndex {
            index = WALIndex(path: path)
        }

        // WAL.
        var wal = WALSection()
        var walFile: ReadOnlyFile?
        if let path = files.wal {
            wal.present = true
            wal.path = path
            // An unreadable -wal is a finding (wal.problem), not a failure: the rest is still reported.
            let file: ReadOnlyFile?
            do { file = try ReadOnlyFile(path: path) } catch let failure as ToolFailure {
                file = nil
                wal.problem = "unreadable (\(failure.message))"
            }
            walFile = file
            wal.bytes = file?.size ?? 0
            if let file, file.size > 0 {
                let head = try file.read(at: 0, count: WALHeader.size)
                if let h = WALHeader.parse(head) {
                    wal.header = h
                    wal.problem = h.problem
                } else {
                    wal.problem = "truncated header (\(head.count) of 32 bytes)"
                }
            }
        }
        if let file = walFile, let h = wal.header, h.valid {
            let sameGeneration = index.headerValid && index.salt1 == h.salt1 && index.salt2 == h.salt2
                && index.bigEndianChecksums == h.bigEndianChecksums && index.pageSize == h.pageSize
            // SQLite trusts a wal-index only while a connection has it open (the lock on its DMS byte);
            // the first connection to open a store at rest truncates the -shm and recovers from the WAL,
            // checksum chain and all. So the wal-index anchors the scan only for a store in use.
            let policy: ChecksumPolicy = options.checksums == .auto && !indexInUse ? .full : options.checksums
            let scan = try WALReader().scan(file: file, header: h, policy: policy,
                                            walIndex: sameGeneration ? index : nil,
                                            recordChecksumOf: index.headerValid ? Int(index.mxFrame) : nil,
                                            walIndexFile: indexFile,
                                            pendingPagesAfter: index.headerValid ? Int(index.nBackfill) : nil)
            wal.scan = scan
            wal.pageSizeMatchesDatabase = h.pageSize == header.pageSize
            if let frame = scan.lastPageOneFrame {
                let prefix = try WALReader().pageImagePrefix(file: file, header: h, frame: frame, count: 100)
                wal.pageOneValid = (try? DatabaseHeader.parse(prefix, name: "page 1")) != nil
            }
        }

        var indexSection = walIndexState(index, wal: wal)
        indexSection.inUse = indexInUse
        if indexSection.state == "current", index.checkpointInterrupted, let file = walFile, let h = wal.header {
            indexSection.checkpointInterrupted = try databaseHoldsCopiedPages(
                database: dbFile, wal: file, header: h,
                frames: (Int(index.nBackfill) + 1)...Int(index.nBackfillAttempted))
        }
        let checkpoint = checkpointFigures(database: database, wal: wal, index: indexSection)

        var journal = JournalSection()
        if let path = files.journal, let file = try? ReadOnlyFile(path: path) {
            journal.present = true
            journal.bytes = file.size
            journal.hot = file.size > 0 && (try? file.read(at: 0, count: 8)) == journalMagic
        }

        var report = StoreReport(database: database, wal: wal, walIndex: indexSection, checkpoint: checkpoint,
                                 journal: journal, sql: nil)
        report.companions = files.companionNotes
        if options.runSQL {
            do {
                let copy = try SnapshotCopy(files: files, includeWalIndex: false, emptyWalIndex: false,
                                            walBytes: recoverableWALBytes(wal))
                defer { copy.remove() }
                report.sql = try CoreDataInspector.inspect(copy: copy)
            } catch {
                report.sql = SQLView(error: "\(error)")
            }
            report.sql?.copyBytes = database.bytes + (files.wal == nil ? 0 : (recoverableWALBytes(wal) ?? wal.bytes))
        }
        if options.measureCheckpoint {
            do { report.measurement = try measure(files, checkpoint: checkpoint, walBytes: recoverableWALBytes(wal)) }
            catch { report.measurementError = "\(error)" }
        }
        report.findings = FindingRules.evaluate(report)
        return report
    }

    /// The prefix of the WAL that SQLite's recovery can read: the header and every frame up to and
    /// including the first invalid one (recovery stops there; what follows cannot matter to SQLite).
    /// Nil (copy it all) without a scan; the header alone when the header is invalid.
    static func recoverableWALBytes(_ wal: WALSection) -> Int64? {
        guard wal.present, wal.bytes > Int64(WALHeader.size) else { return nil }
        guard let header = wal.header, header.valid else { return Int64(WALHeader.size) }
        guard let scan = wal.scan else { return nil }
        let frames = min(scan.framesInFile, scan.firstInvalidFrame ?? scan.framesInFile)
        return Int64(WALHeader.size) + Int64(frames) * Int64(header.pageSize + WALReader.frameHeaderSize)
    }

    /// Whether the database file already holds a page image from `frames` (the newest image of its page
    /// among them): what a checkpoint that copied part of the frames leaves, and a recovery does not.
    /// A checkpoint writes pages in ascending order, so the lowest pages are compared (at most 64, from
    /// the headers of the last 200 000 frames of the range): bounded whatever the WAL's size.
    static func databaseHoldsCopiedPages(database: ReadOnlyFile, wal: ReadOnlyFile, header: WALHeader,
                                         frames: ClosedRange<Int>) throws -> Bool {
        let frameSize = header.pageSize + WALReader.frameHeaderSize
        let first = max(frames.lowerBound, frames.upperBound - 199_999)
        var newest: [UInt32: Int] = [:]
        let stream = ReadAhead.frameHeaders(file: wal, frameSize: frameSize, first: first, last: frames.upperBound, threads: 1)
        defer { stream.finish() }
        while let batch = try stream.next() {
            let firstFrame = first + batch.index * ReadAhead.headerBatch
            for i in 0..<batch.count {
                let page = be32(UnsafeRawBufferPointer(rebasing: batch.buffer[(i * WALReader.frameHeaderSize)...]), 0)
                if page > 0 { newest[page] = firstFrame + i }
            }
        }
        for page in newest.keys.sorted().prefix(64) {
            let offset = Int64(page - 1) * Int64(header.pageSize)
            guard offset + Int64(header.pageSize) <= database.size else { continue }
            let stored = try database.read(at: offset, count: header.pageSize)
            let image = try wal.read(at: Int64(WALHeader.size) + Int64(newest[page]! - 1) * Int64(frameSize) + Int64(WALReader.frameHeaderSize),
                                     count: header.pageSize)
            if stored == image { return true }
        }
        return false
    }

    /// Classifies the wal-index against the WAL scan (reference §3.5–3.6).
    static func walIndexState(_ index: WALIndex, wal: WALSection) -> WALIndexSection {
        guard index.present else {
            return WALIndexSection(index: index, state: "missing",
                                   reason: "no -shm file: checkpoint progress unknown; SQLite rebuilds the index from the WAL")
        }
        guard index.headerValid else {
            return WALIndexSection(index: index, state: "invalid",
                                   reason: "\(index.problem ?? "invalid header"): SQLite ignores it and rebuilds the index from the WAL")
        }
        guard let h = wal.header, h.valid, let scan = wal.scan else {
            if index.mxFrame == 0 {
                return WALIndexSection(index: index, state: "current", reason: "no WAL content and the wal-index records no frames")
            }
            return WALIndexSection(index: index, state: "stale",
                                   reason: "the wal-index records \(index.mxFrame) frames but there is no usable WAL")
        }
        if index.salt1 != h.salt1 || index.salt2 != h.salt2 {
            return WALIndexSection(index: index, state: "stale",
                                   reason: "salts differ from the WAL header: the wal-index belongs to another WAL generation")
        }
        let mx = Int(index.mxFrame)
        if index.bytes < WALIndex.bytesNeeded(frames: mx) {
            // SQLite maps the -shm in 32 KiB regions and needs one for every 4 096 frames (the first holds
            // 4 062): an index shorter than its mxFrame needs is not one SQLite would use.
            return WALIndexSection(index: index, state: "invalid",
                                   reason: "\(index.bytes) bytes cannot hold the page numbers of the \(mx) frames it records (\(WALIndex.bytesNeeded(frames: mx)) bytes needed): SQLite rebuilds the index from the WAL")
        }
        let anchorMatches = mx == 0 || (mx <= scan.validFrames && scan.recordedChecksum == index.frameChecksum)
        if mx == scan.mxFrame && anchorMatches && scan.walIndexPageMismatches == 0 {
            return WALIndexSection(index: index, state: "current", reason: "agrees with the WAL (salts, mxFrame \(mx), frame checksum)")
        }
        if mx < scan.mxFrame && anchorMatches {
            return WALIndexSection(index: index, state: "stale",
                                   reason: "consistent but older than the WAL: it knows \(mx) frames, the WAL has \(scan.mxFrame) committed")
        }
        if scan.walIndexPageMismatches > 0 {
            return WALIndexSection(index: index, state: "stale",
                                   reason: "\(scan.walIndexPageMismatches) aPgno entries differ from the WAL frame headers")
        }
        return WALIndexSection(index: index, state: "stale",
                               reason: "it records mxFrame \(mx) but the WAL's last valid commit is frame \(scan.mxFrame)")
    }

    static func checkpointFigures(database: DatabaseSection, wal: WALSection, index: WALIndexSection) -> CheckpointSection {
        var c = CheckpointSection()
        if wal.present, database.bytes > 0 { c.walToDatabaseRatio = Double(wal.bytes) / Double(database.bytes) }
        guard wal.present else { c.progress = "no-wal"; return c }
        guard let h = wal.header, h.valid, let scan = wal.scan else {
            c.progress = wal.bytes == 0 ? "empty" : "unknown"
            return c
        }
        let frameSize = Int64(h.pageSize + WALReader.frameHeaderSize)
        c.recoveryBytes = scan.validFrames > 0 ? Int64(WALHeader.size) + Int64(scan.validFrames) * frameSize : 0
        if scan.mxFrame == 0 { c.progress = "empty"; return c }
        if index.state == "current" {
            let backfill = min(Int(index.index.nBackfill), scan.mxFrame)
            c.fromWalIndex = true
            c.pendingFrames = scan.mxFrame - backfill
            // The scan counted the pages after nBackfill (`pendingPagesAfter`); never nil here.
            c.pendingPages = scan.pagesToCheckpoint(after: backfill) ?? scan.distinctPages
            if index.checkpointInterrupted { c.progress = "interrupted" }
            else if backfill == 0 { c.progress = "not-checkpointed" }
            else if backfill == scan.mxFrame { c.progress = "complete-awaiting-reset" }
            else { c.progress = "partial" }
        } else {
            c.pendingFrames = scan.mxFrame
            c.pendingPages = scan.pagesToCheckpoint(after: 0) ?? scan.distinctPages
            c.progress = "unknown"
        }
        c.pendingBytes = Int64(c.pendingFrames) * frameSize
        c.checkpointWriteBytes = Int64(c.pendingPages) * Int64(h.pageSize)
        return c
    }

    /// Times SQLite's recovery (the first query on a copy without `-shm`) and `wal_checkpoint(TRUNCATE)`.
    static func measure(_ files: StoreFiles, checkpoint: CheckpointSection, walBytes: Int64?) throws -> CheckpointMeasurement {
        let copy = try SnapshotCopy(files: files, includeWalIndex: false, emptyWalIndex: false, walBytes: walBytes)
        defer { copy.remove() }
        let db = try SQLiteConnection(uri: SQLiteConnection.uri(copy.databasePath, query: ""),
                                      flags: SQLITE_OPEN_READWRITE, displayPath: copy.databasePath)
        defer { db.close() }
        let t0 = monotonicSeconds()
        _ = try db.scalarInt("SELECT count(*) FROM sqlite_master")
        let t1 = monotonicSeconds()
        var row = (0, 0, 0)
        // FULL does the copying and reports SQLite's own frame counts; TRUNCATE then empties the WAL.
        try db.query("PRAGMA wal_checkpoint(FULL)") { r in
            row = (Int(r.int(0) ?? -1), Int(r.int(1) ?? -1), Int(r.int(2) ?? -1))
        }
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let t2 = monotonicSeconds()
        return CheckpointMeasurement(recoverySeconds: t1 - t0, recoveryBytes: checkpoint.recoveryBytes,
                                     checkpointSeconds: t2 - t1, checkpointWriteBytes: checkpoint.checkpointWriteBytes,
                                     busy: row.0, logFrames: row.1, checkpointedFrames: row.2)
    }
}
