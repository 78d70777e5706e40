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

    /// Every path under `root` with its size, modification time and type, and the digest of every file
    /// under 64 MiB (the 4 GiB sparse member is checked by size and time): what "nothing written" is
    /// checked against.
    static func snapshot(_ root: String) throws -> String {
        try BinaryRunner.shell("cd '\(root)' && find . -printf '%p %s %T@ %y\\n' | sort && find . -type f -size -64M -exec sha256sum {} + | sort").stdout
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

    /// The hostile archives through the binary: a 4 GiB sparse member under a 400 MB address-space limit
    /// (so it cannot have been read), a `../../` member and a link to /etc/passwd, run from an empty folder
    /// that must stay empty, with the folder around the archive unchanged.
    @Test func hostileArchivesRunInBoundedMemoryAndWriteNothing() throws {
        for kind in ["sparse", "traversal", "symlink"] {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-sd-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let made = try BinaryRunner.shell("python3 '\(BinaryRunner.packageRoot.path)/scripts/make-sysdiagnose.py' '\(root)/in' --hostile \(kind)")
            let archive = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try FileManager.default.createDirectory(atPath: root + "/cwd", withIntermediateDirectories: true)
            let before = try Self.snapshot(root)
            let binary = BinaryRunner.binary("cdlog").path
            for input in [archive, root + "/in/" + Self.name] {
                for command in ["classify --format jsonl", "report --format json"] {
                    let result = try BinaryRunner.shell("cd '\(root)/cwd' && ulimit -v 400000 && '\(binary)' \(command) --app NotingPro '\(input)' > /dev/null")
                    #expect(result.status == 0, "\(kind) \(command) \(input): \(result.stderr)")
                    let expected = ["sparse": "larger than 16 MiB (4.00 GiB)", "traversal": "skipped ../../escaped.ips: a path that leaves",
                                    "symlink": "crashes_and_spins/link.ips: a link (never followed)"][kind]!
                    // The traversal member exists only in the archive; the extracted folder has none.
                    if kind != "traversal" || input == archive { #expect(result.stderr.contains(expected), "\(kind) \(input): \(result.stderr)") }
                }
            }
            #expect(try Self.snapshot(root) == before)
        }
    }

    /// A logarchive read on Linux: mandiant's unifiedlog_iterator JSON Lines of the same events as the
    /// ndjson sample (members renamed as its LogData names them: `message`, `log_type`, `process` as the
    /// executable's path, `pid`, `thread_id`, an RFC 3339 UTC `timestamp`) classify as the ndjson does.
    @Test func unifiedlogIteratorJSONLinesClassifyLikeLogShowNDJSON() throws {
        let sample = BinaryRunner.packageRoot.appendingPathComponent("Samples/logs/migration-failure.log")
        var converted = ""
        for line in try String(contentsOf: sample, encoding: .utf8).split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let mandiant: [String: Any] = [
                "subsystem": event["subsystem"] ?? "", "category": event["category"] ?? "", "thread_id": event["threadID"] ?? 0,
                "pid": event["processID"] ?? 0, "process": event["processImagePath"] ?? "", "message": event["eventMessage"] ?? "",
                "log_type": event["messageType"] ?? "", "event_type": "Log", "timestamp": "2024-06-18T05:42:03.118001000Z",
                "raw_message": "%@", "message_entries": [] as [Any],
            ]
            converted += String(decoding: try JSONSerialization.data(withJSONObject: mandiant, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-unifiedlog-\(UUID().uuidString).jsonl")
        try converted.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        func findings(_ path: String) throws -> [String] {
            let result = try BinaryRunner.cdlog(["classify", "--format", "jsonl", path])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").compactMap { line -> String? in
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["type"] as? String == "entry" else { return nil }
                return [o["rule"], o["category"], o["severity"], o["process"], o["message"]].map { "\($0 ?? "-")" }.joined(separator: " | ")
            }
        }
        let ndjson = try findings(sample.path)
        #expect(ndjson.count == 6)
        #expect(try findings(url.path) == ndjson)
    }
}
