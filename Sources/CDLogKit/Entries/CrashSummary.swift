import CDLogCore
import Foundation
import CrashReports

/// Turns a `CrashReport` into an `Entry`: the preset fields of the JSON contract (docs/domain.md, "Output contracts") and the
/// normalised multi-line summary that `Rules/crash.yaml` and `Rules/watchdog-crash.yaml` match.
///
/// Summary lines (each present only when known; every line after the first is indented by two spaces so
/// that the summary stays one entry in any line-based format), in this order:
/// ```
/// Crash report (ips) for App 1.0 (12), iPhone OS 17.5 (21F79), iPhone14,2
/// Diagnostic: hang                                  (MetricKit only)
/// Exception: EXC_CRASH (SIGKILL)
/// Exception subtype: CPU
/// Exception message: …
/// Uncaught exception: NSInternalInconsistencyException: reason
/// Termination: FRONTBOARD 0x8badf00d (watchdog)
/// Termination reason: scene-create watchdog transgression: … of 19.97 seconds
/// Watchdog event: scene-create
/// CPU: app 0.13 s (0%) of 19.97 s wall clock (waiting)
/// Hang: 20 s | Launch: 20 s | CPU exception: … | Disk writes: …
/// Blamed cause: migration-wal-checkpoint
/// Blamed frames: CoreData  -[NSSQLiteConnection _walCheckpointWithMode:]; …
/// Main thread: …
/// Crashed thread 3: …
/// Exception backtrace: …
/// Application specific: …
/// Partial report: missing …
/// Cannot tell: …
/// ```
enum CrashSummary {
    static let mainThreadFrameCount = 12

    static func entry(for report: CrashReport, source: String) -> Entry {
        var fields: [(name: String, value: String)] = []
        func add(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            fields.append((name, value))
        }
        var lines: [String] = []

        let terminationText = report.terminationText ?? ""
        var code = report.terminationCodeValue
        if code == nil || code == 0 || report.terminationNamespace == "FRONTBOARD" || report.terminationNamespace == "SPRINGBOARD" {
            code = CrashTermination.contextCode(in: terminationText) ?? code
        }
        let watchdogFacts = CrashTermination.watchdog(in: terminationText)
        let isWatchdog = code == 0x8badf00d || watchdogFacts.mentionsWatchdog
        let verdict = CrashBlame.verdict(for: report, watchdog: isWatchdog, terminationCode: code)

        add("reportFormat", report.format.rawValue)
        add("appName", report.appName)
        add("bundleID", report.bundleID)
        add("appVersion", report.appVersion)
        add("build", report.build)
        add("osVersion", report.osVersion)
        add("device", report.device)
        add("incidentID", report.incidentID)
        add("diagnosticType", report.diagnosticType)
        add("stackshotReason", report.stackshotReason)
        add("stackshotCode", report.stackshotCode)
        add("exceptionType", report.exceptionType)
        add("signal", report.signal)
        add("exceptionSubtype", report.exceptionSubtype)
        if !report.exceptionNotes.isEmpty { add("exceptionNote", report.exceptionNotes.joined(separator: "; ")) }
        add("exceptionMessage", report.exceptionMessage.map { String($0.prefix(500)) })
        add("resourceEvent", report.resourceEvent)
        add("exceptionName", report.exceptionName)
        add("exceptionReason", report.exceptionReason.map { String($0.prefix(500)) })
        add("terminationNamespace", report.terminationNamespace)
        let codeText = code.map(CrashText.hex)
        add("terminationCode", codeText)
        let reasonLine = reasonSummary(terminationText)
        add("terminationReason", reasonLine)
        add("watchdogEvent", watchdogFacts.event)
        add("wallClockAllowance", watchdogFacts.wallClockAllowance.map(CrashText.formatSeconds))
        add("elapsedWallClock", (report.hangDuration ?? report.launchDuration).map(CrashText.formatSeconds))
        add("cpuAllowance", watchdogFacts.cpuAllowance.map(CrashText.formatSeconds))
        add("appCPUSeconds", watchdogFacts.appCPUSeconds.map(CrashText.formatSeconds))
        add("appCPUPercent", watchdogFacts.appCPUPercent.map(CrashText.formatSeconds))
        add("totalCPUSeconds", (watchdogFacts.totalCPUSeconds ?? report.totalCPUTime).map(CrashText.formatSeconds))
        add("totalCPUPercent", watchdogFacts.totalCPUPercent.map(CrashText.formatSeconds))
        add("hangDuration", report.hangDuration.map(CrashText.formatSeconds))
        add("writesCaused", report.writesCaused)
        if let faulting = report.faultingThread { add("faultingThread", String(report.threads[faulting].number)) }
        else if let stated = report.statedCrashedThread { add("faultingThread", String(stated)) }

        let mainIndex = report.isResourceReport ? nil : report.threads.firstIndex(where: \.isMain)
            ?? (report.format == .metrickit ? report.faultingThread : report.threads.firstIndex(where: { $0.number == 0 }))
        let mainFrames = mainIndex.map { report.threads[$0].frames.prefix(mainThreadFrameCount).map(\.display) } ?? []
        add("mainThreadFrames", mainFrames.isEmpty ? nil : mainFrames.joined(separator: "; "))
        // The thread that crashed when it is not the main thread, and the exception's own backtrace: an
        // uncaught exception on a background queue is shown with its queue, not an idle main thread.
        // Shown in the fields and in the summary lines; computed once.
        let crashed = report.faultingThread.flatMap { $0 == mainIndex ? nil : report.threads[$0] }
        let crashedFrames = crashed.map { $0.frames.prefix(mainThreadFrameCount).map(\.display) } ?? []
        if let thread = crashed {
            add("crashedThread", report.isResourceReport ? "heaviest stack"
                : String(thread.number) + (thread.queue.map { " (\($0))" } ?? thread.name.map { " (\($0))" } ?? ""))
            add("crashedThreadFrames", crashedFrames.isEmpty ? nil : crashedFrames.joined(separator: "; "))
        }
        let exceptionFrames = report.lastExceptionBacktrace
            .filter { !($0.symbol ?? "").hasPrefix("__exceptionPreprocess") && !($0.symbol ?? "").hasPrefix("objc_exception_throw") }
            .prefix(mainThreadFrameCount).map(\.display)
        add("exceptionBacktrace", exceptionFrames.isEmpty ? nil : exceptionFrames.joined(separator: "; "))
        // Where it happened, for a headline: the thread, the first frame past the trap machinery, its binary.
        let place = CrashPlace.place(of: report)
        add("crashingThread", place.thread)
        add("crashingFrame", place.frame)
        add("crashingBinary", place.binary)
        add("persistenceCall", place.persistenceCall)
        // A report without threads (a jetsam event) has no frame to blame.
        if !report.threads.isEmpty || report.terminationNamespace != "JETSAM" { add("blamedCause", verdict.cause.rawValue) }
        var blamedFrames = verdict.frames
        if let via = verdict.viaThread, !blamedFrames.isEmpty { blamedFrames[0] = "Thread \(via): " + blamedFrames[0] }
        add("blamedFrames", blamedFrames.isEmpty ? nil : blamedFrames.joined(separator: "; "))
        let hasCPU = watchdogFacts.appCPUSeconds != nil || watchdogFacts.appCPUPercent != nil
        let cpu = CrashBlame.cpuInterpretation(appCPUPercent: watchdogFacts.appCPUPercent,
                                               appCPUSeconds: watchdogFacts.appCPUSeconds,
                                               wallClock: watchdogFacts.wallClockAllowance)
        if isWatchdog || hasCPU || report.diagnosticType == "hang" { add("cpuInterpretation", cpu) }

        let cannotTell = unknowns(report: report, isWatchdog: isWatchdog, code: code, hasCPU: hasCPU, verdict: verdict)
        add("cannotTell", cannotTell.isEmpty ? nil : cannotTell.joined(separator: "; "))
        if !report.missing.isEmpty { add("partial", "true") }

        // The summary text.
        var title = "Crash report (\(report.format.rawValue)) for \(report.appName ?? report.bundleID ?? "unknown app")"
        if let version = report.appVersion { title += " \(version)" }
        if let build = report.build { title += " (\(build))" }
        if let os = report.osVersion { title += ", \(os)" }
        if let device = report.device { title += ", \(device)" }
        lines.append(title)
        if let type = report.diagnosticType { lines.append("Diagnostic: \(type)") }
        if report.stackshotReason != nil || report.stackshotCode != nil {
            lines.append("Stackshot: " + [report.stackshotReason, report.stackshotCode.map { "code \($0)" }].compactMap { $0 }.joined(separator: ", "))
        }
        for line in report.stackshotLines { lines.append("Stackshot: \(line)") }
        if report.exceptionType != nil || report.signal != nil {
            var exception = report.exceptionType ?? ""
            if let signal = report.signal { exception += exception.isEmpty ? signal : " (\(signal))" }
            lines.append("Exception: \(exception)")
        }
        if let subtype = report.exceptionSubtype { lines.append("Exception subtype: \(subtype)") }
        if let message = report.exceptionMessage { lines.append("Exception message: \(message)") }
        for note in report.exceptionNotes { lines.append("Exception note: \(note)") }
        if let name = report.exceptionName {
            lines.append("Uncaught exception: \(name)" + (report.exceptionReason.map { ": \($0.prefix(300))" } ?? ""))
        }
        if report.terminationNamespace != nil || codeText != nil {
            var termination = "Termination: " + [report.terminationNamespace, codeText].compactMap { $0 }.joined(separator: " ")
            if let code, let meaning = CrashTermination.meaning(of: code) { termination += " (\(meaning))" }
            lines.append(termination)
        }
        if let reasonLine { lines.append("Termination reason: \(reasonLine)") }
        if let event = watchdogFacts.event { lines.append("Watchdog event: \(event)") }
        if hasCPU {
            var line = "CPU: app"
            if let seconds = watchdogFacts.appCPUSeconds { line += " \(CrashText.formatSeconds(seconds)) s" }
            if let percent = watchdogFacts.appCPUPercent { line += " (\(CrashText.formatSeconds(percent))%)" }
            if let wall = watchdogFacts.wallClockAllowance { line += " of \(CrashText.formatSeconds(wall)) s wall clock" }
            line += " (\(cpu))"
            lines.append(line)
        } else if let allowance = watchdogFacts.wallClockAllowance {
            lines.append("Wall clock allowance: \(CrashText.formatSeconds(allowance)) s")
        }
        if let hang = report.hangDuration { lines.append("Hang: \(CrashText.formatSeconds(hang)) s") }
        if let launch = report.launchDuration { lines.append("Launch: \(CrashText.formatSeconds(launch)) s") }
        if let cpuTime = report.totalCPUTime {
            var line = "CPU exception: \(CrashText.formatSeconds(cpuTime)) s CPU"
            if let sampled = report.totalSampledTime { line += " in \(CrashText.formatSeconds(sampled)) s sampled" }
            lines.append(line)
        }
        if let writes = report.writesCaused { lines.append("Disk writes: \(writes)") }
        lines.append("Blamed cause: \(verdict.cause.rawValue)")
        if !blamedFrames.isEmpty { lines.append("Blamed frames: \(blamedFrames.joined(separator: "; "))") }
        if !mainFrames.isEmpty { lines.append("Main thread: \(mainFrames.joined(separator: "; "))") }
        if let thread = crashed, !crashedFrames.isEmpty {
            lines.append((report.isResourceReport ? "Heaviest stack: " : "Crashed thread \(thread.number): ") + crashedFrames.joined(separator: "; "))
        }
        if !exceptionFrames.isEmpty { lines.append("Exception backtrace: \(exceptionFrames.joined(separator: "; "))") }
        let specific = report.applicationSpecific.prefix(4).map { String($0.prefix(300)) }
        if !specific.isEmpty { lines.append("Application specific: \(specific.joined(separator: " | "))") }
        if !report.missing.isEmpty { lines.append("Partial report: missing \(report.missing.joined(separator: ", "))") }
        if !cannotTell.isEmpty { lines.append("Cannot tell: \(cannotTell.joined(separator: "; "))") }

        // Lines after the first are indented: in any line-based log format they read as continuation
        // lines, so a summary pasted into a log (or a rule example) stays one entry.
        var message = lines.joined(separator: "\n  ")
        var truncated = false
        if message.utf8.count > EntryLimits.maxMessageBytes {
            message = String(decoding: message.utf8.prefix(EntryLimits.maxMessageBytes), as: UTF8.self)
            truncated = true
        }
        var entry = Entry(source: source, line: report.firstLine, endLine: max(report.firstLine, report.lastLine),
                          message: message, format: .crashReport)
        entry.truncated = truncated
        entry.timestamp = report.timestamp.flatMap(iso8601)
        entry.process = report.appName
        entry.presetFields = fields
        entry.fingerprintBasis = fingerprintBasis(report, code: codeText)
        return entry
    }

    /// What a crash finding's fingerprint is made of: the kind (exception type, or the diagnostic or
    /// resource event), the termination code (or signal), and the top three frames of the crashed thread
    /// outside Apple's binaries (its top three frames when it has none).
    static func fingerprintBasis(_ report: CrashReport, code: String?) -> String {
        let kind = report.exceptionType ?? report.diagnosticType ?? report.resourceEvent ?? report.format.rawValue
        let index = report.faultingThread ?? report.threads.firstIndex(where: \.crashed)
            ?? report.threads.firstIndex(where: \.isMain)
        let frames = index.map { report.threads[$0].frames } ?? []
        let own = frames.filter { !CrashPlace.isSystemImage($0.image ?? "") }
        let top = (own.isEmpty ? frames : own).prefix(3).map { frame in
            (frame.image ?? "???") + " " + (frame.symbol.flatMap { $0.isEmpty ? nil : $0 } ?? frame.offset.map { "+\($0)" } ?? "")
        }
        return ([kind, code ?? report.signal ?? ""] + top).joined(separator: "\n")
    }

    /// The line of the termination text that explains it: the RBS `explanation:`, the watchdog
    /// transgression, or the first line.
    static func reasonSummary(_ text: String) -> String? {
        let lines = text.textLines(omittingEmpty: true).map { CrashText.trim($0) }.filter { !$0.isEmpty }
        guard let first = lines.first else { return nil }
        var chosen = lines.first(where: { $0.contains("explanation:") || $0.contains("watchdog transgression") }) ?? first
        if let range = chosen.range(of: "explanation:") { chosen = chosen[range.upperBound...] }
        for prefix in ["SPRINGBOARD, ", "FRONTBOARD, ", "RUNNINGBOARD, "] where chosen.hasPrefix(prefix) {
            chosen = chosen.dropFirst(prefix.count)
        }
        var result = String(CrashText.trim(chosen))
        if result.hasSuffix(">") && result.contains("reportType:") { result = String(result.prefix(while: { $0 != ">" })) }
        if result.count > 300 {
            // Cut between words, so that no part of a value (a device name, an address) is left behind
            // where a later redaction could no longer recognise it.
            let head = result.prefix(300)
            result = String(head.lastIndex(of: " ").map { head[..<$0] } ?? head) + "…"
        }
        return result
    }

    private static func unknowns(report: CrashReport, isWatchdog: Bool, code: UInt64?, hasCPU: Bool,
                                 verdict: CrashBlame.Verdict) -> [String] {
        var notes: [String] = []
        if isWatchdog {
            notes.append("whether the blamed work ran for the whole allowance (the backtrace is one sample taken at the kill; earlier work may already have finished)")
            if !hasCPU { notes.append("whether the app was busy or waiting (no CPU statistics in the report)") }
        }
        if report.diagnosticType == "hang" {
            notes.append(report.format == .metrickit
                ? "whether the hang ended in a kill (MetricKit hang diagnostics are not terminations)"
                : "whether the hang ended in a kill or the app recovered (a hang report is written while the app still runs)")
        }
        if code == 0xdead10cc {
            notes.append("which file or database was locked (the report names no file; a thread inside SQLite at suspension is the usual holder)")
        }
        if report.signal == "SIGKILL" && code == nil && report.terminationText == nil {
            notes.append("why the process was killed (SIGKILL without a termination reason: jetsam, a force-quit or a debugger)")
        }
        if report.format == .metrickit {
            notes.append("function names (MetricKit gives binary offsets only; symbolicate with the dSYM)")
            notes.append("the exact time of the event (MetricKit gives the payload's time window)")
        } else if verdict.cause == .coreDataUnsymbolicated || hasUnsymbolicatedSystemFrames(report) {
            notes.append("function names of unsymbolicated frames (symbolicate with the app's dSYM and the device's system symbols)")
        }
        // The store's size explains time spent (a watchdog kill, a hang, a lock held at suspension), not a
        // trap, an abort or a bad access: those get no store-size note.
        let timeBound = isWatchdog || code == 0xdead10cc || report.diagnosticType == "hang"
        if timeBound && verdict.cause != .unknown && verdict.cause != .coreDataUnsymbolicated {
            notes.append("how large the store and its WAL were (run walcheck on the store)")
        }
        if !report.missing.isEmpty { notes.append("anything in the missing parts (\(report.missing.joined(separator: ", ")))") }
        return notes
    }

    private static func hasUnsymbolicatedSystemFrames(_ report: CrashReport) -> Bool {
        guard let primary = CrashBlame.primaryThread(of: report, watchdog: false) else { return false }
        let frames = report.threads[primary].frames.prefix(CrashBlame.scannedFrames)
        return frames.contains(where: { !$0.isSymbolicated && ($0.image.map(CrashBlame.coreDataImages.contains) ?? false) })
            || (!frames.isEmpty && !frames.contains(where: \.isSymbolicated))
    }

    /// "2022-09-18 15:28:37.00 +0900" → "2022-09-18T15:28:37.00+09:00"; nil when the shape is unknown.
    static func iso8601(_ text: String) -> String? {
        let parts = text.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        let date = parts[0], time = parts[1]
        let dateOK = date.count == 10 && date.enumerated().allSatisfy { index, character in
            index == 4 || index == 7 ? character == "-" : character.isNumber
        }
        let timeOK = time.count >= 8 && time.allSatisfy { $0.isNumber || $0 == ":" || $0 == "." }
        guard dateOK, timeOK else { return nil }
        var zone = ""
        if parts.count >= 3 {
            let raw = parts[2]
            if raw.count == 5, raw.first == "+" || raw.first == "-", raw.dropFirst().allSatisfy(\.isNumber) {
                zone = String(raw.prefix(3)) + ":" + String(raw.suffix(2))
            } else if raw == "UTC" || raw == "GMT" || raw == "Z" {
                zone = "Z"
            }
        }
        return "\(date)T\(time)\(zone)"
    }
}
