public struct HistoryInfo: Sendable, Equatable {
    public var transactions: Int
    public var changes: Int?
    public var strings: Int?
    /// Cocoa seconds (since 2001-01-01 UTC).
    public var oldest: Double?
    public var newest: Double?
}
