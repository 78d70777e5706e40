import CDLogCore
/// Reads the JSON body of an `.ips` crash report (iOS 15+/macOS 12+, `bug_type 309`) together with its
/// header line, following Apple's "Interpreting the JSON format of a crash report" and the variants of
/// crash-formats.md §2. Every key is optional and read with type checks: a field of the wrong type is
/// skipped, never trusted.
enum IPSReader {
    /// Fields of the IPS metadata line (line 1).
    static func applyHeader(_ header: CrashJSON, to report: inout CrashReport) {
        report.appName = header["app_name"]?.string ?? header["name"]?.string
        report.bundleID = header["bundleID"]?.string
        report.appVersion = nonEmpty(header["app_version"]?.text)
        report.build = nonEmpty(header["build_version"]?.text)
        report.osVersion = header["os_version"]?.string
        report.incidentID = header["incident_id"]?.string
        report.timestamp = header["timestamp"]?.string
    }

    /// Fields of the crash body. `header` fields already set win for names and versions
    /// (they are what the App Store shows), the body fills the gaps.
    static func applyBody(_ body: CrashJSON, to report: inout CrashReport) {
        if let bundleInfo = body["bundleInfo"] {
            report.bundleID = report.bundleID ?? bundleInfo["CFBundleIdentifier"]?.string
            report.appVersion = report.appVersion ?? nonEmpty(bundleInfo["CFBundleShortVersionString"]?.text)
            report.build = report.build ?? nonEmpty(bundleInfo["CFBundleVersion"]?.text)
        }
        report.appName = report.appName ?? body["procName"]?.string
        report.device = body["modelCode"]?.string ?? report.device
        report.incidentID = report.incidentID ?? body["incident"]?.string
        report.timestamp = report.timestamp ?? body["captureTime"]?.string
        if report.osVersion == nil, let os = body["osVersion"] {
            if let train = os["train"]?.string {
                report.osVersion = os["build"]?.string.map { "\(train) (\($0))" } ?? train
            } else {
                report.osVersion = os.string
            }
        }

        if let exception = body["exception"] {
            report.exceptionType = exception["type"]?.string
            report.signal = exception["signal"]?.string
            report.exceptionSubtype = exception["subtype"]?.string
            report.exceptionMessage = exception["message"]?.string
            report.exceptionCodes = exception["codes"]?.string
        }
        // The process went on: the system wrote the report without killing it (Xcode renders these as
        // `Exception Note:` lines).
        if body["isSimulated"]?.bool == true { report.exceptionNotes.append("SIMULATED (this is NOT a crash)") }
        if body["isNonFatal"]?.bool == true { report.exceptionNotes.append("NON-FATAL CONDITION (this is NOT a crash)") }
        if let termination = body["termination"] {
            report.terminationNamespace = termination["namespace"]?.string
            report.terminationCodeValue = termination["code"]?.integer
            var lines: [String] = []
            // Rendered as Xcode prints it: "SIGNAL 5 Trace/BPT trap: 5", "FRONTBOARD 2343432205".
            var first = [report.terminationNamespace, report.terminationCodeValue.map { String($0) }].compactMap { $0 }
            if let indicator = termination["indicator"]?.string { first.append(indicator) }
            if !first.isEmpty { lines.append(first.joined(separator: " ")) }
            for key in ["reasons", "details"] {
                for reason in termination[key]?.array ?? [] {
                    if let text = reason.string { lines.append(text) }
                }
            }
            if !lines.isEmpty { report.terminationText = lines.joined(separator: "\n") }
        }
        if let reason = body["exceptionReason"] {
            report.exceptionName = reason["name"]?.string
            report.exceptionReason = reason["composed_message"]?.string ?? reason["format_string"]?.string
        }
        if let asi = body["asi"]?.object {
            for member in asi.members {
                for line in member.value.array ?? [] {
                    if let text = line.string { report.applicationSpecific.append(text) }
                }
            }
        }
        if let ktriage = body["ktriageinfo"]?.string, !ktriage.isEmpty {
            report.applicationSpecific.append(contentsOf: ktriage.textLines(omittingEmpty: true).map(String.init).prefix(5))
        }

        let images = imageNames(body["usedImages"])
        let threadValues = body["threads"]?.array ?? []
        for (index, value) in threadValues.enumerated() {
            var thread = CrashThread(number: index)
            thread.name = value["name"]?.string
            thread.queue = value["queue"]?.string
            thread.crashed = value["triggered"]?.bool ?? false
            thread.frames = frames(value["frames"], images: images)
            report.threads.append(thread)
        }
        if let faulting = body["faultingThread"]?.integer, faulting < 1 << 20 { report.statedCrashedThread = Int(faulting) }
        if let faulting = body["faultingThread"]?.integer, faulting < UInt64(report.threads.count) {
            report.faultingThread = Int(faulting)
        } else {
            report.faultingThread = report.threads.firstIndex(where: \.crashed)
        }
        if let backtrace = body["lastExceptionBacktrace"] {
            report.lastExceptionBacktrace = frames(backtrace, images: images)
        }
        CrashExceptionText.extract(from: report.applicationSpecific, into: &report)

        if body["exception"] == nil { report.missing.append("exception") }
        if threadValues.isEmpty { report.missing.append("thread backtraces") }
    }

    private static func imageNames(_ value: CrashJSON?) -> [String?] {
        (value?.array ?? []).map { image in
            if let name = image["name"]?.string { return name }
            if let path = image["path"]?.string, let last = path.split(separator: "/").last { return String(last) }
            return nil
        }
    }

    private static func frames(_ value: CrashJSON?, images: [String?]) -> [CrashFrame] {
        (value?.array ?? []).compactMap { item in
            guard item.object != nil else { return nil }
            var frame = CrashFrame()
            if let index = item["imageIndex"]?.integer, index < UInt64(images.count) {
                frame.image = images[Int(index)]
            }
            frame.symbol = item["symbol"]?.string
            frame.offset = item["symbol"] == nil ? item["imageOffset"]?.integer : item["symbolLocation"]?.integer
            return frame
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
