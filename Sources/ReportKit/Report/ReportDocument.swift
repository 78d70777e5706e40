import CDLogCore
import CDLogKit
import StoreInspection

/// Everything a report says, already redacted when asked, in the order it is rendered. The three
/// renderers (Markdown, HTML, JSON) are pure functions of this value.
public struct ReportDocument: Sendable {
    public struct Fact: Sendable {
        public var label: String
        public var value: String
        /// Where the value comes from (`crash.ips:1-402`, a store path).
        public var source: String?
    }

    public struct Crash: Sendable {
        public var citation: Citation
        public var rule: String?
        public var title: String?
        public var severity: Severity?
        public var headline: String
        /// Selected fields in a fixed order (termination, reason, watchdog event, CPU, blamed cause…).
        public var facts: [Fact]
        public var blamedFrames: [String]
        /// The crashed thread ("2 (com.example.sync)") when it is not the main thread, and its top frames.
        public var crashedThread: String?
        public var crashedThreadFrames: [String]
        /// The uncaught exception's own backtrace (`Last Exception Backtrace`), throw machinery left out.
        public var exceptionBacktrace: [String]
        public var mainThreadFrames: [String]
        public var cannotTell: [String]
    }

    public struct Store: Sendable {
        public var path: String
        public var facts: [Fact]
        public var entities: [(name: String, rows: Int?)]
        public var findings: [(id: String, severity: Severity, title: String, detail: String)]
        /// walcheck's own JSON for the store (docs/domain.md, "Output contracts"), redacted when asked.
        public var walcheckJSON: String
    }

    public var sources: [String]
    public var storePaths: [String]
    public var redacted: Bool
    public var redactions: [(kind: String, values: Int)]
    public var diagnoses: [DiagnosisResult]
    /// When no diagnosis holds: the most severe classified event, as a one-sentence headline.
    public var fallbackHeadline: String?
    public var fallbackCitation: Citation?
    public var fallbackAdvice: String?
    /// Set when lines the report cites hold `<private>`: the unified log hid values (record names, errors'
    /// user info) that the advice may point at; says how to capture them.
    public var privateDataNote: String?
    /// What the evidence cannot show, each with how to get it (issue 26): no store, a store without its
    /// -wal, no debug output in the logs, times without a zone, a crash outside the logs' window.
    public var evidenceGaps: [EvidenceGap] = []
    public struct EvidenceGap: Sendable {
        /// Stable id (`no-store`, `store-without-wal`, `no-debug-output`, `no-time-zone`, `crash-outside-logs`).
        public var id: String
        public var gap: String
        public var how: String
    }
    public var environment: [Fact]
    public var timeline: [TimelineRow]
    /// "time" when every row has a timestamp (rows sorted by time), else "input".
    public var timelineOrder: String
    public var timelineOmittedRows: Int
    public var timelineOmittedEvents: Int
    public var timelineMinimumSeverity: Severity
    public var entries: Int
    public var classified: Int
    public var byCategory: [(Category, Int)]
    public var bySeverity: [(Severity, Int)]
    public var crashes: [Crash]
    public var crashesOmitted: Int
    public var stores: [Store]
    public var templates: [TemplateRow]
    public var templatesOmittedLines: Int
    public var unclassifiedRelevant: Int
    public var chart: Chart
    /// The highest severity among classified entries, store findings and diagnoses (for `--fail-on`).
    public var highestSeverity: Severity?

    public var headline: DiagnosisResult? { diagnoses.first }
}

/// Events over time by category, bucketed for the HTML chart.
public struct Chart: Sendable {
    /// "time" (x = seconds, `start`/`end` ISO-like labels) or "input" (x = entry order).
    public var axis: String
    public var startLabel: String
    public var endLabel: String
    public var buckets: Int
    /// Category → count per bucket (categories in DOMAIN order, only those present).
    public var series: [(Category, [Int])]
    public var isEmpty: Bool { series.isEmpty }

    static func make(_ points: [ChartPoint], buckets: Int = 40) -> Chart {
        guard !points.isEmpty else { return Chart(axis: "input", startLabel: "", endLabel: "", buckets: buckets, series: []) }
        let timed = points.filter { $0.time != nil }
        let useTime = timed.count * 2 >= points.count && timed.count >= 2
        let used = useTime ? timed : points
        let xs = used.map { useTime ? $0.time! : Double($0.ordinal) }
        let lo = xs.min()!, hi = xs.max()!
        let span = max(hi - lo, 1e-9)
        var table: [Category: [Int]] = [:]
        for (point, x) in zip(used, xs) {
            let bucket = min(buckets - 1, Int((x - lo) / span * Double(buckets)))
            table[point.category, default: [Int](repeating: 0, count: buckets)][bucket] += 1
        }
        let series = Category.allCases.compactMap { c in table[c].map { (c, $0) } }
        if useTime {
            return Chart(axis: "time", startLabel: Chart.clock(lo), endLabel: Chart.clock(hi) + " (" + Chart.duration(hi - lo) + ")",
                         buckets: buckets, series: series)
        }
        return Chart(axis: "input", startLabel: "entry \(Int(lo))", endLabel: "entry \(Int(hi))", buckets: buckets, series: series)
    }

    /// Seconds since 1970 (UTC) → "2024-07-02 00:13:43Z".
    static func clock(_ t: Double) -> String {
        let seconds = Int(t.rounded(.down))
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        // Civil from days (Howard Hinnant).
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d)) \(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }

    static func duration(_ s: Double) -> String {
        if s < 120 { return Format.decimal(s, places: 1) + " s" }
        if s < 7200 { return Format.decimal(s / 60, places: 1) + " min" }
        return Format.decimal(s / 3600, places: 1) + " h"
    }
}
