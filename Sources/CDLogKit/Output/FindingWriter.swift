import CDLogCore

/// Turns reported entries into one output format. Reporters write to an `OutputSink` and never decide
/// exit codes. Streaming reporters (`jsonl`, `text`) write each entry as it arrives; document reporters
/// (`json`, `markdown`) may collect and write at `finish`.
public protocol FindingWriter: AnyObject {
    func report(_ entry: ClassifiedEntry) throws
    /// Writes out what streaming reporters hold (called when a live input pauses).
    func flush() throws
    func finish(summary: ClassifySummary) throws
}

extension FindingWriter {
    public func flush() throws {}
}

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

/// Renders entries as a `RenderingFindingWriter` writes them. Used by one thread at a time.
public protocol EntryRenderer: AnyObject, Sendable {
    /// Appends the entry's bytes to `bytes`.
    func render(_ entry: ClassifiedEntry, into bytes: inout [UInt8])
}

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

/// Renders each entry's JSON object (`EntryJSON`) with fixed bytes before and after it. One per thread.
final class JSONEntryRenderer: EntryRenderer, @unchecked Sendable {
    private var writer = JSONWriter()
    private var rules = EncodedRuleMembers()
    private let before: [UInt8], after: [UInt8]

    init(before: String, after: String) {
        self.before = Array(before.utf8)
        self.after = Array(after.utf8)
    }

    func render(_ entry: ClassifiedEntry, into bytes: inout [UInt8]) {
        writer.reset()
        EntryJSON.write(entry, into: &writer, rules: &rules)
        bytes.append(contentsOf: before)
        writer.withBytes { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: after)
    }

    /// `render` straight into `sink` (no intermediate copy), `before` left out when `omittingBefore`.
    func write(_ entry: ClassifiedEntry, to sink: OutputSink, omittingBefore: Bool = false) throws {
        writer.reset()
        EntryJSON.write(entry, into: &writer, rules: &rules)
        if !omittingBefore, !before.isEmpty { try sink.write(bytes: before) }
        try writer.withBytes { try sink.write(buffer: $0) }
        if !after.isEmpty { try sink.write(bytes: after) }
    }
}

/// The output formats of `cdlog classify`.
public enum FindingsFormat: String, CaseIterable, Sendable {
    case text, jsonl, json, markdown

    public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")

    public func makeWriter(sink: OutputSink, color: Bool) -> any FindingWriter {
        switch self {
        case .text: return TextFindingWriter(sink: sink, color: color)
        case .jsonl: return JSONLinesFindingWriter(sink: sink)
        case .json: return JSONDocumentFindingWriter(sink: sink)
        case .markdown: return MarkdownFindingWriter(sink: sink)
        }
    }
}

/// A rule's `"category":…,"severity":…,"rule":…,"title":…` and `"advice":…` as JSON members, encoded the
/// first time one of its findings is written (`JSONWriter.members(encoded:)`), so no later finding escapes
/// them again. Each thread's renderer has its own: rules live as long as the run's classifier, and a
/// table shared by threads would have every finding write its reference count from every core.
struct EncodedRuleMembers {
    /// Plain memory, not arrays: a lookup then costs no reference counting.
    private var encoded: [ObjectIdentifier: (verdict: FrozenBytes, advice: FrozenBytes)] = [:]
    private let storage = FrozenStorage()

    mutating func members(of rule: Rule) -> (verdict: FrozenBytes, advice: FrozenBytes) {
        if let known = encoded[ObjectIdentifier(rule)] { return known }
        let verdict = JSONWriter.encodeMembers([("category", rule.category.id), ("severity", rule.severity.name),
                                                ("rule", rule.id), ("title", rule.title)])
        let members = (storage.freeze(bytes: verdict), storage.freeze(bytes: JSONWriter.encodeMembers([("advice", rule.advice)])))
        encoded[ObjectIdentifier(rule)] = members
        return members
    }
}

/// The JSON object of one entry (docs/domain.md, "Output contracts"), shared by the jsonl and json reporters.
enum EntryJSON {
    static func write(_ reported: ClassifiedEntry, into w: inout JSONWriter, rules: inout EncodedRuleMembers) {
        let entry = reported.entry
        let classification = reported.classification
        w.beginObject()
        // Constant keys (`key(constant:)`): written as they are, not quoted as a String for every finding.
        w.key(constant: "type"); w.string("entry")
        w.key(constant: "source"); w.string(entry.source)
        w.key(constant: "line"); w.int(entry.line)
        w.key(constant: "endLine"); w.int(entry.endLine)
        let members = classification.map { rules.members(of: $0.rule) }
        if let members {
            w.members(encoded: members.verdict.buffer)
        } else {
            for key: StaticString in ["category", "severity", "rule", "title"] { w.key(constant: key); w.null() }
        }
        w.key(constant: "message"); w.string(entry.message)
        w.key(constant: "fields")
        w.beginObject()
        for (name, value) in classification?.fields ?? entry.presetFields { w.field(name, value) }
        w.endObject()
        if let members { w.members(encoded: members.advice.buffer) } else { w.key(constant: "advice"); w.null() }
        w.key(constant: "timestamp"); w.string(entry.timestamp)
        w.key(constant: "process"); w.string(entry.process)
        w.key(constant: "count"); w.int(reported.count)
        w.key(constant: "truncated"); w.bool(entry.truncated)
        w.endObject()
    }

    static func writeSummary(_ summary: ClassifySummary, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", "summary")
        w.field("entries", summary.entries)
        w.field("classified", summary.classified)
        w.key("byCategory")
        w.beginObject()
        for (category, n) in summary.byCategory { w.field(category.id, n) }
        w.endObject()
        w.key("bySeverity")
        w.beginObject()
        for (severity, n) in summary.bySeverity { w.field(severity.name, n) }
        w.endObject()
        w.field("findings", summary.findings)
        w.field("truncatedEntries", summary.truncatedEntries)
        w.endObject()
    }
}

/// `--format jsonl`: one JSON object per line, entries in input order, then the summary.
final class JSONLinesFindingWriter: RenderingFindingWriter {
    private let sink: OutputSink
    /// Entries reported here are written as the workers render theirs.
    private let renderer: JSONEntryRenderer

    init(sink: OutputSink) {
        self.sink = sink
        renderer = JSONLinesFindingWriter.renderer()
    }

    private static func renderer() -> JSONEntryRenderer { JSONEntryRenderer(before: "", after: "\n") }

    func report(_ entry: ClassifiedEntry) throws { try renderer.write(entry, to: sink) }

    func makeRenderer() -> any EntryRenderer { JSONLinesFindingWriter.renderer() }

    func report(rendered: RenderedFindings) throws { try sink.write(bytes: rendered.bytes) }

    func flush() throws { try sink.flush() }

    func finish(summary: ClassifySummary) throws {
        var w = JSONWriter()
        EntryJSON.writeSummary(summary, into: &w)
        try sink.write(w.text)
        try sink.write("\n")
        try sink.flush()
    }
}

/// `--format json`: one document `{"entries":[…],"summary":{…}}`, streamed entry by entry.
final class JSONDocumentFindingWriter: RenderingFindingWriter {
    private let sink: OutputSink
    private var first = true
    /// Entries reported here are written as the workers render theirs.
    private let renderer: JSONEntryRenderer

    init(sink: OutputSink) {
        self.sink = sink
        renderer = JSONDocumentFindingWriter.renderer()
    }

    /// Every rendered entry starts with the `,\n` that separates it from the one before; the document's
    /// first entry has the opening instead (`openIfFirst`).
    private static func renderer() -> JSONEntryRenderer { JSONEntryRenderer(before: ",\n", after: "") }

    func report(_ entry: ClassifiedEntry) throws {
        let opened = try openIfFirst()
        try renderer.write(entry, to: sink, omittingBefore: opened)
    }

    func makeRenderer() -> any EntryRenderer { JSONDocumentFindingWriter.renderer() }

    func report(rendered: RenderedFindings) throws {
        guard rendered.count > 0 else { return }
        if try openIfFirst() { try sink.write(bytes: rendered.bytes.dropFirst(2)) } else { try sink.write(bytes: rendered.bytes) }
    }

    /// Writes the document's opening before its first entry; true when it did.
    private func openIfFirst() throws -> Bool {
        guard first else { return false }
        first = false
        try sink.write("{\"entries\":[\n")
        return true
    }

    func finish(summary: ClassifySummary) throws {
        try sink.write(first ? "{\"entries\":[],\n\"summary\":" : "\n],\n\"summary\":")
        var w = JSONWriter()
        EntryJSON.writeSummary(summary, into: &w)
        try sink.write(w.text)
        try sink.write("}\n")
        try sink.flush()
    }
}
