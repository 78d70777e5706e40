import CDLogCore

/// Renders entries as a `RenderingFindingWriter` writes them. Used by one thread at a time.
public protocol EntryRenderer: AnyObject, Sendable {
    /// Appends the entry's bytes to `bytes`.
    func render(_ entry: ClassifiedEntry, into bytes: inout [UInt8])
}
