import Foundation
import Testing
import CSQLite
@testable import StoreInspection
import CDLogCore

/// The two real stores from the shared corpus (reference §7), read in place without touching them.
@Suite struct CorpusTests {
    @Test(.enabled(if: corpusStore(1) != nil, "SKIPPED: shared corpus store 1 not found at <package root>/../shared/corpus/stores/1"))
    func store1IsCurrentAndUncheckpointed() throws {
        let dir = try #require(corpusStore(1))
        for policy in [ChecksumPolicy.auto, .full] {
            let r = try inspectUnchanged(dir + "/default.store", options: InspectionOptions(checksums: policy), age: false)
            let s = try #require(r.wal.scan)
            #expect(s.framesInFile == 187 && s.validFrames == 187 && s.mxFrame == 187)
            #expect(s.commits == 24)
            #expect(s.distinctPages == 21)
            #expect(s.databasePages == 24)
            #expect(s.staleFrames == 0)
            #expect(r.wal.header?.checkpointSequence == 0)
            #expect(r.wal.header?.salt1 == 0x214F_695C && r.wal.header?.salt2 == 0x5B2E_0722)
            #expect(r.walIndex.state == "current")
            #expect(r.walIndex.index.mxFrame == 187 && r.walIndex.index.nBackfill == 0)
            #expect(r.walIndex.index.readMarks[1] == 187)
            #expect(r.checkpoint.pendingFrames == 187)
            #expect(r.database.header.sqliteVersion == "3.43.2")
            #expect(r.database.header.autoVacuum == "incremental")
            let cd = try #require(r.sql?.coreData)
            #expect(cd.frameworkVersion == 1345)
            #expect(cd.entities.first { $0.name == "Item" }?.rows == 4)
            #expect(cd.history?.transactions == 13)
            #expect(cd.cloudKit == nil)
            #expect(cd.modelVersionHashes.first { $0.entity == "Item" }?.hash.hasPrefix("683a2c66") == true)
        }
    }

    @Test(.enabled(if: corpusStore(2) != nil, "SKIPPED: shared corpus store 2 not found at <package root>/../shared/corpus/stores/2"))
    func store2HasAStaleWalIndex() throws {
        let dir = try #require(corpusStore(2))
        let r = try inspectUnchanged(dir + "/default.store", age: false)
        let s = try #require(r.wal.scan)
        #expect(s.mxFrame == 355 && s.validFrames == 355)
        #expect(s.commits == 42)
        #expect(s.distinctPages == 19)
        #expect(s.checksumCoverage == "full" && s.checksumsVerifiedFrom == 1)
        #expect(r.walIndex.state == "stale")
        #expect(r.walIndex.index.mxFrame == 29)
        #expect(r.checkpoint.pendingFrames == 355)
        #expect(!r.checkpoint.fromWalIndex)
        #expect(finding(r, "wal-index-stale")?.severity == .warning)
        let cd = try #require(r.sql?.coreData)
        #expect(cd.entities.first { $0.name == "Item" }?.rows == 7)
        #expect(cd.history?.transactions == 38)
        #expect(cd.history?.changes == 55)
    }
}

/// Bad input: a one-line ToolFailure (exit 2) or a report that marks what it could not read.
@Suite struct BadInputTests {
    func expectFailure(_ path: String, contains text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let stores = try StoreLocator.locate(path)
            _ = try stores.map { try StoreInspector.inspect($0) }
            Issue.record("expected a failure for \(path)", sourceLocation: sourceLocation)
        } catch let f as ToolFailure {
            #expect(f.message.contains(text), "\(f.message)", sourceLocation: sourceLocation)
            #expect(!f.message.contains("\n"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    func realDatabase(_ dir: String, _ name: String = "d.sqlite", pageSize: Int = 4096) -> [UInt8] {
        let db = makeLiveStore(dir + "/" + name, pageSize: pageSize)
        commitRows(db, 3, size: 500)
        _ = db.checkpoint(SQLITE_CHECKPOINT_TRUNCATE)
        return readBytes(dir + "/" + name)
    }

    @Test func notADatabaseTruncatedHeaderAndBadPageSize() throws {
        let tmp = TempDir("bad")
        let live = tmp.sub("live")
        let good = realDatabase(live)
        let dir = tmp.sub("s")
        writeBytes(dir + "/text.sqlite", Array("hello, this is not a database at all, really not\n".utf8))
        expectFailure(dir + "/text.sqlite", contains: "not a SQLite database")
        writeBytes(dir + "/empty.sqlite", [])
        expectFailure(dir + "/empty.sqlite", contains: "empty")
        writeBytes(dir + "/short.sqlite", Array(good.prefix(50)))
        expectFailure(dir + "/short.sqlite", contains: "truncated header")
        var bad = good
        bad[16] = 0x03; bad[17] = 0x00 // 768: not a power of two
        writeBytes(dir + "/pagesize.sqlite", bad)
        expectFailure(dir + "/pagesize.sqlite", contains: "page size")
        bad[16] = 0x00; bad[17] = 0x80 // 128: too small
        writeBytes(dir + "/pagesize2.sqlite", bad)
        expectFailure(dir + "/pagesize2.sqlite", contains: "page size")
    }

    @Test func pathsFoldersAndSymlinks() throws {
        let tmp = TempDir("paths")
        let live = tmp.sub("live")
        let good = realDatabase(live)
        expectFailure(tmp.path + "/does-not-exist", contains: "no such file")
        let emptyDir = tmp.sub("empty")
        writeBytes(emptyDir + "/notes.txt", Array("x".utf8))
        expectFailure(emptyDir, contains: "no SQLite store")
        let links = tmp.sub("links")
        symlink(links + "/missing-target", links + "/dangling.sqlite")
        expectFailure(links + "/dangling.sqlite", contains: "symlink")
        expectFailure("/dev/null", contains: "not a regular file")
        // A symlink to a real store: SQLite looks for -wal/-shm beside the target.
        let target = tmp.sub("target")
        let db = makeLiveStore(target + "/real.sqlite")
        commitRows(db, 4)
        let frozen = tmp.sub("frozen")
        freeze("real.sqlite", from: target, to: frozen)
        symlink(frozen + "/real.sqlite", links + "/alias.sqlite")
        let r = try inspectUnchanged(links + "/alias.sqlite")
        #expect(r.database.resolvedPath?.hasSuffix("/frozen/real.sqlite") == true)
        #expect(r.wal.present)
        #expect(r.wal.scan?.mxFrame == Int(db.hook.frames.last ?? -1))
        // Several stores in one folder: each is found, companions are not stores.
        let multi = tmp.sub("multi")
        writeBytes(multi + "/one.sqlite", good)
        writeBytes(multi + "/two.store", good)
        freeze("real.sqlite", from: frozen, to: multi)
        writeBytes(multi + "/README", Array("not a store".utf8))
        let stores = try StoreLocator.locate(multi)
        #expect(stores.map { lastComponent($0.database) } == ["one.sqlite", "real.sqlite", "two.store"])
        #expect(stores[1].wal != nil && stores[1].walIndex != nil)
        // Unreadable files (meaningless as root, who can read anything).
        if geteuid() != 0 {
            let locked = tmp.sub("locked")
            writeBytes(locked + "/l.sqlite", good)
            chmod(locked + "/l.sqlite", 0)
            expectFailure(locked + "/l.sqlite", contains: "cannot open")
        }
    }

    @Test func zeroFilledAndTruncatedWalIndex() throws {
        let tmp = TempDir("shm")
        let live = tmp.sub("live")
        let db = makeLiveStore(live + "/z.sqlite")
        commitRows(db, 6)
        for (label, shm) in [("zero", [UInt8](repeating: 0, count: 32768)), ("three", [UInt8](repeating: 0, count: 3)),
                             ("torn", { var b = readBytes(live + "/z.sqlite-shm"); b[60] ^= 1; return b }())] {
            let dir = tmp.sub(label)
            freeze("z.sqlite", from: live, to: dir, parts: ["", "-wal"])
            writeBytes(dir + "/z.sqlite-shm", shm)
            let r = try inspectUnchanged(dir + "/z.sqlite")
            #expect(r.walIndex.state == "invalid", "\(label)")
            #expect(r.walIndex.index.problem != nil)
            #expect(r.wal.scan?.mxFrame == Int(db.hook.frames.last ?? -1))
            #expect(r.wal.scan?.checksumCoverage == "full")
            #expect(finding(r, "wal-index-invalid") != nil)
            let json = ReportRenderer.json(r)
            #expect(json.contains("\"state\":\"invalid\""))
        }
    }

    @Test func walFromAnotherDatabaseAndGarbageWAL() throws {
        let tmp = TempDir("foreign")
        let a = tmp.sub("a"), b = tmp.sub("b"), dir = tmp.sub("s"), garbage = tmp.sub("g")
        let small = makeLiveStore(a + "/x.sqlite", pageSize: 1024)
        commitRows(small, 2, size: 100)
        let big = makeLiveStore(b + "/x.sqlite", pageSize: 4096)
        commitRows(big, 5)
        freeze("x.sqlite", from: a, to: dir, parts: [""])
        freeze("x.sqlite", from: b, to: dir, parts: ["-wal"])
        let r = try inspectUnchanged(dir + "/x.sqlite")
        #expect(r.wal.pageSizeMatchesDatabase == false)
        #expect(finding(r, "wal-foreign")?.severity == .error)
        // Random bytes as a WAL: the header is invalid, SQLite would ignore it.
        freeze("x.sqlite", from: a, to: garbage, parts: [""])
        writeBytes(garbage + "/x.sqlite-wal", (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        let g = try inspectUnchanged(garbage + "/x.sqlite")
        #expect(g.wal.header?.valid == false)
        #expect(g.wal.problem != nil)
        #expect(finding(g, "wal-header-invalid") != nil)
        #expect(g.checkpoint.pendingFrames == 0)
        // A WAL shorter than its header.
        writeBytes(garbage + "/x.sqlite-wal", [0x37, 0x7f, 0x06])
        let t = try inspectUnchanged(garbage + "/x.sqlite")
        #expect(t.wal.problem?.contains("truncated") == true)
    }

    @Test func headerParsersAreBoundsChecked() {
        #expect(WALHeader.parse([1, 2, 3]) == nil)
        let idx = WALIndex.parse(bytes: [0xFF, 0xFF])
        #expect(!idx.headerValid && idx.pageNumber(ofFrame: 1) == nil && idx.pageNumber(ofFrame: 0) == nil)
        let weird = WALIndex.parse(bytes: [UInt8](repeating: 0xFF, count: 200))
        #expect(!weird.headerValid)
        #expect(weird.pageNumber(ofFrame: 1_000_000) == nil)
        var sum = WALChecksum()
        sum.add([UInt8](repeating: 0xFF, count: 1 << 16), bigEndianWords: true) // wraps, never traps
        #expect(sum != WALChecksum())
    }

    /// Random damage to WAL frame headers, salts, commit sizes and the -shm: never a trap, always a report.
    @Test func fuzzedWALAndWalIndexNeverTrap() throws {
        let tmp = TempDir("fuzz")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        let db = makeLiveStore(live + "/f.sqlite", pageSize: 512)
        commitRows(db, 30, size: 300)
        freeze("f.sqlite", from: live, to: dir)
        let wal0 = readBytes(dir + "/f.sqlite-wal"), shm0 = readBytes(dir + "/f.sqlite-shm")
        var rng = SystemRandomNumberGenerator()
        let files = StoreFiles(database: dir + "/f.sqlite", resolvedDatabase: dir + "/f.sqlite",
                               wal: dir + "/f.sqlite-wal", walIndex: dir + "/f.sqlite-shm", journal: nil)
        for round in 0..<90 {
            var wal = wal0, shm = shm0
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let frame = Int.random(in: 0...((wal.count - 32) / 536), using: &rng)
                let at = min(wal.count - 1, 32 + frame * 536 + Int.random(in: 0..<24, using: &rng))
                wal[Int.random(in: 0...3, using: &rng) == 0 ? Int.random(in: 0..<32, using: &rng) : at] = UInt8.random(in: 0...255, using: &rng)
                shm[Int.random(in: 0..<200, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if round % 5 == 0 { wal.removeLast(Int.random(in: 0..<wal.count, using: &rng)) }
            writeBytes(dir + "/f.sqlite-wal", wal)
            writeBytes(dir + "/f.sqlite-shm", shm)
            let policy = [ChecksumPolicy.auto, .full, .none][round % 3]
            let r = try StoreInspector.inspect(files, options: InspectionOptions(checksums: policy, runSQL: round % 30 == 0))
            let s = r.wal.scan
            #expect((s?.mxFrame ?? 0) <= (s?.validFrames ?? 0) && (s?.validFrames ?? 0) <= (s?.framesInFile ?? 0))
            #expect(r.checkpoint.pendingFrames >= 0)
            _ = ReportRenderer.render([r], format: .json)
            _ = ReportRenderer.render([r], format: .markdown)
        }
    }
}
