import CDLogCore
import Foundation

/// Counts findings over many tickets by fingerprint × app version × OS (`cdlog aggregate`, docs/fleet.md).
///
/// Inputs are files, each one of: cdlog's OTLP output (`--format otlp`), cdlog's JSON Lines output
/// (`--format jsonl`), or a raw input (a log or crash report), which is classified with `classifier`. A
/// group's app version is the resource's `service.version`, its OS `os.name` and `os.version` joined
/// (either alone when only one is known; nil when neither is); a group counts its findings, its tickets
/// (distinct `cdlog.ticket` resource values, or the finding's source when it has none), its users (distinct
/// `enduser.id` values) and the first and last time a finding with a time was seen.
///
/// Memory: one group per distinct (fingerprint, app version, OS), holding its distinct tickets and users;
/// files are read line by line (an OTLP or JSON Lines line at most `maxLineBytes`), raw inputs streamed.
/// Not thread-safe.
public final class Aggregator {
    public struct Key: Hashable, Sendable {
        public var fingerprint: String
        public var appVersion: String?
        public var os: String?
    }

    public struct Group: Sendable {
        public var key: Key
        public var rule: String
        public var category: String
        public var severity: String
        public var title: String
        public var findings = 0
        public var tickets: Set<String> = []
        public var users: Set<String> = []
        /// Nanoseconds since 1970.
        public var firstSeen: Int64?
        public var lastSeen: Int64?
    }

    /// A line of OTLP or JSON Lines longer than this is refused (`ToolFailure`).
    public static let maxLineBytes = 64 << 20

    public private(set) var inputs = 0
    public private(set) var findings = 0
    private var groups: [Key: Group] = [:]
    private let classifier: Classifier
    private let masker = TemplateMasker()

    public init(classifier: Classifier) {
        self.classifier = classifier
    }

    /// The groups, most findings first, then by fingerprint, app version and OS (an unknown one first).
    public var sortedGroups: [Group] {
        /// nil when equal; an unknown value sorts first.
        func before(_ a: String?, _ b: String?) -> Bool? {
            if a == b { return nil }
            guard let a else { return true }
            guard let b else { return false }
            return a < b
        }
        return groups.values.sorted { a, b in
            if a.findings != b.findings { return a.findings > b.findings }
            return before(a.key.fingerprint, b.key.fingerprint) ?? before(a.key.appVersion, b.key.appVersion)
                ?? before(a.key.os, b.key.os) ?? false
        }
    }

    /// One finding.
    public func add(fingerprint: String, rule: String, category: String, severity: String, title: String,
                    resource: [String: String], source: String, time: Int64?) {
        findings += 1
        let version = resource["service.version"].flatMap { $0.isEmpty ? nil : $0 }
        let osParts = [resource["os.name"], resource["os.version"]].compactMap { $0.flatMap { $0.isEmpty ? nil : $0 } }
        let key = Key(fingerprint: fingerprint, appVersion: version, os: osParts.isEmpty ? nil : osParts.joined(separator: " "))
        var group = groups[key] ?? Group(key: key, rule: rule, category: category, severity: severity, title: title)
        group.findings += 1
        group.tickets.insert(resource["cdlog.ticket"].flatMap { $0.isEmpty ? nil : $0 } ?? source)
        if let user = resource["enduser.id"], !user.isEmpty { group.users.insert(user) }
        if let time, time != 0 {
            group.firstSeen = min(group.firstSeen ?? time, time)
            group.lastSeen = max(group.lastSeen ?? time, time)
        }
        groups[key] = group
    }

    /// Reads one file of any of the three kinds.
    public func add(file path: String) throws {
        inputs += 1
        let head = try LineReader(source: try FileByteSource(path: path)).peek(1 << 16)
        let first = head.drop(while: { ByteClass.isWhitespace($0) }).prefix(32)
        let text = String(decoding: first, as: UTF8.self)
        if text.hasPrefix("{\"resourceLogs\"") {
            try eachLine(path) { try self.addOTLP(line: $0, path: path) }
        } else if text.hasPrefix("{\"type\":\"entry\"") || text.hasPrefix("{\"type\":\"summary\"") {
            try eachLine(path) { try self.addJSONLines(line: $0, path: path) }
        } else {
            let writer = AggregatingWriter(aggregator: self)
            var options = ClassifyRun.Options()
            options.threads = 1
            _ = try ClassifyRun(classifier: classifier, options: options).run(sources: [try FileByteSource(path: path)], reporter: writer)
        }
    }

    func add(_ reported: ClassifiedEntry) {
        guard let classification = reported.classification else { return }
        let entry = reported.entry
        var resource: [String: String] = [:]
        for (key, value) in OTLPResource.attributes(of: entry, extra: []) { resource[key] = value }
        add(fingerprint: Fingerprint.text(Fingerprint.of(entry, ruleID: classification.rule.id, masker: masker)),
            rule: classification.rule.id, category: classification.category.id, severity: classification.severity.name,
            title: classification.rule.title, resource: resource, source: entry.source,
            time: entry.timestamp.flatMap(ISOTime.nanoseconds))
    }

    // MARK: - cdlog's outputs

    private func eachLine(_ path: String, _ body: (Data) throws -> Void) throws {
        let reader = LineReader(source: try FileByteSource(path: path), maxLineBytes: Self.maxLineBytes)
        var number = 0
        while try reader.nextLine({ bytes, truncated in
            number += 1
            if truncated { throw ToolFailure("\(path):\(number): line longer than \(Self.maxLineBytes >> 20) MiB") }
            guard bytes.contains(where: { !ByteClass.isWhitespace($0) }) else { return }
            do {
                try body(Data(bytes))
            } catch let failure as ToolFailure {
                throw failure
            } catch {
                throw ToolFailure("\(path):\(number): not a JSON object")
            }
        }) {}
    }

    private func addOTLP(line: Data, path: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
              let resourceLogs = object["resourceLogs"] as? [[String: Any]] else {
            throw ToolFailure("\(path): a line that is not OTLP/JSON LogsData among OTLP lines")
        }
        for resourceLog in resourceLogs {
            let resource = Self.stringAttributes((resourceLog["resource"] as? [String: Any])?["attributes"])
            for scopeLog in resourceLog["scopeLogs"] as? [[String: Any]] ?? [] {
                for record in scopeLog["logRecords"] as? [[String: Any]] ?? [] {
                    guard record["eventName"] as? String == "cdlog.finding" else { continue }
                    let attributes = Self.stringAttributes(record["attributes"])
                    guard let fingerprint = attributes["cdlog.fingerprint"] else { continue }
                    add(fingerprint: fingerprint, rule: attributes["cdlog.rule"] ?? "", category: attributes["cdlog.category"] ?? "",
                        severity: record["severityText"] as? String ?? "", title: attributes["cdlog.title"] ?? "",
                        resource: resource, source: attributes["cdlog.source"] ?? path,
                        time: (record["timeUnixNano"] as? String).flatMap { Int64($0) })
                }
            }
        }
    }

    private func addJSONLines(line: Data, path: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            throw ToolFailure("\(path): a line that is not a JSON object among cdlog JSON Lines")
        }
        guard object["type"] as? String == "entry", let rule = object["rule"] as? String,
              let fingerprint = object["fingerprint"] as? String else { return }
        let fields = object["fields"] as? [String: Any] ?? [:]
        var resource: [String: String] = [:]
        if let version = fields["appVersion"] as? String { resource["service.version"] = version }
        if let os = fields["osVersion"] as? String {
            let (name, version) = OTLPResource.splitOS(os)
            resource["os.name"] = name
            resource["os.version"] = version
        }
        add(fingerprint: fingerprint, rule: rule, category: object["category"] as? String ?? "",
            severity: object["severity"] as? String ?? "", title: object["title"] as? String ?? "",
            resource: resource, source: object["source"] as? String ?? path,
            time: (object["timestamp"] as? String).flatMap(ISOTime.nanoseconds))
    }

    /// OTLP `[{"key": k, "value": {"stringValue": v}}]` → [k: v]; other value kinds as their JSON text.
    static func stringAttributes(_ list: Any?) -> [String: String] {
        var out: [String: String] = [:]
        for attribute in list as? [[String: Any]] ?? [] {
            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any] else { continue }
            if let text = value["stringValue"] as? String { out[key] = text } else if let number = value["intValue"] { out[key] = "\(number)" }
        }
        return out
    }
}
