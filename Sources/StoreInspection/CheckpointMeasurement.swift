/// `--measure-checkpoint`: SQLite's own recovery and TRUNCATE checkpoint timed on a private copy.
public struct CheckpointMeasurement: Sendable {
    public var recoverySeconds: Double
    public var recoveryBytes: Int64
    public var checkpointSeconds: Double
    public var checkpointWriteBytes: Int64
    /// SQLite's `PRAGMA wal_checkpoint(TRUNCATE)` row: busy, log (frames), checkpointed.
    public var busy: Int
    public var logFrames: Int
    public var checkpointedFrames: Int
    public var recoveryMBps: Double? { rate(recoveryBytes, recoverySeconds) }
    public var checkpointMBps: Double? { rate(checkpointWriteBytes, checkpointSeconds) }
    public static let note = "measured on this machine with a warm page cache; device speed differs"
    private func rate(_ bytes: Int64, _ seconds: Double) -> Double? {
        seconds > 0 && bytes > 0 ? Double(bytes) / 1_048_576 / seconds : nil
    }
}
