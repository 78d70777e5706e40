import CDLogCore
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports
import Foundation
import Testing

/// The area table (Rules/tables/areas.yaml): a generic finding moves to the area its entry names, the
/// nearest frame decides, specific rules are never moved, and a bad table file fails with a location.
@Suite struct AreaTableTests {
    static let codes = TestSupport.classifier.ruleSet.codes!

    @Test func everyAreaMovesItsExample() throws {
        #expect(Self.codes.areas.count >= 10)
        for area in Self.codes.areas {
            let result = TestSupport.classify(area.example)
            #expect(result?.category == area.category, "`\(area.name)`: \(result?.rule.id ?? "nil") → \(result?.category.id ?? "nil")")
            #expect(result?.fields.first { $0.name == "area" }?.value == area.name, "`\(area.name)`: area field \(String(describing: result?.fields))")
            // The rule stays; its advice is led by the area's.
            #expect(result?.rule.advice?.hasPrefix(area.advice) ?? false, "`\(area.name)`: advice")
        }
    }

    /// A .NET app's SQLite library that did not load, in the forms round 32 met (Eval/dev/FD-retired.jsonl):
    /// the exception's name alone on its line, a type name in another case, EF Core's provider.
    @Test func aDatabaseLibraryThatCannotLoadIsInitInEveryForm() throws {
        for text in ["System.DllNotFoundException\n  Message=e_sqlite3",
                     "The type initializer for 'Microsoft.Data.SQlite.SqliteConnection' threw an exception",
                     "The type initializer for Microsoft.EntityFrameworkCore.Sqlite.Query.Internal.SqliteCharMethodTranslator threw an exception"] {
            let result = TestSupport.classify(text)
            #expect(result?.category == .initialization, "\(text) → \(result?.rule.id ?? "nil")")
            #expect(result?.fields.first { $0.name == "area" }?.value == "the database library itself cannot be loaded", "\(text)")
        }
    }

    /// SwiftData's own trap sentences (from its string table) for a model whose store or snapshot is gone are
    /// context misuse; those about a property's primitive storage or the model's type are the model's.
    @Test func swiftDataTrapsTakeTheirAreaFromSwiftDatasOwnSentences() throws {
        let gone = try #require(TestSupport.classify("SwiftData/ModelContext.swift:3253: Fatal error: data store not found for:PersistentIdentifier(id: SwiftData.PersistentIdentifier.ID(url: x-coredata://5A1B/Item/p3)) in: <ModelContainer>"))
        #expect(gone.category == .concurrency && gone.severity == .fatal, "\(gone.rule.id)")
        let primitive = try #require(TestSupport.classify("SwiftData/BackingData.swift:412: Fatal error: Unable to get primitive toMany for \\Folder.items"))
        #expect(primitive.category == .model, "\(primitive.rule.id)")
        // A trap that names neither stays a crash.
        #expect(TestSupport.classify("SwiftData/ModelContext.swift:3253: Fatal error: SwiftData isn't prepared for custom metadata implementations yet. Please file a bug report.")?.category == .crash)
    }

    @Test func theListingShowsTheTableSizes() throws {
        let listing = RuleCatalogListing.text(TestSupport.classifier.ruleSet)
        #expect(listing.contains("area table: \(Self.codes.areas.count) areas"), "\(listing.suffix(600))")
        #expect(listing.contains("NSSQLiteErrorDomain") && listing.contains("exception table: "))
    }

    @Test func everyMovableIDNamesARule() throws {
        let ids = Set(TestSupport.classifier.rankedRules.map(\.id) + TestSupport.classifier.stackRules.map(\.id) + Self.codes.resolvedRules.map(\.id))
        for area in Self.codes.areas {
            for id in area.moves {
                let known = id.hasSuffix("*") ? ids.contains { $0.hasPrefix(id.dropLast()) } : ids.contains(id)
                #expect(known, "area `\(area.name)` moves `\(id)`, which names no rule")
            }
        }
    }

    @Test func theFrameNearestTheTopDecides() throws {
        // A fault-handler frame above the set-up frames: the crash is in the fault, not in the set-up.
        let faultFirst = "Fatal Exception: NSInternalInconsistencyException\n0  CoreFoundation  0x1 __exceptionPreprocess\n1  libobjc.A.dylib  0x2 objc_exception_throw\n2  CoreData  0x3 _PFFaultHandlerLookupRow + 24\n3  App  0x4 -[Stack persistentContainer] + 80"
        #expect(TestSupport.classify(faultFirst)?.category == .concurrency)
        let setUpFirst = "Fatal Exception: NSInternalInconsistencyException\n0  CoreFoundation  0x1 __exceptionPreprocess\n1  libobjc.A.dylib  0x2 objc_exception_throw\n2  App  0x4 -[Stack persistentContainer] + 80\n3  CoreData  0x3 _PFFaultHandlerLookupRow + 24"
        #expect(TestSupport.classify(setUpFirst)?.category == .initialization)
        // The fatal wrapper still raises the moved finding.
        let trap = "Fatal error: 'try!' expression unexpectedly raised an error: Error Domain=NSCocoaErrorDomain Code=512 \"x\" UserInfo={reason=Failed to create file} while loadPersistentStores ran"
        let moved = TestSupport.classify(trap)
        #expect(moved?.category == .initialization && moved?.severity == .fatal, "\(String(describing: moved?.rule.id))")
    }

    /// Frames as a crash reporter that does not demangle prints them, and a database library's migrator.
    @Test func mangledGettersAndRealmsMigratorNameTheirArea() throws {
        let mangled = "Crashed: com.example.cache\n0  libsystem_kernel.dylib  0x1 __pthread_kill + 8\n1  libsystem_c.dylib  0x2 abort + 140\n"
            + "2  CacheKit  0x3 $S8CacheKit12CacheManagerC26persistentStoreCoordinatorSo012NSPersistentgH0CvgAFyXEfU_ + 1678\n"
            + "3  CacheKit  0x4 $s8CacheKit5StackC19persistentContainerSo012NSPersistentF0Cvg + 40"
        let setUp = try #require(TestSupport.classify(mangled))
        #expect(setUp.category == .initialization, "\(setUp.rule.id)")
        // `vg` is a getter: the same name in another function's symbol names no set-up.
        let caller = "Crashed: com.example.cache\n0  libsystem_c.dylib  0x2 abort + 140\n1  CacheKit  0x3 $s8CacheKit5StackC17resetCoordinatoryyF + 40"
        #expect(TestSupport.classify(caller)?.category != .initialization)
        let realm = "Thread 0 Crashed:\n0   libobjc.A.dylib  0x0000000182b600b0 objc_retain + 16\n"
            + "1   Realm  0x0000000100db8ab4 -[RLMSchema setObjectSchema:] (RLMSchema.mm:100)\n"
            + "2   Realm  0x0000000100d49080 -[RLMMigration initWithRealm:key:error:] (RLMMigration.mm:62)"
        #expect(TestSupport.classify(realm)?.category == .migration)
        let upgrade = "Crashed: com.apple.main-thread\n0  libsystem_kernel.dylib  0x1 __pthread_kill + 8\n1  libsystem_c.dylib  0x2 abort + 140\n"
            + "2  Realm  0x3 realm::util::terminate(char const*, char const*, long) + 12\n3  Realm  0x4 realm::Transaction::upgrade_file_format(int) + 40"
        #expect(TestSupport.classify(upgrade)?.category == .migration)
    }

    @Test func whereACrashSurfacedYieldsToWhatTheCodeWasDoing() throws {
        // SQLite's frames on top of a migration: the migration names the area, SQLite only where it surfaced.
        let migrating = "Crashed: com.example.migration\n0  libsqlite3.dylib  0x2 sqlite3_step + 40\n1  App  0x4 Store.migrate() + 12\n2  App  0x5 NSMigrationManager.migrateStore(from:) + 80"
        let migration = TestSupport.classify(migrating)
        #expect(migration?.category == .migration && migration?.severity == .fatal, "\(String(describing: migration?.rule.id))")
        // SQLite's frames alone: the store.
        let sqliteOnly = "Crashed: com.example.db\n0  libsqlite3.dylib  0x2 sqlite3_step + 40\n1  App  0x4 -[Database run:] + 80"
        #expect(TestSupport.classify(sqliteOnly)?.category == .store)
        // A Swift assertion whose source file is the app's SQLite layer; another file's assertion stays a crash.
        let layer = TestSupport.classify("Assertion failed: file /src/telegram-ios/submodules/Postbox/Sources/SqliteValueBox.swift, line 597")
        #expect(layer?.category == .store && layer?.severity == .fatal, "\(String(describing: layer?.rule.id))")
        #expect(TestSupport.classify("Assertion failed: file /src/App/Sources/ChatListView.swift, line 597")?.category == .crash)
        // The allocator above SQLite (`yields: last`): heap corruption noticed inside SQLite is SQLite's area,
        // as labellers read such stacks (4 of the 5 development records); under code no other row names,
        // the allocator's area keeps it the app's crash.
        let heap = "Crashed: com.example.db\n0  libsystem_c.dylib  0x1 abort + 104\n1  libsystem_malloc.dylib  0x2 nano_free + 188\n2  libsqlite3.dylib  0x3 sqlite3_finalize + 40"
        let corrupted = TestSupport.classify(heap)
        #expect(corrupted?.category == .store && corrupted?.fields.first { $0.name == "area" }?.value == "SQLite at work (libsqlite3 or SQLite wrapper frames)")
        let appHeap = "Crashed: com.example.work\n0  libsystem_c.dylib  0x1 abort + 104\n1  libsystem_malloc.dylib  0x2 nano_free + 188\n2  App  0x3 -[Parser parse:] + 40"
        let appCorrupted = TestSupport.classify(appHeap)
        #expect(appCorrupted?.category == .crash && appCorrupted?.fields.first { $0.name == "area" }?.value == "heap corruption (a malloc abort)")
    }

    @Test func specificFindingsAndPlainCrashesStay() throws {
        // A crash that names no area stays a crash.
        let plain = "*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayM objectAtIndex:]: index 3 beyond bounds [0 .. 2]'"
        #expect(TestSupport.classify(plain)?.category == .crash)
        // A code with a cause of its own (disk full) keeps its area where a store is loaded.
        let full = "CoreData: error: addPersistentStoreWithType:configuration:URL:options:error: returned error NSSQLiteErrorDomain (13)"
        #expect(TestSupport.classify(full)?.category == .store)
        // The same file error outside store loading stays a store error.
        let saving = #"CoreData: error: a save failed: Error Domain=NSCocoaErrorDomain Code=512 "x" UserInfo={NSFilePath=/x/y.txt}"#
        #expect(TestSupport.classify(saving)?.category == .store)
        // A rule that names its cause is never moved, whatever frames follow it.
        let concurrency = "CoreData: error: Serious application error. Exception was caught during Core Data change processing: *** Collection <_NSFaultingMutableSet: 0x1> was mutated while being enumerated. with userInfo (null)\n3  App  0x4 -[Stack persistentContainer] + 80"
        #expect(TestSupport.classify(concurrency)?.category == .concurrency)
        // A predicate's own trap is the app's query, even where it names key paths (docs/domain.md: an
        // invalid predicate is `crash`); a value SwiftData's coder cannot encode is the model's.
        let predicate = "Thread 1: Fatal error: Predicate does not support keypaths with multiple components"
        #expect(TestSupport.classify(predicate)?.category == .crash)
        let coder = "Thread 1: Fatal error: Composite Coder only supports Keyed Container"
        #expect(TestSupport.classify(coder)?.category == .model)
    }

    @Test func aCrashReportStaysACrash() throws {
        // docs/domain.md: a crash report that is not a watchdog kill is `crash`; its blamed cause and frames say where.
        let report = """
        Crash report (ips) for App 1.0 (1)
          Exception: EXC_CRASH (SIGABRT)
          Crashed thread 5: CoreData  _PFFaultHandlerLookupRow; CoreData  _PF_FulfillDeferredFault
        """
        let result = TestSupport.classifier.classify(text: report, isCrashReport: true, scratch: TestSupport.classifier.makeScratch())
        #expect(result?.category == .crash, "\(String(describing: result?.rule.id))")
        #expect(result?.fields.contains { $0.name == "area" } == false)
    }

    /// A part of a report pasted without its header keeps the report's columns (a tab before the address):
    /// still the report form, so still `crash` (Eval/COLLECTING.md); the same frames printed with spaces, as a
    /// console or Crashlytics prints them, take the area they name.
    @Test func aReportsFramesPastedWithoutItsHeaderStayACrash() throws {
        let frames = "Thread 17 Crashed:\n0   libsqlite3.dylib              \t0x00000001c73391b4 walIndexTryHdr + 96 (sqlite3.c:43412)\n"
            + "1   libsqlite3.dylib              \t0x00000001c73375b4 walIndexReadHdr + 172 (sqlite3.c:70175)"
        let report = TestSupport.classify(frames)
        #expect(report?.category == .crash, "\(String(describing: report?.rule.id))")
        #expect(report?.fields.contains { $0.name == "area" } == false)
        let console = TestSupport.classify(frames.replacingOccurrences(of: "\t", with: " "))
        #expect(console?.category == .store, "\(String(describing: console?.rule.id))")
        for (text, expected) in [("6   libsqlite3.dylib   \t       0x1c33d5c04 sqlite3_step + 88", true),
                                 ("6   libsqlite3.dylib   0x1c33d5c04 sqlite3_step + 88", false),
                                 ("key\t0x1c33d5c04", false), ("frame 6 libsqlite3.dylib\t0x1", false)] {
            var bytes = Array(text.utf8)
            #expect(bytes.withUnsafeMutableBytes { StackLines.hasReportColumns(UnsafeRawBufferPointer($0)) } == expected, "\(text)")
        }
    }

    /// The Xcode template's `Unresolved error loading container` around a file error (round 99's XY-024, an app's
    /// test log): the file error counts as persistence context, and the store could not be loaded (`init`).
    @Test func aFileErrorWhileLoadingTheContainerIsInit() throws {
        let text = #"[DataStore] Unresolved error loading container Error Domain=NSCocoaErrorDomain Code=257 "The file “null” couldn’t be opened because you don’t have permission to view it." UserInfo={NSFilePath=/dev/null}"#
        let result = TestSupport.classify(text)
        #expect(result?.rule.id == "code.cocoa.257")
        #expect(result?.category == .initialization)
        // The same error with nothing about a store around it is no persistence error.
        #expect(TestSupport.classify(text.replacingOccurrences(of: "[DataStore] Unresolved error loading container ", with: "")) == nil)
    }

    /// A crash service's issue (Crashlytics' `#### in …` over `Number of crashes:`) summarises a crash report:
    /// `crash` whatever its one frame names (24 of 25 development records); the same frame under a console's
    /// `Crashed:` heading takes its area.
    @Test func aCrashServicesIssueStaysACrash() throws {
        let stub = "#### in _PFFaultHandlerLookupRow\n\n* Number of crashes: 1\n* Impacted devices: 1"
        let issue = TestSupport.classify(stub)
        #expect(issue?.category == .crash, "\(String(describing: issue?.rule.id))")
        #expect(issue?.fields.contains { $0.name == "area" } == false)
        let console = TestSupport.classify("Crashed: com.apple.main-thread\n0  CoreData  0x1c2 _PFFaultHandlerLookupRow + 412")
        #expect(console?.category == .concurrency, "\(String(describing: console?.rule.id))")
        var bytes = Array("* Number of crashes: 3".utf8)
        #expect(bytes.withUnsafeMutableBytes { StackLines.isCrashServiceStub(UnsafeRawBufferPointer($0)) })
    }

    /// Swift 6's isolation check in a crashed thread's frames (libdispatch's `_dispatch_assert_queue_fail` under
    /// a closure the main actor owns) names the queue misuse, wherever the frame is, when the entry names
    /// persistence code; the same trap in a view's closure with no store in sight is the app's own crash
    /// (round 40, both labellers).
    @Test func anIsolationCheckInTheFramesIsConcurrency() throws {
        let frames = "Crashed: com.apple.root.user-initiated-qos\n0  libdispatch.dylib  0x1a2b3c4d _dispatch_assert_queue_fail + 120\n"
            + "1  libdispatch.dylib  0x1a2b3c99 dispatch_assert_queue + 196\n2  libswift_Concurrency.dylib  0x1b2c3d4e swift_task_isCurrentExecutorImpl + 284\n"
            + "3  MyApp  0x100a1b2c3 closure #1 in PersistenceController.load()"
        #expect(TestSupport.classify(frames)?.category == .concurrency)
        #expect(TestSupport.classify("BUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread (0x1f0e3c640)]\n0  libdispatch.dylib  0x1a2b3c4d _dispatch_assert_queue_fail + 120\n1  CoreData  0x1b1 -[NSManagedObjectContext performBlockAndWait:] + 212")?.category == .concurrency)
        let view = frames.replacingOccurrences(of: "PersistenceController.load()", with: "ContentView.body.getter")
            .replacingOccurrences(of: "com.apple.root.user-initiated-qos", with: "com.apple.SwiftUI.DisplayLink")
        let plain = try #require(TestSupport.classify(view))
        #expect(plain.category == .crash && plain.severity == .fatal, "\(plain.rule.id)")
    }

    /// A crashed thread trimmed to its symbols (round 47: a note's `N symbol` lines, no image, no address) is one
    /// stack; its isolation check on Core Data's notification queue is concurrency. Numbered words are no frames.
    /// The stack is the shape of Eval/dev/RD-retired.jsonl's RD-002 (an app's investigation note in the public
    /// file index, github-file-index:66472871565), its frames renumbered and the app's class renamed.
    @Test func aThreadTrimmedToItsSymbolsIsOneStack() throws {
        let trimmed = "Thread 4 Crashed:: Dispatch queue: com.apple.coredata.NSPersistentStoreRemoteChangeNotification…\n"
            + "0 _dispatch_assert_queue_fail\n3 _swift_task_checkIsolatedSwift\n4 swift_task_isCurrentExecutorWithFlagsImpl\n"
            + "5 _checkExpectedExecutor(…)                      [inlined]\n"
            + "6 @objc ShareController.storeDidChange(_:)   (<compiler-generated>:88)\n"
            + "12 -[NSPersistentStoreCoordinator _postStoreRemoteChangeNotificationsForStore:andState:]"
        let entries = try TestSupport.entries(trimmed)
        #expect(entries.count == 1, "\(entries.count)")
        let finding = try #require(TestSupport.classify(trimmed))
        #expect(finding.category == .concurrency && finding.severity == .fatal, "\(finding.rule.id) \(finding.category)")
        for line in ["0 _dispatch_assert_queue_fail", "4 swift_task_isCurrentExecutorWithFlagsImpl", "5 _checkExpectedExecutor(…)  [inlined]",
                     "12 -[NSPersistentStoreCoordinator _postStoreRemoteChangeNotificationsForStore:andState:]", "2 $s4GRDB12DatabasePoolC4read"] {
            #expect(Array(line.utf8).withUnsafeBytes { StackLines.isFrame($0) }, "\(line)")
        }
        for line in ["3 rows deleted", "2 items_total", "1 Fix(es) applied today", "10 -[x]", "4 Saving(now) and more"] {
            #expect(!Array(line.utf8).withUnsafeBytes { StackLines.isFrame($0) }, "\(line)")
        }
    }

    /// Xcode's copy of a stopped thread glues the thread's name to its first frame (`Thread 1#0\t0x… in symbol ()`):
    /// still a stack pasted without its crash line, whose SQLite mutex-misuse assertion is concurrency, not store
    /// activity read from the symbol's name. "Thread 1#0" with no frame after it is no frame.
    @Test func xcodesCopyOfAStoppedThreadIsAStack() throws {
        // Source: round 124's AAE-005 (Eval/dev/AAE-retired.jsonl), an Objective-C app's SQLite layer; paths shortened.
        let copied = "Thread 1#0\t0x000000018274231c in sqlite3MutexMisuseAssert ()\n#1\t0x0000000182742178 in checkMutexEnter ()\n"
            + "#2\t0x0000000182726ff0 in sqlite3LockAndPrepare ()\n#3\t0x0000000102c17030 in -[DbConnect countRating] at /Users/me/DB/DbConnect.m:138"
        let finding = try #require(TestSupport.classify(copied))
        #expect(finding.category == .concurrency && finding.severity == .fatal, "\(finding.rule.id) \(finding.category)")
        #expect(Array("Thread 1#0\t0x000000018274231c in sqlite3MutexMisuseAssert ()".utf8).withUnsafeBytes { StackLines.isFrame($0) })
        for line in ["Thread 1#0", "Thread 1#0 started the sync", "Thread 12: signal SIGABRT"] {
            #expect(!Array(line.utf8).withUnsafeBytes { StackLines.isFrame($0) }, "\(line)")
        }
    }

    /// Firestore's checks that its work runs on its own queue, in the wordings of round 126 (Eval/dev/AAG-retired.jsonl:
    /// AAG-036, firebase-ios-sdk#6143; AAG-037, #3701) and Kotlin/Native refusing an object of another thread (AAG-019),
    /// are terminations of a queue or thread misuse: concurrency, not the app's own crash.
    @Test func firestoresExecutorChecksAreConcurrency() throws {
        let texts = [
            "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'FIRESTORE INTERNAL ASSERTION FAILED: Enqueue methods cannot be called when we are already running on target executor (this queue's executor: 'com.google.firebase.firestore.Firestore-Chat', current executor: 'com.google.firebase.firestore.Firestore-Chat') (expected !is_operation_in_progress_ || !executor_->IsCurrentExecutor())'",
            "*** Assertion failure in void firebase::firestore::util::AsyncQueue::VerifyIsCurrentExecutor() const(), /Users/me/App/Pods/FirebaseFirestore/Firestore/core/src/firebase/firestore/util/async_queue.cc:40",
            "Uncaught Kotlin exception: kotlin.native.IncorrectDereferenceException: illegal attempt to access non-shared dev.gitlive.firebase.firestore.Query.$get$<anonymous>_2_4$FUNCTION_REFERENCE$21@3939468 from other thread",
        ]
        for text in texts {
            let finding = try #require(TestSupport.classify(text), "\(text)")
            #expect(finding.category == .concurrency && finding.severity == .fatal, "\(finding.rule.id) \(finding.category) \(text)")
        }
        // Kotlin/Native refusing an app's own object names no store: a crash.
        let own = "Uncaught Kotlin exception: kotlin.native.IncorrectDereferenceException: illegal attempt to access non-shared com.example.ProfileViewModel@3939468 from other thread"
        #expect(TestSupport.classify(own)?.category == .crash)
    }

    @Test func badAreaFilesFailWithALocation() throws {
        let head = "movable:\n  crash: [crash.console-termination]\nareas:\n"
        let row = "  - {name: a, category: init, moves: [crash], pattern: 'x', advice: 'y', example: 'x'}\n"
        _ = try CodeCatalog.load(files: [("Rules/tables/areas.yaml", head + row)])
        let bad = [
            head + row.replacingOccurrences(of: "moves: [crash]", with: "moves: [nothing]"),
            head + row.replacingOccurrences(of: "category: init", with: "category: elsewhere"),
            head + row.replacingOccurrences(of: "example: 'x'", with: "example: 'z'"),
            head + row.replacingOccurrences(of: "pattern: 'x'", with: "pattern: 'x', literal: 'q'"),
            head + row + row,
            "areas:\n" + row,
            head + row.replacingOccurrences(of: "advice: 'y'", with: "advise: 'y'"),
        ]
        for text in bad {
            #expect(throws: RuleFileError.self, "\(text)") { _ = try CodeCatalog.load(files: [("Rules/tables/areas.yaml", text)]) }
        }
    }
}
