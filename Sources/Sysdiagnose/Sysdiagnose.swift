import CDLogCore
import CDLogKit
import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Reads a sysdiagnose — the `.tar.gz` (streamed, never extracted) or its extracted folder — for one app:
/// its crash, jetsam, resource and stackshot reports, the OS and device, and what the logarchive holds.
///
/// Contract: never writes and never follows a link inside the sysdiagnose; memory is bounded by `Limits`
/// (reports are kept whole up to `reportBytes` each, `keptBytes` in all); a member whose path leaves the
/// top (`..`, `/`), a link, a report larger than the limit are skipped and named in `facts.skipped`.
/// Throws `ToolFailure` (one line) for an unreadable, truncated or damaged archive, and when the app
/// cannot be chosen (none given and several apps have reports: the message lists them).
public enum Sysdiagnose {
    public struct Limits: Sendable {
        /// A report larger than this is skipped (real ones are kilobytes to a few MiB).
        public var reportBytes = 16 << 20
        /// Reports of the app kept in all; later ones are skipped with a note.
        public var keptBytes = 128 << 20
        public var keptReports = 100
        public init() {}
    }

    /// The app's reports, ready for a run (each named `ARCHIVE:MEMBER`), and the facts.
    public struct Reading {
        public var facts: SysdiagnoseFacts
        public var sources: [MemoryByteSource]
    }

    /// One app that has reports in the sysdiagnose.
    public struct Candidate: Sendable, Equatable {
        public var app: String
        public var bundleID: String?
        public var reports: Int
    }

    /// True when `path` is a sysdiagnose this reader takes: a tar archive (compressed or not) or a folder
    /// holding `sysdiagnose.log`, `system_logs.logarchive` or `crashes_and_spins`, at its top or one level down.
    public static func recognises(_ path: String) -> Bool {
        var info = stat()
        guard path != "-", stat(FileSystemPath.bytes(path), &info) == 0 else { return false }
        if (info.st_mode & S_IFMT) == S_IFDIR { return sysdiagnoseFolder(path) != nil }
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 512 else { return false }
        return TarWalk.isTar(path)
    }

    static let markers = ["sysdiagnose.log", "system_logs.logarchive", "crashes_and_spins"]

    /// The folder itself or its one sub-folder that holds a marker.
    static func sysdiagnoseFolder(_ given: String) -> String? {
        var path = given
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        func hasMarker(_ folder: String) -> Bool {
            markers.contains { var info = stat(); return lstat(FileSystemPath.bytes(folder + "/" + $0), &info) == 0 }
        }
        if hasMarker(path) { return path }
        guard let dir = opendir(FileSystemPath.bytes(path)) else { return nil }
        defer { closedir(dir) }
        var found: String?
        var count = 0
        while let item = readdir(dir), count < 1000 {
            count += 1
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard !name.hasPrefix("."), item.pointee.d_type == UInt8(DT_DIR) else { continue }
            if hasMarker(path + "/" + name) { found = found == nil ? path + "/" + name : found }
        }
        return found
    }

    /// Reads `path` for `app` (a process name or a bundle id, any case). Without an app: the one app with
    /// crash or resource reports is taken; none leaves the reports out (facts only); several is an error
    /// listing them.
    public static func read(_ path: String, app: String?, limits: Limits = Limits()) throws -> Reading {
        var info = stat()
        let isFolder = stat(FileSystemPath.bytes(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        // A folder is walked from the sysdiagnose folder in it (the folder itself, or the one below it that
        // holds the markers), not from everything beside it.
        let walk: any MemberWalk = isFolder ? FolderWalk(path: sysdiagnoseFolder(path) ?? path) : TarWalk(path: path)
        // A process name is enough to pick the reports in one pass. A bundle id, or no app, takes a first
        // pass over the report headers: a jetsam event or a stackshot names processes, not bundle ids.
        if let app, !app.contains(".") {
            var reading = try scan(walk, path: path, isArchive: !isFolder, names: [app.lowercased()], choice: "--app", limits: limits)
            if reading.facts.app == nil { reading.facts.app = app }
            return reading
        }
        let candidates = try self.candidates(walk)
        func names(_ c: Candidate) -> [String] { [c.app.lowercased()] + (c.bundleID.map { [$0.lowercased()] } ?? []) }
        if let app {
            let known = candidates.first { $0.bundleID?.lowercased() == app.lowercased() || $0.app.lowercased() == app.lowercased() }
            var reading = try scan(walk, path: path, isArchive: !isFolder, names: known.map(names) ?? [app.lowercased()], choice: "--app", limits: limits)
            if reading.facts.app == nil { reading.facts.app = known?.app ?? app }
            return reading
        }
        switch candidates.count {
        case 0:
            return try scan(walk, path: path, isArchive: !isFolder, names: nil, choice: nil, limits: limits)
        case 1:
            return try scan(walk, path: path, isArchive: !isFolder, names: names(candidates[0]), choice: "the only app with reports", limits: limits)
        default:
            let listed = candidates.prefix(12).map { "\($0.app)" + ($0.bundleID.map { " (\($0))" } ?? "") + " \($0.reports) report\($0.reports == 1 ? "" : "s")" }
            throw ToolFailure("\(path) holds reports of \(candidates.count) apps: \(listed.joined(separator: ", "))\(candidates.count > 12 ? ", …" : ""); pick one with --app NAME or --app BUNDLE_ID")
        }
    }

    /// The apps with crash or resource reports (not Apple's), most reports first.
    static func candidates(_ walk: any MemberWalk) throws -> [Candidate] {
        var found: [Candidate] = []
        try walk.forEach { member, content in
            guard member.kind == .file, let parts = member.safeComponents, isReportName(parts.last ?? "") else { return }
            let (bytes, _) = try content.read(limit: 64 << 10)
            guard let header = ReportHeader(bytes), header.kind == .crash || header.kind == .resource,
                  let app = header.app, !(header.bundleID ?? "").hasPrefix("com.apple.") else { return }
            if let index = found.firstIndex(where: { $0.app == app && $0.bundleID == header.bundleID }) {
                found[index].reports += 1
            } else if found.count < 1000 {
                found.append(Candidate(app: app, bundleID: header.bundleID, reports: 1))
            }
        }
        return found.sorted { $0.reports != $1.reports ? $0.reports > $1.reports : $0.app < $1.app }
    }

    static func isReportName(_ name: Substring) -> Bool {
        name.hasSuffix(".ips") || name.hasSuffix(".crash") || name.hasSuffix(".ips.synced")
    }

    /// One pass: the facts, and the reports that belong to the app named by `names` (lower-case process
    /// name and bundle id; nil: no app, no report is read).
    private static func scan(_ walk: any MemberWalk, path: String, isArchive: Bool, names: [String]?, choice: String?,
                             limits: Limits) throws -> Reading {
        var facts = SysdiagnoseFacts(path: path, isArchive: isArchive)
        facts.folderBase = (walk as? FolderWalk)?.base
        facts.appChoice = choice
        var sources: [MemoryByteSource] = []
        var kept = 0
        let wanted = names
        var log: SysdiagnoseFacts.LogArchive?
        var logFolders: [String: (files: Int, bytes: Int64)] = [:]
        let displayName = path.split(separator: "/").last.map(String.init) ?? path
        var sawMarker = false

        try walk.forEach { member, content in
            guard let parts = member.safeComponents else {
                facts.skipped.append((member.path, "a path that leaves the archive's top (never read)"))
                return
            }
            guard let last = parts.last else { return }
            if !sawMarker, parts.contains(where: { markers.contains(String($0)) || $0.hasPrefix("sysdiagnose_") }) { sawMarker = true }
            if facts.folderName == nil, let first = parts.first, first.hasPrefix("sysdiagnose_") { facts.folderName = String(first) }
            // The logarchive: counted, its Info.plist read; tracev3 is not decoded here.
            if let at = parts.firstIndex(where: { $0.hasSuffix(".logarchive") }) {
                if log == nil { log = SysdiagnoseFacts.LogArchive(path: parts[...at].joined(separator: "/")) }
                if member.kind == .file, last.hasSuffix(".tracev3") {
                    let folder = at + 1 < parts.count - 1 ? String(parts[at + 1]) : "top"
                    let key = ["Persist", "Special", "Signpost", "HighVolume", "top"].contains(folder) ? folder : "other"
                    logFolders[key, default: (0, 0)].files += 1
                    logFolders[key, default: (0, 0)].bytes += member.size
                    if let time = member.modified {
                        log!.oldestFile = min(log!.oldestFile ?? time, time)
                        log!.newestFile = max(log!.newestFile ?? time, time)
                    }
                } else if member.kind == .file, last == "Info.plist", at == parts.count - 2 {
                    let (bytes, more) = try content.read(limit: 1 << 20)
                    if !more, let plist = propertyList(bytes),
                       let end = plist["EndTimeRef"] as? [String: Any], let wall = number(end["WallTime"]) {
                        log!.end = wall / 1e9
                    }
                }
                return
            }
            if last == "SystemVersion.plist", parts.count >= 2, parts[parts.count - 2] == "SystemVersion", member.kind == .file {
                let (bytes, more) = try content.read(limit: 1 << 20)
                if !more, let plist = propertyList(bytes) {
                    facts.productName = plist["ProductName"] as? String
                    facts.productVersion = plist["ProductVersion"] as? String
                    facts.productBuild = plist["ProductBuildVersion"] as? String
                }
                return
            }
            guard isReportName(last) else { return }
            switch member.kind {
            case .file: break
            case .link:
                facts.skipped.append((member.path, "a link (never followed)"))
                return
            default: return
            }
            guard wanted != nil else { facts.otherReports += 1; return }
            guard member.size <= Int64(limits.reportBytes) else {
                facts.skipped.append((member.path, "larger than \(limits.reportBytes >> 20) MiB (\(ByteCount.text(member.size)))"))
                return
            }
            let (bytes, more) = try content.read(limit: limits.reportBytes)
            guard !more, let header = ReportHeader(bytes) else {
                if more { facts.skipped.append((member.path, "larger than \(limits.reportBytes >> 20) MiB")) }
                return
            }
            guard header.belongs(to: wanted!, bytes: bytes) else {
                facts.otherReports += 1
                if header.kind == .crash || header.kind == .resource, let app = header.app, !(header.bundleID ?? "").hasPrefix("com.apple.") {
                    let label = app + (header.bundleID.map { " (\($0))" } ?? "")
                    if !facts.otherApps.contains(label), facts.otherApps.count < 20 { facts.otherApps.append(label) }
                }
                return
            }
            guard sources.count < limits.keptReports, kept + bytes.count <= limits.keptBytes else {
                facts.skipped.append((member.path, "more than \(limits.keptReports) reports or \(limits.keptBytes >> 20) MiB of them"))
                return
            }
            kept += bytes.count
            if header.kind == .crash || header.kind == .resource {
                facts.app = facts.app ?? header.app
                facts.bundleID = facts.bundleID ?? header.bundleID
            }
            if let model = header.model(bytes) { facts.deviceModel = facts.deviceModel ?? model }
            let time = header.time.flatMap(parseReportTime)
            facts.reports.append(.init(member: member.path, kind: header.kind, bugType: header.bugType, app: header.app,
                                       bundleID: header.bundleID, time: header.time, seconds: time?.seconds, offset: time?.offset))
            // A folder's report by its own path (it can be opened); an archive's as ARCHIVE:MEMBER, the
            // member without the top folder every member shares.
            let name = isArchive ? displayName + ":" + (parts.count > 1 && parts[0].hasPrefix("sysdiagnose_") ? parts.dropFirst() : parts[...]).joined(separator: "/")
                : facts.folderBase! + "/" + member.path
            sources.append(MemoryByteSource(name: name, bytes: bytes))
        }
        guard sawMarker else {
            throw ToolFailure("\(path) is a tar archive but not a sysdiagnose (no sysdiagnose_… folder, crashes_and_spins, system_logs.logarchive or sysdiagnose.log in it): extract it and give its files")
        }
        if var log {
            log.folders = logFolders.sorted { $0.key < $1.key }.map { ($0.key, $0.value.files, $0.value.bytes) }
            facts.logArchive = log
        }
        if let name = facts.folderName { readFolderName(name, into: &facts) }
        return Reading(facts: facts, sources: sources)
    }

    /// `sysdiagnose_2024.07.02_08-20-11+0800_iPhone-OS_iPhone_21F90` → capture time, platform, device, build.
    static func readFolderName(_ name: String, into facts: inout SysdiagnoseFacts) {
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return }
        let date = parts[1].split(separator: ".")
        let time = parts[2]
        if date.count == 3, time.count >= 8 {
            let clock = time.prefix(8).replacingOccurrences(of: "-", with: ":")
            let zone = time.dropFirst(8)
            let text = "\(date[0])-\(date[1])-\(date[2]) \(clock)\(zone)"
            if let parsed = ISOTime.parse(text) {
                facts.captured = ISOTime.text(seconds: parsed.seconds, offset: parsed.offset ?? 0)
                facts.capturedSeconds = parsed.seconds
                facts.capturedOffset = parsed.offset
            }
        }
        if parts.count >= 6 {
            facts.platform = String(parts[3])
            facts.deviceClass = String(parts[4])
            facts.productBuild = facts.productBuild ?? String(parts[5])
        }
    }

    /// "2024-07-02 08:14:03.00 +0800" (an .ips header's form) → seconds and offset.
    static func parseReportTime(_ text: String) -> (seconds: Double, offset: Int?)? {
        var text = text
        if let space = text.lastIndex(of: " "), text.index(after: space) < text.endIndex,
           ["+", "-"].contains(text[text.index(after: space)]) { text.remove(at: space) }
        return ISOTime.parse(text)
    }

    static func propertyList(_ bytes: [UInt8]) -> [String: Any]? {
        (try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)) as? [String: Any]
    }

    static func number(_ value: Any?) -> Double? {
        if let n = value as? NSNumber { return n.doubleValue }
        if let i = value as? Int { return Double(i) }
        if let d = value as? Double { return d }
        return nil
    }
}
