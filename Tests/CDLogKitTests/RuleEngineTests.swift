import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Testing

@Suite struct RuleEngineTests {
    @Test func requiredLiteralsAreConservative() {
        #expect(RequiredLiterals.of(pattern: #"Code=134110\b"#)?.alternatives == [Array("Code=134110".utf8)])
        #expect(RequiredLiterals.of(pattern: #"foo|barbaz"#)?.alternatives == [Array("barbaz".utf8), Array("foo".utf8)])
        #expect(RequiredLiterals.of(pattern: #"ab?cde"#)?.alternatives == [Array("cde".utf8)])
        #expect(RequiredLiterals.of(pattern: #"(?i)Quota Exceeded"#) == RequiredLiterals(alternatives: [Array("quota exceeded".utf8)], caseless: true))
        #expect(RequiredLiterals.of(pattern: #"x(?i)abcdef"#) == RequiredLiterals(alternatives: [Array("abcdef".utf8)], caseless: true))
        #expect(RequiredLiterals.of(pattern: #"(?:NSCocoaErrorDomain Code=|Cocoa error )(?:1341[0-9]0|134111)\b"#)?.alternatives
                == [Array("Cocoa error ".utf8), Array("NSCocoaErrorDomain Code=".utf8)])
        #expect(RequiredLiterals.of(pattern: #"(?=abcdef)x"#) == nil)
        #expect(RequiredLiterals.of(pattern: #"foo(?!barbaz)"#)?.alternatives == [Array("foo".utf8)])
        #expect(RequiredLiterals.of(pattern: #"(?:abcdef)?xy"#) == nil)
        #expect(RequiredLiterals.of(pattern: #"(?x) a b c d"#) == nil)
        #expect(RequiredLiterals.of(pattern: #"(abc)\1"#) == nil)
        #expect(RequiredLiterals.of(pattern: #"ab(?<name>cdefg)+h"#)?.alternatives == [Array("cdefg".utf8)])
        #expect(RequiredLiterals.of(pattern: #"\d+"#) == nil)
        #expect(RequiredLiterals.of(pattern: #"ab|\d"#) == nil)
        // A quote ends a literal: the text may carry it curled (`Classifier.plainText`).
        #expect(RequiredLiterals.of(pattern: #"Finished request '<NSCloudKit(?<r>\w+)Request"#)?.alternatives == [Array("Finished request ".utf8)])
        #expect(RequiredLiterals.of(pattern: #"Can't merge models"#)?.alternatives == [Array("t merge models".utf8)])
        #expect(RequiredLiterals.of(pattern: #"file \"abc\" couldn"#)?.alternatives == [Array(" couldn".utf8)])
        #expect(RequiredLiterals.of(pattern: #"a{0,2}bcd\.e"#)?.alternatives == [Array("bcd.e".utf8)])
    }

    /// Conservativeness on the real catalog: every match example contains one of its rule's required
    /// literals for the pattern that matches it.
    @Test func requiredLiteralsOfTheCatalogAreInEveryMatchingExample() throws {
        let scratch = MatchScratch()
        for rule in TestSupport.classifier.ruleSet.rules {
            for example in rule.matchExamples {
                var bytes = Array(example.text.utf8)
                for pattern in rule.patterns {
                    let matched = bytes.withUnsafeMutableBytes { pattern.matches(UnsafeRawBufferPointer($0), scratch: scratch) }
                    guard matched, let required = RequiredLiterals.of(pattern: pattern.pattern) else { continue }
                    let haystack = required.caseless ? bytes.map(RequiredLiterals.asciiLowercased) : bytes
                    let found = required.alternatives.contains { literal in
                        haystack.count >= literal.count && (0...(haystack.count - literal.count)).contains { haystack[$0..<($0 + literal.count)].elementsEqual(literal) }
                    }
                    #expect(found, "\(example.location): pattern \(pattern.pattern) matched but none of its literals is present")
                }
                _ = bytes.count
                bytes.removeAll()
            }
        }
    }

    static func load(_ yaml: String) throws -> RuleSet { try RuleSet(files: [("Rules/x.yaml", yaml)]) }

    @Test func badPatternPointsAtTheOffsetWithACaret() throws {
        let yaml = """
        rules:
          - id: x.bad
            title: Bad
            category: store
            severity: error
            patterns:
              - 'Code=(1341'
        """
        do {
            _ = try Self.load(yaml)
            Issue.record("expected an error")
        } catch let error as RuleFileError {
            #expect(error.headline.hasPrefix("Rules/x.yaml:7:"))
            #expect(error.headline.contains("pattern does not compile"))
            #expect(error.description.contains("^"))
            #expect(error.column == 9 + 1 + 10)
        }
    }

    /// A rule file saved with CRLF line endings still shows its offending line (without the `\r`).
    @Test func crlfRuleFileShowsTheLineUnderTheError() throws {
        let yaml = "rules:\r\n  - id: x.bad\r\n    title: Bad\r\n    category: store\r\n    severity: error\r\n    patterns:\r\n      - 'Code=(1341'\r\n"
        do {
            _ = try Self.load(yaml)
            Issue.record("expected an error")
        } catch let error as RuleFileError {
            #expect(error.sourceLine == "      - 'Code=(1341'")
            #expect(error.description.contains("^"))
        }
    }

    @Test func schemaMistakesAreReportedWithLocation() {
        let cases: [(String, String)] = [
            ("rules:\n  - id: x.y\n    title: T\n    category: nope\n    severity: error\n    patterns: ['a']\n", "unknown category"),
            ("rules:\n  - id: x.y\n    title: T\n    category: store\n    severity: loud\n    patterns: ['a']\n", "severity"),
            ("rules:\n  - id: X Y\n    title: T\n    category: store\n    severity: error\n    patterns: ['a']\n", "dotted"),
            ("rules:\n  - id: x.y\n    title: T\n    category: store\n    severity: error\n    patterns: ['a']\n    colour: red\n", "unknown key"),
            ("rules:\n  - id: x.y\n    title: T\n    category: store\n    severity: error\n", "at least one pattern"),
            ("rules: [\n", "invalid YAML"),
            ("rules:\n  - id: x.y\n    title: T\n    category: store\n    severity: error\n    patterns: ['a']\n  - id: x.y\n    title: T\n    category: store\n    severity: error\n    patterns: ['a']\n", "duplicate rule id"),
        ]
        for (yaml, expected) in cases {
            do {
                _ = try Self.load(yaml)
                Issue.record("no error for: \(expected)")
            } catch let error as RuleFileError {
                #expect(error.headline.contains(expected), "\(error.headline)")
                #expect(error.headline.hasPrefix("Rules/x.yaml:"))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func winnerIsHighestPriorityThenSeverityThenOrder() throws {
        let yaml = """
        rules:
          - id: a.generic
            title: Generic
            category: cloudkit
            severity: error
            patterns: ['Partial Failure']
          - id: a.specific
            title: Specific
            category: account
            severity: error
            priority: 5
            patterns: ['Quota Exceeded']
          - id: a.info
            title: Info
            category: sync
            severity: info
            patterns: ['Partial']
        """
        let classifier = try Classifier(ruleSet: try Self.load(yaml))
        let scratch = classifier.makeScratch()
        #expect(classifier.classify(text: "Partial Failure: Quota Exceeded", scratch: scratch)?.rule.id == "a.specific")
        #expect(classifier.classify(text: "Partial Failure", scratch: scratch)?.rule.id == "a.generic")
        #expect(classifier.classify(text: "Partial", scratch: scratch)?.rule.id == "a.info")
        #expect(classifier.classify(text: "nothing", scratch: scratch) == nil)
    }

    /// Summaries count by `Category.ordinal`: it must be each category's place in `allCases`.
    @Test func categoryOrdinalsFollowAllCases() {
        #expect(Category.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        #expect(Category.allCases.sorted() == Category.allCases)
    }

    @Test func userRulesReplaceByID() throws {
        let base = try Self.load("rules:\n  - id: a.b\n    title: Old\n    category: store\n    severity: error\n    patterns: ['x']\n")
        let merged = try RuleSet(files: [("user.yaml", "rules:\n  - id: a.b\n    title: New\n    category: store\n    severity: info\n    patterns: ['y']\n")], base: base)
        #expect(merged.rules.count == 1)
        #expect(merged.rules[0].title == "New")
    }

    @Test func catastrophicPatternsEndAtTheMatchLimit() throws {
        let regex = try PCRERegex("(a+)+$")
        let scratch = MatchScratch()
        let subject = Array(String(repeating: "a", count: 40_000).utf8) + [UInt8(ascii: "b")]
        let matched = subject.withUnsafeBytes { regex.matches($0, scratch: scratch) }
        #expect(!matched)
    }

    @Test func extractorsFindRetryAfterCodesAndPartialErrors() throws {
        let yaml = """
        rules:
          - id: t.all
            title: All
            category: cloudkit
            severity: error
            patterns: ['CKError']
            extractors: [retryAfter, errorCode, partialErrors]
        """
        let classifier = try Classifier(ruleSet: try Self.load(yaml))
        let text = """
        <CKError 0x1c4459980: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: {
        \tParent.70B5:(QSZone:__defaultOwner__) = <CKError 0x1c8442e20: "Limit Exceeded" (27/2023); server message = "x">
        \tChild.11:(QSZone:__defaultOwner__) = <CKError 0x1c8442e21: "Quota Exceeded" (25/2035); Retry after 331.0 seconds>
        }>
        """
        let result = classifier.classify(text: text, scratch: classifier.makeScratch())
        let fields = Dictionary(uniqueKeysWithValues: result?.fields.map { ($0.name, $0.value) } ?? [])
        #expect(fields["retryAfter"] == "331.0")
        #expect(fields["code"] == "2")
        #expect(fields["domain"] == "CKErrorDomain")
        #expect(fields["partialErrors"] == "Parent.70B5:(QSZone:__defaultOwner__): 27 Limit Exceeded; Child.11:(QSZone:__defaultOwner__): 25 Quota Exceeded")
    }

    /// The partial-error key is read backwards by hand (the regex with a leading optional key group was
    /// quadratic); it must find what that regex found, on many random shapes.
    @Test func partialErrorKeyAgreesWithTheRegexItReplaced() throws {
        let old = try PCRERegex(#"(?:(?<key>[^\s=;{}<>"\\]+(?:\([^)\s]*\))?)\\?"?\s*=\s*\\?"?)?<CKError 0x[0-9a-fA-F]+: \\?"(?<name>[^"\\]+)\\?" \((?<code>\d+)"#)
        let item = try PCRERegex(#"<CKError 0x[0-9a-fA-F]+: \\?"(?<name>[^"\\]+)\\?" \((?<code>\d+)"#)
        let tokens = ["\t", " ", "=", " = ", "\"", "\\", "(", ")", ":", "Rec.1", "(zone=x)", ";", "<", ">", "{", "A", "(a b)", "\\\""]
        let scratch = MatchScratch()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let head = (0..<Int.random(in: 0...8, using: &generator)).map { _ in tokens.randomElement(using: &generator)! }.joined()
            var bytes = Array((head + #"<CKError 0x1c8: "Zone Busy" (23/2027)"#).utf8)
            let (expected, actual) = bytes.withUnsafeMutableBytes { raw -> (String?, String?) in
                let message = UnsafeRawBufferPointer(raw)
                let oldMatch = old.firstMatch(in: message, scratch: scratch)
                let keyGroup = old.groupNames.first { $0.name == "key" }!.number
                let expected = oldMatch?[keyGroup].map { String(decoding: message[$0], as: UTF8.self) }
                guard let start = item.firstMatch(in: message, scratch: scratch)?[0]?.lowerBound else { return (expected, "no item") }
                let actual = BuiltinExtractors.partialErrorKey(in: message, before: start, notBefore: 0)
                    .map { String(decoding: message[$0], as: UTF8.self) }
                return (expected, actual)
            }
            #expect(expected == actual, "\(head)")
        }
    }
}
