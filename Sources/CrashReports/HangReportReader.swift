import CDLogCore
/// Reads a hang report: the spindump text macOS writes when an app stops responding (`Event: hang`, a
/// `.hang` / `.spin` file or the "Report" button of the "not responding" dialog) and the spindump a user
/// takes of a process by hand (`Data Source: Stackshots`, no `Event:`). There is no exception and nothing
/// was killed: the report says how long the app did not respond (`Duration:`, `Duration Sampled:`, `(process
/// was unresponsive for N seconds before sampling)`) and where its main thread spent the samples.
///
/// Contract: the report becomes the `CrashReport` shape of a MetricKit hang (`diagnosticType` `hang`,
/// `hangDuration`) with the main thread's heaviest path as its one thread (queue `com.apple.main-thread`,
/// deepest frame first), so the same rules, blame and headlines apply. The main thread's path is the
/// `Heaviest stack for the main thread of the target process:` list when the report has one, or else the
/// first child of every level of the target process's main-thread call tree (the heaviest path of a
/// heavy-format report, a representative one of a timeline). Every field is optional; text that is not a
/// hang report is refused by `isHangReport`, never read wrongly.
enum HangReportReader {
    static let mainStackHeader = "Heaviest stack for the main thread of the target process:"

    /// True when `lines` (the first ones suffice) are a hang report: `Event: hang`, or a spindump of a
    /// process with no event (`Data Source: Stackshots`), with its `Command:` or main-thread stack line.
    static func isHangReport(_ lines: some Sequence<Substring>) -> Bool {
        var hang = false, otherEvent = false, stackshots = false, companion = false
        for line in lines.prefix(80) {
            let trimmed = CrashText.trim(line)
            if trimmed.hasPrefix("Event:") {
                if MicrostackshotReader.value(of: trimmed).lowercased().hasPrefix("hang") { hang = true } else { otherEvent = true }
            }
            // Not `Microstackshots`: resource reports are read by MicrostackshotReader.
            if trimmed.hasPrefix("Data Source:"), MicrostackshotReader.value(of: trimmed).hasPrefix("Stackshots") { stackshots = true }
            if trimmed.hasPrefix("Command:") || trimmed.hasPrefix(mainStackHeader) { companion = true }
        }
        return companion && (hang || (stackshots && !otherEvent))
    }

    static func read(lines: ArraySlice<Substring>, firstLineNumber: Int, format: CrashReport.Format) -> CrashReport {
        var report = CrashReport(format: format)
        report.firstLine = firstLineNumber
        report.lastLine = firstLineNumber + max(lines.count - 1, 0)
        report.diagnosticType = "hang"
        var fields: [String: String] = [:]
        var heaviest: [CrashFrame] = []
        var inHeaviest = false, inHeader = true
        var notes: [String] = []
        var index = lines.startIndex
        var mainTree: (lines: ArraySlice<Substring>, isMain: Bool)?
        while index < lines.endIndex {
            let line = lines[index]
            let trimmed = CrashText.trim(line)
            index += 1
            if inHeaviest {
                if trimmed.isEmpty { if heaviest.isEmpty { continue } else { inHeaviest = false; continue } }
                // Kernel frames (`*1  hndl_alltraps …`) are the system call the thread waited in, not the app's.
                if !trimmed.hasPrefix("*"), let frame = MicrostackshotReader.frame(trimmed) { heaviest.append(frame) }
                continue
            }
            if trimmed.hasPrefix(mainStackHeader) { inHeaviest = true; inHeader = false; continue }
            if trimmed.hasPrefix("Process:") {
                // The target process comes first; the other processes' sections are not read.
                if !inHeader && mainTree != nil { break }
                inHeader = false
                mainTree = mainThreadTree(lines[index...])
                continue
            }
            if trimmed.hasPrefix("Note:"), mainTree != nil || !inHeader { notes.append(MicrostackshotReader.value(of: trimmed)) }
            if trimmed.hasPrefix("---") { inHeader = false; continue }
            guard inHeader, let colon = trimmed.range(of: ":") else { continue }
            let key = String(trimmed[..<colon.lowerBound])
            guard !key.isEmpty, key.count <= 32, fields[key] == nil else { continue }
            fields[key] = MicrostackshotReader.value(of: trimmed)
        }
        MicrostackshotReader.applyProcessFields(fields, to: &report)
        report.hangDuration = duration(fields["Duration"], sampled: fields["Duration Sampled"], notes: notes)
        // Printed root first (the thread's entry point); a crash report lists the deepest frame first.
        if !heaviest.isEmpty {
            report.threads = [CrashThread(number: 0, name: "main thread (heaviest stack)", queue: "com.apple.main-thread",
                                          frames: heaviest.reversed())]
        } else if let tree = mainTree, case let path = heaviestPath(tree.lines), !path.isEmpty {
            report.threads = [CrashThread(number: 0, name: tree.isMain ? "main thread (heaviest path)" : "first thread of the process (heaviest path)",
                                          queue: tree.isMain ? "com.apple.main-thread" : nil, frames: path.reversed())]
            if !tree.isMain { report.missing.append("the main thread's stack") }
        } else {
            report.missing.append("the main thread's stack")
        }
        return report
    }

    /// How long the app did not respond, in seconds. From report version 35 `Duration:` is the whole hang
    /// and `Duration Sampled:` its sampled part; before, `Duration:` is the sampling window and the time
    /// unresponsive before it is in its parenthesis (`9.99s (process was unresponsive for 94 seconds
    /// before sampling)`) or in the process's `Note: Unresponsive for N seconds before sampling`.
    static func duration(_ total: String?, sampled: String?, notes: [String]) -> Double? {
        guard let total, let seconds = CrashText.seconds(String(total.prefix { $0 != " " && $0 != "(" })) else { return nil }
        if sampled != nil { return seconds }
        let before = unresponsiveSeconds(total) ?? notes.lazy.compactMap(unresponsiveSeconds).first
        return seconds + (before ?? 0)
    }

    /// N of `unresponsive for N seconds`.
    private static func unresponsiveSeconds(_ text: String) -> Double? {
        guard let range = text.range(of: "nresponsive for ") else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    /// The call tree of the target process's main thread (`Thread 0x… DispatchQueue "com.apple.main-thread"`
    /// or, in older reports, `DispatchQueue 1`), or of its first thread; the lines after its header up to
    /// the next thread, image list or process.
    static func mainThreadTree(_ lines: ArraySlice<Substring>) -> (lines: ArraySlice<Substring>, isMain: Bool)? {
        var first: Int?, main: Int?
        var index = lines.startIndex
        while index < lines.endIndex {
            let trimmed = CrashText.trim(lines[index])
            if trimmed.hasPrefix("Process:") || trimmed.hasPrefix("Binary Images:") { break }
            if trimmed.hasPrefix("Thread 0x") {
                if first == nil { first = index }
                if main == nil, trimmed.contains("DispatchQueue \"com.apple.main-thread\"") || isQueueOne(trimmed) { main = index }
            }
            index += 1
        }
        guard let start = main ?? first else { return nil }
        var end = start + 1
        while end < lines.endIndex {
            let trimmed = CrashText.trim(lines[end])
            if trimmed.hasPrefix("Thread 0x") || trimmed.hasPrefix("Binary Images:") || trimmed.hasPrefix("Process:") { break }
            end += 1
        }
        return (lines[(start + 1)..<end], main != nil)
    }

    /// `DispatchQueue 1` followed by white space: the main queue's number in report versions 25 and 26.
    private static func isQueueOne(_ header: Substring) -> Bool {
        guard let range = header.range(of: "DispatchQueue 1") else { return false }
        return header[range.upperBound...].first.map { $0 == " " || $0 == "\t" } ?? true
    }

    /// The first child at every level of a call tree printed with two spaces more per level, root first,
    /// down to the first kernel frame (whose `*` takes the last space of its indentation).
    static func heaviestPath(_ tree: ArraySlice<Substring>) -> [CrashFrame] {
        var path: [CrashFrame] = []
        var depth = -1
        for line in tree {
            let trimmed = CrashText.trim(line)
            if trimmed.isEmpty { if path.isEmpty { continue } else { break } }
            // The thread's state line (`<process frontmost, thread QoS …>`) precedes its tree.
            if trimmed.hasPrefix("<") { continue }
            let indent = line.prefix { $0 == " " || $0 == "\t" || $0 == "*" }.count
            guard indent > depth else { break }
            if trimmed.hasPrefix("*") { break }
            guard let frame = MicrostackshotReader.frame(trimmed) else { continue }
            path.append(frame)
            depth = indent
        }
        return path
    }
}
