@_spi(Testing) import CDLogKit
import Foundation
@testable import ReportKit
import Testing

/// Every kind of personal data `--redact` promises to replace (docs/report.md, "Redaction"), on every
/// output format, including values that straddle the points where excerpts are cut.
@Suite struct RedactionCoverageTests {
    static let header = "2024-01-01 10:00:0%d.000000+0000 App[1:2] "

    /// A message whose `secret` starts `before` characters before the `at`-th character of the
    /// message, so that a cut at `at` falls inside it.
    static func straddling(_ secret: String, at: Int, prefix: String) -> String {
        let fill = at - prefix.count - 5
        return prefix + String(repeating: "ab ", count: fill / 3) + String(repeating: "c", count: fill % 3) + " " + secret + " end of line"
    }

    static let lines: [String] = [
        // Cut points: citation excerpts at 300 characters, the appendix example at 2 000.
        straddling("alice.smith@icloud.com", at: 300, prefix: "CoreData: error: Store failed to load "),
        straddling("bob.jones@example.org", at: 300, prefix: "CloudKit sync note: "),
        straddling("carol.white@example.net", at: 2000, prefix: "CloudKit sync remark: "),
        #"CoreData: error: CoreData+CloudKit: failed for owner "_0123456789abcdef0123456789abcdef" and _fedcba9876543210fedcba9876543210 mail dave%40example.com jörg@exämple.de"#,
        #"CoreData: error: Store failed to load at /Users/Erin Stone/Library/x.sqlite and file:///Users/Erin%20Stone/Library/y.sqlite, C:\Users\frank\AppData, ~grace/Library"#,
        "CoreData: error: CoreData+CloudKit: request failed from 192.168.1.23 via 2001:db8:85a3::8a2e:370:7334 and fe80::1c2b:3d4e:5f60:7182%en0, mac a4:83:e7:12:34:56",
        "CoreData: error: CoreData+CloudKit: share participant +1 (415) 555-2671, phoneNumber=4155550123, on Heidis-iPhone and Ivan’s MacBook Pro at Judys-MacBook-Pro.local",
        "CoreData: error: CoreData+CloudKit: kept: loopback 127.0.0.1 and ::1, model iPhone15,2, iOS 17.0.1, CKError 0x2827e2f10 (12/2006), at 10:00:01, NSCocoaErrorDomain 134110",
    ]

    static let secrets = [
        "alice", "bob.jones", "carol.white", "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210",
        "dave", "jörg", "exämple", "Erin", "Stone", "frank", "grace", "192.168.1.23", "2001:db8", "fe80::1c2b",
        "a4:83:e7", "555-2671", "4155550123", "Heidi", "Ivan", "Judy",
    ]

    static var log: String {
        lines.enumerated().map { String(format: header, $0.offset) + $0.element }.joined(separator: "\n") + "\n"
    }

    @Test(arguments: ReportOutputFormat.allCases)
    func everyKindIsReplacedInEveryFormat(_ format: ReportOutputFormat) throws {
        let out = format.render(try ReportTestSupport.build([("/Users/kim/Desktop/sync.log", Self.log)], redact: true))
        for secret in Self.secrets + ["kim"] {
            #expect(!out.contains(secret), "\(format): \(secret) left in the output")
        }
        // Markdown names timeline events by title; JSON and HTML quote every excerpt.
        for kept in ["127.0.0.1", "::1", "iPhone15,2", "17.0.1", "0x2827e2f10", "12/2006", "134110"] where format != .markdown {
            #expect(out.contains(kept), "\(format): technical \(kept) was removed")
        }
    }

    @Test func theCutIsReallyInsideTheValues() {
        // Guards the test above: without redaction the excerpts show the cut-off parts.
        let plain = ExcerptCutter.plain
        let first = plain.firstLine(Self.lines[0], limit: 300)
        #expect(first.hasSuffix("…") && first.contains("alic") && !first.contains("alice.smith@icloud.com"))
        let example = plain.cut(Self.lines[2], limit: 2000)
        #expect(example.contains("caro") && !example.contains("carol.white@example.net"))
    }

    @Test func spellingsOfOneValueShareAPlaceholder() {
        let r = Redactor()
        #expect(r.redact("/Users/Erin Stone/a and /Users/Erin%20Stone/b") == "/Users/<user-1>/a and /Users/<user-1>/b")
        #expect(r.redact("dave%40example.com or Dave@Example.com") == "<email-1> or <email-1>")
        #expect(r.redact("/Users/erin and more") == "/Users/<user-2> and more")
    }

    @Test func technicalLookalikesAreKept() {
        let r = Redactor()
        for text in ["10:00:01.000000+0000", "2024-01-01 10:00:01", "std::string and Foo::bar", "0x1a2b 0x0 641",
                     "version 1.2.3", "iPhone15,2 iPad13,4", "the iPhone and the MacBook Pro", "__defaultOwner__",
                     "com.apple.coredata.local", "CKError 0x2827e2f10 (12/2006)", "134217728 bytes", "~/Library", "+0800 0x2e5f8"] {
            #expect(r.redact(text) == text, "\(text)")
        }
        #expect(r.counts.isEmpty)
    }

    @Test func aDeviceNameInACrashReportIsReplaced() throws {
        // An .ips whose termination explanation names the device, the name straddling the 300-character
        // cut of the reason summary.
        var ips = try ReportTestSupport.file("Samples/crash/notingpro-launch-watchdog.ips")
        let filler = String(repeating: "ab ", count: 95)
        ips = ips.replacingOccurrences(of: "explanation:scene-create watchdog transgression:",
                                       with: "explanation:scene-create watchdog transgression on \(filler)Lauras-iPhone (owner laura@example.com):")
        for format in ReportOutputFormat.allCases {
            let out = format.render(try ReportTestSupport.build([("crash.ips", ips)], redact: true))
            #expect(!out.contains("Laura") && !out.contains("laura"), "\(format)")
            #expect(out.contains("0x8BADF00D") || out.contains("8badf00d"), "\(format): the crash itself is still reported")
        }
    }
}
