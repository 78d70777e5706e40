#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore
import Foundation
import Testing
@testable import StoreInspection

/// Corruption matrices for the -wal and -shm (issue 8): every inspection must give a report (never a
/// trap, never an error for a damaged companion file), keep its figures consistent, and leave the
/// folder unchanged (`inspectUnchanged`).
@Suite struct WALCorruptionTests {
    /// A frozen WAL store: 6 single-row commits with page size `pageSize`, wal-index current.
    struct Fixture {
        let tmp: TempDir
        let wal: [UInt8]
        let shm: [UInt8]
        let database: [UInt8]
        let pageSize: Int
        let commitFrames: [Int]        // mxFrame after each commit
        var frameSize: Int { pageSize + 24 }
        var frames: Int { (wal.count - 32) / frameSize }

        init(_ label: String, pageSize: Int = 1024, commits: Int = 6, rowSize: Int = 300) {
            tmp = TempDir(label)
            let live = tmp.sub("live")
            let db = makeLiveStore(live + "/c.sqlite", pageSize: pageSize)
            commitRows(db, commits, size: rowSize)
            wal = readBytes(live + "/c.sqlite-wal")
            shm = readBytes(live + "/c.sqlite-shm")
            database = readBytes(live + "/c.sqlite")
            self.pageSize = pageSize
            commitFrames = db.hook.frames.map(Int.init)
            db.close()
        }

        /// Writes a store folder `name` with the given files (nil: absent) and inspects it.
        func inspect(_ name: String, wal: [UInt8]?, shm: [UInt8]?, database: [UInt8]? = nil,
                     options: InspectionOptions = InspectionOptions(runSQL: false),
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> StoreReport {
            let dir = tmp.sub(name)
            writeBytes(dir + "/c.sqlite", database ?? self.database)
            if let wal { writeBytes(dir + "/c.sqlite-wal", wal) }
            if let shm { writeBytes(dir + "/c.sqlite-shm", shm) }
            let report = try inspectUnchanged(dir + "/c.sqlite", options: options, sourceLocation: sourceLocation)
            Self.checkConsistent(report, sourceLocation: sourceLocation)
            try? FileManager.default.removeItem(atPath: dir)
            return report
        }

        static func checkConsistent(_ r: StoreReport, sourceLocation: SourceLocation) {
            if let s = r.wal.scan {
                #expect(s.mxFrame <= s.validFrames && s.validFrames <= s.framesInFile, sourceLocation: sourceLocation)
                #expect(r.checkpoint.pendingFrames >= 0 && r.checkpoint.pendingFrames <= s.mxFrame, sourceLocation: sourceLocation)
            } else {
                #expect(r.checkpoint.pendingFrames == 0, sourceLocation: sourceLocation)
            }
            for format in StoreReportFormat.allCases { #expect(!ReportRenderer.render([r], format: format).isEmpty, sourceLocation: sourceLocation) }
        }
    }

    /// The last commit frame at or below `frames` (what SQLite's recovery keeps).
    static func expectedMx(_ f: Fixture, frames: Int) -> Int { f.commitFrames.last { $0 <= frames } ?? 0 }

    @Test func truncatedAtEveryFrameBoundaryAndAroundIt() throws {
        let f = Fixture("trunc")
        var sizes = Set([0, 1, 31, 32, 33])
        for k in 0...f.frames {
            let boundary = 32 + k * f.frameSize
            for size in [boundary - 1, boundary, boundary + 1] where size >= 0 && size <= f.wal.count { sizes.insert(size) }
        }
        for size in sizes.sorted() {
            for shm in [f.shm, nil] {
                let r = try f.inspect("t\(size)", wal: Array(f.wal.prefix(size)), shm: shm)
                if size < 32 {
                    #expect(r.wal.scan == nil, "size \(size)")
                    #expect(size == 0 || r.wal.problem?.contains("truncated") == true, "size \(size)")
                    continue
                }
                let s = try #require(r.wal.scan, "size \(size)")
                let whole = (size - 32) / f.frameSize
                #expect(s.framesInFile == whole, "size \(size)")
                #expect(s.partialFrameBytes == (size - 32) % f.frameSize, "size \(size)")
                #expect(s.mxFrame == Self.expectedMx(f, frames: whole), "size \(size)")
                if shm != nil, whole < f.frames {
                    // The -shm knows more frames than the file holds: never "current".
                    #expect(r.walIndex.state == "stale", "size \(size)")
                }
            }
        }
    }

    @Test func everyHeaderByteFlipped() throws {
        let f = Fixture("flip")
        for offset in 0..<32 {
            for mask: UInt8 in [0x01, 0x80] {
                var wal = f.wal
                wal[offset] ^= mask
                let r = try f.inspect("f\(offset)-\(mask)", wal: wal, shm: f.shm)
                #expect(r.wal.header?.valid == false, "byte \(offset) mask \(mask)")
                #expect(r.wal.problem != nil)
                #expect(r.wal.scan == nil)
                #expect(finding(r, "wal-header-invalid") != nil, "byte \(offset)")
            }
        }
    }

    @Test func saltsFromAnotherGeneration() throws {
        let f = Fixture("salts")
        // The header of a later generation (new salts, as after a WAL reset) over this generation's frames.
        var wal = f.wal
        wal[16] ^= 0x5A; wal[20] ^= 0xA5
        var sum = WALChecksum()
        sum.add(Array(wal[0..<24]), bigEndianWords: wal[3] & 1 == 1)
        for (i, word) in [sum.a, sum.b].enumerated() {
            for b in 0..<4 { wal[24 + 4 * i + b] = UInt8(truncatingIfNeeded: word >> (24 - 8 * b)) }
        }
        let r = try f.inspect("gen", wal: wal, shm: f.shm)
        let s = try #require(r.wal.scan)
        #expect(r.wal.header?.valid == true)
        #expect(s.validFrames == 0 && s.mxFrame == 0)
        #expect(s.staleFrames == f.frames)
        #expect(s.staleGenerations == 1)
        #expect(s.firstInvalidReason == "salt")
        #expect(r.walIndex.state == "stale")
        #expect(r.checkpoint.pendingFrames == 0)
    }

    @Test func frameFromAnotherDatabase() throws {
        let f = Fixture("mine"), other = Fixture("other")
        var wal = f.wal
        let frame = 3
        let at = 32 + (frame - 1) * f.frameSize
        wal.replaceSubrange(at..<(at + f.frameSize), with: other.wal[at..<(at + f.frameSize)])
        let r = try f.inspect("foreign", wal: wal, shm: f.shm, options: InspectionOptions(checksums: .full, runSQL: false))
        let s = try #require(r.wal.scan)
        #expect(s.firstInvalidFrame == frame)
        #expect(s.firstInvalidReason == "salt")
        #expect(s.mxFrame == Self.expectedMx(f, frames: frame - 1))
        // The default policy trusts the -shm only when its anchor frame matches: here it does not.
        let auto = try f.inspect("foreign-auto", wal: wal, shm: f.shm)
        #expect(auto.wal.scan?.mxFrame == s.mxFrame)
        #expect(auto.walIndex.state == "stale")
    }

    @Test(arguments: [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536])
    func everyPageSize(_ pageSize: Int) throws {
        let f = Fixture("p\(pageSize)", pageSize: pageSize, commits: 3, rowSize: 200)
        let r = try f.inspect("s", wal: f.wal, shm: f.shm, options: InspectionOptions(checksums: .full, runSQL: true))
        let s = try #require(r.wal.scan)
        #expect(r.database.header.pageSize == pageSize)
        #expect(r.wal.header?.pageSize == pageSize)
        #expect(r.walIndex.index.pageSize == pageSize)
        #expect(s.mxFrame == f.commitFrames.last)
        #expect(r.walIndex.state == "current")
        #expect(r.sql?.error == nil)
        // Cut in the middle of the last frame: the last commit is lost, nothing traps.
        let cut = try f.inspect("cut", wal: Array(f.wal.dropLast(pageSize / 2)), shm: f.shm)
        #expect(cut.wal.scan?.mxFrame == Self.expectedMx(f, frames: f.frames - 1))
    }

    /// Magic 0x377f0683: checksums over big-endian words (written by big-endian machines). SQLite reads
    /// both; so must walcheck, and SQLite's own view of the rewritten WAL must agree.
    @Test func bigEndianChecksumMagic() throws {
        let f = Fixture("be")
        #expect(Array(f.wal[0..<4]) == [0x37, 0x7F, 0x06, 0x82])
        var wal = f.wal
        wal[3] = 0x83
        func put(_ word: UInt32, at offset: Int) {
            for b in 0..<4 { wal[offset + b] = UInt8(truncatingIfNeeded: word >> (24 - 8 * b)) }
        }
        var sum = WALChecksum()
        sum.add(Array(wal[0..<24]), bigEndianWords: true)
        put(sum.a, at: 24); put(sum.b, at: 28)
        for frame in 0..<f.frames {
            let at = 32 + frame * f.frameSize
            sum.add(Array(wal[at..<(at + 8)]), bigEndianWords: true)
            sum.add(Array(wal[(at + 24)..<(at + f.frameSize)]), bigEndianWords: true)
            put(sum.a, at: at + 16); put(sum.b, at: at + 20)
        }
        let r = try f.inspect("be", wal: wal, shm: nil, options: InspectionOptions(checksums: .full, runSQL: true))
        let s = try #require(r.wal.scan)
        #expect(r.wal.header?.valid == true)
        #expect(r.wal.header?.bigEndianChecksums == true)
        #expect(s.mxFrame == f.commitFrames.last)
        #expect(s.firstInvalidFrame == nil)
        // SQLite agrees: it replays every commit of the rewritten WAL.
        let dir = f.tmp.sub("be-sqlite")
        writeBytes(dir + "/c.sqlite", f.database)
        writeBytes(dir + "/c.sqlite-wal", wal)
        #expect(sqliteView(of: dir, name: "c.sqlite").rows == f.commitFrames.count - 1)   // the first commit is CREATE TABLE
        // The little-endian original, for comparison.
        #expect(try f.inspect("le", wal: f.wal, shm: nil).wal.scan?.mxFrame == s.mxFrame)
    }

    @Test func zeroLengthWAL() throws {
        let f = Fixture("zero")
        for shm in [f.shm, nil] {
            let r = try f.inspect("z", wal: [], shm: shm)
            #expect(r.wal.present && r.wal.bytes == 0)
            #expect(r.wal.scan == nil)
            #expect(r.checkpoint.progress == "empty")
            #expect(r.checkpoint.pendingFrames == 0)
        }
    }

    @Test func walWithNoDatabase() throws {
        let f = Fixture("nodb")
        let dir = f.tmp.sub("orphan")
        writeBytes(dir + "/c.sqlite-wal", f.wal)
        writeBytes(dir + "/c.sqlite-shm", f.shm)
        agePast(dir)
        let before = FolderState(dir)
        #expect(throws: ToolFailure.self) { try StoreLocator.locate(dir + "/c.sqlite") }
        #expect(throws: ToolFailure.self) { try StoreLocator.locate(dir) }
        // The -wal named as the store: one line saying what it is (issue 23's hint).
        #expect(throws: ToolFailure("\(dir)/c.sqlite-wal is a -wal file without its database (\(dir)/c.sqlite is missing): walcheck reads a store through its database file")) {
            try StoreLocator.locate(dir + "/c.sqlite-wal")
        }
        #expect(FolderState(dir) == before)
        // With its database beside it, the hint names the file to give.
        writeBytes(dir + "/c.sqlite", f.database)
        #expect(throws: ToolFailure("\(dir)/c.sqlite-wal is the -wal of \(dir)/c.sqlite: give the database file (walcheck \(dir)/c.sqlite)")) {
            try StoreLocator.locate(dir + "/c.sqlite-wal")
        }
    }

    // MARK: - wal-index (-shm)

    @Test func walIndexZeroFilledAndTruncatedBelowTheHeader() throws {
        let f = Fixture("shm")
        var cases: [(String, [UInt8])] = [("zero-32k", [UInt8](repeating: 0, count: 32768)), ("zero-136", [UInt8](repeating: 0, count: 136))]
        for n in 0..<136 { cases.append(("cut\(n)", Array(f.shm.prefix(n)))) }
        for (label, shm) in cases {
            let r = try f.inspect(label, wal: f.wal, shm: shm)
            #expect(r.walIndex.state == "invalid", "\(label)")
            #expect(r.walIndex.index.problem != nil)
            // Without a usable -shm every valid frame is pending (SQLite's recovery starts from zero).
            #expect(r.checkpoint.pendingFrames == f.commitFrames.last, "\(label)")
            #expect(r.wal.scan?.checksumCoverage == "full")
        }
    }

    @Test func walIndexHeaderCopiesDisagree() throws {
        let f = Fixture("copies")
        for offset in 48..<96 {
            var shm = f.shm
            shm[offset] ^= 0x10
            let r = try f.inspect("c\(offset)", wal: f.wal, shm: shm)
            #expect(r.walIndex.state == "invalid", "offset \(offset)")
            #expect(r.walIndex.index.problem?.contains("differ") == true, "offset \(offset)")
        }
    }

    @Test func walIndexHeaderFromAnotherWAL() throws {
        let f = Fixture("mine-shm"), other = Fixture("other-shm", commits: 9)
        let r = try f.inspect("foreign-shm", wal: f.wal, shm: other.shm)
        #expect(r.walIndex.index.headerValid)
        #expect(r.walIndex.state == "stale")
        #expect(r.wal.scan?.mxFrame == f.commitFrames.last)
        #expect(r.wal.scan?.checksumCoverage == "full")
        #expect(r.checkpoint.pendingFrames == f.commitFrames.last)
    }

    @Test func checkpointInfoBeyondMxFrame() throws {
        let f = Fixture("backfill")
        let mx = UInt32(f.commitFrames.last ?? 0)
        func le(_ v: UInt32, at o: Int, in b: inout [UInt8]) { for i in 0..<4 { b[o + i] = UInt8(truncatingIfNeeded: v >> (8 * i)) } }
        for (label, backfill, attempted) in [("nb", mx + 100, mx), ("both", mx + 100, mx + 200), ("max", UInt32.max, UInt32.max),
                                             ("attempted", 0, mx + 7)] {
            var shm = f.shm
            le(backfill, at: 96, in: &shm)
            le(attempted, at: 128, in: &shm)
            let r = try f.inspect(label, wal: f.wal, shm: shm)
            #expect(r.walIndex.state == "current", "\(label)")
            #expect(r.checkpoint.pendingFrames >= 0 && r.checkpoint.pendingFrames <= Int(mx), "\(label)")
            if backfill > mx { #expect(r.checkpoint.pendingFrames == 0, "\(label)") }
            #expect(finding(r, "checkpoint-interrupted") == nil, "\(label): attempted beyond mxFrame is not an interrupted checkpoint")
        }
    }
}
