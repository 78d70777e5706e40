/// The main database file as read from its bytes.
public struct DatabaseSection: Sendable {
    public var path: String
    /// The symlink target SQLite would open, when different from `path`.
    public var resolvedPath: String?
    public var bytes: Int64
    public var header: DatabaseHeader
    /// Whole pages in the file (`bytes / pageSize`).
    public var pagesInFile: Int { header.pageSize > 0 ? Int(bytes / Int64(header.pageSize)) : 0 }
    /// Database size in pages: the in-header size when valid, else `pagesInFile`.
    public var pageCount: Int { header.inHeaderSizeValid ? Int(header.inHeaderPageCount) : pagesInFile }
}
