/// The input formats cdlog recognises. Detected per source by `FormatDetector`; `--input-format` overrides.
public enum InputFormat: String, CaseIterable, Sendable {
    /// Xcode console without a prefix (`CoreData: debug: CoreData+CloudKit: …`), bare `Error Domain=…`
    /// and `<CKError …>` text: every line that is not a continuation starts an entry.
    case xcode
    /// Xcode/NSLog with the `2021-08-10 15:27:55.123456+0800 App[1234:567890] ` prefix.
    case nslog
    /// `log show`/`log stream` default style (`Timestamp  Thread  Type  Activity  PID  TTL` columns).
    case logDefault = "log-default"
    /// `log show --style compact` (`2021-08-10 15:27:55.123 Df App[1234:5678] [sub:cat] …`).
    case logCompact = "log-compact"
    /// `log show --style syslog` (`2021-08-10 15:27:55.123456+0800  host App[1234]: (Lib) [sub:cat] …`).
    case logSyslog = "log-syslog"
    /// `log show --style json`: one JSON array of event objects.
    case logJSON = "log-json"
    /// `log show --style ndjson`: one JSON event object per line.
    case logNDJSON = "log-ndjson"
    /// A copy from Console.app: `type<TAB>time<TAB>process<TAB>message`.
    case consoleApp = "console"
    /// Old device syslog: `Jul  8 12:00:01 iPhone App[123] <Error>: …`.
    case deviceSyslog = "device-syslog"
    /// Other time-stamped prefixes: old Console.app copies (`8/4/15 11:54:15.460 AM App[123]: …`,
    /// `27.02.12 19:19:49,064 App[123]: …`) and NSLog's prefix without a process name
    /// (`2018-03-17 01:42:36.743[7344:32574382] …`, `11:43:58.831 [1859:2672475] …`).
    case timestamped
    /// A crash report: `.ips` JSON, legacy `.crash` text or a MetricKit payload (one or several reports).
    case crashReport = "crash"

    /// Whether an entry's prefix can name its subsystem (`[com.apple.coredata:sql]`, a JSON event's
    /// `subsystem`): the unified log's styles and Console.app copies. Xcode, NSLog, device-syslog and
    /// other time-stamped prefixes hold a time and a process (Xcode's iOS 10–13 console adds a
    /// `[subsystem:category]` now and then, which the entry's header then names).
    public var prefixNamesSubsystem: Bool {
        switch self {
        case .xcode, .nslog, .deviceSyslog, .timestamped, .crashReport: return false
        case .logDefault, .logCompact, .logSyslog, .logJSON, .logNDJSON, .consoleApp: return true
        }
    }

    /// Names accepted by `--input-format` ("auto" is handled by the CLI).
    public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")
}
