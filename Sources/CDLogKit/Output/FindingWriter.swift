import CDLogCore

/// Turns classified entries into one output format of `cdlog classify`. Writers write to an `OutputSink`
/// and never decide exit codes. Streaming writers (`jsonl`, `text`) write each entry as it arrives;
/// document writers (`json`, `markdown`) may collect and write at `finish`.
public protocol FindingWriter: AnyObject {
    func report(_ entry: ClassifiedEntry) throws
    /// Writes out what streaming writers hold (called when a live input pauses).
    func flush() throws
    func finish(summary: ClassifySummary) throws
}

extension FindingWriter {
    public func flush() throws {}
}
