import CDLogCore

/// One JSON document with everything the report knows, keys in a fixed order (docs/report.md).
enum JSONReportRenderer {
    static func citation(_ c: Citation, _ w: inout JSONWriter) {
        w.beginObject()
        w.field("source", c.source)
        w.field("line", c.line)
        w.field("endLine", c.endLine)
        w.field("rule", c.rule)
        w.field("title", c.title)
        w.field("severity", c.severity?.name)
        w.field("timestamp", c.timestamp)
        w.field("count", c.count)
        w.field("excerpt", c.excerpt)
        w.key("fields"); w.beginObject()
        for (name, value) in c.fields { w.field(name, value) }
        w.endObject()
        w.endObject()
    }

    static func diagnosis(_ d: DiagnosisResult, _ w: inout JSONWriter) {
        w.beginObject()
        w.field("id", d.id)
        w.field("title", d.title)
        w.field("severity", d.severity.name)
        w.field("priority", d.priority)
        w.field("statement", d.statement)
        w.field("confidence", d.confidence)
        w.field("supportHeld", d.supportHeld)
        w.field("supportTotal", d.supportTotal)
        w.key("missingSupport"); w.beginArray(); for label in d.missingSupport { w.string(label) }; w.endArray()
        w.key("evidence"); w.beginArray()
        for e in d.evidence {
            w.beginObject()
            w.field("condition", e.condition)
            w.field("label", e.label)
            w.field("kind", e.kind.rawValue)
            w.field("optional", e.optional)
            w.field("count", e.count)
            w.key("citations"); w.beginArray()
            for c in e.citations { citation(c, &w) }
            w.endArray()
            w.field("store", e.storePath)
            w.key("figures"); w.beginArray()
            for f in e.storeFigures {
                w.beginObject(); w.field("name", f.name); w.field("value", f.value); w.field("test", f.test); w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("advice"); w.beginArray(); for a in d.advice { w.string(a) }; w.endArray()
        w.key("references"); w.beginArray(); for a in d.references { w.string(a) }; w.endArray()
        w.endObject()
    }

    static func facts(_ list: [ReportDocument.Fact], _ w: inout JSONWriter) {
        w.beginArray()
        for f in list {
            w.beginObject(); w.field("label", f.label); w.field("value", f.value); w.field("source", f.source); w.endObject()
        }
        w.endArray()
    }

    static func render(_ doc: ReportDocument) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "cdlog-report")
        w.field("version", 1)
        w.key("inputs"); w.beginObject()
        w.key("sources"); w.beginArray(); for s in doc.sources { w.string(s) }; w.endArray()
        w.key("stores"); w.beginArray(); for s in doc.storePaths { w.string(s) }; w.endArray()
        w.endObject()
        w.field("redacted", doc.redacted)
        w.key("redactions"); w.beginObject(); for r in doc.redactions { w.field(r.kind, r.values) }; w.endObject()
        w.key("headline")
        if let d = doc.headline { diagnosis(d, &w) } else {
            w.beginObject()
            w.field("id", nil as String?)
            w.field("statement", doc.fallbackHeadline)
            w.key("citation"); if let c = doc.fallbackCitation { citation(c, &w) } else { w.null() }
            w.field("advice", doc.fallbackAdvice)
            w.endObject()
        }
        w.field("privateDataNote", doc.privateDataNote)
        w.key("evidenceGaps"); w.beginArray()
        for gap in doc.evidenceGaps {
            w.beginObject(); w.field("id", gap.id); w.field("gap", gap.gap); w.field("how", gap.how); w.endObject()
        }
        w.endArray()
        if !doc.nextCommands.isEmpty {
            w.key("nextCommands"); w.beginArray(); for command in doc.nextCommands { w.string(command) }; w.endArray()
        }
        w.key("diagnoses"); w.beginArray(); for d in doc.diagnoses { diagnosis(d, &w) }; w.endArray()
        w.key("environment"); facts(doc.environment, &w)
        w.key("timeline"); w.beginObject()
        w.field("order", doc.timelineOrder)
        w.field("minimumSeverity", doc.timelineMinimumSeverity.name)
        w.key("rows"); w.beginArray()
        for row in doc.timeline {
            w.beginObject()
            w.field("timestamp", row.first.timestamp)
            w.field("lastTimestamp", row.lastTimestamp)
            w.field("where", row.first.location)
            w.field("lastWhere", row.lastLocation)
            w.field("category", row.category.id)
            w.field("severity", row.severity.name)
            w.field("rule", row.first.rule)
            w.field("title", row.first.title)
            w.field("fingerprint", row.fingerprint)
            w.field("count", row.count)
            w.key("first"); citation(row.first, &w)
            w.endObject()
        }
        w.endArray()
        w.field("omittedRows", doc.timelineOmittedRows)
        w.field("omittedEvents", doc.timelineOmittedEvents)
        w.endObject()
        w.key("counts"); w.beginObject()
        w.field("entries", doc.entries)
        w.field("classified", doc.classified)
        w.key("byCategory"); w.beginObject(); for (c, n) in doc.byCategory { w.field(c.id, n) }; w.endObject()
        w.key("bySeverity"); w.beginObject(); for (s, n) in doc.bySeverity { w.field(s.name, n) }; w.endObject()
        w.endObject()
        w.key("crashes"); w.beginArray()
        for crash in doc.crashes {
            w.beginObject()
            w.field("where", crash.citation.location)
            w.field("rule", crash.rule)
            w.field("title", crash.title)
            w.field("severity", crash.severity?.name)
            w.field("headline", crash.headline)
            w.key("blamedFrames"); w.beginArray(); for f in crash.blamedFrames { w.string(f) }; w.endArray()
            w.field("crashedThread", crash.crashedThread)
            w.key("crashedThreadFrames"); w.beginArray(); for f in crash.crashedThreadFrames { w.string(f) }; w.endArray()
            w.key("exceptionBacktrace"); w.beginArray(); for f in crash.exceptionBacktrace { w.string(f) }; w.endArray()
            w.key("mainThreadFrames"); w.beginArray(); for f in crash.mainThreadFrames { w.string(f) }; w.endArray()
            w.key("cannotTell"); w.beginArray(); for f in crash.cannotTell { w.string(f) }; w.endArray()
            w.key("fields"); w.beginObject(); for (n, v) in crash.citation.fields { w.field(n, v) }; w.endObject()
            w.endObject()
        }
        w.endArray()
        w.field("crashesOmitted", doc.crashesOmitted)
        w.key("stores"); w.beginArray()
        for store in doc.stores {
            w.beginObject()
            w.field("path", store.path)
            w.key("figures"); facts(store.facts, &w)
            w.key("walcheck"); w.raw(store.walcheckJSON)
            w.endObject()
        }
        w.endArray()
        chart(doc.chart, &w)
        w.key("appendix"); w.beginObject()
        w.field("unclassifiedLines", doc.unclassifiedRelevant)
        w.key("templates"); w.beginArray()
        for t in doc.templates {
            w.beginObject()
            w.field("template", t.template)
            w.field("count", t.count)
            w.field("first", t.firstLocation)
            w.field("last", t.lastLocation)
            w.field("example", t.example)
            w.endObject()
        }
        w.endArray()
        w.field("omittedLines", doc.templatesOmittedLines)
        w.endObject()
        w.field("highestSeverity", doc.highestSeverity?.name)
        w.endObject()
        return w.text + "\n"
    }

    /// The chart's figures: segments of the axis (gaps between them collapsed) and counts per bucket by severity.
    static func chart(_ chart: Chart, _ w: inout JSONWriter) {
        w.key("chart"); w.beginObject()
        w.field("axis", chart.axis.rawValue)
        w.field("zone", chart.zoneName)
        w.field("estimated", chart.estimated)
        w.key("segments"); w.beginArray()
        for segment in chart.segments {
            let step = segment.bucketWidth
            w.beginObject()
            w.field("start", chart.label(segment.start, step: min(step, 1), withDate: true))
            w.field("end", chart.label(segment.end, step: min(step, 1), withDate: true))
            w.field(chart.axis == .time ? "bucketSeconds" : "bucketEntries", step)
            w.field("buckets", segment.buckets)
            w.endObject()
        }
        w.endArray()
        w.key("lanes"); w.beginObject()
        for (severity, counts) in chart.lanes { w.key(severity.name); w.beginArray(); for n in counts { w.int(n) }; w.endArray() }
        w.endObject()
        w.endObject()
    }
}
