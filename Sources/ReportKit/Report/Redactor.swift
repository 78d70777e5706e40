import CDLogKit
import Foundation

/// Replaces personal data with placeholders, consistently: the same value always gets the same
/// placeholder (`<user-1>`, `<email-2>`, …), numbered in the order values are first seen, so a report
/// built in a fixed order is redacted the same way every time.
///
/// What is replaced (docs/report.md, "Redaction", lists it for users):
/// - e-mail addresses, also URL-encoded (`alice%40icloud.com`) and internationalised (`jörg@exämple.de`);
/// - user names in home folders: `/Users/NAME/`, `/home/NAME/`, names with spaces (`/Users/Alice Smith/`
///   and its `%20` form get one placeholder), `C:\Users\NAME`, `~NAME`;
/// - app sandbox container UUIDs (`…/Application/UUID/`, `…/AppGroup/UUID/`);
/// - iCloud container ids (`iCloud.com.example.App` → `iCloud.<container-1>`) and app-group ids;
/// - CloudKit record names (`recordName=…`, `NAME:(zone:owner)` keys of partial-error lists) and user
///   record ids (`_` + 32 hex, wherever they stand; `__defaultOwner__` is technical and kept);
/// - device identifiers (`identifierForVendor`, `deviceIdentifier`, `UDID`, `crashReporterKey`, … values,
///   40-hex UDIDs, `0000XXXX-…` ECIDs, MAC addresses) and device or host names (`Alices-iPhone`,
///   `Alice’s MacBook Pro`, `NAME.local`, `hostname=`/`deviceName=` values);
/// - IPv4 and IPv6 addresses (loopback and unspecified addresses are kept);
/// - phone numbers (international `+…`, `(555) 123-4567`, `555-123-4567`, `phoneNumber=` values).
/// Everything else — error domains, codes, rule ids, frames, figures, record types and field names — is
/// technical content and is kept.
///
/// Text that is cut for display must be redacted before it is cut (`ExcerptCutter`): a cut value
/// (`alice.smith@icloud.c…`) no longer matches.
public final class Redactor {
    private let regex: PCRERegex
    private let scratch = MatchScratch()
    private var maps: [String: [String: Int]] = [:]

    /// Placeholder family of each capture group, in group order.
    private static let groupFamilies = [
        "email", "user", "user", "user", "app-container", "container", "container", "record", "owner", "record", "owner",
        "device", "device", "device", "device", "device", "device", "ip", "ip", "phone", "phone", "phone",
    ]

    public init() {
        let uuid = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
        // A home-folder name: with spaces (or %20) only when a path separator follows, so that
        // "/Users/alice and more" takes "alice" alone.
        let home = #"(?!Shared\b)(?<NAME>[^/\\\s"'<>:%]+(?:(?:\x20|%20)[^/\\\s"'<>:%]+)*(?=[/\\])|[^/\\\s"'<>:]+)"#
        let octet = #"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"#
        let devices = #"(?:iPhone|iPad|iPod(?:-?touch)?|MacBook(?:[-\x20](?:Pro|Air))?|iMac(?:-Pro)?|Mac-?mini|Mac-(?:Pro|Studio)|Apple-?Watch|Vision-Pro)"#
        let alternatives = [
            #"(?<email>[\p{L}\p{N}._%+-]+(?:@|%40)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,})"#,
            #"(?:/Users/|/home/)"# + home.replacingOccurrences(of: "NAME", with: "user"),
            #"(?<![A-Za-z])[A-Za-z]:\\{1,2}Users\\{1,2}"# + home.replacingOccurrences(of: "NAME", with: "user2"),
            #"(?<![\w~/.\\])~(?<user3>[A-Za-z_][A-Za-z0-9_.-]{0,31})(?=[/\s"'<>,;)]|$)"#,
            #"(?:/Application/|/AppGroup/|/PluginKitPlugin/)(?<appcontainer>"# + uuid + ")",
            #"\biCloud\.(?<icloud>[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9])"#,
            #"\bgroup\.(?<group>[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)+)"#,
            #"recordName=(?!<)(?<record>[^,;>\s"]+)"#,
            #"ownerName=(?!__defaultOwner__)(?!<)(?<owner>[^,;>\s"]+)"#,
            #"(?<![\w-])(?<record2>[A-Za-z0-9_-]{6,})(?=:\([A-Za-z0-9_.-]+:[A-Za-z0-9_]+\))"#,
            #"(?<![A-Za-z0-9_])(?<owner2>_[0-9a-f]{32})(?![0-9A-Za-z_])"#,
            #"(?:identifierForVendor|vendorIdentifier|deviceIdentifier|advertisingIdentifier|UDID|crashReporterKey|crash_reporter_key|deviceID)"?\s*[=:]\s*"?(?<device>[0-9A-Za-z-]{8,})"#,
            #"\b(?<device2>[0-9a-f]{40}|0000[0-9A-F]{4}-[0-9A-F]{16})\b"#,
            #"(?<![\w-])(?<device3>\p{Lu}\p{L}*(?:['’]s\x20|['’]?s-|-)"# + devices + #"(?:-\d{1,2})?(?:\.local)?)(?![\w-])"#,
            #"(?<![\w.-])(?<device4>[A-Za-z0-9][A-Za-z0-9-]*\.local)(?![\w.-])"#,
            #"(?:hostname|HostName|computerName|ComputerName|deviceName|DeviceName|localHostName|LocalHostName)"?\s*[=:]\s*"?(?<device5>[^"\s,;<>]+)"#,
            #"(?<![\w:-])(?<mac>[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){5})(?![\w:-])"#,
            #"(?<![\w.])(?<ipv4>"# + octet + #"(?:\."# + octet + #"){3})(?!\w|\.\d)"#,
            #"(?<![\w:.])(?<ipv6>[0-9A-Fa-f]{0,4}:[0-9A-Fa-f]{0,4}:[0-9A-Fa-f:]{0,35})(?:%[A-Za-z0-9]+)?(?![\w:.])"#,
            #"(?:phoneNumber|phone|telephone)"?\s*[=:]\s*"?(?<phone>\+?[\d(][\d\x20().-]{5,18}\d)"#,
            #"(?<![\w+])(?<phone2>\+\d{1,3}(?:[\x20.-]?\(?\d{1,4}\)?){2,5})(?![\w])"#,
            #"(?<![\w-])(?<phone3>\(\d{3}\)\x20?\d{3}-\d{4}|\d{3}-\d{3}-\d{4})(?![\w-])"#,
        ]
        regex = try! PCRERegex(alternatives.joined(separator: "|"))
    }

    public func redact(_ text: String) -> String {
        regex.replacingMatches(in: text, scratch: scratch) { match, groups in
            for (index, family) in Self.groupFamilies.enumerated() where index < groups.count {
                guard let value = groups[index] else { continue }
                guard let key = Self.normalised(value, family: family) else { return nil }
                return match.replacingOccurrences(of: value, with: self.placeholder(family: family, key: key))
            }
            return nil
        }
    }

    /// The key a value is numbered by (spellings of one value share it), or nil when the candidate is
    /// not personal data after all (an invalid or technical address, too few digits for a phone).
    static func normalised(_ value: String, family: String) -> String? {
        switch family {
        case "email": return value.replacingOccurrences(of: "%40", with: "@").lowercased()
        case "user": return value.replacingOccurrences(of: "%20", with: " ")
        case "ip": return isPersonalAddress(value) ? value.lowercased() : nil
        case "phone":
            let digits = value.filter { $0.isASCII && $0.isNumber }
            return (8...15).contains(digits.count) || (value.first != "+" && digits.count == 10) ? digits : nil
        default: return value
        }
    }

    /// IPv4 or IPv6 text that names a host: loopback, unspecified and malformed candidates are not.
    static func isPersonalAddress(_ text: String) -> Bool {
        if text.contains(".") { return text != "127.0.0.1" && text != "0.0.0.0" && text != "255.255.255.255" }
        let compressed = text.components(separatedBy: "::")
        guard compressed.count <= 2 else { return false }
        let groups = text.split(separator: ":", omittingEmptySubsequences: true)
        guard groups.allSatisfy({ $0.count <= 4 && $0.allSatisfy(\.isHexDigit) }) else { return false }
        if compressed.count == 1 {
            guard groups.count == 8, !text.hasPrefix(":"), !text.hasSuffix(":") else { return false }
        } else {
            guard groups.count <= 7, !groups.isEmpty else { return false }
            if compressed[0].hasSuffix(":") || compressed[1].hasPrefix(":") { return false }
        }
        let loopback = groups.count == 1 && (groups[0] == "1" || groups[0] == "0")
        return !loopback
    }

    private func placeholder(family: String, key: String) -> String {
        var map = maps[family, default: [:]]
        let number: Int
        if let existing = map[key] { number = existing } else {
            number = map.count + 1
            map[key] = number
            maps[family] = map
        }
        return "<\(family)-\(number)>"
    }

    /// How many distinct values of each kind were replaced (for the report's note).
    public var counts: [(kind: String, values: Int)] {
        maps.keys.sorted().map { ($0, maps[$0]!.count) }
    }
}
