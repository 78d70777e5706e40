import CSQLite
import CDLogCore

/// A minimal SQLite connection used only on private copies (never on the user's files).
///
/// Contract: every failure throws `ToolFailure` with SQLite's message; statements are finalised;
/// column readers never trap on NULL or wrong types.
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?
    let path: String

    /// Opens `uri` (a `file:` URI) with `flags`; `SQLITE_OPEN_URI` is always added.
    init(uri: String, flags: Int32, displayPath: String) throws {
        path = displayPath
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(uri, &db, flags | SQLITE_OPEN_URI, nil)
        if rc != SQLITE_OK {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(rc)"
            sqlite3_close_v2(db)
            throw ToolFailure("SQLite cannot open the private copy of \(displayPath): \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, 2000)
    }

    deinit { close() }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// A file: URI for `path` with query `query` (path characters escaped per RFC 3986).
    static func uri(_ path: String, query: String) -> String {
        var out = "file:"
        for byte in FileSystemPath.rawBytes(path) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return query.isEmpty ? out : out + "?" + query
    }

    var errorMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection" }

    /// Runs `sql` and calls `row` for each result row.
    func query(_ sql: String, _ bind: [SQLValue] = [], row: (Row) throws -> Void) throws {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw ToolFailure("SQLite query failed on the copy of \(path): \(errorMessage)")
        }
        defer { sqlite3_finalize(stmt) }
        for (i, value) in bind.enumerated() {
            switch value {
            case .int(let v): sqlite3_bind_int64(stmt, Int32(i + 1), v)
            case .text(let v): sqlite3_bind_text(stmt, Int32(i + 1), v, -1, SQLITE_TRANSIENT_PTR)
            case .null: sqlite3_bind_null(stmt, Int32(i + 1))
            }
        }
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_ROW { try row(Row(stmt: stmt)); continue }
            if rc == SQLITE_DONE { break }
            throw ToolFailure("SQLite query failed on the copy of \(path): \(errorMessage)")
        }
    }

    /// The first column of the first row as an integer (nil when no row or NULL).
    func scalarInt(_ sql: String, _ bind: [SQLValue] = []) throws -> Int64? {
        var value: Int64?
        try query(sql, bind) { if value == nil { value = $0.int(0) } }
        return value
    }

    func execute(_ sql: String) throws {
        try query(sql) { _ in }
    }

    /// Quotes an identifier for SQL ("" doubled).
    static func quoteIdentifier(_ name: String) -> String {
        var out = "\""
        for ch in name { out += ch == "\"" ? "\"\"" : String(ch) }
        return out + "\""
    }
}

enum SQLValue { case int(Int64), text(String), null }

/// SQLITE_TRANSIENT (the C macro is not importable).
let SQLITE_TRANSIENT_PTR = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

struct Row {
    let stmt: OpaquePointer
    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }
    func int(_ i: Int32) -> Int64? { isNull(i) ? nil : sqlite3_column_int64(stmt, i) }
    func double(_ i: Int32) -> Double? { isNull(i) ? nil : sqlite3_column_double(stmt, i) }
    func text(_ i: Int32) -> String? {
        guard !isNull(i), let p = sqlite3_column_text(stmt, i) else { return nil }
        let n = Int(sqlite3_column_bytes(stmt, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    func blob(_ i: Int32) -> [UInt8]? {
        guard !isNull(i) else { return nil }
        let n = Int(sqlite3_column_bytes(stmt, i))
        guard n > 0, let p = sqlite3_column_blob(stmt, i) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
