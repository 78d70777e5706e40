import CDLogCore

/// Everything walcheck knows about one store. Built by `StoreInspector`; rendered by `ReportRenderer`.
public struct StoreReport: Sendable {
    public var database: DatabaseSection
    public var wal: WALSection
    public var walIndex: WALIndexSection
    public var checkpoint: CheckpointSection
    public var journal: JournalSection
    /// Companions that are symlinks, folders, FIFOs, devices or sockets (`StoreFiles.companionNotes`).
    public var companions: [CompanionNote] = []
    /// SQL on a private copy (nil when skipped with `--no-sql`).
    public var sql: SQLView?
    public var measurement: CheckpointMeasurement?
    /// Why the measurement failed, when it did.
    public var measurementError: String?
    public var findings: [Finding] = []

    /// The most severe finding (nil when there is none).
    public var maxSeverity: Severity? { findings.map(\.severity).max() }
}
