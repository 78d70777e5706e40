import CDLogCore
@_spi(Testing) import CDLogKit
import Foundation
@testable import ReportKit
import Testing

/// `cdlog report` skips, unbuilt, the lines that can be neither classified nor appendix or evidence
/// material (the quiet-entry walk, with a gate that also admits the appendix's literals). Held to the
/// report of building every entry, on the samples and on generated logs mixing Core Data lines, lines
/// that only name Core Data, app noise and a process whose name holds "CoreData".
@Suite struct QuietReportTests {
    static let gated: Classifier = try! ReportBuilder.classifier(ruleSet: RuleSet.embedded(), catalog: ReportTestSupport.catalog)

    static func report(_ texts: [(String, String)], skipping: Bool, threads: Int) throws -> String {
        var options = ReportBuilder.Options()
        options.skipsQuietEntries = skipping
        options.threads = threads
        let document = try ReportBuilder(classifier: gated, catalog: ReportTestSupport.catalog, options: options)
            .build(sources: texts.map { MemoryByteSource(name: $0.0, text: $0.1) }, stores: [])
        return ReportOutputFormat.json.render(document)
    }

    /// An NSLog-style log: noise, classified Core Data lines, unclassified lines naming Core Data or a
    /// diagnosis's words, multi-line entries, and a process named CoreDataDemo.
    static func mixedLog(seed: UInt64, lines: Int) -> String {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let messages = [
            "[UI] button tapped %d",
            "[Net] GET /feed returned 200 in %d ms",
            "CoreData: annotation: Connecting to sqlite database file at \"/var/mobile/Containers/Data/Application/X/Library/Application Support/Model.sqlite\"",
            "CoreData: error: -executeRequest: encountered exception = I/O error for database at /x/Model.sqlite.  SQLite error code:10, NSSQLiteErrorDomain=10 with userInfo = {\n    NSFilePath = \"/x/Model.sqlite\";\n}",
            "CoreData: debug: CoreData+CloudKit: -[PFCloudKitExporter exportIfNecessary](%d): Export finished",
            "Something about NSPersistentStoreCoordinator %d that no rule knows",
            "SwiftData model loaded %d items",
            "checkpoint took %d ms",
            "CKError lookup for zone %d",
            "Unrelated line with a number %d and a path /tmp/a/b",
        ]
        var out = ""
        for i in 0..<lines {
            let process = next() % 7 == 0 ? "CoreDataDemo" : "Notes"
            let message = messages[next() % messages.count].replacingOccurrences(of: "%d", with: "\(next() % 1000)")
            out += "2024-07-02 08:13:\(String(format: "%02d", i % 60)).\(String(format: "%06d", i)) +0800 \(process)[1422:61234] \(message)\n"
        }
        return out
    }

    @Test func theGateIsBuilt() {
        #expect(Self.gated.admittedLiterals != nil)
        #expect(Self.gated.quietEntryGate != nil)
    }

    @Test func skippingGivesTheReportOfBuildingEveryEntry() throws {
        var inputs: [[(String, String)]] = []
        let samples = ReportTestSupport.packageRoot.appendingPathComponent("Samples/logs")
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted() {
            inputs.append([(name, try String(contentsOf: samples.appendingPathComponent(name), encoding: .utf8))])
        }
        for seed in 1...4 as ClosedRange<UInt64> { inputs.append([("mixed-\(seed).log", Self.mixedLog(seed: seed, lines: 3_000))]) }
        for texts in inputs {
            for threads in [1, 2] {
                let reference = try Self.report(texts, skipping: false, threads: threads)
                let skipped = try Self.report(texts, skipping: true, threads: threads)
                #expect(skipped == reference, "\(texts[0].0), \(threads) threads")
            }
        }
    }

    @Test func aProcessNameDoesNotMakeALineAppendixMaterial() throws {
        let log = "2024-07-02 08:13:42.000001 +0800 CoreDataDemo[1422:61234] [UI] button tapped\n"
            + "2024-07-02 08:13:42.000002 +0800 CoreDataDemo[1422:61234] Something about NSPersistentStoreCoordinator no rule knows\n"
        let json = try Self.report([("demo.log", log)], skipping: true, threads: 1)
        #expect(json.contains("Something about NSPersistentStoreCoordinator"))
        #expect(!json.contains("button tapped"))
    }
}
