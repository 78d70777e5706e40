/// The `-wal` file.
public struct WALSection: Sendable {
    public var present = false
    public var path: String?
    public var bytes: Int64 = 0
    public var header: WALHeader?
    /// Why SQLite would ignore the file (nil when the header is valid or the file is absent/empty).
    public var problem: String?
    public var scan: WALScan?
    /// The page size of the WAL equals the database header's.
    public var pageSizeMatchesDatabase: Bool?
    /// The newest committed image of page 1 starts with the SQLite header (nil: no page 1 in the WAL).
    public var pageOneValid: Bool?

    public var frameSize: Int { (header?.pageSize ?? 0) + WALReader.frameHeaderSize }
    /// Bytes of the file that hold live committed frames (`32 + mxFrame × frameSize`).
    public var liveBytes: Int64 {
        guard let scan, scan.mxFrame > 0 else { return 0 }
        return Int64(WALHeader.size) + Int64(scan.mxFrame) * Int64(frameSize)
    }
}
