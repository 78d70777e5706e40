import Foundation
import Testing

/// End-to-end: `cdlog classify` and `cdlog report` on a sysdiagnose (issue 27), built by
/// `scripts/make-sysdiagnose.py` from the sample reports, as a `.tar.gz` and extracted.
@Suite struct SysdiagnoseCommandTests {
    static let name = "sysdiagnose_2024.07.02_08-20-11+0800_iPhone-OS_iPhone_21F90"

    static func build() throws -> (root: String, archive: String, folder: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-sd-\(UUID().uuidString)").path
        let made = try BinaryRunner.shell("python3 '\(BinaryRunner.packageRoot.path)/scripts/make-sysdiagnose.py' '\(root)'")
        #expect(made.status == 0, "\(made.stderr)")
        return (root, made.stdout.trimmingCharacters(in: .whitespacesAndNewlines), root + "/" + name)
    }

    /// Every path under `root` with its size, modification time and bytes' digest: what "nothing written"
    /// is checked against.
    static func snapshot(_ root: String) throws -> String {
        try BinaryRunner.shell("cd '\(root)' && find . -printf '%p %s %T@ %y\\n' | sort && find . -type f -exec sha256sum {} + | sort").stdout
    }

    @Test func reportOnAnArchiveGivesTheDiagnosisTheEnvironmentTheGapsAndTheNextCommands() throws {
        let built = try Self.build()
        defer { try? FileManager.default.removeItem(atPath: built.root) }
        let before = try Self.snapshot(built.root)
        let markdown = try BinaryRunner.cdlog(["report", built.archive, "--app", "NotingPro"])
        #expect(markdown.status == 0, "\(markdown.stderr)")
        #expect(markdown.stdout.contains("diagnosis `launch.watchdog.checkpoint-before-migration`"))
        #expect(markdown.stdout.contains("| Sysdiagnose | \(Self.name.replacingOccurrences(of: "_", with: "\\_")), taken 2024-07-02 08:20:11+0800 |"))
        #expect(markdown.stdout.contains("## Next commands"))
        #expect(markdown.stdout.contains("log show --archive '\(Self.name)/system_logs.logarchive' --info --debug --style ndjson --start '2024-07-02 08:04:03+0800'"))
        #expect(markdown.stderr.contains("2 reports of NotingPro (--app); 3 other reports not read"))

        let json = try BinaryRunner.cdlog(["report", "--format", "json", built.folder, "--app", "com.example.notingpro"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let gaps = (object["evidenceGaps"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(gaps.contains("logarchive-not-read"))
        let commands = object["nextCommands"] as? [String] ?? []
        #expect(commands.count == 2 && commands[0].hasPrefix("log show --archive '\(built.folder)/system_logs.logarchive'"))
        let environment = (object["environment"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        #expect(environment.contains("Unified log") && environment.contains("Reports of NotingPro") && environment.contains("Crash time"))
        #expect((object["headline"] as? [String: Any])?["id"] as? String == "launch.watchdog.checkpoint-before-migration")

        // Nothing in the sysdiagnose changed: bytes, names, sizes, times.
        #expect(try Self.snapshot(built.root) == before)
    }

    @Test func classifyListsTheAppsWhenNoneIsGivenAndReadsTheOneNamed() throws {
        let built = try Self.build()
        defer { try? FileManager.default.removeItem(atPath: built.root) }
        let ambiguous = try BinaryRunner.cdlog(["classify", built.archive])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stdout.isEmpty)
        #expect(ambiguous.stderr.hasPrefix("cdlog: error: \(built.archive) holds reports of 2 apps: Notes (com.example.notes) 2 reports, NotingPro (com.example.notingpro) 1 report; pick one"))
        #expect(ambiguous.stderr.split(separator: "\n").count == 1)

        let notes = try BinaryRunner.cdlog(["classify", "--format", "jsonl", built.root, "--app", "Notes"])
        #expect(notes.status == 0, "\(notes.stderr)")
        let sources = notes.stdout.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["source"] as? String
        }
        #expect(sources.count == 3)
        #expect(sources.allSatisfy { $0.hasPrefix(built.folder + "/crashes_and_spins/") && FileManager.default.fileExists(atPath: $0) })

        let notAnApp = try BinaryRunner.cdlog(["classify", "--app", "Notes", BinaryRunner.packageRoot.appendingPathComponent("Samples/crash/notingpro-launch-watchdog.ips").path])
        #expect(notAnApp.status == 2 && notAnApp.stderr.contains("--app picks an app's reports in a sysdiagnose"))
    }

    @Test func theReportIsNeverWrittenOverOrIntoTheSysdiagnose() throws {
        let built = try Self.build()
        defer { try? FileManager.default.removeItem(atPath: built.root) }
        let before = try Self.snapshot(built.root)
        for (input, output) in [(built.archive, built.archive), (built.folder, built.folder + "/report.md"), (built.root, built.folder + "/crashes_and_spins/x.md")] {
            let result = try BinaryRunner.cdlog(["report", input, "--app", "NotingPro", "--output", output])
            #expect(result.status == 2, "\(input) → \(output)")
            #expect(result.stderr.hasPrefix("cdlog: error: refusing to write \(output)"), "\(result.stderr)")
        }
        #expect(try Self.snapshot(built.root) == before)
    }

    @Test func aTruncatedArchiveIsOneLineAndExitTwo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-sd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let made = try BinaryRunner.shell("python3 '\(BinaryRunner.packageRoot.path)/scripts/make-sysdiagnose.py' '\(root)' --hostile truncated")
        let archive = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try BinaryRunner.cdlog(["report", archive, "--app", "NotingPro"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("cdlog: error: cannot read \(archive) "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
