import CDLogCore
/// Reads a resource report: the microstackshot text the system writes when a process goes over a CPU,
/// disk-writes or wakeups limit (`.ips` `bug_type` 206/202 cpu_resource, 145 disk writes, 142 wakeups, or
/// the same text without its JSON header). There is no exception and no crashed thread: the report says
/// which limit (`Event: cpu usage`), what was used over which window (`CPU: 90 seconds cpu time over 105
/// seconds …`), whether the process was killed (`Action taken: none`), and the heaviest stack the
/// samples found.
///
/// Contract: the report becomes the `CrashReport` shape of an `EXC_RESOURCE` crash (type `EXC_RESOURCE`,
/// subtype `CPU`, `CPU_FATAL` when the process was killed, `IO` for disk writes, `WAKEUPS`), with the
/// heaviest stack as the one thread (deepest frame first) and the figures as the exception message, so the
/// same rules and headlines apply. Every field is optional; a text without an `Event:` line naming a
/// resource is not a resource report (`isResourceReport` false).
enum MicrostackshotReader {
    static let stackHeader = "Heaviest stack for the target process:"

    /// True when `lines` (the first ones suffice) hold an `Event:` line naming a resource and a
    /// `Command:`, `Action taken:` or heaviest-stack line.
    static func isResourceReport(_ lines: some Sequence<Substring>) -> Bool {
        var event = false, companion = false
        for line in lines.prefix(80) {
            let trimmed = CrashText.trim(line)
            if trimmed.hasPrefix("Event:"), subtype(forEvent: value(of: trimmed), killed: false) != nil { event = true }
            if trimmed.hasPrefix("Command:") || trimmed.hasPrefix("Action taken:") || trimmed.hasPrefix(stackHeader) { companion = true }
            if event && companion { return true }
        }
        return false
    }

    /// The `EXC_RESOURCE` subtype for an `Event:` value; nil when the event names no resource limit.
    static func subtype(forEvent event: String, killed: Bool) -> String? {
        let lower = event.lowercased()
        if lower.hasPrefix("cpu") { return killed ? "CPU_FATAL" : "CPU" }
        if lower.contains("disk writes") || lower.hasPrefix("writes") { return "IO" }
        if lower.hasPrefix("wakeups") { return "WAKEUPS" }
        if lower.hasPrefix("memory") { return "MEMORY" }
        return nil
    }

    static func read(lines: ArraySlice<Substring>, firstLineNumber: Int, format: CrashReport.Format) -> CrashReport {
        var report = CrashReport(format: format)
        report.isResourceReport = true
        report.firstLine = firstLineNumber
        report.lastLine = firstLineNumber + max(lines.count - 1, 0)
        var fields: [String: String] = [:]
        var lastKey: String?
        var inStack = false
        var stack: [CrashFrame] = []
        for line in lines {
            let trimmed = CrashText.trim(line)
            if inStack {
                // The stack ends at a blank line; only the target process's is read (not `Powerstats for:`).
                if trimmed.isEmpty { if !stack.isEmpty { break } else { continue } }
                if let frame = frame(trimmed) { stack.append(frame) }
                continue
            }
            if trimmed.hasPrefix(stackHeader) { inStack = true; continue }
            if trimmed.hasPrefix("Powerstats for:") { break }
            if trimmed.isEmpty { lastKey = nil; continue }
            // A value a page wrapped onto the next line (`(60% cpu` / ` average), exceeding …`).
            if let first = line.first, first == " " || first == "\t", let key = lastKey {
                fields[key, default: ""] += " " + trimmed
                continue
            }
            guard let colon = trimmed.firstIndex(of: ":") else { lastKey = nil; continue }
            let key = String(trimmed[..<colon])
            guard !key.isEmpty, key.count <= 32 else { lastKey = nil; continue }
            fields[key] = CrashText.trim(trimmed[trimmed.index(after: colon)...]).description
            lastKey = key
        }
        applyProcessFields(fields, to: &report)
        let action = fields["Action taken"] ?? ""
        let killed = action.lowercased().contains("kill") || action.lowercased().contains("terminat")
        report.exceptionType = "EXC_RESOURCE"
        report.exceptionSubtype = fields["Event"].flatMap { subtype(forEvent: $0, killed: killed) }
        report.resourceEvent = fields["Event"]
        var message: [String] = []
        for key in ["CPU", "Writes", "Wakeups", "Memory"] { if let value = fields[key] { message.append(value) } }
        if !action.isEmpty { message.append("action taken: \(action)") }
        report.exceptionMessage = message.isEmpty ? nil : message.joined(separator: "; ")
        report.writesCaused = fields["Writes caused"]
        report.totalCPUTime = fields["CPU used"].flatMap(seconds)
        report.totalSampledTime = fields["Duration Sampled"].flatMap(seconds)
        if stack.isEmpty {
            report.missing.append("the heaviest stack")
        } else {
            // Printed root first (the thread's entry point); a crash report lists the deepest frame first.
            report.threads = [CrashThread(number: 0, name: "heaviest stack", crashed: true, frames: stack.reversed())]
            report.faultingThread = 0
        }
        return report
    }

    /// The header of a spindump-family report (resource and hang reports): the process (`Command:`, or the
    /// last part of `Path:`), `Identifier:`, `Version: 1.0 (1)` (short version and build; `??? (???)` when
    /// the process has none), `OS Version:`, `Hardware model:`, `Incident Identifier:`, `Date/Time:`.
    static func applyProcessFields(_ fields: [String: String], to report: inout CrashReport) {
        let command = fields["Command"].map { String($0.prefix { $0 != " " && $0 != "[" }) }
        report.appName = command.flatMap { $0.isEmpty ? nil : $0 } ?? fields["Path"].map { String($0.split(separator: "/").last ?? "") }
        report.bundleID = fields["Identifier"]
        if let version = fields["Version"], !version.hasPrefix("???") {
            if let open = version.firstIndex(of: "("), let close = version.lastIndex(of: ")"), open < close {
                report.appVersion = CrashText.trim(version[..<open]).description
                report.build = String(version[version.index(after: open)..<close])
            } else {
                report.appVersion = version
            }
        }
        report.osVersion = fields["OS Version"]
        report.device = fields["Hardware model"] ?? fields["Hardware Model"]
        report.incidentID = fields["Incident Identifier"]
        report.timestamp = fields["Date/Time"]
    }

    /// `90s`, `150.41s`: seconds.
    private static func seconds(_ text: String) -> Double? {
        Double(text.prefix { $0.isNumber || $0 == "." })
    }

    /// `value` of a `Key:  value` line.
    static func value(of line: Substring) -> String {
        guard let colon = line.firstIndex(of: ":") else { return "" }
        return CrashText.trim(line[line.index(after: colon)...]).description
    }

    /// A stack line: `18  ??? (libdispatch.dylib + 89464) [0x19146ad78]`, or symbolicated
    /// `18  __CFRunLoopRun + 1234 (CoreFoundation + 56789) [0x…]`; the leading number is the sample count.
    static func frame(_ line: Substring) -> CrashFrame? {
        var rest = line.drop { $0.isNumber }
        guard rest.startIndex != line.startIndex, let first = rest.first, first == " " || first == "\t" else { return nil }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        // The image part is the last "(Image + offset)" before an optional "[0x…]".
        if let bracket = rest.lastIndex(of: "["), rest[bracket...].hasPrefix("[0x") { rest = rest[..<bracket] }
        rest = CrashText.trim(rest)
        guard rest.last == ")", let open = rest.lastIndex(of: "(") else {
            return rest.isEmpty ? nil : CrashFrame(image: nil, symbol: String(rest), offset: nil)
        }
        let inside = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
        var image = CrashText.trim(inside)
        var offset: UInt64?
        if let plus = inside.range(of: " + ") {
            image = CrashText.trim(inside[..<plus.lowerBound])
            offset = UInt64(CrashText.trim(inside[plus.upperBound...]))
        }
        let symbolText = CrashText.trim(rest[..<open])
        let symbol = symbolText == "???" || symbolText.isEmpty ? nil : String(symbolText)
        return CrashFrame(image: image.isEmpty ? nil : String(image), symbol: symbol, offset: offset)
    }
}
