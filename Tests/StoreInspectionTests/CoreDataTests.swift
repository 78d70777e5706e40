import Foundation
import Testing
import CSQLite
@testable import StoreInspection
import CDLogCore

/// The Core Data bookkeeping schema with history and CloudKit tables (`Samples/stores/coredata-schema.sql`,
/// which `Samples/stores/make-stores.sh` builds its sample store from), and the entities' primary keys.
let coreDataSchema: String = {
    let path = packageRoot + "/Samples/stores/coredata-schema.sql"
    guard let schema = try? String(contentsOfFile: path, encoding: .utf8) else { return "SELECT missing_schema_file;" }
    return schema + """
    INSERT INTO Z_PRIMARYKEY VALUES (1,'Item',0,0),(2,'Tool',1,0),(3,'Folder',0,0),(16001,'CHANGE',0,0),(16002,'TRANSACTION',0,0),(16003,'TRANSACTIONSTRING',0,0),(17003,'NSCKEvent',0,0),(17009,'NSCKMetadataEntry',0,0),(17012,'NSCKRecordMetadata',0,0);
    """
}()

func metadataPlist() throws -> [UInt8] {
    let plist: [String: Any] = [
        "NSStoreType": "SQLite",
        "NSPersistenceFrameworkVersion": 1345,
        "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": ["1.0.0"],
        "NSStoreModelVersionHashes": ["Item": Data(repeating: 0xAB, count: 32), "Folder": Data(repeating: 0x01, count: 32)],
        "NSStoreModelVersionChecksumKey": "q83vEjRWeJA=",
        "_NSAutoVacuumLevel": "2",
    ]
    return [UInt8](try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
}

/// Builds a Core Data-shaped store: some rows checkpointed into the main file, newer rows only in the WAL.
func makeCoreDataStore(_ live: String, transactions: Int = 10_500) throws -> TestDB {
    let db = TestDB(live + "/Model.sqlite")
    db.exec("PRAGMA journal_mode=WAL; PRAGMA auto_vacuum=2;")
    db.installHook()
    db.exec(coreDataSchema)
    db.bindExec("INSERT INTO Z_METADATA VALUES (1, 'B3D6A6C2-1111-2222-3333-444455556666', ?)", blob: try metadataPlist())
    db.exec("INSERT INTO ZITEM (Z_ENT, Z_OPT, ZNAME) VALUES (1,1,'a'),(1,1,'b'),(2,1,'tool')")
    _ = db.checkpoint(SQLITE_CHECKPOINT_TRUNCATE)
    // Everything below lives only in the WAL.
    db.exec("INSERT INTO ZITEM (Z_ENT, Z_OPT, ZNAME) VALUES (1,1,'c'),(2,1,'tool2')")
    db.exec("INSERT INTO ZFOLDER (Z_ENT, Z_OPT, ZTITLE) VALUES (3,1,'f')")
    db.exec("INSERT INTO ATRANSACTIONSTRING (Z_ENT, Z_OPT, ZNAME) VALUES (16003,1,'com.example.app'),(16003,1,'App')")
    // 2023-01-01 … spread over a year (Cocoa seconds).
    db.exec("""
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < \(transactions))
    INSERT INTO ATRANSACTION (Z_ENT, Z_OPT, ZBUNDLEIDTS, ZPROCESSIDTS, ZTIMESTAMP) SELECT 16002, 1, 1, 2, 694224000.0 + i * 3000.0 FROM n;
    """)
    db.exec("""
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < \(transactions))
    INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) SELECT 16001, 1, i % 3, 1, i, i FROM n;
    """)
    db.exec("""
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 150)
    INSERT INTO ANSCKRECORDMETADATA (Z_ENT, Z_OPT, ZENTITYID, ZENTITYPK, ZNEEDSUPLOAD, ZNEEDSCLOUDDELETE, ZNEEDSLOCALDELETE, ZCKRECORDNAME)
    SELECT 17012, 1, 1, i, CASE WHEN i <= 120 THEN 1 ELSE 0 END, CASE WHEN i > 145 THEN 1 ELSE 0 END, 0, 'r' || i FROM n;
    """)
    db.exec("""
    INSERT INTO ANSCKEVENT (Z_ENT, Z_OPT, ZCLOUDKITEVENTTYPE, ZSUCCEEDED, ZERRORCODE, ZSTARTEDAT, ZENDEDAT, ZERRORDOMAIN) VALUES
      (17003,1,0,1,0,725000000,725000010,NULL),(17003,1,1,1,0,725000100,725000110,NULL),
      (17003,1,2,0,25,725000200,725000210,'CKErrorDomain');
    INSERT INTO ANSCKMETADATAENTRY (Z_ENT, Z_OPT, ZKEY, ZINTEGERVALUE) VALUES (17009,1,'PFCloudKitMetadataFrameworkVersionKey',1345);
    """)
    return db
}

@Suite struct CoreDataTests {
    @Test func coreDataStoreFiguresMatchSQLite() throws {
        let tmp = TempDir("coredata")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = try makeCoreDataStore(live)
        freeze("Model.sqlite", from: live, to: dir)
        let r = try inspectUnchanged(dir + "/Model.sqlite")
        let cd = try #require(r.sql?.coreData)
        #expect(cd.storeUUID == "B3D6A6C2-1111-2222-3333-444455556666")
        #expect(cd.metadataReadable)
        #expect(cd.frameworkVersion == 1345)
        #expect(cd.storeType == "SQLite")
        #expect(cd.modelVersionIdentifiers == ["1.0.0"])
        #expect(cd.modelVersionHashes.map(\.entity) == ["Folder", "Item"])
        #expect(cd.modelVersionHashes.first?.hash == String(repeating: "01", count: 32))
        #expect(cd.autoVacuumLevel == "2")
        #expect(cd.modelVersionChecksum == "q83vEjRWeJA=")

        // Row counts, checked against SQLite on a copy (with the WAL applied).
        let counts = { (sql: String) in sqliteView(of: dir, name: "Model.sqlite", countSQL: sql).rows }
        func rows(_ name: String) -> Int? { cd.entities.first { $0.name == name }?.rows }
        #expect(rows("Item") == counts("SELECT count(*) FROM ZITEM WHERE Z_ENT = 1"))
        #expect(rows("Item") == 3)
        #expect(rows("Tool") == 2)
        #expect(rows("Folder") == 1)
        #expect(rows("TRANSACTION") == 10_500)
        #expect(cd.entities.first { $0.name == "NSCKRecordMetadata" }?.kind == "cloudkit")
        #expect(cd.entities.first { $0.name == "Tool" }?.table == "ZITEM")

        let h = try #require(cd.history)
        #expect(h.transactions == counts("SELECT count(*) FROM ATRANSACTION"))
        #expect(h.changes == 10_500)
        #expect(h.strings == 2)
        #expect(isoDate(cocoaSeconds: h.oldest) == "2023-01-01T00:50:00Z")
        #expect(finding(r, "history-unpruned")?.severity == .warning)

        let ck = try #require(cd.cloudKit)
        #expect(ck.tables.map(\.name) == ["ANSCKEVENT", "ANSCKMETADATAENTRY", "ANSCKRECORDMETADATA"])
        #expect(ck.recordMetadata == 150)
        #expect(ck.needsUpload == 120)
        #expect(ck.needsCloudDelete == 5)
        #expect(ck.pendingExports == 125)
        #expect(ck.failedEvents == 1)
        #expect(ck.lastEvents.first?.type == "export")
        #expect(ck.lastEvents.first?.succeeded == false)
        #expect(ck.lastEvents.first?.errorCode == 25)
        #expect(finding(r, "cloudkit-export-backlog")?.severity == .warning)
        #expect(finding(r, "cloudkit-failed-events")?.severity == .warning)

        // The WAL side: the newest rows are only there.
        #expect(r.walIndex.state == "current")
        #expect(r.wal.scan?.mxFrame == Int(db.hook.frames.last ?? -1))
        #expect(r.checkpoint.pendingFrames == r.wal.scan?.mxFrame)
    }

    @Test func garbageMetadataPlistIsReportedNotFatal() throws {
        let tmp = TempDir("badplist")
        let dir = tmp.sub("s")
        let db = TestDB(dir + "/g.sqlite")
        db.exec(coreDataSchema)
        db.bindExec("INSERT INTO Z_METADATA VALUES (1, 'U', ?)", blob: Array("bplist00".utf8) + [UInt8](repeating: 0xFF, count: 60))
        db.close()
        let r = try inspectUnchanged(dir + "/g.sqlite")
        let cd = try #require(r.sql?.coreData)
        #expect(cd.storeUUID == "U")
        #expect(!cd.metadataReadable)
        #expect(cd.frameworkVersion == nil)
        #expect(cd.entities.count == 9)
    }
}

@Suite struct PropertyListReaderTests {
    @Test func readsFoundationBinaryPlists() throws {
        let value: [String: Any] = ["s": "hé ✓", "i": -5, "big": Int64(1) << 40, "d": Data([1, 2, 3]), "b": true,
                                    "r": 1.5, "a": ["x", 2], "nested": ["k": ["deep": "v"]], "date": Date(timeIntervalSinceReferenceDate: 100)]
        let bytes = [UInt8](try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0))
        let p = try #require(PropertyListReader().parse(bytes))
        #expect(p["s"] == .string("hé ✓"))
        #expect(p["i"] == .int(-5))
        #expect(p["big"] == .int(1 << 40))
        #expect(p["d"] == .data([1, 2, 3]))
        #expect(p["b"] == .bool(true))
        #expect(p["r"] == .real(1.5))
        #expect(p["a"] == .array([.string("x"), .int(2)]))
        #expect(p["nested"]?["k"]?["deep"] == .string("v"))
        #expect(p["date"] == .date(100))
    }

    @Test func neverCrashesOnGarbage() throws {
        let good = try metadataPlist()
        var rng = SystemRandomNumberGenerator()
        #expect(PropertyListReader().parse([]) == nil)
        #expect(PropertyListReader().parse(Array("bplist00".utf8)) == nil)
        for _ in 0..<3000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                bytes[Int.random(in: 8..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if Bool.random(using: &rng) { bytes.removeLast(Int.random(in: 0..<min(40, bytes.count - 8), using: &rng)) }
            _ = PropertyListReader().parse(bytes)
        }
        // A self-referencing array must stop at the depth limit.
        var cyclic: [UInt8] = Array("bplist00".utf8)
        cyclic += [0xA1, 0x00]              // object 0: array of one ref → object 0
        let table = cyclic.count
        cyclic += [0x08]                    // offset table: object 0 at 8
        cyclic += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(PropertyListReader().parse(cyclic) == nil)
    }
}

/// Issue 22: a store's own text (`Z_UUID`, `Z_NAME`) and its path never drive the terminal and never
/// forge lines of walcheck's text or Markdown output.
@Suite struct StoreTextEscapeTests {
    @Test func controlCharactersInStoreValuesAreShownNotSent() throws {
        let tmp = TempDir("escapes")
        let dir = tmp.sub("s\u{1B}]0;title\u{07}")
        let db = TestDB(dir + "/g.sqlite")
        db.exec(coreDataSchema)
        db.bindExec("INSERT INTO Z_METADATA VALUES (1, 'U1\n[fatal] forged-finding: store is fine\u{1B}[2J', ?)", blob: try metadataPlist())
        db.exec("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Item\u{1B}[31m' || char(13) || 'x' WHERE Z_ENT = 1")
        db.close()
        let r = try inspectUnchanged(dir + "/g.sqlite")
        #expect(r.sql?.coreData?.storeUUID?.contains("\n") == true, "the store really holds the forging value")
        for format in [StoreReportFormat.text, .markdown] {
            let out = ReportRenderer.render([r], format: format)
            #expect(!out.contains("\u{1B}") && !out.contains("\u{07}") && !out.contains("\r"), "\(format)")
            #expect(!out.split(separator: "\n").contains { $0.hasPrefix("[fatal]") }, "\(format): a value forged a line")
            // Text shows the newline as \x0A; a Markdown cell flattens it to a space.
            #expect(out.contains(format == .text ? "\\x0A[fatal] forged-finding" : " [fatal] forged-finding"), "\(format)")
            #expect(out.contains("\\x1B[2J") && out.contains("Item\\x1B[31m\\x0Dx"), "\(format): the values are shown, escaped")
        }
    }
}
