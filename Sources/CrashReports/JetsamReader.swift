import CDLogCore
/// Reads the JSON body of a jetsam event report (`JetsamEvent-….ips`, `bug_type 298`): no exception and
/// no threads, but every process the system knew about when it ended one or more to reclaim memory
/// (Apple's "Identifying high-memory use with jetsam event reports"). The report is turned into the same
/// `CrashReport` shape as a crash: termination namespace `JETSAM`, a reason line naming the killed
/// process, why, and how much it held.
///
/// Contract: every key is optional and type-checked; a body without a `processes` array is not a jetsam
/// report (`isJetsam` false). The killed process is the one with a `reason` that was frontmost, else the
/// largest killed one, else the first killed one.
enum JetsamReader {
    /// Reasons (`processes[].reason`) and what they mean.
    static let reasons: [String: String] = [
        "per-process-limit": "it used more memory than the system allows one process",
        "vm-pageshortage": "the system ran short of memory and ended background processes for the foreground one",
        "vnode-limit": "the system ran out of open-file structures (vnodes) and ended processes to free them",
        "highwater": "a system process went over its expected memory (high-water mark)",
        "fc-thrashing": "the system file cache thrashed on a memory-mapped file read out of order",
        "jettisoned": "the system ended it for another memory reason",
        "memory-pressure": "the system ended it under memory pressure",
    ]

    static func isJetsam(_ body: CrashJSON, bugType: String) -> Bool {
        body["processes"]?.array != nil && (bugType == "298" || body["largestProcess"] != nil || body["memoryStatus"] != nil)
    }

    /// True for one member of a jetsam report's `processes` given alone: a process name or pid, its
    /// resident pages and a kill reason.
    static func isProcessEntry(_ value: CrashJSON) -> Bool {
        value["rpages"] != nil && value["reason"]?.string != nil && (value["name"] != nil || value["pid"] != nil)
            && value["processes"] == nil
    }

    static func apply(_ body: CrashJSON, to report: inout CrashReport) {
        report.device = report.device ?? body["product"]?.string
        report.incidentID = report.incidentID ?? body["incident"]?.string
        report.timestamp = report.timestamp ?? body["date"]?.string
        report.osVersion = report.osVersion ?? body["build"]?.string
        let pageSize = body["pageSize"]?.integer.map(Int64.init(clamping:)) ?? 16_384
        let processes = body["processes"]?.array ?? []
        let largest = body["largestProcess"]?.string
        func pages(_ p: CrashJSON) -> Int64 { p["rpages"]?.integer.map(Int64.init(clamping:)) ?? 0 }
        let killed = processes.filter { $0["reason"]?.string != nil }
        let frontmost = killed.first { ($0["states"]?.array ?? []).contains { $0.string == "frontmost" } }
        let chosen = frontmost ?? killed.max { pages($0) < pages($1) } ?? killed.first
        report.terminationNamespace = "JETSAM"
        var lines: [String] = []
        if let chosen {
            let name = chosen["name"]?.string ?? "a process"
            let reason = chosen["reason"]?.string ?? "?"
            let resident = pages(chosen)
            var line = "jetsam \(reason): \(name) was ended because \(reasons[reason] ?? "of memory (\(reason))")"
            if resident > 0 { line += "; it held \(ByteCount.text(resident * pageSize)) (\(resident) pages of \(ByteCount.text(pageSize)))" }
            if let peak = chosen["lifetimeMax"]?.integer, peak > 0 {
                line += ", at most \(ByteCount.text(Int64(clamping: peak) * pageSize)) in its lifetime"
            }
            lines.append(line)
            let states = (chosen["states"]?.array ?? []).compactMap(\.string)
            if !states.isEmpty { lines.append("state: " + states.joined(separator: ", ")) }
            report.appName = report.appName ?? chosen["name"]?.string
        } else {
            lines.append("jetsam: no process in the report has a kill reason (a memory snapshot, nothing was ended)")
        }
        if let largest {
            let entry = processes.first { $0["name"]?.string == largest }
            let size = entry.map { ByteCount.text(pages($0) * pageSize) }
            lines.append("largest process: \(largest)" + (size.map { " (\($0))" } ?? "") + (largest == chosen?["name"]?.string ? ", the one ended" : ""))
        }
        if killed.count > 1 { lines.append("processes ended: \(killed.count)") }
        report.terminationText = lines.joined(separator: "\n")
    }
}

