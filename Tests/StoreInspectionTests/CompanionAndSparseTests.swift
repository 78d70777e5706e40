#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore
import CSQLite
import Foundation
import Testing
@testable import StoreInspection

/// Issue 22: companions that are not plain files (FIFOs, folders, devices, symlinks leaving the store's
/// folder), sparse and zero-filled WALs, and a main file cut short. Each of these hung, read what it
/// should not, filled `$TMPDIR` or said nothing before.
@Suite struct CompanionAndSparseTests {
    /// A frozen WAL store in its own folder `name` under `tmp`: (database path, folder).
    static func store(_ tmp: TempDir, _ name: String, commits: Int = 5) -> (String, String) {
        let live = tmp.sub(name + "-live"), dir = tmp.sub(name)
        let db = makeLiveStore(live + "/r.sqlite")
        commitRows(db, commits)
        freeze("r.sqlite", from: live, to: dir)
        db.close()
        return (dir + "/r.sqlite", dir)
    }

    /// Inspects `path` on another thread and fails (instead of hanging the suite) after `seconds`.
    static func inspectWithin(_ seconds: Double, _ path: String, options: InspectionOptions = InspectionOptions(),
                              followSymlinks: Bool = false) throws -> StoreReport {
        final class Box: @unchecked Sendable { var result: Result<StoreReport, Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.result = Result {
                let stores = try StoreLocator.locate(path, followSymlinks: followSymlinks)
                return try StoreInspector.inspect(stores[0], options: options)
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success, let result = box.result else {
            throw ToolFailure("inspect \(path) did not finish within \(seconds) s")
        }
        return try result.get()
    }

    @Test(arguments: ["-wal", "-shm", "-journal"])
    func fifoCompanionIsAFindingNotAHang(suffix: String) throws {
        let tmp = TempDir("fifo")
        let (path, dir) = Self.store(tmp, "s")
        unlink(path + suffix)
        #expect(mkfifo(path + suffix, 0o600) == 0)
        agePast(dir)
        let before = FolderState(dir)
        let r = try Self.inspectWithin(30, path)
        let note = try #require(finding(r, "companion-not-read"), "\(r.findings.map(\.id))")
        #expect(note.title.contains("named pipe"))
        #expect(note.severity == (suffix == "-shm" ? .warning : .error))
        #expect(r.companions.map(\.suffix) == [suffix])
        if suffix == "-wal" {
            #expect(!r.wal.present)
            #expect(finding(r, "wal-missing") == nil, "a -wal that is there but unreadable is not 'missing'")
        }
        #expect(FolderState(dir) == before)
    }

    @Test func folderAndDeviceCompanionsAreFindings() throws {
        let tmp = TempDir("dirdev")
        let (path, dir) = Self.store(tmp, "s")
        unlink(path + "-wal")
        #expect(mkdir(path + "-wal", 0o700) == 0)
        unlink(path + "-shm")
        #expect(symlink("/dev/zero", path + "-shm") == 0)
        agePast(dir)
        let before = FolderState(dir)
        let r = try Self.inspectWithin(30, path)
        let whats = Dictionary(uniqueKeysWithValues: r.companions.map { ($0.suffix, $0.what) })
        #expect(whats["-wal"] == "a folder")
        #expect(whats["-shm"]?.contains("character device") == true, "\(whats)")
        #expect(r.findings.filter { $0.id == "companion-not-read" }.count == 2)
        #expect(FolderState(dir) == before)
    }

    @Test func symlinkLeavingTheFolderIsNotReadUnlessAsked() throws {
        let tmp = TempDir("link")
        let (path, dir) = Self.store(tmp, "s")
        let elsewhere = tmp.sub("elsewhere")
        // The real WAL moves out of the folder; a link to it stays.
        #expect(rename(path + "-wal", elsewhere + "/r.sqlite-wal") == 0)
        #expect(symlink(elsewhere + "/r.sqlite-wal", path + "-wal") == 0)
        let r = try Self.inspectWithin(30, path)
        #expect(!r.wal.present, "read through a link leaving the folder")
        let note = try #require(r.companions.first)
        #expect(note.what.contains(resolvedPath(elsewhere) ?? elsewhere) && note.what.contains("outside the store's folder") && !note.read)
        #expect(finding(r, "companion-not-read")?.advice.contains("--follow-symlinks") == true)

        let followed = try Self.inspectWithin(30, path, followSymlinks: true)
        #expect(followed.wal.present && (followed.wal.scan?.mxFrame ?? 0) > 0)
        #expect(finding(followed, "companion-symlink") != nil)
        #expect(finding(followed, "companion-not-read") == nil)
        _ = dir
    }

    @Test func symlinkInsideTheFolderIsReadAndNamed() throws {
        let tmp = TempDir("inlink")
        let (path, dir) = Self.store(tmp, "s")
        #expect(rename(path + "-wal", dir + "/real-wal") == 0)
        #expect(symlink("real-wal", path + "-wal") == 0)
        let r = try Self.inspectWithin(30, path)
        #expect(r.wal.present && (r.wal.scan?.mxFrame ?? 0) > 0)
        let note = try #require(finding(r, "companion-symlink"))
        #expect(note.detail.contains("real-wal") && note.detail.contains("in the store's folder"))
    }

    /// A 1 TiB sparse WAL whose first frames are real: the scan stops where the frames end (no stale
    /// frames counted in the hole), the private copy holds only the frames, and SQLite's view on it is
    /// the one it has of the original.
    @Test func sparseWALEndsWhereItsFramesEnd() throws {
        let tmp = TempDir("sparse")
        let (path, dir) = Self.store(tmp, "s", commits: 20)
        let expected = sqliteView(of: dir, name: "r.sqlite")
        let walBytes = fileSize(path + "-wal")
        #expect(truncate(path + "-wal", 1 << 40) == 0)
        let started = monotonicSeconds()
        let r = try Self.inspectWithin(60, path)
        #expect(monotonicSeconds() - started < 30)
        let scan = try #require(r.wal.scan)
        #expect(scan.staleFrames == 0 && scan.ignoredCurrentFrames == 0)
        #expect(scan.mxFrame == expected.log, "SQLite recovers \(expected.log) frames")
        let frameSize = Int64(r.wal.frameSize)
        #expect(scan.zeroTailFrame == Int((walBytes - 32) / frameSize) + 1)
        #expect(scan.partialFrameBytes == 0)
        #expect(scan.bytesRead < 64 << 20, "read \(scan.bytesRead) bytes of a sparse file")
        #expect(finding(r, "wal-zero-tail") != nil)
        #expect(r.sql?.error == nil, "\(r.sql?.error ?? "")")

        // The private copy: the frames only, not the terabyte.
        var files = try StoreLocator.locate(path)[0]
        files.walIndex = nil
        let limit = StoreInspector.recoverableWALBytes(r.wal)
        let copy = try SnapshotCopy(files: files, includeWalIndex: false, emptyWalIndex: false, walBytes: limit)
        defer { copy.remove() }
        #expect(fileSize(copy.databasePath + "-wal") == limit)
        #expect(limit.map { $0 <= walBytes + frameSize } == true, "the copy holds the frames and the first zero frame, no more")
    }

    /// Holes in a database copy stay holes: the copy allocates no more blocks than the source.
    @Test func sparseDatabaseCopyStaysSparse() throws {
        let tmp = TempDir("sparsedb")
        let (path, _) = Self.store(tmp, "s")
        #expect(truncate(path, 8 << 30) == 0) // 8 GiB, almost all hole
        var files = try StoreLocator.locate(path)[0]
        files.wal = nil; files.walIndex = nil
        let copy = try SnapshotCopy(files: files, includeWalIndex: false, emptyWalIndex: false)
        defer { copy.remove() }
        var source = stat(), copied = stat()
        #expect(stat(path, &source) == 0 && stat(copy.databasePath, &copied) == 0)
        #expect(copied.st_size == source.st_size)
        #expect(copied.st_blocks <= source.st_blocks + 64, "copy allocates \(copied.st_blocks) blocks, source \(source.st_blocks)")
    }

    /// A WAL of all zeros (preallocated, never written) has no frames and no stale frames.
    @Test func zeroFilledWALHasNoStaleFrames() throws {
        let tmp = TempDir("zeros")
        let (path, _) = Self.store(tmp, "s")
        let wal = readBytes(path + "-wal")
        writeBytes(path + "-wal", Array(wal.prefix(32)) + [UInt8](repeating: 0, count: 4120 * 500))
        unlink(path + "-shm")
        let r = try Self.inspectWithin(30, path)
        let scan = try #require(r.wal.scan)
        #expect(scan.staleFrames == 0 && scan.validFrames == 0 && scan.zeroTailFrame == 1)
        #expect(finding(r, "wal-dead-space") == nil)
    }

    @Test func databaseShorterThanItsHeaderIsAFinding() throws {
        let tmp = TempDir("short")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/r.sqlite")
        commitRows(db, 20)
        _ = db.checkpoint(SQLITE_CHECKPOINT_TRUNCATE)
        db.close()
        let bytes = readBytes(live + "/r.sqlite")
        #expect(bytes.count > 3 * 4096)
        writeBytes(dir + "/r.sqlite", Array(bytes.prefix(2 * 4096)))
        let r = try inspectUnchanged(dir + "/r.sqlite")
        let f = try #require(finding(r, "database-truncated"))
        #expect(f.severity == .error && f.detail.contains("8192 bytes"))
        // The whole file is no finding.
        writeBytes(dir + "/r.sqlite", bytes)
        #expect(finding(try inspectUnchanged(dir + "/r.sqlite"), "database-truncated") == nil)
    }
}

func fileSize(_ path: String) -> Int64 {
    var st = stat()
    return stat(path, &st) == 0 ? Int64(st.st_size) : -1
}
