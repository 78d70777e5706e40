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
        #expect(records.count >= 1500, "Eval/dev holds \(records.count) records")
        let score = try CorpusEvaluation(classifier: TestSupport.classifier).score(records)
        print(CorpusEvaluation.render(score, title: "Eval/dev", verbose: false))
        // Floors just under the part's figures; each retired holdout (round 21's scored 80.8 %, 100 of 105
        // boundaries) lowers them until the catalog learns from it (docs/recognition.md).
        // Round 89 retired 160 entries that scored 53 % when held out (Realm's changelog fragments, iCloud Drive
        // files); the catalog learned 74 % of them, and the part fell from 87.2 % to 86.9 %.
        // Rounds 116 and 117 retired 230 entries that scored 46 % and 63 % when held out (a Bitcoin node's block files,
        // AI tools' own storage messages); the catalog learned about a fifth of them, and the part fell to 86.47 %.
        // Rounds 123 to 129 retired 372 entries that scored 39 % to 79 % when held out (sqlite-jdbc on Apple silicon, MMKV's
        // log lines, Firestore's and Realm's reasons); the catalog learned most of the patterns behind them, and the part
        // fell to 86.3 %.
        // Rounds 135 to 139 retired 363 entries that scored 30.5 %, 87.0 %, 72.2 %, 41.9 % and 76.3 % when held out (round 135: SQLite
        // under Rust, Go, Node and Prisma on a Mac, Amplify DataStore's and Obsidian LiveSync's own logs; round 138: Mac apps'
        // own logs over SQLite and LMDB); the catalog learned the libraries' failures, not their routine chatter, and the part
        // fell to 85.52 %.
        #expect(score.categoryAccuracy >= 0.854, "category accuracy \(score.categoryAccuracy)")
        // Rounds 70 and 71 retired Couchbase Lite's and Apple's daemons' chatter labelled `debug` that the activity
        // fallback reads at `info` (no level word in the line to say otherwise).
        // Rounds 96 and 97 retired other stores' debug logs whose lines the labellers split between `debug` and
        // `info` with nothing in the line to tell them apart (the part fell to 85.96 % with the catalog learned).
        // Round 104 retired 82 entries that scored 33 % severity when held out, most of them Amplify DataStore's,
        // PouchDB's and Ensembles' routine lines at `debug` or `info` (the part fell to 85.4 %).
        // The thirty-second session's severity fixes (a console line's exception, the mirroring's milestones) raised
        // the part to 86.0 %.
        // Round 116 retired 187 entries that scored 50 % severity when held out (a Bitcoin node's and AI tools' block-file,
        // LevelDB and lock lines the labellers read as `fatal` or `warning` with nothing in the line to say so; the part
        // fell to 85.48 % with the catalog learned).
        // Rounds 118 to 120 retired 106 entries that scored 64 % to 72 % severity when held out (a SQLite note on a volume
        // without data protection read as an error, a Flutter migration's unhandled exception, report pieces); the part
        // fell to 85.39 % with the catalog learned.
        // Rounds 123 to 129 retired 372 entries that scored 51 % to 84 % severity when held out (MMKV's and Realm Sync's
        // routine lines their labellers read as `debug`, a desktop app's fatal wrappers left out for their cost); the part
        // fell to 85.2 % with the catalog learned.
        // Rounds 135 to 139 retired 363 entries that scored 33 % to 95 % severity when held out (Amplify's and LiveSync's
        // routine lines their labellers read as `debug` or `info` with nothing in the line to tell them apart); the part fell
        // to 84.42 % with the catalog learned.
        #expect(score.severityAgreement >= 0.843, "severity agreement \(score.severityAgreement)")
        // Round 68 retired five noise entries that stay flagged: four of WebKit's unrecognized-selector lines, each
        // logged before WebKit discarded the exception on the next line (nothing in the line says so; its second
        // labeller read one as a termination), and a UI exception XCTest caught, reported at `error` as every caught
        // exception is.
        // Round 71 retired a malloc diagnostic of a test process named for Couchbase Lite (`CouchbaseLiteiOSTests(…)
        // malloc: *** error for object …`), labelled noise: the process's name is read as the store's.
        // Round 82 retired two more: a demo app's print before it reads a deleted object (`About to read a deleted
        // SwiftData Book fault:`, `fault:` read as Core Data's level) and an app's print that it deleted a corrupted
        // store while in use (`✅ SwiftData: Corrupted database removed ⚠️ DELETED WHILE IN USE!`), which its second
        // labeller read as the store's error.
        // Round 83 retired one more: a command-line CloudKit client's check of its own settings (`❌ Error: CloudKit
        // Server-to-Server Key credentials are required`), which its labellers read as the tool's usage.
        // Round 84 retired one more: a Mac app's unrecognized-selector line that AppKit logged and went on from
        // (`-[__NSArrayM lastIndex]: unrecognized selector sent to instance …`, WF-N02), noise to its collector, a
        // termination to its second labeller as the guide lists it.
        // Rounds 92 and 93 retired two more whose labels conflict with the part's: xcodebuild's `Restarting after unexpected
        // exit, crash, or test timeout` (noise to its collector, a termination in four earlier records) and a bare
        // `*** Assertion failure in -[UITableView _endCellAnimationsWithContext:]` (noise to its collector, a
        // termination to its second labeller).
        // Round 97 retired an app's print that it could not set up its database's sync because the server is offline
        // (three copies: the line alone and twice in its paste), noise to its collector and the network's warning to
        // its second labeller; the fallback reads it as the store's set-up failing.
        // Round 103 gave Simperium's errors a marker (both its labellers call them sync; before, the fallback admitted
        // them and gave no finding), and an older record calls its websocket's `received invalid message` noise.
        // Round 104 retired a compiler's `no such file or directory: '…/DerivedSources/CoreDataGenerated/…+CoreDataProperties.m'`,
        // noise to both its labellers; three development records of the same failure say `model`.
        // Round 114 retired a shell plugin's own data file that would not load (`Error: could not deserialize database` /
        // `Caused by: io error: failed to fill whole buffer`, printed in Warp after every command), noise to both its
        // labellers: nothing in the text says whose database it is.
        // Round 130 retired one more: React Native Firebase's log of an exception it caught, printed with the exception's
        // backtrace (`An error occurred in sendJSEvent: bridge is not set. …` / `(` / `0   CoreFoundation … __exceptionPreprocess`),
        // noise to both its labellers. Of the part's 57 entries with an exception's backtrace and no wrapper, 43 are `fatal`
        // and 2 noise, and nothing in the line says this one was caught.
        // Round 135 retired one more: Prisma's generator named `sqlite` that the shell cannot find (`Error: Generator "sqlite"
        // failed:` / `/bin/sh: sqlite: command not found`), noise to both its labellers; a development record of a tool whose
        // sqlite3 executable is not installed says `init`.
        #expect(score.falseAlarms <= 21, "\(score.falseAlarms) noise lines reported above info")
        #expect(score.boundaryAccuracy >= 0.95, "paste boundaries \(score.boundaryAccuracy)")
    }

    /// Every second labelling in Eval/agreement names an entry of the corpus (a record, or `ID@k`: a paste's
    /// k-th expected entry) with a category and a severity of the guide's: `scripts/eval/agreement.py`
    /// compares it with the first labels.
    @Test func secondLabellingsNameCorpusEntries() throws {
        let records = try CorpusEvaluation.readRecords(at: Self.dev)
        var entries: [String: Int] = [:]
        for record in records { entries[record.id] = record.spans?.count ?? 0 }
        let folder = TestSupport.packageRoot.appendingPathComponent("Eval/agreement")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
        #expect(files.count >= 2)
        let categories = Set(CDLogCore.Category.allCases.map(\.id) + ["none"])
        let severities: Set<String> = ["debug", "info", "warning", "error", "fatal"]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            var count = 0
            var labelled = Set<String>()
            for line in text.split(separator: "\n") where !line.isEmpty {
                let label = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
                let id = try #require(label["id"])
                let parts = id.split(separator: "@")
                if parts.count == 2, let k = Int(parts[1]) {
                    #expect(k >= 1 && k <= (entries[String(parts[0])] ?? 0), "\(file): \(id) is no paste entry of Eval/dev")
                } else {
                    #expect(entries[id] != nil, "\(file): \(id) is no record of Eval/dev")
                }
                #expect(categories.contains(label["category"] ?? ""), "\(file): \(id)")
                #expect(severities.contains(label["severity"] ?? ""), "\(file): \(id)")
                count += 1
                labelled.insert(id)
            }
            if file.hasPrefix("holdout-") {
                // A held-out round's labelling covers the whole round: every record (and paste entry) of each
                // collector it names, never a handful picked out of one.
                let collectors = Set(labelled.compactMap { $0.split(separator: "-").first.map(String.init) })
                for (id, spans) in entries where collectors.contains(String(id.split(separator: "-").first ?? "")) {
                    let expected = spans == 0 ? [id] : (1...spans).map { "\(id)@\($0)" }
                    for one in expected { #expect(labelled.contains(one), "\(file) leaves out \(one)") }
                }
            } else {
                // A sample of the development part: large enough to say something.
                #expect(count >= 40, "\(file) holds \(count) labels")
            }
        }
    }

    @Test func aBadRecordIsOneLineNamingItsPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-eval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"id":"x","source":"s","category":"nowhere","severity":"error","text":"t"}"#.write(to: folder.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
        #expect(throws: ToolFailure.self) { _ = try CorpusEvaluation.readRecords(at: folder.path) }
    }

    @Test func aSpansTrailingBlankLinesAreNotPartOfItsBoundary() throws {
        // Blank lines belong to the entry before them; the splitter's entry ends at its last line of text.
        let line = #"{"id":"p","source":"s","kind":"paste","text":"CoreData: error: (14) I/O error for database at /x/Model.sqlite\n\nhello there\nsecond line","entries":[{"first":1,"last":2,"category":"store","severity":"error"},{"first":3,"last":3,"category":"none"},{"first":4,"last":4,"category":"none"}]}"#
        let score = try CorpusEvaluation(classifier: TestSupport.classifier).score([try CorpusEvaluation.record(Data(line.utf8), at: "t:1")])
        #expect(score.boundaryExpected == 3)
        #expect(score.boundaryFound == 3, "\(score.boundaryMisses)")
    }

    @Test func aPastesBoundariesReadAlikeWithWindowsLineEndsAndQuoted() throws {
        // `scripts/eval/paste-variants.py` found both read wrong: Swift took `\r\n` as one Character (the paste
        // was one line), and a quoted paste's blank line (`>`) was not blank.
        let text = "CoreData: error: (14) I/O error for database at /x/Model.sqlite\n\nhello there\nsecond line"
        for (form, wrapped) in [("crlf", text.replacingOccurrences(of: "\n", with: "\r\n")),
                                ("quote", text.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(separator: "\n"))] {
            let object: [String: Any] = ["id": "p", "source": "s", "kind": "paste", "text": wrapped, "entries": [
                ["first": 1, "last": 2, "category": "store", "severity": "error"], ["first": 3, "last": 3, "category": "none"],
                ["first": 4, "last": 4, "category": "none"]]]
            let record = try CorpusEvaluation.record(try JSONSerialization.data(withJSONObject: object), at: "t:1")
            let score = try CorpusEvaluation(classifier: TestSupport.classifier).score([record])
            #expect(score.boundaryFound == 3, "\(form): \(score.boundaryMisses)")
        }
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

    @Test func theRuleTableCountsEachRulesVerdictsWorstFirst() throws {
        let lines = [
            #"{"id":"a","source":"s1","category":"migration","severity":"error","text":"Error Domain=NSCocoaErrorDomain Code=134140 \"x\""}"#,
            #"{"id":"b","source":"s2","category":"model","severity":"error","text":"Error Domain=NSCocoaErrorDomain Code=134140 \"y\""}"#,
            #"{"id":"c","source":"s3","category":"store","severity":"error","text":"nothing any rule knows"}"#,
        ]
        let records = try lines.enumerated().map { try CorpusEvaluation.record(Data($0.element.utf8), at: "t:\($0.offset)") }
        let table = CorpusEvaluation.renderByRule(try CorpusEvaluation(classifier: TestSupport.classifier).score(records))
        let rows = table.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        // The rule that read code 134140 decided two entries and got one; the entry no rule read is a miss of its own.
        #expect(rows.count == 2)
        let decided = rows.first { $0[0] != "no" }
        #expect(decided.map { Array($0[1...3]) } == ["2", "1", "2"])
        #expect(decided?.suffix(2) == ["model", "1"])
        #expect(rows.contains { $0.prefix(5) == ["no", "rule", "1", "0", "0"] })
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

/// The real crash-report corpus (Eval/crash, issue 24): each report's `expected` facts are what the report
/// itself states; the development part's figure is a floor. The holdout part is scored by hand, once
/// (`scripts/eval/crash-eval.py Eval/crash/holdout`).
@Suite struct CrashCorpusTests {
    static let dev = TestSupport.packageRoot.appendingPathComponent("Eval/crash/dev")

    /// The facts of `expected` that the entries of one report get wrong (scripts/eval/crash-eval.py's rules).
    static func wrongFacts(_ expected: [String: Any], _ entries: [ClassifiedEntry]) -> [String] {
        guard let first = entries.first else { return ["no entry"] }
        var wrong: [String] = []
        func field(_ name: String) -> String? { first.entry.field(name) }
        for (key, value) in expected {
            let want = "\(value)"
            let ok: Bool
            switch key {
            case "appName": ok = field("appName") == want
            case "exceptionType": ok = field("exceptionType") == want || field("signal") == want
            case "signal": ok = field("signal") == want
            case "terminationCode": ok = field("terminationCode")?.lowercased() == want.lowercased()
            case "crashedThread": ok = field("faultingThread") == want
            case "exceptionName": ok = field("exceptionName") == want
            case "exceptionReasonStart":
                let normal = { (s: String) in s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                ok = field("exceptionReason").map { normal($0).hasPrefix(String(normal(want).prefix(30))) } ?? false
            case "event": ok = field("resourceEvent") == want
            case "diagnosticType": ok = field("diagnosticType") == want
            case "diagnostics": ok = entries.count == Int(want)
            case "category": ok = first.classification?.category.id == want
            default: ok = true
            }
            if !ok { wrong.append(key) }
        }
        return wrong
    }

    @Test func developmentPartHoldsItsFigure() throws {
        let labels = try String(contentsOf: Self.dev.appendingPathComponent("labels.jsonl"), encoding: .utf8)
        var right = 0, total = 0, misses: [String] = []
        for line in labels.split(separator: "\n") where !line.isEmpty {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let file = try #require(record["file"] as? String)
            let bytes = [UInt8](try Data(contentsOf: Self.dev.appendingPathComponent(file)))
            let entries = (try? TestSupport.classifyRun(bytes, threads: 1, format: .crashReport).0.entries) ?? []
            let wrong = Self.wrongFacts(record["expected"] as? [String: Any] ?? [:], entries)
            total += 1
            if wrong.isEmpty { right += 1 } else { misses.append("\(file): \(wrong)") }
        }
        print("Eval/crash/dev: \(right) of \(total) reports fully right; misses: \(misses)")
        #expect(total >= 25)
        #expect(right >= 29, "\(misses)")
    }
}
