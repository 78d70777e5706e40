import CDLogCore

/// The 32-byte WAL header (reference §2.1).
public struct WALHeader: Sendable, Equatable {
    public static let size = 32
    public static let formatVersion: UInt32 = 3_007_000
    public let magic: UInt32
    public let formatVersion: UInt32
    public let pageSize: Int
    public let checkpointSequence: UInt32
    public let salt1: UInt32
    public let salt2: UInt32
    public let checksum: WALChecksum
    public let checksumValid: Bool
    /// Bit 0 of the magic: checksums over big-endian words.
    public var bigEndianChecksums: Bool { magic & 1 == 1 }
    public var magicValid: Bool { magic & ~1 == 0x377F_0682 }
    public var pageSizeValid: Bool { pageSize >= 512 && pageSize <= 65536 && pageSize & (pageSize - 1) == 0 }
    /// SQLite uses the WAL only when magic, page size, header checksum and version are all right.
    public var valid: Bool { magicValid && pageSizeValid && checksumValid && formatVersion == WALHeader.formatVersion }
    /// Why SQLite would ignore this WAL (nil when valid).
    public var problem: String? {
        if !magicValid { return "bad magic 0x\(String(magic, radix: 16))" }
        if !pageSizeValid { return "invalid page size \(pageSize)" }
        if !checksumValid { return "header checksum mismatch" }
        if formatVersion != WALHeader.formatVersion { return "unknown format version \(formatVersion)" }
        return nil
    }

    /// Parses 32 bytes (fewer → nil).
    public static func parse(_ bytes: [UInt8]) -> WALHeader? {
        guard bytes.count >= size else { return nil }
        let b = Bytes(bytes)
        let magic = b.be32(0)
        var sum = WALChecksum()
        sum.add(b.slice(0, 24), bigEndianWords: magic & 1 == 1)
        let stored = WALChecksum(b.be32(24), b.be32(28))
        return WALHeader(magic: magic, formatVersion: b.be32(4), pageSize: Int(b.be32(8)),
                         checkpointSequence: b.be32(12), salt1: b.be32(16), salt2: b.be32(20),
                         checksum: stored, checksumValid: sum == stored)
    }
}

/// How much of the WAL's checksum chain to verify.
public enum ChecksumPolicy: String, Sendable, CaseIterable {
    /// Trust frames up to the wal-index's `mxFrame` when the wal-index is valid, carries the WAL's salts
    /// and its `aFrameCksum` equals that frame's stored checksum (SQLite itself wrote them); verify the
    /// chain from there on. Without such an anchor, verify the whole chain (what SQLite's recovery does).
    case auto
    /// Verify every frame from the header (streams the whole file once).
    case full
    /// Verify nothing: frames count as valid on salts and page number alone (frame headers only).
    case none
}

/// The result of scanning a WAL's frames (reference §2.4).
public struct WALScan: Sendable {
    public var framesInFile = 0
    /// Bytes after the last complete frame (a torn, partial frame).
    public var partialFrameBytes = 0
    /// Valid frames from frame 1 up to the first invalid one (committed or not).
    public var validFrames = 0
    /// SQLite's mxFrame: the last valid commit frame.
    public var mxFrame = 0
    /// Commit frames among 1…mxFrame.
    public var commits = 0
    /// Distinct pages among 1…mxFrame.
    public var distinctPages: Int { lastFrameByPage.count }
    /// The database size in pages after the last valid commit (0 when there is none).
    public var databasePages = 0
    /// The first frame that is not valid, and why ("salt", "page0", "checksum"); nil when all are valid.
    public var firstInvalidFrame: Int?
    public var firstInvalidReason: String?
    /// Frames after the valid run whose salts belong to earlier WAL generations.
    public var staleFrames = 0
    /// Distinct salt-1 values among `staleFrames`.
    public var staleGenerations = 0
    /// Frames after the valid run that carry the current salts (torn or corrupt, ignored by SQLite).
    public var ignoredCurrentFrames = 0
    /// Commit frames with current salts after the first invalid frame: commits SQLite will not see.
    public var ignoredCommits = 0
    /// The first frame whose checksum was verified through the chain (1 = all; nil = none verified).
    public var checksumsVerifiedFrom: Int?
    /// "full", "after-wal-index" or "none".
    public var checksumCoverage = "none"
    /// The stored checksum of each frame asked for in `recordChecksumOf`.
    public var recordedChecksum: WALChecksum?
    /// Frames ≤ wal-index mxFrame whose page number differs from the wal-index's aPgno entry.
    public var walIndexPageMismatches = 0
    /// The last frame ≤ mxFrame holding page 1, if any.
    public var lastPageOneFrame: Int?
    /// Bytes the file was read for this scan.
    public var bytesRead: Int64 = 0
    /// page → last frame (≤ mxFrame) that wrote it.
    public var lastFrameByPage: [UInt32: UInt32] = [:]

    /// Distinct pages whose newest image is in a frame after `frame` (what a checkpoint from
    /// nBackfill = `frame` must copy).
    public func distinctPages(after frame: Int) -> Int {
        if frame <= 0 { return lastFrameByPage.count }
        return lastFrameByPage.values.reduce(0) { $0 + (Int($1) > frame ? 1 : 0) }
    }
}

/// Reads a WAL file: header, then frames with the salt and checksum chain, streaming with a fixed
/// buffer (at most `chunkBytes` plus one frame in memory, whatever the file size).
///
/// Contract: never throws for bad content (it is reported in `WALScan`); throws `ToolFailure` only on
/// I/O errors. Frame-header-only regions are read with one 24-byte `pread` per frame, so the summary
/// of a multi-GB WAL does not read page images unless checksums must be verified.
public struct WALReader {
    public static let frameHeaderSize = 24
    public var chunkBytes = 8 << 20

    public init() {}

    /// Scans `file` whose header is `header` (must be `valid`).
    /// - walIndex: used for the checksum anchor (policy `.auto`) and the aPgno comparison; pass it only
    ///   when its header is valid and its salts equal the WAL's.
    /// - recordChecksumOf: a frame whose stored checksum should be returned (the wal-index mxFrame).
    public func scan(file: ReadOnlyFile, header: WALHeader, policy: ChecksumPolicy, walIndex: WALIndex?,
                     recordChecksumOf: Int?) throws -> WALScan {
        var anchor: (frame: Int, checksum: WALChecksum)?
        if policy == .auto, let index = walIndex, index.mxFrame > 0 {
            anchor = (Int(index.mxFrame), index.frameChecksum)
        }
        var result = try scanOnce(file: file, header: header, policy: policy, anchor: anchor,
                                  walIndex: walIndex, recordChecksumOf: recordChecksumOf)
        if result == nil {
            // The anchor frame's checksum disagreed with the wal-index: verify everything.
            result = try scanOnce(file: file, header: header, policy: .full, anchor: nil,
                                  walIndex: walIndex, recordChecksumOf: recordChecksumOf)
        }
        return result ?? WALScan()
    }

    /// Returns nil when an anchor was given and turned out not to match.
    private func scanOnce(file: ReadOnlyFile, header: WALHeader, policy: ChecksumPolicy,
                          anchor: (frame: Int, checksum: WALChecksum)?, walIndex: WALIndex?,
                          recordChecksumOf: Int?) throws -> WALScan? {
        var scan = WALScan()
        let pageSize = header.pageSize
        let frameSize = pageSize + WALReader.frameHeaderSize
        let body = max(0, file.size - Int64(WALHeader.size))
        let frames = Int(body / Int64(frameSize))
        scan.framesInFile = frames
        scan.partialFrameBytes = Int(body % Int64(frameSize))
        let bigEndian = header.bigEndianChecksums
        let framesPerChunk = max(1, min(chunkBytes / frameSize, frames))
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: framesPerChunk * frameSize, alignment: 16)
        defer { chunk.deallocate() }
        let small = UnsafeMutableRawBufferPointer.allocate(byteCount: WALReader.frameHeaderSize, alignment: 16)
        defer { small.deallocate() }
        var chunkFirst = 0, chunkCount = 0 // frames [chunkFirst, chunkFirst + chunkCount) are in `chunk`

        var running = header.checksum
        var verifying: Bool
        switch policy {
        case .full: verifying = true
        case .none: verifying = false
        case .auto: verifying = anchor == nil
        }
        if verifying { scan.checksumsVerifiedFrom = 1; scan.checksumCoverage = "full" }
        var inValidRun = true
        var pendingTransaction: [(UInt32, UInt32)] = [] // (page, frame) since the last commit
        var staleSalts = Set<UInt32>()
        let indexMx = Int(walIndex?.mxFrame ?? 0)

        var frame = 1
        while frame <= frames {
            let needBody = inValidRun && verifying
            let frameHeader: UnsafeRawBufferPointer
            let offset = Int64(WALHeader.size) + Int64(frame - 1) * Int64(frameSize)
            if frame >= chunkFirst && frame < chunkFirst + chunkCount {
                let start = (frame - chunkFirst) * frameSize
                frameHeader = UnsafeRawBufferPointer(rebasing: chunk[start..<(start + frameSize)])
            } else if needBody {
                let count = min(framesPerChunk, frames - frame + 1)
                let got = try file.read(into: chunk, at: offset, count: count * frameSize)
                scan.bytesRead += Int64(got)
                chunkFirst = frame
                chunkCount = got / frameSize
                if chunkCount == 0 { break } // the file shrank while we read it
                frameHeader = UnsafeRawBufferPointer(rebasing: chunk[0..<frameSize])
            } else {
                let got = try file.read(into: small, at: offset, count: WALReader.frameHeaderSize)
                scan.bytesRead += Int64(got)
                if got < WALReader.frameHeaderSize { break }
                frameHeader = UnsafeRawBufferPointer(small)
            }
            let page = be32(frameHeader, 0)
            let commitSize = be32(frameHeader, 4)
            let s1 = be32(frameHeader, 8), s2 = be32(frameHeader, 12)
            let stored = WALChecksum(be32(frameHeader, 16), be32(frameHeader, 20))
            if frame == recordChecksumOf { scan.recordedChecksum = stored }
            let currentSalts = s1 == header.salt1 && s2 == header.salt2

            if inValidRun {
                var reason: String?
                if !currentSalts { reason = "salt" } else if page == 0 { reason = "page0" }
                if reason == nil && verifying {
                    running.add(UnsafeRawBufferPointer(rebasing: frameHeader[0..<8]), bigEndianWords: bigEndian)
                    running.add(UnsafeRawBufferPointer(rebasing: frameHeader[24..<frameSize]), bigEndianWords: bigEndian)
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
                    pendingTransaction.append((page, UInt32(truncatingIfNeeded: frame)))
                    if commitSize != 0 {
                        scan.mxFrame = frame
                        scan.commits += 1
                        scan.databasePages = Int(commitSize)
                        for (p, f) in pendingTransaction {
                            scan.lastFrameByPage[p] = f
                            if p == 1 { scan.lastPageOneFrame = Int(f) }
                        }
                        pendingTransaction.removeAll(keepingCapacity: true)
                    }
                }
            } else if currentSalts {
                scan.ignoredCurrentFrames += 1
                if commitSize != 0 { scan.ignoredCommits += 1 }
            } else {
                scan.staleFrames += 1
                if staleSalts.count < 10_000 { staleSalts.insert(s1) }
            }
            frame += 1
        }
        if anchor != nil && scan.checksumCoverage == "none" && policy == .auto && scan.firstInvalidFrame == nil
            && scan.validFrames < (anchor?.frame ?? 0) {
            // The anchor frame was never reached (the WAL is shorter than the wal-index says).
            return nil
        }
        if anchor != nil && scan.checksumCoverage == "none" && policy == .auto, let bad = scan.firstInvalidFrame,
           bad <= (anchor?.frame ?? 0) {
            // A frame before the anchor failed on salts or page number: the wal-index does not describe
            // this WAL; verify the chain from the header instead of trusting it.
            return nil
        }
        scan.staleGenerations = staleSalts.count
        return scan
    }

    /// Reads the first `count` bytes of the page image in `frame`.
    public func pageImagePrefix(file: ReadOnlyFile, header: WALHeader, frame: Int, count: Int) throws -> [UInt8] {
        let frameSize = Int64(header.pageSize + WALReader.frameHeaderSize)
        let offset = Int64(WALHeader.size) + Int64(frame - 1) * frameSize + Int64(WALReader.frameHeaderSize)
        return try file.read(at: offset, count: min(count, header.pageSize))
    }
}
