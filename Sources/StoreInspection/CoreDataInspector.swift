#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore
import CSQLite

/// Runs read-only SQL against a private copy of the store (never the user's files).
///
/// Contract: the copy is opened with `SQLITE_OPEN_READONLY` (read-write only when SQLite must roll back a hot journal in the copy); a store without `Z_METADATA` and
/// `Z_PRIMARYKEY` gives `coreData == nil`. Identifiers are taken only from `sqlite_master` and quoted;
/// unexpected schemas (missing columns, tampered tables) leave the affected figures nil instead of
/// failing. Throws `ToolFailure` only when the copy cannot be opened or read at all.
public enum CoreDataInspector {
    public static let maxEvents = 10
    static let historyOffset = 16000
    static let cloudKitOffset = 17000

    public static func inspect(copy: SnapshotCopy) throws -> SQLView {
        var db = try SQLiteConnection(uri: SQLiteConnection.uri(copy.databasePath, query: "mode=ro"),
                                      flags: SQLITE_OPEN_READONLY, displayPath: copy.databasePath)
        var view = SQLView()
        do {
            view.pageCount = try db.scalarInt("PRAGMA page_count").map(Int.init)
        } catch {
            // A hot rollback journal needs a writable connection to be rolled back: it is our copy.
            db.close()
            db = try SQLiteConnection(uri: SQLiteConnection.uri(copy.databasePath, query: ""),
                                      flags: SQLITE_OPEN_READWRITE, displayPath: copy.databasePath)
            view.pageCount = try db.scalarInt("PRAGMA page_count").map(Int.init)
        }
        defer { db.close() }
        view.freelistCount = try db.scalarInt("PRAGMA freelist_count").map(Int.init)
        var tables: [String] = []
        try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { row in
            if let name = row.text(0) { tables.append(name) }
        }
        view.tables = tables.count
        let tableSet = Set(tables)
        guard tableSet.contains("Z_METADATA"), tableSet.contains("Z_PRIMARYKEY") else { return view }
        view.coreData = try coreData(db, tables: tables, tableSet: tableSet)
        return view
    }

    static func columns(_ db: SQLiteConnection, _ table: String) -> Set<String> {
        var names = Set<String>()
        try? db.query("PRAGMA table_info(\(SQLiteConnection.quoteIdentifier(table)))") { row in
            if let n = row.text(1) { names.insert(n.uppercased()) }
        }
        return names
    }

    static func count(_ db: SQLiteConnection, _ table: String, where clause: String = "") -> Int? {
        (try? db.scalarInt("SELECT count(*) FROM \(SQLiteConnection.quoteIdentifier(table)) \(clause)")).flatMap { $0 }.map(Int.init)
    }

    static func coreData(_ db: SQLiteConnection, tables: [String], tableSet: Set<String>) throws -> CoreDataInfo {
        var info = CoreDataInfo()
        let metaColumns = columns(db, "Z_METADATA")
        if metaColumns.contains("Z_UUID") {
            info.storeUUID = (try? firstText(db, "SELECT Z_UUID FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")) ?? nil
        }
        if metaColumns.contains("Z_PLIST") {
            var blob: [UInt8]?
            try? db.query("SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") { blob = $0.blob(0) }
            if let blob, let plist = PropertyListReader().parse(blob) {
                info.metadataReadable = true
                apply(plist, to: &info)
            }
        }
        // Entities.
        struct PK { let ent: Int; let name: String; let sup: Int; let max: Int? }
        var pks: [PK] = []
        let pkColumns = columns(db, "Z_PRIMARYKEY")
        if pkColumns.isSuperset(of: ["Z_ENT", "Z_NAME"]) {
            let sup = pkColumns.contains("Z_SUPER") ? "Z_SUPER" : "0"
            let max = pkColumns.contains("Z_MAX") ? "Z_MAX" : "NULL"
            try? db.query("SELECT Z_ENT, Z_NAME, \(sup), \(max) FROM Z_PRIMARYKEY ORDER BY Z_ENT") { row in
                guard let ent = row.int(0), let name = row.text(1) else { return }
                pks.append(PK(ent: Int(ent), name: name, sup: Int(row.int(2) ?? 0), max: row.int(3).map(Int.init)))
            }
        }
        let byEnt = Dictionary(pks.map { ($0.ent, $0) }, uniquingKeysWith: { a, _ in a })
        var countsByTable: [String: [Int: Int]] = [:]
        let upperTables = Dictionary(tables.map { ($0.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })
        for pk in pks {
            var root = pk
            var hops = 0
            while root.sup != 0, let parent = byEnt[root.sup], hops < 64 { root = parent; hops += 1 }
            let kind = pk.ent >= cloudKitOffset ? "cloudkit" : pk.ent >= historyOffset ? "history" : "user"
            let prefix = kind == "user" ? "Z" : "A"
            let wanted = prefix + root.name.uppercased()
            let table = upperTables[wanted]
            var rows: Int?
            if let table {
                if countsByTable[table] == nil {
                    var counts: [Int: Int] = [:]
                    if columns(db, table).contains("Z_ENT") {
                        try? db.query("SELECT Z_ENT, count(*) FROM \(SQLiteConnection.quoteIdentifier(table)) GROUP BY Z_ENT") { row in
                            if let e = row.int(0), let c = row.int(1) { counts[Int(e)] = Int(c) }
                        }
                    } else if let c = count(db, table) {
                        counts[root.ent] = c
                    }
                    countsByTable[table] = counts
                }
                rows = countsByTable[table]?[pk.ent] ?? 0
            }
            info.entities.append(EntityInfo(name: pk.name, entityNumber: pk.ent, superEntity: pk.sup,
                                            maxPrimaryKey: pk.max, rows: rows, table: table ?? wanted, kind: kind))
        }
        // Persistent history.
        if tableSet.contains("ATRANSACTION") {
            var h = HistoryInfo(transactions: count(db, "ATRANSACTION") ?? 0)
            h.changes = tableSet.contains("ACHANGE") ? count(db, "ACHANGE") : nil
            h.strings = tableSet.contains("ATRANSACTIONSTRING") ? count(db, "ATRANSACTIONSTRING") : nil
            if columns(db, "ATRANSACTION").contains("ZTIMESTAMP") {
                try? db.query("SELECT min(ZTIMESTAMP), max(ZTIMESTAMP) FROM ATRANSACTION") { row in
                    h.oldest = row.double(0)
                    h.newest = row.double(1)
                }
            }
            info.history = h
        }
        // CloudKit mirroring.
        let ckTables = tables.filter { $0.uppercased().hasPrefix("ANSCK") || $0.uppercased().hasPrefix("ZNSCK") }
        if !ckTables.isEmpty {
            var ck = CloudKitInfo(tables: ckTables.map { ($0, count(db, $0) ?? 0) }, lastEvents: [])
            if let rm = ckTables.first(where: { ["ANSCKRECORDMETADATA", "ZNSCKRECORDMETADATA"].contains($0.uppercased()) }) {
                let cols = columns(db, rm)
                ck.recordMetadata = count(db, rm)
                func flagged(_ column: String) -> Int? {
                    cols.contains(column) ? count(db, rm, where: "WHERE \(column) <> 0") : nil
                }
                ck.needsUpload = flagged("ZNEEDSUPLOAD")
                ck.needsCloudDelete = flagged("ZNEEDSCLOUDDELETE")
                ck.needsLocalDelete = flagged("ZNEEDSLOCALDELETE")
                if ck.needsUpload != nil || ck.needsCloudDelete != nil {
                    ck.pendingExports = (ck.needsUpload ?? 0) + (ck.needsCloudDelete ?? 0)
                }
            }
            if let ev = ckTables.first(where: { ["ANSCKEVENT", "ZNSCKEVENT"].contains($0.uppercased()) }) {
                let cols = columns(db, ev)
                ck.events = count(db, ev)
                if cols.contains("ZSUCCEEDED") { ck.failedEvents = count(db, ev, where: "WHERE ZSUCCEEDED = 0") }
                func col(_ c: String) -> String { cols.contains(c) ? c : "NULL" }
                let order = cols.contains("ZSTARTEDAT") ? "ZSTARTEDAT DESC, Z_PK DESC" : (cols.contains("Z_PK") ? "Z_PK DESC" : "rowid DESC")
                let sql = "SELECT \(col("ZCLOUDKITEVENTTYPE")), \(col("ZSUCCEEDED")), \(col("ZERRORDOMAIN")), "
                    + "\(col("ZERRORCODE")), \(col("ZSTARTEDAT")), \(col("ZENDEDAT")) FROM "
                    + "\(SQLiteConnection.quoteIdentifier(ev)) ORDER BY \(order) LIMIT \(maxEvents)"
                try? db.query(sql) { row in
                    let type: String
                    switch row.int(0) {
                    case 0?: type = "setup"
                    case 1?: type = "import"
                    case 2?: type = "export"
                    case let other?: type = "type-\(other)"
                    case nil: type = "unknown"
                    }
                    ck.lastEvents.append(CloudKitEvent(type: type, succeeded: row.int(1).map { $0 != 0 },
                                                       errorDomain: row.text(2), errorCode: row.int(3).map(Int.init),
                                                       startedAt: row.double(4), endedAt: row.double(5)))
                }
            }
            info.cloudKit = ck
        }
        return info
    }

    static func firstText(_ db: SQLiteConnection, _ sql: String) throws -> String? {
        var value: String?
        try db.query(sql) { if value == nil { value = $0.text(0) } }
        return value
    }

    static func apply(_ plist: PlistValue, to info: inout CoreDataInfo) {
        info.storeType = plist["NSStoreType"]?.stringValue
        info.frameworkVersion = plist["NSPersistenceFrameworkVersion"]?.intValue.map(Int.init)
        info.maximumFrameworkVersion = plist["NSPersistenceMaximumFrameworkVersion"]?.intValue.map(Int.init)
        info.modelVersionHashesVersion = plist["NSStoreModelVersionHashesVersion"]?.intValue.map(Int.init)
        if case .array(let ids)? = plist["NSStoreModelVersionIdentifiers"] {
            info.modelVersionIdentifiers = ids.compactMap { $0.stringValue }
        }
        if case .dictionary(let hashes)? = plist["NSStoreModelVersionHashes"] {
            info.modelVersionHashes = hashes.compactMap { key, value in
                if case .data(let d) = value { return (key, hex(d)) }
                return nil
            }.sorted { $0.0 < $1.0 }
        }
        info.modelVersionChecksum = plist["NSStoreModelVersionChecksumKey"]?.stringValue
        info.autoVacuumLevel = plist["_NSAutoVacuumLevel"].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
    }
}

func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var s = ""
    s.reserveCapacity(bytes.count * 2)
    for b in bytes { s.append(digits[Int(b >> 4)]); s.append(digits[Int(b & 15)]) }
    return s
}

/// "2024-07-28T18:33:01Z" from Cocoa seconds (since 2001-01-01 UTC); nil when out of range.
public func isoDate(cocoaSeconds: Double?) -> String? {
    guard let s = cocoaSeconds, s.isFinite, abs(s) < 1e11 else { return nil }
    var t = time_t(Int64((s + 978_307_200).rounded(.down)))
    var parts = tm()
    guard gmtime_r(&t, &parts) != nil else { return nil }
    func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
}
