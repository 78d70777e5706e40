import CDLogCore
import CDLogKit

/// One cited entry: where it is and what it says.
public struct Citation: Sendable {
    public var source: String
    public var line: Int
    public var endLine: Int
    public var rule: String?
    public var title: String?
    public var severity: Severity?
    /// The first line of the message (cut).
    public var excerpt: String
    public var count: Int
    public var timestamp: String?
    public var fields: [(name: String, value: String)]
    public var isCrash: Bool

    /// `app.log:12` or `app.log:12-15`.
    public var location: String { Citation.location(source: source, line: line, endLine: endLine) }

    static func location(source: String, line: Int, endLine: Int) -> String {
        endLine > line ? "\(source):\(line)-\(endLine)" : "\(source):\(line)"
    }

    public func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    init(_ reported: ClassifiedEntry, cutter: ExcerptCutter = .plain) {
        self.init(entry: reported.entry, classification: reported.classification, count: reported.count, cutter: cutter)
    }

    init(entry e: Entry, classification: Classification?, count: Int, cutter: ExcerptCutter = .plain) {
        source = e.source
        line = e.line
        endLine = e.endLine
        rule = classification?.rule.id
        title = classification?.rule.title
        severity = classification?.severity
        excerpt = cutter.firstLine(e.message, limit: 300)
        self.count = count
        timestamp = e.timestamp
        fields = classification?.fields ?? e.presetFields
        isCrash = e.format == .crashReport
    }
}
