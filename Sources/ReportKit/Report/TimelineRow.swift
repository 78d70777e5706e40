import CDLogCore

/// One timeline row: an event and its folded duplicates.
public struct TimelineRow: Sendable {
    public var first: Citation
    public var lastLocation: String
    public var lastTimestamp: String?
    public var count: Int
    public var category: Category
    public var severity: Severity
    var sortTime: Double?
    var order: Int
}
