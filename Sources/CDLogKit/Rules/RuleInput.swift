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

    func applies(toCrashReport isCrashReport: Bool) -> Bool {
        switch self {
        case .any: return true
        case .crash: return isCrashReport
        case .log: return !isCrashReport
        }
    }
}
