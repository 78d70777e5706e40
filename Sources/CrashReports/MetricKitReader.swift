import CDLogCore
/// Reads MetricKit JSON: an `MXDiagnosticPayload` (`crashDiagnostics`, `hangDiagnostics`,
/// `cpuExceptionDiagnostics`, `diskWriteExceptionDiagnostics`, `appLaunchDiagnostics`), an array of
/// payloads, or a single diagnostic (`callStackTree` + `diagnosticMetaData`). Each diagnostic becomes
/// one report. MetricKit frames carry binary names and offsets only, never symbols.
enum MetricKitReader {
    static let diagnosticKeys: [(key: String, type: String)] = [
        ("crashDiagnostics", "crash"),
        ("hangDiagnostics", "hang"),
        ("cpuExceptionDiagnostics", "cpuException"),
        ("diskWriteExceptionDiagnostics", "diskWriteException"),
        ("appLaunchDiagnostics", "appLaunch"),
    ]

    /// True when the value has the shape of a payload, a diagnostic or an array of them.
    static func isMetricKit(_ value: CrashJSON) -> Bool {
        if let items = value.array { return items.contains(where: { $0.object != nil && isMetricKit($0) }) }
        guard value.object != nil else { return false }
        if diagnosticKeys.contains(where: { value[$0.key] != nil }) { return true }
        if value["diagnosticMetaData"] != nil { return true }
        if value["payloads"]?.array != nil { return true }
        return false
    }

    /// Reports in document order. `lineOf` maps a byte offset to a 1-based line.
    static func reports(from value: CrashJSON, lineOf: (Int) -> Int) -> [CrashReport] {
        var result: [CrashReport] = []
        // Payloads may be nested in arrays or under "payloads"; walk them with an explicit work list.
        var work: [(CrashJSON, timestamp: String?)] = [(value, nil)]
        while !work.isEmpty {
            let (item, inherited) = work.removeFirst()
            if let items = item.array {
                work.insert(contentsOf: items.map { ($0, inherited) }, at: 0)
                continue
            }
            guard let object = item.object else { continue }
            if let payloads = item["payloads"]?.array {
                work.insert(contentsOf: payloads.map { ($0, inherited) }, at: 0)
                continue
            }
            let timestamp = item["timeStampEnd"]?.string ?? item["timeStampBegin"]?.string ?? inherited
            if item["diagnosticMetaData"] != nil {
                result.append(report(from: object, type: nil, timestamp: timestamp, lineOf: lineOf))
                continue
            }
            // Keep the diagnostics in document order whatever the key order.
            var found: [(CrashJSONObject, String)] = []
            for (key, type) in diagnosticKeys {
                for diagnostic in item[key]?.array ?? [] {
                    if let diagnosticObject = diagnostic.object { found.append((diagnosticObject, type)) }
                }
            }
            found.sort { $0.0.start < $1.0.start }
            for (diagnostic, type) in found {
                result.append(report(from: diagnostic, type: type, timestamp: timestamp, lineOf: lineOf))
            }
        }
        return result
    }

    private static func report(from diagnostic: CrashJSONObject, type: String?, timestamp: String?, lineOf: (Int) -> Int) -> CrashReport {
        var report = CrashReport(format: .metrickit)
        report.firstLine = lineOf(diagnostic.start)
        report.lastLine = lineOf(max(diagnostic.start, diagnostic.end - 1))
        report.timestamp = timestamp
        let value = CrashJSON.object(diagnostic)
        let meta = value["diagnosticMetaData"] ?? .null
        if meta.object == nil { report.missing.append("diagnosticMetaData") }
        report.appVersion = meta["appVersion"]?.text.flatMap { $0.isEmpty ? nil : $0 }
        report.build = meta["appBuildVersion"]?.text.flatMap { $0.isEmpty ? nil : $0 }
        report.osVersion = meta["osVersion"]?.string
        report.device = meta["deviceType"]?.string
        report.bundleID = meta["bundleIdentifier"]?.string
        report.appName = report.bundleID.map { String($0.split(separator: ".").last ?? Substring($0)) }

        if let number = meta["exceptionType"]?.integer {
            report.exceptionType = CrashTermination.exceptionName(number) ?? "exception \(number)"
        } else if let text = meta["exceptionType"]?.string {
            report.exceptionType = text
        }
        if let number = meta["signal"]?.integer {
            report.signal = CrashTermination.signalName(number) ?? "signal \(number)"
        }
        if let code = meta["exceptionCode"]?.integer { report.exceptionCodes = CrashText.hex(code) }
        if let reason = meta["terminationReason"]?.string {
            report.terminationText = reason
            let firstLine = String(reason.prefix(while: { $0 != "\n" }))
            let parsed = CrashTermination.parseReasonLine(firstLine)
            report.terminationNamespace = parsed.namespace
            report.terminationCodeValue = parsed.code ?? CrashTermination.contextCode(in: reason)
        }
        if let objc = meta["objectiveCexceptionReason"] {
            report.exceptionName = objc["exceptionName"]?.string ?? objc["className"]?.string
            report.exceptionReason = objc["composedMessage"]?.string
        }
        if let hang = meta["hangDuration"]?.text { report.hangDuration = CrashText.seconds(hang) }
        if let launch = meta["launchDuration"]?.text { report.launchDuration = CrashText.seconds(launch) }
        if let cpu = meta["totalCPUTime"]?.text { report.totalCPUTime = CrashText.seconds(cpu) }
        if let sampled = meta["totalSampledTime"]?.text { report.totalSampledTime = CrashText.seconds(sampled) }
        report.writesCaused = meta["writesCaused"]?.text

        report.diagnosticType = type ?? inferType(meta)

        let tree = value["callStackTree"]
        if tree == nil { report.missing.append("callStackTree") }
        for (index, stack) in (tree?["callStacks"]?.array ?? []).enumerated() {
            var thread = CrashThread(number: index)
            thread.crashed = stack["threadAttributed"]?.bool ?? false
            thread.frames = flatten(stack["callStackRootFrames"])
            report.threads.append(thread)
        }
        report.faultingThread = report.threads.firstIndex(where: \.crashed)
        return report
    }

    private static func inferType(_ meta: CrashJSON) -> String {
        if meta["hangDuration"] != nil { return "hang" }
        if meta["writesCaused"] != nil { return "diskWriteException" }
        if meta["totalCPUTime"] != nil { return "cpuException" }
        if meta["launchDuration"] != nil { return "appLaunch" }
        return "crash"
    }

    /// Per-thread trees: the root frame is frame 0 (the innermost call) and `subFrames[0]` its caller, down
    /// to `start`. Aggregated trees (`callStackPerThread: false`) branch; follow the heaviest branch.
    private static func flatten(_ roots: CrashJSON?) -> [CrashFrame] {
        var frames: [CrashFrame] = []
        var current = heaviest(roots?.array ?? [])
        while let node = current, frames.count < 1024 {
            var frame = CrashFrame()
            frame.image = node["binaryName"]?.string ?? node["binaryUUID"]?.string
            frame.offset = realOffset(node["offsetIntoBinaryTextSegment"]?.integer, address: node["address"]?.integer)
            frames.append(frame)
            current = heaviest(node["subFrames"]?.array ?? [])
        }
        return frames
    }

    /// The offset of a frame into its binary. iOS 14.0.x payloads put the binary's load address in
    /// `offsetIntoBinaryTextSegment` (frames then read `libswiftCore.dylib + 6859616256`): a value no text
    /// segment is that large (4 GiB or more) that is not above the frame's `address` is a load address,
    /// and the real offset is `address` minus it.
    static func realOffset(_ offset: UInt64?, address: UInt64?) -> UInt64? {
        guard let offset else { return nil }
        if offset >= 1 << 32, let address, address >= offset { return address - offset }
        return offset
    }

    private static func heaviest(_ nodes: [CrashJSON]) -> CrashJSON? {
        var best: CrashJSON?
        var bestCount: UInt64 = 0
        for node in nodes where node.object != nil {
            let count = node["sampleCount"]?.integer ?? 0
            if best == nil || count > bestCount {
                best = node
                bestCount = count
            }
        }
        return best
    }
}
