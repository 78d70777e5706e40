import CDLogCore
@_spi(Testing) import CDLogKit
import Foundation
@testable import ReportKit
import Testing
import Yams

enum ReportTestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let classifier: Classifier = try! Classifier(ruleSet: RuleSet.embedded())
    static let catalog: DiagnosisCatalog = try! DiagnosisCatalog.embedded()
}

/// Every correlation rule's examples, one test per diagnosis.
@Suite struct DiagnosisCatalogTests {
    static var ids: [String] { ReportTestSupport.catalog.diagnoses.map(\.id) }

    @Test func catalogLoadsAndHasTheIssueDiagnoses() throws {
        let ids = Set(Self.ids)
        for id in ["launch.watchdog.checkpoint-before-migration", "cloudkit.no-icloud-account", "cloudkit.schema-not-deployed", "merge.policy-missing"] {
            #expect(ids.contains(id), "missing \(id)")
        }
        #expect(ReportTestSupport.catalog.diagnoses.allSatisfy { $0.matchExamples.count >= 1 })
    }

    /// The embedded diagnosis files are the files with their comment lines blanked (RuleEmbedder): the same lines but
    /// those, and the same YAML.
    @Test func theEmbeddedDiagnosisFilesAreTheFilesWithoutTheirCommentLines() throws {
        #expect(EmbeddedDiagnosisFiles.files.count >= 3)
        for file in EmbeddedDiagnosisFiles.files {
            let onDisk = try String(contentsOf: ReportTestSupport.packageRoot.appendingPathComponent(file.path), encoding: .utf8)
            #expect(EmbeddedText.problems(stored: file.text, original: onDisk).isEmpty, "\(file.path)")
            #expect(try Yams.compose(yaml: file.text) == Yams.compose(yaml: onDisk), "\(file.path)")
        }
    }

    @Test(arguments: ids)
    func examplesOfDiagnosis(_ id: String) throws {
        let rule = try #require(ReportTestSupport.catalog.diagnosis(id: id))
        let failures = DiagnosisExampleRunner(classifier: ReportTestSupport.classifier, catalog: ReportTestSupport.catalog).run([rule])
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test func embeddedPathsNameTheDiagnosesFolder() throws {
        let rule = try #require(ReportTestSupport.catalog.diagnoses.first)
        #expect(rule.location.file.hasPrefix("Rules/diagnoses/"))
    }

    @Test func classificationCatalogIgnoresDiagnosisFiles() throws {
        // The classification catalog is the top-level Rules/*.yaml only.
        let set = try RuleSet.embedded()
        #expect(set.rules.allSatisfy { !$0.location.file.contains("diagnoses") })
    }

    @Test(arguments: [
        ("diagnoses: [", "invalid YAML"),
        ("x: 1", "`diagnoses:` list"),
        ("diagnoses:\n  - id: a.b\n    title: t\n    severity: error\n    when: []\n", "non-empty `when:`"),
        ("diagnoses:\n  - id: a.b\n    title: t\n    severity: error\n    when:\n      - name: x\n        log: { rule: '(' }\n", "pattern does not compile"),
        ("diagnoses:\n  - id: a.b\n    title: t\n    severity: error\n    when:\n      - name: x\n        store: { walSize: '> 1' }\n", "unknown store figure"),
        ("diagnoses:\n  - id: a.b\n    title: t\n    severity: error\n    when:\n      - name: x\n        log: { category: sync }\n    statement: 'uses {y.count}'\n    advice: [a]\n", "placeholder `{y.count}`"),
        ("diagnoses:\n  - id: a.b\n    title: t\n    severity: error\n    bogus: 1\n", "unknown key `bogus`"),
    ])
    func badFilesFailWithALocation(_ yaml: String, _ expected: String) {
        #expect {
            _ = try DiagnosisCatalog(files: [("Rules/diagnoses/x.yaml", yaml)])
        } throws: { error in
            let message = (error as? ToolFailure)?.message ?? ""
            return message.hasPrefix("Rules/diagnoses/x.yaml:") && message.contains(expected)
        }
    }

    /// Issue 25: every reference from the diagnoses into the rule catalog and walcheck resolves, and a
    /// dangling one is named.
    @Test func referencesResolve() throws {
        let ruleIDs = try RuleSet.embedded().rules.map(\.id)
        #expect(ReportTestSupport.catalog.danglingReferences(ruleIDs: ruleIDs).isEmpty)
        let yaml = """
        diagnoses:
          - id: test.dangling
            title: t
            severity: error
            when:
              - name: gone
                log: { rule: '^no\\.such\\.rule$' }
              - name: store
                store: { findings: [wal-haunted] }
                optional: true
            statement: s
            advice: [a]
            examples:
              match:
                - log: 'anything'
        """
        let catalog = try DiagnosisCatalog(files: [("Rules/diagnoses/t.yaml", yaml)])
        let problems = catalog.danglingReferences(ruleIDs: ruleIDs)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.hasPrefix("test.dangling, condition gone: rule pattern") })
        #expect(problems.contains { $0.contains("walcheck gives no finding `wal-haunted`") })
    }

    /// Issue 25: a diagnosis file's error shows the line and a caret, as a rule file's does.
    @Test func badFilesShowTheLineAndACaret() {
        let yaml = "diagnoses:\n  - id: a.b\n    title: t\n    severity: error\n    bogus: 1\n"
        #expect {
            _ = try DiagnosisCatalog(files: [("Rules/diagnoses/x.yaml", yaml)])
        } throws: { error in
            guard let failure = error as? ToolFailure else { return false }
            return failure.message.hasPrefix("Rules/diagnoses/x.yaml:5:5: error: ") && failure.detail == "    bogus: 1\n    ^"
        }
    }

    @Test func comparisonsParseUnits() {
        #expect(Comparison.parse(">= 16 MiB") == Comparison(.ge, 16 * 1_048_576))
        #expect(Comparison.parse("> 0") == Comparison(.gt, 0))
        #expect(Comparison.parse("3") == Comparison(.ge, 3))
        #expect(Comparison.parse("< 1.5 GB") == Comparison(.lt, 1_500_000_000))
        #expect(Comparison.parse("lots") == nil)
    }
}
