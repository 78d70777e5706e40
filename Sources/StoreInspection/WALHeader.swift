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
