import CDLogCore

/// A reporter whose output for an entry depends on that entry alone, so entries can be rendered on the
/// threads that classify them (`ClassifyRun` with several threads). The merging thread then writes
/// bytes instead of reading every entry's strings and arrays, which another core made: their reference
/// counts and cache lines moving between cores cost a two-thread run more than the rendering itself.
///
/// Contract: `report(rendered:)` with what this reporter's renderers made for some entries, in order,
/// writes exactly what `report(_:)` would have written for them and leaves the reporter in the same state.
public protocol RenderingFindingWriter: FindingWriter {
    /// A renderer for one thread (entries of one block).
    func makeRenderer() -> any EntryRenderer
    /// Writes findings rendered, in order, by renderers of this reporter.
    func report(rendered: RenderedFindings) throws
}
