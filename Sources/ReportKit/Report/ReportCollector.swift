import CDLogCore
import CDLogKit
import Foundation

/// The `FindingWriter` a report run classifies into: folds the timeline, groups unclassified lines into
/// templates, keeps crash entries, feeds the evidence collector and samples chart points.
/// Memory is bounded by `ReportLimits` (plus one dictionary key per timeline row and template).
final class ReportCollector: FindingWriter {
    let limits: ReportLimits
    let minimumSeverity: Severity
    let evidence: EvidenceCollector
    let cutter: ExcerptCutter
    private let masker = TemplateMasker()
    /// Also gets every entry, flush and finish (`cdlog report --format otlp` streams the findings).
    var tee: (any FindingWriter)?

    private(set) var timeline: [TimelineRow] = []
    /// A timeline row's identity: its rule and its template's hash (`TemplateMasker.foldingKey`), or for
    /// a crash report, the hash of where it is.
    private struct FoldKey: Hashable {
        let rule: ObjectIdentifier
        let template: UInt64
    }
    private var timelineIndex: [FoldKey: Int] = [:]
    /// Where each row was last seen; its `lastLocation` is written once, at the end.
    private var lastSeen: [(source: String, line: Int, endLine: Int)] = []
    private(set) var timelineOmittedEvents = 0
    private(set) var timelineOmittedRows = 0
    private var omittedKeys = Set<FoldKey>()
    private let omittedKeyCap = 10_000

    private(set) var templates: [TemplateRow] = []
    private var templateIndex: [String: Int] = [:]
    private(set) var templatesOmittedLines = 0
    private(set) var unclassifiedRelevant = 0

    private(set) var crashes: [ClassifiedEntry] = []
    private(set) var crashesOmitted = 0
    private(set) var processes: [String] = []

    private(set) var chart: ChartSample

    private(set) var summary = ClassifySummary()
    private var ordinal = 0

    /// What the evidence-gaps section needs to know about the logs (not the crash reports) given.
    struct LogFacts {
        var entries = 0
        var formats = Set<InputFormat>()
        /// Findings at `debug` or `info`: none means the container's debug output was not captured.
        var quietFindings = 0
        var earliest: Double?
        var latest: Double?
        var crashTimes: [(source: String, time: Double)] = []
    }
    private(set) var logFacts = LogFacts()

    init(evidence: EvidenceCollector, limits: ReportLimits, minimumSeverity: Severity) {
        self.evidence = evidence
        cutter = evidence.cutter
        self.limits = limits
        self.minimumSeverity = minimumSeverity
        chart = ChartSample(limit: limits.chartPoints)
    }

    func report(_ reported: ClassifiedEntry) throws {
        try tee?.report(reported)
        ordinal += 1
        evidence.offer(reported)
        let entry = reported.entry
        let time = entry.timestamp.flatMap(ISOTime.parse)  // once: the facts, the chart and the timeline use it
        if let process = entry.process, processes.count < 10, !processes.contains(process) { processes.append(process) }
        if entry.format == .crashReport {
            if crashes.count < limits.crashes { crashes.append(reported) } else { crashesOmitted += 1 }
            if let time = time?.seconds, logFacts.crashTimes.count < limits.crashes {
                logFacts.crashTimes.append((entry.source, time))
            }
        } else {
            logFacts.entries += 1
            logFacts.formats.insert(entry.format)
            if let time = time?.seconds {
                logFacts.earliest = min(logFacts.earliest ?? time, time)
                logFacts.latest = max(logFacts.latest ?? time, time)
            }
            if let severity = reported.classification?.severity, severity <= .info { logFacts.quietFindings += 1 }
        }
        guard let classification = reported.classification else {
            addTemplate(reported)
            return
        }
        // An activity finding is the fallback's guess at the area of a line no rule knows: it is template
        // material for the appendix too.
        if classification.rule.id.hasPrefix("activity.") { addTemplate(reported) }
        chart.add(ChartPoint(time: time?.seconds, offset: time?.offset, ordinal: ordinal, category: classification.category,
                             severity: classification.severity, weight: reported.count))
        guard classification.severity >= minimumSeverity else { return }
        let template = entry.format == .crashReport ? TemplateHash(entry.source + ":\(entry.line)").value
            : Fingerprint.templateKey(entry.message, masker: masker)
        let key = FoldKey(rule: ObjectIdentifier(classification.rule), template: template)
        if let index = timelineIndex[key] {
            timeline[index].count += reported.count
            lastSeen[index] = (entry.source, entry.line, entry.endLine)
            if let timestamp = entry.timestamp { timeline[index].lastTimestamp = timestamp }
        } else if timeline.count < limits.timelineRows {
            timelineIndex[key] = timeline.count
            lastSeen.append((entry.source, entry.line, entry.endLine))
            let citation = Citation(reported, cutter: cutter)
            timeline.append(TimelineRow(first: citation, lastLocation: citation.location, lastTimestamp: entry.timestamp,
                                        count: reported.count, category: classification.category,
                                        severity: classification.severity,
                                        fingerprint: Fingerprint.text(Fingerprint.of(entry, ruleID: classification.rule.id, masker: masker)),
                                        sortTime: time?.seconds, order: timeline.count))
        } else {
            timelineOmittedEvents += reported.count
            if !omittedKeys.contains(key) {
                timelineOmittedRows += 1
                if omittedKeys.count < omittedKeyCap { omittedKeys.insert(key) }
            }
        }
    }

    func flush() throws { try tee?.flush() }

    func finish(summary: ClassifySummary) throws {
        try tee?.finish(summary: summary)
        self.summary = summary
        for (index, last) in lastSeen.enumerated() {
            timeline[index].lastLocation = Citation.location(source: last.source, line: last.line, endLine: last.endLine)
        }
    }

    /// Literals that make an unclassified entry Core Data / CloudKit material for the appendix.
    /// Subsystems whose entries are appendix material (matched in the entry's prefix bytes by the run).
    static let relevantSubsystems = ["com.apple.coredata", "com.apple.cloudkit"]

    static let relevantLiterals = ["CoreData", "CloudKit", "CKError", "NSPersistent", "NSManagedObject", "SwiftData",
                                   "NSCocoaErrorDomain", "NSSQLite", "sqlite", "CKRecord", "Core Data"]

    private func addTemplate(_ reported: ClassifiedEntry) {
        let entry = reported.entry
        let relevant = (entry.subsystem.map { $0.hasPrefix("com.apple.coredata") || $0.hasPrefix("com.apple.cloudkit") } ?? false)
            || Self.relevantLiterals.contains { entry.message.utf8.count < 65536 ? entry.message.contains($0) : String(entry.message.prefix(65536)).contains($0) }
        guard relevant, entry.format != .crashReport else { return }
        unclassifiedRelevant += reported.count
        let template = masker.mask(cutter.firstLine(entry.message, limit: 300))
        let location = Citation(reported).location
        if let index = templateIndex[template] {
            templates[index].count += reported.count
            templates[index].lastLocation = location
        } else if templates.count < limits.templates {
            templateIndex[template] = templates.count
            templates.append(TemplateRow(template: template, count: reported.count, firstLocation: location,
                                         lastLocation: location, example: cutter.cut(entry.message, limit: 2000), order: templates.count))
        } else {
            templatesOmittedLines += reported.count
        }
    }
}
