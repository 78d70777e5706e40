import CDLogCore

/// The wal-index (`X-shm`) read straight from the file: the two WalIndexHdr copies, WalCkptInfo and
/// the aPgno frame → page map (reference §3).
///
/// Contract: `read` never throws for bad content: a missing file gives `present == false`; a short,
/// zero-filled, torn or foreign file gives `headerValid == false` with `problem` saying why. It throws
/// `ToolFailure` only when an existing file cannot be opened or read. Only the first `maxBytesRead`
/// bytes count (enough for aPgno of ~8 M frames); beyond them there are no aPgno entries.
///
/// Memory: `read` keeps only the 136-byte header, whatever the file's size; the WAL scan streams the
/// aPgno entries from the open file one 32 KiB block at a time (`PageNumbers`). `parse(bytes:)` keeps the
/// bytes it is given, and `pageNumber(ofFrame:)` answers from those in-memory bytes only.
public struct WALIndex: Sendable {
    public static let headerBytes = 136
    public static let blockBytes = 32768
    public static let firstBlockFrames = 4062
    public static let blockFrames = 4096
    public static let maxBytesRead = 64 << 20
    static let version: UInt32 = 3_007_000
    /// The byte of the -shm every connection holds a shared lock on while it has the wal-index open
    /// (os_unix.c `UNIX_SHM_DMS`: 120 + SQLITE_SHM_NLOCK). The first connection finds it unlocked and
    /// truncates the -shm, so that the index is rebuilt from the WAL.
    static let deadManSwitchByte: Int64 = 128

    /// The size a wal-index must have to index `frames` frames: one 32 KiB region per 4 096 frames, the
    /// first region holding 4 062 after the header.
    static func bytesNeeded(frames: Int) -> Int64 {
        guard frames > 0 else { return Int64(headerBytes) }
        let regions = 1 + max(0, frames - firstBlockFrames + blockFrames - 1) / blockFrames
        return Int64(regions) * Int64(blockBytes)
    }

    public var path: String
    public var present = false
    public var bytes: Int64 = 0
    /// "little" or "big" when the version field identifies the writer's byte order, else nil.
    public var byteOrder: String?
    public var headerValid = false
    /// Why the header cannot be trusted (nil when valid).
    public var problem: String?
    public var copiesMatch = false
    public var headerChecksumValid = false
    public var isInit: UInt8 = 0
    public var iChange: UInt32 = 0
    public var bigEndianChecksums = false
    public var pageSize = 0
    public var mxFrame: UInt32 = 0
    public var nPage: UInt32 = 0
    public var frameChecksum = WALChecksum()
    public var salt1: UInt32 = 0
    public var salt2: UInt32 = 0
    public var nBackfill: UInt32 = 0
    /// aReadMark[0…4]; 0xFFFFFFFF means unused.
    public var readMarks: [UInt32] = []
    public var nBackfillAttempted: UInt32 = 0
    /// The bytes held in memory: the header for `read`, everything for `parse(bytes:)`.
    private var raw: [UInt8] = []
    /// Bytes of the file that count: min(file size, `maxBytesRead`) (aPgno entries lie below this).
    private var limit = 0
    private var little = true

    /// An absent wal-index for `path`.
    public init(path: String) { self.path = path }

    /// Reads `path` if it exists (a symlink is followed; a directory or other non-regular file throws).
    public static func read(path: String) throws -> WALIndex {
        guard try FileStatus.status(path) != nil else { return WALIndex(path: path) }
        return try read(file: try ReadOnlyFile(path: path), path: path)
    }

    /// Reads the header of an open wal-index file (the caller keeps `file` for `PageNumbers`). Keeps only
    /// the header in memory; the rest of the file is read only to tell a zero-filled file from a foreign
    /// one when the header is all zeros (in 64 KiB pieces).
    public static func read(file: ReadOnlyFile, path: String) throws -> WALIndex {
        var index = WALIndex(path: path)
        index.present = true
        index.bytes = file.size
        let limit = Int(min(file.size, Int64(maxBytesRead)))
        index.raw = try file.read(at: 0, count: min(limit, headerBytes))
        // A file that shrank under us counts up to where the read stopped.
        index.limit = index.raw.count < min(limit, headerBytes) ? index.raw.count : limit
        index.parse(allZero: try allZero(file: file, head: index.raw, limit: index.limit))
        return index
    }

    /// Parses an in-memory copy (tests).
    public static func parse(bytes: [UInt8], path: String = "-shm") -> WALIndex {
        var index = WALIndex(path: path)
        index.present = true
        index.bytes = Int64(bytes.count)
        index.raw = bytes
        index.limit = bytes.count
        index.parse(allZero: bytes.allSatisfy { $0 == 0 })
        return index
    }

    /// True when the first `limit` bytes of `file` (whose first bytes are `head`) are all zero.
    private static func allZero(file: ReadOnlyFile, head: [UInt8], limit: Int) throws -> Bool {
        guard head.allSatisfy({ $0 == 0 }) else { return false }
        let piece = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
        defer { buffer.deallocate() }
        var offset = head.count
        while offset < limit {
            let got = try file.read(into: buffer, at: Int64(offset), count: min(piece, limit - offset))
            if got == 0 { break }
            if !UnsafeRawBufferPointer(rebasing: buffer[0..<got]).allSatisfy({ $0 == 0 }) { return false }
            offset += got
        }
        return true
    }

    private mutating func parse(allZero: Bool) {
        let b = Bytes(raw)
        guard limit >= WALIndex.headerBytes, raw.count >= WALIndex.headerBytes else {
            problem = limit == 0 ? "empty file (uninitialised)"
                : "truncated to \(limit) bytes (uninitialised; SQLite rebuilds it from the WAL)"
            return
        }
        if b.le32(0) == WALIndex.version { little = true; byteOrder = "little" }
        else if b.be32(0) == WALIndex.version { little = false; byteOrder = "big" }
        func u32(_ o: Int) -> UInt32 { little ? b.le32(o) : b.be32(o) }
        func u16(_ o: Int) -> UInt16 { little ? b.le16(o) : b.be16(o) }
        iChange = u32(8)
        isInit = b.u8(12)
        bigEndianChecksums = b.u8(13) & 1 == 1
        let sz = Int(u16(14))
        pageSize = (sz & 0xFE00) + ((sz & 1) << 16)
        mxFrame = u32(16)
        nPage = u32(20)
        frameChecksum = WALChecksum(u32(24), u32(28))
        salt1 = b.be32(32)
        salt2 = b.be32(36)
        nBackfill = u32(96)
        readMarks = (0..<5).map { u32(100 + 4 * $0) }
        nBackfillAttempted = u32(128)
        copiesMatch = b.slice(0, 48) == b.slice(48, 48)
        var sum = WALChecksum()
        sum.add(b.slice(0, 40), bigEndianWords: !little)
        headerChecksumValid = sum.a == u32(40) && sum.b == u32(44)
        if allZero {
            problem = "zero-filled (uninitialised)"
        } else if byteOrder == nil {
            problem = "unknown version field \(b.le32(0)) (not a wal-index, or corrupt)"
        } else if !copiesMatch {
            problem = "the two header copies differ (torn write)"
        } else if isInit != 1 {
            problem = "header not initialised (isInit=\(isInit))"
        } else if !headerChecksumValid {
            problem = "header checksum mismatch"
        } else {
            headerValid = true
        }
    }

    /// The file offset of `frame`'s aPgno entry (frame ≥ 1).
    static func aPgnoOffset(ofFrame frame: Int) -> Int {
        if frame <= WALIndex.firstBlockFrames { return 136 + 4 * (frame - 1) }
        let k = (frame - WALIndex.firstBlockFrames - 1) / WALIndex.blockFrames + 1
        return k * WALIndex.blockBytes + 4 * ((frame - 1 - WALIndex.firstBlockFrames) % WALIndex.blockFrames)
    }

    /// The page number the wal-index records for `frame` (1-based), from the bytes in memory: nil when
    /// they are too short (an index made by `read` holds only its header: use `PageNumbers`).
    public func pageNumber(ofFrame frame: Int) -> UInt32? {
        guard frame >= 1 else { return nil }
        let offset = WALIndex.aPgnoOffset(ofFrame: frame)
        guard offset + 4 <= raw.count else { return nil }
        let b = Bytes(raw)
        return little ? b.le32(offset) : b.be32(offset)
    }

    /// The aPgno entries of a wal-index, read in frame order: from the open file one block (≤ 16 KiB of
    /// entries) at a time, or from the bytes of a parsed index. Memory: one block, whatever the file size.
    public struct PageNumbers {
        private let index: WALIndex
        private let file: ReadOnlyFile?
        private var block: [UInt8] = []
        private var blockNumber = -1
        private var blockStart = 0     // file offset of block[0]

        /// `file` is the wal-index file `index` was read from (nil: use the index's in-memory bytes).
        public init(index: WALIndex, file: ReadOnlyFile?) {
            self.index = index
            self.file = file
        }

        /// The page number recorded for `frame`, or nil when the file is too short (past `maxBytesRead`,
        /// or shorter than the frame's entry). Throws `ToolFailure` on I/O errors.
        public mutating func pageNumber(ofFrame frame: Int) throws -> UInt32? {
            guard let file else { return index.pageNumber(ofFrame: frame) }
            guard frame >= 1 else { return nil }
            let offset = WALIndex.aPgnoOffset(ofFrame: frame)
            guard offset + 4 <= index.limit else { return nil }
            let k = frame <= WALIndex.firstBlockFrames ? 0 : (frame - WALIndex.firstBlockFrames - 1) / WALIndex.blockFrames + 1
            if k != blockNumber {
                let start = k == 0 ? WALIndex.headerBytes : k * WALIndex.blockBytes
                let entries = k == 0 ? WALIndex.firstBlockFrames : WALIndex.blockFrames
                let end = min(start + 4 * entries, index.limit)
                block = try file.read(at: Int64(start), count: end - start)
                blockNumber = k
                blockStart = start
            }
            let at = offset - blockStart
            guard at + 4 <= block.count else { return nil }
            let b = Bytes(block)
            return index.little ? b.le32(at) : b.be32(at)
        }
    }

    /// True for the pattern SQLite's recovery leaves (iChange 0, nBackfill 0, nBackfillAttempted ==
    /// mxFrame == aReadMark[1]); not an interrupted checkpoint (reference §3.5).
    public var isJustRecovered: Bool {
        iChange == 0 && nBackfill == 0 && nBackfillAttempted == mxFrame && readMarks.count > 1 && readMarks[1] == mxFrame
    }

    /// The index records a checkpoint attempt past `nBackfill` (`nBackfillAttempted > nBackfill`). SQLite's
    /// recovery leaves the same marks (nBackfillAttempted = mxFrame, nBackfill 0), and later commits make
    /// them look like an attempt: whether a checkpoint really stopped part-way is for the database file
    /// to tell (`WALIndexSection.checkpointInterrupted`).
    public var checkpointInterrupted: Bool {
        headerValid && nBackfillAttempted > nBackfill && nBackfillAttempted <= mxFrame && !isJustRecovered
    }
}
