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
    /// Commands to run next (a sysdiagnose's `log show` over the crash window, then the report again).
    public var nextCommands: [String] = []
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
