#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import Foundation
import Testing
@testable import StoreInspection
import CDLogCore

/// A temporary folder removed (recursively) on deinit.
final class TempDir {
    let path: String
    init(_ label: String = "t") {
        var template = Array("\(NSTemporaryDirectory())/walcheck-test-\(label).XXXXXX".utf8CString)
        _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func sub(_ name: String) -> String {
        let p = path + "/" + name
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }
}

/// A test-side SQLite connection (C API), used to build stores and to ask SQLite for its own view.
final class TestDB {
    var db: OpaquePointer?
    /// mxFrame after every commit, as reported by the WAL hook (installing it turns autocheckpoint off).
    final class HookLog { var frames: [Int32] = [] }
    let hook = HookLog()

    init(_ path: String, readOnly: Bool = false) {
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        precondition(rc == SQLITE_OK, "open \(path): \(rc)")
    }
    deinit { sqlite3_close_v2(db) }
    func close() { sqlite3_close_v2(db); db = nil }

    func installHook() {
        sqlite3_wal_hook(db, { ctx, _, _, nFrame in
            Unmanaged<HookLog>.fromOpaque(ctx!).takeUnretainedValue().frames.append(nFrame)
            return SQLITE_OK
        }, Unmanaged.passUnretained(hook).toOpaque())
    }

    @discardableResult
    func exec(_ sql: String) -> Int32 {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? "?"
            sqlite3_free(err)
            Issue.record("SQL failed (\(rc)): \(msg): \(sql.prefix(120))")
        }
        return rc
    }

    func ints(_ sql: String) -> [Int] {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else {
            Issue.record("prepare failed: \(String(cString: sqlite3_errmsg(db))) \(sql)")
            return []
        }
        defer { sqlite3_finalize(stmt) }
        var out: [Int] = []
        while sqlite3_step(stmt) == SQLITE_ROW {
            for i in 0..<sqlite3_column_count(stmt) { out.append(Int(sqlite3_column_int64(stmt, i))) }
        }
        return out
    }
    func int(_ sql: String) -> Int { ints(sql).first ?? -999 }

    /// `sqlite3_wal_checkpoint_v2`: (rc, nLog, nCkpt).
    func checkpoint(_ mode: Int32) -> (Int32, Int32, Int32) {
        var log: Int32 = -1, ckpt: Int32 = -1
        let rc = sqlite3_wal_checkpoint_v2(db, "main", mode, &log, &ckpt)
        return (rc, log, ckpt)
    }

    func bindExec(_ sql: String, blob: [UInt8]) {
        var stmt: OpaquePointer?
        sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        _ = blob.withUnsafeBytes { sqlite3_bind_blob(stmt, 1, $0.baseAddress, Int32(blob.count), SQLITE_TRANSIENT_PTR) }
        let rc = sqlite3_step(stmt)
        if rc != SQLITE_DONE { Issue.record("bind exec failed \(rc)") }
        sqlite3_finalize(stmt)
    }
}

/// A WAL-mode store with autocheckpoint off (the hook is installed), one table `t`.
func makeLiveStore(_ path: String, pageSize: Int = 4096) -> TestDB {
    let db = TestDB(path)
    db.exec("PRAGMA page_size=\(pageSize); PRAGMA journal_mode=WAL;")
    db.installHook()
    db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB)")
    return db
}

/// `n` commits of one ~3000-byte row each.
func commitRows(_ db: TestDB, _ n: Int, size: Int = 3000) {
    for _ in 0..<n { db.exec("INSERT INTO t(v) VALUES (randomblob(\(size)))") }
}

/// Copies `name`, `name-wal`, `name-shm` (those that exist) from a live folder: what a kill leaves.
func freeze(_ name: String, from live: String, to dir: String, parts: [String] = ["", "-wal", "-shm"]) {
    for suffix in parts {
        let src = live + "/" + name + suffix
        if FileManager.default.fileExists(atPath: src) {
            let data = FileManager.default.contents(atPath: src) ?? Data()
            _ = FileManager.default.createFile(atPath: dir + "/" + name + suffix, contents: data)
        }
    }
}

/// SQLite's own view of a frozen store: opened on a copy (a fresh process view: recovery from the WAL).
struct SQLiteView { var log: Int; var checkpointed: Int; var rows: Int }
func sqliteView(of dir: String, name: String, countSQL: String = "SELECT count(*) FROM t") -> SQLiteView {
    let tmp = TempDir("view")
    freeze(name, from: dir, to: tmp.path, parts: ["", "-wal", "-journal"])
    let db = TestDB(tmp.path + "/" + name)
    let rows = db.int(countSQL)
    let r = db.ints("PRAGMA wal_checkpoint(PASSIVE)")
    db.close()
    return SQLiteView(log: r.count == 3 ? r[1] : -1, checkpointed: r.count == 3 ? r[2] : -1, rows: rows)
}

/// Name → (size, mtime, bytes) for every entry in a folder: the evidence that must not change.
struct FolderState: Equatable {
    struct Entry: Equatable { let size: Int64; let mtimeSec: Int64; let mtimeNsec: Int64; let bytes: [UInt8] }
    let entries: [String: Entry]
    init(_ dir: String) {
        var e: [String: Entry] = [:]
        for name in (try? directoryEntries(dir)) ?? [] {
            let p = dir + "/" + name
            guard let st = try? FileStatus.lstatus(p) else { continue }
            let bytes = st.kind == .regular ? [UInt8](FileManager.default.contents(atPath: p) ?? Data()) : []
            e[name] = Entry(size: st.size, mtimeSec: st.modificationSeconds, mtimeNsec: st.modificationNanoseconds, bytes: bytes)
        }
        entries = e
    }
    var names: [String] { entries.keys.sorted() }
}

/// Sets every file's mtime to a fixed past time, so an accidental write would show as a changed mtime.
func agePast(_ dir: String) {
    for name in (try? directoryEntries(dir)) ?? [] {
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 123_456_789), timespec(tv_sec: 1_600_000_000, tv_nsec: 123_456_789)]
        utimensat(AT_FDCWD, dir + "/" + name, &times, AT_SYMLINK_NOFOLLOW)
    }
}

/// Runs walcheck's inspection on `path` and asserts the folder's bytes, mtimes and listing are unchanged.
func inspectUnchanged(_ path: String, folder: String? = nil, options: InspectionOptions = InspectionOptions(),
                      age: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws -> StoreReport {
    let dir = folder ?? parentDirectory(path)
    if age { agePast(dir) }
    let before = FolderState(dir)
    defer {
        let after = FolderState(dir)
        #expect(after.names == before.names, "folder listing changed", sourceLocation: sourceLocation)
        #expect(after == before, "file bytes or mtimes changed", sourceLocation: sourceLocation)
    }
    let stores = try StoreLocator.locate(path)
    #expect(stores.count == 1, sourceLocation: sourceLocation)
    return try StoreInspector.inspect(stores[0], options: options)
}

/// The package root (…/Tests/StoreInspectionTests/Support.swift → …).
let packageRoot: String = {
    var p = #filePath
    for _ in 0..<3 { p = parentDirectory(p) }
    return p
}()

/// The shared corpus of real stores, or nil (the test then records a visible skip message).
func corpusStore(_ n: Int) -> String? {
    let dir = packageRoot + "/../shared/corpus/stores/\(n)"
    return FileManager.default.fileExists(atPath: dir + "/default.store") ? dir : nil
}

func writeBytes(_ path: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}
func readBytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }

func finding(_ r: StoreReport, _ id: String) -> Finding? { r.findings.first { $0.id == id } }
