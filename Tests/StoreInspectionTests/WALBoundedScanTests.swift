import Foundation
import Testing
@testable import StoreInspection
import CDLogCore

/// The WAL scan in bounded memory (issue #7): bitmaps instead of a page → frame map, the wal-index's aPgno
/// streamed from the file, frame headers read by several threads. Every figure must equal what the
/// straightforward reader (`ReferenceScan`: the whole WAL and -shm in memory, a dictionary of pages —
/// walcheck's reader before the change) computes, on synthetic WALs with every kind of damage, whatever
/// the thread count, chunk size and bitmap budget.
@Suite struct WALBoundedScanTests {
    // MARK: - Synthetic stores

    static func put32(_ v: UInt32, _ bytes: inout [UInt8], at o: Int, bigEndian: Bool = true) {
        for i in 0..<4 { bytes[o + i] = UInt8(truncatingIfNeeded: bigEndian ? v >> (24 - 8 * i) : v >> (8 * i)) }
    }

    /// A WAL built frame by frame with SQLite's salts and checksum chain.
    struct SynthWAL {
        let pageSize: Int
        let bigEndian: Bool
        let salt1: UInt32, salt2: UInt32
        var bytes: [UInt8]
        var running: WALChecksum
        /// The stored checksum of each frame (1-based: index 0 is frame 1).
        var stored: [WALChecksum] = []

        init(pageSize: Int = 512, bigEndian: Bool = false, salt1: UInt32 = 0x1357_9BDF, salt2: UInt32 = 0x2468_ACE0) {
            self.pageSize = pageSize
            self.bigEndian = bigEndian
            self.salt1 = salt1
            self.salt2 = salt2
            var h = [UInt8](repeating: 0, count: 32)
            put32(bigEndian ? 0x377F_0683 : 0x377F_0682, &h, at: 0)
            put32(3_007_000, &h, at: 4)
            put32(UInt32(pageSize), &h, at: 8)
            put32(3, &h, at: 12)
            put32(salt1, &h, at: 16)
            put32(salt2, &h, at: 20)
            var sum = WALChecksum()
            sum.add(Array(h[0..<24]), bigEndianWords: bigEndian)
            put32(sum.a, &h, at: 24)
            put32(sum.b, &h, at: 28)
            bytes = h
            running = sum
        }

        /// Appends a frame. `salts` nil: the WAL's own; `breakChecksum`: store a wrong checksum (the chain
        /// goes on from the right one, as if only the stored value were damaged).
        mutating func append(page: UInt32, commit: UInt32, salts: (UInt32, UInt32)? = nil, breakChecksum: Bool = false,
                             fill: UInt8 = 0) {
            var f = [UInt8](repeating: fill, count: 24 + pageSize)
            put32(page, &f, at: 0)
            put32(commit, &f, at: 4)
            put32(salts?.0 ?? salt1, &f, at: 8)
            put32(salts?.1 ?? salt2, &f, at: 12)
            for i in stride(from: 24, to: 24 + pageSize, by: 97) { f[i] = UInt8(truncatingIfNeeded: i &* Int(page) &+ Int(fill)) }
            running.add(Array(f[0..<8]), bigEndianWords: bigEndian)
            running.add(Array(f[24...]), bigEndianWords: bigEndian)
            let stored = breakChecksum ? WALChecksum(running.a ^ 1, running.b) : running
            put32(stored.a, &f, at: 16)
            put32(stored.b, &f, at: 20)
            self.stored.append(stored)
            bytes += f
        }
    }

    /// A wal-index (little-endian writer) for `wal`: header with mxFrame, its frame checksum, salts and
    /// nBackfill, and aPgno entries `pages` (frame 1 first).
    static func makeShm(_ wal: SynthWAL, mxFrame: Int, frameChecksum: WALChecksum, pages: [UInt32],
                        nBackfill: UInt32 = 0) -> [UInt8] {
        let entries = max(mxFrame, pages.count)
        let blocks = entries <= WALIndex.firstBlockFrames ? 1 : 2 + (entries - WALIndex.firstBlockFrames - 1) / WALIndex.blockFrames
        var b = [UInt8](repeating: 0, count: blocks * WALIndex.blockBytes)
        put32(3_007_000, &b, at: 0, bigEndian: false)
        put32(7, &b, at: 8, bigEndian: false)
        b[12] = 1
        b[13] = wal.bigEndian ? 1 : 0
        let sz = UInt32((wal.pageSize & 0xFF00) | (wal.pageSize >> 16))
        b[14] = UInt8(sz & 0xFF); b[15] = UInt8(sz >> 8)
        put32(UInt32(mxFrame), &b, at: 16, bigEndian: false)
        put32(UInt32(pages.max() ?? 0), &b, at: 20, bigEndian: false)
        put32(frameChecksum.a, &b, at: 24, bigEndian: false)
        put32(frameChecksum.b, &b, at: 28, bigEndian: false)
        put32(wal.salt1, &b, at: 32)
        put32(wal.salt2, &b, at: 36)
        var sum = WALChecksum()
        sum.add(Array(b[0..<40]), bigEndianWords: false)
        put32(sum.a, &b, at: 40, bigEndian: false)
        put32(sum.b, &b, at: 44, bigEndian: false)
        for i in 0..<48 { b[48 + i] = b[i] }
        put32(nBackfill, &b, at: 96, bigEndian: false)
        put32(0, &b, at: 100, bigEndian: false)
        put32(UInt32(mxFrame), &b, at: 104, bigEndian: false)
        for i in 2..<5 { put32(0xFFFF_FFFF, &b, at: 100 + 4 * i, bigEndian: false) }
        put32(nBackfill, &b, at: 128, bigEndian: false)
        for (i, page) in pages.enumerated() { put32(page, &b, at: WALIndex.aPgnoOffset(ofFrame: i + 1), bigEndian: false) }
        return b
    }

    // MARK: - The reference

    /// walcheck's WAL reader before issue #7, over in-memory bytes: a page → last frame dictionary, the
    /// pending transaction's frames in an array, the whole -shm in memory.
    struct ReferenceScan: Equatable, CustomStringConvertible {
        var framesInFile = 0, partialFrameBytes = 0, validFrames = 0, mxFrame = 0, commits = 0
        var databasePages = 0, firstInvalidFrame: Int?, firstInvalidReason: String?, staleFrames = 0
        var staleGenerations = 0, ignoredCurrentFrames = 0, ignoredCommits = 0, checksumsVerifiedFrom: Int?
        var checksumCoverage = "none", recordedChecksum: WALChecksum?, walIndexPageMismatches = 0
        var lastPageOneFrame: Int?, distinctPages = 0, distinctPagesAfterSplit = 0
        var description: String { "\(framesInFile)/\(validFrames)/\(mxFrame) commits \(commits) pages \(distinctPages)/\(distinctPagesAfterSplit) invalid \(firstInvalidFrame.map(String.init) ?? "-") \(firstInvalidReason ?? "-") \(checksumCoverage) from \(checksumsVerifiedFrom.map(String.init) ?? "-") stale \(staleFrames)/\(staleGenerations) ignored \(ignoredCurrentFrames)/\(ignoredCommits) mismatches \(walIndexPageMismatches) p1 \(lastPageOneFrame.map(String.init) ?? "-")" }

        init(_ s: WALScan, split: Int) {
            (framesInFile, partialFrameBytes, validFrames, mxFrame, commits) = (s.framesInFile, s.partialFrameBytes, s.validFrames, s.mxFrame, s.commits)
            (databasePages, firstInvalidFrame, firstInvalidReason, staleFrames) = (s.databasePages, s.firstInvalidFrame, s.firstInvalidReason, s.staleFrames)
            (staleGenerations, ignoredCurrentFrames, ignoredCommits, checksumsVerifiedFrom) = (s.staleGenerations, s.ignoredCurrentFrames, s.ignoredCommits, s.checksumsVerifiedFrom)
            (checksumCoverage, recordedChecksum, walIndexPageMismatches) = (s.checksumCoverage, s.recordedChecksum, s.walIndexPageMismatches)
            lastPageOneFrame = s.lastPageOneFrame
            distinctPages = s.distinctPages
            distinctPagesAfterSplit = s.distinctPages(after: min(split, s.mxFrame)) ?? -1
        }
        init() {}

        static func scan(wal: [UInt8], policy: ChecksumPolicy, walIndex: WALIndex?, recordChecksumOf: Int?, split: Int) -> ReferenceScan {
            guard let header = WALHeader.parse(Array(wal.prefix(32))), header.valid else { return ReferenceScan() }
            var anchor: (frame: Int, checksum: WALChecksum)?
            if policy == .auto, let index = walIndex, index.mxFrame > 0 { anchor = (Int(index.mxFrame), index.frameChecksum) }
            if let r = once(wal: wal, header: header, policy: policy, anchor: anchor, walIndex: walIndex, recordChecksumOf: recordChecksumOf, split: split) { return r }
            return once(wal: wal, header: header, policy: .full, anchor: nil, walIndex: walIndex, recordChecksumOf: recordChecksumOf, split: split) ?? ReferenceScan()
        }

        static func once(wal: [UInt8], header: WALHeader, policy: ChecksumPolicy, anchor: (frame: Int, checksum: WALChecksum)?,
                         walIndex: WALIndex?, recordChecksumOf: Int?, split: Int) -> ReferenceScan? {
            var scan = ReferenceScan()
            let frameSize = header.pageSize + 24
            let body = max(0, wal.count - 32)
            let frames = body / frameSize
            scan.framesInFile = frames
            scan.partialFrameBytes = body % frameSize
            var running = header.checksum
            var verifying: Bool
            switch policy {
            case .full: verifying = true
            case .none: verifying = false
            case .auto: verifying = anchor == nil
            }
            if verifying { scan.checksumsVerifiedFrom = 1; scan.checksumCoverage = "full" }
            var inValidRun = true
            var pending: [(UInt32, UInt32)] = []
            var lastFrameByPage: [UInt32: UInt32] = [:]
            var staleSalts = Set<UInt32>()
            let indexMx = Int(walIndex?.mxFrame ?? 0)
            func be(_ o: Int) -> UInt32 { UInt32(wal[o]) << 24 | UInt32(wal[o + 1]) << 16 | UInt32(wal[o + 2]) << 8 | UInt32(wal[o + 3]) }
            for frame in stride(from: 1, through: frames, by: 1) {
                let at = 32 + (frame - 1) * frameSize
                let page = be(at), commitSize = be(at + 4), s1 = be(at + 8), s2 = be(at + 12)
                let stored = WALChecksum(be(at + 16), be(at + 20))
                if frame == recordChecksumOf { scan.recordedChecksum = stored }
                let currentSalts = s1 == header.salt1 && s2 == header.salt2
                if inValidRun {
                    var reason: String?
                    if !currentSalts { reason = "salt" } else if page == 0 { reason = "page0" }
                    if reason == nil && verifying {
                        wal.withUnsafeBytes { all in
                            running.add(UnsafeRawBufferPointer(rebasing: all[at..<(at + 8)]), bigEndianWords: header.bigEndianChecksums)
                            running.add(UnsafeRawBufferPointer(rebasing: all[(at + 24)..<(at + frameSize)]), bigEndianWords: header.bigEndianChecksums)
                        }
                        if running != stored { reason = "checksum" }
                    }
                    if reason == nil, !verifying, let anchor, frame == anchor.frame {
                        if stored != anchor.checksum { return nil }
                        running = stored
                        verifying = policy != .none
                        scan.checksumsVerifiedFrom = frame + 1
                        scan.checksumCoverage = "after-wal-index"
                    }
                    if let reason {
                        inValidRun = false
                        scan.firstInvalidFrame = frame
                        scan.firstInvalidReason = reason
                        if currentSalts { scan.ignoredCurrentFrames += 1; if commitSize != 0 { scan.ignoredCommits += 1 } }
                        else { scan.staleFrames += 1; staleSalts.insert(s1) }
                    } else {
                        scan.validFrames = frame
                        if frame <= indexMx, let expected = walIndex?.pageNumber(ofFrame: frame), expected != page {
                            scan.walIndexPageMismatches += 1
                        }
                        pending.append((page, UInt32(frame)))
                        if commitSize != 0 {
                            scan.mxFrame = frame
                            scan.commits += 1
                            scan.databasePages = Int(commitSize)
                            for (p, f) in pending {
                                lastFrameByPage[p] = f
                                if p == 1 { scan.lastPageOneFrame = Int(f) }
                            }
                            pending.removeAll()
                        }
                    }
                } else if currentSalts {
                    scan.ignoredCurrentFrames += 1
                    if commitSize != 0 { scan.ignoredCommits += 1 }
                } else {
                    scan.staleFrames += 1
                    if staleSalts.count < 10_000 { staleSalts.insert(s1) }
                }
            }
            if anchor != nil && scan.checksumCoverage == "none" && policy == .auto && scan.firstInvalidFrame == nil
                && scan.validFrames < (anchor?.frame ?? 0) { return nil }
            if anchor != nil && scan.checksumCoverage == "none" && policy == .auto, let bad = scan.firstInvalidFrame,
               bad <= (anchor?.frame ?? 0) { return nil }
            scan.staleGenerations = staleSalts.count
            scan.distinctPages = lastFrameByPage.count
            let after = min(split, scan.mxFrame)
            scan.distinctPagesAfterSplit = after <= 0 ? lastFrameByPage.count : lastFrameByPage.values.filter { Int($0) > after }.count
            return scan
        }
    }

    // MARK: - Random stores

    /// A random WAL (and maybe -shm) with the damage real ones show: torn tails, frames of older
    /// generations after the valid run, bad checksums, page 0, a stale or lying wal-index.
    struct Case {
        var wal: [UInt8]
        var shm: [UInt8]?
        var split: Int
        var label: String
    }

    static func randomCase<G: RandomNumberGenerator>(_ n: Int, using rng: inout G) -> Case {
        var w = SynthWAL(bigEndian: n % 7 == 3)
        let frames = [0, 1, 5, 40, 300, 700, 1100, 2100][n % 8]
        let pageMode = Int.random(in: 0..<4, using: &rng)
        func page() -> UInt32 {
            switch pageMode {
            case 0: return UInt32.random(in: 1...40, using: &rng)
            case 1: return UInt32.random(in: 1...300_000, using: &rng)
            case 2: return Bool.random(using: &rng) ? UInt32.random(in: 1...64, using: &rng) : UInt32.random(in: 1...UInt32.max, using: &rng)
            default: return [1, 2, 32767, 32768, 32769, 65536, UInt32.max, UInt32.max - 1, 4_000_000_000][Int.random(in: 0..<9, using: &rng)]
            }
        }
        let commitEvery = [1, 3, 50, 2000][Int.random(in: 0..<4, using: &rng)]
        let damageAt = Int.random(in: 0..<3, using: &rng) == 0 ? nil : Int.random(in: 1...max(1, frames), using: &rng)
        let damage = Int.random(in: 0..<4, using: &rng)
        var pages: [UInt32] = []
        var lastCommit = 0
        for f in 1...max(1, frames) where frames > 0 {
            var p = page()
            var salts: (UInt32, UInt32)?
            var broken = false
            if let d = damageAt, f >= d {
                if f == d {
                    switch damage {
                    case 0: salts = (w.salt1 &- 1, w.salt2)        // an older generation from here on
                    case 1: p = 0
                    case 2: broken = true
                    default: break                                // undamaged (the tail is still varied)
                    }
                } else if Int.random(in: 0..<3, using: &rng) == 0 {
                    salts = (w.salt1 &- UInt32.random(in: 1...3, using: &rng), w.salt2)
                }
            }
            let commit: UInt32 = f % commitEvery == 0 || Int.random(in: 0..<20, using: &rng) == 0 ? UInt32.random(in: 1...1_000_000, using: &rng) : 0
            if commit != 0 && damageAt.map({ f < $0 }) ?? true { lastCommit = f }
            w.append(page: p, commit: commit, salts: salts, breakChecksum: broken, fill: UInt8(truncatingIfNeeded: f))
            pages.append(p)
        }
        var wal = w.bytes
        if Int.random(in: 0..<4, using: &rng) == 0 && wal.count > 32 { wal.removeLast(Int.random(in: 1...min(wal.count - 32, 3000), using: &rng)) }
        var shm: [UInt8]?
        var split = 0
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: shm = nil
        case 1, 2:
            // Current: mxFrame at the last commit before any damage.
            let mx = lastCommit
            split = mx == 0 ? 0 : Int.random(in: 0...mx, using: &rng)
            shm = makeShm(w, mxFrame: mx, frameChecksum: mx > 0 ? w.stored[mx - 1] : WALChecksum(), pages: Array(pages.prefix(mx)), nBackfill: UInt32(split))
        case 3:
            // Stale: an earlier commit, some aPgno entries wrong.
            let mx = lastCommit / 2
            var p = Array(pages.prefix(mx))
            if !p.isEmpty { p[Int.random(in: 0..<p.count, using: &rng)] &+= 1 }
            split = Int.random(in: 0...max(0, mx), using: &rng)
            shm = makeShm(w, mxFrame: mx, frameChecksum: mx > 0 ? w.stored[mx - 1] : WALChecksum(), pages: p, nBackfill: UInt32(split))
        case 4:
            // Lying: the anchor checksum does not match (the reader must verify from the start).
            let mx = max(1, lastCommit)
            split = Int.random(in: 0...mx, using: &rng)
            shm = makeShm(w, mxFrame: mx, frameChecksum: WALChecksum(1, 2), pages: Array(pages.prefix(mx)), nBackfill: UInt32(split))
        default:
            // mxFrame beyond the WAL.
            let mx = frames + 10
            split = Int.random(in: 0...mx, using: &rng)
            shm = makeShm(w, mxFrame: mx, frameChecksum: WALChecksum(3, 4), pages: pages, nBackfill: UInt32(split))
        }
        return Case(wal: wal, shm: shm, split: split, label: "case \(n): \(frames) frames, pages mode \(pageMode), commit every \(commitEvery), damage \(damageAt.map { "\(damage)@\($0)" } ?? "none"), shm \(shm.map { "\($0.count) bytes" } ?? "none"), split \(split)")
    }

    /// Reader configurations whose results must not differ: threads, chunk sizes and bitmap budgets.
    static let configurations: [(String, WALReader)] = {
        var plain = WALReader()
        plain.threads = 1
        var threaded = WALReader()
        threaded.threads = 3
        threaded.parallelHeaderFrames = 0
        threaded.parallelChunkBytes = 0
        threaded.chunkBytes = 7 * 536
        var tight = WALReader()
        tight.threads = 2
        tight.parallelHeaderFrames = 0
        tight.parallelChunkBytes = 0
        tight.pageChunkBudget = 1
        tight.chunkBytes = 1
        return [("default", WALReader()), ("one thread", plain), ("three threads", threaded), ("budget 1", tight)]
    }()

    @Test func randomStoresMatchTheReferenceReader() throws {
        let tmp = TempDir("bounded")
        var rng = SystemRandomNumberGenerator()
        for n in 0..<80 {
            let c = Self.randomCase(n, using: &rng)
            let walPath = tmp.path + "/w\(n)", shmPath = tmp.path + "/s\(n)"
            writeBytes(walPath, c.wal)
            let file = try ReadOnlyFile(path: walPath)
            guard let header = WALHeader.parse(try file.read(at: 0, count: 32)), header.valid else { continue }
            var index: WALIndex?, indexFile: ReadOnlyFile?, memoryIndex: WALIndex?
            if let shm = c.shm {
                writeBytes(shmPath, shm)
                let f = try ReadOnlyFile(path: shmPath)
                index = try WALIndex.read(file: f, path: shmPath)
                indexFile = f
                memoryIndex = WALIndex.parse(bytes: shm)
                #expect(index?.headerValid == true && index?.mxFrame == memoryIndex?.mxFrame, "\(c.label)")
            }
            let record = index.map { Int($0.mxFrame) }
            for policy in ChecksumPolicy.allCases {
                let expected = ReferenceScan.scan(wal: c.wal, policy: policy, walIndex: memoryIndex, recordChecksumOf: record, split: c.split)
                for (name, reader) in Self.configurations {
                    let scan = try reader.scan(file: file, header: header, policy: policy, walIndex: index, recordChecksumOf: record,
                                               walIndexFile: indexFile, pendingPagesAfter: c.split)
                    let got = ReferenceScan(scan, split: c.split)
                    #expect(got == expected, "\(c.label), \(policy), \(name):\n  got      \(got)\n  expected \(expected)")
                }
                // The in-memory wal-index (no file) gives the same.
                let inMemory = try WALReader().scan(file: file, header: header, policy: policy, walIndex: memoryIndex,
                                                    recordChecksumOf: record, pendingPagesAfter: c.split)
                #expect(ReferenceScan(inMemory, split: c.split) == expected, "\(c.label), \(policy), in-memory wal-index")
            }
        }
    }

    /// Page numbers scattered over the whole 32-bit range with a budget of one bitmap chunk: the count
    /// takes one extra pass over the committed frames' headers per chunk, and stays exact.
    @Test func scatteredPageNumbersStayExactWithinTheBudget() throws {
        let tmp = TempDir("scatter")
        var w = SynthWAL()
        var expected = Set<UInt32>(), expectedAfter = Set<UInt32>()
        let split = 150
        for f in 1...405 {
            let page = f % 3 == 0 ? UInt32(f % 17 + 1) : UInt32.max - UInt32(f % 9) * 40_000 - UInt32(f % 4) * 32_768
            w.append(page: page, commit: f % 10 == 0 ? 99 : 0)
            if f <= 400 { expected.insert(page); if f > split { expectedAfter.insert(page) } } // 401…405: never committed
        }
        writeBytes(tmp.path + "/w", w.bytes)
        let file = try ReadOnlyFile(path: tmp.path + "/w")
        let header = try #require(WALHeader.parse(try file.read(at: 0, count: 32)))
        for budget in [1, 2, 3, 512] {
            var reader = WALReader()
            reader.pageChunkBudget = budget
            let s = try reader.scan(file: file, header: header, policy: .full, walIndex: nil, recordChecksumOf: nil, pendingPagesAfter: split)
            #expect(s.mxFrame == 400 && s.validFrames == 405)
            #expect(s.distinctPages == expected.count, "budget \(budget)")
            #expect(s.distinctPages(after: split) == expectedAfter.count, "budget \(budget)")
            #expect(s.distinctPages(after: 0) == s.distinctPages && s.distinctPages(after: 400) == 0)
        }
    }

    /// DistinctPages on its own against a Set, including the open transaction that never commits.
    @Test func distinctPagesMatchesASet() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<64 {
            let split = Int.random(in: 0...300, using: &rng)
            var counter = DistinctPages(splitFrame: split, maxChunks: [1, 2, 4, 512][round % 4])
            var committed = Set<UInt32>(), committedAfter = Set<UInt32>(), open: [(UInt32, Int)] = []
            var log: [(UInt32, Int, Bool)] = []
            for frame in 1...Int.random(in: 1...600, using: &rng) {
                let page = round % 2 == 0 ? UInt32.random(in: 0...100_000, using: &rng) : UInt32.random(in: 0...UInt32.max, using: &rng)
                let commit = Int.random(in: 0..<8, using: &rng) == 0
                counter.add(page: page, frame: frame)
                open.append((page, frame))
                if commit {
                    counter.commit()
                    for (p, f) in open { committed.insert(p); if f > split { committedAfter.insert(p) } }
                    open = []
                }
                log.append((page, frame, commit))
            }
            let lastCommit = log.last { $0.2 }?.1 ?? 0
            counter.countDeferred(passEntries: [2, 3, 16, 1 << 19][(round / 4) % 4]) { visit in
                for (p, f, _) in log where f <= lastCommit { visit(p, f) }
            }
            #expect(counter.pages == committed.count, "round \(round)")
            #expect(counter.pagesAfterSplit == committedAfter.count, "round \(round)")
        }
    }

    /// aPgno streamed from the file equals the in-memory entries, across blocks and at a truncated end;
    /// a header of zeros is "zero-filled" only when the whole file is.
    @Test func walIndexStreamsItsPageNumbers() throws {
        let tmp = TempDir("apgno")
        let w = SynthWAL()
        let pages = (0..<9000).map { UInt32($0 &* 2_654_435_761 % 1_000_003) }
        let shm = Self.makeShm(w, mxFrame: 9000, frameChecksum: WALChecksum(), pages: pages)
        for length in [shm.count, 68_002, 40_000, 32_770, 200, 137] {
            let bytes = Array(shm.prefix(length))
            writeBytes(tmp.path + "/s", bytes)
            let file = try ReadOnlyFile(path: tmp.path + "/s")
            let index = try WALIndex.read(file: file, path: tmp.path + "/s")
            let memory = WALIndex.parse(bytes: bytes)
            var stream = WALIndex.PageNumbers(index: index, file: file)
            for frame in [0, 1, 2, 4061, 4062, 4063, 8157, 8158, 8159, 9000, 9001, 20000] + Array(1...9000).shuffled().prefix(300) {
                #expect(try stream.pageNumber(ofFrame: frame) == memory.pageNumber(ofFrame: frame), "length \(length), frame \(frame)")
            }
            #expect(index.headerValid && index.bytes == Int64(bytes.count))
        }
        // Zeros: all of it, or all but one byte far past the header.
        for (label, bytes) in [("zeros", [UInt8](repeating: 0, count: 200_000)), ("late byte", [UInt8](repeating: 0, count: 199_999) + [1])] {
            writeBytes(tmp.path + "/z", bytes)
            let index = try WALIndex.read(path: tmp.path + "/z")
            #expect(index.problem == WALIndex.parse(bytes: bytes).problem, "\(label)")
            #expect(index.problem?.contains("zero-filled") == (label == "zeros"), "\(label)")
        }
    }

    /// Through the whole inspection: a WAL large enough for the threaded header reader (default
    /// thresholds), with a current wal-index and a partial checkpoint; the folder stays unchanged.
    @Test func largeSyntheticStoreThroughTheInspector() throws {
        let tmp = TempDir("large")
        let dir = tmp.sub("s")
        var w = SynthWAL()
        var pages: [UInt32] = []
        for f in 1...40_000 {
            let page = UInt32(f % 5 == 0 ? 1 : f % 12_000 + 2)
            w.append(page: page, commit: f % 100 == 0 ? 12_001 : 0)
            pages.append(page)
        }
        let nBackfill = 23_500
        // A database file: a SQLite header with page size 512 and 12,001 pages.
        var db = [UInt8](repeating: 0, count: 512)
        for (i, c) in "SQLite format 3\0".utf8.enumerated() { db[i] = c }
        db[16] = 2; db[17] = 0; db[18] = 2; db[19] = 2; db[21] = 64; db[22] = 32; db[23] = 32
        Self.put32(1, &db, at: 24); Self.put32(12_001, &db, at: 28); Self.put32(4, &db, at: 44); Self.put32(1, &db, at: 56); Self.put32(1, &db, at: 92); Self.put32(3_045_000, &db, at: 96)
        writeBytes(dir + "/big.sqlite", db)
        writeBytes(dir + "/big.sqlite-wal", w.bytes)
        writeBytes(dir + "/big.sqlite-shm", Self.makeShm(w, mxFrame: 40_000, frameChecksum: w.stored[39_999], pages: pages, nBackfill: UInt32(nBackfill)))
        for policy in ChecksumPolicy.allCases {
            let r = try inspectUnchanged(dir + "/big.sqlite", options: InspectionOptions(checksums: policy, runSQL: false))
            // At rest (no process has the -shm open) auto verifies the whole chain, as SQLite's recovery does.
            let expected = ReferenceScan.scan(wal: w.bytes, policy: policy == .auto ? .full : policy, walIndex: WALIndex.parse(bytes: readBytes(dir + "/big.sqlite-shm")),
                                              recordChecksumOf: 40_000, split: nBackfill)
            let s = try #require(r.wal.scan)
            #expect(ReferenceScan(s, split: nBackfill) == expected, "\(policy)")
            #expect(r.walIndex.state == "current", "\(policy)")
            #expect(r.checkpoint.progress == "partial")
            #expect(r.checkpoint.pendingFrames == 40_000 - nBackfill)
            #expect(r.checkpoint.pendingPages == expected.distinctPagesAfterSplit)
            #expect(s.distinctPages == 1 + 12_000 * 4 / 5) // page 1, and f % 12,000 + 2 for f not a multiple of 5
        }
    }
}
