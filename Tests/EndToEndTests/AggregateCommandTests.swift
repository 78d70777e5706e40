import Foundation
import Testing

/// `cdlog aggregate` (issue 28): the same findings give the same groups whether they come as OTLP, as
/// JSON Lines or as the raw inputs; tickets and users count distinct `--resource` values; bad input is one
/// line and exit 2.
@Suite struct AggregateCommandTests {
    static let samples = ["Samples/logs/migration-failure.log", "Samples/logs/merge-conflicts.log",
                          "Samples/crash/notingpro-launch-watchdog.ips"]

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-aggregate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func groups(_ paths: [String]) throws -> [[String: String]] {
        let run = try BinaryRunner.cdlog(["aggregate", "--format", "json"] + paths)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(object["groups"] as? [[String: Any]]).map { group in
            group.mapValues { "\($0)" }
        }
    }

    @Test func otlpJSONLinesAndRawInputsAgree() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let otlp = try BinaryRunner.cdlog(["classify", "--format", "otlp"] + Self.samples)
        let jsonl = try BinaryRunner.cdlog(["classify", "--format", "jsonl"] + Self.samples)
        try Data(otlp.stdout.utf8).write(to: folder.appendingPathComponent("a.otlp.jsonl"))
        try Data(jsonl.stdout.utf8).write(to: folder.appendingPathComponent("b.jsonl"))
        let raw = try Self.groups(Self.samples.map { BinaryRunner.packageRoot.appendingPathComponent($0).path })
        #expect(raw.count > 5)
        func comparable(_ groups: [[String: String]]) -> [String] {
            // Tickets fall back to the finding's source, which is the same path in all three runs.
            groups.map { g in ["fingerprint", "rule", "appVersion", "os", "findings", "firstSeen", "lastSeen"].map { g[$0] ?? "" }.joined(separator: "|") }
        }
        #expect(comparable(try Self.groups([folder.appendingPathComponent("a.otlp.jsonl").path])) == comparable(try Self.groups(Self.samples)))
        #expect(comparable(try Self.groups([folder.appendingPathComponent("b.jsonl").path])) == comparable(try Self.groups(Self.samples)))
        #expect(comparable(raw) == comparable(try Self.groups(Self.samples)))
    }

    @Test func ticketsAndUsersCountDistinctResources() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (ticket, user) in [("T1", "u1"), ("T2", "u1"), ("T3", "u2")] {
            let run = try BinaryRunner.cdlog(["classify", "--format", "otlp", "--resource", "cdlog.ticket=\(ticket)",
                                              "--resource", "enduser.id=\(user)", "--resource", "service.version=4.2",
                                              Self.samples[0]])
            try Data(run.stdout.utf8).write(to: folder.appendingPathComponent("\(ticket).otlp.jsonl"))
        }
        let groups = try Self.groups([folder.path])
        #expect(!groups.isEmpty)
        for group in groups {
            #expect(group["appVersion"] == "4.2")
            #expect(group["tickets"] == "3", "\(group)")
            #expect(group["users"] == "2", "\(group)")
            #expect(group["findings"] == "3", "\(group)")
        }
        let text = try BinaryRunner.cdlog(["aggregate", folder.path])
        #expect(text.status == 0 && text.stdout.contains("fingerprint") && text.stdout.contains("from 3 inputs"))
    }

    @Test func badInputIsOneLineAndExitTwo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.otlp.jsonl")
        try Data("{\"resourceLogs\":[]}\n{not json\n".utf8).write(to: file)
        let run = try BinaryRunner.cdlog(["aggregate", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("broken.otlp.jsonl:2"))
        #expect(try BinaryRunner.cdlog(["aggregate", "/nonexistent/folder"]).status == 2)
    }
}
