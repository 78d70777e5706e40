import CDLogKit

/// Replaces personal data with placeholders, consistently: the same value always gets the same
/// placeholder (`<user-1>`, `<email-2>`, …), numbered in the order values are first seen, so a report
/// built in a fixed order is redacted the same way every time.
///
/// What is replaced: e-mail addresses; user names in home-directory paths (`/Users/NAME/`,
/// `/home/NAME/`); app sandbox container UUIDs (`…/Application/UUID/`, `…/AppGroup/UUID/`); iCloud
/// container ids (`iCloud.com.example.App` → `iCloud.<container-1>`) and app-group ids; CloudKit
/// record names (`recordName=…`, `NAME:(zone:owner)` keys of partial-error lists) and zone owners
/// (`ownerName=…`, `_` + 32 hex user record ids; `__defaultOwner__` is technical and kept); device and
/// vendor identifiers (`identifierForVendor`, `deviceIdentifier`, `UDID`, `crashReporterKey`, … values,
/// 40-hex UDIDs, `0000XXXX-…` ECIDs). Everything else — error domains, codes, rule ids, frames,
/// figures, record types and field names — is technical content and is kept.
public final class Redactor {
    private let regex: PCRERegex
    private let scratch = MatchScratch()
    private var maps: [String: [String: Int]] = [:]
    static let kinds = ["email", "user", "appcontainer", "icloud", "group", "record", "owner", "device"]

    public init() {
        let uuid = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
        regex = try! PCRERegex(
            #"(?<email>[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"#
            + #"|(?:/Users/|/home/)(?!Shared/|Shared\b)(?<user>[^/\s"'<>:]+)"#
            + #"|(?:/Application/|/AppGroup/|/PluginKitPlugin/)(?<appcontainer>"# + uuid + ")"
            + #"|\biCloud\.(?<icloud>[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9])"#
            + #"|\bgroup\.(?<group>[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)+)"#
            + #"|recordName=(?!<)(?<record>[^,;>\s"]+)"#
            + #"|ownerName=(?!__defaultOwner__)(?!<)(?<owner>[^,;>\s"]+)"#
            + #"|(?<![\w-])(?<record2>[A-Za-z0-9_-]{6,})(?=:\([A-Za-z0-9_.-]+:[A-Za-z0-9_]+\))"#
            + #"|(?<=[:=])(?<owner2>_[0-9a-f]{32})\b"#
            + #"|(?:identifierForVendor|vendorIdentifier|deviceIdentifier|advertisingIdentifier|UDID|crashReporterKey|crash_reporter_key|deviceID)"?\s*[=:]\s*"?(?<device>[0-9A-Za-z-]{8,})"#
            + #"|\b(?<device2>[0-9a-f]{40}|0000[0-9A-F]{4}-[0-9A-F]{16})\b"#)
    }

    /// Kinds in group order (record2/owner2/device2 share their kind's numbering).
    private static let groupKinds = ["email", "user", "appcontainer", "icloud", "group", "record", "owner", "record", "owner", "device", "device"]
    private static let placeholderName = ["email": "email", "user": "user", "appcontainer": "app-container", "icloud": "container",
                                          "group": "container", "record": "record", "owner": "owner", "device": "device"]

    public func redact(_ text: String) -> String {
        regex.replacingMatches(in: text, scratch: scratch) { match, groups in
            for (index, kind) in Self.groupKinds.enumerated() where index < groups.count {
                guard let value = groups[index] else { continue }
                let placeholder = self.placeholder(kind: kind, value: value)
                return match.replacingOccurrences(of: value, with: placeholder)
            }
            return nil
        }
    }

    private func placeholder(kind: String, value: String) -> String {
        let family = Self.placeholderName[kind] ?? kind
        var map = maps[family, default: [:]]
        let number: Int
        if let existing = map[value] { number = existing } else {
            number = map.count + 1
            map[value] = number
            maps[family] = map
        }
        return "<\(family)-\(number)>"
    }

    /// How many distinct values of each kind were replaced (for the report's note).
    public var counts: [(kind: String, values: Int)] {
        maps.keys.sorted().map { ($0, maps[$0]!.count) }
    }
}

import Foundation
