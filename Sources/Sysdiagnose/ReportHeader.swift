import CDLogCore
import Foundation

/// The first line of an `.ips` report (its JSON header), or the `Process:` / `Identifier:` lines of a
/// text `.crash`: enough to tell whose report it is and what kind.
struct ReportHeader {
    var bugType: String?
    var app: String?
    var bundleID: String?
    var time: String?
    var kind: SysdiagnoseFacts.Report.Kind

    init?(_ bytes: [UInt8]) {
        let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let first = bytes[..<end]
        if first.first == UInt8(ascii: "{"),
           let object = (try? JSONSerialization.jsonObject(with: Data(first))) as? [String: Any] {
            bugType = (object["bug_type"] as? String) ?? (object["bug_type"] as? NSNumber)?.stringValue
            app = (object["app_name"] as? String) ?? (object["name"] as? String) ?? (object["procName"] as? String)
            bundleID = object["bundleID"] as? String
            time = object["timestamp"] as? String
            switch bugType {
            case "309", "109": kind = .crash
            case "298": kind = .jetsam
            case "206", "202", "145", "142": kind = .resource
            case "288", "509": kind = .stackshot
            default: kind = .other
            }
            return
        }
        // A text crash report: "Process:  MyApp [123]", "Identifier:  com.example.app", "Date/Time:  …".
        let head = String(decoding: bytes.prefix(16 << 10), as: UTF8.self)
        var found = false
        for line in head.textLines(omittingEmpty: true).prefix(80) {
            func value(_ key: String) -> String? {
                guard line.hasPrefix(key) else { return nil }
                return line.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
            }
            if let process = value("Process:") { app = process.split(separator: " ").first.map(String.init); found = true }
            if let identifier = value("Identifier:") { bundleID = identifier }
            if let date = value("Date/Time:") { time = date }
        }
        guard found else { return nil }
        kind = .crash
    }

    /// Whether the report is the app's: its header names the app (process name or bundle id); a jetsam
    /// event or a stackshot, which list every process, when it names the app's process.
    func belongs(to wanted: [String], bytes: [UInt8]) -> Bool {
        if let app, wanted.contains(app.lowercased()) { return true }
        if let bundleID, wanted.contains(bundleID.lowercased()) { return true }
        guard kind == .jetsam || kind == .stackshot else { return false }
        // "name" : "NotingPro", "procname" : "NotingPro", "largestProcess" : "NotingPro"
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        return wanted.contains { text.contains("\"\($0)\"") }
    }

    /// `modelCode` (a crash report's body) or `product` (a jetsam event's).
    func model(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes.prefix(64 << 10), as: UTF8.self)
        for key in ["\"modelCode\"", "\"product\""] {
            guard let range = text.range(of: key) else { continue }
            let rest = text[range.upperBound...].drop { $0 == " " || $0 == ":" }
            guard rest.first == "\"" else { continue }
            let value = rest.dropFirst().prefix { $0 != "\"" }
            if !value.isEmpty, value.count < 40 { return String(value) }
        }
        return nil
    }
}
