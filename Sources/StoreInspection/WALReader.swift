#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore

/// Reads a WAL file: header, then frames with the salt and checksum chain, streaming with fixed buffers
/// (a few of `chunkBytes` and of 24 KiB header batches, whatever the file size).
///
/// Contract: never throws for bad content (it is reported in `WALScan`); throws `ToolFailure` only on
/// I/O errors. Frame-header-only regions are read with one 24-byte `pread` per frame (on large regions
/// from several threads: `threads`, `ReadAhead`), so the summary of a multi-GB WAL does not read page images
/// unless checksums must be verified. Memory does not grow with the WAL: no per-frame storage; distinct
/// pages are counted in bitmaps bounded by the page-number range (`DistinctPages`), and the wal-index's
/// aPgno entries are streamed a block at a time.
public struct WALReader: Sendable {
    public static let frameHeaderSize = 24
    /// Bytes per read of whole frames (checksum verification): `ReadAhead.depth` such buffers with a
    /// read-ahead thread, one without.
    public var chunkBytes = 256 << 10
    /// Threads reading in stretches of at least `parallelHeaderFrames` frame headers or
    /// `parallelChunkBytes` bytes of whole frames (nil: one per online CPU, at most 4, for headers; two
    /// for whole frames — one reads ahead while this one computes checksums).
    public var threads: Int?
    public var parallelHeaderFrames = 16_384
    public var parallelChunkBytes = 32 << 20
    /// How many 32,768-page chunks of page-number bitmaps (16 KiB each) the distinct-page count may hold
    /// during the scan (8 MiB: 16 M pages, 64 GiB of 4 KiB pages). Pages beyond are counted afterwards
    /// by re-reading the committed frames' headers (`DistinctPages`), so the figures do not depend on it.
    public var pageChunkBudget = 512

    public init() {}

    /// Scans `file` whose header is `header` (must be `valid`).
    /// - walIndex: used for the checksum anchor (policy `.auto`) and the aPgno comparison; pass it only
    ///   when its header is valid and its salts equal the WAL's.
    /// - recordChecksumOf: a frame whose stored checksum should be returned (the wal-index mxFrame).
    /// - walIndexFile: the open file `walIndex` was read from, for its aPgno entries (nil: the index's
    ///   in-memory bytes, as `WALIndex.parse(bytes:)` keeps them).
    /// - pendingPagesAfter: also count the distinct pages written after this frame (nBackfill):
    ///   `distinctPages(after:)`.
    public func scan(file: ReadOnlyFile, header: WALHeader, policy: ChecksumPolicy, walIndex: WALIndex?,
                     recordChecksumOf: Int?, walIndexFile: ReadOnlyFile? = nil,
                     pendingPagesAfter: Int? = nil) throws -> WALScan {
        var anchor: (frame: Int, checksum: WALChecksum)?
        if policy == .auto, let index = walIndex, index.mxFrame > 0 {
            anchor = (Int(index.mxFrame), index.frameChecksum)
        }
        var result = try scanOnce(file: file, header: header, policy: policy, anchor: anchor, walIndex: walIndex,
                                  walIndexFile: walIndexFile, recordChecksumOf: recordChecksumOf,
                                  split: pendingPagesAfter ?? 0)
        if result == nil {
            // The anchor frame's checksum disagreed with the wal-index: verify everything.
            result = try scanOnce(file: file, header: header, policy: .full, anchor: nil, walIndex: walIndex,
                                  walIndexFile: walIndexFile, recordChecksumOf: recordChecksumOf,
                                  split: pendingPagesAfter ?? 0)
        }
        return result ?? WALScan()
    }

    /// Threads for a header-only stretch of `frames` frames.
    private func threads(forHeaders frames: Int) -> Int {
        guard frames >= parallelHeaderFrames else { return 1 }
        if let threads { return max(1, threads) }
        return max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Threads for a stretch of `bytes` bytes of whole frames.
    private func threads(forFrames bytes: Int64) -> Int {
        guard bytes >= Int64(parallelChunkBytes) else { return 1 }
        if let threads { return max(1, threads) }
        return sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? 2 : 1
    }

    /// Returns nil when an anchor was given and turned out not to match.
    private func scanOnce(file: ReadOnlyFile, header: WALHeader, policy: ChecksumPolicy,
                          anchor: (frame: Int, checksum: WALChecksum)?, walIndex: WALIndex?,
                          walIndexFile: ReadOnlyFile?, recordChecksumOf: Int?, split: Int) throws -> WALScan? {
        var scan = WALScan()
        let pageSize = header.pageSize
        let frameSize = pageSize + WALReader.frameHeaderSize
        let body = max(0, file.size - Int64(WALHeader.size))
        let frames = Int(body / Int64(frameSize))
        scan.framesInFile = frames
        scan.partialFrameBytes = Int(body % Int64(frameSize))
        let bigEndian = header.bigEndianChecksums
        let framesPerChunk = max(1, min(chunkBytes / frameSize, frames))

        var running = header.checksum
        var verifying: Bool
        switch policy {
        case .full: verifying = true
        case .none: verifying = false
        case .auto: verifying = anchor == nil
        }
        if verifying { scan.checksumsVerifiedFrom = 1; scan.checksumCoverage = "full" }
        var inValidRun = true
        var pages = DistinctPages(splitFrame: split, maxChunks: pageChunkBudget)
        var pageOneFrame: Int? // the last frame holding page 1 since the last commit
        var staleSalts = Set<UInt32>()
        let indexMx = Int(walIndex?.mxFrame ?? 0)
        var aPgno = walIndex.map { WALIndex.PageNumbers(index: $0, file: walIndexFile) }
        var anchorMismatch = false
        var zeroTail = false

        /// Processes `frame` from its header (and, when verifying, its page image `frameBytes`).
        func process(_ frame: Int, _ frameBytes: UnsafeRawBufferPointer) throws {
            let page = be32(frameBytes, 0)
            let commitSize = be32(frameBytes, 4)
            let s1 = be32(frameBytes, 8), s2 = be32(frameBytes, 12)
            let stored = WALChecksum(be32(frameBytes, 16), be32(frameBytes, 20))
            if frame == recordChecksumOf { scan.recordedChecksum = stored }
            let currentSalts = s1 == header.salt1 && s2 == header.salt2
            if page == 0 && commitSize == 0 && s1 == 0 && s2 == 0 && stored == WALChecksum(0, 0) && !currentSalts {
                // Never written. Ends the valid run as an invalid frame would, and the scan.
                if inValidRun { inValidRun = false; scan.firstInvalidFrame = frame; scan.firstInvalidReason = "zero" }
                scan.zeroTailFrame = frame
                scan.zeroTailBytes = file.size - Int64(WALHeader.size) - Int64(frame - 1) * Int64(frameSize)
                scan.partialFrameBytes = 0 // part of the zero tail
                zeroTail = true
                return
            }

            if inValidRun {
                var reason: String?
                if !currentSalts { reason = "salt" } else if page == 0 { reason = "page0" }
                if reason == nil && verifying {
                    running.add(UnsafeRawBufferPointer(rebasing: frameBytes[0..<8]), bigEndianWords: bigEndian)
                    running.add(UnsafeRawBufferPointer(rebasing: frameBytes[24..<frameSize]), bigEndianWords: bigEndian)
                    if running != stored { reason = "checksum" }
                }
                if reason == nil, !verifying, let anchor, frame == anchor.frame {
                    if stored != anchor.checksum { anchorMismatch = true; return }
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
                    if frame <= indexMx, let expected = try aPgno?.pageNumber(ofFrame: frame), expected != page {
                        scan.walIndexPageMismatches += 1
                    }
                    pages.add(page: page, frame: frame)
                    if page == 1 { pageOneFrame = frame }
                    if commitSize != 0 {
                        scan.mxFrame = frame
                        scan.commits += 1
                        scan.databasePages = Int(commitSize)
                        pages.commit()
                        if let f = pageOneFrame { scan.lastPageOneFrame = f; pageOneFrame = nil }
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

        var frame = 1
        scanning: while frame <= frames {
            if inValidRun && verifying {
                // Page images needed: whole frames, a chunk per read, read ahead on large stretches.
                let stream = ReadAhead.frames(file: file, frameSize: frameSize, first: frame, last: frames,
                                              perChunk: framesPerChunk,
                                              threads: threads(forFrames: Int64(frames - frame + 1) * Int64(frameSize)))
                defer { stream.finish() }
                var leftRun = false
                chunks: while let batch = try stream.next() {
                    for i in 0..<batch.count {
                        // After an invalid frame the rest of the chunk is still used from memory.
                        try process(frame, UnsafeRawBufferPointer(rebasing: batch.buffer[(i * frameSize)..<((i + 1) * frameSize)]))
                        if anchorMismatch { return nil }
                        if zeroTail { break chunks }
                        frame += 1
                    }
                    if !inValidRun { leftRun = true; break chunks } // frame headers only from here on
                }
                scan.bytesRead += stream.bytesRead
                if zeroTail { break scanning }
                if stream.truncated && !leftRun { break scanning } // the file shrank while we read it
                continue
            }
            // Frame headers only, up to the anchor frame (page images are needed after it) or the end.
            var last = frames
            if inValidRun, policy != .none, let anchor, frame <= anchor.frame { last = min(frames, anchor.frame) }
            let stream = ReadAhead.frameHeaders(file: file, frameSize: frameSize, first: frame, last: last,
                                                threads: threads(forHeaders: last - frame + 1))
            defer { stream.finish() }
            let size = WALReader.frameHeaderSize
            var switched = false
            headers: while let batch = try stream.next() {
                for i in 0..<batch.count {
                    try process(frame, UnsafeRawBufferPointer(rebasing: batch.buffer[(i * size)..<((i + 1) * size)]))
                    if anchorMismatch { return nil }
                    if zeroTail { break headers }
                    frame += 1
                    // Verification starts after the anchor, which ends the stretch; should it start
                    // earlier, the loop above goes on with whole frames.
                    if inValidRun && verifying && frame <= last { switched = true; break headers }
                }
            }
            scan.bytesRead += stream.bytesRead
            if zeroTail { break scanning }
            if stream.truncated && !switched { break scanning } // the file shrank while we read it
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
        // Pages of chunks beyond the bitmap budget (scattered page numbers): count them from the
        // committed frames' headers, budget-many chunks per pass.
        let committed = scan.mxFrame
        try pages.countDeferred { visit in
            let stream = ReadAhead.frameHeaders(file: file, frameSize: frameSize, first: 1, last: committed,
                                                threads: threads(forHeaders: committed))
            defer { stream.finish() }
            while let batch = try stream.next() {
                let firstFrame = 1 + batch.index * ReadAhead.headerBatch
                for i in 0..<batch.count { visit(be32(batch.buffer, i * WALReader.frameHeaderSize), firstFrame + i) }
            }
            scan.bytesRead += stream.bytesRead
        }
        scan.distinctPages = pages.pages
        scan.splitFrame = max(0, split)
        scan.distinctPagesAfterSplit = pages.pagesAfterSplit
        if scan.mxFrame > 0 {
            let beyond = pages.pagesAbove(UInt32(truncatingIfNeeded: scan.databasePages))
            scan.distinctPagesBeyondEnd = beyond.all
            scan.distinctPagesAfterSplitBeyondEnd = beyond.afterSplit
        }
        return scan
    }

    /// Reads the first `count` bytes of the page image in `frame`.
    public func pageImagePrefix(file: ReadOnlyFile, header: WALHeader, frame: Int, count: Int) throws -> [UInt8] {
        let frameSize = Int64(header.pageSize + WALReader.frameHeaderSize)
        let offset = Int64(WALHeader.size) + Int64(frame - 1) * frameSize + Int64(WALReader.frameHeaderSize)
        return try file.read(at: offset, count: min(count, header.pageSize))
    }
}
