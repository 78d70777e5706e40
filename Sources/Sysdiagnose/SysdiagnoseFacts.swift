import CDLogCore

/// What a sysdiagnose says about the device and its logs, and which of its reports belong to the app.
/// Built by `Sysdiagnose.read`; values are nil when the archive does not hold them.
public struct SysdiagnoseFacts: Sendable {
    /// The archive or folder as given.
    public var path: String
    public var isArchive: Bool
    /// For a folder: the folder its member paths are relative to (they start with the sysdiagnose's name).
    public var folderBase: String?
    /// `sysdiagnose_2024.07.02_08-20-11+0800_iPhone-OS_iPhone_21F90`: the top folder, which names the
    /// capture time, the platform, the device class and the OS build.
    public var folderName: String?
    /// The capture time from the folder name ("2024-07-02 08:20:11+0800") and in seconds since 1970.
    public var captured: String?
    public var capturedSeconds: Double?
    public var capturedOffset: Int?
    public var platform: String?
    public var deviceClass: String?
    /// From `logs/SystemVersion/SystemVersion.plist`.
    public var productName: String?
    public var productVersion: String?
    public var productBuild: String?
    /// The device model (`iPhone14,5`) from the app's reports (`modelCode`, `product`).
    public var deviceModel: String?

    /// `system_logs.logarchive`: the unified log, in Apple's tracev3 files.
    public struct LogArchive: Sendable {
        /// Its path inside the sysdiagnose ("sysdiagnose_…/system_logs.logarchive").
        public var path: String
        /// tracev3 files by folder (`Persist`, `Special`, `Signpost`, `HighVolume`, the top): count and bytes.
        public var folders: [(name: String, files: Int, bytes: Int64)] = []
        /// `Info.plist` `EndTimeRef.WallTime`: when the archive was collected.
        public var end: Double?
        /// The oldest and newest last-write time of its tracev3 files: roughly the span the log covers.
        public var oldestFile: Double?
        public var newestFile: Double?
        public var files: Int { folders.reduce(0) { $0 + $1.files } }
        public var bytes: Int64 { folders.reduce(0) { $0 + $1.bytes } }
    }
    public var logArchive: LogArchive?

    /// One report of the sysdiagnose (an `.ips` or `.crash` file).
    public struct Report: Sendable {
        public enum Kind: String, Sendable { case crash, jetsam, resource, stackshot, other }
        public var member: String
        public var kind: Kind
        public var bugType: String?
        public var app: String?
        public var bundleID: String?
        /// As the report prints it, and in seconds since 1970 with its offset.
        public var time: String?
        public var seconds: Double?
        public var offset: Int?
    }
    /// The app's reports, read and handed to the run (in archive order).
    public var reports: [Report] = []
    /// Reports of other apps and of the system that were not read.
    public var otherReports = 0
    /// The other apps with crash or resource reports ("Notes (com.example.notes)"), at most 20.
    public var otherApps: [String] = []
    /// The app the reports were picked for, and how ("--app", "the only app with reports").
    public var app: String?
    public var bundleID: String?
    public var appChoice: String?
    /// Members left out, with why (a link, a path leaving the archive, too large, more than the limit).
    public var skipped: [(member: String, reason: String)] = []

    /// The reports' times within the log's span, or where they fall outside it.
    public func placeInLog(_ report: Report) -> String? {
        guard let time = report.seconds, let log = logArchive else { return nil }
        if let oldest = log.oldestFile, time < oldest {
            return "before the oldest log file was last written (\(ISOTime.text(seconds: oldest, offset: report.offset ?? 0))): the log may no longer hold it"
        }
        if let end = log.end ?? capturedSeconds, time > end { return "after the log was collected" }
        return "inside the log's span"
    }

    /// The window to extract from the logarchive: ten minutes before the app's newest report to one minute
    /// after it; without a report, the hour before the capture.
    public var logWindow: (start: String, end: String)? {
        if let newest = reports.filter({ $0.seconds != nil }).max(by: { $0.seconds! < $1.seconds! }), let time = newest.seconds {
            let offset = newest.offset ?? capturedOffset ?? 0
            return (ISOTime.text(seconds: time - 600, offset: offset), ISOTime.text(seconds: time + 60, offset: offset))
        }
        guard let end = logArchive?.end ?? capturedSeconds else { return nil }
        let offset = capturedOffset ?? 0
        return (ISOTime.text(seconds: end - 3600, offset: offset), ISOTime.text(seconds: end, offset: offset))
    }

    /// The commands that turn the logarchive's window into text `cdlog` reads (macOS: `log show`; the
    /// archive is extracted first when the sysdiagnose is a `.tar.gz`), then the report over both.
    /// Nil without a logarchive.
    public var nextCommands: [String]? {
        guard let log = logArchive else { return nil }
        func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var commands: [String] = []
        let archivePath: String
        if isArchive {
            commands.append("tar -xzf \(quote(path)) \(quote(log.path))")
            archivePath = log.path
        } else {
            archivePath = (folderBase ?? ".") + "/" + log.path
        }
        var predicate = "subsystem BEGINSWITH \"com.apple.coredata\" OR subsystem BEGINSWITH \"com.apple.cloudkit\""
        if let app { predicate = "process == \"\(app)\" OR " + predicate }
        var show = "log show --archive \(quote(archivePath)) --info --debug --style ndjson"
        if let window = logWindow { show += " --start \(quote(window.start)) --end \(quote(window.end))" }
        let output = (app.map { $0.filter { $0.isLetter || $0.isNumber } } ?? "coredata") + "-window.ndjson"
        show += " --predicate \(quote(predicate)) > \(output)"
        commands.append(show)
        commands.append("cdlog report \(quote(path))" + (app.map { " --app \(quote($0))" } ?? "") + " \(output)")
        return commands
    }

    /// What the logarchive cannot show, whatever is done with it.
    public static let logArchiveLimits = "A logarchive holds what the device persisted: info lines only for subsystems configured to keep them, debug lines only while a logging profile or OSLogPreferences enabled them, and dynamic values as <private> unless the app's process made them public. cdlog does not decode tracev3 itself: on macOS log show reads it; on Linux mandiant's unifiedlog_iterator turns it into JSON Lines cdlog reads."
}
