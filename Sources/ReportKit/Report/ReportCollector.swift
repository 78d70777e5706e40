import CDLogCore
import CDLogKit

/// Limits that keep a report's memory bounded whatever the input size.
public struct ReportLimits: Sendable {
    /// Timeline rows (distinct events); later new events are counted in "N more".
    public var timelineRows = 200
    /// Appendix templates; later new templates are counted in "N more".
    public var templates = 200
    /// Crash reports kept in full.
    public var crashes = 20
    /// Chart points kept per sample (warnings and worse; the rest), thinned beyond this.
    public var chartPoints = 20_000
    /// Citations kept per diagnosis condition.
    public var citationsPerCondition = 5
    public init() {}
}

/// One timeline row: an event and its folded duplicates.
public struct TimelineRow: Sendable {
    public var first: Citation
    public var lastLocation: String
    public var lastTimestamp: String?
    public var count: Int
    public var category: Category
    public var severity: Severity
    var sortTime: Double?
    var order: Int
}

/// One template of unclassified Core Data / CloudKit lines.
public struct TemplateRow: Sendable {
    public var template: String
    public var count: Int
    public var firstLocation: String
    public var lastLocation: String
    public var example: String
    var order: Int
}

/// The `Reporter` a report run classifies into: folds the timeline, groups unclassified lines into
/// templates, keeps crash entries, feeds the evidence collector and samples chart points.
/// Memory is bounded by `ReportLimits` (plus one dictionary key per timeline row and template).
final class ReportCollector: Reporter {
    let limits: ReportLimits
    let minimumSeverity: Severity
    let evidence: EvidenceCollector
    let cutter: ExcerptCutter
    private let masker = TemplateMasker()

    private(set) var timeline: [TimelineRow] = []
    private var timelineIndex: [String: Int] = [:]
    private(set) var timelineOmittedEvents = 0
    private(set) var timelineOmittedRows = 0
    private var omittedKeys = Set<String>()
    private let omittedKeyCap = 10_000

    private(set) var templates: [TemplateRow] = []
    private var templateIndex: [String: Int] = [:]
    private(set) var templatesOmittedLines = 0
    private(set) var unclassifiedRelevant = 0

    private(set) var crashes: [ReportedEntry] = []
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

    func report(_ reported: ReportedEntry) throws {
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
        let key = classification.rule.id + "\u{1}" + (entry.format == .crashReport ? entry.source + ":\(entry.line)"
                                                       : masker.mask(entry.message.firstLine(limit: 400)))
        if let index = timelineIndex[key] {
            timeline[index].count += reported.count
            timeline[index].lastLocation = Citation.location(source: entry.source, line: entry.line, endLine: entry.endLine)
            timeline[index].lastTimestamp = entry.timestamp ?? timeline[index].lastTimestamp
        } else if timeline.count < limits.timelineRows {
            timelineIndex[key] = timeline.count
            let citation = Citation(reported, cutter: cutter)
            timeline.append(TimelineRow(first: citation, lastLocation: citation.location, lastTimestamp: entry.timestamp,
                                        count: reported.count, category: classification.category,
                                        severity: classification.severity, sortTime: time?.seconds,
                                        order: timeline.count))
        } else {
            timelineOmittedEvents += reported.count
            if !omittedKeys.contains(key) {
                timelineOmittedRows += 1
                if omittedKeys.count < omittedKeyCap { omittedKeys.insert(key) }
            }
        }
    }

    func finish(summary: ClassifySummary) throws { self.summary = summary }

    /// Literals that make an unclassified entry Core Data / CloudKit material for the appendix.
    /// Subsystems whose entries are appendix material (matched in the entry's prefix bytes by the run).
    static let relevantSubsystems = ["com.apple.coredata", "com.apple.cloudkit"]

    static let relevantLiterals = ["CoreData", "CloudKit", "CKError", "NSPersistent", "NSManagedObject", "SwiftData",
                                   "NSCocoaErrorDomain", "NSSQLite", "sqlite", "CKRecord", "Core Data"]

    private func addTemplate(_ reported: ReportedEntry) {
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

/// Masks the variable parts of a line so that lines of one kind share a template.
final class TemplateMasker {
    private let regex: PCRERegex
    private let scratch = MatchScratch()
    static let kinds = ["email", "uuid", "url", "path", "record", "addr", "hex", "n"]

    init() {
        regex = try! PCRERegex(
            #"(?<email>[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})"#
            + #"|(?<uuid>\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b)"#
            + #"|(?<url>\b(?:file|https?|x-coredata)://(?:[^\s"'<>,;)}\]]|\x20(?=Support/))*)"#
            + #"|(?<path>(?<![\w.])/(?:[^\s/"'<>,;:)}\]]|\x20(?=Support/))+(?:/(?:[^\s"'<>,;:)}\]/]|\x20(?=Support/))*)+)"#
            + #"|(?:recordName=|ownerName=)(?<record>[^,;>\s"]+)"#
            + #"|(?<addr>\b0x[0-9A-Fa-f]+\b)"#
            + #"|(?<hex>\b[0-9A-Fa-f]{16,}\b)"#
            + #"|(?<n>(?<![A-Za-z_\d])\d+(?:\.\d+)?)"#)
    }

    func mask(_ text: String) -> String {
        Self.maskWithoutRegex(text) ?? maskWithRegex(text)
    }

    /// The reference: the regex above, for every text.
    func maskWithRegex(_ text: String) -> String {
        regex.replacingMatches(in: text, scratch: scratch) { match, groups in
            for (index, kind) in Self.kinds.enumerated() where index < groups.count && groups[index] != nil {
                if kind == "record" { return match.replacingOccurrences(of: groups[index]!, with: "<record>") }
                return "<\(kind)>"
            }
            return nil
        }
    }

    /// The same masking as the regex, by one pass over the bytes, for text with no `@`, `://` or `Name=`
    /// (so neither an e-mail address, a URL nor a record name can match; nil otherwise): the regex tries its
    /// eight alternatives at every position, this pass looks only at word starts and slashes.
    /// `TemplateMaskerTests` holds the two to the same output on real and generated text.
    /// The regex is compiled without PCRE2_UCP, so `\w`, `\d`, `\b` and `\s` are ASCII and every byte of a
    /// multi-byte character is a non-word character that no class here excludes.
    static func maskWithoutRegex(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { u -> String? in
            let n = u.count
            var i = 0
            // Fallback for the alternatives this pass does not do.
            while i < n {
                switch u[i] {
                case 0x40: return nil  // @
                case 0x3A where i + 2 < n && u[i + 1] == 0x2F && u[i + 2] == 0x2F: return nil  // ://
                case 0x3D where i >= 4 && u[i - 4] == 0x4E && u[i - 3] == 0x61 && u[i - 2] == 0x6D && u[i - 1] == 0x65: return nil  // Name=
                default: i += 1
                }
            }
            @inline(__always) func isWord(_ b: UInt8) -> Bool {
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
            }
            @inline(__always) func isHex(_ b: UInt8) -> Bool {
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
            }
            @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
            /// A word boundary before `at` (at the end, or before a non-word byte), after a word byte.
            @inline(__always) func boundary(_ at: Int) -> Bool { at >= n || !isWord(u[at]) }
            func hexRun(_ from: Int) -> Int {
                var j = from
                while j < n, isHex(u[j]) { j += 1 }
                return j - from
            }
            func uuidEnd(_ from: Int) -> Int? {
                // 8-4-4-4-12 hex digits: the dashes first, the cheapest way out.
                guard from + 36 <= n, u[from + 8] == 0x2D, u[from + 13] == 0x2D, u[from + 18] == 0x2D, u[from + 23] == 0x2D else { return nil }
                for j in from..<(from + 36) where j != from + 8 && j != from + 13 && j != from + 18 && j != from + 23 {
                    guard isHex(u[j]) else { return nil }
                }
                return boundary(from + 36) ? from + 36 : nil
            }
            /// A character a path segment may hold (the class `[^\s/"'<>,;:)}\]]`), or a space before `Support/`.
            func segmentByte(_ j: Int) -> Bool {
                switch u[j] {
                case 0x20:  // only before "Support/"
                    return j + 8 < n && u[j + 1] == 0x53 && u[j + 2] == 0x75 && u[j + 3] == 0x70 && u[j + 4] == 0x70
                        && u[j + 5] == 0x6F && u[j + 6] == 0x72 && u[j + 7] == 0x74 && u[j + 8] == 0x2F
                case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x2F, 0x22, 0x27, 0x3C, 0x3E, 0x2C, 0x3B, 0x3A, 0x29, 0x7D, 0x5D: return false
                default: return true
                }
            }
            func pathEnd(_ from: Int) -> Int? {
                var j = from + 1
                let first = j
                while j < n, segmentByte(j) { j += 1 }
                guard j > first, j < n, u[j] == 0x2F else { return nil }
                while j < n, u[j] == 0x2F {
                    j += 1
                    while j < n, segmentByte(j) { j += 1 }
                }
                return j
            }
            var out: [UInt8] = []
            var copied = 0
            i = 0
            // `out` and `copied` are passed inout, not captured: a closure that mutates a capture boxes it.
            @inline(__always) func replace(_ out: inout [UInt8], _ copied: inout Int, _ from: Int, _ to: Int, _ kind: StaticString) {
                if out.isEmpty { out.reserveCapacity(n) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: u[copied..<from]))
                out.append(contentsOf: UnsafeBufferPointer(start: kind.utf8Start, count: kind.utf8CodeUnitCount))
                copied = to
            }
            while i < n {
                let b = u[i]
                let wordBefore = i > 0 && isWord(u[i - 1])
                if !wordBefore, isHex(b) {
                    if let end = uuidEnd(i) { replace(&out, &copied, i, end, "<uuid>"); i = end; continue }
                    if b == 0x30, i + 1 < n, u[i + 1] == 0x78 {
                        let run = hexRun(i + 2)
                        if run > 0, boundary(i + 2 + run) { replace(&out, &copied, i, i + 2 + run, "<addr>"); i += 2 + run; continue }
                    }
                    let run = hexRun(i)
                    if run >= 16, boundary(i + run) { replace(&out, &copied, i, i + run, "<hex>"); i += run; continue }
                    if isDigit(b) {
                        var j = i
                        while j < n, isDigit(u[j]) { j += 1 }
                        if j + 1 < n, u[j] == 0x2E, isDigit(u[j + 1]) {
                            j += 1
                            while j < n, isDigit(u[j]) { j += 1 }
                        }
                        replace(&out, &copied, i, j, "<n>"); i = j; continue
                    }
                } else if b == 0x2F, !wordBefore, i == 0 || u[i - 1] != 0x2E, let end = pathEnd(i) {
                    replace(&out, &copied, i, end, "<path>"); i = end; continue
                }
                // Inside a word nothing can start: every alternative wants a boundary or a non-word byte before it.
                i += 1
                if wordBefore || isWord(b) { while i < n, isWord(u[i]), isWord(u[i - 1]) { i += 1 } }
            }
            if copied == 0 && out.isEmpty { return String(decoding: u, as: UTF8.self) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: u[copied..<n]))
            return String(decoding: out, as: UTF8.self)
        }
    }
}

import Foundation
