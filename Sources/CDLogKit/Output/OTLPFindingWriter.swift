import CDLogCore

/// `--format otlp`: OpenTelemetry OTLP/JSON, one `LogsData` object per line, as the Collector's file
/// exporter writes it and its `otlpjsonfile` receiver reads it (docs/fleet.md). Each finding is a log record:
/// `eventName` `cdlog.finding`, the severity as a number (debug 5, info 9, warning 13, error 17, fatal 21)
/// and as text, the message as body, the entry's time (`timeUnixNano`, a string as proto3's JSON mapping
/// writes 64-bit integers) when it has one, and the rule, category, fingerprint, title, source, line, count
/// and fields as attributes. Consecutive findings with the same resource (`OTLPResource`) share one
/// `ResourceLogs`; a line holds at most `maxRecordsPerLine` records and is written at every flush.
/// Unclassified entries (`--all`) are not findings and are left out.
public final class OTLPFindingWriter: FindingWriter {
    static let maxRecordsPerLine = 256

    private let sink: OutputSink
    private let extraResource: [(key: String, value: String)]
    private let masker = TemplateMasker()
    /// Records of the line being built, grouped by resource, in order.
    private var groups: [(resource: [(key: String, value: String)], records: [String])] = []
    private var recordCount = 0

    public init(sink: OutputSink, resource: [(key: String, value: String)]) {
        self.sink = sink
        extraResource = resource
    }

    static func severityNumber(_ severity: Severity) -> Int {
        switch severity {
        case .debug: return 5
        case .info: return 9
        case .warning: return 13
        case .error: return 17
        case .fatal: return 21
        }
    }

    public func report(_ reported: ClassifiedEntry) throws {
        guard let classification = reported.classification else { return }
        let entry = reported.entry
        var w = JSONWriter()
        w.beginObject()
        if let timestamp = entry.timestamp, let nanoseconds = ISOTime.nanoseconds(timestamp) {
            w.field("timeUnixNano", String(nanoseconds))
            w.field("observedTimeUnixNano", String(nanoseconds))
        }
        w.field("severityNumber", Self.severityNumber(classification.severity))
        w.field("severityText", classification.severity.name)
        w.key("body"); w.beginObject(); w.field("stringValue", entry.message); w.endObject()
        w.field("eventName", "cdlog.finding")
        w.key("attributes")
        w.beginArray()
        func attribute(_ key: String, _ value: String) {
            w.beginObject(); w.field("key", key); w.key("value"); w.beginObject(); w.field("stringValue", value); w.endObject(); w.endObject()
        }
        func attribute(_ key: String, int value: Int) {
            w.beginObject(); w.field("key", key); w.key("value"); w.beginObject(); w.field("intValue", String(value)); w.endObject(); w.endObject()
        }
        attribute("cdlog.rule", classification.rule.id)
        attribute("cdlog.category", classification.category.id)
        attribute("cdlog.fingerprint", Fingerprint.text(Fingerprint.of(entry, ruleID: classification.rule.id, masker: masker)))
        attribute("cdlog.title", classification.rule.title)
        attribute("cdlog.source", entry.source)
        attribute("cdlog.line", int: entry.line)
        attribute("cdlog.count", int: reported.count)
        for (name, value) in classification.fields { attribute("cdlog.field." + name, value) }
        w.endArray()
        w.endObject()

        try add(record: w.text, resource: OTLPResource.attributes(of: entry, extra: extraResource))
    }

    /// Writes one record of another kind than a finding (`cdlog report` writes its diagnoses as
    /// `cdlog.diagnosis`), under the `--resource` attributes alone.
    public func report(event name: String, severity: Severity, body: String, attributes: [(key: String, value: String)]) throws {
        var w = JSONWriter()
        w.beginObject()
        w.field("severityNumber", Self.severityNumber(severity))
        w.field("severityText", severity.name)
        w.key("body"); w.beginObject(); w.field("stringValue", body); w.endObject()
        w.field("eventName", name)
        w.key("attributes")
        w.beginArray()
        for (key, value) in attributes {
            w.beginObject(); w.field("key", key); w.key("value"); w.beginObject(); w.field("stringValue", value); w.endObject(); w.endObject()
        }
        w.endArray()
        w.endObject()
        try add(record: w.text, resource: extraResource)
    }

    private func add(record: String, resource: [(key: String, value: String)]) throws {
        if let last = groups.last, last.resource.elementsEqual(resource, by: { $0.key == $1.key && $0.value == $1.value }) {
            groups[groups.count - 1].records.append(record)
        } else {
            groups.append((resource, [record]))
        }
        recordCount += 1
        if recordCount >= Self.maxRecordsPerLine { try writeLine() }
    }

    /// Writes the records held as one `LogsData` line.
    private func writeLine() throws {
        guard !groups.isEmpty else { return }
        var w = JSONWriter()
        w.beginObject()
        w.key("resourceLogs")
        w.beginArray()
        for group in groups {
            w.beginObject()
            w.key("resource"); w.beginObject(); w.key("attributes"); w.beginArray()
            for (key, value) in group.resource {
                w.beginObject(); w.field("key", key); w.key("value"); w.beginObject(); w.field("stringValue", value); w.endObject(); w.endObject()
            }
            w.endArray(); w.endObject()
            w.key("scopeLogs"); w.beginArray(); w.beginObject()
            w.key("scope"); w.beginObject(); w.field("name", "cdlog"); w.field("version", ToolVersion.current); w.endObject()
            w.key("logRecords"); w.beginArray()
            for record in group.records { w.raw(record) }
            w.endArray()
            w.endObject(); w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        try sink.write(w.text)
        try sink.write("\n")
        groups.removeAll(keepingCapacity: true)
        recordCount = 0
    }

    public func flush() throws {
        try writeLine()
        try sink.flush()
    }

    public func finish(summary: ClassifySummary) throws {
        try writeLine()
        try sink.flush()
    }
}
