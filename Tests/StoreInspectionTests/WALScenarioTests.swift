import Foundation
import Testing
import CSQLite
@testable import StoreInspection
import CDLogCore

/// Every WAL state built with real SQLite, frozen the way a kill leaves it, then checked against SQLite's
/// own figures; each inspection also asserts the folder (bytes, mtimes, listing) is unchanged.
@Suite struct WALScenarioTests {
    /// A fresh WAL: 40 single-row commits, nothing checkpointed.
    @Test func freshWAL() throws {
        let tmp = TempDir("fresh")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/a.sqlite")
        commitRows(db, 40)
        freeze("a.sqlite", from: live, to: dir)
        let r = try inspectUnchanged(dir + "/a.sqlite")
        let view = sqliteView(of: dir, name: "a.sqlite")
        let scan = try #require(r.wal.scan)
        #expect(r.database.header.journalMode == "wal")
        #expect(scan.mxFrame == Int(db.hook.frames.last ?? -1))
        #expect(scan.mxFrame == view.log)
        #expect(scan.commits == db.hook.frames.count)
        #expect(scan.validFrames == scan.framesInFile)
        #expect(scan.firstInvalidFrame == nil)
        #expect(r.walIndex.state == "current")
        #expect(Int(r.walIndex.index.mxFrame) == view.log)
        #expect(r.walIndex.index.nBackfill == 0)
        #expect(r.checkpoint.pendingFrames == view.log)
        #expect(r.checkpoint.pendingBytes == Int64(view.log) * 4120)
        #expect(r.checkpoint.progress == "not-checkpointed")
        #expect(scan.databasePages == db.int("PRAGMA page_count"))
        // At rest, the whole chain is verified (SQLite's next open recovers from the WAL).
        #expect(scan.checksumCoverage == "full")
        #expect(!r.walIndex.inUse)
        #expect(r.sql?.coreData == nil)
        #expect(r.sql?.error == nil)
        #expect(view.rows == 40)
        #expect(finding(r, "checkpoint-launch-risk")?.severity == .info)
        // A full verification gives the same figures.
        let full = try inspectUnchanged(dir + "/a.sqlite", options: InspectionOptions(checksums: .full, runSQL: false))
        #expect(full.wal.scan?.mxFrame == scan.mxFrame)
        #expect(full.wal.scan?.checksumCoverage == "full")
        #expect(full.wal.scan?.distinctPages == scan.distinctPages)
    }

    /// A reader pins a snapshot; a PASSIVE checkpoint stops at its mark.
    @Test func partialCheckpointWithPinnedReader() throws {
        let tmp = TempDir("partial")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/p.sqlite")
        commitRows(db, 30)
        let reader = TestDB(live + "/p.sqlite")
        reader.exec("BEGIN")
        #expect(reader.int("SELECT count(*) FROM t") == 30)
        commitRows(db, 20)
        let (rc, log, ckpt) = db.checkpoint(SQLITE_CHECKPOINT_PASSIVE)
        #expect(rc == SQLITE_OK)
        #expect(ckpt > 0 && ckpt < log)
        freeze("p.sqlite", from: live, to: dir)
        let r = try inspectUnchanged(dir + "/p.sqlite")
        #expect(r.walIndex.state == "current")
        #expect(Int(r.walIndex.index.mxFrame) == Int(log))
        #expect(Int(r.walIndex.index.nBackfill) == Int(ckpt))
        #expect(r.wal.scan?.mxFrame == Int(log))
        #expect(r.checkpoint.pendingFrames == Int(log - ckpt))
        #expect(r.checkpoint.progress == "partial")
        #expect(r.checkpoint.fromWalIndex)
        #expect((r.checkpoint.pendingPages) > 0 && r.checkpoint.pendingPages <= (r.wal.scan?.distinctPages ?? 0))
        #expect(r.walIndex.index.readMarks.contains(UInt32(ckpt)))
        #expect(finding(r, "checkpoint-starved") != nil)
        #expect(finding(r, "checkpoint-interrupted") == nil)
        #expect(sqliteView(of: dir, name: "p.sqlite").log == Int(log))
        reader.exec("COMMIT")
    }

    /// Checkpoint everything, then write again: the WAL restarts from frame 1 and old frames stay.
    @Test func restartedWALWithStaleFrames() throws {
        let tmp = TempDir("restart")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/r.sqlite")
        commitRows(db, 60)
        let (_, log, ckpt) = db.checkpoint(SQLITE_CHECKPOINT_PASSIVE)
        #expect(log == ckpt)
        db.hook.frames.removeAll()
        commitRows(db, 3)
        freeze("r.sqlite", from: live, to: dir)
        let r = try inspectUnchanged(dir + "/r.sqlite")
        let scan = try #require(r.wal.scan)
        let view = sqliteView(of: dir, name: "r.sqlite")
        #expect(r.wal.header?.checkpointSequence == 1)
        #expect(scan.mxFrame == Int(db.hook.frames.last ?? -1))
        #expect(scan.mxFrame == view.log)
        #expect(scan.commits == 3)
        #expect(scan.firstInvalidReason == "salt")
        #expect(scan.staleFrames == scan.framesInFile - scan.validFrames)
        #expect(scan.staleFrames > 50)
        #expect(scan.staleGenerations == 1)
        #expect(r.walIndex.state == "current")
        #expect(r.checkpoint.pendingFrames == scan.mxFrame)
        #expect(finding(r, "wal-dead-space") != nil)
        #expect(view.rows == 63)
    }

    /// The WAL cut in the middle of a frame: recovery falls back to an earlier commit.
    @Test func truncatedWAL() throws {
        let tmp = TempDir("trunc")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/x.sqlite")
        commitRows(db, 10)
        db.exec("BEGIN"); commitRows(db, 6); db.exec("COMMIT") // one multi-frame transaction at the end
        freeze("x.sqlite", from: live, to: dir)
        let wal = readBytes(dir + "/x.sqlite-wal")
        let frames = (wal.count - 32) / 4120
        writeBytes(dir + "/x.sqlite-wal", Array(wal.prefix(32 + (frames - 2) * 4120 + 1000)))
        let r = try inspectUnchanged(dir + "/x.sqlite")
        let scan = try #require(r.wal.scan)
        let view = sqliteView(of: dir, name: "x.sqlite")
        #expect(scan.partialFrameBytes == 1000)
        #expect(scan.framesInFile == frames - 2)
        #expect(scan.mxFrame == view.log)
        #expect(scan.validFrames > scan.mxFrame) // the last transaction lost its commit frame
        #expect(view.rows == 10)
        #expect(r.walIndex.state == "stale")
        #expect(r.checkpoint.pendingFrames == view.log)
        #expect(finding(r, "wal-torn-tail") != nil)
        #expect(finding(r, "wal-index-stale") != nil)
    }

    /// No -shm: state missing, pending is every valid frame, and no -shm appears in the folder.
    @Test func missingWalIndex() throws {
        let tmp = TempDir("noshm")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/n.sqlite")
        commitRows(db, 12)
        freeze("n.sqlite", from: live, to: dir, parts: ["", "-wal"])
        let r = try inspectUnchanged(dir + "/n.sqlite", options: InspectionOptions(measureCheckpoint: true))
        #expect(!FileManager.default.fileExists(atPath: dir + "/n.sqlite-shm"))
        let view = sqliteView(of: dir, name: "n.sqlite")
        #expect(r.walIndex.state == "missing")
        #expect(r.wal.scan?.mxFrame == view.log)
        #expect(r.wal.scan?.checksumCoverage == "full")
        #expect(r.checkpoint.pendingFrames == view.log)
        #expect(!r.checkpoint.fromWalIndex)
        #expect(finding(r, "wal-index-missing") != nil)
        let m = try #require(r.measurement)
        #expect(m.logFrames == view.log)
        #expect(m.checkpointedFrames == view.log)
        #expect(m.recoverySeconds >= 0 && m.checkpointSeconds >= 0)
        #expect(r.sql?.error == nil)
    }

    /// A flipped byte inside a frame's page image: SQLite's recovery stops before it.
    @Test func corruptedFrame() throws {
        let tmp = TempDir("corrupt")
        let live = tmp.sub("live"), dir = tmp.sub("s"), noShm = tmp.sub("n")
        let db = makeLiveStore(live + "/c.sqlite")
        commitRows(db, 20)
        freeze("c.sqlite", from: live, to: dir)
        var wal = readBytes(dir + "/c.sqlite-wal")
        let frames = (wal.count - 32) / 4120
        let bad = frames / 2
        wal[32 + (bad - 1) * 4120 + 24 + 2000] ^= 0xFF
        writeBytes(dir + "/c.sqlite-wal", wal)
        freeze("c.sqlite", from: dir, to: noShm, parts: ["", "-wal"])
        let view = sqliteView(of: dir, name: "c.sqlite")
        #expect(view.log < bad)
        // Full verification agrees with SQLite's recovery.
        let full = try inspectUnchanged(dir + "/c.sqlite", options: InspectionOptions(checksums: .full))
        #expect(full.wal.scan?.firstInvalidFrame == bad)
        #expect(full.wal.scan?.firstInvalidReason == "checksum")
        #expect(full.wal.scan?.mxFrame == view.log)
        #expect((full.wal.scan?.ignoredCommits ?? 0) > 0)
        #expect(finding(full, "wal-corrupt-frame")?.severity == .error)
        // Without a -shm the default (auto) verifies the whole chain too.
        let auto = try inspectUnchanged(noShm + "/c.sqlite")
        #expect(auto.wal.scan?.mxFrame == view.log)
        #expect(finding(auto, "wal-corrupt-frame") != nil)
        // Issue 23: with the -shm SQLite wrote kept, the default agrees with SQLite's recovery too (before, it
        // trusted the wal-index's mxFrame and hid the corrupt frame). No process has the -shm open, so the
        // next open recovers from the WAL, and so does walcheck.
        let withShm = try inspectUnchanged(dir + "/c.sqlite", options: InspectionOptions(runSQL: false))
        #expect(withShm.wal.scan?.checksumCoverage == "full")
        #expect(withShm.wal.scan?.mxFrame == view.log)
        #expect(withShm.wal.scan?.validFrames == bad - 1)
        #expect(finding(withShm, "wal-corrupt-frame")?.severity == .error)
        #expect(withShm.walIndex.state != "current")
    }

    /// A WAL-mode database copied without its -wal.
    @Test func walModeDatabaseWithoutWAL() throws {
        let tmp = TempDir("nowal")
        let live = tmp.sub("live"), withShm = tmp.sub("a"), alone = tmp.sub("b")
        let db = makeLiveStore(live + "/w.sqlite")
        commitRows(db, 5)
        freeze("w.sqlite", from: live, to: withShm, parts: ["", "-shm"])
        freeze("w.sqlite", from: live, to: alone, parts: [""])
        let a = try inspectUnchanged(withShm + "/w.sqlite")
        #expect(!a.wal.present)
        #expect(finding(a, "wal-missing")?.severity == .error)
        #expect(a.walIndex.state == "stale")
        let b = try inspectUnchanged(alone + "/w.sqlite")
        #expect(finding(b, "wal-missing")?.severity == .warning)
        #expect(b.walIndex.state == "missing")
        #expect(!FileManager.default.fileExists(atPath: alone + "/w.sqlite-wal"))
        #expect(!FileManager.default.fileExists(atPath: alone + "/w.sqlite-shm"))
        #expect(b.sql?.error == nil)
    }

    /// Rollback-journal databases: a plain one, and one frozen mid-transaction with a hot journal.
    @Test func rollbackJournal() throws {
        let tmp = TempDir("rollback")
        let live = tmp.sub("live"), plain = tmp.sub("p"), hot = tmp.sub("h")
        let db = TestDB(live + "/j.db")
        db.exec("PRAGMA journal_mode=DELETE; PRAGMA cache_size=2; CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB);")
        for _ in 0..<20 { db.exec("INSERT INTO t(v) VALUES (randomblob(3000))") }
        freeze("j.db", from: live, to: plain, parts: [""])
        db.exec("BEGIN; UPDATE t SET v = randomblob(3000);") // spills: the journal is hot
        freeze("j.db", from: live, to: hot, parts: ["", "-journal"])
        db.exec("ROLLBACK")
        let p = try inspectUnchanged(plain + "/j.db")
        #expect(p.database.header.journalMode == "rollback")
        #expect(!p.wal.present && !p.journal.present)
        #expect(p.walIndex.state == "missing")
        #expect(p.findings.filter { $0.severity >= .warning }.isEmpty)
        #expect(p.sql?.coreData == nil)
        let h = try inspectUnchanged(hot + "/j.db")
        #expect(h.journal.present && h.journal.hot)
        #expect(finding(h, "journal-hot") != nil)
        #expect(h.sql?.error == nil)
        #expect(sqliteView(of: hot, name: "j.db").rows == 20)
    }

    /// A checkpoint killed after copying its frames and before recording nBackfill: the database file
    /// holds the pages of a real checkpoint (SQLite's own), the -wal and -shm are those of before it with
    /// nBackfillAttempted set as the checkpointer sets it first.
    @Test func interruptedCheckpoint() throws {
        let tmp = TempDir("interrupted")
        let live = tmp.sub("live"), before = tmp.sub("b"), after = tmp.sub("a"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/i.sqlite")
        commitRows(db, 8)
        freeze("i.sqlite", from: live, to: before)
        let result = db.ints("PRAGMA wal_checkpoint(PASSIVE)")
        #expect(result.count == 3 && result[2] == result[1], "SQLite copied every frame")
        freeze("i.sqlite", from: live, to: after, parts: [""])
        freeze("i.sqlite", from: after, to: dir, parts: [""])
        freeze("i.sqlite", from: before, to: dir, parts: ["-wal", "-shm"])
        var shm = readBytes(dir + "/i.sqlite-shm")
        let mx = UInt32(db.hook.frames.last ?? 0)
        withUnsafeBytes(of: mx.littleEndian) { for i in 0..<4 { shm[128 + i] = $0[i] } }
        writeBytes(dir + "/i.sqlite-shm", shm)
        let r = try inspectUnchanged(dir + "/i.sqlite")
        #expect(r.walIndex.state == "current")
        #expect(r.walIndex.checkpointInterrupted)
        #expect(r.checkpoint.progress == "interrupted")
        #expect(finding(r, "checkpoint-interrupted")?.severity == .error)
        // The same marks over a database file the checkpoint never reached: not interrupted.
        freeze("i.sqlite", from: before, to: dir, parts: [""])
        let untouched = try inspectUnchanged(dir + "/i.sqlite")
        #expect(untouched.walIndex.index.checkpointInterrupted, "the index still records the attempt")
        #expect(!untouched.walIndex.checkpointInterrupted)
        #expect(finding(untouched, "checkpoint-interrupted") == nil)
    }

    /// The streaming reader gives the same answer with a tiny buffer (chunk boundaries).
    @Test func chunkBoundariesDoNotChangeTheScan() throws {
        let tmp = TempDir("chunks")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/k.sqlite", pageSize: 1024)
        commitRows(db, 25, size: 700)
        freeze("k.sqlite", from: live, to: dir, parts: ["", "-wal"])
        let file = try ReadOnlyFile(path: dir + "/k.sqlite-wal")
        let header = try #require(WALHeader.parse(try file.read(at: 0, count: 32)))
        var small = WALReader(); small.chunkBytes = 3 * 1048
        let a = try small.scan(file: file, header: header, policy: .full, walIndex: nil, recordChecksumOf: nil)
        let b = try WALReader().scan(file: file, header: header, policy: .full, walIndex: nil, recordChecksumOf: nil)
        #expect(a.mxFrame == b.mxFrame && a.commits == b.commits && a.distinctPages == b.distinctPages)
        #expect(a.mxFrame == Int(db.hook.frames.last ?? -1))
        let none = try WALReader().scan(file: file, header: header, policy: .none, walIndex: nil, recordChecksumOf: nil)
        #expect(none.mxFrame == b.mxFrame)
        #expect(none.checksumCoverage == "none")
        #expect(none.bytesRead < b.bytesRead / 10) // frame headers only
    }
    /// Fully checkpointed but not yet reset; then a -shm from before the reset next to the new WAL.
    @Test func checkpointedAwaitingResetAndWalIndexFromAnotherGeneration() throws {
        let tmp = TempDir("generations")
        let live = tmp.sub("live"), done = tmp.sub("done"), mixed = tmp.sub("mixed")
        let db = makeLiveStore(live + "/g.sqlite")
        commitRows(db, 15)
        let (_, log, ckpt) = db.checkpoint(SQLITE_CHECKPOINT_PASSIVE)
        #expect(log == ckpt && log > 0)
        freeze("g.sqlite", from: live, to: done)
        let r = try inspectUnchanged(done + "/g.sqlite")
        #expect(r.walIndex.state == "current")
        #expect(r.checkpoint.progress == "complete-awaiting-reset")
        #expect(r.checkpoint.pendingFrames == 0)
        #expect(r.checkpoint.recoveryBytes == 32 + Int64(log) * 4120)
        #expect(finding(r, "checkpoint-launch-risk") == nil)
        // The next write resets the WAL (new salts); pair the old -shm with the new WAL.
        commitRows(db, 2)
        freeze("g.sqlite", from: live, to: mixed, parts: ["", "-wal"])
        freeze("g.sqlite", from: done, to: mixed, parts: ["-shm"])
        let m = try inspectUnchanged(mixed + "/g.sqlite")
        #expect(m.walIndex.state == "stale")
        #expect(m.walIndex.reason.contains("salts differ"))
        #expect(m.wal.scan?.checksumCoverage == "full")
        #expect(m.wal.scan?.mxFrame == sqliteView(of: mixed, name: "g.sqlite").log)
        #expect(m.checkpoint.pendingFrames == m.wal.scan?.mxFrame)
    }
}
