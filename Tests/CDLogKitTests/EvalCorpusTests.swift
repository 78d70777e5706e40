import CDLogCore
@_spi(Testing) import CDLogKit
import Foundation
import Testing

/// The development part of the real corpus (Eval/dev, docs/recognition.md): the figures of the last round
/// are floors, so a change that makes recognition worse on real text fails. The holdout part is never
/// scored by tests: it is scored by hand, once per round.
@Suite struct EvalCorpusTests {
    static let dev = TestSupport.packageRoot.appendingPathComponent("Eval/dev").path

    @Test func developmentPartHoldsItsFigures() throws {
        let records = try CorpusEvaluation.readRecords(at: Self.dev)
        #expect(records.count >= 1040, "Eval/dev holds \(records.count) records")
        let score = try CorpusEvaluation(classifier: TestSupport.classifier).score(records)
        print(CorpusEvaluation.render(score, title: "Eval/dev", verbose: false))
        #expect(score.categoryAccuracy >= 0.82, "category accuracy \(score.categoryAccuracy)")
        #expect(score.severityAgreement >= 0.84, "severity agreement \(score.severityAgreement)")
        #expect(score.falseAlarms <= 1, "\(score.falseAlarms) noise lines reported above info")
        #expect(score.boundaryAccuracy >= 0.98, "paste boundaries \(score.boundaryAccuracy)")
    }

    @Test func aBadRecordIsOneLineNamingItsPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-eval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"id":"x","source":"s","category":"nowhere","severity":"error","text":"t"}"#.write(to: folder.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
        #expect(throws: ToolFailure.self) { _ = try CorpusEvaluation.readRecords(at: folder.path) }
    }

    @Test func scoringCountsWhatItShould() throws {
        let lines = [
            #"{"id":"a","source":"s1","category":"migration","severity":"error","text":"Error Domain=NSCocoaErrorDomain Code=134140 \"x\""}"#,
            #"{"id":"b","source":"s2","category":"none","severity":"info","text":"[UIKitCore] Snapshotting a view that has not been rendered"}"#,
            #"{"id":"c","source":"s3","kind":"paste","text":"2024-01-01 10:00:00.000 App[1:2] hello\n2024-01-01 10:00:01.000 App[1:2] CoreData: error: (14) I/O error for database at /x/Model.sqlite","entries":[{"first":1,"last":1,"category":"none"},{"first":2,"last":2,"category":"store","severity":"error"}]}"#,
        ]
        let records = try lines.enumerated().map { try CorpusEvaluation.record(Data($0.element.utf8), at: "t:\($0.offset)") }
        let score = try CorpusEvaluation(classifier: TestSupport.classifier).score(records)
        #expect(score.labelled.count == 2)
        #expect(score.categoryAccuracy == 1)
        #expect(score.falseAlarms == 0)
        #expect(score.boundaryFound == 2 && score.boundaryExpected == 2)
    }

    @Test func aFoldedEchoIsTheBoundaryOfEachCopy() throws {
        // Xcode prints the event twice; cdlog reports it once (count 2) over both lines.
        let paste = #"{"id":"p","source":"s","kind":"paste","text":"error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1192): Failed to set up CloudKit integration for store\nCoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1192): Failed to set up CloudKit integration for store\nhello","entries":[{"first":1,"last":1,"category":"init","severity":"error"},{"first":2,"last":2,"category":"init","severity":"error"},{"first":3,"last":3,"category":"none"}]}"#
        let score = try CorpusEvaluation(classifier: TestSupport.classifier).score([CorpusEvaluation.record(Data(paste.utf8), at: "t")])
        #expect(score.boundaryFound == 3 && score.boundaryExpected == 3, "\(score.boundaryMisses)")
        // Copies of different categories are not one event.
        let mixed = paste.replacingOccurrences(of: #"{"first":2,"last":2,"category":"init""#, with: #"{"first":2,"last":2,"category":"sync""#)
        let split = try CorpusEvaluation(classifier: TestSupport.classifier).score([CorpusEvaluation.record(Data(mixed.utf8), at: "t")])
        #expect(split.boundaryFound == 1, "\(split.boundaryMisses)")
    }
}
