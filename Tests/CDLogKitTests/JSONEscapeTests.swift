import CDLogCore
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports
import Testing

/// The one JSON escape decoder both JSON readers use (issue 25: they each had their own).
@Suite struct JSONEscapeTests {
    static func decode(_ text: String) -> JSONEscape.Decoded {
        let bytes = Array(text.utf8)
        return JSONEscape.decode(bytes, at: 0, end: bytes.count)
    }

    @Test func escapes() {
        #expect(Self.decode(#"\n"#) == .byte(0x0A, next: 2))
        #expect(Self.decode(#"\""#) == .byte(0x22, next: 2))
        #expect(Self.decode(#"\q"#) == .byte(UInt8(ascii: "q"), next: 2))
        #expect(Self.decode(#"\u00e9x"#) == .scalar("é", next: 6))
        #expect(Self.decode(#"\uD83D\uDE00"#) == .scalar("😀", next: 12))
        #expect(Self.decode(#"\uD83Dx"#) == .scalar("\u{FFFD}", next: 6))
        #expect(Self.decode(#"\uDE00"#) == .scalar("\u{FFFD}", next: 6))
        #expect(Self.decode(#"\uZZZZ"#) == .invalid(next: 2))
        #expect(Self.decode(#"\u00"#) == .truncated)
        #expect(Self.decode(#"\"#) == .truncated)
    }

    @Test func bothReadersAgree() throws {
        // The ndjson reader replaces what the crash parser rejects; on good escapes they give the same text.
        let body = #"a\tb \u00e9 \uD83D\uDE00 \"q\" \/"#
        let parsed = try CrashJSONParser.parse(Array(("\"" + body + "\"").utf8))
        #expect(parsed.value.string == "a\tb é 😀 \"q\" /")
        let store = ByteStore()
        let bytes = Array(body.utf8)
        bytes.withUnsafeBufferPointer { FlatJSONObject.unescape($0, 0..<bytes.count, into: store) }
        #expect(String(decoding: store.bytes, as: UTF8.self) == parsed.value.string)
    }
}

/// Issue 25: `cdlog rules test` names the patterns no example of their rule shows working.
@Suite struct UnshownPatternTests {
    @Test func aPatternWithoutAnExampleIsNamed() throws {
        let yaml = """
        rules:
          - id: test.two-patterns
            title: t
            category: store
            severity: error
            patterns:
              - 'disk I/O failed'
              - 'database image is malformed'
            advice: a
            examples:
              match:
                - 'CoreData: error: disk I/O failed for store'
                - 'disk I/O failed again'
        """
        let set = try RuleSet(files: [("t.yaml", yaml)])
        let unshown = RuleTester(classifier: try Classifier(ruleSet: set)).patternsWithoutExample()
        #expect(unshown.count == 1)
        #expect(unshown.first?.message.contains("pattern 2 (`database image is malformed`)") == true)
    }
}
