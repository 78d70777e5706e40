/// An entry as finding writers see it: the entry, its classification (nil when unclassified) and how many
/// consecutive echoes of it were folded into it.
public struct ClassifiedEntry: Sendable {
    public var entry: Entry
    public var classification: Classification?
    public var count: Int
}
