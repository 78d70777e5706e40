import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing
import Yams

/// Issue 22: user rule files that ran for minutes (catastrophic backtracking), crashed the YAML parser
/// (deep nesting), echoed a 10 MB line to stderr, or blocked on a FIFO.
@Suite struct HostileRuleTests {
    static func rule(_ pattern: String, id: String = "user.test") -> String {
        """
        rules:
          - id: \(id)
            title: test
            category: store
            severity: error
            patterns:
              - '\(pattern)'
            advice: none
            examples:
              match: ['x']
        """
    }

    static func userSet(_ files: [(String, String)]) throws -> RuleSet {
        try RuleSet(files: files.map { (path: $0.0, text: $0.1) }, base: RuleSet.embedded(), guarded: true)
    }

    @Test(arguments: [#"(.*a){25}"#, #"(a|aa)+$"#, #"(\w+\s?)*$"#, #"(x+x+)+y"#, #"^(?:\s*\w+)+:"#, #"((ab)*)+c"#])
    func hazardousPatternsAreRefused(pattern: String) throws {
        #expect(PatternHazard.find(in: pattern) != nil, "\(pattern)")
        #expect(throws: RuleFileError.self) { try Self.userSet([("u.yaml", Self.rule(pattern))]) }
    }

    @Test(arguments: [#"(?>.*a){25}"#, #"(a|b)+"#, #"(?:[^\n]*\n){0,3}"#, #"[a-z]+ \d+"#, #"(?:\w++\s?)*"#,
                      #"Code=(?<code>\d+)"#, #"\((?:[^()]+|x)\)"#, #"(?i)database (?:is )?locked"#, #"\Q(a+)+\E"#, #"[(]a+[)]+"#])
    func ordinaryPatternsPass(pattern: String) {
        #expect(PatternHazard.find(in: pattern) == nil, "\(pattern): \(PatternHazard.find(in: pattern)?.message ?? "")")
    }

    /// A user may copy any built-in rule file to override it: the whole catalog passes the screen.
    @Test func everyBuiltInRuleFileLoadsAsAUserFile() throws {
        let files = EmbeddedRuleFiles.files
        #expect(!files.isEmpty)
        for file in files {
            let text = file.text
            #expect(throws: Never.self, "\(file.path)") { _ = try RuleLoader(path: file.path, text: text, guarded: true).load(firstOrder: 0) }
        }
    }

    /// What the screen misses is bounded at run time: one limit hit per entry, five per pattern and run,
    /// then the pattern is cut off; the warning names the rule.
    @Test func backtrackingUserPatternIsCutOffAfterFiveEntries() throws {
        // Alternatives that start with classes: the screen cannot tell they overlap.
        let set = try Self.userSet([("u.yaml", Self.rule(#"CoreData: (\w|\d)+$"#, id: "user.evasive"))])
        let classifier = try Classifier(ruleSet: set)
        let scratch = classifier.makeScratch()
        let line = "CoreData: " + String(repeating: "1", count: 40) + "!"
        for _ in 0..<2000 { _ = classifier.classify(text: line, scratch: scratch) }
        let pattern = try #require(set.rule(id: "user.evasive")?.patterns.first)
        #expect(pattern.budget?.limitHits == MatchBudget.hitsBeforeCutOff)
        let warning = try #require(set.matchBudgetWarnings.first)
        #expect(warning.contains("rule user.evasive, patterns[0]") && warning.contains("cut off"))
        // A matching entry still matches while the budget lasts: a fresh set, a harmless subject.
        let fresh = try Self.userSet([("u.yaml", Self.rule(#"CoreData: (\w|\d)+$"#, id: "user.evasive"))])
        let freshClassifier = try Classifier(ruleSet: fresh)
        #expect(freshClassifier.classify(text: "CoreData: abc", scratch: freshClassifier.makeScratch())?.rule.id == "user.evasive")
    }

    @Test func oneLimitHitPerEntry() throws {
        let text = """
        rules:
          - id: user.two
            title: two
            category: store
            severity: error
            patterns:
              - 'CoreData: (\\w|\\d)+$'
              - 'CoreData: (\\d|\\w)+!$x'
            advice: none
            examples:
              match: ['x']
        """
        let set = try Self.userSet([("u.yaml", text)])
        let classifier = try Classifier(ruleSet: set)
        _ = classifier.classify(text: "CoreData: " + String(repeating: "1", count: 40) + "!", scratch: classifier.makeScratch())
        let hits = set.rule(id: "user.two")!.patterns.map { $0.budget?.limitHits ?? -1 }
        #expect(hits == [1, 0], "the second pattern ran after the first hit its limit in the same entry: \(hits)")
    }

    @Test func builtInPatternsAreNotGuarded() throws {
        #expect(try RuleSet.embedded().rules.allSatisfy { $0.patterns.allSatisfy { $0.budget == nil } })
    }

    @Test(arguments: [
        "rules:\n" + String(repeating: "- ", count: 5000) + "x\n",
        "rules:\n" + (0..<5000).map { String(repeating: " ", count: $0) + "a:\n" }.joined(),
        "rules: " + String(repeating: "[", count: 5000) + "\n",
        "rules: " + String(repeating: "{a: ", count: 5000) + "\n",
    ])
    func deepYAMLIsOneErrorNotACrash(text: String) throws {
        do {
            _ = try RuleLoader(path: "deep.yaml", text: text, guarded: true).load(firstOrder: 0)
            Issue.record("loaded")
        } catch let error as RuleFileError {
            #expect(error.message.contains("nests"), "\(error.message)")
        }
        // Any file not built into the binary is read for its nesting, guarded or not (the fuzz target loads
        // files unguarded).
        do {
            _ = try RuleSet(files: [(path: "deep.yaml", text: text)])
            Issue.record("loaded")
        } catch let error as RuleFileError {
            #expect(error.message.contains("nests"), "\(error.message)")
            #expect((error.excerpt ?? "").split(separator: "\n").allSatisfy { $0.count <= RuleFileError.excerptWidth + 2 })
        }
    }

    /// The embedded catalog is the files' text with the comment lines blanked (RuleEmbedder writes each as a raw
    /// string literal): the same YAML, every other line to the byte, every line at its number.
    @Test func theEmbeddedFilesAreTheRuleFilesWithoutTheirCommentLines() throws {
        var blanked = 0
        for file in EmbeddedRuleFiles.files + EmbeddedCodeTables.files {
            let onDisk = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(file.path), encoding: .utf8)
            #expect(EmbeddedText.problems(stored: file.text, original: onDisk).isEmpty, "\(file.path)")
            #expect(try Yams.compose(yaml: file.text) == Yams.compose(yaml: onDisk), "\(file.path)")
            blanked += EmbeddedText.blankedLines(stored: file.text, original: onDisk)
        }
        #expect(blanked > 1000)
        #expect(EmbeddedCodeTables.files.count >= 8)
    }

    /// The checks themselves: a blanked comment passes both; a `#` line blanked inside a block scalar passes the line
    /// check but not the YAML's; a lost or changed line fails the line check.
    @Test func anEmbeddedCopyThatChangedMoreThanACommentIsCaught() throws {
        let file = "# header\nrules:\n  - id: a\n    advice: |\n      #0 0x1 frame\n"
        let right = "\nrules:\n  - id: a\n    advice: |\n      #0 0x1 frame\n"
        #expect(EmbeddedText.problems(stored: right, original: file).isEmpty)
        #expect(try Yams.compose(yaml: right) == Yams.compose(yaml: file))
        let blockBlanked = "\nrules:\n  - id: a\n    advice: |\n\n"
        #expect(EmbeddedText.problems(stored: blockBlanked, original: file).isEmpty)
        #expect(try Yams.compose(yaml: blockBlanked) != Yams.compose(yaml: file))
        #expect(!EmbeddedText.problems(stored: "rules:\n  - id: a\n    advice: |\n      #0 0x1 frame\n", original: file).isEmpty)
        #expect(!EmbeddedText.problems(stored: "\nrules:\n  - id: b\n    advice: |\n      #0 0x1 frame\n", original: file).isEmpty)
    }

    @Test func ruleFileNestingOfRealFilesIsFarBelowTheLimit() {
        for file in EmbeddedRuleFiles.files {
            let text = file.text
            #expect(RuleLoader.excessiveNesting(text, limit: 12) == nil, "\(file.path)")
        }
    }

    @Test func aHugeLineIsShownAsAWindowAroundTheColumn() {
        let line = String(repeating: "a", count: 10_000_000) + "(" + String(repeating: "b", count: 100)
        let error = RuleFileError(file: "x.yaml", line: 3, column: 10_000_001, message: "pattern does not compile", sourceLine: line)
        let lines = (error.excerpt ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2)
        #expect(lines[0].count <= RuleFileError.excerptWidth + 2)
        #expect(lines[0].hasPrefix("…") && lines[0].hasSuffix("…"))
        // The caret stands under the `(`.
        let caret = lines[1].count - 1
        #expect(Array(lines[0])[caret] == "(")
        #expect(error.description.count < 400)
    }

    @Test func controlCharactersInASourceLineAreShownAsQuestionMarks() {
        let error = RuleFileError(file: "x.yaml", line: 1, column: 3, message: "m", sourceLine: "a\u{1B}]0;pwned\u{07}b")
        #expect(!(error.excerpt ?? "").contains("\u{1B}"))
    }

    @Test func ruleFileThatIsAFIFOOrMissingSaysWhy() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-rules-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/pipe.yaml", 0o600) == 0)
        do {
            _ = try RuleSet.readRuleFiles(in: dir)
            Issue.record("read a FIFO")
        } catch let failure as ToolFailure {
            #expect(failure.message.contains("not a regular file"), "\(failure.message)")
        }
        do {
            _ = try RuleSet.readRuleFile(dir + "/missing.yaml")
            Issue.record("read a missing file")
        } catch let failure as ToolFailure {
            #expect(failure.message.contains("No such file"), "\(failure.message)")
        }
    }
}
