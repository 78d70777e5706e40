import CDLogCore
import Foundation

/// Reads legacy text crash reports: `.crash` files of iOS 5–14 and macOS, the text body of
/// `bug_type 109`-style `.ips` files, and the text that Xcode/Console print for iOS 15+ reports.
///
/// Works line by line without regular expressions; unknown lines are skipped, so a report with
/// unexpected sections or cut off in the middle still yields what it has. Parsing stops at
/// `Binary Images:` (nothing after it matters for triage).
enum LegacyCrashReader {
    /// Header keys that end a multi-line `Termination Reason:` (whose continuation lines look like
    /// `ProcessVisibility: Foreground`, so "any key: value line" cannot be the end marker).
    private static let sectionKeys: Set<String> = [
        "Termination Description", "Terminating Process", "Triggered by Thread", "Crashed Thread",
        "Highlighted Thread", "Exception Note", "Exception Codes", "Exception Code", "Exception Subtype", "Exception Message",
        "Application Specific Information", "Kernel Triage", "Last Exception Backtrace", "Filtered syslog",
        "VM Region Info", "Termination Signal", "Binary Images",
    ]

    private enum Section {
        case header
        case terminationReason
        case applicationSpecific
        case lastExceptionBacktrace
        case thread(Int)
        case skipUntilBlank
    }

    /// Reads the lines of one report. `firstLineNumber` is the 1-based line of `lines[0]` in the document.
    static func read(lines: ArraySlice<Substring>, firstLineNumber: Int, format: CrashReport.Format = .crash) -> CrashReport {
        var report = CrashReport(format: format)
        report.firstLine = firstLineNumber
        report.lastLine = firstLineNumber + max(lines.count - 1, 0)
        var section = Section.header
        var terminationLines: [String] = []
        var versionField: String?
        var threadIndexByNumber: [Int: Int] = [:]

        func thread(_ number: Int) -> Int {
            if let index = threadIndexByNumber[number] { return index }
            report.threads.append(CrashThread(number: number))
            threadIndexByNumber[number] = report.threads.count - 1
            return report.threads.count - 1
        }

        for rawLine in lines {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = CrashText.trim(line)
            if trimmed.isEmpty {
                section = .header
                continue
            }
            if trimmed.hasPrefix("Binary Images:") { break }

            // Threads and frames (a report quoted with an indentation of its own is read the same).
            if trimmed.hasPrefix("Thread ") {
                if trimmed.contains(" crashed with ") || trimmed.contains("Thread State") {
                    section = .skipUntilBlank
                    continue
                }
                if let (number, header) = threadHeader(trimmed) {
                    let index = thread(number)
                    apply(header, to: &report.threads[index])
                    section = .thread(index)
                    continue
                }
            }
            if let first = trimmed.first, first.isNumber, let frame = parseFrame(trimmed) {
                switch section {
                case .thread(let index):
                    report.threads[index].frames.append(frame)
                    continue
                case .lastExceptionBacktrace:
                    report.lastExceptionBacktrace.append(frame)
                    continue
                default:
                    break
                }
            }

            switch section {
            case .skipUntilBlank, .thread:
                continue
            case .applicationSpecific:
                report.applicationSpecific.append(String(trimmed))
                continue
            case .lastExceptionBacktrace:
                continue  // iOS ≤ 9 prints "(0x1838b2db0 0x182f17f80 …)": addresses only
            case .terminationReason:
                if let key = headerKey(trimmed), sectionKeys.contains(key) {
                    section = .header
                } else {
                    terminationLines.append(String(trimmed))
                    continue
                }
            case .header:
                break
            }

            guard let key = headerKey(trimmed) else { continue }
            let value = headerValue(trimmed)
            switch key {
            case "Incident Identifier": report.incidentID = value
            case "Hardware Model": report.device = value
            case "Process":
                report.appName = value.map { name in
                    if let bracket = name.range(of: " [", options: .backwards) { return String(name[..<bracket.lowerBound]) }
                    return name
                }
            case "Identifier": report.bundleID = value
            case "Version": versionField = value
            case "Date/Time": report.timestamp = value
            case "OS Version": report.osVersion = value
            case "Exception Type":
                if let value {
                    if let open = value.firstIndex(of: "("), let close = value.lastIndex(of: ")"), open < close {
                        report.exceptionType = CrashText.trim(value[..<open]).description
                        report.signal = String(value[value.index(after: open)..<close])
                    } else if value.hasPrefix("SIG") {
                        // PLCrashReporter / Crashlytics-era text names the signal alone (`SIGSEGV`): the
                        // Mach exception it stands for is the one Apple's reports print beside it.
                        report.signal = value
                        report.exceptionType = LegacyCrashReader.exceptionType(forSignal: value)
                    } else {
                        report.exceptionType = value
                    }
                }
            case "Exception Codes", "Exception Code":
                // (iOS 7's watchdog reports say `Exception Code: 0x8badf00d`, in the singular.)
                if report.exceptionCodes == nil || value?.hasPrefix("0x") == true { report.exceptionCodes = value }
            case "Exception Subtype": report.exceptionSubtype = value
            case "Exception Message": report.exceptionMessage = value
            case "Exception Note": if let value, !value.isEmpty { report.exceptionNotes.append(value) }
            case "Termination Reason":
                terminationLines.append(value ?? "")
                section = .terminationReason
            case "Termination Description":
                // iOS 12–14 print it as one line with " | " separators.
                terminationLines.append(contentsOf: (value ?? "").components(separatedBy: " | "))
            case "Triggered by Thread", "Crashed Thread", "Highlighted Thread":
                if let value, let number = Int(value.prefix(while: \.isNumber)) { report.faultingThread = number }
            case "Application Specific Information":
                section = .applicationSpecific
                if let value, !value.isEmpty { report.applicationSpecific.append(value) }
            case "Last Exception Backtrace":
                section = .lastExceptionBacktrace
            default:
                break
            }
        }

        if !terminationLines.isEmpty {
            report.terminationText = terminationLines.joined(separator: "\n")
            let parsed = CrashTermination.parseReasonLine(terminationLines[0])
            report.terminationNamespace = parsed.namespace
            report.terminationCodeValue = parsed.code
        }
        // `Exception Codes: SEGV_ACCERR at 0x10` (PLCrashReporter): the address is the exception's subtype.
        if report.exceptionSubtype == nil, let codes = report.exceptionCodes,
           codes.hasPrefix("SEGV_") || codes.hasPrefix("BUS_") || codes.hasPrefix("KERN_") {
            report.exceptionSubtype = codes
        }
        // iOS ≤ 9 has no termination reason: `Exception Type: 00000020` with the code in Exception Codes.
        if report.terminationCodeValue == nil, let codes = report.exceptionCodes,
           let value = CrashText.parseInteger(codes), CrashTermination.meaning(of: value) != nil {
            report.terminationCodeValue = value
        }
        if let versionField { applyVersion(versionField, to: &report) }
        // `faultingThread` was a thread number; make it an index.
        if let number = report.faultingThread {
            report.statedCrashedThread = number
            report.faultingThread = threadIndexByNumber[number]
        } else if let crashed = report.threads.firstIndex(where: \.crashed) {
            report.faultingThread = crashed
        }
        CrashExceptionText.extract(from: report.applicationSpecific, into: &report)
        if CrashReportReader.isHeaderOnly(report) {
            report.missing.append("report body (cut off after the header, before the exception and threads)")
        } else {
            if report.exceptionType == nil && report.signal == nil { report.missing.append("exception type") }
            if report.threads.isEmpty { report.missing.append("thread backtraces") }
        }
        return report
    }

    /// "Version: 12 (1.0.4)": iOS ≤ 14 prints build (short version); iOS 15+ and macOS print short version (build).
    private static func applyVersion(_ value: String, to report: inout CrashReport) {
        guard let open = value.firstIndex(of: "("), let close = value.lastIndex(of: ")"), open < close else {
            report.appVersion = value
            return
        }
        let outside = String(CrashText.trim(value[..<open]))
        let inside = String(value[value.index(after: open)..<close])
        var buildFirst = false
        if let os = report.osVersion, os.hasPrefix("iPhone OS") || os.hasPrefix("iOS") || os.hasPrefix("iPadOS") {
            let versionText = os.drop(while: { !$0.isNumber })
            if let major = Int(versionText.prefix(while: \.isNumber)), major <= 14 { buildFirst = true }
        }
        if buildFirst {
            report.build = outside
            report.appVersion = inside
        } else {
            report.appVersion = outside
            report.build = inside
        }
    }

    /// The key of a `Key: value` header line (letters, spaces, `/`, `-` before the colon).
    static func headerKey(_ line: Substring) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[..<colon]
        guard let first = key.first, first.isLetter, key.count <= 40,
              key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "/" || $0 == "-" || $0 == "_" })
        else { return nil }
        return String(key)
    }

    private static func headerValue(_ line: Substring) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let value = CrashText.trim(line[line.index(after: colon)...])
        return value.isEmpty ? nil : String(value)
    }

    private struct ThreadHeader {
        var name: String?
        var queue: String?
        var crashed = false
    }

    /// `Thread 0 name:  tid_303  Dispatch queue: com.apple.main-thread`, `Thread 0 Crashed:`,
    /// `Thread 2 Attributed:`, `Thread 0 Crashed::  Dispatch queue: …` (macOS), `Thread 18:: com.apple.NSEventThread`.
    private static func threadHeader(_ line: Substring) -> (Int, ThreadHeader)? {
        let rest = line.dropFirst("Thread ".count)
        let digits = rest.prefix(while: \.isNumber)
        guard let number = Int(digits) else { return nil }
        var after = rest.dropFirst(digits.count)
        var header = ThreadHeader()
        if after.hasPrefix(" name:") {
            after = after.dropFirst(" name:".count)
        } else {
            if after.hasPrefix(" Crashed") {
                header.crashed = true
                after = after.dropFirst(" Crashed".count)
            } else if after.hasPrefix(" Attributed") {
                after = after.dropFirst(" Attributed".count)
            }
            guard after.hasPrefix(":") else { return nil }
            after = after.drop(while: { $0 == ":" })
        }
        let text = CrashText.trim(after)
        if let range = text.range(of: "Dispatch queue:") {
            header.queue = String(CrashText.trim(text[range.upperBound...]))
            let name = CrashText.trim(text[..<range.lowerBound])
            if !name.isEmpty { header.name = String(name) }
        } else if !text.isEmpty {
            header.name = String(text)
        }
        return (number, header)
    }

    private static func apply(_ header: ThreadHeader, to thread: inout CrashThread) {
        if let name = header.name { thread.name = name }
        if let queue = header.queue { thread.queue = queue }
        if header.crashed { thread.crashed = true }
    }

    /// `13  blaboo  0x0000000100969608 0x10093c000 + 185864`, `1  CoreData  0x1a86a1ce0 -[NSPersistentStoreCoordinator …] + 56 (File.m:2834)`,
    /// `0  ???  000000000000000000 0 + 0`. Returns nil for lines that are not frames.
    static func parseFrame(_ line: Substring) -> CrashFrame? {
        let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard tokens.count >= 3, tokens[0].allSatisfy(\.isNumber) else { return nil }
        var addressIndex: Int?
        for index in 2..<tokens.count where isAddress(tokens[index]) {
            addressIndex = index
            break
        }
        guard let addressIndex else { return nil }
        var frame = CrashFrame()
        frame.image = tokens[1..<addressIndex].joined(separator: " ")
        var rest = Array(tokens[(addressIndex + 1)...])
        if rest.count == 3, rest[1] == "+", isAddress(rest[0]) || rest[0].allSatisfy(\.isNumber), let offset = UInt64(rest[2]) {
            frame.offset = offset
            return frame
        }
        // Drop "(File.swift:42)" and "+ 312" from the end.
        if let last = rest.last, last.hasSuffix(")"), let openIndex = rest.lastIndex(where: { $0.hasPrefix("(") }), openIndex > 0 {
            let group = rest[openIndex...].joined(separator: " ")
            if group.contains(":") || group.contains(".") { rest.removeSubrange(openIndex...) }
        }
        if rest.count >= 2, rest[rest.count - 2] == "+", rest[rest.count - 1].allSatisfy(\.isNumber) {
            frame.offset = UInt64(rest[rest.count - 1])
            rest.removeLast(2)
        }
        let symbol = rest.joined(separator: " ")
        if !symbol.isEmpty, !isAddress(Substring(symbol)) { frame.symbol = symbol }
        return frame
    }

    private static func isAddress(_ token: Substring) -> Bool {
        if token.hasPrefix("0x") { return token.count > 2 && token.dropFirst(2).allSatisfy(\.isHexDigit) }
        return token.count >= 8 && token.allSatisfy(\.isHexDigit)
    }
    /// The Mach exception Apple's reports print for a signal (`SIGSEGV` → `EXC_BAD_ACCESS`).
    static func exceptionType(forSignal signal: String) -> String? {
        switch signal {
        case "SIGSEGV", "SIGBUS": return "EXC_BAD_ACCESS"
        case "SIGABRT", "SIGKILL", "SIGQUIT": return "EXC_CRASH"
        case "SIGTRAP": return "EXC_BREAKPOINT"
        case "SIGILL": return "EXC_BAD_INSTRUCTION"
        case "SIGFPE": return "EXC_ARITHMETIC"
        default: return nil
        }
    }
}
