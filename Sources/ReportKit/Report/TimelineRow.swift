import CDLogCore

/// One timeline row: an event and its folded duplicates.
public struct TimelineRow: Sendable {
    public var first: Citation
    public var lastLocation: String
    public var lastTimestamp: String?
    public var count: Int
    public var category: Category
    public var severity: Severity
    /// The fingerprint of the row's findings (`Fingerprint`): rows fold by rule and template, as it does.
    public var fingerprint: String
    var sortTime: Double?
    var order: Int
}
