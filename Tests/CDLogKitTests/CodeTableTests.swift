import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing

/// The code tables (Rules/tables/): every row is recognised in every printed form and decides the
/// finding; chains pick their most specific code; wrappers raise to fatal; the fallback never stays silent.
@Suite struct CodeTableTests {
    static let codes = TestSupport.classifier.ruleSet.codes!

    /// The ways consoles print (domain, code): `Error Domain=`, `X (N)`, `X:N`, `X error N`, a userInfo
    /// key, Foundation's "(X error N.)", an app's `X / Code N`.
    static func printedForms(domain: String, code: Int) -> [String] {
        [
            "Error Domain=\(domain) Code=\(code) \"x\" UserInfo={}",
            "returned error \(domain) (\(code))",
            "failed: \(domain):\(code)",
            "The operation couldn’t be completed. (\(domain) error \(code).)",
            "userInfo={\(domain)=\(code)}",
            "failed (\(domain) / Code \(code))",
        ] + (["NSCocoaErrorDomain", "CKErrorDomain", "NSSQLiteErrorDomain", "CKInternalErrorDomain"].contains(domain)
            ? ["\(domain) \(code) ... while loading"] : [])   // a note's shorthand (round 111), the tables' own domains only
    }

    @Test func everyRowIsRecognisedInEveryPrintedForm() throws {
        let scratch = TestSupport.classifier.makeScratch()
        var rows = 0
        for table in Self.codes.tables {
            for entry in table.entries {
                rows += 1
                for text in Self.printedForms(domain: table.domain, code: entry.code) {
                    var bytes = Array(text.utf8)
                    let mentions = bytes.withUnsafeMutableBytes { Self.codes.recognise(UnsafeRawBufferPointer($0), scratch: scratch.matchScratch) }
                    let decided = Self.codes.decide(mentions)
                    #expect(decided?.entry?.rule.id == entry.rule.id, "\(table.domain) \(entry.code) in: \(text)")
                }
            }
        }
        #expect(rows >= 150, "the tables hold \(rows) rows")
    }

    /// A table row's `server` names are checked without a regular expression (start-up): capitals and
    /// underscores, a capital at each end.
    @Test func aServerNameMustBeCapitals() throws {
        func table(server: String) -> String {
            "domain: CKErrorDomain\nkey: testck\ncodes:\n  - {code: 1, name: internalError, server: \(server), category: cloudkit, severity: error, meaning: m, advice: a}\n"
        }
        #expect(throws: (any Error).self) { try CodeTable(path: "t.yaml", text: table(server: "zone_not_found"), firstOrder: 0) }
        #expect(throws: (any Error).self) { try CodeTable(path: "t.yaml", text: table(server: "ZONE_"), firstOrder: 0) }
        #expect(throws: (any Error).self) { try CodeTable(path: "t.yaml", text: table(server: "Z"), firstOrder: 0) }
        let good = try CodeTable(path: "t.yaml", text: table(server: "[ZONE_NOT_FOUND, BAD_REQUEST]"), firstOrder: 0)
        #expect(good.entries.first?.server == ["ZONE_NOT_FOUND", "BAD_REQUEST"])
    }

    @Test func everyRowDecidesAFindingThroughTheCatalog() throws {
        for table in Self.codes.tables {
            for entry in table.entries {
                // A row that needs a store context gets one; the classifier sees the whole pipeline's rule.
                let text = "CoreData: error: a fetch failed on Model.sqlite: Error Domain=\(table.domain) Code=\(entry.code) \"x\""
                let result = TestSupport.classify(text)
                // A phrase rule may say more than the table; otherwise the table's row decides.
                if let result, result.rule.id.hasPrefix("code.") {
                    #expect(result.rule.id == entry.rule.id, "\(text) → \(result.rule.id)")
                    #expect(result.category == entry.category)
                    #expect(result.fields.first { $0.name == "code" }?.value == String(entry.code))
                } else {
                    #expect(result != nil, "\(text) is not classified")
                }
            }
        }
    }

    @Test func cloudKitPrintedNamesAndInternalCodes() throws {
        let ck = try #require(Self.codes.tables.first { $0.key == "ckerror" })
        for entry in ck.entries {
            let printed = try #require(entry.printed, "CKError \(entry.code) has no printed name")
            let wrapped = "<CKError 0x600001d8c0f0: \"\(printed)\" (\(entry.code)/9999); \"server message\">"
            #expect(TestSupport.classify(wrapped)?.fields.first { $0.name == "code" }?.value == String(entry.code), "\(wrapped)")
            #expect(Self.codes.entry(named: printed)?.code == entry.code)
            #expect(Self.codes.entry(named: entry.name)?.code == entry.code)
        }
        for (internalCode, publicCode) in ck.internalCodes {
            #expect(Self.codes.entry(domain: ck.domain, code: internalCode)?.code == publicCode)
        }
        // Only the internal code printed, no wrapper, no domain.
        let bare = TestSupport.classify(#"Unable to verify CloudKit Connection <CKError 0x6: "Server Rejected Request" (2001); "Request failed with http status code 500">"#)
        #expect(bare?.rule.id == "code.ckerror.15")
    }

    /// CloudKit's internal codes: printed with their own domain, or with CloudKit's internal name in quotes, a
    /// mapped code reads as its public code; a named code with no public pair decides nothing; the listing
    /// counts both.
    @Test func cloudKitInternalCodesReadThroughTheirRows() throws {
        let ck = try #require(Self.codes.tables.first { $0.key == "ckerror" })
        #expect(ck.internalDomain == "CKInternalErrorDomain")
        #expect(ck.internalNames.count >= 150 && ck.internalCodes.count >= 29)
        // Every mapped internal code names a public row; the public codes never read as internal ones.
        for (internalCode, publicCode) in ck.internalCodes {
            #expect(Self.codes.entry(domain: "CKInternalErrorDomain", code: internalCode)?.code == publicCode)
        }
        #expect(Self.codes.entry(domain: "CKInternalErrorDomain", code: 26) == nil)
        #expect(Self.codes.entry(domain: "CKInternalErrorDomain", code: 2037) == nil)
        #expect(Self.codes.internalCode(domain: "CKInternalErrorDomain", code: 2037)?.name == "PCSOplockFailed")
        #expect(Self.codes.internalCode(domain: "CKErrorDomain", code: 2036)?.publicCode == 26)
        #expect(Self.codes.internalCode(domain: "CKErrorDomain", code: 26) == nil)
        // Source: the form of TN3164's NSUnderlyingError and of CloudKit's underlying-error description.
        let nested = TestSupport.classify(#"Sync failed: Error Domain=CKInternalErrorDomain Code=2036 "Zone does not exist" UserInfo={CKErrorDescription=Zone does not exist, NSLocalizedDescription=Zone does not exist}"#)
        #expect(nested?.rule.id == "code.ckerror.26", "\(nested?.rule.id ?? "nil")")
        let named = TestSupport.classify(#"CloudKit fetch failed: <CKUnderlyingError 0x600002a1c0f0: "ZoneNotFound" (2036); server message = "Zone does not exist"; op = 8E1F; uuid = 1A2B>"#)
        #expect(named?.rule.id == "code.ckerror.26", "\(named?.rule.id ?? "nil")")
        // An internal name counts only beside its own internal number: the names are plain words.
        #expect(TestSupport.classify(#"CocoaLumberjack: log upload failed with status "Forbidden" (403)"#)?.category != .cloudkit)
        #expect(TestSupport.classify(#"Cocoa networking: "ServerBusy" (503)"#)?.category != .cloudkit)
        let listing = RuleCatalogListing.text(TestSupport.classifier.ruleSet)
        #expect(listing.contains("internal codes (\(ck.internalCodes.count) mapped to public ones)"))
    }

    /// A file code counts where the entry names a store: an old Core Data store named `.sql`, React Native's
    /// AsyncStorage folder, an MMKV file (round 41, Eval/dev/PA-retired.jsonl and PB-retired.jsonl).
    @Test func aFileCodeCountsBesideOtherStoresNames() throws {
        for (text, code) in [("Presenting error: Error Domain=NSCocoaErrorDomain Code=256 UserInfo=0x1543b310 \"The file ?Evernote.sql? could not be opened.\"", "256"),
                             ("Failed to write manifest file.Error Domain=NSCocoaErrorDomain Code=513 \"You don’t have permission to save the file “manifest.json” in the folder “RCTAsyncLocalStorage_V1”.\"", "513"),
                             ("open /var/mobile/Containers/Data/Application/X/Documents/mmkv/mmkv.default failed: Error Domain=NSCocoaErrorDomain Code=4", "4")] {
            #expect(TestSupport.classify(text)?.rule.id == "code.cocoa.\(code)", "\(text)")
        }
        #expect(TestSupport.classify("Presenting error: Error Domain=NSCocoaErrorDomain Code=256 \"The file ?notes.txt? could not be opened.\"") == nil)
    }

    /// Realm's reasons as data (round 30): thrown, returned as an `io.realm` error (error until a fatal wrapper
    /// raises it), and Realm's own C++ exception names.
    @Test func realmReasonsDecideInEveryForm() throws {
        let thrown = TestSupport.classify("*** Terminating app due to uncaught exception 'RLMException', reason: 'Realm accessed from incorrect thread.'")
        #expect(thrown?.rule.id == "exception.realm-wrong-thread" && thrown?.severity == .fatal)
        let returned = TestSupport.classify(#"Error Domain=io.realm Code=10 "Migration is required due to the following errors:\n- Property 'Item.name' has been added." UserInfo={Error Code=10}"#)
        #expect(returned?.category == .migration && returned?.severity == .error, "\(returned?.rule.id ?? "nil")")
        let trapped = TestSupport.classify(#"Fatal error: 'try!' expression unexpectedly raised an error: Error Domain=io.realm Code=2 "Unable to open a realm at path '/x/db.realm': open() failed: Operation not permitted." UserInfo={Error Code=2}"#)
        #expect(trapped?.category == .store && trapped?.severity == .fatal)
        #expect(TestSupport.classify("terminating with uncaught exception of type realm::util::DecryptionFailed: Decryption failed")?.category == .store)
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception 'RLMException', reason: 'flock() failed: Interrupted system call'")?.category == .store)
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception 'RLMException', reason: 'Realm at path 'a.realm' has version number 4 which is greater than the current schema version 0.'")?.category == .migration)
        #expect(TestSupport.classify(#"Error Domain=io.realm Code=1 "Primary key property 'class_Item.id' has duplicate values after migration." UserInfo={Error Code=1}"#)?.category == .migration)
        #expect(TestSupport.classify("Terminating app due to uncaught exception 'RLMException', reason: 'Object cannot be inserted unless the schema is initialized.'")?.category == .initialization)
        // Round 49: a class subset that leaves out a linked class is the model's definition; a primary key changed
        // after the object was added is the app's own error.
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception 'RLMException', reason: 'Invalid class subset list:\n- 'Note.tags' links to class 'Tag', which is missing from the list of classes managed by the Realm'")?.rule.id == "exception.realm-model-definition")
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception 'RLMException', reason: 'Primary key can't be changed after an object is inserted.'")?.category == .crash)
        // Round 47: a list property declared without its element type is the model's definition.
        #expect(TestSupport.classify("Terminating app due to uncaught exception 'RLMException', reason: 'Property 'tags' requires a protocol defining the contained type - example: RLMArray<Tag>.'")?.rule.id == "exception.realm-model-definition")
        // Older wordings and a page's curly quotes (round 33's retired development records EA-014, EA-P02, EF-020).
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception 'RLMException', reason: 'Can't set primary key property 'fileId' to existing value 'aaa'.'")?.rule.id == "exception.realm-primary-key-exists")
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception ‘RLMException’, reason: ’Attempting to create an object of type ‘DrinkEvent’ with an existing primary key value ‘636637079.097727’.'")?.rule.id == "exception.realm-primary-key-exists")
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception 'RLMException', reason: 'Cannot open an uninitialized realm in read-only mode'")?.category == .initialization)
        // A generic reason counts only with Realm's name.
        #expect(TestSupport.classify("Index 3 is out of bounds (must be less than 2).")?.rule.id != "exception.realm-index-out-of-bounds")
        // Core Data's model description classes mark a key-value coding exception as the model's.
        #expect(TestSupport.classify("*** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<NSRelationshipDescription 0x7caca50> valueForUndefinedKey:]: this class is not key value coding-compliant for the key attributeType.'")?.category == .model)
    }

    @Test func theMostSpecificCodeOfAChainDecides() throws {
        let text = #"Error Domain=NSCocoaErrorDomain Code=134110 "An error occurred during persistent store migration." UserInfo={sourceURL=file:///x/Model.sqlite, reason=Cannot migrate store in-place: I/O error for database, NSUnderlyingError=0x6 {Error Domain=NSCocoaErrorDomain Code=134180 "(null)" UserInfo={NSSQLiteErrorDomain=13}}}"#
        let scratch = TestSupport.classifier.makeScratch()
        var bytes = Array(text.utf8)
        let mentions = bytes.withUnsafeMutableBytes { Self.codes.recognise(UnsafeRawBufferPointer($0), scratch: scratch.matchScratch) }
        #expect(CodeCatalog.chain(mentions) == "NSCocoaErrorDomain 134110 → NSCocoaErrorDomain 134180 → NSSQLiteErrorDomain 13")
        #expect(Self.codes.decide(mentions)?.entry?.name == "SQLITE_FULL")
    }

    @Test func localizedDescriptionsCarryTheirCode() throws {
        for text in ["Le fonctionnement n’a pas pu s’achever. (erreur Cocoa 134100.)",
                     "Der Vorgang konnte nicht abgeschlossen werden. (Cocoa-Fehler 134100.)",
                     "操作を完了できませんでした。(Cocoaエラー134100)"] {
            #expect(TestSupport.classify(text)?.rule.id == "code.cocoa.134100", "\(text)")
        }
    }

    @Test func unlistedCodesInARangeGetTheRangeRow() throws {
        let result = TestSupport.classify(#"Error Domain=NSCocoaErrorDomain Code=134499 "x""#)
        #expect(result?.rule.id == "code.cocoa.134400-134499")
        #expect(result?.fields.first { $0.name == "code" }?.value == "134499")
    }

    @Test func theSQLiteTableIsWhatItsGeneratorWrites() throws {
        // Rules/tables/sqlite.yaml is generated (scripts/tables/make-sqlite-table.py, from sqlite3.h): an edit
        // made to the file alone would be lost the next time it is generated.
        let header = "/usr/include/sqlite3.h"
        guard FileManager.default.fileExists(atPath: header), FileManager.default.fileExists(atPath: "/usr/bin/python3") else {
            print("skipped: python3 or \(header) is not installed"); return
        }
        // The file names the sqlite3.h it was generated from; another version may list other codes.
        let file = try Data(contentsOf: TestSupport.packageRoot.appendingPathComponent("Rules/tables/sqlite.yaml"))
        let headerText = try String(contentsOfFile: header, encoding: .utf8)
        guard let version = headerText.firstMatch(of: /#define SQLITE_VERSION\s+"([^"]+)"/)?.1,
              String(decoding: file.prefix(400), as: UTF8.self).contains("sqlite3.h \(version);") else {
            print("skipped: the installed sqlite3.h is not the version Rules/tables/sqlite.yaml was generated from"); return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestSupport.packageRoot.appendingPathComponent("scripts/tables/make-sqlite-table.py").path, header]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let generated = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(generated == file, "Rules/tables/sqlite.yaml differs from what scripts/tables/make-sqlite-table.py writes")
    }

    @Test func aSuccessCodeInsideAFailureDecidesNothing() throws {
        // A wrapper that lost SQLite's code prints SQLITE_OK for a failure: the failure is still reported.
        let lost = #"Failed to recreate database file. Error: Error Domain=com.example.ErrorDomain Code=3 "Database operation failed with sqlite code 0 and error message 'not an error'""#
        let result = TestSupport.classify(lost)
        #expect(result?.severity == .error && result?.category == .store, "\(String(describing: result?.rule.id))")
        #expect(result?.rule.id != "code.sqlite.0")
        // Printed where nothing failed, the success code is the row's own routine finding.
        let done = "sqlite3_step returned sqlite code 101"
        #expect(TestSupport.classify(done)?.rule.id == "code.sqlite.101")
        #expect(Self.codes.entries.filter(\.success).map(\.code).sorted() == [0, 100, 101, 256, 512])
    }

    @Test func fileErrorsCountOnlyAroundAStore() throws {
        let haptics = #"Error creating CHHapticPattern: Error Domain=NSCocoaErrorDomain Code=260 "The file “hapticpatternlibrary.plist” couldn’t be opened because there is no such file.""#
        #expect(TestSupport.classify(haptics) == nil)
        let store = #"Error Domain=NSCocoaErrorDomain Code=260 "The file “Model.sqlite” couldn’t be opened because there is no such file.""#
        #expect(TestSupport.classify(store)?.category == .store)
        // Any `.db` file is a database's, and a sync engine's change file is persistence's too.
        let copied = #"Could not make a backup. Error Domain=NSCocoaErrorDomain Code=513 ""chat.db" couldn't be copied because you don't have permission to access "T"."#
        #expect(TestSupport.classify(copied)?.category == .store)
        let event = #"Error starting download: Error Domain=NSCocoaErrorDomain Code=512 "The file “16_AD33.cdeevent” couldn’t be saved.""#
        #expect(TestSupport.classify(event)?.category == .sync)
        let chained = #"CoreData: error: Store failed to load. Error Domain=NSCocoaErrorDomain Code=260 "x" UserInfo={NSFilePath=/x/Model.sqlite}"#
        #expect(TestSupport.classify(chained)?.severity == .error)
        // An App Group container's path and a class named for a store are a store's context too.
        let group = #"Unable to create the shared folder: Error Domain=NSCocoaErrorDomain Code=513 "You don’t have permission to save the file “Documents” in the folder “Library”." UserInfo={NSFilePath=/private/var/mobile/Containers/Shared/AppGroup/62A6/Library/Documents}"#
        #expect(TestSupport.classify(group)?.rule.id == "code.cocoa.513")
        let named = #"Unable to initialize CXCallDirectoryStore for reading and writing: Error Domain=NSCocoaErrorDomain Code=513 "x""#
        #expect(TestSupport.classify(named)?.rule.id == "code.cocoa.513")
        // A word that only starts with a capital, or a store a page names in prose, is not a class.
        #expect(TestSupport.classify(#"Store the pattern first: Error Domain=NSCocoaErrorDomain Code=260 "x""#) == nil)
        #expect(TestSupport.classify(#"Saving the sticker to the App Store folder failed: Error Domain=NSCocoaErrorDomain Code=513 "x""#) == nil)
    }

    /// True when a wrapper's or catcher's pattern matches its own example.
    static func matchesItsExample(_ row: CodeCatalog.Wrapper) -> Bool {
        let scratch = TestSupport.classifier.makeScratch()
        var bytes = Array(row.example.utf8)
        return bytes.withUnsafeMutableBytes { row.regex.matches(UnsafeRawBufferPointer($0), scratch: scratch.matchScratch) }
    }

    @Test func aCaughtExceptionIsAnErrorNotATermination() throws {
        #expect(Self.codes.catchers.count >= 2)
        #expect(RuleCatalogListing.text(TestSupport.classifier.ruleSet).contains("\(Self.codes.catchers.count) catchers"))
        for catcher in Self.codes.catchers {
            #expect(Self.matchesItsExample(catcher), "catcher `\(catcher.name)` does not match its example")
            // Its example, a fatal exception on its own, is lowered to an error, and says who caught it.
            let result = TestSupport.classify(catcher.example)
            #expect(result?.severity == .error, "\(catcher.name): \(result?.rule.id ?? "nil") \(result?.severity.name ?? "")")
            #expect(result?.fields.first { $0.name == "caught" }?.value == catcher.name)
        }
        // The Carbon event loop's catch (a Mac app's `HIToolbox: ignoring exception '…' that raised inside Carbon event
        // dispatch`) is the run loop's.
        let carbon = TestSupport.classify("HIToolbox: ignoring exception 'CoreData could not fulfill a fault for '0x1 <x-coredata://A/Item/p1>'' that raised inside Carbon event dispatch")
        #expect(carbon?.severity == .error && carbon?.fields.contains { $0.name == "caught" } == true)
        // The same exception uncaught stays fatal, and so does a termination printed after a test's output.
        #expect(TestSupport.classify(#"*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'Invalid store URL: nil'"#)?.severity == .fatal)
        #expect(TestSupport.classify("Test Case '-[ModelTests testSave]' failed (0.012 seconds).\nThread 1: signal SIGABRT")?.severity == .fatal)
    }

    /// The wrappers' literals in one pattern, gathered by their opening byte: each literal is still found,
    /// a duplicate costs nothing, and a literal opening with a byte outside ASCII stays whole.
    @Test func theWrappersLiteralsAreGatheredByTheirFirstByte() throws {
        let pattern = CodeCatalog.literalAlternation([Array("atal error: ".utf8), Array("atalException".utf8),
                                                      Array("uncaught exception".utf8), Array("uncaught exception".utf8),
                                                      Array("…crashed".utf8), Array("(".utf8)])
        #expect(pattern == #"\(|a(?:talException|tal error: )|uncaught exception|…crashed"#, "\(pattern)")
        let regex = try PCRERegex(pattern)
        let scratch = TestSupport.classifier.makeScratch()
        for text in ["a fatal error: x", "RCTFatalException", "An uncaught exception was raised", "it …crashed", "f(x)"] {
            var bytes = Array(text.utf8)
            #expect(bytes.withUnsafeMutableBytes { regex.matches(UnsafeRawBufferPointer($0), scratch: scratch.matchScratch) }, "\(text)")
        }
        var none = Array("a total error".utf8)
        #expect(!none.withUnsafeMutableBytes { regex.matches(UnsafeRawBufferPointer($0), scratch: scratch.matchScratch) })
    }

    @Test func everyWrapperRaisesToFatalAndMatchesItsExample() throws {
        #expect(Self.codes.wrappers.count >= 8)
        for wrapper in Self.codes.wrappers {
            #expect(Self.matchesItsExample(wrapper), "wrapper `\(wrapper.name)` does not match its example")
            let wrapped = wrapper.example + " Error Domain=NSCocoaErrorDomain Code=134100 \"The model used to open the store is incompatible\""
            let result = TestSupport.classify(wrapped)
            #expect(result?.severity == .fatal, "\(wrapper.name): \(result?.rule.id ?? "nil") \(result?.severity.name ?? "")")
        }
        // The same error without a wrapper keeps its own severity.
        #expect(TestSupport.classify(#"Error Domain=NSCocoaErrorDomain Code=134100 "x" UserInfo={}"#)?.severity == .error)
        // An exception's name and reason opening a line, as crash reporters title the issue, ended the app; the
        // name inside a sentence did not.
        #expect(TestSupport.classify("NSInvalidArgumentException: Duplicate version checksums across stages detected")?.severity == .fatal)
        #expect(TestSupport.classify("Staged migration failed with an NSInvalidArgumentException: Duplicate version checksums across stages detected")?.severity != .fatal)
    }

    @Test func theFallbackNamesTheAreaAndStaysQuietOnHealthyText() throws {
        let cases: [(String, String)] = [
            ("CoreData: error: Failed to rename the temporary file", "fallback.store"),
            // Core Data's XPC store that cannot reach its server is a daemon connection problem (the network's).
            ("CoreData: error: Failed to create NSXPCConnection", "fallback.network"),
            ("SwiftData: ModelContainer could not be created: unexpected layout", "fallback.init"),
            ("CloudKit: failed to fetch the zone list for an unknown reason", "fallback.cloudkit"),
            ("CoreData: error: migration of the legacy store failed", "fallback.migration"),
            // Setting up first: an entry saying a store could not be opened is about loading the stack,
            // whatever tag (`[Migration]`) or framework (CloudKit) it names.
            ("[Migration] Failed to open store <private>. Requires update via assetsd (256: <private>)", "fallback.init"),
            ("CloudKit setup failed because it couldn't register a handler for the export activity.", "fallback.init"),
            // An entity that cannot be located is a stack set up without the model the code assumes.
            ("fatal error: Could not locate the entity for MyAppTests.Example.: file Pods/Groot/Groot.swift, line 56", "fallback.init"),
            // Moving a database into an App Group container is where the store lives, not a model migration.
            ("Failed to migrate database to app group: Error Domain=NSCocoaErrorDomain Code=512 \"The file “Apps” couldn’t be saved.\" UserInfo={NSUnderlyingError=0x2 {Error Domain=NSPOSIXErrorDomain Code=22}}", "fallback.init"),
            ("[com.apple.swiftdata:PersistentModel] Illegal attempt to resolve a relationship of a model with no context, failed", "fallback.concurrency"),
            ("error: Error: Persistent History (2) has to be truncated due to the following entities being removed", "fallback.history"),
            ("Error merging: Error Domain=CDEErrorDomain Code=106 \"The operation couldn’t be completed.\"", "fallback.sync"),
            // Legacy iCloud's transaction logs and the sync libraries' errors are sync, not the store's.
            ("-[PFUbiquityTransactionLog loadPlistAtLocation:withError:](485): CoreData: Ubiquity: Error reading the log file at location: (null)", "fallback.sync"),
            ("(SyncKit.CloudKitSynchronizer.SyncError error 0) The operation couldn’t be completed.", "fallback.sync"),
            // A compiled model that cannot be found is the model's, even inside a store-loading call.
            ("-[AppPersistentContainer loadPersistentStoresWithCompletionHandler:]_block_invoke [Line 88] Error:\nUnable to find any managed object models.", "fallback.model"),
            ("[Store] error: Could not find Notes.momd in bundle com.example.notes", "fallback.model"),
            // A store or database library never initialised, or whose library could not be loaded, was not set up.
            ("[Instabug] Couldn't save userstep to CoreData. Error: Error Domain=PersistentStore not intialized Code=500 \"(null)\"", "fallback.init"),
            ("Unhandled Exception: IsarError: Could not initialize IsarCore library for processor architecture \"ios_arm64\"", "fallback.init"),
            // The per-line fields of a failed migration name its two stores.
            ("CoreData: error:   sourceURL : file:///private/var/mobile/Containers/Data/Application/X/Library/Application Support/default.store", "fallback.migration"),
            // A database library's replication that lost its connection is the network's; Realm's and
            // Couchbase Lite's own names mark persistence as Core Data's do.
            ("CouchbaseLite Replicator ERROR: {Repl#38} Got LiteCore error: Network error 3 \"connection timed out\"", "fallback.network"),
            ("CouchbaseLite Replicator Info: {Repl#38} pushStatus=stopped, pullStatus=idle, progress=855/855", "activity.sync"),
            // Retries that ran out are a failure, a retry a warning (the attempt before it failed); a CloudKit
            // export or import is the mirroring's, not the CloudKit client's (round 33, GD-001 and GD-002).
            ("CloudKit export retry exhausted", "fallback.sync"),
            ("Retrying CloudKit export (attempt 2/3)", "fallback.sync"),
        ]
        for (text, rule) in cases {
            #expect(TestSupport.classify(text)?.rule.id == rule, "\(text) → \(TestSupport.classify(text)?.rule.id ?? "nil")")
        }
        #expect(TestSupport.classify("CloudKit export retry exhausted")?.severity == .error)
        #expect(TestSupport.classify("Retrying CloudKit export (attempt 2/3)")?.severity == .warning)
        for healthy in ["CoreData: debug: CoreData+CloudKit: exporter finished without error",
                        "<Item: 0x1c828b400> (entity: Item; id: 0xd000000000200036 <x-coredata://5/Item/p8> ; data: <fault>)"] {
            #expect((TestSupport.classify(healthy)?.severity ?? .debug) <= .info, "\(healthy)")
        }
        // A termination is never quiet, even when it names no persistence area (Eval/COLLECTING.md).
        let termination = TestSupport.classify("*** Terminating app due to uncaught exception 'NSRangeException', reason: 'index 3 beyond bounds [0 .. 2]'")
        #expect(termination?.rule.id == "crash.console-termination" && termination?.severity == .fatal)
    }

    /// Every library the fallback's vocabulary admits an entry by has a marker that gives the entry a category: a
    /// failure it prints is never silent (round 103: Simperium's and MagicalRecord's errors got no finding).
    @Test func everyLibraryTheVocabularyNamesGetsAFinding() throws {
        let names = ["Simperium", "MagicalRecord", "CoreStore", "Ensembles", "YapDatabase", "UbiquityStoreManager", "FMDatabase",
                     "GRDB", "EncryptedStore", "DataStack", "Seam3", "CloudCore", "sqflite", "CouchbaseLite", "WatermelonDB", "ObjectBox",
                     "MMKV", "SQLite", "CoreData", "SwiftData", "CloudKit"]
        for name in names {
            let text = "\(name) error: the operation failed"
            let finding = TestSupport.classify(text)
            #expect(finding != nil && (finding?.severity ?? .debug) >= .error, "\(text) → \(finding?.rule.id ?? "nil")")
        }
        #expect(TestSupport.classify("Simperium error (Deal), received an invalid change for (84257335ea1a)")?.category == .sync)
        #expect(TestSupport.classify("MagicalRecord error: bucket list not loaded")?.category == .store)
    }

    /// Mirroring's setup code, named in the `CoreData+CloudKit: -[Class method](line):` prefix, is `init` whatever
    /// went wrong in it; the exporter's and importer's own messages stay `sync`. (The sentences are Core Data's,
    /// from its CloudKit string tables.)
    @Test func mirroringSetupCodeIsInitExportAndImportAreSync() throws {
        let setup = try #require(TestSupport.classify("error: CoreData+CloudKit: -[PFCloudKitSetupAssistant _checkAndInitializeMetadata:]_block_invoke(1080): Failed to initialize CloudKit metadata: <private>"))
        #expect(setup.category == .initialization && setup.severity == .error, "\(setup.rule.id)")
        let working = try #require(TestSupport.classify("CoreData: debug: CoreData+CloudKit: -[PFCloudKitSetupAssistant _setupDatabaseSubscriptionIfNecessary:](1287): <PFCloudKitSetupAssistant: 0x600003a1c000>: Saving subscription"))
        #expect(working.category == .initialization && working.severity <= .info, "\(working.rule.id)")
        let export = try #require(TestSupport.classify("error: CoreData+CloudKit: -[PFCloudKitExporter exportOperationFinished:withSavedRecords:deletedRecordIDs:operationError:]_block_invoke(712): Failed to save record name updates: <private>"))
        #expect(export.category == .sync, "\(export.rule.id)")
        // The setup classes named outside the prefix (a trap's line) are setup too (round 34's IA-037).
        let trapped = try #require(TestSupport.classify("EXC_BREAKPOINT in [PFCloudKitContainerProvider containerWithIdentifier:options:]"))
        #expect(trapped.category == .initialization && trapped.severity == .fatal, "\(trapped.rule.id)")
    }

    /// The fallback reads a message's words, not the symbols of the frames pasted under it: a crash whose
    /// only persistence words are frames is the termination rule's, and the area table reads the frames.
    @Test func theFallbackReadsWordsNotFrames() throws {
        let crash = "Crashed: com.batch.userprofile.queue\nEXC_BAD_ACCESS KERN_PROTECTION_FAILURE 0x00000065756c6176\n"
            + "0  libsqlite3.dylib               0xb5950 sqlite3_sourceid + 1672\n"
            + "1  App                            0x2a30fc -[BAUserSQLiteDatasource attributes] + 4365725948\n"
            + "2  App                            0x2a6ba8 __25-[BAUserDataEditor save:]_block_invoke + 4365740968"
        let finding = try #require(TestSupport.classify(crash))
        #expect(finding.rule.id == "crash.console-termination", "\(finding.rule.id)")
        #expect(finding.category == .store && finding.severity == .fatal, "\(finding.category) \(finding.severity)")
        // The words above the frames still decide when they name the area.
        let named = "CoreData: error: migration of the legacy store failed\n0   App   0x100a2c3f4 -[Importer attributes] + 36"
        #expect(TestSupport.classify(named)?.rule.id == "fallback.migration")
        // A Swift trap's source location is where the code ran, not what went wrong: its path's words
        // (`…/Database/…`) do not give the trap an area.
        for trap in ["Fatal error: Unexpectedly found nil while unwrapping an Optional value: file /Users/me/App/Common/Database/DataManager.swift, line 35",
                     "App/Database/SQLiteStore.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value"] {
            let verdict = TestSupport.classify(trap)
            #expect(verdict?.category == .crash && verdict?.severity == .fatal, "\(trap) → \(verdict?.rule.id ?? "nil")")
        }
        let location = Array("x App/Database/Store.swift:42: y file /a/b/Store.swift, line 7 z".utf8)
        #expect(location.withUnsafeBytes { StackLines.withoutSourceLocations($0) }.map { String(decoding: $0, as: UTF8.self) } == "x   y   z")
        #expect(Array("Store.swift is missing".utf8).withUnsafeBytes { StackLines.withoutSourceLocations($0) } == nil)
        // What counts as a frame: the forms pages and runtimes print, not a numbered sentence.
        for frame in ["0   CoreFoundation  0x1a7bee86c __exceptionPreprocess + 220", "> 3 | sqlite3WalCheckpoint (wal.c:3285)",
                      "    at 1   App.dylib  0x10c2ddcdf  kfun:kotlin.Exception#<init>(kotlin.String?)",
                      "#1 0x97a016af in pthread_mutex_lock ()", "    frame #0: 0x00000001a0d26efc libobjc.A.dylib`objc_msgSend + 16"] {
            #expect(Array(frame.utf8).withUnsafeBytes { StackLines.isFrame($0) }, "\(frame)")
        }
        for line in ["1. Open the app", "12 tests failed", "at least 2 stores", "frame rate dropped"] {
            #expect(!Array(line.utf8).withUnsafeBytes { StackLines.isFrame($0) }, "\(line)")
        }
    }

    @Test func framesPrintedWithoutANumberAreFrames() throws {
        // sample / spindump / Instruments, Sentry's image-relative form, Xcode's debug navigator.
        for frame in ["sqlite3VdbeExec (in libsqlite3.dylib) + 2044", "0pcache1FetchStage2 (in MyApp) pcache1.c:910",
                      "sqlite3 +0x017e98 sqlite3DbFreeNN sqlite3.c:26936", "sqlite3ExprListAppend 0x000000011fa5a9f5",
                      "  __pthread_kill (in libsystem_kernel.dylib) + 8"] {
            #expect(Array(frame.utf8).withUnsafeBytes { StackLines.isFrame($0) }, "\(frame)")
        }
        for line in ["Saving (in background) now", "Retry +0x10 later", "Object at 0x00000001a46ef5dc was released",
                     "handle 0x1f", "CoreData: error: (in Model) failed"] {
            #expect(!Array(line.utf8).withUnsafeBytes { StackLines.isFrame($0) }, "\(line)")
        }
        // Pasted alone, such a stack is a termination the area table places; one line of it is not a stack.
        let stack = "sqlite3ExprListAppend 0x000000011fa5a9f5\nyy_reduce 0x000000011fa3da54\nsqlite3RunParser 0x000000011f9d4727\nsqlite3_prepare 0x000000011f9d1fbc"
        let finding = try #require(TestSupport.classify(stack))
        #expect(finding.rule.id == "crash.pasted-stack" && finding.category == .store && finding.severity == .fatal,
                "\(finding.rule.id) \(finding.category) \(finding.severity)")
        #expect(TestSupport.classify("Saved object 0x00000001a46ef5dc\nReloading the list")?.rule.id != "crash.pasted-stack")
        // The splitter keeps such frames under the line above them.
        let entries = try TestSupport.entries("CoreData: error: SQLite error code:11, 'database disk image is malformed'\nsqlite3VdbeExec (in libsqlite3.dylib) + 2044\nsqlite3_step (in libsqlite3.dylib) + 68\nApp launched")
        #expect(entries.count == 2, "\(entries.count)")
    }

    @Test func theCodeRuleAdmitsEveryPrintedName() throws {
        let rule = try #require(TestSupport.classifier.ruleSet.rules.first { $0.id == "code.table" })
        let scratch = TestSupport.classifier.makeScratch()
        for entry in Self.codes.entries {
            guard let printed = entry.printed else { continue }
            for text in ["\"\(printed)\" (\(entry.code))", "Sync stopped. \(printed): the server said no"] where !entry.generic || text.hasPrefix("\"") {
                #expect(TestSupport.classifier.ruleMatches(rule, text: text, scratch: scratch), "\(text)")
            }
        }
    }

    /// A CloudKit name an app printed as the error's whole description (`error.localizedDescription` after a
    /// label) decides its row where the line names CloudKit, before the name or after it, and nothing where it
    /// does not: `Error: Service Unavailable` is an HTTP server's as often.
    @Test func aPrintedNameAloneCountsWithCloudKitOnItsLine() throws {
        let scratch = TestSupport.classifier.makeScratch()
        let rule = try #require(TestSupport.classifier.ruleSet.rules.first { $0.id == "code.table" })
        for entry in Self.codes.entries where entry.domain == "CKErrorDomain" {
            guard let printed = entry.printed else { continue }
            for text in ["Save to privateDB failed | Error: \(printed) | Duration: 0.8s",
                         "Upload failed, error = \"\(printed)\". Retrying the CKModifyRecordsOperation"] {
                #expect(Self.decided(text, scratch: scratch)?.code == entry.code, "\(text)")
                #expect(TestSupport.classifier.ruleMatches(rule, text: text, scratch: scratch), "\(text)")
            }
            #expect(Self.decided("Request to the image server failed: \(printed)", scratch: scratch) == nil, "\(printed)")
        }
    }

    /// The row that decides `text` (all printed forms, names included), nil when none does.    /// The row that decides `text` (all printed forms, names included), nil when none does.
    static func decided(_ text: String, scratch: Classifier.Scratch) -> CodeEntry? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { codes.decide(codes.recognise(UnsafeRawBufferPointer($0), scratch: scratch.matchScratch)) }?.entry
    }

    /// CloudKit's Swift case names and Core Data's error constants, as code and app logs spell them: a long
    /// case name alone, a short one only after CloudKit or sync words, a constant anywhere.
    @Test func aCodesOwnNameIsRecognisedAndAdmitted() throws {
        let rule = try #require(TestSupport.classifier.ruleSet.rules.first { $0.id == "code.name" })
        let scratch = TestSupport.classifier.makeScratch()
        let decided = { (text: String) in Self.decided(text, scratch: scratch) }
        var names = 0
        for table in Self.codes.tables {
            for entry in table.entries where !entry.isRange {
                let isCase = table.key == "ckerror"
                guard isCase || (entry.name.hasPrefix("NS") && entry.name.hasSuffix("Error")) else { continue }
                names += 1
                let text = isCase ? "Sync failed: .\(entry.name)" : "addPersistentStore failed: \(entry.name)"
                #expect(TestSupport.classifier.ruleMatches(rule, text: text, scratch: scratch), "\(text)")
                #expect(decided(text)?.code == entry.code, "\(text)")
                if isCase, entry.name.filter(\.isUppercase).count < 2 {
                    // A short case name with nothing of CloudKit or sync on its line is somebody else's.
                    #expect(decided("Request failed: \(entry.name)") == nil, "\(entry.name)")
                }
            }
        }
        #expect(names >= 60, "\(names) names")
        #expect(decided("Request failed: zoneNotFound")?.code == 26)
        #expect(decided("let zoneNotFoundCount = 3") == nil)
    }

    /// CloudKit's web-service names (`serverErrorCode`), as CloudKit Web Services, CloudKit JS and the scripts
    /// that call them print them: each names its CKError row after a CloudKit or iCloud word, a CloudKit JS key
    /// or one of CloudKit's databases, never alone (`NOT_FOUND` and `BAD_REQUEST` are every HTTP service's words).
    @Test func aCloudKitWebServiceNameIsRecognisedInContextOnly() throws {
        let rule = try #require(TestSupport.classifier.ruleSet.rules.first { $0.id == "code.name" })
        let scratch = TestSupport.classifier.makeScratch()
        let decided = { (text: String) in Self.decided(text, scratch: scratch) }
        let table = try #require(Self.codes.tables.first { $0.key == "ckerror" })
        var names = 0
        for entry in table.entries {
            for name in entry.server {
                names += 1
                for text in ["\"serverErrorCode\" : \"\(name)\",", "_ckErrorCode: \"\(name)\"",
                             "Please finish setting up your iCloud service (\(name))",
                             "private db access disabled for this account. Please try again. (\(name))"] {
                    #expect(TestSupport.classifier.ruleMatches(rule, text: text, scratch: scratch), "\(text)")
                    #expect(decided(text)?.code == entry.code, "\(text)")
                }
                #expect(decided("request failed (\(name))") == nil, "\(name)")
                // Doubled, as an iCloud client prints a server's reason it was not given (`INTERNAL_ERROR (INTERNAL_ERROR)`).
                #expect(decided("ERROR    \(name) (\(name))")?.code == entry.code, "\(name) doubled")
                #expect(Self.codes.entry(named: name)?.code == entry.code, "\(name)")
            }
        }
        #expect(names == 14, "\(names) names")
    }

    @Test func aBadTableIsOneErrorPointingIntoIt() throws {
        let bad = "domain: X\nkey: x\ncodes:\n  - {code: 1, name: a, category: nowhere, severity: error, meaning: m, advice: a}\n"
        #expect(throws: RuleFileError.self) { _ = try CodeCatalog.load(files: [("Rules/tables/x.yaml", bad)]) }
        let duplicate = "domain: X\nkey: x\ncodes:\n  - {code: 1, name: a, category: store, severity: error, meaning: m, advice: a}\n  - {code: 1, name: b, category: store, severity: error, meaning: m, advice: a}\n"
        #expect(throws: RuleFileError.self) { _ = try CodeCatalog.load(files: [("Rules/tables/x.yaml", duplicate)]) }
        // Internal codes: one `CODE Name [-> PUBLIC]` a line, each public code one the table lists.
        let row = "codes:\n  - {code: 1, name: a, category: store, severity: error, meaning: m, advice: a}\n"
        let sameDomain = "domain: X\nkey: x\ninternal:\n  domain: X\n  codes: |\n    1000 Generic\n" + "codes:\n  - {code: 1, name: a, category: store, severity: error, meaning: m, advice: a}\n"
        #expect(throws: RuleFileError.self) { _ = try CodeCatalog.load(files: [("Rules/tables/x.yaml", sameDomain)]) }
        let good = "domain: X\nkey: x\ninternal:\n  domain: XInternal\n  codes: |\n    1000 Generic -> 1\n    1001 Other\n" + row
        let table = try #require(try CodeCatalog.load(files: [("Rules/tables/x.yaml", good)]).tables.first)
        #expect(table.internalCodes == [1000: 1] && table.internalNames[1001] == "Other")
        for line in ["1000 Generic -> 2", "1000 Generic 1", "x Generic", "1000 Generic -> 1\n    1000 Again"] {
            let text = "domain: X\nkey: x\ninternal:\n  domain: XInternal\n  codes: |\n    \(line)\n" + row
            #expect(throws: RuleFileError.self, "\(line)") { _ = try CodeCatalog.load(files: [("Rules/tables/x.yaml", text)]) }
        }
    }

    /// The fallback file's `debugLevel`: one pattern (anything else is an error pointing into the file); an `info`
    /// finding in an entry that prints a debug level word near its start is reported at `debug`, the same rule.
    @Test func infoAtADebugLevelIsDebug() throws {
        let file = "markers:\n  - {pattern: 'x', category: store, title: T}\n"
        #expect(try CodeCatalog.load(files: [("Rules/tables/f.yaml", file + "debugLevel: '\\\\[debug\\\\]'\n")]).debugLevel != nil)
        #expect(throws: RuleFileError.self) { _ = try CodeCatalog.load(files: [("Rules/tables/f.yaml", file + "debugLevel: [a, b]\n")]) }
        let line = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate _beginWatchingForChanges](603): <NSCloudKitMirroringDelegate: 0x6000003e4410>: Scheduling post-setup export"
        let plain = try #require(TestSupport.classify(line))
        let atDebug = try #require(TestSupport.classify("CoreData: debug: " + line))
        #expect(plain.severity == .info && atDebug.severity == .debug && atDebug.rule.id == plain.rule.id)
        // Past the first bytes a level word is the message's text, not its level.
        let late = String(repeating: "x", count: CodeCatalog.debugLevelWindow) + " [debug] " + line
        #expect(TestSupport.classify(late)?.severity != .debug)
    }
}
