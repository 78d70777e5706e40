/// One template of unclassified Core Data / CloudKit lines.
public struct TemplateRow: Sendable {
    public var template: String
    public var count: Int
    public var firstLocation: String
    public var lastLocation: String
    public var example: String
    var order: Int
}
