/// The files a command reads, which its output must never replace.
public struct ProtectedInputs: Sendable {
    /// Paths as given: log files, crash reports, store files and their companions (`-wal`, `-shm`,
    /// `-journal`), whether or not they exist yet.
    public var paths: [String]
    /// True when the command reads standard input (a file redirected to stdin is then protected).
    public var readsStandardInput: Bool
    /// Inputs that may be folders (a folder of reports, an extracted sysdiagnose, a folder of stores): an
    /// output anywhere inside one would change its listing. Paths that are not folders are ignored.
    public var folders: [String] = []

    public init(paths: [String], readsStandardInput: Bool) {
        self.paths = paths
        self.readsStandardInput = readsStandardInput
    }
}
