public struct CloudKitInfo: Sendable, Equatable {
    /// Every `ANSCK*`/`ZNSCK*` table with its row count.
    public var tables: [(name: String, rows: Int)]
    public var recordMetadata: Int?
    public var needsUpload: Int?
    public var needsCloudDelete: Int?
    public var needsLocalDelete: Int?
    /// needsUpload + needsCloudDelete (records waiting for an export).
    public var pendingExports: Int?
    public var events: Int?
    public var failedEvents: Int?
    /// Newest first, at most `CoreDataInspector.maxEvents`.
    public var lastEvents: [CloudKitEvent]

    public static func == (l: CloudKitInfo, r: CloudKitInfo) -> Bool {
        l.tables.map(\.name) == r.tables.map(\.name) && l.tables.map(\.rows) == r.tables.map(\.rows)
            && l.recordMetadata == r.recordMetadata && l.pendingExports == r.pendingExports && l.lastEvents == r.lastEvents
    }
}
