import ArgumentParser
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `--color`: colour in text output.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never

    init?(argument: String) { self.init(rawValue: argument.lowercased()) }

    /// Whether to colour standard output: `auto` colours a terminal unless `NO_COLOR` is set to a
    /// non-empty value (no-color.org) or `TERM` is `dumb`.
    var colorsStandardOutput: Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
            return isatty(1) == 1
        }
    }
}
