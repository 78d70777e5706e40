import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Testing

/// Text that reached the user through a page or a string (`Classifier.plainText`): quotes a forum or blog
/// engine curled, `…` for `...`, no-break spaces, and a message printed inside a string with its breaks as
/// `\n`. The catalog's verdict on it is the verdict on the text the program printed.
@Suite struct PlainTextReadingTests {
    static func plain(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { Classifier.plainText(UnsafeRawBufferPointer($0)) }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func typographyAndEscapesAreUndone() {
        #expect(Self.plain("Can\u{2019}t find model for source store") == "Can't find model for source store")
        #expect(Self.plain("\u{201C}Quota Exceeded\u{201D} (25/2035)\u{2026}") == "\"Quota Exceeded\" (25/2035)...")
        #expect(Self.plain("\u{2018}a\u{2019} \u{201E}b\u{201F} 5\u{2033}") == "'a' \"b\" 5\"")
        #expect(Self.plain("a\u{00A0}b") == "a b")
        #expect(Self.plain(#"Error:\nUnable to find any managed object models.\n{\n\t\"k\" = \\v;\n}"#)
                == "Error:\nUnable to find any managed object models.\n{\n\t\"k\" = \\v;\n}")
        // Nothing to undo: no copy. Other escapes, other `E2` and `C2` characters and a lone lead byte stay.
        #expect(Self.plain("CoreData: error: plain ASCII") == nil)
        #expect(Self.plain(#"C:\Users\x \u30b9"#) == nil)
        #expect(Self.plain("\u{2014} \u{00E9} \u{20AC}") == nil)
        #expect(Self.plain("trailing \\") == nil)
        var truncated: [UInt8] = Array("a ".utf8) + [0xE2, 0x80]
        #expect(truncated.withUnsafeMutableBytes { Classifier.plainText(UnsafeRawBufferPointer($0)) } == nil)
    }

    /// The same verdict on the text as printed and as a page set it, for rules whose phrases hold quotes
    /// (and a code row the phrase rule outranks only when its quotes are straight).
    @Test(arguments: [
        "Can't merge models with two different entities named 'uascheduletriggerdata'",
        #"<CKError 0x600000c1a0a0: "Quota Exceeded" (25/2035); server message = "Quota exceeded"; op = 6A2B1C3D4E5F6071>"#,
        #"Error Domain=NSCocoaErrorDomain Code=134140 "Persistent store migration failed, missing mapping model." UserInfo={sourceModel=(<NSManagedObjectModel: 0x6000031b0e60>)}"#,
    ])
    func curledTextGetsThePrintedTextsVerdict(_ text: String) throws {
        let scratch = TestSupport.classifier.makeScratch()
        let printed = try #require(TestSupport.classifier.classify(text: text, scratch: scratch))
        let curled = try #require(TestSupport.classifier.classify(text: RuleTester.curled(text), scratch: scratch))
        #expect(curled.rule.id == printed.rule.id)
        #expect(curled.severity == printed.severity)
    }

    /// A message printed inside a string, its breaks as `\n`: read with them taken back.
    @Test func escapedBreaksAreReadAsBreaks() throws {
        let text = #"-[RSTPersistentContainer loadPersistentStoresWithCompletionHandler:]_block_invoke [Line 88] Error:\nUnable to find any managed object models.\n(null)\n{\n}"#
        let scratch = TestSupport.classifier.makeScratch()
        let escaped = try #require(TestSupport.classifier.classify(text: text, scratch: scratch))
        let printed = try #require(TestSupport.classifier.classify(text: text.replacingOccurrences(of: #"\n"#, with: "\n"), scratch: scratch))
        #expect(escaped.rule.id == printed.rule.id)
        #expect(escaped.category == .model)
    }

    /// A one-line entry of a log with a header parser is skipped unbuilt when its literals admit no rule:
    /// a quote ends a literal (`RequiredLiterals`), so a curled one still reaches the plain reading.
    @Test func aCurledLineOfAHeaderedLogIsNotSkipped() throws {
        let prefix = "2024-01-10 11:14:38.831786-0800 MyApp[1234:56789] "
        let log = prefix + "hello\n" + prefix + "Can\u{2019}t merge models with two different entities named \u{2018}Item\u{2019}\n"
            + prefix + "bye\n"
        let (reporter, _) = try TestSupport.classifyRun(Array(log.utf8), threads: 1, all: false)
        #expect(reporter.entries.map(\.entry.line) == [2])
        #expect(reporter.entries.first?.classification?.category == .model)
    }
}
