import CDLogCore

/// The wal-index (`X-shm`) read straight from the file: the two WalIndexHdr copies, WalCkptInfo and
/// the aPgno frame → page map (reference §3).
///
/// Contract: `read` never throws for bad content: a missing file gives `present == false`; a short,
/// zero-filled, torn or foreign file gives `headerValid == false` with `problem` saying why. It throws
/// `ToolFailure` only when an existing file cannot be opened or read. At most `maxBytesRead` bytes are
/// loaded (enough for aPgno of ~8 M frames); beyond that `pageNumber(ofFrame:)` returns nil.
public struct WALIndex: Sendable {
    public static let headerBytes = 136
    public static let blockBytes = 32768
    public static let firstBlockFrames = 4062
    public static let blockFrames = 4096
    public static let maxBytesRead = 64 << 20
    static let version: UInt32 = 3_007_000

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
    private var raw: [UInt8] = []
    private var little = true

    /// An absent wal-index for `path`.
    public init(path: String) { self.path = path }

    /// Reads `path` if it exists (a symlink is followed; a directory or other non-regular file throws).
    public static func read(path: String) throws -> WALIndex {
        var index = WALIndex(path: path)
        guard try FileStatus.status(path) != nil else { return index }
        let file = try ReadOnlyFile(path: path)
        index.present = true
        index.bytes = file.size
        index.raw = try file.read(at: 0, count: Int(min(file.size, Int64(maxBytesRead))))
        index.parse()
        return index
    }

    /// Parses an in-memory copy (tests, and `read`).
    public static func parse(bytes: [UInt8], path: String = "-shm") -> WALIndex {
        var index = WALIndex(path: path)
        index.present = true
        index.bytes = Int64(bytes.count)
        index.raw = bytes
        index.parse()
        return index
    }

    private mutating func parse() {
        let b = Bytes(raw)
        guard raw.count >= WALIndex.headerBytes else {
            problem = raw.isEmpty ? "empty file (uninitialised)"
                : "truncated to \(raw.count) bytes (uninitialised; SQLite rebuilds it from the WAL)"
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
        if raw.allSatisfy({ $0 == 0 }) {
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

    /// The page number the wal-index records for `frame` (1-based), or nil when the file is too short.
    public func pageNumber(ofFrame frame: Int) -> UInt32? {
        guard frame >= 1 else { return nil }
        let offset: Int
        if frame <= WALIndex.firstBlockFrames {
            offset = 136 + 4 * (frame - 1)
        } else {
            let k = (frame - WALIndex.firstBlockFrames - 1) / WALIndex.blockFrames + 1
            offset = k * WALIndex.blockBytes + 4 * ((frame - 1 - WALIndex.firstBlockFrames) % WALIndex.blockFrames)
        }
        guard offset + 4 <= raw.count else { return nil }
        let b = Bytes(raw)
        return little ? b.le32(offset) : b.be32(offset)
    }

    /// True for the pattern SQLite's recovery leaves (iChange 0, nBackfill 0, nBackfillAttempted ==
    /// mxFrame == aReadMark[1]); not an interrupted checkpoint (reference §3.5).
    public var isJustRecovered: Bool {
        iChange == 0 && nBackfill == 0 && nBackfillAttempted == mxFrame && readMarks.count > 1 && readMarks[1] == mxFrame
    }

    /// A checkpoint started copying frames and did not finish (`nBackfillAttempted > nBackfill`).
    public var checkpointInterrupted: Bool {
        headerValid && nBackfillAttempted > nBackfill && nBackfillAttempted <= mxFrame && !isJustRecovered
    }
}
