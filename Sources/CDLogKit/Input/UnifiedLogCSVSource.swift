import CDLogCore

/// mandiant's `unifiedlog_iterator` CSV (the default output of the Linux route from a sysdiagnose's
/// logarchive: `Timestamp,Event Type,Log Type,Subsystem,Thread ID,PID,…,Category,Process,…,Message,…`) →
/// one JSON object per record, read by the log-ndjson reader like the tool's own `--format jsonl`.
///
/// Contract: streaming, one record in memory (each kept field capped: the message at
/// `EntryLimits.maxMessageBytes`, the others at 4 KiB; unkept columns are not stored). RFC 4180 quoting:
/// `"…"` fields may hold commas, `""` and line feeds. The header line and every line a record's quoted
/// line feeds add become empty lines, so a record's object stands on the record's first line and line
/// numbers stay the CSV's. A record cut by the end of the input is still emitted.
final class UnifiedLogCSVSource: ConvertingSource {
    /// The header's first columns, as the tool writes them: how the CSV is recognised.
    static let headerStart = Array("Timestamp,Event Type,Log Type,Subsystem,Thread ID,PID,".utf8)
    /// CSV column → JSON member, for the columns an entry uses.
    static let kept: [String: String] = [
        "Timestamp": "timestamp", "Log Type": "log_type", "Subsystem": "subsystem", "Thread ID": "thread_id",
        "PID": "pid", "Category": "category", "Process": "process", "Message": "message",
    ]

    /// True when `sample` opens with the tool's header line.
    static func isUnifiedLogCSV(_ sample: [UInt8]) -> Bool {
        var bytes = sample[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.starts(with: headerStart)
    }

    /// The most lines one record may span: a quote left open ends its record there.
    static let maxRecordLines = 10_000

    private var header: [String]? = nil
    private var json = JSONWriter()
    private var headerField: [UInt8] = []
    private var headerNames: [String] = []
    private var column = 0
    private var fields: [String: [UInt8]] = [:]
    private var field: [UInt8] = []
    private var inQuotes = false
    private var quoteJustClosed = false
    private var extraLines = 0
    private var recordHasBytes = false

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        for b in bytes { consume(b) }
        if atEnd, recordHasBytes || column > 0 || !field.isEmpty { endRecord() }
    }

    private func consume(_ b: UInt8) {
        if inQuotes {
            if b == UInt8(ascii: "\"") { inQuotes = false; quoteJustClosed = true; return }
            if b == 0x0A {
                extraLines += 1
                // A quote that never closes must not hold the output back: the record ends here.
                if extraLines >= Self.maxRecordLines { endRecord(); return }
            }
            append(b)
            return
        }
        switch b {
        case UInt8(ascii: "\""):
            if quoteJustClosed { append(b) }  // `""` inside a quoted field
            inQuotes = true
            quoteJustClosed = false
        case UInt8(ascii: ","):
            endField()
        case 0x0A:
            endRecord()
            return
        case 0x0D:
            quoteJustClosed = false  // CRLF line ends
        default:
            quoteJustClosed = false
            append(b)
        }
        recordHasBytes = true
    }

    private func append(_ b: UInt8) {
        let limit = header == nil ? 256 : (currentName == "message" ? EntryLimits.maxMessageBytes : 4096)
        if currentName != nil || header == nil, field.count < limit { field.append(b) }
    }

    /// The JSON member the current column feeds, or nil for a column that is not kept.
    private var currentName: String? {
        guard let header, column < header.count else { return nil }
        return Self.kept[header[column]]
    }

    private func endField() {
        if header == nil {
            headerNames.append(String(decoding: field, as: UTF8.self))
        } else if let name = currentName {
            fields[name] = field
        }
        field.removeAll(keepingCapacity: true)
        column += 1
        quoteJustClosed = false
    }

    private func endRecord() {
        endField()
        if header == nil {
            header = headerNames
        } else {
            writeObject()
        }
        output.append(0x0A)
        for _ in 0..<extraLines { output.append(0x0A) }
        extraLines = 0
        column = 0
        fields.removeAll(keepingCapacity: true)
        recordHasBytes = false
        inQuotes = false
    }

    private func writeObject() {
        json.reset()
        json.beginObject()
        for name in ["timestamp", "log_type", "subsystem", "category", "process", "pid", "thread_id", "message"] {
            guard let value = fields[name] else { continue }
            json.field(name, String(decoding: value, as: UTF8.self))
        }
        json.endObject()
        json.withBytes { output.append(contentsOf: $0) }
    }
}
