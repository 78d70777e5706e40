import CDLogCore
import Foundation

/// The format-independent content of one crash (or MetricKit diagnostic) report, filled by the
/// `.ips`, legacy-text and MetricKit readers and turned into an `Entry` by `CrashSummary`.
/// Every property is optional: a reader sets what its report states and nothing else.
public struct CrashReport {
    public enum Format: String {
        case ips, crash, metrickit
    }

    public var format: Format
    public var appName: String?
    public var bundleID: String?
    public var appVersion: String?
    public var build: String?
    public var osVersion: String?
    public var device: String?
    public var incidentID: String?
    /// As the report prints it; normalised to ISO 8601 by `CrashSummary`.
    public var timestamp: String?

    public var exceptionType: String?
    public var signal: String?
    public var exceptionSubtype: String?
    public var exceptionMessage: String?
    public var exceptionCodes: String?
    /// `Exception Note` lines (`EXC_CORPSE_NOTIFY`, `SIMULATED (this is NOT a crash)`, `NON-FATAL CONDITION
    /// (this is NOT a crash)`); an `.ips` body's `isSimulated` / `isNonFatal` read as the notes they print.
    public var exceptionNotes: [String] = []
    /// Uncaught language exception (`NSInternalInconsistencyException`) and its reason, when stated.
    public var exceptionName: String?
    public var exceptionReason: String?
    /// `Application Specific Information` / `asi` lines.
    public var applicationSpecific: [String] = []

    public var terminationNamespace: String?
    /// Numeric termination code as given (hex or decimal) — normalised by `CrashTermination`.
    public var terminationCodeValue: UInt64?
    /// Every termination text the report carries (reason, description, RBS context lines), joined by "\n".
    public var terminationText: String?

    /// MetricKit diagnostic kind (crash, hang, cpuException, diskWriteException, appLaunch), `hang` for a
    /// hang report, `stackshot` for a stackshot.
    public var diagnosticType: String?
    /// A stackshot's trigger (`reason`), its code (`exception`: `0xbaaaaaad` when someone asked for it)
    /// and what it says of the frontmost process's main thread.
    public var stackshotReason: String?
    public var stackshotCode: String?
    public var stackshotLines: [String] = []
    public var hangDuration: Double?
    public var launchDuration: Double?
    public var totalCPUTime: Double?
    public var totalSampledTime: Double?
    public var writesCaused: String?

    public var threads: [CrashThread] = []
    /// A resource report (`MicrostackshotReader`): its one thread is the heaviest stack the samples found,
    /// not a thread that crashed, and there is no main thread.
    public var isResourceReport = false
    /// The crashed thread's number as the report states it (`Crashed Thread: 4`, `faultingThread`), kept
    /// when the thread's own section is missing (a cut report), so `faultingThread` can still be named.
    public var statedCrashedThread: Int?
    /// A resource report's `Event:` (`cpu usage`, `disk writes`, `wakeups`).
    public var resourceEvent: String?
    /// Index into `threads` of the thread the report says crashed / was attributed.
    public var faultingThread: Int?
    public var lastExceptionBacktrace: [CrashFrame] = []

    /// What could not be read (for `partial`).
    public var missing: [String] = []
    /// 1-based lines of the document this report spans.
    public var firstLine = 1
    public var lastLine = 1

    init(format: Format) {
        self.format = format
    }
}
