import CDLogCore
@_spi(Testing) import CDLogKit
import Foundation
@testable import Sysdiagnose
import Testing

/// Sysdiagnoses built by `scripts/make-sysdiagnose.py` from the repository's sample reports in the real
/// folder layout, as a `.tar.gz` and extracted, plus hostile archives (issue 27). Expected values come
/// from what the script put in (the samples' headers, its SystemVersion.plist and Info.plist), never from
/// cdlog's own output.
@Suite struct SysdiagnoseTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let name = "sysdiagnose_2024.07.02_08-20-11+0800_iPhone-OS_iPhone_21F90"
    static let capture = 1_719_879_611.0

    /// Builds a sysdiagnose in a new temporary folder; returns the archive and the extracted folder.
    static func make(_ extra: [String] = []) throws -> (archive: String, folder: String, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-sysdiagnose-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot.appendingPathComponent("scripts/make-sysdiagnose.py").path, root.path] + extra
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return (printed.trimmingCharacters(in: .whitespacesAndNewlines), root.appendingPathComponent(name).path, root)
    }

    static func text(_ source: MemoryByteSource) throws -> String {
        var source = source
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func sample(_ name: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("Samples/crash/" + name), encoding: .utf8)
    }

    @Test func theArchiveAndTheFolderGiveTheAppsReportsAndTheFacts() throws {
        let built = try Self.make()
        defer { try? FileManager.default.removeItem(at: built.root) }
        #expect(Sysdiagnose.recognises(built.archive))
        #expect(Sysdiagnose.recognises(built.folder))
        #expect(Sysdiagnose.recognises(built.root.path))  // the folder one level up
        #expect(!Sysdiagnose.recognises(Self.packageRoot.appendingPathComponent("Samples/crash/notingpro-launch-watchdog.ips").path))
        #expect(!Sysdiagnose.recognises(Self.packageRoot.appendingPathComponent("Samples/crash").path))

        for path in [built.archive, built.folder] {
            let reading = try Sysdiagnose.read(path, app: "NotingPro")
            let facts = reading.facts
            #expect(facts.isArchive == (path == built.archive))
            #expect(facts.folderName == Self.name)
            #expect(facts.captured == "2024-07-02 08:20:11+0800")
            #expect(facts.capturedSeconds == Self.capture)
            #expect(facts.platform == "iPhone-OS" && facts.deviceClass == "iPhone")
            #expect(facts.productName == "iPhone OS" && facts.productVersion == "17.5.1" && facts.productBuild == "21F90")
            // The crash report (bug_type 309, its header names the app) and the jetsam event that names
            // NotingPro among its processes; the Notes reports and the stackshot of another app are not read.
            #expect(facts.reports.map(\.kind) == [.jetsam, .crash])
            #expect(facts.reports.map { $0.member.split(separator: "/").last! } == ["JetsamEvent-2024-07-02-081112.ips", "NotingPro-2024-07-02-081403.ips"])
            #expect(facts.otherReports == 3)
            #expect(facts.app == "NotingPro" && facts.bundleID == "com.example.notingpro" && facts.appChoice == "--app")
            #expect(facts.deviceModel == "iPhone14,5")  // the jetsam event's "product", the first report read
            // The crash report is handed over byte for byte.
            #expect(try Self.text(reading.sources[1]) == Self.sample("notingpro-launch-watchdog.ips"))
            let log = try #require(facts.logArchive)
            #expect(log.path == Self.name + "/system_logs.logarchive")
            #expect(log.end == Self.capture)
            #expect(log.files == 2 && log.folders.map(\.name) == ["Special", "top"])
            #expect(log.oldestFile == Self.capture - 2 * 86400 && log.newestFile == Self.capture)
            #expect(facts.placeInLog(facts.reports[1]) == "inside the log's span")
            #expect(facts.reports[1].seconds == Self.capture - 368)  // 08:14:03 +0800
        }
        let archive = try Sysdiagnose.read(built.archive, app: "NotingPro")
        #expect(archive.sources.map(\.name) == ["\(Self.name).tar.gz:crashes_and_spins/JetsamEvent-2024-07-02-081112.ips",
                                                "\(Self.name).tar.gz:crashes_and_spins/NotingPro-2024-07-02-081403.ips"])
        let folder = try Sysdiagnose.read(built.root.path, app: "NotingPro")
        #expect(folder.sources.map(\.name).allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    @Test func theNextCommandsExtractTheCrashWindow() throws {
        let built = try Self.make()
        defer { try? FileManager.default.removeItem(at: built.root) }
        let facts = try Sysdiagnose.read(built.archive, app: "com.example.notingpro").facts
        #expect(facts.logWindow?.start == "2024-07-02 08:04:03+0800" && facts.logWindow?.end == "2024-07-02 08:15:03+0800")
        let commands = try #require(facts.nextCommands)
        #expect(commands == [
            "tar -xzf '\(built.archive)' '\(Self.name)/system_logs.logarchive'",
            "log show --archive '\(Self.name)/system_logs.logarchive' --info --debug --style ndjson --start '2024-07-02 08:04:03+0800' --end '2024-07-02 08:15:03+0800' --predicate 'process == \"NotingPro\" OR subsystem BEGINSWITH \"com.apple.coredata\" OR subsystem BEGINSWITH \"com.apple.cloudkit\"' > NotingPro-window.ndjson",
            "cdlog report '\(built.archive)' --app 'NotingPro' NotingPro-window.ndjson",
        ])
        let fromFolder = try #require(try Sysdiagnose.read(built.folder, app: "NotingPro").facts.nextCommands)
        #expect(fromFolder.first?.hasPrefix("log show --archive '\(built.root.path)/\(Self.name)/system_logs.logarchive'") == true)
    }

    @Test func theAppIsChosenOrTheCandidatesAreListed() throws {
        let built = try Self.make()
        defer { try? FileManager.default.removeItem(at: built.root) }
        do {
            _ = try Sysdiagnose.read(built.archive, app: nil)
            Issue.record("several apps must be an error")
        } catch let failure as ToolFailure {
            #expect(failure.message.contains("holds reports of 2 apps: Notes (com.example.notes) 2 reports, NotingPro (com.example.notingpro) 1 report"))
            #expect(failure.message.contains("--app"))
        }
        // By bundle id, any case: the jetsam event is found through the process name the crash report gives.
        let byBundle = try Sysdiagnose.read(built.archive, app: "COM.EXAMPLE.NOTINGPRO")
        #expect(byBundle.facts.reports.map(\.kind) == [.jetsam, .crash])
        let notes = try Sysdiagnose.read(built.folder, app: "notes")
        #expect(notes.facts.reports.filter { $0.kind == .resource }.count == 2)
        #expect(notes.facts.bundleID == "com.example.notes")
        let nobody = try Sysdiagnose.read(built.archive, app: "Elsewhere")
        #expect(nobody.sources.isEmpty && nobody.facts.reports.isEmpty && nobody.facts.otherReports == 5)
        #expect(nobody.facts.otherApps == ["Notes (com.example.notes)", "NotingPro (com.example.notingpro)"])
        #expect(nobody.facts.app == "Elsewhere")
    }

    @Test func hostileArchivesAreSkippedOrRefusedInOneLine() throws {
        let traversal = try Self.make(["--hostile", "traversal"])
        defer { try? FileManager.default.removeItem(at: traversal.root) }
        let read = try Sysdiagnose.read(traversal.archive, app: "NotingPro")
        #expect(read.facts.skipped.map(\.member) == ["../../escaped.ips"])
        #expect(read.facts.reports.count == 2)
        #expect(!FileManager.default.fileExists(atPath: traversal.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("escaped.ips").path))

        let symlink = try Self.make(["--hostile", "symlink"])
        defer { try? FileManager.default.removeItem(at: symlink.root) }
        for path in [symlink.archive, symlink.folder] {
            let facts = try Sysdiagnose.read(path, app: "NotingPro").facts
            #expect(facts.skipped.count == 1 && facts.skipped[0].member.hasSuffix("crashes_and_spins/link.ips") && facts.skipped[0].reason.contains("link"))
        }

        // A 4 GiB sparse report: skipped by its size, never read (the walk takes well under a second).
        let sparse = try Self.make(["--hostile", "sparse"])
        defer { try? FileManager.default.removeItem(at: sparse.root) }
        let archiveSize = try FileManager.default.attributesOfItem(atPath: sparse.archive)[.size] as? Int ?? .max
        #expect(archiveSize < 1 << 20)
        for path in [sparse.archive, sparse.folder] {
            let start = Date()
            let facts = try Sysdiagnose.read(path, app: "NotingPro").facts
            #expect(Date().timeIntervalSince(start) < 10)
            #expect(facts.skipped.count == 1 && facts.skipped[0].reason.contains("larger than 16 MiB (4.00 GiB)"))
            #expect(facts.reports.count == 2)
        }

        let truncated = try Self.make(["--hostile", "truncated"])
        defer { try? FileManager.default.removeItem(at: truncated.root) }
        do {
            _ = try Sysdiagnose.read(truncated.archive, app: "NotingPro")
            Issue.record("a truncated archive must be an error")
        } catch let failure as ToolFailure {
            #expect(failure.message.hasPrefix("cannot read \(truncated.archive)"))
            #expect(failure.message.contains("truncated or damaged"))
            #expect(!failure.message.contains("\n"))
        }
    }

    @Test func aTarThatIsNotASysdiagnoseIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-tar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let archive = root.appendingPathComponent("attachments.tar.gz").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tar", "-czf", archive, "-C", Self.packageRoot.appendingPathComponent("Samples").path, "logs"]
        try process.run()
        process.waitUntilExit()
        #expect(Sysdiagnose.recognises(archive))
        do {
            _ = try Sysdiagnose.read(archive, app: "NotingPro")
            Issue.record("a tar of logs is not a sysdiagnose")
        } catch let failure as ToolFailure {
            #expect(failure.message.contains("is a tar archive but not a sysdiagnose"))
        }
    }

    @Test func reportTimesAndLogShowTimesRoundTrip() {
        #expect(Sysdiagnose.parseReportTime("2024-07-02 08:14:03.00 +0800")?.seconds == Self.capture - 368)
        #expect(Sysdiagnose.parseReportTime("2024-07-02 08:14:03.00 +0800")?.offset == 8 * 3600)
        #expect(ISOTime.text(seconds: Self.capture, offset: 8 * 3600) == "2024-07-02 08:20:11+0800")
        #expect(ISOTime.text(seconds: Self.capture, offset: -7 * 3600 - 1800) == "2024-07-01 16:50:11-0730")
        #expect(ISOTime.text(seconds: 0, offset: 0) == "1970-01-01 00:00:00+0000")
        // Every second of a leap day and around the year's turn reads back.
        for seconds in stride(from: 951_782_400.0, to: 951_782_400 + 2 * 86400, by: 3_607) {
            let text = ISOTime.text(seconds: seconds, offset: 3600)
            #expect(ISOTime.parse(text)?.seconds == seconds, "\(text)")
        }
    }

    @Test func aTextCrashReportSavedWithWindowsLineEndsIsRead() throws {
        let text = "Incident Identifier: 1\r\nProcess:             Notes [412]\r\nIdentifier:          com.example.notes\r\nDate/Time:           2024-07-02 08:14:03.00 +0800\r\n"
        let header = try #require(ReportHeader(Array(text.utf8)))
        #expect(header.kind == .crash)
        #expect(header.app == "Notes" && header.bundleID == "com.example.notes")
        #expect(header.time == "2024-07-02 08:14:03.00 +0800")
    }
}
