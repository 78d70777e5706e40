import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing

/// Round 3 of issue 21 (docs/recognition.md): SQLite's printed sentences as code data, the activity
/// fallback, terminations that are never quiet, and the Crashlytics exception shape in the splitter.
@Suite struct SentenceAndActivityTests {
    static let codes = TestSupport.classifier.ruleSet.codes!

    @Test func everySentenceOfTheTablesFindsItsCode() throws {
        let rule = try #require(TestSupport.classifier.ruleSet.rules.first { $0.id == "code.message" })
        let scratch = TestSupport.classifier.makeScratch()
        var count = 0
        for entry in Self.codes.entries {
            for sentence in entry.messages {
                count += 1
                // SQLite prints `no such module: fts5`; the gate wants its colon (a compiler's `no such module 'X'` is none).
                let text = "Sync cursor not saved: \(sentence)\(sentence == "no such module" ? ": fts5" : "") (retrying)"
                // The rule's pattern and the rows' sentences are kept in step.
                #expect(TestSupport.classifier.ruleMatches(rule, text: text, scratch: scratch), "\(sentence)")
                var bytes = Array(text.utf8)
                let mentions = bytes.withUnsafeMutableBytes { Self.codes.recognise(UnsafeRawBufferPointer($0), scratch: scratch.matchScratch) }
                #expect(mentions.last?.code == entry.code && mentions.last?.domain == entry.domain, "\(sentence) → \(mentions.map(\.code))")
            }
        }
        #expect(count >= 25)
        // The longest sentence wins; a number of the same domain wins over a sentence.
        #expect(TestSupport.classify("UNIQUE constraint failed: users.email")?.rule.id == "code.sqlite.2067")
        var bytes = Array("Failed: (6922) SQLite error code:6922, 'disk I/O error'".utf8)
        let scratch2 = TestSupport.classifier.makeScratch()
        let chain = bytes.withUnsafeMutableBytes { Self.codes.recognise(UnsafeRawBufferPointer($0), scratch: scratch2.matchScratch) }
        #expect(chain.map(\.code) == [6922], "\(chain.map(\.code))")
        // Case as printed: prose that only resembles a sentence is not a code.
        #expect(TestSupport.classify("Database Is Locked: the settings screen") == nil)
    }

    @Test func anEntryThatReportsNoFailureGetsAnActivityFinding() throws {
        let cases: [(String, String, Severity)] = [
            ("[CDECloudManager importNewDataFilesWithCompletion:] line 159: Transferring new data files from cloud to event store", "activity.sync", .info),
            ("UbiquityStoreManager: Successfully loaded local store.", "activity.init", .info),
            // Legacy iCloud's switchboard choosing local storage while the store is set up (round 50).
            ("2015-01-17 16:48:58.408 Notes[1940:83625] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~C0D80D01:NotesStore", "activity.init", .info),
            ("NSConcreteNotification 0x280070ff0 {name = NSPersistentStoreRemoteChangeNotification; userInfo = { historyToken = \"<NSPersistentHistoryToken - 3>\"; }}", "activity.history", .debug),
            ("2015-04-01 12:01:03:893 App[3677:2707] YapDatabase: Checkpointing up to snapshot 12", "activity.store", .info),
            // CKSyncEngine's events, as a library on SQLite logs them: sync, not SQLite activity.
            ("SQLiteData (private.db) nextRecordZoneChangeBatch: scheduled", "activity.sync", .info),
            // Legacy iCloud Core Data's bookkeeping, named by its classes alone.
            ("-[_PFUbiquityRecordsExporter managedObjectContextDidSave:](438): CoreData: Ubiquity:  Stack Changes:\nInserted: {(\n    <PFUbiquityTransactionEntry: 0x20be2ca0>", "activity.sync", .info),
            // A wrapper opening its database by path or by its class's name is loading a store.
            ("[12/12 10:29:22:583][ 0x1c4260440]Type-Database , Message-Open /var/mobile/Containers/Data/Application/X/Documents/app.cblite2/db.sqlite3 with SQLite (flags=6(null))", "activity.init", .info),
            ("[12/12 10:29:22:584][ 0x1c4260440]Type-Database , Message-Opening CBLDatabase[<0x1d01455f0>app]", "activity.init", .info),
            // Its path may hold blanks (`Application Support`), and ForestDB's file is `db.forest` (round 130).
            ("[05/22 10:58:21:676] [T 0x170663040] Type-Database , Message-Open /var/mobile/Containers/Data/Application/X/Library/Application Support/CouchbaseLite/app.cblite2/db.forest with ForestDB (flags=5(null))", "activity.init", .info),
            // Couchbase Lite 1.x's verbose replicator trace under its time-of-day bar is `debug` (round 130).
            ("03:41:17.971‖ SyncVerbose: CBL_Pusher[http://db.example.com:4984/app/]: POST _revs_diff", "activity.sync", .debug),
            // MagicalRecord setting up its stack's contexts.
            ("2015-08-21 16:27:46.980 App[358:37447] Created new private queue context: <NSManagedObjectContext: 0x16590bf0>", "activity.init", .info),
            ("2015-08-21 16:27:46.987 App[358:37447] Set default context: <NSManagedObjectContext: 0x16662570>", "activity.init", .info),
            // An app's own narration of setting its stack up, SwiftData's or Core Data's.
            ("🔄 Creating SwiftData ModelContainer...", "activity.init", .info),
            ("✅ Using App Group container for SwiftData store", "activity.init", .info),
            ("Core Data stack initialized", "activity.init", .info),
            ("[2024-08-20, 23:32] [CoreDataHandler] CoreData store initialized", "activity.init", .info),
            // A library's own debug or trace level word makes its routine activity `debug`.
            ("- [debug] Initializing SQLitePlugin", "activity.init", .debug),
            ("flutter: Realm log message: '(category: Realm.Storage.Transaction, level: LogLevel.trace, message: DB: 48001 Thread 0x16d527000: acquire writemutex)'", "activity.store", .debug),
            // A database's schema version checked at launch is a migration's progress, not SQLite's.
            ("INFO  2019-09-16T19:35:55.871Z updateSchema: Current user_version: 18; Most recent db schema: 18; SQLite version: 3.28.0;", "activity.migration", .info),
            // Realm Sync's client reaching its server is the network's part; its protocol steps are sync, each message
            // sent or received logged at the client's debug level.
            ("2017-01-04 06:27:20.719 Banjo[3293:30756] Sync: Connection[1]: Connecting to endpoint '127.0.0.1:9080' (1/1)", "activity.network", .debug),
            ("2017-01-04 06:27:20.721 Banjo[3293:30756] Sync: Connection[1]: Sending: CLIENT(protocol_version=15, client_info_size=2)", "activity.sync", .debug),
            ("Sync: Connection[3]: Session[1]: Received: IDENT(server_file_ident=6662178433386472867, client_file_ident=2)", "activity.sync", .debug),
        ]
        for (text, rule, severity) in cases {
            let found = TestSupport.classify(text)
            #expect(found?.rule.id == rule && found?.severity == severity, "\(text) → \(found?.rule.id ?? "nil")")
        }
        // A failure goes to the error fallback, with the library named as a persistence marker.
        let failure = TestSupport.classify("2013-10-18 00:10:37.331 App[3169:580b] StoreManager: Cannot load cloud store: User is not logged into iCloud.")
        #expect(failure?.rule.id == "fallback.account" && failure?.severity == .error)
        // A database that cannot start is a stack that was not set up.
        let startup = TestSupport.classify("Database startup error:\n\nError: Error while decrypting the ciphertext provided to safeStorage.decryptString.\n    at getSQLKey (app/main.js:1294:39)")
        #expect(startup?.rule.id == "fallback.init", "\(startup?.rule.id ?? "nil")")
        // The same failure followed by the app's recovery is a warning of its own rule.
        let recovered = TestSupport.classify("2013-10-18 00:10:37.331 App[3169:580b] StoreManager: Cannot load cloud store: User is not logged into iCloud.  Falling back to local store.")
        #expect(recovered?.rule.id == "account.no-account.local-fallback" && recovered?.severity == .warning)
        // Words no activity marker knows leave the entry unclassified; a line without the vocabulary is never read.
        #expect(TestSupport.classify("CoreStore: hello") == nil)
        #expect(TestSupport.classify("Loaded the settings store of the app") == nil)
    }

    @Test func theActivityLoaderKeepsItsPromises() throws {
        let above = "markers:\n  - {pattern: 'x', category: store, title: t}\nactivity:\n  - {pattern: 'y', category: sync, severity: warning, title: t}\n"
        #expect(throws: RuleFileError.self) { _ = try CodeCatalog.load(files: [("Rules/tables/fallback.yaml", above)]) }
        let mixed = "markers:\n  - {pattern: 'x', category: store, title: t}\nactivity:\n  - {pattern: 'y', category: sync, severity: debug, title: t}\n  - {pattern: 'z', category: sync, severity: info, title: t}\n"
        #expect(throws: RuleFileError.self) { _ = try CodeCatalog.load(files: [("Rules/tables/fallback.yaml", mixed)]) }
        let good = "markers:\n  - {pattern: 'x', category: store, title: t}\nactivity:\n  - {pattern: 'y', category: sync, severity: debug, title: t}\n"
        #expect(try CodeCatalog.load(files: [("Rules/tables/fallback.yaml", good)]).activityMarkers.count == 1)
        // The rows of one category make one rule: a second title would never be shown.
        let twoTitles = "markers:\n  - {pattern: 'x', category: init, title: a}\n  - {pattern: 'y', category: init, title: b}\n"
        #expect(throws: RuleFileError.self) { _ = try CodeCatalog.load(files: [("Rules/tables/fallback.yaml", twoTitles)]) }
        let activityTitles = "markers:\n  - {pattern: 'x', category: store, title: t}\nactivity:\n  - {pattern: 'y', category: init, severity: info, title: a}\n  - {pattern: 'z', category: init, severity: info, title: b}\n"
        #expect(throws: RuleFileError.self) { _ = try CodeCatalog.load(files: [("Rules/tables/fallback.yaml", activityTitles)]) }
    }

    @Test func aTerminationIsNeverQuietAndACrashOnAContextQueueIsConcurrency() throws {
        for text in ["Swift/NativeDictionary.swift:792: Fatal error: Duplicate values for key: 'Produce'",
                     "Thread 1: signal SIGABRT",
                     "Crashed: com.apple.main-thread\n0  libswiftCore.dylib  0x1a35e0 swift_retain + 202"] {
            let found = TestSupport.classify(text)
            #expect(found?.category == .crash && found?.severity == .fatal, "\(text)")
        }
        // The runtime's unrecognized-selector line alone: the exception it raises ends the app unless caught (both labellers
        // of rounds 22 to 103 say `fatal` for 18 such lines, `error` for 7); before its own termination entry it is
        // `error` (ClassifyRunTests.aLineThatAnnouncesItsTerminationIsAnError).
        #expect(TestSupport.classify("-[__NSCFNumber length]: unrecognized selector sent to instance 0xb000000000000001")?.severity == .fatal)
        // A compiler's fatal error is a build failure.
        #expect(TestSupport.classify("Bridging-Header.h:1:9: fatal error: 'SQLCipher/sqlite3.h' file not found")?.severity ?? .debug < .fatal)
        let context = TestSupport.classify("Thread : Crashed: NSManagedObjectContext 0x1741ee500\n0  libobjc.A.dylib  0x19737bbd0 objc_msgSend + 16\n1  CoreData  0x185817c10 -[NSManagedObjectContext save:] + 56")
        #expect(context?.rule.id == "coredata.concurrency.crash-in-context")
    }

    @Test func crashlyticsNameAndReasonLinesAreOneEntry() throws {
        let text = """
        Fatal Exception: NSInternalInconsistencyException
        This NSPersistentStoreCoordinator has no persistent stores (unknown). It cannot perform a save operation.
        Terminating app due to uncaught exception
        'NSUnknownKeyException', reason: '[<Account 0x1748f400> setValue:forUndefinedKey:]
        : the entity Account is not key value coding-compliant for the key "lastModified".'
        Sync finished.
        """
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 3, 6], "\(entries.map(\.line))")
        #expect(TestSupport.classify(entries[0].message)?.rule.id == "exception.no-persistent-stores")
        // A name line followed by another name line stays two entries.
        #expect(try TestSupport.entries("Fatal Exception: NSRangeException\nFatal Exception: NSGenericException").count == 2)
        // Round 48: the reason indented by a space, as a comment or a page quoted it, is still the reason.
        let indented = try TestSupport.entries("Fatal Exception: NSInternalInconsistencyException\n This NSPersistentStoreCoordinator has no persistent stores (device locked). It cannot perform a save operation.")
        #expect(indented.count == 1 && TestSupport.classify(indented[0].message)?.category == .initialization, "\(indented.count)")
    }

    /// Rounds 60 and 61 (Eval/dev/SP–SW-retired.jsonl), read after retirement: forms the catalog did not know.
    @Test func roundsSixtyAndSixtyOneForms() throws {
        let cases: [(String, String, CDLogCore.Category, Severity)] = [
            ("RLMException: open() failed: too many open files", "exception.realm-file-access", .store, .error),
            ("Crash of other process detected, session restart required", "exception.realm-file-access", .store, .error),
            ("*** -[NSConcreteFileHandle writeData:]: No space left on device", "crash.logged-exception", .store, .error),
            ("Exception Codes: 0x000000008badf00d\nException Note:  SIMULATED (this is NOT a crash)", "watchdog.kill", .watchdog, .fatal),
            ("Error rate mitigation activated due to high rate of failing operations. CloudKit will slow failing operations.", "cloudkit.rate-limited", .cloudkit, .warning),
            ("2023-01-12 08:50:00,518 :: ERROR :: icloudpy.base :: base.py :: 186 :: Bad Request (400)", "cloudkit.icloud-web-service-error", .cloudkit, .error),
            ("2024-02-29 07:57:13,333 :: ERROR :: icloudpy.base :: base.py :: 186 :: Authentication required for Account. (500)", "account.icloud-web-sign-in", .account, .error),
        ]
        for (text, rule, category, severity) in cases {
            let found = TestSupport.classify(text)
            #expect(found?.rule.id == rule && found?.category == category && found?.severity == severity,
                    "\(text) → \(found?.rule.id ?? "nil") \(String(describing: found?.category)) \(String(describing: found?.severity))")
        }
        // A server's document database (CouchDB, Cloudant) reached from a test is not a store on the device.
        #expect(TestSupport.classify("/Users/ci/Kitura-CouchDB/Tests/CouchDBTests/DBTests.swift:53: error: -[CouchDBTests.DBTests testDB] : failed - DB creation error: 412 Error: file_exists, reason: The database could not be created, the file already exists.") == nil)
    }
}
