#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore
import CSQLite
import Foundation
@testable import StoreInspection
import Testing

/// Issue 23: the store states where walcheck disagreed with SQLite, built with real SQLite and frozen the
/// way a kill leaves them; every expected figure comes from SQLite (its recovery on a copy, its
/// checkpoint) or from the files SQLite wrote, never from walcheck.
@Suite struct SQLiteAgreementTests {
    /// The most ordinary copied store: SQLite recovered it (nBackfillAttempted = mxFrame, nBackfill 0) and
    /// the app committed more. The marks look like a checkpoint attempt, but none ran: the database file
    /// is byte for byte the one before (before: `[error] checkpoint-interrupted`).
    @Test func recoveredThenCommittedIsNotAnInterruptedCheckpoint() throws {
        let tmp = TempDir("recovered")
        let live = tmp.sub("live"), reopened = tmp.sub("r"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/r.sqlite")
        commitRows(db, 10)
        freeze("r.sqlite", from: live, to: reopened, parts: ["", "-wal"])
        let databaseBefore = readBytes(reopened + "/r.sqlite")
        // A new connection recovers the index from the WAL, then commits.
        let again = TestDB(reopened + "/r.sqlite")
        again.installHook()
        #expect(again.int("SELECT count(*) FROM t") == 10)
        commitRows(again, 5)
        freeze("r.sqlite", from: reopened, to: dir)
        again.close()
        #expect(readBytes(dir + "/r.sqlite") == databaseBefore, "nothing was checkpointed into the database file")
        let r = try inspectUnchanged(dir + "/r.sqlite")
        #expect(r.walIndex.state == "current")
        #expect(r.walIndex.index.nBackfillAttempted > r.walIndex.index.nBackfill, "the recovery's marks are there")
        #expect(!r.walIndex.checkpointInterrupted)
        #expect(finding(r, "checkpoint-interrupted") == nil)
        #expect(r.checkpoint.progress == "not-checkpointed")
        let view = sqliteView(of: dir, name: "r.sqlite")
        #expect(r.checkpoint.pendingFrames == view.log)
        #expect(view.rows == 15)
    }

    /// A commit that shrinks the database (VACUUM): a checkpoint skips the pages beyond the new end
    /// (before: every page the WAL held was counted, 754 where SQLite wrote 52).
    @Test func checkpointCostAfterAShrinkingCommit() throws {
        let tmp = TempDir("shrink")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/v.sqlite")
        commitRows(db, 300)
        db.exec("UPDATE t SET v = randomblob(2000)")
        db.exec("DELETE FROM t WHERE id > 20")
        db.exec("VACUUM")
        freeze("v.sqlite", from: live, to: dir)
        let r = try inspectUnchanged(dir + "/v.sqlite", options: InspectionOptions(runSQL: false))
        let scan = try #require(r.wal.scan)
        // SQLite's view: the database size after recovery, and what its checkpoint copies.
        let copy = TempDir("shrink-copy")
        freeze("v.sqlite", from: dir, to: copy.path, parts: ["", "-wal"])
        let check = TestDB(copy.path + "/v.sqlite")
        let pagesAfterCommit = check.int("PRAGMA page_count")
        let before = readBytes(copy.path + "/v.sqlite")
        let result = check.ints("PRAGMA wal_checkpoint(FULL)")
        check.close()
        let after = readBytes(copy.path + "/v.sqlite")
        #expect(result.count == 3 && result[2] == result[1], "SQLite copied every frame")
        #expect(after.count == pagesAfterCommit * 4096, "the checkpoint cut the file to the committed size")
        // Pages the checkpoint changed: a lower bound of what it wrote; it cannot write more pages than
        // the database has.
        var changed = 0
        for page in 0..<pagesAfterCommit where page * 4096 >= before.count || before[(page * 4096)..<((page + 1) * 4096)] != after[(page * 4096)..<((page + 1) * 4096)] {
            changed += 1
        }
        #expect(scan.databasePages == pagesAfterCommit)
        #expect(scan.distinctPages > pagesAfterCommit, "the WAL holds pages beyond the new end (the test is meaningful)")
        #expect(r.checkpoint.pendingPages <= pagesAfterCommit)
        #expect(r.checkpoint.pendingPages >= changed)
        #expect(r.checkpoint.checkpointWriteBytes == Int64(r.checkpoint.pendingPages) * 4096)
    }

    /// A -shm cut short of the regions its mxFrame needs: SQLite would not use it; the WAL decides.
    @Test func aShmTooShortForItsFramesIsNotCurrent() throws {
        let tmp = TempDir("shortshm")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/s.sqlite", pageSize: 512)
        db.exec("BEGIN")
        for _ in 0..<4_200 { db.exec("INSERT INTO t(v) VALUES (randomblob(400))") }
        db.exec("COMMIT")
        freeze("s.sqlite", from: live, to: dir)
        let shm = readBytes(dir + "/s.sqlite-shm")
        #expect(shm.count >= 2 * 32_768, "the index needs a second region")
        writeBytes(dir + "/s.sqlite-shm", Array(shm.prefix(32_768)))
        let r = try inspectUnchanged(dir + "/s.sqlite", options: InspectionOptions(runSQL: false))
        #expect(r.walIndex.index.headerValid, "its header alone is intact")
        #expect(r.walIndex.state == "invalid")
        #expect(finding(r, "wal-index-invalid") != nil)
        #expect(r.wal.scan?.mxFrame == sqliteView(of: dir, name: "s.sqlite").log)
    }

    /// A store another process has open: SQLite trusts the wal-index as it is, and so does walcheck
    /// (frames up to its mxFrame are not re-verified); the figures still agree with SQLite's.
    @Test func aStoreInUseIsReadThroughItsWalIndex() throws {
        guard (try? shell("command -v sqlite3"))?.status == 0 else {
            print("skipped: the sqlite3 CLI is not installed (scripts/install-deps.sh installs it)")
            return
        }
        let tmp = TempDir("inuse")
        let live = tmp.sub("live")
        let db = makeLiveStore(live + "/u.sqlite")
        commitRows(db, 12)
        // Another process opens the store and keeps it open.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "(echo 'SELECT count(*) FROM t;'; sleep 20) | sqlite3 '\(live)/u.sqlite' > /dev/null"]
        try holder.run()
        defer { holder.terminate(); _ = try? shell("pkill -f \"sqlite3 '\(live)/u.sqlite'\"") }
        let shm = try ReadOnlyFile(path: live + "/u.sqlite-shm")
        var waited = 0
        while !shm.isLockedByAnotherProcess(byte: WALIndex.deadManSwitchByte), waited < 100 { usleep(50_000); waited += 1 }
        #expect(shm.isLockedByAnotherProcess(byte: WALIndex.deadManSwitchByte), "the other process holds the index")
        let r = try StoreInspector.inspect(try StoreLocator.locate(live + "/u.sqlite")[0], options: InspectionOptions(runSQL: false))
        #expect(r.walIndex.inUse)
        #expect(r.wal.scan?.checksumCoverage == "after-wal-index")
        #expect(r.wal.scan?.mxFrame == Int(db.hook.frames.last ?? -1))
        #expect(r.walIndex.state == "current")
    }

    /// An unreadable -shm is a finding, not exit 2 (root reads anything: skipped as root).
    @Test func anUnreadableShmIsAFinding() throws {
        guard geteuid() != 0 else {
            print("skipped: running as root, which can read a file with mode 000")
            return
        }
        let tmp = TempDir("unreadable")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/n.sqlite")
        commitRows(db, 4)
        freeze("n.sqlite", from: live, to: dir)
        chmod(dir + "/n.sqlite-shm", 0)
        defer { chmod(dir + "/n.sqlite-shm", 0o644) }
        let r = try StoreInspector.inspect(try StoreLocator.locate(dir + "/n.sqlite")[0], options: InspectionOptions(runSQL: false))
        #expect(r.walIndex.state == "invalid")
        #expect(r.walIndex.index.problem?.contains("unreadable") == true)
        #expect(r.wal.scan?.mxFrame == Int(db.hook.frames.last ?? -1))
    }

    /// Runs `statements` in a sqlite3 process of its own and SIGKILLs it once they are done, so the
    /// -wal and -shm stay exactly as a killed app leaves them. False when the sqlite3 CLI is missing.
    private func killedWriter(_ database: String, _ statements: [String]) throws -> Bool {
        guard try shell("command -v sqlite3").status == 0 else {
            print("skipped: the sqlite3 CLI is not installed (scripts/install-deps.sh installs it)")
            return false
        }
        let mark = database + ".done"
        let script = """
        ( printf '%s\\n' \(statements.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")); \
          echo '.shell touch \(mark)'; while [ ! -f '\(mark).end' ]; do sleep 0.05; done ) | sqlite3 '\(database)' > /dev/null 2>&1 & pid=$!
        i=0; while [ ! -f '\(mark)' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
        kill -9 $pid; touch '\(mark).end'; wait; rm -f '\(mark)' '\(mark).end'
        """
        return try shell(script).status == 0 || true
    }

    static let creating = ["PRAGMA journal_mode=WAL;", "PRAGMA wal_autocheckpoint=0;", "CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB);"]
    /// `n` commits of one ~3000-byte row each (about one page).
    static func inserts(_ n: Int) -> [String] { Array(repeating: "INSERT INTO t(v) VALUES (randomblob(3000));", count: n) }

    /// Issue 23, state 1, as the issue built it: a writer process SIGKILLed, a byte flipped in a frame in
    /// the middle, the -shm SQLite wrote kept. SQLite's cold open recovers the frames before it; so does
    /// walcheck's default (before: 122 valid frames and no finding where SQLite recovered 74).
    @Test func killedWriterCorruptFrameBehindItsShm() throws {
        let tmp = TempDir("killed-corrupt")
        let dir = tmp.sub("s")
        guard try killedWriter(dir + "/k.sqlite", Self.creating + Self.inserts(30)) else { return }
        var wal = readBytes(dir + "/k.sqlite-wal")
        let frames = (wal.count - 32) / 4120
        #expect(frames >= 30)
        let bad = frames / 2
        wal[32 + (bad - 1) * 4120 + 24 + 1000] ^= 0x55
        writeBytes(dir + "/k.sqlite-wal", wal)
        let r = try inspectUnchanged(dir + "/k.sqlite", options: InspectionOptions(runSQL: false))
        let view = sqliteView(of: dir, name: "k.sqlite")
        #expect(view.log > 0 && view.log < bad)
        #expect(r.wal.scan?.mxFrame == view.log)
        #expect(finding(r, "wal-corrupt-frame")?.severity == .error)
    }

    /// Issue 23, state 2, as the issue built it: one process writes and is killed, a second opens the
    /// store (recovery), commits and is killed. No checkpoint ran; walcheck must not say one was cut off.
    @Test func killedWritersRecoveredStoreIsNotInterrupted() throws {
        let tmp = TempDir("killed-recovered")
        let dir = tmp.sub("s")
        guard try killedWriter(dir + "/k.sqlite", Self.creating + Self.inserts(10)) else { return }
        let databaseBefore = readBytes(dir + "/k.sqlite")
        guard try killedWriter(dir + "/k.sqlite", ["PRAGMA wal_autocheckpoint=0;", "SELECT count(*) FROM t;"] + Self.inserts(5)) else { return }
        #expect(readBytes(dir + "/k.sqlite") == databaseBefore, "no checkpoint wrote into the database file")
        let r = try inspectUnchanged(dir + "/k.sqlite", options: InspectionOptions(runSQL: false))
        #expect(r.walIndex.index.nBackfillAttempted > r.walIndex.index.nBackfill, "the recovery's marks are there")
        #expect(finding(r, "checkpoint-interrupted") == nil)
        #expect(r.checkpoint.pendingFrames == sqliteView(of: dir, name: "k.sqlite").log)
    }

    private func shell(_ script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
