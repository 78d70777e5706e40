/// The files of one store, named by SQLite's rule: `<database>-wal`, `<database>-shm`,
/// `<database>-journal` beside the main file.
public struct StoreFiles: Sendable, Equatable {
    /// The main database file as given (or as found in a folder).
    public var database: String
    /// The file SQLite opens when `database` is a symlink (its target); else equal to `database`.
    public var resolvedDatabase: String
    /// `-wal` path when that file exists, else nil.
    public var wal: String?
    /// `-shm` path when that file exists, else nil.
    public var walIndex: String?
    /// `-journal` path when that file exists, else nil.
    public var journal: String?
    /// Companions that are not plain files beside the store: symlinks (read when they stay in the
    /// store's folder or when asked), folders, FIFOs, devices, sockets (never read). A companion listed
    /// here with `read == false` is left out of `wal`/`walIndex`/`journal`.
    public var companionNotes: [CompanionNote] = []

    /// Every path a writer must never replace: the database as given and as resolved, and each one's
    /// `-wal`, `-shm` and `-journal` name, whether or not that companion exists yet.
    public var protectedPaths: [String] {
        var paths: [String] = []
        for base in [database, resolvedDatabase] {
            paths.append(base)
            for suffix in StoreLocator.companionSuffixes { paths.append(base + suffix) }
        }
        return paths
    }
}
