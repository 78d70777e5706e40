import CDLogCore
@_spi(Testing) import CDLogKit
import CSQLite
import Foundation
@testable import ReportKit
import StoreInspection
import Testing

extension ReportTestSupport {
    static func build(_ texts: [(String, String)], stores: [StoreFacts] = [], redact: Bool = false,
                      limits: ReportLimits = ReportLimits()) throws -> ReportDocument {
        var options = ReportBuilder.Options()
        options.redact = redact
        options.limits = limits
        return try ReportBuilder(classifier: classifier, catalog: catalog, options: options)
            .build(sources: texts.map { MemoryByteSource(name: $0.0, text: $0.1) }, stores: stores)
    }

    static func file(_ relative: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(relative), encoding: .utf8)
    }

    /// A Core Data-shaped store in WAL mode with about `megabytes` MiB of never-checkpointed WAL, made by
    /// real SQLite (C API) and frozen the way a kill leaves it: the files are copied while the writer
    /// still holds the database open. Returns the copied database path.
    static func makeSeedStore(in directory: String, megabytes: Int) throws -> String {
        let live = directory + "/live", frozen = directory + "/store"
        try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: frozen, withIntermediateDirectories: true)
        var db: OpaquePointer?
        guard sqlite3_open_v2(live + "/NotingPro.sqlite", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw ToolFailure("cannot create test store")
        }
        defer { sqlite3_close_v2(db) }
        let rows = megabytes * 250
        // The seed story's schema, as Samples/report/make-seed-store.sh builds it.
        let schema = try file("Samples/report/notingpro-schema.sql")
        let sql = """
        PRAGMA page_size=4096; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;
        \(schema)
        INSERT INTO Z_PRIMARYKEY VALUES (1,'Note',0,0);
        INSERT INTO Z_METADATA VALUES (1, '7D1E4C2A-5B3F-4A60-9C8D-1E2F3A4B5C6D', NULL);
        PRAGMA wal_checkpoint(TRUNCATE);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < \(rows))
          INSERT INTO ZNOTE (Z_ENT, Z_OPT, ZTITLE, ZBODY) SELECT 1, 1, 'note ' || i, printf('%.3900c', 'x') FROM n;
        """
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &error) == SQLITE_OK else {
            defer { sqlite3_free(error) }
            throw ToolFailure("SQL failed: \(error.map { String(cString: $0) } ?? "?")")
        }
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: live + "/NotingPro.sqlite" + suffix, toPath: frozen + "/NotingPro.sqlite" + suffix)
        }
        return frozen + "/NotingPro.sqlite"
    }

    static func tempDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "cdlog-report-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// docs/domain.md, "The launch-watchdog story" through the library: crash + console + a real store with a large pending WAL.
@Suite struct SeedStoryReportTests {
    @Test func headlineNamesCauseWALSizeMainThreadAndFix() throws {
        let dir = try ReportTestSupport.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try ReportTestSupport.makeSeedStore(in: dir, megabytes: 24)
        let stores = try ReportBuilder.inspectStores(at: store)
        let pending = try #require(stores.first?.figures["pendingBytes"])
        #expect(pending >= 16 * 1_048_576)
        let doc = try ReportTestSupport.build([
            ("console.log", try ReportTestSupport.file("Samples/report/notingpro-launch.log")),
            ("crash.ips", try ReportTestSupport.file("Tests/CDLogKitTests/Fixtures/crash/ips-watchdog-migration-wal-checkpoint-constructed.ips")),
        ], stores: stores)
        let headline = try #require(doc.headline)
        #expect(headline.id == "launch.watchdog.checkpoint-before-migration")
        #expect(headline.statement.contains("0x8badf00d"))
        #expect(headline.statement.contains("checkpointed \(Format.bytes(pending)) of WAL"))
        #expect(headline.statement.contains("main thread"))
        #expect(headline.statement.contains("before migrating"))
        #expect(headline.confidence == "high")
        #expect(headline.advice.contains { $0.contains("off the main thread") })
        #expect(headline.advice.contains { $0.contains("journal_size_limit") })
        // Evidence cites the crash lines, the log lines and the store.
        let crash = try #require(headline.evidence.first { $0.kind == .crash })
        #expect(crash.citations.first?.location == "crash.ips:1-402")
        let migration = try #require(headline.evidence.first { $0.condition == "migration" })
        #expect(migration.citations.map(\.location).contains("console.log:4-11"))
        #expect(headline.evidence.contains { $0.kind == .store && $0.storePath == store })
        // Environment from the crash header and the store.
        #expect(doc.environment.contains { $0.label == "Device" && $0.value == "iPad13,4" })
        #expect(doc.environment.contains { $0.label == "OS" && $0.value.hasPrefix("iPhone OS 17.5.1") })
        // Timeline sorted by time: the crash comes last.
        #expect(doc.timelineOrder == "time")
        #expect(doc.timeline.last?.category == .watchdog)
        let markdown = ReportOutputFormat.markdown.render(doc)
        #expect(markdown.contains("Blamed frames"))
        #expect(markdown.contains("-[NSSQLiteConnection _walCheckpointWithMode:]"))
    }

    @Test func withoutTheStoreTheStatementHasNoFigure() throws {
        let doc = try ReportTestSupport.build([
            ("crash.ips", try ReportTestSupport.file("Samples/crash/notingpro-launch-watchdog.ips")),
        ])
        let headline = try #require(doc.headline)
        #expect(headline.id == "launch.watchdog.checkpoint-before-migration")
        #expect(headline.statement.contains("checkpointed the WAL before migrating the store on the main thread"))
        #expect(headline.confidence == "medium")
    }
}

/// Each issue diagnosis on its realistic sample log.
@Suite struct SampleDiagnosisTests {
    @Test(arguments: [
        ("Samples/logs/no-icloud-account.log", "cloudkit.no-icloud-account", "no iCloud account"),
        ("Samples/logs/partial-failure-schema.log", "cloudkit.schema-not-deployed", "CD_servings"),
        ("Samples/logs/merge-conflicts.log", "merge.policy-missing", "NSErrorMergePolicy"),
        ("Samples/logs/incompatible-model.log", "migration.model-changed-without-migration", "134100"),
        ("Samples/logs/readonly-history.log", "history.readonly-without-tracking", "read-only"),
    ])
    func sampleGetsItsDiagnosis(_ path: String, _ id: String, _ phrase: String) throws {
        let doc = try ReportTestSupport.build([(path, try ReportTestSupport.file(path))])
        #expect(doc.headline?.id == id, "got \(doc.diagnoses.map(\.id))")
        #expect(doc.headline?.statement.contains(phrase) == true, "\(doc.headline?.statement ?? "-")")
        #expect(doc.headline?.evidence.allSatisfy { $0.citations.allSatisfy { $0.source == path } } == true)
    }

    @Test(arguments: ["Samples/logs/healthy-first-launch.log", "Samples/logs/healthy-steady-sync.log"])
    func healthyLogsHaveNoDiagnosis(_ path: String) throws {
        let doc = try ReportTestSupport.build([(path, try ReportTestSupport.file(path))])
        #expect(doc.diagnoses.isEmpty)
        #expect(doc.fallbackHeadline?.hasPrefix("No failure found") == true)
    }
}

@Suite struct ReportContentTests {
    static let repeated = (1...30).map { i in
        "2024-01-01 10:00:\(i < 10 ? "0" : "")\(i).000000+0000 App[1:2] CoreData: error: CoreData+CloudKit: -[PFCloudKitExporter exportIfNecessary](\(i)): Failed export: <CKError 0x60000\(i): \"Service Unavailable\" (6/2009); Retry after \(i).0 seconds>"
    }.joined(separator: "\n") + "\n"

    @Test func timelineFoldsDuplicatesWithCounts() throws {
        let doc = try ReportTestSupport.build([("a.log", Self.repeated)])
        #expect(doc.timeline.count == 1)
        #expect(doc.timeline[0].count == 30)
        #expect(doc.timeline[0].first.location == "a.log:1")
        #expect(doc.timeline[0].lastLocation == "a.log:30")
    }

    @Test func timelineIsCappedWithANote() throws {
        let text = (1...50).map { "CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=13411\($0 % 10) kind\(String(UnicodeScalar(97 + $0 % 26)!)) \"x\"" }.joined(separator: "\n")
        var limits = ReportLimits()
        limits.timelineRows = 3
        let doc = try ReportTestSupport.build([("a.log", text)], limits: limits)
        #expect(doc.timeline.count == 3)
        #expect(doc.timelineOmittedEvents > 0)
        #expect(ReportOutputFormat.markdown.render(doc).contains("more events"))
    }

    @Test func appendixGroupsUnclassifiedLinesIntoMaskedTemplates() throws {
        let text = """
        CoreData: debug: CoreData+CloudKit: -[PFCloudKitThing frobnicate:](101): <PFCloudKitThing: 0x600003a0c0a0> frobnicated 12 records in zone 3E4F5A6B-7C8D-4E9F-A0B1-C2D3E4F5A6B7 at /Users/alice/Library/x.sqlite
        CoreData: debug: CoreData+CloudKit: -[PFCloudKitThing frobnicate:](101): <PFCloudKitThing: 0x600003a0ffff> frobnicated 7 records in zone 11111111-2222-4333-8444-555555555555 at /Users/bob/Library/y.sqlite
        unrelated app line 42
        """
        let doc = try ReportTestSupport.build([("a.log", text)])
        #expect(doc.templates.count == 1)
        let t = try #require(doc.templates.first)
        #expect(t.count == 2)
        #expect(t.firstLocation == "a.log:1")
        #expect(t.lastLocation == "a.log:2")
        #expect(t.template == "CoreData: debug: CoreData+CloudKit: -[PFCloudKitThing frobnicate:](<n>): <PFCloudKitThing: <addr>> frobnicated <n> records in zone <uuid> at <path>")
        #expect(t.example.contains("0x600003a0c0a0"))
        #expect(doc.unclassifiedRelevant == 2)
    }

    /// Issue 22: the report builds only the unclassified entries that matter to it (Core Data / CloudKit
    /// words, a diagnosis's message literals, a coredata/cloudkit subsystem); the rest are counted.
    @Test func onlyRelevantUnclassifiedEntriesAreBuilt() throws {
        let catalog = ReportTestSupport.catalog
        let literals = try #require(catalog.unclassifiedLiterals(extra: ReportCollector.relevantLiterals + ReportCollector.relevantSubsystems))
        let words = Set(literals.map { String(decoding: $0, as: UTF8.self) })
        #expect(words.isSuperset(of: ["CoreData", "com.apple.coredata", "Partial Failure", "NSMergeConflict"]), "\(words.sorted())")
        let noise = (1...2000).map { "app line \($0) with nothing in it" }.joined(separator: "\n")
        let text = "CoreData: debug: CoreData+CloudKit: -[PFCloudKitThing frobnicate:](101): frobnicated 12 records\n" + noise + "\n"
        let doc = try ReportTestSupport.build([("a.log", text)])
        #expect(doc.entries == 2001)
        #expect(doc.unclassifiedRelevant == 1)
        #expect(doc.templates.count == 1)
    }

    @Test func maskerMasksRecordNames() {
        let masker = TemplateMasker()
        #expect(masker.mask("<CKRecordID: 0x2808c3e50; recordName=ABC-note-1, zoneID=x>") == "<CKRecordID: <addr>; recordName=<record>, zoneID=x>")
    }

    @Test func allThreeFormatsCarryTheSameHeadline() throws {
        let doc = try ReportTestSupport.build([("s.log", try ReportTestSupport.file("Samples/logs/partial-failure-schema.log"))])
        let statement = try #require(doc.headline?.statement)
        #expect(ReportOutputFormat.markdown.render(doc).contains(MarkdownRenderer.cell(statement)))
        #expect(ReportOutputFormat.html.render(doc).contains(HTMLRenderer.escape(statement)))
        let json = try JSONSerialization.jsonObject(with: Data(ReportOutputFormat.json.render(doc).utf8)) as! [String: Any]
        #expect((json["headline"] as? [String: Any])?["statement"] as? String == statement)
    }

    @Test func htmlIsSelfContained() throws {
        let doc = try ReportTestSupport.build([("s.log", Self.repeated)])
        let html = ReportOutputFormat.html.render(doc)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<figure class=\"chart\">"))
        #expect(!html.contains("http://"))
        #expect(!html.contains("https://"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
    }
}

@Suite struct RedactionTests {
    static let personal = """
    2024-01-01 10:00:01.000000+0000 App[1:2] CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _recoverFromPartialError:forStore:inMonitor:](2796): <NSCloudKitMirroringDelegate: 0x1>: Error recovery failed: {
        "<CKRecordID: 0x2808c3e50; recordName=Note-alice-7F3A, zoneID=com.apple.coredata.cloudkit.zone:_0123456789abcdef0123456789abcdef>" = "<CKError 0x2827e2f10: \\"Invalid Arguments\\" (12/2006); server message = \\"Cannot create or modify field 'CD_servings' in record 'CD_Recipe' in production schema\\"; container ID = \\"iCloud.com.alicesoft.Recipes\\">";
    }
    2024-01-01 10:00:02.000000+0000 App[1:2] CoreData: error: Store failed to load at file:///Users/alice/Library/Containers/com.alicesoft.Recipes/Data/Library/Application%20Support/Recipes.sqlite owner alice@example.com identifierForVendor=6F1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D
    2024-01-01 10:00:03.000000+0000 App[1:2] CoreData: error: CoreData+CloudKit: again for recordName=Note-alice-7F3A zone owner ownerName=_0123456789abcdef0123456789abcdef in iCloud.com.alicesoft.Recipes by alice@example.com at /var/mobile/Containers/Data/Application/5C1D2E3F-4A5B-4C6D-8E7F-901A2B3C4D5E/Library/x.sqlite
    """

    func render(_ format: ReportOutputFormat) throws -> String {
        format.render(try ReportTestSupport.build([("/Users/alice/Desktop/sync.log", Self.personal)], redact: true))
    }

    @Test(arguments: ReportOutputFormat.allCases)
    func personalDataIsReplaced(_ format: ReportOutputFormat) throws {
        let out = try render(format)
        for secret in ["/Users/alice/", "alice@example.com", "Note-alice-7F3A", "_0123456789abcdef0123456789abcdef", "iCloud.com.alicesoft", "6F1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D", "5C1D2E3F-4A5B-4C6D-8E7F-901A2B3C4D5E"] {
            #expect(!out.contains(secret), "\(format): \(secret) left in the output")
        }
    }

    @Test func sameValueSamePlaceholderAndTechnicalContentKept() throws {
        let markdown = try render(.markdown)
        #expect(markdown.contains("/Users/&lt;user-1&gt;/Desktop/sync.log") || markdown.contains("/Users/<user-1>/Desktop/sync.log"))
        let json = try render(.json)
        // The same record name, e-mail and container get the same placeholder everywhere.
        #expect(json.contains("recordName=<record-1>"))
        #expect(!json.contains("<record-2>"))
        #expect(json.contains("<email-1>"))
        #expect(!json.contains("<email-2>"))
        #expect(json.contains("iCloud.<container-1>"))
        #expect(json.contains("<owner-1>"))
        #expect(json.contains("<device-1>"))
        #expect(json.contains("<app-container-1>"))
        // Technical content stays.
        for kept in ["CD_servings", "CD_Recipe", "identifierForVendor=<device-1>", "production schema", "cloudkit.production-schema",
                     "Application%20Support/Recipes.sqlite", "NSCloudKitMirroringDelegate"] {
            #expect(json.contains(kept), "\(kept) was removed")
        }
        #expect(json.contains("\"redacted\":true"))
    }

    @Test func redactorIsConsistentAcrossCalls() {
        let r = Redactor()
        #expect(r.redact("mail bob@x.org") == "mail <email-1>")
        #expect(r.redact("mail carol@x.org and bob@x.org") == "mail <email-2> and <email-1>")
        #expect(r.redact("/home/bob/a and /Users/Shared/b") == "/home/<user-1>/a and /Users/Shared/b")
        #expect(r.redact("zoneID=com.apple.coredata.cloudkit.zone:__defaultOwner__") == "zoneID=com.apple.coredata.cloudkit.zone:__defaultOwner__")
        #expect(r.redact("3E4F5A6B-7C8D:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError") == "<record-1>:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError")
    }
}

@Suite struct DeterminismTests {
    @Test(arguments: ReportOutputFormat.allCases)
    func sameInputsGiveIdenticalOutput(_ format: ReportOutputFormat) throws {
        let inputs = [
            ("a.log", try ReportTestSupport.file("Samples/logs/no-icloud-account.log")),
            ("b.log", try ReportTestSupport.file("Samples/logs/merge-conflicts.log")),
            ("c.ips", try ReportTestSupport.file("Samples/crash/notingpro-launch-watchdog.ips")),
        ]
        let stores = [StoreFacts(path: "x.sqlite", figures: ["pendingBytes": 50_000_000, "pendingFrames": 12_000])]
        let first = format.render(try ReportTestSupport.build(inputs, stores: stores, redact: true))
        for _ in 0..<3 {
            #expect(format.render(try ReportTestSupport.build(inputs, stores: stores, redact: true)) == first)
        }
    }
}

/// Issue 26: with no diagnosis, the headline accounts for everything the report holds, store findings
/// included (before: "No failure found … no store figure matched" above a store section with an error).
@Suite struct FallbackHeadlineTests {
    @Test func aStoreFindingReachesTheHeadline() throws {
        let dir = try ReportTestSupport.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try ReportTestSupport.makeSeedStore(in: dir, megabytes: 1)
        try FileManager.default.removeItem(atPath: store + "-wal")  // copied without its -wal
        let stores = try ReportBuilder.inspectStores(at: store)
        let worst = try #require(stores.first?.report?.findings.max { $0.severity < $1.severity })
        #expect(worst.severity >= .warning)
        let quiet = try ReportTestSupport.build([("quiet.log", "2024-01-01 10:00:00.000000+0000 App[1:2] hello\n")], stores: stores)
        #expect(quiet.diagnoses.isEmpty)
        let headline = try #require(quiet.fallbackHeadline)
        #expect(headline.contains(worst.title) && headline.contains(worst.id), "\(headline)")
        #expect(!headline.hasPrefix("No failure found"))
        #expect(quiet.fallbackAdvice == worst.advice)
        // A log event more severe than the store's finding comes first, the finding after it.
        let loud = try ReportTestSupport.build([("loud.log", "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'This NSPersistentStoreCoordinator has no persistent stores (unknown).  It cannot perform a save operation.'\n")], stores: stores)
        if loud.diagnoses.isEmpty, let line = loud.fallbackHeadline {
            #expect(line.contains("the most severe event") && line.contains(worst.id), "\(line)")
        }
    }
}

/// Issue 24: the thread that crashed (when it is not the main thread) and the exception's own backtrace
/// are in every report format, before the main thread.
@Suite struct CrashedThreadReportTests {
    static let report = """
    Incident Identifier: 1B2C3D4E-0000-0000-0000-000000000001
    Hardware Model:      iPhone10,4
    Process:         MyApp [123]
    Version:         1.0 (1)
    OS Version:      iOS 13.3 (17C54)

    Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
    Exception Codes: KERN_INVALID_ADDRESS at 0x10
    Crashed Thread:  2

    Thread 0:
    0   libsystem_kernel.dylib  0x00000001a2b3c4d0 mach_msg_trap + 8

    Thread 2 name:  Dispatch queue: com.example.sync
    Thread 2 Crashed:
    0   CoreData  0x0000000191a2b3c4 _PFObjectIDFastHash64 + 36
    1   MyApp     0x0000000100a2c3f4 0x100a00000 + 181236
    """

    @Test func crashedThreadInEveryFormat() throws {
        let doc = try ReportTestSupport.build([("bg.crash", Self.report)])
        let crash = try #require(doc.crashes.first)
        #expect(crash.crashedThread?.hasPrefix("2") == true)
        #expect(crash.crashedThreadFrames.first == "CoreData  _PFObjectIDFastHash64")
        for format in ReportOutputFormat.allCases {
            let out = format.render(doc)
            #expect(out.contains("_PFObjectIDFastHash64"), "\(format)")
            #expect(out.contains(format == .json ? "\"crashedThread\"" : "Crashed thread 2"), "\(format)")
        }
    }
}

/// Issue 26: with several crash reports, the Environment comes from the report the headline cites, and
/// the others are listed (before: the first input's app under another app's headline).
@Suite struct SeveralCrashReportsTests {
    @Test func environmentFollowsTheHeadline() throws {
        let doc = try ReportTestSupport.build([
            ("first.crash", try ReportTestSupport.file("Samples/crash/dead10cc-sqlite.crash")),
            ("second.ips", try ReportTestSupport.file("Samples/crash/jetsam-per-process-limit.ips")),
        ])
        let headline = try #require(doc.headline)
        let cited = try #require(headline.evidence.flatMap(\.citations).first { $0.isCrash })
        let app = try #require(cited.field("appName"))
        #expect(doc.environment.first { $0.label == "App" }?.value == app)
        let others = try #require(doc.environment.first { $0.label == "Other crash reports" })
        #expect(others.value.contains(cited.source == "first.crash" ? "second.ips" : "first.crash"))
    }
}

/// Issue 26: the confidence line names the supporting signals that were not seen ("0 of 1 supporting
/// signals" read as no evidence at all).
@Suite struct ConfidenceWordingTests {
    @Test func missingSupportIsNamed() throws {
        let doc = try ReportTestSupport.build([("j.ips", try ReportTestSupport.file("Samples/crash/jetsam-per-process-limit.ips"))])
        let d = try #require(doc.headline)
        #expect(d.confidence == "medium")
        #expect(d.missingSupport == ["Core Data memory warnings or large fetches in the log"])
        let markdown = ReportOutputFormat.markdown.render(doc)
        #expect(markdown.contains("confidence medium: the required evidence holds; not seen: Core Data memory warnings or large fetches in the log"))
        #expect(!markdown.contains("supporting signals"))
        #expect(ReportOutputFormat.json.render(doc).contains("\"missingSupport\":[\"Core Data memory warnings or large fetches in the log\"]"))
    }
}

/// Issue 26: cited lines that the unified log redacted (`<private>`) get a note on how to capture the
/// values, in every format; a report without them has none.
@Suite struct PrivateDataNoteTests {
    @Test func privateValuesAreExplained() throws {
        let line = "2024-01-01 10:00:01.000000+0000 App[1:2] CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _recoverFromPartialError:forStore:inMonitor:](2796): <private>: Error recovery failed: <private>\n"
        let doc = try ReportTestSupport.build([("private.log", line)])
        let note = try #require(doc.privateDataNote)
        #expect(note.contains("OSLogPreferences") && note.contains("com.apple.coredata"))
        for format in ReportOutputFormat.allCases {
            #expect(format.render(doc).contains("OSLogPreferences"), "\(format)")
        }
        let plain = try ReportTestSupport.build([("plain.log", line.replacingOccurrences(of: "<private>", with: "0x1"))])
        #expect(plain.privateDataNote == nil)
    }
}

/// Issue 26: "What the evidence cannot show": each gap appears when, and only when, the evidence lacks it.
@Suite struct EvidenceGapTests {
    static func ids(_ doc: ReportDocument) -> [String] { doc.evidenceGaps.map(\.id) }

    @Test func aLogWithOnlyErrorsAndNoStore() throws {
        let doc = try ReportTestSupport.build([("app.log", "CoreData: error: (14) I/O error for database at /x/Model.sqlite.  SQLite error code:14, 'unable to open database file'\n")])
        #expect(Self.ids(doc).contains("no-store"))
        #expect(Self.ids(doc).contains("no-debug-output"))
        #expect(MarkdownRenderer.render(doc).contains("## What the evidence cannot show"))
        #expect(JSONReportRenderer.render(doc).contains("\"evidenceGaps\":[{\"id\":\"no-store\""))
        #expect(HTMLRenderer.render(doc).contains("<h2>What the evidence cannot show</h2>"))
    }

    @Test func debugOutputAndATimeZoneLessCapture() throws {
        let sync = try ReportTestSupport.file("Samples/logs/healthy-steady-sync.log")
        let doc = try ReportTestSupport.build([("sync.log", sync)])
        #expect(!Self.ids(doc).contains("no-debug-output"), "the sample holds the container's debug lines")
        let compact = "Timestamp               Ty Process[PID:TID]\n2024-05-02 08:11:49.904 E  Notes[812:1a2b] [com.apple.coredata:error] CoreData: error: (14) I/O error for database at /x/Model.sqlite.\n"
        let compactDoc = try ReportTestSupport.build([("compact.log", compact)])
        #expect(Self.ids(compactDoc).contains("no-time-zone"), "\(Self.ids(compactDoc))")
    }

    @Test func aCrashOutsideTheLogsWindowAndAStoreWithoutItsWAL() throws {
        let doc = try ReportTestSupport.build([
            ("app.log", try ReportTestSupport.file("Samples/logs/migration-failure.log")),
            ("old.crash", try ReportTestSupport.file("Samples/crash/dead10cc-sqlite.crash")),
        ])
        let gap = try #require(doc.evidenceGaps.first { $0.id == "crash-outside-logs" })
        #expect(gap.gap.contains("old.crash") && gap.gap.contains("2017-05-11"))
        // A store in WAL mode copied without its -wal.
        let dir = try ReportTestSupport.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try ReportTestSupport.makeSeedStore(in: dir, megabytes: 1)
        try FileManager.default.removeItem(atPath: store + "-wal")
        try? FileManager.default.removeItem(atPath: store + "-shm")
        let withStore = try ReportTestSupport.build([("app.log", "CoreData: error: (14) I/O error\n")], stores: try ReportBuilder.inspectStores(at: store))
        #expect(Self.ids(withStore).contains("store-without-wal"), "\(Self.ids(withStore))")
        #expect(!Self.ids(withStore).contains("no-store"))
    }
}

/// Issue 26: where the unified log redacted the cited lines, the report names the codes still readable in them.
@Suite struct RedactedCodesTests {
    @Test func codesThatSurvivePrivateAreNamed() throws {
        let line = #"CoreData: error: CoreData+CloudKit: -[PFCloudKitExporter exportOperationFinished:withSavedRecords:deletedRecordIDs:operationError:](301): <private> - Export failed with error: <CKError 0x600000c9e2b0: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: { <private> = <CKError 0x600000c9e400: "Server Rejected Request" (15/2001); server message = "<private>"> }>"#
        let doc = try ReportTestSupport.build([("sync.log", line + "\n")])
        let note = try #require(doc.privateDataNote)
        #expect(note.contains("Codes still readable in those lines: CKErrorDomain 2 (partialFailure)"), "\(note)")
        #expect(note.contains("15 Server Rejected Request"))
        // Without <private> there is no note.
        let plain = try ReportTestSupport.build([("sync.log", line.replacingOccurrences(of: "<private>", with: "rec-1") + "\n")])
        #expect(plain.privateDataNote == nil)
    }
}
