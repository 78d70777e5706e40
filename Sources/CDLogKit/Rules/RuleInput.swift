import CDLogCore

/// Which entries a rule applies to.
///
/// Crash-report summaries are classified only by `crash` and `any` rules, so words in stack frames
/// never trigger console-log rules; console entries only by `log` and `any` rules.
public enum RuleInput: String, CaseIterable, Sendable {
    /// Console entries (the default).
    case log
    /// Only crash-report summaries (the text `CrashReportReader` produces).
    case crash
    /// Both, e.g. a termination code that appears in reports and in pasted log lines.
    case any
    /// Console entries that open with a stack frame (`StackLines`) and that no other rule classified: a
    /// crashed thread pasted without its crash line. Tried only there, outside the prefilter, so that a
    /// pattern for frames (short literals, `0x`) costs nothing on other entries.
    case stack

    func applies(toCrashReport isCrashReport: Bool) -> Bool {
        switch self {
        case .any: return true
        case .crash: return isCrashReport
        case .log: return !isCrashReport
        case .stack: return false
        }
    }

    /// Whether the rule's examples are crash-report summaries (`rules test` classifies them as such).
    var readsCrashReports: Bool { self == .crash || self == .any }
}
