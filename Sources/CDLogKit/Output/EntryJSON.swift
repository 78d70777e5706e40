import CDLogCore

/// The JSON object of one entry (docs/domain.md, "Output contracts"), shared by the jsonl and json reporters.
enum EntryJSON {
    static func write(_ reported: ClassifiedEntry, into w: inout JSONWriter, rules: inout EncodedRuleMembers,
                      masker: TemplateMasker) {
        let entry = reported.entry
        let classification = reported.classification
        w.beginObject()
        // Constant keys (`key(constant:)`): written as they are, not quoted as a String for every finding.
        w.key(constant: "type"); w.string("entry")
        w.key(constant: "source"); w.string(entry.source)
        w.key(constant: "line"); w.int(entry.line)
        w.key(constant: "endLine"); w.int(entry.endLine)
        let members = classification.map { rules.members(of: $0.rule) }
        if let members, let classification {
            w.members(encoded: members.verdict.buffer)
            w.key(constant: "fingerprint")
            w.hex64(Fingerprint.of(entry, ruleID: classification.rule.id, masker: masker))
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
