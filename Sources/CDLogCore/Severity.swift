/// How serious a finding is. Ordered: `debug` < `info` < `warning` < `error` < `fatal`.
///
/// Severities are judged by what an entry says, never by the level word printed in the line
/// (real consoles log failures at `debug` level and throttling only as `warning:`).
public enum Severity: Int, Comparable, CaseIterable, Sendable, CustomStringConvertible {
    case debug, info, warning, error, fatal

    /// Parses the lower-case name used in rule files, JSON and command-line options.
    /// Returns nil for anything else.
    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning": self = .warning
        case "error": self = .error
        case "fatal": self = .fatal
        default: return nil
        }
    }

    /// The lower-case name, as written in output and accepted by `init(name:)`.
    public var name: String {
        switch self {
        case .debug: return "debug"
        case .info: return "info"
        case .warning: return "warning"
        case .error: return "error"
        case .fatal: return "fatal"
        }
    }

    public var description: String { name }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

    /// All names, for usage messages: "debug, info, warning, error, fatal".
    public static let allNames = Severity.allCases.map(\.name).joined(separator: ", ")
}
