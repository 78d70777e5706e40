import CDLogCore
import Foundation

/// Reads termination reasons in every shape Apple has printed them (crash-formats.md §3.2):
/// `Namespace SPRINGBOARD, Code 0x8badf00d`, `FRONTBOARD 2343432205` + RBS context lines,
/// `SIGNAL 5 Trace/BPT trap: 5`, `Namespace SIGNAL, Code 11 Segmentation fault: 11`,
/// `CAROUSEL, … watchdog transgression`, the ` | `-separated `Termination Description`,
/// the `.ips` `reasons` array and MetricKit's `terminationReason` string.
public enum CrashTermination {
    /// Namespace and numeric code from the first line of a termination reason.
    static func parseReasonLine(_ line: String) -> (namespace: String?, code: UInt64?) {
        let text = CrashText.trim(line)
        if text.hasPrefix("Namespace ") {
            let rest = text.dropFirst("Namespace ".count)
            let namespace = rest.prefix(while: { $0 != "," && $0 != " " })
            var code: UInt64? = nil
            if let codeRange = rest.range(of: "Code ") {
                let token = rest[codeRange.upperBound...].prefix(while: { !$0.isWhitespace && $0 != "," })
                code = CrashText.parseInteger(token)
            }
            return (namespace.isEmpty ? nil : String(namespace), code)
        }
        // "FRONTBOARD 2343432205", "SIGNAL 5 Trace/BPT trap: 5", "CAROUSEL, WatchConnectivity …"
        let first = text.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "<" || $0 == ">" })
        guard !first.isEmpty, first == first.uppercased(), first.contains(where: \.isLetter) else { return (nil, nil) }
        let rest = text.dropFirst(first.count)
        if rest.hasPrefix(" ") {
            let token = rest.dropFirst().prefix(while: { !$0.isWhitespace })
            return (String(first), CrashText.parseInteger(token))
        }
        if rest.hasPrefix(",") || rest.isEmpty { return (String(first), nil) }
        return (nil, nil)
    }

    /// The code of an embedded `<RBSTerminateContext| domain:10 code:0x8BADF00D …>`.
    public static func contextCode(in text: String) -> UInt64? {
        guard let range = text.range(of: "code:0x") ?? text.range(of: "code:0X") else { return nil }
        let digits = text[range.upperBound...].prefix(while: { $0.isHexDigit })
        return UInt64(digits, radix: 16)
    }

    /// Watchdog facts found anywhere in the termination text.
    public struct Watchdog {
        public var event: String?
        public var wallClockAllowance: Double?
        public var cpuAllowance: Double?
        public var totalCPUSeconds: Double?
        public var totalCPUPercent: Double?
        public var appCPUSeconds: Double?
        public var appCPUPercent: Double?
        public var visibility: String?
        public var mentionsWatchdog = false
    }

    public static func watchdog(in text: String) -> Watchdog {
        var result = Watchdog()
        result.event = CrashText.word(after: "WatchdogEvent:", in: text)
        if let range = text.range(of: " watchdog transgression") {
            result.mentionsWatchdog = true
            if result.event == nil {
                let before = text[..<range.lowerBound]
                let word = before.reversed().prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" })
                if !word.isEmpty { result.event = String(word.reversed()) }
            }
        }
        if text.contains("watchdog") { result.mentionsWatchdog = true }
        result.wallClockAllowance = CrashText.number(after: "exhausted real (wall clock) time allowance of", in: text)
            ?? CrashText.number(after: "Exhausted wall time allowance of", in: text)
            ?? CrashText.number(after: "Failed to terminate gracefully after", in: text)
        result.cpuAllowance = CrashText.number(after: "exhausted CPU time allowance of", in: text)
        if let range = text.range(of: "Elapsed total CPU time (seconds):") {
            let line = text[range.upperBound...].prefix(while: { $0 != "\n" && $0 != "|" })
            result.totalCPUSeconds = CrashText.leadingNumber(line)
            result.totalCPUPercent = percent(in: line)
        }
        if let range = text.range(of: "Elapsed application CPU time (seconds):") {
            let line = text[range.upperBound...].prefix(while: { $0 != "\n" && $0 != "|" })
            result.appCPUSeconds = CrashText.leadingNumber(line)
            result.appCPUPercent = percent(in: line)
        }
        result.visibility = CrashText.word(after: "ProcessVisibility:", in: text)
        return result
    }

    /// "… 41% CPU" → 41.
    private static func percent(in line: Substring) -> Double? {
        guard let range = line.range(of: "% CPU") else { return nil }
        let before = line[..<range.lowerBound]
        let digits = before.reversed().prefix(while: { $0.isNumber || $0 == "." })
        return Double(String(digits.reversed()))
    }

    /// Meanings of the termination codes of docs/crash-reports.md / Apple's SIGKILL page, for the summary text.
    public static func meaning(of code: UInt64) -> String? {
        switch code {
        case 0x8badf00d: return "watchdog"
        case 0xdead10cc: return "file lock held at suspension"
        case 0xc00010ff: return "thermal"
        case 0xbaadca11: return "PushKit call not reported to CallKit"
        case 0xbad22222: return "VoIP resumed too often"
        case 0xbaddd15c: return "killed to reclaim disk space"
        case 0x2182bad2: return "background task not completed in time"
        case 0x2182bad3: return "background URL session not completed in time"
        case 0x2182bad4: return "background fetch not completed in time"
        case 0xc51bad01: return "watchOS background task used too much CPU"
        case 0xc51bad02: return "watchOS background task not completed in time"
        case 0xc51bad03: return "watchOS background task not completed in time, system busy"
        case 0xd00d2bad: return "excessive use of system resources"
        case 0xdeadfa11: return "force-quit by the user"
        case 0x2bad45ec: return "security violation"
        default: return nil
        }
    }

    /// Mach exception numbers as MetricKit reports them.
    static func exceptionName(_ number: UInt64) -> String? {
        let names: [UInt64: String] = [
            1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION",
            5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL",
            9: "EXC_RPC_ALERT", 10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
        ]
        return names[number]
    }

    static func signalName(_ number: UInt64) -> String? {
        let names: [UInt64: String] = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT",
            8: "SIGFPE", 9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE",
            14: "SIGALRM", 15: "SIGTERM",
        ]
        return names[number]
    }
}
