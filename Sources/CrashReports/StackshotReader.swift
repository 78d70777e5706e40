import CDLogCore
/// Reads a stackshot (`.ips` `bug_type` 288): the stacks of every process at one moment, written when
/// someone asked for them (the button chord or `sysdiagnose`, exception code `0xbaaaaaad`) or by the
/// system. Nothing was killed and nothing crashed; people attach one when the device or an app froze.
///
/// Contract: the report becomes a `CrashReport` with `diagnosticType` `stackshot`, the trigger
/// (`stackshotReason`) and its code (`stackshotCode`), the frontmost process as the app (`procname`, cut
/// to 31 characters by the kernel; a stackshot names no bundle), and that process's main thread (the
/// thread on `com.apple.main-thread`, or its lowest thread id) as the one thread, deepest frame first.
/// A stackshot is not symbolicated: a frame is its binary's UUID and the offset into it (`shared cache +
/// offset` for the dyld shared cache), so no frame is taken for Core Data. What the main thread waited
/// on (`waitInfo`, `turnstileInfo`) and its state go to `stackshotLines`. Numbers are kept as text, so
/// addresses above 2^63 are read as they are.
enum StackshotReader {
    static func isStackshot(_ body: CrashJSON, bugType: String) -> Bool {
        bugType == "288" || bugType == "509" || (body["processByPid"]?.object != nil && body["threads"] == nil)
    }

    static func apply(_ body: CrashJSON, to report: inout CrashReport) {
        report.diagnosticType = "stackshot"
        report.device = report.device ?? body["product"]?.string
        report.osVersion = report.osVersion ?? body["build"]?.string
        report.incidentID = report.incidentID ?? body["incident"]?.string
        report.timestamp = report.timestamp ?? body["date"]?.string
        report.stackshotReason = body["reason"]?.string
        report.stackshotCode = body["exception"]?.text
        guard let processes = body["processByPid"]?.object else {
            report.missing.append("the processes (no processByPid)")
            return
        }
        let frontPids = (body["frontmostPids"]?.array ?? []).compactMap(\.text)
        let front = frontPids.lazy.compactMap { processes[$0] }.first
            ?? processes.members.first { $0.value["frontmost"]?.bool == true }?.value
        guard let process = front else {
            report.stackshotLines.append("no frontmost process (the screen was locked or showed no app)")
            return
        }
        let name = process["procname"]?.string
        report.appName = report.appName ?? name
        let pid = process["pid"]?.text
        var line = "frontmost process: \(name ?? "?")" + (pid.map { " [\($0)]" } ?? "")
        let flags = (process["flags"]?.array ?? []).compactMap(\.string)
        if !flags.isEmpty { line += " (\(flags.joined(separator: ", ")))" }
        report.stackshotLines.append(line)
        guard let threads = process["threadById"]?.object, !threads.members.isEmpty else {
            report.missing.append("the frontmost process's threads")
            return
        }
        let main = threads.members.first { $0.value["dispatch_queue_label"]?.string == "com.apple.main-thread" }
            ?? threads.members.min { (UInt64($0.key) ?? .max) < (UInt64($1.key) ?? .max) }
        guard let (id, thread) = main else { return }
        let images = body["binaryImages"]?.array ?? []
        let frames = (thread["userFrames"]?.array ?? []).compactMap { frame(of: $0, images: images) }
        report.threads = [CrashThread(number: 0, name: thread["name"]?.string ?? "main thread (id \(id))",
                                      queue: "com.apple.main-thread", frames: frames)]
        var state = "main thread (id \(id))"
        let states = (thread["state"]?.array ?? []).compactMap(\.string)
        if !states.isEmpty { state += ": " + states.joined(separator: ", ") }
        if let qos = thread["qosEffective"]?.string { state += ", " + qos }
        report.stackshotLines.append(state)
        let prefix = "thread \(id):"
        for key in ["waitInfo", "turnstileInfo"] {
            for info in (process[key]?.array ?? []).compactMap(\.string) where info.hasPrefix(prefix) {
                var line = "main thread " + CrashText.trim(info.dropFirst(prefix.count))
                // `blocked on 28902`: say what that thread is (a context's queue is the usual persistence case).
                if let range = line.range(of: "blocked on "),
                   case let other = String(line[range.upperBound...].prefix { $0.isNumber }), !other.isEmpty,
                   let blocker = threads[other] {
                    let label = blocker["dispatch_queue_label"]?.string ?? blocker["name"]?.string
                    let states = (blocker["state"]?.array ?? []).compactMap(\.string)
                    let about = [label.map { "queue \($0)" }, states.isEmpty ? nil : states.joined(separator: ", ")].compactMap { $0 }
                    if !about.isEmpty { line += " (thread \(other): \(about.joined(separator: ", ")))" }
                }
                report.stackshotLines.append(line)
            }
        }
    }

    /// `[imageIndex, offset]` into `binaryImages` (`[uuid, loadAddress, kind]`): the image's name as a
    /// stackshot gives it (its UUID; `shared cache`, `kernel`), and the offset.
    private static func frame(of pair: CrashJSON, images: [CrashJSON]) -> CrashFrame? {
        guard let parts = pair.array, parts.count == 2, let index = parts[0].integer, let offset = parts[1].integer else { return nil }
        guard index < UInt64(images.count), let image = images[Int(index)].array, image.count >= 3 else {
            return CrashFrame(image: nil, symbol: nil, offset: offset)
        }
        let name: String
        switch image[2].string {
        case "S", "C": name = "shared cache"
        case "U", "K", "T": name = "kernel"
        case "A": name = "absolute"
        default: name = image[0].string.map { "image " + $0.prefix(8) } ?? "image"
        }
        return CrashFrame(image: name, symbol: nil, offset: offset)
    }
}
