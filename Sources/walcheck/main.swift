import ArgumentParser
import CDLogCore
import CLISupport
import StoreInspection

/// `walcheck PATH`: a thin front end over StoreInspection. Renders, then picks the exit code.
struct WalCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walcheck",
        abstract: "Inspect a SQLite / Core Data store's database, -wal and -shm without changing them.",
        discussion: """
        PATH is the main database file (X.sqlite, default.store, any name) or a folder holding stores.
        The -wal and -shm beside it are read directly; SQL runs only on a private temporary copy.
        Exit codes: 0 ok, 1 a finding at or above --fail-on, 2 bad usage or unreadable/invalid input.
        """,
        version: ToolVersion.current)

    @Argument(help: "The main database file, or a folder holding one or more stores.", completion: .file())
    var path: String

    @Option(help: "Output format.")
    var format: StoreReportFormat = .text

    @Option(name: .customLong("fail-on"), help: "Exit 1 when a finding is at or above this severity.")
    var failOn: Severity?

    @Flag(name: .customLong("verify-checksums"), help: "Verify the checksum of every WAL frame (streams the whole WAL once).")
    var verifyChecksums = false

    @Flag(name: .customLong("skip-checksums"), help: "Read frame headers only; frames count as valid on salts alone.")
    var skipChecksums = false

    @Flag(name: .customLong("no-sql"), help: "Skip the private copy and SQL (no row counts, no Core Data metadata).")
    var noSQL = false

    @Flag(name: .customLong("measure-checkpoint"), help: "Time SQLite's recovery and a TRUNCATE checkpoint on a private copy (this machine's speed).")
    var measureCheckpoint = false

    @Flag(name: .customLong("follow-symlinks"), help: "Read a -wal, -shm or -journal that is a symlink leaving the store's folder (by default it is reported, not read).")
    var followSymlinks = false

    func validate() throws {
        if verifyChecksums && skipChecksums { throw ValidationError("--verify-checksums and --skip-checksums cannot be combined") }
    }

    func run() throws {
        let options = InspectionOptions(checksums: verifyChecksums ? .full : skipChecksums ? .none : .auto,
                                        runSQL: !noSQL, measureCheckpoint: measureCheckpoint)
        let stores = try StoreLocator.locate(path, followSymlinks: followSymlinks)
        let reports = try stores.map { try StoreInspector.inspect($0, options: options) }
        let sink = OutputSink()
        try sink.write(ReportRenderer.render(reports, format: format))
        try sink.flush()
        if let threshold = failOn, reports.contains(where: { ($0.maxSeverity ?? .debug) >= threshold && !$0.findings.isEmpty }) {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}

SnapshotCopy.installInterruptCleanup()
CommandRunner.main(WalCheck.self)
