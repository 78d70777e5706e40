import CDLogCore

/// The 100-byte SQLite database header (fileformat2 §1.3), parsed from the main database file's bytes.
///
/// Contract: `parse` throws `ToolFailure` when the bytes are not a SQLite database (wrong magic), the
/// header is truncated (< 100 bytes) or the page size field is out of range; every other field is
/// reported as found, never trusted for memory sizes.
public struct DatabaseHeader: Sendable, Equatable {
    public static let magic: [UInt8] = Array("SQLite format 3\u{0}".utf8)
    public static let size = 100

    /// Page size in bytes (the stored value 1 means 65536).
    public let pageSize: Int
    /// Byte 18 (write version): 1 legacy/rollback, 2 WAL.
    public let writeVersion: UInt8
    /// Byte 19 (read version): 1 legacy/rollback, 2 WAL.
    public let readVersion: UInt8
    public let reservedBytesPerPage: UInt8
    public let fileChangeCounter: UInt32
    /// The "in-header database size" (offset 28); trusted only when `inHeaderSizeValid`.
    public let inHeaderPageCount: UInt32
    public let firstFreelistTrunkPage: UInt32
    public let freelistPages: UInt32
    public let schemaCookie: UInt32
    public let schemaFormat: UInt32
    /// Offset 52: largest root b-tree page; non-zero means auto-vacuum or incremental vacuum.
    public let largestRootPage: UInt32
    public let textEncoding: UInt32
    public let userVersion: UInt32
    /// Offset 64: 1 = incremental vacuum.
    public let incrementalVacuum: UInt32
    public let applicationID: UInt32
    public let versionValidFor: UInt32
    /// SQLITE_VERSION_NUMBER of the library that last wrote the file (offset 96).
    public let sqliteVersionNumber: UInt32

    /// `"wal"` when bytes 18 and 19 are both 2, `"rollback"` when both are 1, otherwise `"unknown"`.
    public var journalMode: String {
        if writeVersion == 2 && readVersion == 2 { return "wal" }
        if writeVersion == 1 && readVersion == 1 { return "rollback" }
        return "unknown"
    }

    /// The in-header size is valid when non-zero and offset 92 equals offset 24 (fileformat2).
    public var inHeaderSizeValid: Bool { inHeaderPageCount != 0 && versionValidFor == fileChangeCounter }

    /// `none`, `full` or `incremental`.
    public var autoVacuum: String {
        if largestRootPage == 0 { return "none" }
        return incrementalVacuum != 0 ? "incremental" : "full"
    }

    /// "3.43.2" from 3043002.
    public var sqliteVersion: String? {
        let v = Int(sqliteVersionNumber)
        guard v >= 3_000_000, v < 10_000_000 else { return nil }
        return "\(v / 1_000_000).\(v / 1000 % 1000).\(v % 1000)"
    }

    public var textEncodingName: String {
        switch textEncoding {
        case 1: return "utf-8"
        case 2: return "utf-16le"
        case 3: return "utf-16be"
        default: return "unknown"
        }
    }

    /// Parses `bytes` (at least the first 100 bytes of the file). `name` is used in messages.
    public static func parse(_ bytes: [UInt8], name: String) throws -> DatabaseHeader {
        if bytes.isEmpty { throw ToolFailure("\(name) is empty (0 bytes): not a SQLite database") }
        let b = Bytes(bytes)
        let prefix = b.slice(0, 16)
        if prefix != Array(magic.prefix(prefix.count)) || (prefix.count == 16 && prefix != magic) {
            throw ToolFailure("\(name) is not a SQLite database (no \"SQLite format 3\" header)")
        }
        if bytes.count < size {
            throw ToolFailure("\(name) has a truncated header (\(bytes.count) of 100 bytes)")
        }
        let raw = Int(b.be16(16))
        let pageSize = raw == 1 ? 65536 : raw
        if pageSize < 512 || pageSize > 65536 || pageSize & (pageSize - 1) != 0 {
            throw ToolFailure("\(name) has an invalid page size field (\(raw)): not a valid SQLite database")
        }
        return DatabaseHeader(
            pageSize: pageSize, writeVersion: b.u8(18), readVersion: b.u8(19), reservedBytesPerPage: b.u8(20),
            fileChangeCounter: b.be32(24), inHeaderPageCount: b.be32(28), firstFreelistTrunkPage: b.be32(32),
            freelistPages: b.be32(36), schemaCookie: b.be32(40), schemaFormat: b.be32(44),
            largestRootPage: b.be32(52), textEncoding: b.be32(56), userVersion: b.be32(60),
            incrementalVacuum: b.be32(64), applicationID: b.be32(68), versionValidFor: b.be32(92),
            sqliteVersionNumber: b.be32(96))
    }
}
