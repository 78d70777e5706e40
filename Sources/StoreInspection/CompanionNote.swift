/// A `-wal`, `-shm` or `-journal` name that is not an ordinary file in the store's folder.
public struct CompanionNote: Sendable, Equatable {
    /// The companion's path as SQLite would open it.
    public var path: String
    /// "-wal", "-shm" or "-journal".
    public var suffix: String
    /// What it is: "a named pipe (FIFO)", "a symlink to /x/y (outside the store's folder)"…
    public var what: String
    /// A symlink whose target lies outside the store's folder.
    public var leavesFolder = false
    /// Whether walcheck read it (a symlink to a regular file in the store's folder, or any symlink to a
    /// regular file with `followSymlinks`).
    public var read: Bool
}
