import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing

/// The exception table (Rules/tables/exceptions.yaml) and the paste shapes the splitter knows
/// (docs/recognition.md, round 2). Every row's own example runs in `CatalogQualityTests`; these pin the
/// mechanism: the twin rules, the fields, the ranking against phrase rules, and the loader's errors.
@Suite struct ExceptionTableTests {
    @Test func anUncaughtExceptionIsFatalAndItsReasonDecidesTheCategory() throws {
        let text = "2018-12-28 21:05:09.067253-0500 App[17448:835355] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'This NSPersistentStoreCoordinator has no persistent stores (unknown).  It cannot perform a save operation.'"
        let result = try #require(TestSupport.classify(text))
        #expect(result.rule.id == "exception.no-persistent-stores")
        #expect(result.category == .initialization && result.severity == .fatal)
        #expect(result.field("exception") == "NSInternalInconsistencyException")
        #expect(result.field("reason") == "This NSPersistentStoreCoordinator has no persistent stores (unknown).  It cannot perform a save operation.")
    }

    @Test func anExceptionThrownInsideCoreDataIsCaught() throws {
        // Round 41 (Eval/dev/PA-retired.jsonl, PA-P01): Mac OS X 10.6's Core Data logged the exception it caught.
        let result = try #require(TestSupport.classify("11/22/09 10:10:22 PM Evernote[301] NSInternalInconsistencyException thrown inside CoreData."))
        #expect(result.severity == .error, "\(result.rule.id)")
        #expect(result.rule.id.hasSuffix(".caught"))
    }

    @Test func aTemporaryIDsMissingReferenceDataReadsAlikeInEitherWording() throws {
        // Round 40: the abstract class's wording of the same temporary-ID failure was read as a plain crash.
        for reason in ["Temporary object IDs do not respond to -_referenceData64",
                       "*** -_referenceData64 only defined for abstract class.  Define -[NSTemporaryObjectID_default _referenceData64]!"] {
            let result = try #require(TestSupport.classify("*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '\(reason)'"))
            #expect(result.rule.id == "exception.temporary-id-without-reference-data", "\(reason)")
            #expect(result.category == .concurrency && result.severity == .fatal)
        }
    }

    @Test func xcodesBannerReasonDecidesTheCategoryWithoutAFrameworkName() throws {
        // Xcode's `Thread 1: "reason"` names no framework; Core Data's own wording is enough.
        let keyPath = #"Thread 1: "keypath title not found in entity VocabInfo""#
        let result = try #require(TestSupport.classify(keyPath))
        #expect(result.rule.id == "exception.keypath-not-in-entity" && result.category == .model && result.severity == .fatal,
                "\(result.rule.id)")
        let ordered = #"Thread 1: "NSManagedObjects of entity 'ScanSession' do not support -mutableSetValueForKey: for the property 'devices'""#
        #expect(TestSupport.classify(ordered)?.rule.id == "exception.set-proxy-on-ordered")
    }

    @Test func theParenthesisSaysWhyTheStoreNeverLoaded() throws {
        let migration = "NSInternalInconsistencyException: This NSPersistentStoreCoordinator has no persistent stores (schema mismatch or migration failure).  It cannot perform a save operation."
        #expect(TestSupport.classify(migration)?.category == .migration)
        let disk = "Fatal Exception: NSInternalInconsistencyException This NSPersistentStoreCoordinator has no persistent stores (disk full). It cannot perform a save operation."
        #expect(TestSupport.classify(disk)?.category == .store)
    }

    @Test func anExceptionCoreDataCaughtIsAnErrorAndTheInnerReasonOutranksTheWrapper() throws {
        let text = "CoreData: error: Serious application error.  Exception was caught during Core Data change processing.  This is usually a bug within an observer of NSManagedObjectContextObjectsDidChangeNotification.  *** -[__NSArrayM objectAtIndex:]: index 4 beyond bounds [0 .. 3] with userInfo (null)"
        let result = try #require(TestSupport.classify(text))
        #expect(result.rule.id == "exception.index-beyond-bounds.caught")
        #expect(result.category == .crash && result.severity == .error)
        #expect(result.field("api") == "-[__NSArrayM objectAtIndex:]")
        // An inner reason no row knows leaves the wrapper's own rule.
        let unknown = "CoreData: error: Serious application error.  Exception was caught during Core Data change processing.  This is usually a bug within an observer of NSManagedObjectContextObjectsDidChangeNotification.  -[ListObserver objectsDidChange:]: list view already torn down with userInfo (null)"
        #expect(TestSupport.classify(unknown)?.rule.id == "coredata.concurrency.change-processing-exception")
        // A wrapper library's stack that was never set up, in its own words.
        #expect(TestSupport.classify("CoreDataKit/Repository.swift:33: Fatal error: Coredata background context is nil")?.category == .initialization)
        // The message's tail alone, as a page quoted it: `with userInfo (null)` is still the caught form.
        let tail = "ws contained in that section before the update (1), plus or minus the number of rows inserted or deleted from that section (602 inserted, 0 deleted) with userInfo (null)"
        let cut = try #require(TestSupport.classify(tail))
        #expect(cut.rule.id == "exception.invalid-table-update.caught" && cut.severity == .error, "\(cut.rule.id)")
    }

    /// A reason Core Data logged at its `error:` level is the logged form: `error`, unless the same entry
    /// says the app terminated.
    @Test func aReasonCoreDataLoggedAsAnErrorIsAnError() throws {
        let logged = "CoreData: error: keypath title not found in entity Note"
        let result = try #require(TestSupport.classify(logged))
        #expect(result.rule.id.hasSuffix(".caught") && result.category == .model && result.severity == .error, "\(result.rule.id)")
        let terminated = logged + "\n*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'keypath title not found in entity Note'"
        #expect(TestSupport.classify(terminated)?.severity == .fatal)
    }

    /// An exception Core Data turned into a returned error (its reason in `NSUnderlyingException = "…"`, or
    /// `-executeRequest: encountered exception = … with userInfo = {`) is caught: `error`, in the reason's area.
    @Test func aReasonReturnedInsideAnErrorIsCaught() throws {
        // Source: the forms of Eval/dev A-103 (134081) and FD-P02 (Updating max pk failed).
        let returned = "error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///x/Model.sqlite options:{} ... returned error NSCocoaErrorDomain(134081) with userInfo dictionary {\n    NSUnderlyingException = \"Can't add the same store twice\";\n}"
        let store = try #require(TestSupport.classify(returned))
        #expect(store.rule.id == "exception.same-store-added-twice.caught" && store.category == .initialization && store.severity == .error, "\(store.rule.id)")
        let encountered = "Core Data: error: -executeRequest: encountered exception = Updating max pk failed: unable to open database file with userInfo = {\n    NSSQLiteErrorDomain = 14;\n}"
        let keys = try #require(TestSupport.classify(encountered))
        #expect(keys.rule.id == "exception.primary-keys-not-generated.caught" && keys.severity == .error, "\(keys.rule.id)")
        // Raised, the same reasons end the app.
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'Can't add the same store twice'")?.severity == .fatal)
    }

    /// The rows read from Core Data's string tables keep only Core Data's own sentences: what other programs print
    /// in the same words is no persistence finding (a review of round 34's rows).
    @Test func otherProgramsSentencesAreNotCoreDatasExceptions() throws {
        for line in ["[db] SQLAlchemy: Nested transactions are not supported by this backend",
                     "PDOException: Transactions cannot be nested",
                     "redis connection may not be reset while in use",
                     "Warning: mandatory property not set: apiKey",
                     "Error: No file exists at URL 'https://example.com/a.png'",
                     "Can't create support directory",
                     "Cannot set metadata in read-only store for S3 bucket",
                     "Invalid destination store URL: nil",
                     "Warning: Could not merge changes"] {
            let found = TestSupport.classify(line)
            #expect(found == nil || found!.severity < .error, "\(line) → \(found?.rule.id ?? "nil")")
        }
        // A termination that quotes an underlying exception in its userInfo is still the uncaught form.
        let ended = try #require(TestSupport.classify("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'This NSPersistentStoreCoordinator has no persistent stores (unknown).  It cannot perform a save operation.' userInfo: {NSUnderlyingException = \"I/O error for database\";}"))
        #expect(ended.rule.id == "exception.no-persistent-stores" && ended.severity == .fatal, "\(ended.rule.id)")
    }

    @Test func aGenericNameCountsOnlyAroundPersistence() throws {
        let inCoreData = "Fatal Exception: NSInternalInconsistencyException (thrown from -[NSManagedObjectContext save:])"
        #expect(TestSupport.classify(inCoreData)?.rule.id == "exception.name.nsinternalinconsistencyexception")
        // The same name from UIKit is no persistence problem: a plain termination, not the name's rule.
        let inUIKit = "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'attempt to scroll to invalid index path'"
        #expect(TestSupport.classify(inUIKit)?.rule.id == "crash.console-termination")
        // NSObjectInaccessibleException is Core Data's for a fault it cannot fulfil, and PhotoKit's for a library the
        // app may not read: the name counts only beside Core Data's words or frames.
        #expect(TestSupport.classify("Fatal Exception: NSObjectInaccessibleException\n2  CoreData  0x1a75e0f2c _PFFaultHandlerLookupRow + 1084")?.category == .concurrency)
        let inPhotos = "*** Terminating app due to uncaught exception 'NSObjectInaccessibleException', reason: 'This application is not allowed to access Photo data.'"
        #expect(TestSupport.classify(inPhotos)?.category == .crash)
        // A library built on Core Data names persistence too (AV-010's shape, a CoreStore transaction class).
        let inCoreStore = "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[CoreStore.CSBaseDataTransaction commitWithCompletion:]: unrecognized selector sent to instance 0x125ec6540'"
        #expect(TestSupport.classify(inCoreStore)?.rule.id == "exception.unrecognized-selector")
        let inAppCode = "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[MyApp.Store commitWithCompletion:]: unrecognized selector sent to instance 0x125ec6540'"
        #expect(TestSupport.classify(inAppCode)?.rule.id != "exception.unrecognized-selector")
    }

    @Test func aTerminationInCoreDataFramesIsNeverSilent() throws {
        let text = "Thread : Crashed: NSPersistentStoreCoordinator 0x282755880\n0  libdyld.dylib  0x1b0bc6f40 dyld3::MachOLoaded::getSlide() const + 118"
        #expect(TestSupport.classify(text)?.rule.id == "crash.console-termination")
        #expect(TestSupport.classify(text)?.severity == .fatal)
    }

    /// An API row names the frame that raised: the one just under the throw machinery (system frames such as
    /// `+[NSException raise:format:]` may sit between). Under an app's own frame, the API only called the code
    /// that raised.
    @Test func anAPIRowNamesTheFrameThatRaisedNotACallerBelowTheApp() throws {
        let raised = "Fatal Exception: NSInternalInconsistencyException\n0  CoreFoundation  0x1 __exceptionPreprocess\n1  libobjc.A.dylib  0x2 objc_exception_throw\n2  CoreFoundation  0x3 +[NSException raise:format:]\n3  CoreData  0x4 -[NSManagedObjectContext performBlockAndWait:] + 147"
        #expect(TestSupport.classify(raised)?.rule.id == "exception.api.perform-without-queue")
        let called = "Fatal Exception: NSInternalInconsistencyException\n0  CoreFoundation  0x1 __exceptionPreprocess\n1  libobjc.A.dylib  0x2 objc_exception_throw\n2  WordPress  0x3 -[ContextManager migrateDataModelsIfNecessary] (ContextManager.m:320)\n3  CoreData  0x4 developerSubmittedBlockToNSManagedObjectContextPerform\n4  CoreData  0x5 -[NSManagedObjectContext performBlockAndWait:]"
        #expect(TestSupport.classify(called)?.rule.id != "exception.api.perform-without-queue")
        #expect(TestSupport.classify(called)?.severity == .fatal)
    }

    @Test func theLoaderRejectsABadRow() throws {
        func load(_ yaml: String) throws { _ = try CodeCatalog.load(files: [(path: "t/exceptions.yaml", text: yaml)]) }
        let head = "marker: 'CoreData'\ncaught: 'was caught'\n"
        let caughtExample = head + "reasons:\n  - {id: x, reason: 'boom', category: crash, title: t, meaning: m, advice: a, example: 'boom was caught'}\n"
        #expect(throws: RuleFileError.self) { try load(caughtExample) }
        let unknownKey = head + "reasons:\n  - {id: x, reason: 'boom', category: crash, title: t, meaning: m, advice: a, example: 'boom', colour: red}\n"
        #expect(throws: RuleFileError.self) { try load(unknownKey) }
        let badCategory = head + "names:\n  - {name: NSBoomException, category: nowhere, meaning: m, advice: a, example: 'NSBoomException'}\n"
        #expect(throws: RuleFileError.self) { try load(badCategory) }
        let good = head + "names:\n  - {name: NSBoomException, category: crash, meaning: m, advice: a, example: 'NSBoomException'}\n"
        let catalog = try CodeCatalog.load(files: [(path: "t/exceptions.yaml", text: good)])
        #expect(catalog.exceptionRules.map(\.id) == ["exception.name.nsboomexception", "exception.name.nsboomexception.caught"])
    }
}

/// Real paste shapes (Eval/dev pastes): where one entry ends and the next begins.
@Suite struct PasteShapeTests {
    @Test func theOneFieldPerLineStoreErrorIsOneEntryEvenBesideItsTimestampedCopy() throws {
        let text = """
        CoreData: error: addPersistentStoreWithType:configuration:URL:options:error: returned error NSCocoaErrorDomain (512)
        2026-09-06 01:44:20.057410+0000 App[5231:22116] [error] CoreData: error: userInfo:
        CoreData: error: userInfo:
        CoreData: error: \treason : Failed to create file; code = 2
        2026-09-06 01:44:20.057500+0000 App[5231:22116] [error] CoreData: error: storeType: SQLite
        CoreData: error: storeType: SQLite
        CoreData: error: URL: file:///tmp/App.sqlite
        2026-09-06 01:44:20.058000+0000 App[5231:22116] CoreData: error: Store failed to load.
        """
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 8])
        #expect(entries.first?.endLine == 7)
    }

    @Test func aBareCapitalisedLineAfterAFinishedPrefixedEntryIsItsOwnMessage() throws {
        let text = """
        2026-09-06 01:44:20.057410+0000 App[5231:22116] CoreData: error: Recovery attempt while adding store (type: SQLite).
        Test Suite 'All tests' started at 2026-09-06 01:44:24.205.
        Test Case '-[AppTests testLoad]' started.
        2026-09-06 01:44:25.000000+0000 App[5231:22116] Unresolved error:
        Unable to find any managed object models.
        2026-09-06 01:44:25.100000+0000 App[5231:22116] Failed to set up CloudKit integration (store: Model.sqlite)
        Error Domain=NSCocoaErrorDomain Code=134400 "Unable to initialize without an iCloud account."
        """
        let entries = try TestSupport.entries(text)
        // The line after `…error:` continues it; `Error Domain=` continues the line that announced it.
        #expect(entries.map(\.line) == [1, 2, 3, 4, 6])
    }

    @Test func backtraceLinesStayWithTheirException() throws {
        let text = """
        *** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'Invalid predicate: nil RHS'
        *** First throw call stack:
        0   CoreFoundation                      0x01b561e4 __exceptionPreprocess + 180
        1   libobjc.A.dylib                     0x018d58e5 objc_exception_throw + 44
        2   CoreData                            0x0173a2e8 -[NSSQLGenerator newSQLStatement:] + 101
        libc++abi.dylib: terminating with uncaught exception of type NSException
        CoreData: error: Store failed to load.
        """
        // The C++ runtime's line under the backtrace is the process ending, a line of its own (as five of
        // seven real pastes in Eval/dev that hold it are labelled).
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 6, 7])
        #expect(entries.first?.endLine == 5)
        let ending = try #require(TestSupport.classify(entries[1].message))
        #expect(ending.category == .crash && ending.severity == .fatal, "\(ending.rule.id)")
    }
}

private extension Classification {
    func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
}
