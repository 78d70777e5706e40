/// What SQL on the private copy found, Core Data or not.
public struct SQLView: Sendable {
    /// `PRAGMA page_count` with the WAL applied.
    public var pageCount: Int?
    public var freelistCount: Int?
    /// `PRAGMA journal_mode` as seen through the read-only copy.
    public var tables = 0
    public var coreData: CoreDataInfo?
    /// Set when SQL could not be run (the report still carries the byte-level figures).
    public var error: String?
    /// Bytes the private copy took in `$TMPDIR` (the database and the WAL's recoverable prefix; holes
    /// of sparse files excepted), deleted before walcheck exits.
    public var copyBytes: Int64 = 0
}
