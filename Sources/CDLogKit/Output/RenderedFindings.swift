import CDLogCore

/// Findings rendered on a classifying thread: their bytes, how many, and their rules, each once, in the
/// order they first appear (for reporters that summarise by rule at the end).
public struct RenderedFindings: Sendable {
    public private(set) var bytes: [UInt8] = []
    public private(set) var count = 0
    public private(set) var rules: [Rule] = []

    init() {}

    /// No findings, rendered into `storage` (emptied; its capacity is kept): storage handed back by
    /// `takeStorage` after an earlier block's findings were written, so a block's bytes need no new
    /// allocation (one over glibc's mmap threshold faults its pages in and interrupts the other core
    /// to unmap them).
    init(reusing storage: consuming [UInt8]) {
        storage.removeAll(keepingCapacity: true)
        bytes = storage
    }

    /// Renders `entry` after the others.
    mutating func append(_ entry: ClassifiedEntry, with renderer: any EntryRenderer) {
        renderer.render(entry, into: &bytes)
        count += 1
        // A block's findings come from a handful of rules: a scan by identity beats hashing the id.
        if let rule = entry.classification?.rule, !rules.contains(where: { $0 === rule }) { rules.append(rule) }
    }

    /// The byte storage, for reuse (`init(reusing:)`); the findings are empty afterwards.
    mutating func takeStorage() -> [UInt8] {
        count = 0
        rules = []
        var storage: [UInt8] = []
        swap(&storage, &bytes)
        return storage
    }
}
