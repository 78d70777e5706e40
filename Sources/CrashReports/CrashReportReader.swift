import CDLogCore

/// Reads crash reports — `.ips` (JSON header line + JSON or legacy-text body), Xcode's "Translated
/// Report" text + JSON, legacy `.crash` text and MetricKit diagnostic payloads — into `CrashReport`s, one
/// per report (CDLogKit turns each into a classifier entry).
///
/// The kind is decided by content, never by file extension. Bad input never traps: when nothing can be
/// read, `reports(fromDocument:source:)` throws a `ToolFailure` with a one-line message; a report that can
/// be read in part yields an entry with the preset field `partial` = `true` and a note of what is missing.
public enum CrashReportReader {
    static let translatedMarker = "Translated Report (Full Report Below)"
    static let fullReportMarker = Array("\n-----------\nFull Report\n-----------\n".utf8)
    static let metricKitMarkers: [StaticString] = [
        "\"crashDiagnostics\"", "\"hangDiagnostics\"", "\"cpuExceptionDiagnostics\"",
        "\"diskWriteExceptionDiagnostics\"", "\"appLaunchDiagnostics\"", "\"callStackTree\"", "\"diagnosticMetaData\"",
    ]

    /// A jetsam process entry's members, and `eventMessage` (a unified-log event is never one).
    private static let jetsamMarkers: [StaticString] = ["\"rpages\"", "\"reason\"", "\"eventMessage\""]

    /// True when the first bytes of a source (up to 64 KiB) look like a crash report of any kind.
    public static func looksLikeCrashReport(_ prefix: ArraySlice<UInt8>) -> Bool {
        let limited = prefix.prefix(64 << 10)
        let text = String(decoding: limited, as: UTF8.self)
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.dropFirst()) : Substring(text)
        let start = body.drop(while: { $0.isWhitespace })
        guard let first = start.first else { return false }
        if first == "{" || first == "[" {
            let firstLine = start.prefix(while: { $0 != "\n" })
            if first == "{" && firstLine.contains("\"bug_type\"") { return true }
            // On the bytes (memmem): String.contains goes through Foundation's UTF-16 search, slow on a
            // 64 KiB sample taken for every source.
            return limited.withUnsafeBytes { bytes in
                metricKitMarkers.contains { bytes.contains(sequence: $0) }
                    // One jetsam process entry posted alone (`"rpages" : 960`, `"reason" : "per-process-limit"`).
                    || (first == "{" && bytes.contains(sequence: jetsamMarkers[0]) && bytes.contains(sequence: jetsamMarkers[1])
                        && !bytes.contains(sequence: jetsamMarkers[2]))
            }
        }
        if start.hasPrefix("---") && start.contains(translatedMarker) { return true }
        // Legacy text: a report starts with its header; look only at the first lines so that a log that
        // merely quotes "Exception Type:" somewhere is not taken for a report.
        var lines = 0
        var sawException = false
        var sawHeader = false
        var sawResourceEvent = false
        var sawResourceCompanion = false
        var sawHangEvent = false
        var sawStackshots = false
        var headerFields = 0
        var sawProcess = false
        var sawStallMarker = false
        // maxSplits: only the first lines are looked at, so only they are split (by Characters, which
        // the whole 64 KiB sample need not pay).
        for line in start.split(maxSplits: 61, omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lines += 1
            if lines > 60 { break }
            if line.hasPrefix("Incident Identifier:") || line.hasPrefix(translatedMarker) { return true }
            if line.hasPrefix("Exception Type:") { sawException = true }
            // The exception section pasted alone counts too: its codes and termination lines appear in no log.
            if line.hasPrefix("Hardware Model:") || line.hasPrefix("Process:") || line.hasPrefix("Thread 0")
                || line.hasPrefix("Highlighted Thread:") || line.hasPrefix("Triggered by Thread:") || line.hasPrefix("Crashed Thread:")
                || line.hasPrefix("Exception Codes:") || line.hasPrefix("Termination Reason:") || line.hasPrefix("Termination Signal:") {
                sawHeader = true
            }
            if sawException && sawHeader { return true }
            if reportHeaderFields.contains(where: { line.hasPrefix($0) }) { headerFields += 1 }
            if line.hasPrefix("Process:") { sawProcess = true }
            if stallMarkers.contains(where: { line.hasPrefix($0) }) { sawStallMarker = true }
            // A resource report (microstackshot text): `Event: cpu usage` with `Command:` / `Action taken:`.
            if line.hasPrefix("Event:"), MicrostackshotReader.subtype(forEvent: CrashText.trim(line.dropFirst(6)).description, killed: false) != nil {
                sawResourceEvent = true
            }
            // A hang report (spindump text): `Event: hang`, or `Data Source: Stackshots` with no event.
            if line.hasPrefix("Event:"), CrashText.trim(line.dropFirst(6)).lowercased().hasPrefix("hang") { sawHangEvent = true }
            if line.hasPrefix("Data Source:"), CrashText.trim(line.dropFirst(12)).hasPrefix("Stackshots") { sawStackshots = true }
            if line.hasPrefix("Command:") || line.hasPrefix("Action taken:") { sawResourceCompanion = true }
            if (sawResourceEvent || sawHangEvent || sawStackshots) && sawResourceCompanion { return true }
        }
        // The report's header alone, cut before its exception (`Process:  App [123]`, `Path:`, `Identifier:`,
        // `Version:`, `Code Type:` …, as a poster or a page's excerpt leaves it): a report nonetheless, read as a
        // partial one. Five of its fields opening lines appear together in no log; `sample`'s output and a hang or
        // resource report open with the same fields but say they sampled or what the event was.
        return sawProcess && headerFields >= 5 && !sawStallMarker
    }

    /// The fields of a text report's header (macOS and iOS alike) that `looksLikeCrashReport` counts.
    private static let reportHeaderFields = ["Process:", "Path:", "Identifier:", "Version:", "Code Type:", "Parent Process:",
                                             "Responsible:", "User ID:", "Date/Time:", "OS Version:", "Report Version:",
                                             "Hardware Model:", "Role:", "Launch Time:"]

    /// The lines that make a text with a report's header fields a sampling or a stall, not a crash.
    private static let stallMarkers = ["Analysis of sampling", "Sampling process", "Call graph:", "Duration:", "Steps:", "Event:",
                                       "Sampling Interval:"]

    /// For console logs that contain a pasted legacy crash report: true when this line starts one: its
    /// `Incident Identifier:`, Xcode's `Translated Report` marker, or the `Process:` line a macOS report opens with
    /// (`Process:               CalendarAgent [285]`: the name, then its pid in brackets). The splitter asks only
    /// outside a report, so the `Process:` line inside an iOS report (after its incident identifier) cuts nothing.
    public static func isPastedReportStart(_ line: Substring) -> Bool {
        let trimmed = CrashText.trim(line)
        if trimmed.hasPrefix("Incident Identifier:") { return true }
        if isProcessLine(trimmed) { return true }
        return trimmed == Substring(translatedMarker)
    }

    /// `Process:`, blanks, a name, then `[pid]` closing the line: a report's header line, not a log's sentence
    /// that names a process.
    static func isProcessLine(_ trimmed: Substring) -> Bool {
        guard trimmed.hasPrefix("Process:"), trimmed.last == "]" else { return false }
        let rest = trimmed.dropFirst("Process:".count)
        guard let space = rest.first, space == " " || space == "\t",
              let open = rest.lastIndex(of: "["), rest[rest.startIndex..<open].contains(where: { !$0.isWhitespace }) else { return false }
        let pid = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
        return !pid.isEmpty && pid.allSatisfy({ $0.isASCII && $0.isNumber })
    }

    /// True when a document that holds a text report opens with lines that are not the report's: a page's or a
    /// CI log's own lines (`travis_fold:start:…`, `$ ls …`, a path) before the report's first line
    /// (`isPastedReportStart`). Such a document is read as a log, whose splitter reads the pasted report whole,
    /// so that the lines before it stay entries of their own. A document opening with a header field
    /// (`Hardware Model:`, a report whose first lines a paste cut) or JSON is a report.
    public static func hasLinesBeforePastedReport(_ prefix: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: prefix.prefix(64 << 10), as: UTF8.self)
        var lines = 0
        for line in text.split(maxSplits: 61, omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let trimmed = CrashText.trim(line)
            if trimmed.isEmpty { continue }
            lines += 1
            if lines > 60 { return false }
            if isPastedReportStart(trimmed) { return lines > 1 }
            if lines == 1 {
                guard let first = trimmed.first, first != "{", first != "[", !trimmed.hasPrefix("---"),
                      !opensWithHeaderField(trimmed) else { return false }
            }
        }
        return false
    }

    /// `Key:` or `Key Words:` (an ASCII capital, then letters, digits, blanks, `/`, `(`, `)`, `-` or `_`, the colon
    /// within the first 41 characters) and a blank or the line's end: the shape of a report's header field.
    private static func opensWithHeaderField(_ line: Substring) -> Bool {
        guard let first = line.unicodeScalars.first, first.properties.isUppercase, first.isASCII,
              let colon = line.prefix(41).firstIndex(of: ":") else { return false }
        guard line[line.startIndex..<colon].allSatisfy({ $0.isLetter || $0.isNumber || " /()-_".contains($0) }) else { return false }
        let after = line.index(after: colon)
        return after == line.endIndex || line[after] == " " || line[after] == "\t"
    }

    // MARK: - Document dispatch

    /// Parses a whole document into its reports, in document order. Throws a `ToolFailure` with a one-line
    /// message when the document holds no report that can be read (binary, empty, no header found).
    public static func reports(fromDocument bytes: [UInt8], source: String) throws -> [CrashReport] {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        if bytes.prefix(min(bytes.count, 1 << 16)).contains(0) {
            throw ToolFailure("\(source): not a crash report (binary data)")
        }
        let lines = LineIndex(bytes)
        while start < bytes.count, ByteClass.isBlankOrLineBreak(bytes[start]) { start += 1 }
        guard start < bytes.count else { throw ToolFailure("\(source): empty crash report") }

        // Xcode / Console "Translated Report": text, then the original .ips after "Full Report".
        if bytes[start] == UInt8(ascii: "-"), let marker = find(fullReportMarker, in: bytes, from: start) {
            let jsonStart = marker + fullReportMarker.count
            if var reports = try? ipsReports(bytes, from: skipSpace(bytes, jsonStart), lines: lines, source: source),
               !reports.isEmpty {
                reports[0].firstLine = lines.line(of: start)
                return reports
            }
            let textLines = lines.lines(from: start, to: marker)
            let report = LegacyCrashReader.read(lines: textLines.lines, firstLineNumber: textLines.first)
            return try requireContent([report], source: source)
        }

        if bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
            if let reports = try ipsReports(bytes, from: start, lines: lines, source: source) { return reports }
            do {
                return try jsonReports(bytes, from: start, lines: lines, source: source)
            } catch let failure as ToolFailure {
                // A JSON header a paste broke across lines, over a legacy text body (bug_type 109): read the
                // text. A fragment of an .ips body (its members without the opening brace): read what it has.
                if let reports = legacyOrFragment(bytes, from: start, lines: lines) { return reports }
                throw failure
            }
        }

        // Legacy text, possibly several reports one after the other.
        let all = lines.lines(from: start, to: bytes.count)
        if MicrostackshotReader.isResourceReport(all.lines) || HangReportReader.isHangReport(all.lines) {
            return [readText(lines: all.lines, firstLineNumber: all.first, format: .crash)]
        }
        var reports: [CrashReport] = []
        var chunkStart = all.lines.startIndex
        for index in all.lines.indices where index > chunkStart && CrashText.trim(all.lines[index]).hasPrefix("Incident Identifier:") {
            reports.append(LegacyCrashReader.read(lines: all.lines[chunkStart..<index], firstLineNumber: all.first + chunkStart - all.lines.startIndex))
            chunkStart = index
        }
        reports.append(LegacyCrashReader.read(lines: all.lines[chunkStart...], firstLineNumber: all.first + chunkStart - all.lines.startIndex))
        if !reports.contains(where: hasContent), let fragment = ipsBodyFragment(bytes, from: start, lines: lines) { return [fragment] }
        return try requireContent(reports, source: source)
    }

    /// A document that is neither JSON nor a report's text as a whole: legacy text under a broken JSON
    /// header, or a fragment of an `.ips` body. Nil when it is neither.
    private static func legacyOrFragment(_ bytes: [UInt8], from start: Int, lines: LineIndex) -> [CrashReport]? {
        let all = lines.lines(from: start, to: bytes.count)
        if all.lines.contains(where: { let t = CrashText.trim($0); return t.hasPrefix("Exception Type:") || t.hasPrefix("Incident Identifier:") }) {
            var report = LegacyCrashReader.read(lines: all.lines, firstLineNumber: all.first)
            // The broken header still names the app: `"app_name":"X"` / `"name":"X"`.
            if report.appName == nil, let name = jsonString("app_name", in: all.lines) ?? jsonString("name", in: all.lines) {
                report.appName = name
            }
            report.missing.append("the report's JSON header (broken across lines)")
            return hasContent(report) ? [report] : nil
        }
        return ipsBodyFragment(bytes, from: start, lines: lines).map { [$0] }
    }

    /// The members of an `.ips` body pasted without their enclosing object (`"exception" : {…},
    /// "termination" : {…}`): read leniently as the body they come from.
    private static func ipsBodyFragment(_ bytes: [UInt8], from start: Int, lines: LineIndex) -> CrashReport? {
        let markers = ["\"exception\"", "\"termination\"", "\"faultingThread\""].map { Array($0.utf8) }
        guard markers.contains(where: { find($0, in: bytes, from: start) != nil }) else { return nil }
        var wrapped: [UInt8] = Array("{".utf8)
        wrapped += bytes[start...].drop { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: ",") || ByteClass.isBlankOrLineBreak($0) }
        guard let body = try? CrashJSONParser.parse(wrapped, start: 0, lenient: true), body.value.object != nil,
              body.value["exception"] != nil || body.value["termination"] != nil || body.value["threads"] != nil else { return nil }
        var report = CrashReport(format: .ips)
        report.firstLine = lines.line(of: start)
        report.lastLine = lines.line(of: max(start, bytes.count - 1))
        IPSReader.applyBody(body.value, to: &report)
        report.missing.append("the start of the report (only part of its JSON body was given)")
        return hasContent(report) ? report : nil
    }

    /// The value of `"key":"value"` (or `"key" : "value"`) on the first line that has it.
    private static func jsonString(_ key: String, in lines: ArraySlice<Substring>) -> String? {
        for line in lines {
            guard let range = line.range(of: "\"\(key)\"") else { continue }
            let rest = line[range.upperBound...].drop { $0 == " " || $0 == ":" }
            guard rest.first == "\"" else { continue }
            let value = rest.dropFirst().prefix { $0 != "\"" }
            if !value.isEmpty { return String(value) }
        }
        return nil
    }

    /// An `.ips` file: a JSON header line and a body. Nil when the first line is not an IPS header.
    private static func ipsReports(_ bytes: [UInt8], from start: Int, lines: LineIndex, source: String) throws -> [CrashReport]? {
        guard bytes[start] == UInt8(ascii: "{") else { return nil }
        let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        guard let header = try? CrashJSONParser.parse(bytes, start: start, end: newline),
              header.value.object != nil, header.value["bug_type"] != nil || header.value["incident_id"] != nil
        else { return nil }
        // Split at the first newline, never by brace counting: header strings may contain braces.
        var report = CrashReport(format: .ips)
        report.firstLine = lines.line(of: start)
        report.lastLine = lines.line(of: max(start, bytes.count - 1))
        IPSReader.applyHeader(header.value, to: &report)
        let bugType = header.value["bug_type"]?.text ?? "?"
        let bodyStart = skipSpace(bytes, newline)
        guard bodyStart < bytes.count else {
            report.missing.append("report body (only the header line is present)")
            return [report]
        }
        if bytes[bodyStart] == UInt8(ascii: "{") {
            let body: CrashJSONParser.Result
            do {
                body = try CrashJSONParser.parse(bytes, start: bodyStart, lenient: true)
            } catch let error as CrashJSONError {
                report.missing.append("report body (\(error.message))")
                // The header still says what kind of report it is.
                if bugType == "288" || bugType == "509" { report.diagnosticType = "stackshot" }
                return [report]
            }
            let value = body.value
            if StackshotReader.isStackshot(value, bugType: bugType) {
                // Every process's stacks at one moment, taken on request: nothing crashed.
                StackshotReader.apply(value, to: &report)
                if body.truncated { report.missing.append("end of the report (the JSON body is cut off)") }
                return [report]
            }
            if JetsamReader.isJetsam(value, bugType: bugType) {
                // A memory kill: no exception and no threads, every process's memory instead.
                JetsamReader.apply(value, to: &report)
                if body.truncated { report.missing.append("end of the report (the JSON body is cut off)") }
                return [report]
            }
            if value["exception"] == nil && value["threads"] == nil && value["termination"] == nil {
                if body.truncated {
                    report.missing.append("report body (cut off before the exception and threads)")
                    return [report]
                }
                throw ToolFailure("\(source): .ips bug_type \(bugType)\(bugTypeName(bugType)) is not a crash report (no exception, termination or threads)")
            }
            IPSReader.applyBody(value, to: &report)
            if body.truncated { report.missing.append("end of the report (the JSON body is cut off)") }
            return [report]
        }
        // bug_type 109 and similar: JSON header, then legacy text; 206/202/145/142: a resource report.
        let text = lines.lines(from: bodyStart, to: bytes.count)
        var legacy = readText(lines: text.lines, firstLineNumber: text.first, format: .ips)
        let isResource = legacy.isResourceReport || legacy.diagnosticType == "hang"
        legacy.firstLine = report.firstLine
        // Header fields are what App Store Connect shows; the text fills the rest.
        legacy.appName = report.appName ?? legacy.appName
        legacy.bundleID = report.bundleID ?? legacy.bundleID
        legacy.appVersion = report.appVersion ?? legacy.appVersion
        legacy.build = report.build ?? legacy.build
        legacy.osVersion = legacy.osVersion ?? report.osVersion
        legacy.incidentID = legacy.incidentID ?? report.incidentID
        legacy.timestamp = legacy.timestamp ?? report.timestamp
        if !isResource && legacy.exceptionType == nil && legacy.signal == nil && legacy.threads.isEmpty {
            // A crash's header over the members of its JSON body that a poster kept, the rest elided (`…`, `...`):
            // what they say is the report's, and the rest is missing.
            if bugType == "109" || bugType == "309", let kept = keptBodyMembers(bytes, from: bodyStart) {
                IPSReader.applyBody(kept, to: &report)
                report.missing.append("most of the report body (the paste keeps only some of its members)")
                return [report]
            }
            // A crash's header (109, or 309) over a report's text that a page or a paste cut before its exception
            // (its `Incident Identifier:` / `Process:` / `Hardware Model:` lines are there): a report with its end
            // missing, as a cut JSON body is. Another kind's header, or other text under it, is refused.
            let opening = String(decoding: bytes[bodyStart..<min(bytes.count, bodyStart + 4_096)], as: UTF8.self)
            guard bugType == "109" || bugType == "309",
                  ["Incident Identifier:", "Process:", "Hardware Model:"].contains(where: opening.contains) else {
                throw ToolFailure("\(source): .ips bug_type \(bugType)\(bugTypeName(bugType)) is not a crash report")
            }
            legacy.missing.append("report body (cut off before the exception and threads)")
        }
        return [legacy]
    }

    /// The members of an `.ips` body that say what crashed (`"exception" : {…}`, `"termination"`, `"threads"`, …),
    /// found where a paste kept them between elisions, gathered into one object; nil when none is there or
    /// none parses. Each value is parsed where its key is, so a poster's `…` around it does not matter.
    private static func keptBodyMembers(_ bytes: [UInt8], from start: Int) -> CrashJSON? {
        let kept = CrashJSONObject(start: start)
        for key in ["exception", "termination", "asi", "faultingThread", "lastExceptionBacktrace", "threads"] {
            let needle = Array("\"\(key)\"".utf8)
            // At most three tries a key: each parse may read far (a value that runs to the end of the input), and a
            // hostile body could nest the key under itself many times.
            var at = start, tries = 0
            while tries < 3, let found = find(needle, in: bytes, from: at) {
                at = found + needle.count
                var i = at
                while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 { i += 1 }
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { continue }
                tries += 1
                i = skipSpace(bytes, i + 1)
                guard let parsed = try? CrashJSONParser.parse(bytes, start: i, lenient: true) else { continue }
                kept.members.append((key: key, value: parsed.value))
                break
            }
        }
        return kept.members.isEmpty ? nil : .object(kept)
    }

    /// A JSON document that is not an `.ips`: MetricKit payload(s) or diagnostic(s).
    private static func jsonReports(_ bytes: [UInt8], from start: Int, lines: LineIndex, source: String) throws -> [CrashReport] {
        let parsed: CrashJSONParser.Result
        do {
            parsed = try CrashJSONParser.parse(bytes, start: start, lenient: true)
        } catch let error as CrashJSONError {
            throw ToolFailure("\(source): unreadable crash report JSON: \(error.description) (line \(lines.line(of: error.offset)))")
        }
        if JetsamReader.isProcessEntry(parsed.value) {
            // One process's member of a jetsam report's `processes`, posted alone: a jetsam report of one.
            var report = CrashReport(format: .ips)
            report.firstLine = lines.line(of: start)
            report.lastLine = lines.line(of: max(start, bytes.count - 1))
            let wrapper = CrashJSONObject(start: start)
            wrapper.members = [(key: "processes", value: CrashJSON.array([parsed.value]))]
            JetsamReader.apply(.object(wrapper), to: &report)
            report.missing.append("the rest of the jetsam report (only one process's entry was given)")
            return [report]
        }
        guard MetricKitReader.isMetricKit(parsed.value) else {
            throw ToolFailure("\(source): JSON is neither an .ips crash report nor a MetricKit diagnostic payload")
        }
        var reports = MetricKitReader.reports(from: parsed.value, lineOf: lines.line(of:))
        if parsed.truncated {
            if reports.isEmpty {
                throw ToolFailure("\(source): MetricKit JSON is cut off before its first diagnostic")
            }
            reports[reports.count - 1].missing.append("end of the payload (the JSON is cut off)")
        }
        guard !reports.isEmpty else { throw ToolFailure("\(source): MetricKit payload holds no diagnostics") }
        return reports
    }

    /// A report with something to say: an exception, a signal, threads, an incident id or a termination.
    public static func hasContent(_ report: CrashReport) -> Bool {
        report.exceptionType != nil || report.signal != nil || !report.threads.isEmpty
            || report.incidentID != nil || report.terminationText != nil
    }

    /// A crash log's header with nothing after it (`Process:`, `Identifier:`, then `Date/Time:`, `OS Version:` or
    /// `Version:`): a paste cut before the exception. A crash log is only written when a process ended, so it
    /// is kept as a partial report (`crash.report.partial`) rather than refused; lines that name a process but
    /// none of the other header fields are not a report.
    public static func isHeaderOnly(_ report: CrashReport) -> Bool {
        !hasContent(report) && (report.appName != nil || report.bundleID != nil)
            && (report.osVersion != nil || report.timestamp != nil || report.appVersion != nil)
    }

    /// A report worth a finding: one with content, or a header cut before its body.
    public static func isUsable(_ report: CrashReport) -> Bool { hasContent(report) || isHeaderOnly(report) }

    public static let noReportFound = "no crash report found (no exception type, termination reason or threads)"

    /// One report in text form, by the reader its kind needs: a resource report (`Event: cpu usage`…), a hang
    /// report (`Event: hang`, a spindump), or a crash report in the legacy layout.
    public static func readText(lines: ArraySlice<Substring>, firstLineNumber: Int, format: CrashReport.Format) -> CrashReport {
        if MicrostackshotReader.isResourceReport(lines) {
            return MicrostackshotReader.read(lines: lines, firstLineNumber: firstLineNumber, format: format)
        }
        if HangReportReader.isHangReport(lines) {
            return HangReportReader.read(lines: lines, firstLineNumber: firstLineNumber, format: format)
        }
        return LegacyCrashReader.read(lines: lines, firstLineNumber: firstLineNumber, format: format)
    }

    /// True when a crash document is legacy text (not JSON, not a translated report): those are read
    /// one report at a time (`EntrySplitter`), so memory does not grow with the number of reports.
    public static func isLegacyText(_ prefix: ArraySlice<UInt8>) -> Bool {
        var bytes = prefix
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard !bytes.prefix(1 << 16).contains(0), let first = bytes.first(where: { !ByteClass.isBlankOrLineBreak($0) }) else { return false }
        // `"key" : …` opens a fragment of an .ips body: read as a document (`ipsBodyFragment`).
        return first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "-") && first != UInt8(ascii: "\"")
    }

    private static func requireContent(_ reports: [CrashReport], source: String) throws -> [CrashReport] {
        let useful = reports.filter(isUsable)
        guard !useful.isEmpty else {
            throw ToolFailure("\(source): \(noReportFound)")
        }
        return useful
    }

    private static func bugTypeName(_ bugType: String) -> String {
        switch bugType {
        case "298": return " (JetsamEvent)"
        case "211": return " (analytics)"
        case "210": return " (panic)"
        case "206", "202": return " (cpu_resource)"
        case "145": return " (disk writes resource)"
        case "142": return " (wakeups resource)"
        default: return ""
        }
    }

    private static func skipSpace(_ bytes: [UInt8], _ from: Int) -> Int {
        var index = from
        while index < bytes.count, ByteClass.isBlankOrLineBreak(bytes[index]) { index += 1 }
        return index
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = from
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

/// Maps byte offsets of a document to 1-based line numbers and cuts it into lines.
struct LineIndex {
    private let bytes: [UInt8]
    /// Offsets of every "\n".
    private let newlines: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var newlines: [Int] = []
        for (index, byte) in bytes.enumerated() where byte == 0x0A { newlines.append(index) }
        self.newlines = newlines
    }

    func line(of offset: Int) -> Int {
        var low = 0, high = newlines.count
        while low < high {
            let mid = (low + high) / 2
            if newlines[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low + 1
    }

    /// The lines between two byte offsets (decoded as UTF-8 with replacement) and the line number of the first.
    func lines(from start: Int, to end: Int) -> (lines: ArraySlice<Substring>, first: Int) {
        let text = String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
        var split = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        if split.count > 1, split.last?.isEmpty == true { split.removeLast() }
        return (ArraySlice(split), line(of: start))
    }
}
