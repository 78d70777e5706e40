import Foundation
import Testing

/// Fingerprints are stable (issue 28): the same inputs give the same (rule, fingerprint) findings whatever
/// the order of the files, the thread count or the path they are read from; and `--format otlp` writes
/// OTLP/JSON `LogsData` lines as the proto's JSON mapping spells them. (The same lines are parsed strictly
/// by the OpenTelemetry proto package and loaded into ClickHouse by scripts/fleet/test-clickhouse.sh.)
@Suite struct FingerprintAndOTLPTests {
    static let samples = ["Samples/logs/migration-failure.log", "Samples/logs/throttled-export.log",
                          "Samples/logs/merge-conflicts.log", "Samples/crash/notingpro-launch-watchdog.ips",
                          "Samples/crash/dead10cc-sqlite.crash"]

    /// Each finding's (file name, line, rule, fingerprint) from a jsonl run.
    static func findings(_ arguments: [String]) throws -> [String] {
        let run = try BinaryRunner.cdlog(["classify", "--format", "jsonl"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return try run.stdout.split(separator: "\n").compactMap { line -> String? in
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard object["type"] as? String == "entry", let rule = object["rule"] as? String else { return nil }
            let fingerprint = try #require(object["fingerprint"] as? String)
            #expect(fingerprint.count == 16 && fingerprint.allSatisfy(\.isHexDigit) && fingerprint == fingerprint.lowercased())
            let source = URL(fileURLWithPath: try #require(object["source"] as? String)).lastPathComponent
            return "\(source):\(object["line"] ?? 0) \(rule) \(fingerprint)"
        }
    }

    @Test func fingerprintsDoNotDependOnOrderThreadsOrPath() throws {
        let forward = try Self.findings(["--threads", "1"] + Self.samples)
        #expect(forward.count > 20)
        #expect(try Self.findings(["--threads", "2"] + Self.samples.reversed()).sorted() == forward.sorted())

        // The same files under another folder and name of folder.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-fp-\(UUID().uuidString)/deeper path")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        var copies: [String] = []
        for sample in Self.samples {
            let copy = folder.appendingPathComponent(URL(fileURLWithPath: sample).lastPathComponent)
            try FileManager.default.copyItem(at: BinaryRunner.packageRoot.appendingPathComponent(sample), to: copy)
            copies.append(copy.path)
        }
        #expect(try Self.findings(["--threads", "3"] + copies).sorted() == forward.sorted())
    }

    @Test func variablePartsDoNotChangeAFingerprint() throws {
        let template = "2024-06-18 07:42:04.880212+0200 Recipes[812:4410] CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///var/mobile/Containers/Data/Application/%@/Library/Recipes.sqlite options:(null) ... returned error Error Domain=NSCocoaErrorDomain Code=134110 \"An error occurred during persistent store migration.\" UserInfo={reason=Cannot migrate store in-place: %@}\n"
        let a = template.replacingOccurrences(of: "%@", with: "5B6C7D8E-9F0A-4B1C-8D2E-3F4A5B6C7D8E")
        let b = template.replacingOccurrences(of: "%@", with: "11111111-2222-4333-8444-555555555555")
        func fingerprints(_ text: String) throws -> [String] {
            let run = try BinaryRunner.cdlog(["classify", "--format", "jsonl"], stdin: Data(text.utf8))
            return run.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["fingerprint"] as? String
            }
        }
        let first = try fingerprints(a)
        #expect(first.count == 1)
        #expect(try fingerprints(b) == first)
        let other = try fingerprints(a.replacingOccurrences(of: "Cannot migrate store in-place", with: "Another reason entirely"))
        #expect(other.count == 1 && other != first)
        // A variable part of another length before the 400th byte (a longer store path) does not move the
        // cut: the line is masked first, then cut.
        let longPath = a.replacingOccurrences(of: "/Library/Recipes.sqlite", with: "/Library/Application Support/RecipesCloud/Recipes-Shared.sqlite")
        #expect(a.utf8.count > 400)
        #expect(try fingerprints(longPath) == first)
    }

    @Test func otlpLinesFollowTheProtoJSONMapping() throws {
        let run = try BinaryRunner.cdlog(["classify", "--format", "otlp", "--resource", "cdlog.ticket=T-7",
                                          "--resource", "service.version=4.2"] + Self.samples)
        #expect(run.status == 0, "\(run.stderr)")
        let jsonl = try Self.findings(Self.samples)
        var records = 0
        var fingerprints: [String] = []
        for line in run.stdout.split(separator: "\n") {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["resourceLogs"])
            for resourceLogs in try #require(object["resourceLogs"] as? [[String: Any]]) {
                let resource = try #require((resourceLogs["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])
                let attributes = Self.strings(resource)
                #expect(attributes["cdlog.ticket"] == "T-7")
                #expect(attributes["service.version"] == "4.2", "--resource replaces the version a crash report gives")
                #expect(resource.filter { $0["key"] as? String == "service.version" }.count == 1)
                for scopeLogs in try #require(resourceLogs["scopeLogs"] as? [[String: Any]]) {
                    #expect((scopeLogs["scope"] as? [String: Any])?["name"] as? String == "cdlog")
                    for record in try #require(scopeLogs["logRecords"] as? [[String: Any]]) {
                        records += 1
                        #expect(record["eventName"] as? String == "cdlog.finding")
                        let severity = try #require(record["severityText"] as? String)
                        let number = try #require(record["severityNumber"] as? Int)
                        #expect(["debug": 5, "info": 9, "warning": 13, "error": 17, "fatal": 21][severity] == number)
                        if let time = record["timeUnixNano"] {
                            // proto3's JSON mapping writes 64-bit integers as strings.
                            let text = try #require(time as? String)
                            #expect(!text.isEmpty && text.allSatisfy(\.isNumber))
                        }
                        #expect((record["body"] as? [String: Any])?["stringValue"] is String)
                        let recordAttributes = try #require(record["attributes"] as? [[String: Any]])
                        let values = Self.strings(recordAttributes)
                        for key in ["cdlog.rule", "cdlog.category", "cdlog.fingerprint", "cdlog.title", "cdlog.source"] {
                            #expect(values[key] != nil, "\(key) missing")
                        }
                        let line = recordAttributes.first { $0["key"] as? String == "cdlog.line" }
                        #expect(((line?["value"] as? [String: Any])?["intValue"] as? String)?.allSatisfy(\.isNumber) == true)
                        fingerprints.append("\(values["cdlog.rule"] ?? "") \(values["cdlog.fingerprint"] ?? "")")
                    }
                }
            }
        }
        #expect(records == jsonl.count, "one record per finding")
        #expect(fingerprints.sorted() == jsonl.map { $0.split(separator: " ").dropFirst().joined(separator: " ") }.sorted())
    }

    /// `[{"key": k, "value": {"stringValue": v}}]` → [k: v] (other value kinds left out).
    static func strings(_ attributes: [[String: Any]]) -> [String: String] {
        var out: [String: String] = [:]
        for attribute in attributes {
            if let key = attribute["key"] as? String, let value = (attribute["value"] as? [String: Any])?["stringValue"] as? String {
                out[key] = value
            }
        }
        return out
    }
}
