import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Testing

@Suite struct EntrySplitterTests {
    static let multiLine = """
    CoreData: error: -executeRequest: encountered exception = Error Domain=NSCocoaErrorDomain Code=133020 "Could not merge changes." UserInfo={conflictList=(
        "NSMergeConflict (0x600002d0c300) for NSManagedObject (0x600003e6c2d0) with objectID '0xb3c4 <x-coredata://UUID/Item/p1>' with oldVersion = 4 and newVersion = 5"
    )}
    CoreData: debug: CoreData+CloudKit: next entry
    Error Domain=CKErrorDomain Code=2 "(null)"
    <CKError 0x1: "Zone Busy" (23/2000)>
    plain second
    """

    @Test func continuationLinesStayWithTheirEntry() throws {
        let entries = try TestSupport.entries(Self.multiLine)
        #expect(entries.count == 3)
        #expect(entries[0].line == 1 && entries[0].endLine == 3)
        #expect(entries[0].message.contains("newVersion = 5"))
        #expect(entries[1].line == 4 && entries[1].endLine == 6)
        #expect(entries[2].message == "plain second")
    }

    /// Round 111: a trap quoted in a code comment and wrapped by it stays one message, whether its first line kept
    /// the comment's marker or lost it when it was copied; separate comment sentences stay separate entries.
    @Test func aMessageWrappedInACodeCommentIsOneEntry() throws {
        let quoted = """
        /// SwiftData/BackingData.swift:940: Fatal error: Never access a full
        ///   future backing data - PersistentIdentifier(id: ...)
        // The store is opened on the main actor.
        // Second sentence of the same comment.
        """
        let entries = try TestSupport.entries(quoted)
        #expect(entries.map(\.line) == [1, 3, 4])
        #expect(TestSupport.classify(entries[0].message)?.category == .concurrency)
        let unmarked = try TestSupport.entries("""
        SwiftData/BackingData.swift:940: Fatal error: Never access a full
        ///   future backing data - PersistentIdentifier(id: ...)
        """)
        #expect(unmarked.count == 1)
        // A marker with one blank under a line that is no comment, or with nothing after it, goes on nothing.
        let separate = try TestSupport.entries("""
        CoreData: error: Failed to load the store for
        // the reason below
        //
        """)
        #expect(separate.map(\.line) == [1, 2, 3])
    }

    /// Round 114: what a Mac tool prints under an error stays with it: a `Stack trace:` heading and its `#0` frame, `- `
    /// items under a message that announces them, GORM's statement under the location that failed, Node's hint
    /// under its warning, a `Failure reason:` line, a crash report's `Dyld Error Message:` heading and its text.
    @Test func detailsAToolPrintsUnderAnErrorStayWithIt() throws {
        let php = try TestSupport.entries("""
        PHP Fatal error:  Uncaught PDOException: SQLSTATE[HY000]: General error: 1 no such table: config in /Users/me/workflow.php:428
        Stack trace:
        #0 /Users/me/workflow.php(428): PDO->prepare('SELECT value FR...')
        #1 /Users/me/workflow.php(93): Workflow::getConfig('token')
        Next message
        """)
        #expect(php.map(\.line) == [1, 5])
        let list = try TestSupport.entries("""
        [state-migrations] Legacy state migration warnings:
        - Failed migrating legacy triggers: Error: commit failure
        - Archived legacy source
        - [debug] Opened database
        """)
        #expect(list.map(\.line) == [1])
        let items = try TestSupport.entries("""
        - [debug] Initializing SQLitePlugin
        - [debug] Detected docs path: /var/mobile/Documents
        """)
        #expect(items.map(\.line) == [1, 2])
        let gorm = try TestSupport.entries("""
        2025/02/10 22:43:51 /Users/me/go/pkg/mod/app/cmd/merge.go:229 database disk image is malformed
        [141.428ms] [rows:623] SELECT * FROM `network_logs` WHERE `network_logs`.`result_id` IN (1,2,3)

        (/Users/me/app/database/database.go:370)
        [2022-01-22 08:12:08]  no such table: widgets
        """)
        #expect(gorm.map(\.line) == [1, 4])
        let node = try TestSupport.entries("""
        (node:214) ExperimentalWarning: SQLite is an experimental feature and might change at any time
        (Use `node --trace-warnings ...` to show where the warning was created)
        """)
        #expect(node.count == 1)
        let reason = try TestSupport.entries("""
        Failed to add rule(s) to database: A database error occurred while inserting/replacing a rule
        Failure reason: disk I/O error
        Rule download failed, aborting run
        """)
        #expect(reason.map(\.line) == [1, 3])
        let dyld = try TestSupport.entries("""
        Dyld Error Message:
        Dyld Message: Library not loaded: @rpath/FMDB.framework/FMDB
        """)
        #expect(dyld.count == 1)
        #expect(TestSupport.classify(dyld[0].message)?.category == .initialization)
    }

    /// Round 114: a logger that opens every message with an indented bullet (Go's apex/log) gets one entry a bullet;
    /// bullets under a heading stay the heading's.
    @Test func bulletsOpenMessagesUnlessAHeadingAnnouncesThem() throws {
        let apex = try TestSupport.entries("""
              ⨯ query all widgets failed  error=no such table: widgets
              • parsing launchpad config YAML path=launchpad.yml
        [2022-01-22 08:12:08]  no such table: widgets
              • creating App folders and adding apps to them
                 • found apps/widgets that are not in supplied config count=12
        """)
        #expect(apex.map(\.line) == [1, 2, 3, 4, 5])
        let advice = try TestSupport.entries("""
        💡 Troubleshooting:
           • Verify your API token is valid
           • Check your internet connection
        """)
        #expect(advice.count == 1)
        // Bullets inside a bracket the message left open are its text.
        let userInfo = try TestSupport.entries("""
        Error Domain=NSCocoaErrorDomain Code=134110 UserInfo={
           • reason one
           • reason two
        }
        """)
        #expect(userInfo.count == 1)
    }

    /// Round 114: a Swift trap at its source location under a prefixed log line opens a message of its own, and
    /// Python's chained tracebacks, with or without the blank lines around the chain sentence, are one entry.
    @Test func trapsAndChainedTracebacksKeepTheirBounds() throws {
        let trap = try TestSupport.entries("""
        2023-07-11 15:49:36.137996+0100 App[17643:174990] [logging-persist] os_unix.c:46847: (0) open(/Users/me/db.sqlite) - Undefined error: 0
        Runner/MainFlutterWindow.swift:64: Fatal error: 'try!' expression unexpectedly raised an error: unable to open database file (code: 14)
        """)
        #expect(trap.map(\.line) == [1, 2])
        let chained = try TestSupport.entries("""
        Traceback (most recent call last):
          File "peewee.py", line 3237, in execute_sql
        sqlite3.OperationalError: database is locked

        During handling of the above exception, another exception occurred:

        Traceback (most recent call last):
          File "flask/app.py", line 1517, in full_dispatch_request
        peewee.OperationalError: database is locked

        Next message
        """)
        #expect(chained.map(\.line) == [1, 11])
        // Across a blank line only the chain goes on a traceback; an indented note after it is a message of its own.
        let note = try TestSupport.entries("""
        Traceback (most recent call last):
          File "app.py", line 3, in <module>
        sqlite3.OperationalError: database is locked

          an indented note after the blank line
        """)
        #expect(note.map(\.line) == [1, 5])
        #expect(TestSupport.classify(chained[0].message)?.category == .store)
        let tight = try TestSupport.entries("""
        2024-02-22 22:47:22 ERROR    Traceback (most recent call last):
          File "pyicloud_ipd/base.py", line 207, in _raise_error
        pyicloud_ipd.exceptions.PyiCloudAPIResponseException: Authentication required for Account. (500)
        The above exception was the direct cause of the following exception:
        Traceback (most recent call last):
          File "icloudpd/base.py", line 6, in <module>
        """)
        #expect(tight.count == 1)
        // A traceback that opens the entry and names nothing of persistence is the program's own crash.
        let own = try TestSupport.entries("""
        Traceback (most recent call last):
          File "./export.py", line 96, in <module>
            run(sys.argv[1], sys.argv[2])
        IndexError: list index out of range
        """)
        #expect(TestSupport.classify(own[0].message)?.rule.id == "crash.python-traceback")
    }

    /// Issue 21: a Crashlytics block's header lines (the trap, the crashed thread) stay with its first line,
    /// so the frames that name the cause are in the same entry as the trap; a trap printed after a log
    /// line stays with that line. A line that only mentions a trap word is an entry of its own.
    @Test func crashlyticsHeaderLinesStayTogether() throws {
        let text = """
        crashed: com.example.SyncQueue
        EXC_BAD_ACCESS KERN_INVALID_ADDRESS at 0x00000010
        Thread : Crashed: SyncQueue
        0  CoreData  0x2d375a18 -[NSManagedObjectContext setParentContext:] + 35
        1  MyApp  0x001aaa57 -[Sync start] + 40
        CoreData: error: saving the import
        EXC_BREAKPOINT UNKNOWN at 0x0000defe
        Thread 3 Crashed:
        0  CoreData  0x2d3f9a76 -[NSManagedObjectContext _thereIsNoSadnessLikeTheDeathOfOptimism] + 33
        EXC_BAD_ACCESS is only a word here
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 6, 10])
        #expect(entries.map(\.endLine) == [5, 9, 10])
        #expect(TestSupport.classify(entries[0].message)?.category == .concurrency)
        #expect(TestSupport.classify(entries[1].message)?.category == .concurrency)
    }

    @Test func frameLinesOfImagesWithSpacesStayWithTheirCrash() throws {
        let text = """
        Crashed: com.apple.main-thread
        0  The Blue Alliance              0x104f29210 specialized TableViewDataSource.controllerDidChangeContent(_:) + 108
        1  CoreData                       0x1af64af74 __82-[NSFetchedResultsController(PrivateMethods) _core_managedObjectContextDidChange:]_block_invoke + 5016
        2 Google Maps 0x1000 main + 12
        3 apples and 0x pears
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 5])
        #expect(entries.map(\.endLine) == [4, 5])
    }

    /// Crash reporters that print frames without addresses (`N  image  symbol + 20`, Bugly's `N | symbol
    /// (file.c:12)`, `N  image  symbol (File.m:12)`) and the signal and its code on lines of their own: one
    /// entry with the thread above them. Numbered steps and a sentence naming a signal are not frames.
    @Test func addresslessFramesAndSignalLinesStayWithTheirThread() throws {
        let text = """
        #14 Thread
        SIGSEGV
        SEGV_ACCERR
        0 libsqlite3.dylib	sqlite3_log + 43412
        1 libsqlite3.dylib	sqlite3_exec + 10664
        2 MyApp	-[Database query:] (Database.m:761)

        0 | pcache1Fetch (sqlite3.c:46558)
        1 | sqlite3PagerGet (sqlite3.c:45121)
        EXC_BREAKPOINT 0x00000001afea6af0
        1. Open the app
        2. Tap Sync
        SIGABRT is what the debugger showed
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 8, 11, 12, 13])
        #expect(entries.map(\.endLine) == [6, 10, 11, 12, 13])
        #expect(TestSupport.classify(entries[0].message)?.category == .store)
        #expect(TestSupport.classify(entries[0].message)?.severity == .fatal)
        // Crashlytics' block: the queue, the signal with its code and address, a blank line, the crashed thread
        // again and its frames (CU-001's shape, github.com/amplitude/Amplitude-iOS); a signal's name in a
        // sentence is not such a line.
        let block = try TestSupport.entries("Crashed: com.amplitude.db.queue\nSIGABRT ABORT 0x000000018fffa014\n\nCrashed: com.amplitude.db.queue\n"
            + "0  libsystem_kernel.dylib         0x18fffa014 __pthread_kill + 8\n5  libsqlite3.dylib               0x19159f6f8 (null) + 2552\n"
            + "SIGABRT THEN what 0x1 happened\n", format: .xcode)
        #expect(block.map(\.line) == [1, 7])
        #expect(TestSupport.classify(block[0].message)?.category == .store)
    }

    /// Frames a poster picked out of a symbolicated stack (no image, no address) count up: one stack. A
    /// numbered line whose number does not grow, or a list item, starts an entry of its own.
    @Test func numberedFramesCountingUpAreOneStack() throws {
        let text = """
        0  _assertionFailure
        2  SwiftData __swift_memcpy9_8
        4  SwiftData _SD_get_faulting_backingdata_tsd
        5  PositionEntity.coordinate.getter
        1  restarted numbering
        1. Open the app
        2. Tap Sync
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 5, 6, 7])
        #expect(entries.map(\.endLine) == [4, 5, 6, 7])
        let stack = try #require(TestSupport.classify(entries[0].message))
        #expect(stack.category == .concurrency && stack.severity == .fatal, "\(stack.rule.id)")
    }

    /// A userInfo key a poster put on its own line under the error stays with it (round 30); a line that only
    /// starts with `NS` is a message of its own.
    @Test func aUserInfoKeyOnItsOwnLineStaysWithItsError() throws {
        let text = """
        CoreData: error: Store failed to load (Code 134060)
        NSLocalizedFailureReason=CloudKit integration requires that all relationships have an inverse, the following do not:
        NSNotAKey is printed here
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 3])
        #expect(TestSupport.classify(entries[0].message)?.category == .model)
    }

    /// lldb's `frame #N:` lines indented by a page, gdb's `#N` and Godot's bracketed `[N] N  image` frames count
    /// up too (round 30: each frame had been an entry of its own, and the stack no crash).
    @Test func debuggerAndBracketedFramesCountingUpAreOneStack() throws {
        let lldb = """
            frame #6: 0x000000011b1faf58 libsqlite3.dylib`sqlite3BtreeBeginTrans + 1480
            frame #7: 0x000000011b24787e libsqlite3.dylib`sqlite3VdbeExec + 7918
            frame #8: 0x000000011b1f84c1 libsqlite3.dylib`sqlite3_step + 705
        frame #2: not a frame of this stack
        """
        var entries = try TestSupport.entries(lldb, format: .xcode)
        #expect(entries.map(\.line) == [1, 4])
        #expect(TestSupport.classify(entries[0].message)?.category == .store)
        let godot = """
        Dumping the backtrace.
        [1] 1   libsystem_platform.dylib            0x00007fff203abd7d _sigtramp + 29
        [3] 3   libsqlite3.0.dylib                  0x000000011e5196c7 sqlite3VdbeMemSetStr + 109
        [4] SQLQuery(sqlite3*, char const*, SQLResult*)
        [2] 2   restarted numbering
        """
        entries = try TestSupport.entries(godot, format: .xcode)
        #expect(entries.map(\.line) == [1, 2, 5])
        #expect(entries.map(\.endLine) == [1, 4, 5])
        let gdb = "#0  0x00007fff8a1 in sqlite3VdbeExec ()\n#1  0x00007fff8a2 in sqlite3_step ()\n#1  again"
        entries = try TestSupport.entries(gdb, format: .xcode)
        #expect(entries.map(\.line) == [1, 3])
    }

    /// Kotlin/.NET frames (`at 1   …`) and crash reporters' piped frames (`3 | …`) count up the same way,
    /// and a stack whose frames name SQLite, pasted without its crash line, is a crash in SQLite.
    @Test func framesWithAtOrPipesAreOneStackAndSQLiteFramesAreACrash() throws {
        let kotlin = """
        at 0   ThrowSql_SQLiteException
        at 1   android::throw_sqlite3_exception(int, char const*, char const*)
        at 2   SQLiter_SQLiteConnection_nativePrepareStatement
        at 3   kfun:co.touchlab.sqliter.NativeDatabaseConnection#createStatement(kotlin.String)
        at the end of the day
        """
        let entries = try TestSupport.entries(kotlin, format: .xcode)
        #expect(entries.map(\.line) == [1, 5])
        let crash = try #require(TestSupport.classify(entries[0].message))
        #expect(crash.category == .store && crash.severity == .fatal, "\(crash.rule.id)")
        let piped = """
        0 | walIndexTryHdr (wal.c:2033)
        1 | walIndexReadHdr (wal.c:2092)
        2 | sqlite3WalCheckpoint (wal.c:3285)
        3 | sqlite3WalClose (wal.c:1961)
        """
        let stack = try TestSupport.entries(piped, format: .xcode)
        #expect(stack.map(\.line) == [1] && stack.map(\.endLine) == [4])
        let result = try #require(TestSupport.classify(stack[0].message))
        #expect(result.category == .store && result.severity == .fatal, "\(result.rule.id)")
    }

    /// AppKit's `An uncaught exception was raised`, the reason on the next line and NSException's `(`
    /// frame list are one exception; its reason decides the finding.
    @Test func appKitsUncaughtExceptionKeepsItsReasonAndFrames() throws {
        let text = """
        An uncaught exception was raised
        +entityForName: nil is not a legal NSManagedObjectContext parameter searching for entity name 'Record'
        (
        	0   CoreFoundation    0x00007fff90d8403c __exceptionPreprocess + 172
        	1   libobjc.A.dylib   0x00007fff91a6976e objc_exception_throw + 43
        )
        Next message
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 7])
        let exception = try #require(TestSupport.classify(entries[0].message))
        #expect(exception.category == .initialization && exception.severity == .fatal, "\(exception.rule.id)")
    }

    /// Bare lines among prefixed ones that open with bracketed tags (`[SQLITERK_OK]`, `[SQLITERK_DAMAGED]`)
    /// are a logger's messages, one each.
    @Test func bracketedTagsOpenMessagesAmongPrefixedLines() throws {
        let text = """
        [SQLITERK_OK] Begin parsing sqlite_master...
        [SQLITERK_DAMAGED] Failed to parse page 1.
        2023-02-06 18:32:11.595739+0800 App[16074:450406] Code:1, Type:SQLiteGlobal, Msg:table test already exists
        [SQLITERK_CANTOPEN] EXEC FAILED: table test already exists
        """
        // Mostly bare (three bare lines open messages, one line is prefixed): the tagged line after the
        // prefixed one is a message of its own too (X-P02's labels).
        #expect(try TestSupport.entries(text).map(\.line) == [1, 2, 3, 4])
        // Mostly prefixed: a bare tagged line under a prefixed message is a message of its own too (the app's
        // logger printed it; X-P02 labels every such line an entry).
        let prefixed = """
        2023-02-06 18:32:11.595000+0800 App[16074:450406] Opening the database
        2023-02-06 18:32:11.595100+0800 App[16074:450406] Checking pages
        [SQLITERK_OK] Begin parsing sqlite_master...
        2023-02-06 18:32:11.595739+0800 App[16074:450406] Code:1, Type:SQLiteGlobal, Msg:table test already exists
        [SQLITERK_CANTOPEN] EXEC FAILED: table test already exists
        """
        #expect(try TestSupport.entries(prefixed).map(\.line) == [1, 2, 3, 4, 5])
    }

    /// Crashlytics sets a blank line between its header block (`Crashed: queue`, the trap) and the crashed
    /// thread or the trap's message: one crash. Any other line after a blank line is a message of its own.
    @Test func aCrashHeaderBlockKeepsItsThreadAcrossABlankLine() throws {
        let text = """
        Crashed: com.apple.main-thread
        EXC_BAD_ACCESS KERN_INVALID_ADDRESS 0x0000000000000000

        Crashed: com.apple.main-thread
        0  libsqlite3.dylib  0x181cce03c sqlite3_step + 9096
        1  App  0x100a2c3f4 -[Store fetch] + 36

        Next message
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 8])
        #expect(TestSupport.classify(entries[0].message)?.category == .store)
        // Three blank lines end the header block: what follows is not its thread.
        let apart = try TestSupport.entries("Crashed: com.apple.main-thread\n\n\n\nCrashed: com.example.other\n", format: .xcode)
        #expect(apart.map(\.line) == [1, 5])
        // Crashlytics' GitHub issue text: the method's heading and its crash counts after a blank line.
        let issue = try TestSupport.entries("#### in -[NSSQLiteConnection prepareSQLStatement:]\n\n* Number of crashes: 1\n* Impacted devices: 1\n", format: .xcode)
        #expect(issue.first?.endLine == 3)
        // A crash service's issue summarises a crash report: `crash`, whatever its one frame names (AreaTableTests).
        #expect(TestSupport.classify(issue[0].message)?.category == .crash)
        // The trap's message right under the `Crashed:` line (Crashlytics' `crash_info_entry_0` key glued to
        // it, a backtick before it as a page printed it): one crash, its category the message's.
        let trap = try TestSupport.entries("Crashed: com.apple.root.default-qos\n`crash_info_entry_0Fatal error: 'try!' expression unexpectedly raised an error: Error Domain=io.realm Code=2 \"Unable to open a realm at path '/x/db.realm': open() failed: Operation not permitted.\"\nNext message\n", format: .xcode)
        #expect(trap.map(\.line) == [1, 3])
        #expect(TestSupport.classify(trap[0].message)?.category == .store)
        // A second line of its own after a thread's frames is not the heading's message.
        let framed = try TestSupport.entries("Crashed: com.apple.main-thread\n0  App  0x1 main + 1\nFatal error: later\n", format: .xcode)
        #expect(framed.count == 2)
    }

    /// A crash service's issue copy: the exception's name, the frame it blames and the reason, then after
    /// blank lines the crashed thread's heading (`Thread 1 Queue 202: … [Crashed]:`, Instabug's `Thread 0
    /// [Crashed]:` under `# Cause:`) and its frames: one crash, classified by its reason.
    @Test func aCrashServicesIssueCopyIsOneEntry() throws {
        // Shape of Eval/dev/CA-retired.jsonl CA-021 (an Instabug crash pasted into an issue).
        let issue = """
        NSInvalidArgumentException
        specialized Store.deleteObjects<A>(in:fetchRequest:) + 75
        Fetch must have an entity

        Thread 1 Queue 202: NSManagedObjectContext 0x2815c23c0: com.example.Context (serial) [Crashed]:

        0    CoreFoundation                           0x1d33c1288     __exceptionPreprocess + 220
        1    libobjc.A.dylib                          0x1ec0f1744     objc_exception_throw + 59
        2    CoreData                                 0x1dac1bad0     -[NSBatchDeleteRequest initWithFetchRequest:] + 419

        Next message
        """
        let entries = try TestSupport.entries(issue, format: .xcode)
        #expect(entries.map(\.line) == [1, 11])
        #expect(entries[0].endLine == 9)
        let finding = TestSupport.classify(entries[0].message)
        #expect(finding?.category == .initialization)
        #expect(finding?.severity == .fatal)
        // Instabug's heading and a `Fatal Exception:` heading keep the crashed thread after a blank line.
        let cause = try TestSupport.entries("# Cause: Parent NSManagedObjectContext must not be nil.\n# Reported at: 2020-04-28 19:42:41 UTC\n\nThread 0 [Crashed]:\n\n0    CoreData    0x1a63bacb4     -[NSManagedObjectContext setParentContext:] + 303\n", format: .xcode)
        #expect(cause.count == 1)
        let fatal = try TestSupport.entries("Fatal Exception: NSInternalInconsistencyException\nThis NSPersistentStoreCoordinator has no persistent stores (unknown).  It cannot perform a save operation.\n\n#16. Crashed: com.example.save\n0  CoreData  0x1a63bacb4 -[NSManagedObjectContext save:] + 303\n", format: .xcode)
        #expect(fatal.count == 1)
        // A message that is no crash heading does not keep a thread heading after a blank line, and a thread
        // heading's frames need the heading.
        let apart = try TestSupport.entries("Saved 3 items\nSaved 4 items\n\nThread 0 Crashed:\n\n0  App  0x1 main + 1\n1  App  0x2 start + 1\n", format: .xcode)
        #expect(apart.map(\.line) == [1, 2, 4])
        #expect(apart.last?.endLine == 7)
        let plain = try TestSupport.entries("Saved 3 items\nSaved 4 items\n\n0  App  0x1 main + 1\n1  App  0x2 start + 1\n", format: .xcode)
        #expect(plain.count == 3)
    }

    /// An uncaught exception a poster broke over short lines (shape of Eval/dev/SB-retired.jsonl SB-002): the
    /// reason's quote stays open across the lines, quotes inside it (`'owner'`) nest, and the entry is one,
    /// read joined. A reason cut before its closing quote does not swallow what opens a message of its own.
    @Test func anExceptionsReasonBrokenOverLinesStaysOneEntryUntilItsQuoteCloses() throws {
        let text = """
        *** Terminating app due to uncaught
        exception 'NSInvalidArgumentException',
        reason: 'Illegal attempt to establish a
        relationship 'owner' between objects in
        different contexts
        (source = <Book: 0x7803590>
        (entity: Book; id: 0x7802ae0 <x-coredata:///
        Book/t527F06B2-3EB5-47CF-9A29-985B0D3758862>
        ; data: {
        name = nil;
        }) ,
        destination = <Owner: 0x78020a0> (entity:
        Owner; id: 0x3a56f80 <x-coredata://043AF2F0/Owner/p1> ; data: {
        displayName = alex;
        }))'
        Saved.
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 16])
        #expect(TestSupport.classify(entries[0].message)?.rule.id == "coredata.concurrency.cross-context-relationship")
        // Cut before its quote closed: a date, `CoreData:` or `***` still opens a message.
        let cut = try TestSupport.entries("reason: 'Illegal attempt to establish a\nrelationship between objects\n2024-01-10 10:00:00.000 App[1:2] next\nCoreData: error: other\n", format: .xcode)
        #expect(cut.map(\.line) == [1, 3, 4])
        // A reason that closed on its line keeps no later line.
        let closed = try TestSupport.entries("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'can't save'\nlater line\n", format: .xcode)
        #expect(closed.count == 2)
    }

    /// An app's own bracketed tag under a prefixed line opens a message of its own (SF-P02's shape), unless the
    /// line above is a prefix a page left alone on its line: the tag and its text are then that prefix's message.
    @Test func anAppsBracketedTagUnderAPrefixedLineOpensAnEntry() throws {
        let text = """
        2023-06-30 20:28:38.492722+0300 App[13420:1586871] [core] Photo library opened
        2023-06-30 20:28:38.556576+0300 App[13420:1586871] [PAAccessLogger] Failed to log access with error: error=Error Domain=NSCocoaErrorDomain Code=4097 UserInfo={NSDebugDescription=connection}
        [Aespa] File is added to album
        2023-06-30 20:28:38.600000+0300 App[13420:1586871] [core] Saved
        2023-06-30 20:28:38.700000+0300 App[13420:1586871] [core] Closed
        """
        #expect(try TestSupport.entries(text).map(\.line) == [1, 2, 3, 4, 5])
        let broken = """
        2019-12-12 05:40:53.528577+0530 xctest[90996:1950914] Started
        2019-12-12 05:40:53.530900+0530 xctest[90996:1950498]
        [MCNearbyServiceAdvertiser] PeerConnection connectedHandler (advertiser side) -
        2019-12-12 05:40:53.531055+0530 xctest[90996:1950498] Stopped
        """
        let entries = try TestSupport.entries(broken)
        #expect(entries.map(\.line) == [1, 2, 4])
        #expect(entries[1].endLine == 3)
    }

    /// A Swift trap at its source location opens an entry of its own, even under a trap whose message did not
    /// end its sentence (a note listing the traps it met, one per line); a trap's message broken mid-sentence
    /// still keeps the line after it.
    @Test func aTrapAtItsSourceLocationOpensAnEntryUnderAnotherTrap() throws {
        let text = """
        SwiftData/ModelSnapshot.swift:12: Fatal error: A ModelSnapshot must be initialized with a known-keys dictionary
        SwiftData/PersistentModel.swift:540: Fatal error: A model should only be updated after being inserted into a Model Context
        App/Store.swift:88: Assertion failed: Store not loaded
        Fatal error: Unable to find App Group
        Container in Entitlements
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 2, 3, 4])
        #expect(entries[3].endLine == 5)
        #expect(TestSupport.classify(entries[1].message)?.rule.id == "swiftdata.concurrency.temporary-identifier")
        // A path that is no Swift file's, or a location with no trap after it, opens nothing by itself.
        let line = "SwiftData/ModelContext.swift:3212: Fatal error: x"
        #expect(line.utf8.withContiguousStorageIfAvailable { EntrySplitter.opensMessageAnywhere(UnsafeRawBufferPointer($0)) } == true)
        for other in ["Store.m:88: Fatal error: x", "Store.swift:88: note: x", "Store.swift: Fatal error: x"] {
            #expect(other.utf8.withContiguousStorageIfAvailable { EntrySplitter.opensMessageAnywhere(UnsafeRawBufferPointer($0)) } == false)
        }
    }

    /// In an NSLog capture, a library logger's line stamped with the time of day alone (Couchbase Lite's
    /// `12:08:15.750| WARNING*** : …`) is a message of its own, not the rest of the NSLog line above it.
    @Test func aLoggersTimeOfDayLineInAPrefixedCaptureIsItsOwnMessage() throws {
        // Source: couchbase/couchbase-lite-ios issue text quoted in Eval/dev/FD-retired.jsonl (FD-P01).
        let text = """
            2014-03-28 12:08:15.683 Learner[800:907] Database busy
            2014-03-28 12:08:15.748 Learner[800:907] Database busy since
            12:08:15 when the sync began
            2014-03-28 12:08:15.749 Learner[800:907] Database busy
            12:08:15.750| WARNING*** : CBLDatabase[<0x1fd903f0>db_macpherson]: Db busy, too many retries, giving up
            12:08:15.750| WARNING*** : CouchbaseLite: Failed to rebuild view 'user/userView': 595
            15:33:11.946680| [REST]: Replicator task #1 failed to start!
            """
        // A time without its fraction of a second may be words of the message: it stays with it.
        let entries = try TestSupport.entries(text, format: .nslog)
        #expect(entries.map(\.line) == [1, 2, 4, 5, 6, 7])
    }

    /// A Rust panic is its `panicked at file:line:col:` line, the message under it and Rust's backtrace hint;
    /// the panic raises the error it carries to fatal.
    @Test func aRustPanicIsOneFatalEntry() throws {
        // Source: a Tauri app's issue quoted in Eval/dev/FD-retired.jsonl (FD-021).
        let text = "thread 'tokio-runtime-worker' panicked at src/main.rs:19:22:\nerror while setting up the database: Database(SqliteError { code: 522, message: \"disk I/O error\" })\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\nNext message"
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 4])
        let found = try #require(TestSupport.classify(entries[0].message))
        #expect(found.category == .store && found.severity == .fatal)
    }

    /// The Dart VM's fatal error is its line at a runtime source file, the `version=`, `pid=`, `os=`,
    /// `isolate_instructions=` and `fp=` lines under it and its frames: one entry, a termination. The isolate's name
    /// (a database worker's, after its file) is where the VM ran, not the cause.
    @Test func theDartVMsFatalErrorIsOneEntry() throws {
        // Source: round 121's AAA-P03 (Eval/dev/AAA-retired.jsonl), a Flutter app on macOS quitting.
        let text = "../../../flutter/third_party/dart/runtime/vm/runtime_entry.cc: 5095: error: GetFfiCallbackMetadata called after shutdown 0x125b401d8\n"
            + "version=3.10.4 (stable) (Tue Dec 9 00:01:55 2025 -0800) on \"macos_arm64\"\n"
            + "pid=17833, thread=5019, isolate_group=main(0xa4b820e00), isolate=Drift isolate worker for /Users/me/Library/Containers/app/Data/db.sqlite\n"
            + "os=macos, arch=arm64, comp=no, sim=no\n"
            + "isolate_instructions=10dcf6d00, vm_instructions=10dcf6d00\n"
            + "fp=16d3e9fe0, sp=16d3e9fa0, pc=10da7229c\n"
            + "  pc 0x000000010da7229c fp 0x000000016d3e9fe0 dart::Profiler::DumpStackTrace(bool)+0x30\n"
            + "-- End of DumpStackTrace\n"
            + "../../../flutter/third_party/dart/runtime/vm/runtime_entry.cc: 5095: error: GetFfiCallbackMetadata called after shutdown 0x125b400d8\n"
            + "Aborting reentrant request for stack trace.\n"
            + "flutter: Next message\n"
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 9, 11])
        let found = try #require(TestSupport.classify(entries[0].message))
        #expect(found.category == .crash && found.severity == .fatal)
    }

    /// Node's loader prints its message for a native database module built for another Node ABI over four lines;
    /// they are one entry, the database library that could not be loaded (`init`).
    @Test func nodesMessageForANativeModuleBuiltForAnotherABIIsOneEntry() throws {
        // Source: round 80's VT-002 (Eval/dev/VT-retired.jsonl), an Electron app on macOS.
        let text = "App threw an error during load\n"
            + "Error: The module '/Users/me/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n"
            + "was compiled against a different Node.js version using\n"
            + "NODE_MODULE_VERSION 127. This version of Node.js requires\n"
            + "NODE_MODULE_VERSION 136. Please try re-compiling or re-installing\n"
            + "the module (for instance, using `npm rebuild` or `npm install`).\n"
            + "Next message"
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 2, 7])
        let found = try #require(TestSupport.classify(entries[1].message))
        #expect(found.rule.id == "init.database-plugin-missing" && found.severity == .error, "\(found.rule.id)")
        // The same lines with no `The module '…'` line above them open messages of their own.
        #expect(try TestSupport.entries("Starting\nNODE_MODULE_VERSION 127\n", format: .xcode).map(\.line) == [1, 2])
    }

    /// A log copied out of a web page's table, one cell a line (time, level, source, message), is one entry a row.    /// A log copied out of a web page's table, one cell a line (time, level, source, message), is one entry a row.
    @Test func aTablesCellsOnLinesOfTheirOwnAreOneEntryARow() throws {
        // Source: round 64's TF-P07 (Eval/dev/TF-retired.jsonl), icloud-photos-sync's log viewer.
        let text = "6/5/2026, 8:36:02 PM\nWARN\nTokenApp\nLock file exists, but is owned by this process. Continuing.\n6/5/2026, 8:36:02 PM\nINFO\niCloud\nAuthenticating user\n2024-03-01 10:22:31.114\nError\nThe store could not be opened"
        #expect(try TestSupport.entries(text, format: .xcode).map(\.line) == [1, 5, 9])
        // A date and time alone over a message of several words: the next line is not a cell.
        let plain = "2024-03-01 10:22:31\nSaved the store to disk\nCloudKit export finished"
        #expect(try TestSupport.entries(plain, format: .xcode).map(\.line) == [1, 3])
    }

    /// Lines an unknown prefix opens the same way (`icloudpd-1  | 2023-08-24 …` each) are a logger's lines, not
    /// one sentence a page broke.
    @Test func linesThatOpenAsTheMessageDidAreNotItsRest() throws {
        // Source: round 64's TF-P04 (Eval/dev/TF-retired.jsonl), docker compose's prefix before icloudpd's lines.
        let text = "icloudpd-songyu  | 2023-08-24 17:54:29 INFO     Sync user: user\nicloudpd-songyu  | 2023-08-24 17:54:29 INFO     Synchronisation starting at 17:54:29\nicloudpd-songyu  | 2023-08-24 17:54:29 INFO     Keyring file exists, continuing\nicloudpd-songyu  | 2023-08-24 17:54:29 INFO     Check download directory mounted correctly..."
        #expect(try TestSupport.entries(text, format: .xcode).map(\.line) == [1, 2, 3, 4])
    }

    /// Among prefixed lines, an app's print that opens with an emoji, a bracketed tag of several words, a linker's
    /// diagnostic without a file and Realm Sync's logger each open a message; Core Data's second line of a failed
    /// recovery and Xcode's `DVTAssertions` block stay with what they continue.
    @Test func printsAmongPrefixedLinesOpenMessages() throws {
        // Source: round 64's TH-P01 and TH-P02 (Eval/dev/TH-retired.jsonl), xcodebuild test runs of a SwiftData app.
        let text = """
            2026-03-22 14:43:07.365642+0100 FocusBlox[85052:19375571] [CloudKit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate _recoverFromError:withZoneIDs:forStore:inMonitor:](2617): <NSCloudKitMirroringDelegate: 0x600003b23aa0> - Failed to recover from error: NSCocoaErrorDomain:134400
            Recovery encountered the following error: (null):0
            2026-03-22 14:43:07.501680+0100 FocusBlox[85052:19375575] [Connection] Error synchronizing with cloud for store <(XK87E2B3VR.com.henning.timebox)>: Error Domain=SyncedDefaults Code=8888 "No account" UserInfo={NSLocalizedDescription=No account}
            🔧 [FocusLiveView] createRepository: isUITesting=false, isMockData=false
            ⚠️ Using real EventKitRepository
            2026-03-22 14:43:07.785387+0100 FocusBlox[85052:19375479] [Type Declaration Issues] Type "com.henning.timebox.calendarevent" was expected to be declared and exported in the Info.plist of FocusBlox.app, but it was not found.
            [CloudKit Sync] Remote change monitoring started
            """
        #expect(try TestSupport.entries(text, format: .nslog).map(\.line) == [1, 3, 4, 5, 6, 7])
        // Source: round 64's TJ-P04 and TJ-P03 (Eval/dev/TJ-retired.jsonl), swift build and xcodebuild output.
        let link = "ld: library not found for -libmdb for architecture x86_64\n<unknown>:0: error: link command failed with exit code 1 (use -v to see invocation)"
        #expect(try TestSupport.entries(link, format: .xcode).map(\.line) == [1, 2])
        let assertion = """
            2014-07-28 09:00:43.703 xcodebuild[35326:1912070] [MT] DVTAssertions: Warning in /SourceCache/IDEFrameworks/IDEFrameworks-6244.6/IDEFoundation/SourceControl/Model/IDESourceControlManager.m:1290
            Details:  Error Domain=com.apple.dt.IDESourceControlErrorDomain Code=-1 "Missing extension: public.vcs.subversion"
            Object:   <IDESourceControlManager: 0x7fb4a072c9e0>
            Method:   -loadRepositories
            Thread:   <NSThread: 0x7fb4a0605350>{number = 1, name = main}
            Please file a bug at http://bugreport.apple.com with this warning message and any useful information you can provide.
            ** ARCHIVE FAILED **
            """
        #expect(try TestSupport.entries(assertion, format: .nslog).map(\.line) == [1, 7])
        // Source: round 64's TK-P01 (Eval/dev/TK-retired.jsonl), a watch extension's console.
        let realm = "2017-12-10 12:50:27.448825+0100 RealmAWBug WatchKit Extension[373:540595] dnssd_clientstub ConnectToServer: connect() failed path:/var/run/mDNSResponder Socket:\nSync: Connection[1]: Failed to resolve 'Your address': Host not found (authoritative)"
        #expect(try TestSupport.entries(realm, format: .nslog).map(\.line) == [1, 2])
        // Source: round 65's TP-P03 (Eval/dev/TP-retired.jsonl): Swift 3's trap, lower case, printed without a prefix.
        let trap = "2017-06-06 20:32:22.048855+0530 Nextcloud[308:16627] [Crashlytics] Version 3.8.4 (121)\nfatal error: A Realm Configuration must specify a path or an in-memory identifier.: file /Users/realm/RLMRealmConfiguration.swift, line 97"
        #expect(try TestSupport.entries(trap, format: .nslog).map(\.line) == [1, 2])
        // Source: round 66's TU-P01 (Eval/dev/TU-retired.jsonl), a committed xcodebuild test log: its banner and its
        // test runner's lines open messages among xcodebuild's own prefixed lines.
        let runner = """
            2026-07-02 19:31:58.317 xcodebuild[10714:178302] [MT] IDELaunchParametersSnapshot: no debugger version
            2026-07-02 19:32:03.514 xcodebuild[10714:178302] [MT] IDELaunchParametersSnapshot: The operation couldn’t be completed
            2026-07-02 19:32:10.709 xcodebuild[10714:178302] [MT] IDETestOperationsObserverDebug: 88.584 sec, +88.584 sec -- end

            Test session results, code coverage, and logs:
            \t/Users/me/app/TestResults.xcresult

            ** TEST SUCCEEDED **

            Testing started
            Test suite 'CoreUITests' started on 'Clone 1 of iPhone 15 Pro - AppUITests-Runner (10945)'
            Test case 'CoreUITests.testMainTabs()' passed on 'Clone 1 of iPhone 15 Pro - AppUITests-Runner (10945)' (27.252 seconds)
            """
        #expect(try TestSupport.entries(runner).map(\.line) == [1, 2, 3, 5, 8, 10, 11, 12])
    }

    /// A command-line tool's indented step counters and progress bars, and Python's rich handler's lines whose time
    /// it blanked (the level padded under the time's column), open messages of their own.
    @Test func indentedStepsProgressBarsAndPaddedLevelsOpenMessages() throws {
        // Source: round 65's TN-P01, TN-P02 and TQ-P08 (Eval/dev/TN-retired.jsonl, TQ-retired.jsonl): imessage-exporter
        // and osxphotos runs in a terminal.
        let steps = "Building cache...\n  [1/4] Caching chats...\n  [2/4] Caching chatrooms...\nExporting to /Users/chris/imessage_export as html...\n  [0s] [####################] 151/151 (4,451.783/s, ETA: 0s)\nExporting 1 photo to /Users/rhet/Desktop/export...\n  [####################################]  100%\nDone!"
        #expect(try TestSupport.entries(steps, format: .xcode).map(\.line) == [1, 2, 3, 4, 5, 6, 7, 8])
        // Source: round 65's TQ-P05 (Eval/dev/TQ-retired.jsonl), mvt's rich log of an iPhone backup check.
        let rich = """
            INFO     [mvt.ios.modules.mixed.sms] Running module SMS...
                     INFO     [mvt.ios.modules.mixed.sms] Database at path
                              ./00008030-000D18E41438802E/3d/3d0d7e5fb2ce288813306e4d4636395
                              e047a3d28 is malformed. Trying to recover...
                     INFO     [mvt.ios.modules.mixed.sms] Found SMS database at path:
            """
        #expect(try TestSupport.entries(rich, format: .xcode).map(\.line) == [1, 2, 5])
        // Frames and wrapped text indented the same way stay where they are.
        let frames = "Exception in run:\n         at Store.open()\n  [native code]"
        #expect(try TestSupport.entries(frames, format: .xcode).count == 1)
    }

    /// Unity's player log closes an exception's managed frames with `(Filename: … Line: N)` after a blank line.
    @Test func unitysFilenameLineStaysWithItsException() throws {
        // Source: round 64's TI-P02 (Eval/dev/TI-retired.jsonl), a Unity game's iCloud key-value plugin.
        let text = "DllNotFoundException: Unable to load DLL 'iCloudKeyValue': The specified module could not be found.\n  at test.iCloudKV_Synchronize () [0x00000] in <filename unknown>:0 \n  at test.Start () [0x00000] in <filename unknown>:0 \n \n(Filename: currently not available on il2cpp Line: -1)\n\nSetting up 1 worker threads for Enlighten."
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 7])
        #expect(entries.first?.endLine == 5)
    }

    /// A logger's table with a row number and a pipe before the time is rows of a log, not numbered frames.
    @Test func aLoggersNumberedTableRowsAreMessagesNotFrames() throws {
        // Source: round 41's PB-P02 (Eval/dev/PB-retired.jsonl), an app's exported log.
        let rows = "0 | Thu Apr 21 2022 00:58:52 | DEBUG | ios | MMKV:encryptedStorage.getString | undefined\n1 | Thu Apr 21 2022 00:58:52 | ERROR | ios | MMKV:encryptedStorage.getString | Expected null is not null\n2 | 2022-04-21 00:58:58 | DEBUG | ios | AuthService | refresh"
        #expect(try TestSupport.entries(rows, format: .xcode).map(\.line) == [1, 2, 3])
        // Frames printed with pipes stay one stack.
        let frames = "0 | sqlite3WalCheckpoint (wal.c:3285)\n1 | sqlite3_step (sqlite3.c:100)\n2 | -[NSSQLiteConnection execute] (CoreData)"
        #expect(try TestSupport.entries(frames, format: .xcode).count == 1)
    }

    /// A framework's banner in capitals on a line of its own (`BUG IN CLIENT OF CLOUDKIT:`) announces the next
    /// line; a one-word level (`ERROR:`) does not, nor does a banner before a timestamped line.
    @Test func aCapitalBannerKeepsTheMessageItAnnounces() throws {
        // Source: round 40's OA-018 (Eval/dev/OA-retired.jsonl), a note that broke the line after the banner.
        let text = "BUG IN CLIENT OF CLOUDKIT:\nRegistering a handler for a CKScheduler activity identifier that has\nalready been registered (com.apple.coredata.cloudkit.activity.export.…)\nNext message"
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 4])
        #expect(TestSupport.classify(entries[0].message)?.rule.id == "coredata.init.cloudkit.duplicate-activity-handler")
        #expect(try TestSupport.entries("ERROR:\nSaved 3 items", format: .xcode).map(\.line) == [1, 2])
        #expect(try TestSupport.entries("BUG IN CLIENT OF CLOUDKIT:\n2024-01-10 11:14:38.831 App[1:2] Saved", format: .xcode).count == 2)
    }

    /// A stack printed in columns without frame numbers (Sentry's App Hang) is one entry; an address in a
    /// message's columns-less line is not a frame.
    @Test func framesInColumnsWithoutNumbersAreOneStack() throws {
        // Source: a Sentry App Hang stack quoted in Eval/dev/GC-retired.jsonl (GC-004).
        let text = """
              libsystem_kernel    0x1decd56c8  mach_msg2_trap
              libsystem_kernel    0x1decd8ec4  mach_msg2_internal
              libdispatch         0x19df41b14  _dispatch_mach_send_and_wait_for_reply
              CoreData            0x18a2b1c40  -[NSXPCStoreServerConnection sendMessage:]
            Saved object 0x600003b780a0 in the sync queue
            """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 5])
        let found = try #require(TestSupport.classify(entries[0].message))
        #expect(found.rule.id == "watchdog.waiting-stack" && found.category == .watchdog)
    }

    /// A page that wrapped a long line after a space keeps the type name that opens the next line with it.
    @Test func aTypeNameAfterALineWrappedAtASpaceContinuesIt() throws {
        let text = "CoreData: warning: Property 'tags' on Entity 'Message' is using nil or an insecure \nNSValueTransformer.  Please switch to using \"NSSecureUnarchiveFromData\" instead.\nCKRecord printed alone"
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 3])
        #expect(TestSupport.classify(entries[0].message)?.category == .model)
    }

    @Test func sentencesAPageWrappedStayOneMessage() throws {
        // The first line ends in a space the wrapper left.
        let text = "CoreData: warning: Multiple NSEntityDescriptions claim the NSManagedObject \n" + """
        subclass 'FileEntity' so +entity is unable to disambiguate.
        adding TestVoyage:_d147aa657fbf2adda0c82bf30d0e29a9 from guard clause here
        references #: Optional(1)
        short line
        continues here
        flutter: hello
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        // Wrapped: line 2. Not wrapped: a `key: value` print, a short line, a logger's tag.
        #expect(entries.map(\.line) == [1, 3, 4, 5, 6, 7])
        // A long line that ends a phrase (`clause here`) is not taken for a wrapped one.
        let ended = try TestSupport.entries("CoreData: debug: CoreData+CloudKit: frobnicated 12 records in zone 3 at /x/y.sqlite\nunrelated app line 42", format: .xcode)
        #expect(ended.count == 2)
        let wrapped = try TestSupport.entries("[com.apple.swiftdata:PersistentModel] Illegal attempt to create a full future for a\ntemporary identifier", format: .xcode)
        #expect(wrapped.count == 1)
        // The error a line ending in a colon announces.
        let announced = try TestSupport.entries("Thread 1: Fatal error: Cannot initialize AwardService: \nSwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer)\nSettings: saved", format: .xcode)
        #expect(announced.map(\.line) == [1, 3])
        #expect(TestSupport.classify(announced[0].message)?.category == .initialization)
        #expect(TestSupport.classify(entries[0].message)?.rule.id == "coredata.model.entity-claimed-twice")
    }

    /// `line` broken between words into pieces of at most `width` characters, as a page or a mail client
    /// breaks it (runs of blanks stay, a word longer than the width stays whole): Eval's `wrap` form.
    static func wrapped(_ line: String, width: Int) -> [String] {
        guard line.count > width else { return [line] }
        var pieces: [String] = [], current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.trimmingCharacters(in: .whitespaces).isEmpty, current.count + 1 + word.count > width {
                pieces.append(current)
                current = String(word)
            } else {
                current = current.trimmingCharacters(in: .whitespaces).isEmpty && current.isEmpty ? String(word) : current + " " + word
            }
        }
        pieces.append(current)
        return pieces
    }

    /// A page that broke `log show` lines at 80 columns broke some inside their prefix (after the activity
    /// column, the padding left at the line's end) and some before a word longer than half the line: each
    /// printed line's pieces are one entry again.
    @Test func logShowLinesAPageBrokeAtEightyColumnsAreOneEntryEach() throws {
        let lines = [
            "2025-12-26 23:03:09.149529+0800 0x626e6    Default     0x1211ff0            50476  0    Notes: (CoreData) [com.apple.coredata:sql] Connecting to sqlite database file at /Users/me/Library/Group Containers/group.example.notes/Notes.sqlite",
            "2025-12-26 23:03:09.149754+0800 0x626e6    Info        0x1211ff0            50476  0    Notes: (CoreAnalytics) [com.apple.CoreAnalytics:client] Dropping \"com.apple.security.LegacyAPICounts\" as it isn't used in any transform (not in the config or budgeted?)",
            "2025-12-26 23:03:09.150768+0800 0x62974    Error       0x12124d0            50476  0    Notes: (CoreData) [com.apple.coredata:error] CoreData: error: (14) I/O error for database at /Users/me/Library/Group Containers/group.example.notes/Notes.sqlite.  SQLite error code:14, 'unable to open database file'",
            "2025-12-26 23:03:09.152189+0800 0x62994    Default     0x12124e            50476  0    Notes: (libobjc.A.dylib) objc[50476]: Class _TtC10FoundationP33_45BFD3D387700B862E3A7353B97EF7ED21__CharacterSetStorage is implemented in both /usr/lib/swift/libswiftFoundation.dylib and /Applications/Notes.app/Contents/Frameworks/libswiftFoundation.dylib. One of the two will be used.",
            "2025-12-26 23:03:09.157806+0800 0x626e6    Default     0x12124a            50476  0    Notes: (Security) [com.apple.securityd:integrity] no previous integrity acl exists; making a new one",
        ]
        var text: [String] = [], starts: [Int] = []
        for line in lines {
            starts.append(text.count + 1)
            text += Self.wrapped(line, width: 80)
        }
        #expect(text.count > 2 * lines.count)
        let entries = try TestSupport.entries(text.joined(separator: "\n") + "\n")
        #expect(entries.map(\.line) == starts)
        #expect(TestSupport.classify(entries[2].message)?.category == .store)
        // An objc line broken before the long mangled name it carries (`objc[32088]: Class` alone).
        let objc = (0..<4).flatMap { n in Self.wrapped("objc[32088]: Class _TtC10FoundationP33_12768CA107A31EF2DCE034FD75B541C9\(n)__JSONEncoder is implemented in both /usr/lib/swift/libswiftFoundation.dylib (0x7fff808de3d8) and /Applications/iTerm2.app/Contents/Frameworks/libswiftFoundation.dylib (0x10e8c6d98). One of the two will be used.", width: 80) }
        #expect(try TestSupport.entries(objc.joined(separator: "\n"), format: .xcode).count == 4)
        // The runtime's `objc[pid]: ` opens a message wherever it stands: the line before it was not broken
        // at the width, and the width still shows (shape of Eval/dev/RR-retired.jsonl RR-P01, wrapped).
        let classes = ["_TtC10Foundation13__DataStorage", "_TtC10Foundation13__NSSwiftData", "_TtCV10Foundation4Data14RangeReference",
                       "_TtC10Foundation13__JSONEncoder", "_TtC10Foundation15__JSONDecoder"]
        let runtime = classes.flatMap { name in Self.wrapped("objc[32088]: Class \(name) is implemented in both /usr/lib/swift/libswiftFoundation.dylib (0x7fff808de0d0) and /Users/me/Build/Development/iTerm2.app/Contents/Frameworks/libswiftFoundation.dylib (0x10e8c69e8). One of the two will be used. Which one is undefined.", width: 80) }
        #expect(SourceLayout.wrapWidth(of: ArraySlice(Array(runtime.joined(separator: "\n").utf8)), format: .xcode) == 80)
        #expect(try TestSupport.entries(runtime.joined(separator: "\n"), format: .xcode).count == classes.count)
    }

    @Test func aPageLineStartIsFoundEightBytesAtATime() {
        // Every position of the last newline, near and far, against a byte-by-byte search.
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 100, 119, 120, 121, 159, 160, 161, 239, 240, 241, 300] {
            for newline in [-1, 0, 1, 5, 7, 8, 63, 111, 112, 119, 120, 150, 151, 152, 159, 160, 231, 232, 239, 240, 250] where newline < length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                if newline >= 0 { bytes[newline] = 0x0A; if newline > 2 { bytes[newline - 2] = 0x0A } }
                let expected: Int? = {
                    let start = (bytes.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
                    return length - start <= EntrySplitter.pageLineBytes ? start : nil
                }()
                let found = bytes.withUnsafeBytes { EntrySplitter.pageLineStart($0, end: length) }
                #expect(found == expected, "length \(length), newline \(newline)")
            }
        }
    }

    @Test func valuesAndQuotedReasonsAPageWrappedStayWithTheirMessage() throws {
        // An object's description, a parenthesised address and a reverse-DNS name opening a line after one
        // as wide as a page breaks them.
        let described = "[error] error: Mutating a managed object 0xaef4c17744feb12c\n<x-coredata://AEDDFE8E-AD18-4A2B-85FE-C6974CD59837/DiaryEntity/p117>\n(0x6000013d75c0) after it has been removed from its context.\n"
        let one = try TestSupport.entries(described, format: .xcode)
        #expect(one.count == 1, "\(one.map(\.message))")
        #expect(TestSupport.classify(one[0].message)?.category == .concurrency)
        let entitled = try TestSupport.entries("NSUbiquitousKeyValueStore error: com.mycompany.myApp has no valid\ncom.apple.developer.ubiquity-kvstore-identifier entitlement\n", format: .xcode)
        #expect(entitled.count == 1)
        // A prompt is not a value: the debugger's and a REPL's start messages of their own; so does a line
        // after one that ended its sentence.
        // A path longer than a page line is no sign of a break: XCTest's diagnostic after a short line opens a message.
        let diagnostic = "[INFO] : Persistent History Track Kit Start\n/Users/tdt/Projects/PersistentHistoryTrackingKit/Tests/PersistentHistoryTrackingKitTests/PersistentHistoryTrackingKitTests.swift:119: error: failed\n"
        #expect(try TestSupport.entries(diagnostic, format: .xcode).count == 2)
        // A method's own log line opens a message, however wide the line before it.
        let method = "UbiquityStoreManager: Loading store: 41FA9583-8968-44AD-B43D-2026730DD408.sqlite\n-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](760): CoreData: Ubiquity: x\n"
        #expect(try TestSupport.entries(method, format: .xcode).count == 2)
        let prompt = "libc++abi.dylib: terminating with uncaught exception of type NSException\n(main)> \n"
        #expect(try TestSupport.entries(prompt, format: .xcode).count == 2)
        #expect(try TestSupport.entries("CoreData: error: the store at this location could not be opened.\n<x-coredata://A/B/p1> is next\n", format: .xcode).count == 2)
        // An uncaught exception's reason broken inside its quotes, and the debugger's quoted message.
        let reason = "*** Terminating app due to uncaught exception 'NSGenericException', reason: '***\nCollection <__NSCFSet: 0x6000010aa130> was mutated while being enumerated.'\n"
        let quoted = try TestSupport.entries(reason, format: .xcode)
        #expect(quoted.count == 1)
        #expect(TestSupport.classify(quoted[0].message)?.rule.id == "exception.collection-mutated")
        let thread = try TestSupport.entries("Thread 1: \"NSManagedObjects of entity 'ScanSession' do not support\n-mutableSetValueForKey: for the property 'devices'\"\n", format: .xcode)
        #expect(thread.count == 1)
        // A Cocoa error broken inside its name, a trap broken after `Fatal` or before a capitalised word, a
        // frame broken before its offset, a line that goes on after `due to` even with a `key: ` in it, and a
        // German description 80 characters wide (a page counts characters, not bytes): one message each.
        let broken = [
            "Thread 1: Fatal error: 'try!' expression unexpectedly raised an error: Error\nDomain=NSCocoaErrorDomain Code=4 \"“db” couldn’t be removed.\"\n",
            "2020-12-07 22:33:43.768920-0800 AWSKinesisVideoWebRTCDemoApp[588:182775] Fatal\nerror: Unexpectedly found nil while unwrapping an Optional value: file\n",
            "SwiftData/DataUtilities.swift:1257: Fatal error: Unable to find App Group\nContainer in Entitlements\n",
            "0  libsystem_platform.dylib       0x1c4728f14 _os_unfair_lock_recursive_abort +\n36\n",
            "2015-07-11 13:04:32.142 ASNFindMovie[10892:356134] *** Terminating app due to\nuncaught exception 'RLMException', reason: 'Migration is required for object\ntype 'ASNProduct' due to the following errors:\n",
            "Error Domain=NSCocoaErrorDomain Code=256 \"Die Datei „default.store“ konnte nicht\ngeöffnet werden.\"\n",
            // The value a page-wide line announced, a C++ runtime's type, a selector, a comma's clause, and a long
            // name that left the line before it short.
            "Fatal error: 'try!' expression unexpectedly raised an error:\nDatabase.SQLiteDatabase.Error.failedToOpenDatabase\n",
            "libc++abi.dylib: terminating with uncaught exception of type\nrealm::IncorrectThreadException: Realm accessed from incorrect thread.\n",
            "CoreData: error: Serious application error.  An exception was caught from the\ndelegate of NSFetchedResultsController during a call to\n-controllerDidChangeContent:.  with userInfo (null)\n",
            "*** Terminating app due to uncaught exception 'NSInvalidArgumentException',\nreason: 'NSManagedObjects of entity 'VectorLayer' do not support\n",
            "usually a bug within an observer of the context's change notification, see\nNSManagedObjectContextObjectsDidChangeNotification.  The left hand side\n",
        ]
        for text in broken {
            #expect(try TestSupport.entries(text, format: .xcode).count == 1, "\(text)")
        }
        // A reason closed on its line (an apostrophe inside a word does not close it) leaves the next line alone.
        let closed = "*** Terminating app due to uncaught exception 'X', reason: 'can't load the store'\nCollection work goes on here\n"
        #expect(try TestSupport.entries(closed, format: .xcode).count == 2)
    }

    /// A page that broke a line inside a rule's phrase: the entry is read with its lines joined, and that
    /// reading decides, though the first one found a rule of its own.
    @Test func anEntryAPageWrappedIsReadJoined() throws {
        let wrapped = [
            ("[logging] BUG IN CLIENT OF libsqlite3.dylib: illegal multi-threaded access to\ndatabase connection\n", "sqlite.concurrency.multithreaded-connection"),
            ("Error saving to persistent store: Error Domain=NSCocoaErrorDomain Code=132001\n\"(null)\" UserInfo={message=attempt to recursively call -save: on the context\naborted\n", "coredata.concurrency.recursive-save"),
        ]
        for (text, rule) in wrapped {
            let (reporter, _) = try TestSupport.classifyRun(Array(text.utf8), threads: 1, all: true, format: .xcode)
            #expect(reporter.entries.count == 1 && reporter.entries.first?.classification?.rule.id == rule, "\(reporter.entries.map { $0.classification?.rule.id ?? "-" })")
        }
    }

    /// A line stamped in another logger's style (milliseconds after a colon, ISO `T…Z`) among NSLog-style
    /// lines opens a message of its own; a continuation without a date stays.
    @Test func aLineStampedInAnotherStyleStartsAMessage() throws {
        let text = """
        2019-11-28 18:12:32.176428+0200 MyApp[886:367441] BgGeo #onAppTerminate.
        2019-11-28 18:12:32:176 MyApp[886:367181] BgGeo #onAppTerminate.
        2021-03-17T21:30:40.435Z error: SQLITE_BUSY: database is locked
        2019-11-28 18:12:33.176428+0200 MyApp[886:367441] CoreData: error: save failed:
        reason: the disk is full
        """
        let entries = try TestSupport.entries(text, format: .nslog)
        #expect(entries.map(\.line) == [1, 2, 3, 4])
        #expect(entries.map(\.endLine) == [1, 2, 3, 5])
    }

    /// A Swift trap a page broke over lines stays one message: its source location alone on a line, or its
    /// message broken mid-sentence however short the line; the whole message then decides.
    @Test func aTrapBrokenOverLinesIsOneMessage() throws {
        let located = try TestSupport.entries("SwiftData/BackingData.swift:1039:\nFatal error: This model instance was invalidated because its backing data could\nno longer be found in the store\nNext message", format: .xcode)
        #expect(located.map(\.line) == [1, 4])
        #expect(TestSupport.classify(located[0].message)?.category == .concurrency)
        let broken = try TestSupport.entries("SwiftData/BackingData.swift:835: Fatal error: This model instance was destroyed\nby calling ModelContext.reset and is no longer usable.\nloaded 3 items", format: .xcode)
        #expect(broken.map(\.line) == [1, 3])
        let reset = try #require(TestSupport.classify(broken[0].message))
        #expect(reset.category == .concurrency && reset.severity == .fatal, "\(reset.rule.id)")
        // Broken before a type's member (`ModelContext.reset`), the capital letter does not start a message.
        let qualified = try TestSupport.entries("Fatal error: This model instance was destroyed by calling\nModelContext.reset and is no longer usable. (MyInfoEntity/p53)\nItem.name changed", format: .xcode)
        #expect(qualified.map(\.line) == [1, 3])
        #expect(TestSupport.classify(qualified[0].message)?.category == .concurrency)
        // A finished trap message does not take the next line.
        let finished = try TestSupport.entries("Fatal error: Index out of range.\nloaded 3 items", format: .xcode)
        #expect(finished.count == 2)
        let finishedBeforeName = try TestSupport.entries("Fatal error: Index out of range.\nItem.name changed", format: .xcode)
        #expect(finishedBeforeName.count == 2)
        // Swift 2–4's `fatal error: <message>: file <path>, line <n>` broken by a page: the trap's until its
        // location is printed; then the next line is a message of its own.
        let old = try TestSupport.entries("""
        fatal error: 'try!' expression unexpectedly raised an error: disk I/O
        error: file
        /Library/Caches/com.apple.xbs/Sources/swiftlang/swiftlang-700.1.101.15/src/swift/stdlib/public/core/ErrorType.swift,
        line 50
        loaded 3 items
        """, format: .xcode)
        #expect(old.map(\.line) == [1, 5])
        #expect(TestSupport.classify(old[0].message)?.category == .store)
        #expect(try TestSupport.entries("fatal error: unexpectedly found nil: file /x/Item.swift, line 12\nloaded 3 items", format: .xcode).count == 2)
    }

    /// Text a page or a mail client broke at 80 columns: the printed line's prefix counts toward its width, a
    /// line of 64 to 80 columns that ends in a word goes on in a lower-case word or a type's name, and the
    /// reason of an exception known otherwise only by its name is read with its lines joined.
    @Test func textBrokenAtEightyColumnsIsOneMessage() throws {
        let prefixed = try TestSupport.entries("""
        2014-03-21 08:20:41.920 TableViewBug[4164:60b] CoreData: error: Serious
        application error.  An exception was caught from the delegate of
        NSFetchedResultsController during a call to -controllerDidChangeContent:.  Cell
        animation stop fraction must be greater than start fraction with userInfo (null)
        2014-03-21 08:20:42.001 TableViewBug[4164:60b] next
        """, format: nil)
        #expect(prefixed.map(\.line) == [1, 5])
        #expect(TestSupport.classify(prefixed[0].message)?.category == .concurrency)
        let bare = try TestSupport.entries("""
        PaymentGatewayAccount.supportedCurrencies is using a nil or insecure value
        transformer. Please switch to NSSecureUnarchiveFromDataTransformerName or a
        custom NSValueTransformer subclass of NSSecureUnarchiveFromDataTransformer
        An NSManagedObject may only be in (or observed by) a single
        NSManagedObjectContext.
        """, format: .xcode)
        #expect(bare.map(\.line) == [1, 4])
        #expect(TestSupport.classify(bare[0].message)?.rule.id == "coredata.model.insecure-transformers")
        let reason = try #require(TestSupport.classify("""
        Terminating app due to uncaught exception 'NSInternalInconsistencyException',
        reason: '+entityForName: could not locate an NSManagedObjectModel for entity
        name 'Product'
        """))
        #expect(reason.rule.id == "exception.no-model-for-entity", "\(reason.rule.id)")
        // A line longer than a page breaks at, ending in a word, is a message that ended; a message that opens
        // with a type's name and goes on (`CFNetwork SSLHandshake …`) is a message, and `EA0A` ends in no word.
        let long = try TestSupport.entries("CoreData: debug: CoreData+CloudKit: frobnicated 12 records in zone 3 at /x/y.sqlite\nunrelated app line 42", format: .xcode)
        #expect(long.count == 2)
        let messages = try TestSupport.entries("""
        [Firebase/Analytics][I-ACS023007] Analytics v.10.98567.0 started
        CFNetwork SSLHandshake completed for host cdn.example.net:80180
        [Backgrounding] scene did enter background: 5103B1BA-4A59-0637-23FE-18073127EA0A
        Task <628DDBCA-8F68-3245-9CEF-C775A77245F2>.<89963> finished with error [-1001]
        """, format: .xcode)
        #expect(messages.count == 4)
    }

    /// A copy out of a page that set a blank line after every line (`SourceLayout.isSpaced`): one blank
    /// line is the copy's, so a userInfo's lines stay with their error and a stack with its exception; two
    /// blank lines still end an entry, and a paste whose entries are separated by blank lines but whose
    /// lines also follow one another is not spaced.
    @Test func aSpacedCopyIsReadAsThePrintedText() throws {
        let printed = """
        CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 "An error occurred during persistent store migration." UserInfo={
            sourceURL = file:///x/Notes.sqlite;
            reason = "Cannot migrate store in-place";
        }
        CoreData: warning: the next message
        """
        let spaced = printed.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n\n")
        #expect(SourceLayout.isSpaced(ArraySlice(Array(spaced.utf8)), format: .xcode))
        #expect(!SourceLayout.isSpaced(ArraySlice(Array(printed.utf8)), format: .xcode))
        #expect(!SourceLayout.isSpaced(ArraySlice(Array(spaced.utf8)), format: .nslog))
        let entries = try TestSupport.entries(spaced, format: .xcode)
        #expect(entries.map(\.line) == [1, 9])
        #expect(entries.first?.endLine == 7)
        #expect(entries.first?.message.contains("\n\n") == false)
        #expect(try TestSupport.entries(printed, format: .xcode).map(\.message) == entries.map(\.message))
        // Two blank lines (a blank line of the printed text) still end the entry; the rest is split as the
        // printed text is.
        let paragraphs = "CoreData: error: first\n\n    continued\n\n\nnext paragraph\n\nits second line"
        #expect(try TestSupport.entries(paragraphs, format: .xcode).map { [$0.line, $0.endLine] } == [[1, 3], [6, 6], [8, 8]])
        let paragraphsPrinted = "CoreData: error: first\n    continued\n\nnext paragraph\nits second line"
        #expect(try TestSupport.entries(paragraphsPrinted, format: .xcode).count == 3)
        // Entries separated by blank lines, one of them two lines long: not a spaced copy.
        let separated = "CoreData: error: one\n\nCoreData: error: two\n    userInfo\n\nThe operation couldn’t be completed."
        #expect(!SourceLayout.isSpaced(ArraySlice(Array(separated.utf8)), format: .xcode))
    }

    /// syslog's `--- last message repeated N times ---` is a line of its own, not the rest of the message it counts.
    @Test func syslogRepeatNoteIsItsOwnLine() throws {
        let text = """
        Aug 18 16:29:33 MacBook-Pro wcd[19180]: libMobileGestalt MobileGestalt.c:2584: Failed to get battery level
        Aug 18 16:29:34 --- last message repeated 1 time ---
        Aug 18 16:29:34 MacBook-Pro Notes[19181]: CoreData: error: (14) I/O error for database at /tmp/Notes.sqlite
        """
        #expect(try TestSupport.entries(text).map(\.line) == [1, 2, 3])
        #expect(Array("--- last message repeated 2 times ---".utf8).withUnsafeBytes { EntrySplitter.isRepeatNote($0) })
        #expect(!Array("the last message repeated".utf8).withUnsafeBytes { EntrySplitter.isRepeatNote($0) })
    }

    /// A page that broke a line right after its prefix (`2023-05-01 12:09:01.047 App[2562:2636828]` alone, or
    /// with only a logger's tag after it) leaves the message on the next line: that line, which has no prefix
    /// of its own, is the message. A prefixed line after it opens its own entry.
    @Test func aPrefixWithoutItsMessageTakesTheNextLine() throws {
        let text = """
        2023-05-01 12:09:01.047 App[2562:2636828]
        [AppCenterCrashes] ERROR: Exception data report doesn't exist on disk.
        2023-05-01 12:09:01.052 App[2562:2636828] [AppCenter]
        ERROR: +[MSACDBStorage executeQuery:] Query failed with error: 5
        2023-05-01 12:09:01.053 App[2562:2636828]
        2023-05-01 12:09:01.054 App[2562:2636828] CoreData: annotation: done
        """
        for format: InputFormat? in [nil, .nslog] {
            let entries = try TestSupport.entries(text, format: format)
            #expect(entries.map(\.line) == [1, 3, 5, 6])
            #expect(entries.map(\.endLine) == [2, 4, 5, 6])
        }
        let bare = try TestSupport.entries("[connection] [C8]\nClient called nw_connection_copy on unconnected nw_connection\n[Store] opened", format: .xcode)
        #expect(bare.map(\.line) == [1, 3])
        #expect(EntrySplitter.holdsNoMessage(UnsafeRawBufferPointer(start: nil, count: 0)))
        #expect(!Array("[AppCenter] ERROR".utf8).withUnsafeBytes { EntrySplitter.holdsNoMessage($0) })
        // Core Data's tag with nothing after it (dev AO-P01 broken at 80 columns): the level word and the text on
        // the next line are its message, though `warning:` would open a message of its own elsewhere.
        let tagged = """
        2025-10-18 17:46:40.507646-0700 Flameworker[44847:4167625] [persistence] ✅
        Entity 'CatalogItem' found in managed object model with 16 properties
        2025-10-18 17:46:40.508334-0700 Flameworker[44847:4167625] [error] CoreData:
        warning: Multiple NSEntityDescriptions claim the NSManagedObject subclass
        'ProjectLog' so +entity is unable to disambiguate.
        CoreData: warning: Multiple NSEntityDescriptions claim the NSManagedObject
        subclass 'ProjectLog' so +entity is unable to disambiguate.
        """
        #expect(try TestSupport.entries(tagged).map(\.line) == [1, 3, 6])
        for tag in ["CoreData:", "[error] CoreData:", "CoreData: error:", "CoreData+CloudKit:"] {
            #expect(Array(tag.utf8).withUnsafeBytes { EntrySplitter.holdsNoMessage($0) }, "\(tag)")
        }
        for text in ["NotCoreData:", "CoreData: error: x", "CoreData+CloudKit: warning:"] {
            #expect(!Array(text.utf8).withUnsafeBytes { EntrySplitter.holdsNoMessage($0) }, "\(text)")
        }
    }

    /// Round 61's pastes (Eval/dev/SU-, SV-retired.jsonl): a whole sentence in quotes (Swift's debugPrint of a string)
    /// and XCTest's failure at its source location open messages of their own, even under a line as wide as a
    /// page breaks them.
    @Test func quotedPrintsAndTestFailuresOpenTheirOwnEntries() throws {
        let quoted = """
        Got notification about changes in remote PRIVATE database
        "CloudKitSynchronizer >> Initiating synchronization"
        "Finished applying pending relationships"
        """
        #expect(try TestSupport.entries(quoted).map(\.line) == [1, 2, 3])
        let failure = """
        Hostname is: 90280389-4cf6-4660-83dd-3fde1a54b883-bluemix.cloudant.com
        /Users/travis/build/Kitura-CouchDB/Tests/CouchDBTests/DBTests.swift:57: error: -[CouchDBTests.DBTests testDB] : failed - Created database is nil
        """
        #expect(try TestSupport.entries(failure).map(\.line) == [1, 2])
        // A path a page moved under the colon that announced it is that line's value (dev AP-P03 broken at 80
        // columns); a tool's path that ends with its own colon opens a message of its own (dev RL-P01).
        let announced = "[DEBUG] 2020/04/23 10:55:30 opening database:\n/Users/rohan2020/Library/Messages/chat.db\n"
            + "[DEBUG] 2020/04/23 10:55:30 closing database:\n/Users/rohan2020/Library/Messages/chat.db"
        #expect(try TestSupport.entries(announced).map(\.line) == [1, 3])
        let tool = "Failed to query the list of test cases in the test bundle:\n"
            + "/Applications/Xcode.app/Contents/Developer/Platforms/iPhoneSimulator.platform/Developer/usr/bin/sim:\n"
            + "No simulator devices appear to be running.  Setting data directories to /var/empty."
        #expect(try TestSupport.entries(tool).map(\.line) == [1, 2, 3])
        for text in ["\"a b c\"", "\"Store loaded at path\"", "\"No account\"", "\"a\" b \"c\""] {
            let expected = text == "\"Store loaded at path\""
            #expect(Array(text.utf8).withUnsafeBytes { EntrySplitter.isQuotedSentence($0) } == expected, "\(text)")
        }
    }

    /// Text broken at one width throughout (a commit editor's 72 columns, a page's 80): the width is read
    /// from the source's lines (`FormatDetector.wrapWidth`), and a line whose first word had no room on the
    /// line above goes on that line's message, whatever word opens it. A console entry word still opens a
    /// message there, and lines that show no one width (a logger's lines opening with their date or with the
    /// same tag, lines wider than 100 columns, one break alone) are split as before. A logger's lines among
    /// broken ones neither show nor hide the width.
    @Test func textBrokenAtOneWidthIsReadAtThatWidth() throws {
        let migration = """
        CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null)
        URL:file:///var/mobile/Containers/Data/Application/UUID/Library/Application%20Support/Notes.sqlite
        options:{ NSInferMappingModelAutomaticallyOption = 1;
        NSMigratePersistentStoresAutomaticallyOption = 1; } ... returned error
        Error Domain=NSCocoaErrorDomain Code=134110 "An error occurred during
        persistent store migration." UserInfo={reason=Cannot migrate store
        in-place: constraint violation during attempted migration} (retrying)
        CoreData: annotation: the next message
        """
        #expect(SourceLayout.wrapWidth(of: ArraySlice(Array(migration.utf8)), format: .xcode) == 72)
        let entries = try TestSupport.entries(migration, format: .xcode)
        #expect(entries.map(\.line) == [1, 8])
        let verdict = try #require(TestSupport.classify(entries[0].message))
        #expect(verdict.category == .migration, "\(verdict.rule.id)")
        let trap = """
        Thread 1: Fatal error: Failed to load the persistent stores: Error
        Domain=NSCocoaErrorDomain Code=134140 "Persistent store migration
        failed, missing mapping model." UserInfo={reason=Can't find mapping
        model for migration, destinationModel=(<NSManagedObjectModel:
        0x600003c0c0f0>) isEditable 0}
        """
        #expect(SourceLayout.wrapWidth(of: ArraySlice(Array(trap.utf8)), format: .xcode) == 67)
        #expect(try TestSupport.entries(trap, format: .xcode).count == 1)
        let logger = """
        04-14 11:26:34.453665+0800 Demo[12520:5871590] inserted 1000 rows in 5.3934 s
        04-14 11:26:48.806988+0800 Demo[12520:5871590] deleted the last row in 0.0249 s
        04-14 11:26:58.693433+0800 Demo[12520:5871590] deleted every row in 4.7593 s
        """
        let tags = """
        [IMPORT] Decoding LayerManager from 839 bytes of archived data here
        [IMPORT] Restored LayerManager with 2 layers and 14 strokes in total
        [DRAW] importDrawingData called with 2 bytes from the restored draft
        [DRAW] Successfully decoded 0 strokes into the model after restoring
        """
        let wide = """
        CoreData: warning: Unable to load class named 'Item' for entity 'Item'.  Class not found, using default NSManagedObject instead.
        CoreData: error: Failed to load model named Model
        CoreData: error: Failed to load model named Other
        """
        let twice = "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null)\nURL:file:///x.sqlite options:{ NSInferMappingModelAutomaticallyOption = 1;\nNSMigratePersistentStoresAutomaticallyOption = 1; }"
        for text in [logger, tags, wide, twice] {
            #expect(SourceLayout.wrapWidth(of: ArraySlice(Array(text.utf8)), format: .xcode) == nil, "\(text)")
        }
        #expect(try TestSupport.entries(tags, format: .xcode).count == 4)
        // Breaks before a logger's own lines (an entry word, the same tag again, a time in brackets) say
        // nothing either way: the wrapped lines around them still show the width.
        let mixed = """
        CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null)
        URL:file:///var/mobile/Containers/Data/Application/UUID/Library/Notes.sqlite
        options:{ NSInferMappingModelAutomaticallyOption = 1; } ... returned error
        Error Domain=NSCocoaErrorDomain Code=134110 "An error occurred during
        persistent store migration." UserInfo={reason=Cannot migrate store
        in-place: constraint violation during attempted migration} (retrying)
        CoreData: annotation: options: NSMigratePersistentStoresAutomaticallyOption
        CoreData: annotation: options: NSInferMappingModelAutomaticallyOption : 1
        CoreData: annotation: options: NSPersistentHistoryTrackingKey : 1 (macOS)
        [20:55:14.375] Notes[Store] the migration of the store did not finish at
        launch
        2024-01-10 11:14:38.831786-0800 NotesApp[123:456] [error] CoreData: error:
        During recovery, parent directory path reported as missing
        """
        #expect(SourceLayout.wrapWidth(of: ArraySlice(Array(mixed.utf8)), format: .xcode) == 75)
        // A capitalised word after a line that ends announcing its text (`CoreData: error:`) is that text.
        #expect(try TestSupport.entries(mixed, format: .xcode).map(\.line) == [1, 7, 8, 9, 10, 12])
        #expect(SourceLayout.opensWithDateOrTime(Array("[20:55:14.375]".utf8)))
        #expect(SourceLayout.opensWithDateOrTime(Array("(2024-01-10".utf8)))
        #expect(!SourceLayout.opensWithDateOrTime(Array("[Store]".utf8)))
        // A trap or an error that announces its text at the end of a line: the text is on the next one.
        for text in ["Widget/Decoder.swift:17: Fatal error:\nUnexpectedly found nil while unwrapping an Optional value",
                     "CoreData+CloudKit: <NSCloudKitMirroringDelegate>: Told to tear down with reason:\nStore Removed"] {
            #expect(try TestSupport.entries(text, format: .xcode).count == 1, "\(text)")
        }
    }

    /// A frame a page broke before its symbol or before its location stays one frame of the stack: a frame that
    /// ends with its address takes the line under it, a location alone in parentheses goes with the frame (or
    /// the symbol broken off it) above; a sentence under a frame with its symbol is a message of its own.
    @Test func framesAPageBrokeStayInTheirStack() throws {
        let stack = try TestSupport.entries("""
        Crashed: com.example.db.queue
        0  libsystem_platform.dylib       0x1dd44820c
        _os_unfair_lock_unowned_abort + 36
        1  libsqlite3.dylib               0x1ac867354 sqlite3_snprintf + 4160
        2  Example                        0x00b60b05
        -[ExampleStore persistentStoreCoordinator]
        (ExampleStore.m:339)
        3  Example                        0x00b606a1 -[ExampleStore open] + 12
        Next message here
        """, format: .xcode)
        #expect(stack.map(\.line) == [1, 9])
        // Frames in columns without numbers (Sentry's App Hang) keep going after a location a page broke off.
        let columns = try TestSupport.entries("""
        libsystem_kernel    0x1f7608b48  __psynch_mutexwait
        Example             0x101a14bcc  std::__1::lock_guard<T>::lock_guard
        (__mutex_base:90)
        Example             0x101d5a240  ExampleStore.open() + 12
        Next message here
        """, format: .xcode)
        #expect(columns.map(\.line) == [1, 5])
        // A frame broken before its offset makes the entry a wrapped one, read again joined without its frames;
        // the SQLite frames the first reading saw still name the area.
        let broken = "Crashed: com.example.db.queue\n2  libsqlite3.dylib               0x1ac867354 sqlite3_snprintf + 4160\n"
            + "7  libdispatch.dylib              0x1922cedb0 _dispatch_client_callout +\n20\n"
        let (run, _) = try TestSupport.classifyRun(Array(broken.utf8), threads: 1, format: .xcode)
        #expect(run.entries.count == 1)
        #expect(run.entries.first?.classification?.category == .store)
        #expect(EntrySplitter.isLoneLocation(UnsafeRawBufferPointer(start: nil, count: 0)) == false)
        for (text, lone) in [("(ExampleStore.m:339)", true), ("(<compiler-generated>:0)", true), ("(see above: 3)", false), ("(File.m:)", false)] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { EntrySplitter.isLoneLocation($0) } == lone, "\(text)")
        }
    }

    /// A Flutter app's unhandled Dart exception keeps its frames (`#0  symbol (package:…dart:12:7)`) and the
    /// `<asynchronous suspension>` lines between them; the frames' words do not decide the finding (a
    /// `synchronized` lock in a frame is no sync), the exception line does.
    @Test func aDartExceptionKeepsItsFrames() throws {
        let text = """
        [VERBOSE-2:ui_dart_state.cc(186)] Unhandled Exception: DatabaseException(database_closed)
        #0      wrapDatabaseException (package:sqflite/src/exception_impl.dart:11:7)
        <asynchronous suspension>
        #1      BasicLock.synchronized (package:synchronized/src/basic_lock.dart:34:18)
        <asynchronous suspension>
        flutter: loaded 3 items
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 6])
        let found = try #require(TestSupport.classify(entries[0].message))
        #expect(found.category == .store && found.severity == .error, "\(found.rule.id)")
        // Alone, the frames are no crashed thread: Dart prints them under an exception the app survives.
        let frames = try TestSupport.entries("#0      throwException (package:sqlite3/src/implementation/exception.dart:101)\n#1      StatementImplementation._selectResults (package:sqlite3/src/implementation/statement.dart:111)", format: .xcode)
        #expect(frames.count == 1)
        #expect(TestSupport.classify(frames[0].message) == nil)
    }

    /// Flutter's engine tags every line an app prints on iOS, so a caught exception's stack arrives one `flutter: #N …`
    /// line at a time, in a double-spaced copy too (round 129's AAH-P01): the frames stay with the message above them,
    /// and the tag's next message, or a tagged line that is no frame, opens an entry.
    @Test func flutterTaggedFramesStayWithTheirMessage() throws {
        let text = """
        flutter: Error while fetching invCostData
        flutter: #0      _Utf8Decoder.convertSingle (dart:convert-patch/convert_patch.dart:1760:7)
        flutter: <asynchronous suspension>
        flutter: #1      RealmErrorEx.toDart (package:realm_dart/src/handles/native/error_handling.dart:66:47)
        flutter: #2 is the item number
        flutter: #1 Purchase done (package: premium)
        flutter: Error while saving
        flutter: #0      _CustomZone.run (dart:async/zone.dart)
        flutter: loaded 3 items
        """
        #expect(try TestSupport.entries(text, format: .xcode).map(\.line) == [1, 5, 6, 7, 9])
        let spaced = text.split(separator: "\n").prefix(2).joined(separator: "\n\n") + "\n\nflutter: loaded 3 items"
        #expect(try TestSupport.entries(spaced, format: .xcode).map(\.line) == [1, 5])
    }

    /// An error's cause chain stays with it (round 135): `Caused by:` never opens an entry, nor does the line a lone
    /// `Caused by:` announces (Amplify's `APIError: …`), nor Expo's `→ Caused by:`; a line with a timestamp of its own
    /// after a lone `Caused by:` still does.
    @Test func causedByChainsStayWithTheirError() throws {
        let amplify = """
        DataStoreError: Subscription item event failed with error
        Caused by:
        APIError: Subscription item event failed with error
        Caused by:
        connection
        Error: something else
        """
        #expect(try TestSupport.entries(amplify, format: .xcode).map(\.line) == [1, 6])
        let java = "java.sql.SQLException: database is locked\nCaused by: org.sqlite.SQLiteException: [SQLITE_BUSY]\nError: next"
        #expect(try TestSupport.entries(java, format: .xcode).map(\.line) == [1, 3])
        let expo = "Error: Calling the 'execAsync' function has failed\n→ Caused by: Error code 5: database is locked\nloaded"
        #expect(try TestSupport.entries(expo, format: .xcode).map(\.line) == [1, 3])
        let stamped = "2024-05-01T12:00:00.123Z ERROR sync failed\nCaused by:\n2024-05-01T12:00:01.123Z INFO CoreData: error: Failed to save"
        #expect(try TestSupport.entries(stamped, format: .xcode).map(\.line) == [1, 3])
    }

    /// npm's and node-gyp's `ERR!` lines are one report up to npm's `A complete log of this run can be found in:` and the
    /// path it names (round 135); the next command's report opens an entry of its own, and `WARN` lines stay apart.
    @Test func npmErrorRunsAreOneReportEach() throws {
        let text = """
        npm ERR! code ERESOLVE
        npm ERR! ERESOLVE unable to resolve dependency tree
        npm ERR! A complete log of this run can be found in:
        npm ERR!     /Users/me/.npm/_logs/2022-05-01T10_00_00_000Z-debug-0.log
        npm ERR! code 1
        npm ERR! path /Users/me/app/node_modules/sqlite3
        npm ERR! command failed
        npm ERR! A complete log of this run can be found in: /Users/me/.npm/_logs/2022-05-01T10_01_00_000Z-debug-0.log
        gyp ERR! build error
        gyp ERR! stack Error: `make` failed with exit code: 2
        node-pre-gyp WARN Pre-built binaries not installable for sqlite3@5.0.11
        node-pre-gyp WARN Hit error connect ETIMEDOUT 140.82.114.4:443
        """
        #expect(try TestSupport.entries(text, format: .xcode).map(\.line) == [1, 5, 9, 11, 12])
    }

    /// Bun prints the source line that threw with its line number, a caret under it and then `error: …` (round 135's
    /// AAO-005): one entry. A compiler's caret followed by another tool's `error:` line stays two.
    @Test func bunsErrorStaysUnderItsSourceExcerpt() throws {
        let bun = "54 | function load(db) {\n55 |   db.loadExtension(getLoadablePath());\n          ^\nerror: This build of sqlite3 does not support dynamic extension loading\n      at load (/Users/me/node_modules/sqlite-vec/index.mjs:55:6)"
        #expect(try TestSupport.entries(bun, format: .xcode).map(\.line) == [1])
        let compiler = "/Users/me/App/Store.swift:12:9: error: cannot find 'db' in scope\n        db.close()\n        ^\nerror: fatalError"
        #expect(try TestSupport.entries(compiler, format: .xcode).count == 2)
    }

    /// JavaScriptCore's stack under a web view's error (`function@url:line:column`, an anonymous function's bare
    /// `url:line:column`, `objectStore@[native code]`) stays with the error it explains (round 130's AAL-P07); a line
    /// that only ends in numbers, or a URL with a blank after it, opens an entry.
    @Test func javaScriptCoreFramesStayWithTheirError() throws {
        let text = """
        ⚡️  [error] - @firebase/firestore: Firestore (5.11.0): INTERNAL UNHANDLED ERROR:  objectStore@[native code]
        store@capacitor://localhost/main.7de908c3.js:1:133684
        verifyPrimaryLease@capacitor://localhost/main.7de908c3.js:1:167072
        capacitor://localhost/main.7de908c3.js:1:166588
        objectStore@[native code]
        runTask@capacitor://localhost/polyfills.2ec9b9c4.js:1:2981
        [native code]
        global code@capacitor://localhost/main.7de908c3.js:1:3
        Loaded 12 items in 1:20
        see https://example.com/a.js:1:2 for more
        https://api.example.com/changes?since=2024-05-01T10:15:30
        """
        #expect(try TestSupport.entries(text, format: .xcode).map(\.line) == [1, 9, 10, 11])
        for (line, frame) in [("z@capacitor://localhost/polyfills.js:1:18490", true), ("ionic://localhost/main.js:3:4", true),
                              ("global code@capacitor://localhost/main.js:1:3", true), ("webpack-internal:///./src/db.js:12:5", true),
                              ("objectStore@[native code]", true), ("[native code]", true), ("run@[wasm code]", true),
                              ("objectStore@[native code] again", false), ("x@[native code] [1]", false), ("our [native code]", false),
                              ("user@example.com:1:2", false), ("at foo (capacitor://localhost/main.js:1:2)", false),
                              ("foo@capacitor://localhost/a b.js:1:2", false), ("https://api.example.com/changes?since=2024-05-01T10:15:30", false),
                              ("https://example.com/log?t=12:30:45", false),
                              ("loadItems@http://192.168.1.20:5173/src/store/items.ts?t=1702899183625:41:9", true),
                              ("getDocs@http://localhost:5173/node_modules/.vite/deps/firebase_firestore.js?v=6c1a2f80:15312:21", true)] {
            #expect(Array(line.utf8).withUnsafeBytes { XcodeConsoleFormat.isJavaScriptCoreFrame($0) } == frame, "\(line)")
        }
    }

    /// A logger's time of day and bar indented by the paste (Couchbase Lite 1.x's `    03:41:17.971‖ Sync: …` in an
    /// issue's block under its unindented first line) opens an entry, as at the margin (round 130's AAL-P02).
    @Test func anIndentedTimeOfDayBarOpensAnEntry() throws {
        let text = """
        03:41:17.971‖ SyncVerbose: CBL_Pusher[http://db.example.com:4984/app/]: Queuing #154
            03:41:17.971‖ Sync: CBL_Pusher[http://db.example.com:4984/app/] Progress: set active = 1
            03:41:17.986‖ SyncVerbose: CBL_Pusher[http://db.example.com:4984/app/]: Sending (
                "{11802F2A-3343-43BA-8D7C-6C8CB8FEFCAB #1-db79d018}"
            )
            03:41:17.988‖ SyncVerbose: CBL_Pusher[http://db.example.com:4984/app/]: POST _bulk_docs
        """
        #expect(try TestSupport.entries(text, format: .xcode).map(\.line) == [1, 2, 3, 6])
    }

    /// A `<CKError …>` a page broke after its `; ` separators stays one error until its `>` closes it; the
    /// partial failure's item then decides.
    @Test func aCKErrorBrokenOverLinesStaysOneError() throws {
        let text = """
        CoreData+CloudKit: Export failed with error:
        <CKError: "Partial Failure" (2/1011); 
        "Failed to modify some records"; 
        partial errors: {
            cloudkit.zoneshare = <CKError: "Server Record Changed" (14/2004); 
            server message = "client oplock error updating record"; 
            clientEtag = 1g; serverEtag = 1h>
        }>
        Next message
        """
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 9], "\(entries.map(\.line))")
        #expect(TestSupport.classify(entries[0].message)?.category == .mergeConflict)
    }

    @Test func aPartialFailuresItemsKeyedByRecordNameStayWithIt() throws {
        // An app's logger (time and thread, no date) printing a partial failure whose items are keyed by record
        // names that open with a digit (round 93's TresorMockup logs): the items and the closing line belong to it.
        let text = "01:47:00.366 0x280cbac00 DEBUG Sync.save():561 - error = Optional(<CKError 0x2817967f0: "
            + "\"Partial Failure\" (2/1011); \"Failed to modify some records\"; partial errors: {\n"
            + "02B8D370-2BAD-494E-87B9-B802207CD18A:(Zone:__defaultOwner__) = <CKError 0x281796640: \"Server Record Changed\" "
            + "(14/2004); server message = \"client oplock error updating record\">\n"
            + "}>) save = Optional([])\n"
            + "01:47:01.002 0x280cbac00 DEBUG Sync.save():570 - retrying\n"
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 4], "\(entries.map(\.line))")
        #expect(TestSupport.classify(entries[0].message)?.category == .mergeConflict)
    }

    @Test func partlyIndentedPastesSplitAtTheirTimestamps() throws {
        // A capture whose lines after the first were indented by the page (a tab before each prefix).
        let text = "Make a symbolic breakpoint at UIViewAlertForUnsatisfiableConstraints to catch this.\n"
            + "\tThe methods in the UIConstraintBasedLayoutDebugging category may also be helpful.\n"
            + "\t2020-06-14 16:26:48.788233+0200 ACHA[402:42310] -[SQLitePlugin pluginInitialize] Initializing SQLitePlugin\n"
            + "\t2020-06-14 16:26:48.789256+0200 ACHA[402:43040] -[SQLitePlugin closeNow:] close: db name was not open: my.db\n"
            + "\t    0   CoreFoundation  0x0000000105f9ef35 __exceptionPreprocess + 165\n"
        #expect(try TestSupport.detect(text) == .nslog)
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 3, 4])
        #expect(entries[1].process == "ACHA" && entries[1].message.hasPrefix("-[SQLitePlugin pluginInitialize]"))
        #expect(entries[2].endLine == 5)
    }

    /// A capture that is mostly bare with a prefixed line or two (an app's `print` output around one
    /// NSLog line, a page quoting a launch log) is read as bare text below its prefixed lines too: a bare
    /// line at the margin opens a message. A dictionary's description that lost its indentation stays with
    /// the error that opened it, and the decision is the whole source's, so blocks split alike.
    @Test func aMostlyBareCaptureOpensMessagesOnBareLines() throws {
        let text = "2026-09-22 12:33:07.431 game[1303:144015] UIApplicationMain(1, 0x800fedd8, (null), AppController)\n"
            + "LC32: skipping nonexistent protocol UIAccelerometerDelegate\n"
            + "Database is located at /var/mobile/Containers/Data/Application/X/Library/Caches/Analytics.db\n"
            + "Error calling sqlite3_step (1: cannot VACUUM - SQL statements in progress) SQLITE_ERROR\n"
            + "DB Query: VACUUM;\n"
            + "Error calling sqlite3_step (1: cannot VACUUM - SQL statements in progress) SQLITE_ERROR\n"
            + "DB Query: VACUUM;\n"
            + "-> applicationDidFinishLaunching()\n"
        #expect(try TestSupport.detect(text) == .nslog)
        #expect(FormatDetector.isMostlyBare(ArraySlice(Array(text.utf8)), format: .nslog))
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 2, 3, 4, 6, 8])
        // The statement line under its error: the error decides, not the statement's context rule.
        let failure = try #require(TestSupport.classify(entries[3].message))
        #expect(failure.category == .store && failure.severity == .error, "\(failure.rule.id)")
        let blocks = try HostileLogInputTests.splitInBlocks(Array(text.utf8), format: .nslog, chunk: 7, blockSize: 64)
        #expect(blocks.map(\.line) == entries.map(\.line))

        let dump = "2014-12-25 17:21:43.550 Movies[850:73643] file:///var/mobile/Documents/Movies.sqlite\n"
            + "2014-12-25 17:21:43.568 Movies[850:73643] CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) "
            + "URL:file:///var/mobile/Documents/Movies.sqlite options:(null) ... returned error Error Domain=NSCocoaErrorDomain "
            + "Code=134100 \"(null)\" UserInfo={metadata={\n"
            + "NSPersistenceFrameworkVersion = 519;\nNSStoreModelVersionIdentifiers =     (\n\"\"\n);\n"
            + "NSStoreType = SQLite;\n\"_NSAutoVacuumLevel\" = 2;\n"
            + "}, reason=The model used to open the store is incompatible with the one used to create the store}\n"
            + "Unresolved error, quitting\n"
            + "(lldb) \n"
        #expect(FormatDetector.isMostlyBare(ArraySlice(Array(dump.utf8)), format: .nslog))
        #expect(try TestSupport.entries(dump).map(\.line) == [1, 2, 10, 11])

        // Five NSLog lines of the system's, then eight lines the program printed: more than one and a half
        // bare openers for each prefixed line, so each printed line is a message (VN-P03's labels).
        let run = (1...5).map { "2021-10-28 18:29:50.56\($0)957+0800 Fraud[27603:158841] Metal device line \($0)\n" }.joined()
            + "*** Starting inference demo ***\nInitalizing HElib . . .\nHElib CKKS (WITH SECRET KEY)\nm=2048 r=52 L=1024 c=2\n"
            + "SecurityLevel=0\nClearing ./output\nLoading the model\nDone\n"
        #expect(FormatDetector.isMostlyBare(ArraySlice(Array(run.utf8)), format: .nslog))
        #expect(try TestSupport.entries(run).map(\.line) == Array(1...13))

        // A capture that is mostly prefixed keeps a bare line at the margin as the message's rest.
        let prefixed = "2026-09-22 12:33:07.431 game[1303:144015] Saving\n2026-09-22 12:33:07.432 game[1303:144015] Saved\n"
            + "2026-09-22 12:33:07.433 game[1303:144015] Result:\nLine of the same message\n"
        #expect(!FormatDetector.isMostlyBare(ArraySlice(Array(prefixed.utf8)), format: .nslog))
        #expect(try TestSupport.entries(prefixed).map(\.line) == [1, 2, 3])
    }

    @Test func bareLinesOfOneLoggerAndTrapsStartMessages() throws {
        // In a prefixed capture: a logger's repeated tag opens a message, and so does a Swift trap. Above the
        // first prefixed line every bare line that is not indented opens a message (O-P01's labels).
        let text = "SR-Info: Saving: obtaining permanent IDs for 2 new inserted objects \n"
            + "SR-Info: Existing changes persisted to the database \n"
            + "connection: another tag after an unfinished sentence, above any prefixed line\n"
            + "Fatal error: Unexpectedly found nil while unwrapping an Optional value\n"
            + "2015-01-17 17:14:05.273 App[9127:68817565] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException'\n"
            + "SR-Info: not the tag of the open entry, a continuation\n"
        // The capture is mostly bare (one prefixed line): below the prefixed line too a bare line at the
        // margin opens a message.
        let entries = try TestSupport.entries(text, format: .nslog)
        #expect(entries.map(\.line) == [1, 2, 3, 4, 5, 6])
        // Mostly prefixed, a bare line that is not the open message's tag continues it.
        let prefixed = "2015-01-17 17:14:05.270 App[9127:68817565] SR-Info: Saving\n"
            + "2015-01-17 17:14:05.271 App[9127:68817565] SR-Info: Saved\n"
            + "2015-01-17 17:14:05.273 App[9127:68817565] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException'\n"
            + "SR-Info: not the tag of the open entry, a continuation\n"
        #expect(try TestSupport.entries(prefixed, format: .nslog).map(\.line) == [1, 2, 3])
        let bracketed = try TestSupport.entries("[Sync] started\n[Sync] finished with 3 changes\n[Sync] done", format: .nslog)
        #expect(bracketed.map(\.line) == [1, 2, 3])
        // A level word in capitals at the margin (Qt's `WARNING: …` among OsmAnd's NSLog lines, VO-P02) is a
        // message of its own in a mostly prefixed capture; a bare line without one is still the rest.
        let leveled = "2024-05-17 11:08:37.504 OsmAnd Maps[2074:55898] OsmAndApp InitializeCore start\n"
            + "2024-05-17 11:08:37.505 OsmAnd Maps[2074:55870] AppLaunchEventStart\n"
            + "WARNING: QApplication was not created in the main() thread.\n"
            + "2024-05-17 11:08:37.564 OsmAnd Maps[2074:55870] OAAppDelegate applicationWillEnterForeground 0\n"
            + "2024-05-17 11:08:37.609 OsmAnd Maps[2074:55870] Store failed to load:\n"
            + "the rest of the message\n"
            + "ERROR: a wrapper's own line\n"
        #expect(try TestSupport.entries(leveled, format: .nslog).map(\.line) == [1, 2, 3, 4, 5, 7])
    }

    @Test func structuresAndBoxesPrintedOverLinesStayOneMessage() throws {
        let text = "flutter: Settings registered: PushNotificationSettings {sound: true, alert: true, badge: true,\n"
            + "provisional: true}\n"
            + "flutter: false (Init)\n"
            + "╔═══════════════════\n║ -[TSGeofenceManager fireGeofenceEvent:] EXIT Geofence: 111742\n╚═══════════════════\n"
            + "┌───\n│ second box\n└───\n"
        let entries = try TestSupport.entries(text, format: .xcode)
        #expect(entries.map(\.line) == [1, 3, 4, 7])
        // A line that only mentions a bracket does not close the open one.
        let open = try TestSupport.entries("Failed: UserInfo={NSFilePath=/x\nFailed to open database (Init)", format: .xcode)
        #expect(open.count == 2)
    }

    /// Paste shapes split into entries, then the first entry classified: (what, text, format, first lines of
    /// the entries, the first entry's rule, category and severity).
    static let splitThenClassified: [(String, String, InputFormat, [Int], String, Category, Severity)] = [
        // A thread copied from Xcode's debug navigator (`Thread 1`, `Queue : …`, frames) is one stack, and a wait at
        // its top above Core Data a hang; `Thread 3` over prose is no heading (Eval/dev/GC-retired.jsonl, GC-006).
        ("debug navigator thread", "Thread 1\nQueue : NSManagedObjectContext 0x6100001e0a00 (serial)\n#0  0x00007fff9205151a in semaphore_wait_trap ()\n#1  0x00007fff96393c5b in _os_semaphore_wait ()\n#2  0x0000000100c02692 in _dispatch_barrier_sync_f_slow ()\n#3  0x00007fff942c8395 in -[NSPersistentStoreCoordinator executeRequest:withContext:error:] ()\nThread 2 Queue : com.apple.main-thread (serial)\n#0  0x00007fff9205151a in __psynch_mutexwait ()\nThread 3\nwas never started",
         .xcode, [1, 7, 9, 10], "watchdog.waiting-stack", .watchdog, .error),
        // The main thread waiting on the coordinator's lock is a hang; another thread waiting on it is the
        // coordinator-lock rule's (Eval/dev GC-005, BA-010).
        ("main thread on the coordinator lock", "Thread 1Queue : com.apple.main-thread (serial)\n#0\t0x00000001931663dc in __psynch_mutexwait ()\n#1\t0x00000001931e5a8c in _pthread_mutex_lock ()\n#2\t0x00000001867e3d60 in -[_PFLock lock] ()",
         .xcode, [1], "watchdog.waiting-stack", .watchdog, .error),
        ("background thread on the coordinator lock", "#0 0x981f3876 in __psynch_mutexwait ()\n#1 0x97a016af in pthread_mutex_lock ()\n#2 0x0135be32 in -[_PFLock lock] ()\n#3 0x0135be0a in -[NSPersistentStoreCoordinator lock] ()",
         .xcode, [1], "coredata.concurrency.coordinator-lock-wait", .concurrency, .error),
        // A dictionary opening with `{` alone under its message belongs to it (Eval/dev H-023).
        ("dictionary under its message", "restkit.core_data.cache:RKEntityByAttributeCache.m:227 Failed to retrieve managed object with ID 0x8b768c0. Error The operation couldn’t be completed. (Cocoa error 133000.)\n{\n    NSUnderlyingException = \"Object's persistent store is not reachable from this NSManagedObjectContext's coordinator\";\n}\nNext message",
         .xcode, [1, 5], "exception.store-not-reachable.caught", .concurrency, .error),
        // dyld's lines under a report's `Termination Reason: DYLD` are one message; a database framework it could
        // not load is `init`, and the launch it stopped fatal (Eval/dev/IA-retired.jsonl, IA-032).
        ("dyld's message", "Termination Reason: DYLD 1 Library missing\nLibrary not loaded: @rpath/RealmSwift.framework/RealmSwift\nReferenced from: /private/var/containers/Bundle/Application/1A2B/Home Assistant.app/Home Assistant\nReason: tried: '/usr/lib/swift/RealmSwift.framework/RealmSwift' (no such file)\nReferenced objects were saved.",
         .xcode, [1, 5], "init.database-plugin-missing", .initialization, .fatal),
        // `Reason:` lines of another program stay apart: only dyld's head line gathers them.
        ("Reason lines without dyld", "Reason: CoreData: error: (5) database is locked\nReason: network timeout\nSymbol not found: x",
         .xcode, [1, 2, 3], "coredata.store.sqlite.busy", .store, .error),
        // XCTest's failure line broken after the test's name, with the exception's name in parentheses under the
        // reason: one failure, caught by the test runner (Eval/dev/IB-retired.jsonl, IB-007).
        ("XCTest failure over lines", "error: -[AppTests.SetServiceTests testBackupRoundTrip] :\nNSFetchRequest could not locate an NSEntityDescription for entity name 'WorkoutTemplate'\n(NSInternalInconsistencyException)\n(unrelated line)",
         .xcode, [1, 4], "exception.entity-not-in-model", .initialization, .error),
        // An NSError broken after its domain and before its userInfo is one error; a code word in a sentence is not.
        ("broken NSError", "Error Domain=NSCocoaErrorDomain\nCode=134081 \"(null)\"\nUserInfo={NSUnderlyingException=Can't add the same store twice}\nCode=sign failed",
         .xcode, [1, 4], "exception.same-store-added-twice.caught", .initialization, .error),
        // AppKit's three lines for an uncaught exception, in an NSLog capture: one exception, whose reason decides.
        ("AppKit's uncaught exception", "2014-08-02 00:18:26.014 Remote[14716:303] An uncaught exception was raised\n"
            + "2014-08-02 00:18:26.014 Remote[14716:303] This NSPersistentStoreCoordinator has no persistent stores.  It cannot perform a save operation.\n"
            + "2014-08-02 00:18:26.014 Remote[14716:303] (\n    0   CoreFoundation   0x00007fff8990525c __exceptionPreprocess + 172\n)\n"
            + "2014-08-02 00:18:26.020 Remote[14716:303] Saved the settings.\n", .nslog, [1, 6], "exception.no-persistent-stores", .initialization, .fatal),
        // A Python traceback keeps the exception line that ends it; the next line at the margin is new.
        ("Python traceback", "Traceback (most recent call last):\n  File \"export.py\", line 12, in main\n    conn = sqlite3.connect(path)\nsqlite3.DatabaseError: authorization denied\nExporting 0 notes",
         .xcode, [1, 5], "code.sqlite.23", .store, .fatal),
        // Mono (Xamarin.iOS) prints its crash one `critical:` line at a time (AR-012's shape): one report per
        // thread, whose SQLite frames give the area; another thread's line opens its own entry.
        ("Mono crash", "11:43:58.831 [1859:2672475] critical: Stacktrace:\n11:43:58.831 [1859:2672475] critical:   at <unknown> <0xffffffff>\n"
            + "11:43:58.831 [1859:2672475] critical:   at (wrapper managed-to-native) SQLitePCL.SQLite3Provider_sqlite3/NativeMethods.sqlite3_prepare_v2 (intptr,byte[],int,intptr&,intptr&) <0x00007>\n"
            + "11:43:58.832 [1859:2672475] critical:   at SQLite.SQLiteCommand.Prepare () [0x00000] in /src/SQLite.cs:2316\n"
            + "11:43:58.840 [1859:2672476] critical: Got a SIGSEGV while executing native code.\n", .timestamped, [1, 5], "crash.console-termination", .store, .fatal),
        // gdb's and lldb's `bt` frames (`#1 0x97a016af in pthread_mutex_lock ()`, BA-010's shape) are one stack.
        ("debugger bt frames", "#0 0x981f3876 in __psynch_mutexwait ()\n#1 0x97a016af in pthread_mutex_lock ()\n#2 0x0135be32 in -[_PFLock lock] ()\n"
            + "#3 0x0135be0a in -[NSPersistentStoreCoordinator lock] ()\n#hashtag not a frame\n", .xcode, [1, 5], "coredata.concurrency.coordinator-lock-wait", .concurrency, .error),
    ]

    @Test(arguments: splitThenClassified.map(\.0))
    func pasteShapeSplitsThenClassifies(_ name: String) throws {
        let shape = try #require(Self.splitThenClassified.first { $0.0 == name })
        let entries = try TestSupport.entries(shape.1, format: shape.2)
        #expect(entries.map(\.line) == shape.3, "\(name)")
        let result = try #require(TestSupport.classify(entries[0].message))
        #expect(result.rule.id == shape.4 && result.category == shape.5 && result.severity == shape.6,
                "\(name): \(result.rule.id) \(result.category) \(result.severity)")
    }

    /// Paste shapes whose entry boundaries are the whole check: (what, text, format, first lines of the entries).
    static let pasteShapes: [(String, String, InputFormat, [Int])] = [
        // Swift's runtime under a `fatal error:` line (BN-P06's shape): `Current stack trace:` and the frames.
        ("swift runtime stack trace", "Test Case '-[T.T testA]' started.\nfatal error: unexpectedly found nil while unwrapping an Optional value\n"
            + "Current stack trace:\n0    libswiftCore.dylib   0x0000000105750cc0 swift_reportError + 132\n"
            + "1    libswiftCore.dylib   0x000000010576e070 _swift_stdlib_reportFatalError + 61\nTest Suite 'All tests' failed.",
         .xcode, [1, 2, 6]),
        // A SwiftData trap quoted at its source location without `Fatal error:` and broken after `a` (round 75's UZ-010,
        // github.com/NicolasBataille/Ikeru commit cee5be3): one message; a location line that ends its sentence is not.
        ("trap location broken mid-sentence", "SwiftData/BackingData.swift:940: Never access a\nfull future backing data\n"
            + "SwiftData/ModelContext.swift:12: Done.\nnext step\n", .xcode, [1, 3, 4]),
        // clang's diagnostics in a build log (round 76's VF-P01, github.com/tekartik/sqflite/issues/98): the diagnostic,
        // the source line and the caret under it are one entry, after the include chain that led to it; the build's
        // summary and banners are entries of their own, and so is XCTest's failure at a line without a column.
        ("compiler diagnostics", "/x/Runner/AppDelegate.h:1:9: fatal error: 'Flutter/Flutter.h' file not found\n#import <Flutter/Flutter.h>\n"
            + "^~~~~~~~~~~~~~~~~~~\n1 error generated.\n=== BUILD TARGET Runner OF PROJECT Runner WITH CONFIGURATION Debug ===\n"
            + "/x/Runner/main.m:1:9: fatal error: 'Flutter/Flutter.h' file not found\n#import <Flutter/Flutter.h>\n^~~~~~~~~~~~~~~~~~~\n"
            + "In file included from /x/Runner/GeneratedPluginRegistrant.m:5:\n/x/Runner/GeneratedPluginRegistrant.h:8:9: fatal error: 'Flutter/Flutter.h' file not found\n"
            + "#import <Flutter/Flutter.h>\n^~~~~~~~~~~~~~~~~~~\n/x/Tests/DBTests.swift:53: error: -[Tests.DBTests testDB] : failed - nil\n"
            + "Test Case '-[Tests.DBTests testDB]' failed (1.650 seconds).\n/x/App/Item.swift:12:5: warning: Line Length Violation\n"
            + "CoreData: error: Failed to load model named Model\n", .xcode, [1, 4, 5, 6, 9, 13, 14, 15, 16]),
        // lldb's stop report (AR-P01's shape, github.com/isar/isar/issues/225): `Process N stopped`, the thread and
        // its stop reason, the frame, the disassembly's label and instructions, `Target 0: (…) stopped.`
        ("lldb stop report", "Process 19520 stopped\n* thread #24, stop reason = EXC_BAD_ACCESS (code=1, address=0x10cccc000)\n"
            + "    frame #0: 0x00000001c9401934 libsystem_platform.dylib`_platform_memset + 36\nlibsystem_platform.dylib`_platform_memset:\n"
            + "->  0x1c9401934 <+36>: stnp   x1, x1, [x0]\n    0x1c9401938 <+40>: stnp   x1, x1, [x0, #0x10]\nTarget 0: (Runner) stopped.\n"
            + "Lost connection to device.\n", .xcode, [1, 8]),
        // The backtrace command and what it printed are one entry (round 73, github.com/TryGhost/node-sqlite3/issues/1435);
        // another command after it is a message of its own.
        ("lldb bt", "(lldb) bt\n* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=EXC_I386_GPFLT)\n"
            + "  * frame #0: 0x0000000104e325e2 node_sqlite3.node`sqlite3_finalize + 18\n(lldb) frame select 1\n"
            + "* thread #1, queue = 'com.apple.main-thread'\n", .xcode, [1, 4, 5]),
        // Xcode's Thread Performance Checker report (CR-013's shape, github.com/woocommerce/woocommerce-ios/issues/12536):
        // the warning, `PID: …, TID: …`, `Backtrace`, a rule of `=` and the frames are one report; a `PID:`
        // line under another message is a message of its own.
        ("checker report", "Thread Performance Checker: Thread running at User-interactive quality-of-service class waiting on a lower QoS thread running at Default quality-of-service class. Investigate ways to avoid priority inversions\n"
            + "PID: 53490, TID: 7440089\nBacktrace\n=================================================================\n"
            + "3   CoreData                            0x00000001864b4a88 -[NSSQLDefaultConnectionManager _checkoutConnectionOfType:] + 72\n"
            + "Saved.\nPID: 1, TID: 2\n", .xcode, [1, 6, 7]),
        // A thread line with no stop line above it, and a label-like line with a blank, open entries.
        ("thread line alone", "Done.\n* thread #1, stop reason = breakpoint 1.1\nsee `x`:", .xcode, [1, 2, 3]),
        // lldb's `bt` whose indentation a page dropped (the flush form of AS-017): the first frame at the margin
        // stays with its thread, the frames after it with the first; a `frame #0:` under anything else, and a
        // `frame #2:` under the thread, open entries.
        // Sentry's frames whose indentation a page dropped (the flush form of H-010): frames of the crash line above;
        // a sentence naming a file is not one.
        ("file frames at the margin", "EXC_BREAKPOINT: Fatal error > configuration > Fatal error\n"
            + "File \"CoreDataManager.swift\", line 87, in CoreDataManager.persistentContainer.getter\n"
            + "File \"<compiler-generated>\", in @callee_guaranteed\nFile \"Store.swift\", line 12\n"
            + "File \"Notes.sqlite\" could not be opened\nNext message\n", .xcode, [1, 5, 6]),
        // Python's `logging.exception` form (WK-045's shape): the logger's ERROR line, the traceback under it and its
        // exception line are one entry; a traceback under a line at another level opens its own; a runner's line that
        // ends with the traceback's head (WK-010's shape) keeps the traceback and its exception line.
        ("logged traceback", "10:33:21 workflow.py:2080 ERROR    database is locked\nTraceback (most recent call last):\n"
            + "  File \"./zh\", line 714, in main\n    return do_reindex()\nsqlite3.OperationalError: database is locked\n"
            + "10:33:22 workflow.py:90 INFO     done\nTraceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'a'\n"
            + "[ERROR: input.scriptfilter] Code 1: Traceback (most recent call last):\n  File \"bookmarks.py\", line 91, in <module>\n"
            + "    alfred.write(results())\nsqlite3.OperationalError: database is locked\nNext\n", .xcode, [1, 6, 7, 10, 14]),
        // Node's print of an uncaught exception (WM-002's shape): the file and line, the statement that threw, a caret,
        // a blank line and the error are one entry; a caret line with nothing above it does not hold the blank line.
        ("Node uncaught exception", "/Users/me/app/node_modules/bindings/bindings.js:121\n        throw e;\n        ^\n\n"
            + "Error: dlopen(/Users/me/app/better_sqlite3.node, 0x0001): tried: 'x'\nNext\n^\n\nAfter\n", .xcode, [1, 6, 7, 9]),
        // Bun's print of the statement that threw, a caret and the error on the next line (WQ-P01's shape), and
        // Amplify's `Recovery suggestion:` under its error (WR-P01's): each one entry; a caret line over a line that
        // names no error ends there.
        ("caret over an error", "425 |     sqlite.exec(\"PRAGMA journal_mode = DELETE\");\n           ^\nSQLiteError: database is locked\n"
            + "  errno: 5, code: \"SQLITE_BUSY\"\nFailed to parse the event DataStoreError: No decoder found for model named MutationEvent\n"
            + "Recovery suggestion: There is no decoder registered for the model named MutationEvent.\n    ^\nNext message\n", .xcode, [1, 5, 8]),
        // An app's `Fatal error:` heading alone, a blank line and the error it announces (SP-017's shape): one entry;
        // after a heading that says more on its line, the blank line still ends the entry.
        ("fatal heading over a blank line", "Fatal error:\n\nError: SQLITE_CORRUPT: database disk image is malformed\n"
            + "Sync: Fatal error: stopped\n\nNext message\n", .xcode, [1, 4, 6]),
        // Go's panic, the blank line Go sets under it and its goroutine's frames (WH-034's shape): one entry up to the
        // next blank line; a `panic:` line followed by anything else after a blank line stays alone.
        ("Go panic and its goroutine", "panic: unable to open database file: operation not permitted\n\ngoroutine 1 [running]:\n"
            + "main.PanicOnErr(...)\n\tgithub.com/x/notes/main.go:461\nmain.main()\n\nNext message\npanic: later\n\nNot a goroutine\n",
         .xcode, [1, 8, 9, 11]),
        // Ruby's caller lines at the margin (the flush form of SX-024) stay with the exception Ruby printed; a
        // sentence opening `from ` does not.
        ("Ruby frames at the margin", "/gems/sqlite3-1.7.3/lib/sqlite3/resultset.rb:162:in `step': database disk image is malformed (SQLite3::CorruptException)\n"
            + "from ./lib/AppleNoteStore.rb:678:in `rip_notes'\nfrom ./notes_cloud_ripper.rb:182:in `<main>'\n"
            + "from the store at notes.rb: 3 rows\n", .xcode, [1, 4]),
        // Kotlin/Native's frames (`at 0   image   0x… kfun:…`) at the margin stay with the exception; a sentence
        // opening `at ` does not.
        ("Kotlin frames at the margin", "Uncaught Kotlin exception: androidx.sqlite.SQLiteException: Error code: 21\n"
            + "at 0   App.debug.dylib   0x1049ef2a3 kfun:kotlin.Throwable#<init>(kotlin.String?){} + 96\n"
            + "at 1   App.debug.dylib   0x1049e9f1b kfun:kotlin.Exception#<init>(kotlin.String?){} + 92\nat 10 o'clock the sync ran\n", .xcode, [1, 4]),
        // CoreStore's arrow lines under its log line (the flush form of C-041) are that log's.
        ("CoreStore arrow at the margin", "❗ [CoreStore: Assertion Failure] DataStack+Querying.swift:146 fetchAll(_:_:)\n"
            + "↪︎ Attempted to fetch from a 'CoreStore.DataStack' outside the main thread.\nNext message\n", .xcode, [1, 3]),
        // Apple's C++ frameworks log indented, their source location first (NA-P02's shape): each line a message;
        // a userInfo line and a frame's location at the end of a line stay with their entry.
        ("indented framework lines", "[DEBUG] [AudioService.speakAll:263] speaking 3 sentences\n"
            + "         AVAudioBuffer.mm:281   mBuffers[0].mDataByteSize (0) should be non-zero\n"
            + "         HALC_ProxyIOContext.cpp:1623  HALC_ProxyIOContext::IOWorkLoop: skipping cycle due to overload\n"
            + "CoreData: error: failed\n    reason = Store.m:12 is gone;\n    3  App  0x4 -[Store open] (Store.m:339)\n", .xcode, [1, 2, 3, 4]),
        ("bt at the margin", "* thread #13, queue = 'com.apple.root.default-qos', stop reason = EXC_BAD_INSTRUCTION (code=EXC_I386_INVOP, subcode=0x0)\n"
            + "frame #0: 0x00007fff50c9eeb5 libsqlite3.dylib`sqlite3MutexMisuseAssert + 117\nframe #1: 0x00007fff50c9ed26 libsqlite3.dylib`checkMutexEnter + 38\n"
            + "* frame #0: 0x1 App`main + 4\n* thread #2, stop reason = breakpoint 1.1\nframe #2: 0x2 App`f + 8\n", .xcode, [1, 4, 5, 6]),
        // Frames whose location closes the line without parentheses (AX-022's shape, a crash reporter's
        // `N image symbol File.m:line`) are one stack; `12 tests failed` is not a frame.
        ("frames with a bare location", "Crashed: fmdb.queue\n15 mxtrip -[FMDatabase executeQuery:withArgumentsInArray:orDictionary:orVAList:] FMDatabase.m:775\n"
            + "16 mxtrip -[FMDatabase executeQuery:] FMDatabase.m:895\n12 tests failed in Suite.swift:40\n", .xcode, [1, 4]),
        // Lines above a capture's first prefixed line (a build tool's output, BB-P01's shape) are bare text:
        // no prefixed message is open for them to continue.
        ("build output above a capture", "Generating Data Model crash-will-save\n   Loading schemas/0001_initial.rb\nSimulate ./build/App.app\n"
            + "2015-01-09 19:07:59.793 App[46833:80b] First message\nits second line\n2015-01-09 19:07:59.794 App[46833:80b] Second\n", .nslog, [1, 3, 4, 6]),
        // Relayed log lines (`process: [Default] …`, AZ-P01's shape) after a prefixed line are messages.
        ("relayed log lines", "Sep 26 09:48:57 host launchd_sim[85296] (com.apple.x): Service exited\n"
            + "com.apple.CallKit.CallDirectory: [Default] Unable to initialize CXCallDirectoryStore\ncallservicesd: [Default] Error synchronizing\n", .deviceSyslog, [1, 2, 3]),
        // A crash report's `Application Specific Information:` quoted alone keeps the text under it.
        ("Application Specific Information", "Application Specific Information:\ncom.example.notes failed to scene-create in time\nNext message\n", .xcode, [1, 3]),
        // A shell's prompt after prefixed lines (AU-P01's shape) is not the last message's continuation.
        ("shell prompts", "2020-05-10 16:27:47.431 Vienna[2995:1076023] DB Path: /Users/dale/Library/Application Support/Vienna/messages.db\nbash-3.2$ \n"
            + "2020-05-10 16:27:48.000 Vienna[2995:1076023] Done\nstill the same message\n$ ls -l\n", .nslog, [1, 2, 3, 5]),
        // Another process's line after AppKit's announcement is its own entry.
        ("another process after an announcement", "2014-08-02 00:18:26.014 Remote[14716:303] An uncaught exception was raised\n"
            + "2014-08-02 00:18:26.014 Helper[14717:303] This NSPersistentStoreCoordinator has no persistent stores.", .nslog, [1, 2]),
    ]

    @Test(arguments: pasteShapes.map(\.0))
    func pasteShapeSplitsAsPrinted(_ name: String) throws {
        let shape = try #require(Self.pasteShapes.first { $0.0 == name })
        #expect(try TestSupport.entries(shape.1, format: shape.2).map(\.line) == shape.3, "\(name)")
    }

    @Test func fieldListsLibraryLinesAndShellDeathsSplitAsPrinted() throws {
        // A userInfo whose reason lists `Entity: attribute` lines, until the brace closes.
        let listed = "CoreData: error: Store failed to load. with error = Error Domain=NSCocoaErrorDomain Code=134060 UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional. The following attributes are marked non-optional:\n"
            + "Entry: createdAt\nEntry: title} with userInfo {\n    NSLocalizedFailureReason = x;\n}\nNext message here"
        #expect(try TestSupport.entries(listed, format: .xcode).map(\.line) == [1, 6])
        // FMDB's statement line stays with its error; a sentence after one space is a message of its own.
        let fmdb = "Unknown error calling sqlite3_step (5: database is locked) eu\nDB Query: begin exclusive transaction\n Unknown error finalizing or resetting statement (5: database is locked)\nDB Query: commit"
        #expect(try TestSupport.entries(fmdb, format: .xcode).map(\.line) == [1, 3])
        // In a prefixed capture: a shell's death line, and a sentence after a blank line, open messages.
        let prefixed = "2018-05-03 23:27:20.605 watoi[8054:390284] unable to open database file\nAbort trap: 6\n"
            + "2020-01-30 23:21:16.354718-0800 architect[398:88870] [logging-persist] os_unix.c:43353: (0) open(//architect.db) - Undefined error: 0\n\n"
            + "The operation couldn’t be completed. (SQLite.Result error 0.)\n"
        let entries = try TestSupport.entries(prefixed, format: .nslog)
        #expect(entries.map(\.line) == [1, 2, 3, 5])
        #expect(TestSupport.classify(entries[1].message)?.rule.id == "crash.console-termination")
        // An app's print that opens with an acronym (`WS closed …`) after a finished line, and the same
        // statement printed twice (its first three words again), open messages of their own.
        let stamp = "2019-01-17 12:25:12.585574+0300 X[527:216507] "
        let printed = stamp + "[] nw_socket_handle_socket_event [C25.1:1] Socket SO_ERROR [60: Operation timed out]\n"
            + stamp + "[] nw_connection_get_connected_socket [C25] Client called nw_connection_get_connected_socket\n"
            + stamp + "TCP Conn 0x280305f80 Failed : error 0:60 [60]\n"
            + "WS closed with error: Optional(Error Domain=NSPOSIXErrorDomain Code=60 \"Operation timed out\")\n"
            + stamp + "App Launch [:]\n"
            + "Found loop plugin at file:///private/var/containers/Bundle/Application/1/Loop.app/Frameworks/A.framework/\n"
            + "Found loop plugin at file:///private/var/containers/Bundle/Application/1/Loop.app/Frameworks/B.framework/\n"
            + "SR-Info: not the tag of the open entry, a continuation\n"
            + stamp + "done\n"
        #expect(try TestSupport.entries(printed, format: .nslog).map(\.line) == [1, 2, 3, 4, 5, 6, 7, 9])
        // A type's name opening the sentence (a results controller's own print) after the blank line too.
        let typed = "2015-10-17 22:48:15.748 Stellup[94318:24983296] 0 Derived Deleted Sections\n\n"
            + "RBQFecthResultsTVC caught exception updating table view: Invalid update: invalid number of sections.\n"
        #expect(try TestSupport.entries(typed, format: .nslog).map(\.line) == [1, 3])
    }

    @Test func aWrappedMessageIsReadAgainWithItsLinesJoined() throws {
        // Kept as one entry by a prefixed capture, but the pattern's words are split over two lines.
        let wrapped = "*** Terminating\napp due to uncaught exception 'NSInvalidArgumentException', reason:\n'Unsupported function expression count:(tracks.events)'"
        #expect(TestSupport.classify(wrapped)?.category == .crash)
        #expect(TestSupport.classify(wrapped)?.severity == .fatal)
        // A finding the first reading makes is kept when the joined one says nothing more specific.
        let plain = "CoreData: error: (14) I/O error for database at /x/Model.sqlite.\n  SQLite error code:14, 'unable to open database file'"
        #expect(TestSupport.classify(plain)?.category == .store)
    }

    @Test(arguments: [1, 7, 4096, 1 << 16])
    func resultsDoNotDependOnReadSize(_ chunkSize: Int) throws {
        let text = Self.multiLine + "\n" + FormatDetectionTests.samples.map(\.1).joined()
        let reference = try TestSupport.entries(text, format: .nslog)
        let chunked = try TestSupport.entries(text, format: .nslog, chunkSize: chunkSize)
        #expect(chunked.map(\.message) == reference.map(\.message))
        #expect(chunked.map(\.line) == reference.map(\.line))
        let json = FormatDetectionTests.samples[6].1
        #expect(try TestSupport.entries(json, chunkSize: chunkSize).map(\.message) == ["CoreData+CloudKit: Finished request", "second"])
    }

    @Test func crlfAndInvalidUTF8AreHandled() throws {
        var bytes = Array("CoreData: error: one\r\nCoreData: error: t".utf8)
        bytes += [0xFF, 0xFE, 0x00]
        bytes += Array("wo\r\n".utf8)
        let entries = try TestSupport.entries(bytes: bytes, format: .xcode)
        #expect(entries.count == 2)
        #expect(entries[0].message == "CoreData: error: one")
        #expect(entries[1].message.contains("\u{FFFD}"))
        #expect(entries[1].message.hasSuffix("wo"))
    }

    @Test func overlongLinesAreCutAndMarked() throws {
        var text = "CoreData: error: " + String(repeating: "x", count: EntryLimits.maxMessageBytes * 2)
        text += "\nCoreData: error: after\n"
        let entries = try TestSupport.entries(text, format: .xcode, chunkSize: 1 << 16)
        #expect(entries.count == 2)
        #expect(entries[0].truncated)
        #expect(entries[0].message.utf8.count == EntryLimits.maxMessageBytes)
        #expect(entries[1].message == "CoreData: error: after")
        #expect(entries[1].line == 2)
    }

    @Test func anExceptionNamedAloneKeepsTheReasonUnderIt() throws {
        // A crash reporter's title (`NSInvalidArgumentException:`) over the reason: one exception, fatal.
        let text = "NSInvalidArgumentException:\nObject of class Tag is not among allowed top level class list (\n    NSArray,\n    NSDictionary\n)\n"
        let entries = try TestSupport.entries(text)
        #expect(entries.count == 1 && entries.first?.endLine == 5, "\(entries.map(\.message))")
        let result = TestSupport.classify(entries[0].message)
        #expect(result?.category == .model && result?.severity == .fatal, "\(String(describing: result?.rule.id))")
        // A sentence that ends with a colon is not an exception's name.
        #expect(try TestSupport.entries("NSLog said Exception:\nObject of class Tag\n").count == 2)
        // The bare name, as Instabug and Sentry head an issue, keeps its reason too.
        let bare = try TestSupport.entries("NSInvalidArgumentException\nFetch must have an entity\n")
        #expect(bare.count == 1, "\(bare.map(\.message))")
        let bareResult = TestSupport.classify(bare[0].message)
        #expect(bareResult?.category == .initialization && bareResult?.severity == .fatal, "\(String(describing: bareResult?.rule.id))")
        #expect(try TestSupport.entries("NSInvalidArgumentExceptions\nFetch must have an entity\n").count == 2)
    }

    @Test func anErrorValueAfterAPrefixedTrapContinuesIt() throws {
        // `SwiftDataError(…)` is the value the trap's message announced, not a bare `SwiftData/…` trap line.
        let text = "2024-01-10 11:14:38.831786-0800 App[1:2] Thread 1: Fatal error: Cannot initialize Service: \nSwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer)\n"
        let entries = try TestSupport.entries(text)
        #expect(entries.count == 1 && entries.first?.endLine == 2, "\(entries.map(\.message))")
        #expect(TestSupport.classify(entries[0].message)?.category == .initialization)
        // The trap printed bare among prefixed lines still opens a message of its own.
        let trap = "2024-01-10 11:14:38.831786-0800 App[1:2] Loading the store.\nSwiftData/ModelContainer.swift:144: Fatal error: 'try!' expression unexpectedly raised an error\n"
        #expect(try TestSupport.entries(trap).count == 2)
    }

    @Test func blankLinesInsidePrefixedEntriesAreKeptOnlyBeforeContinuations() throws {
        let text = "2021-08-10 15:27:55.123456+0800 App[1:2] first\n\n    continued\n\n2021-08-10 15:27:56.123456+0800 App[1:2] second\n\n"
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.message) == ["first\n\n    continued", "second"])
        #expect(entries[0].endLine == 3)
    }

    @Test func emptyInputHasNoEntries() throws {
        #expect(try TestSupport.entries("").isEmpty)
        #expect(try TestSupport.entries("\n\n  \n").isEmpty)
    }

    @Test func deeplyNestedJSONDoesNotRecurse() throws {
        let deep = "{\"eventMessage\":\"ok\",\"x\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}\n"
        let entries = try TestSupport.entries(deep, format: .logNDJSON)
        #expect(entries.map(\.message) == ["ok"])
    }

    @Test func truncatedJSONObjectIsStillReported() throws {
        let entries = try TestSupport.entries("{\"eventMessage\":\"CoreData: error: cut here", format: .logNDJSON)
        #expect(entries.count == 1)
        #expect(entries[0].message == "CoreData: error: cut here")
        #expect(entries[0].truncated)
    }

    @Test func jsonEscapesAreDecoded() throws {
        let entries = try TestSupport.entries(#"{"eventMessage":"a\"b\\c\nd \u30b9 \ud83d\ude00 \ud800 end"}"# + "\n", format: .logNDJSON)
        #expect(entries.first?.message == "a\"b\\c\nd ス 😀 \u{FFFD} end")
    }

    /// An old Swift assertion whose error Swift printed inside `Optional(…)` on the next line, and its location
    /// on a line of its own (round 51's RL-P01, an xctool log quoted in a test file), is one entry; a daemon's
    /// own `assertion failed:` line takes no line after it.
    @Test func anOldAssertionKeepsItsOptionalErrorAndLocation() throws {
        let text = "assertion failed: *** Error finding documents directory:\n"
            + "Optional(Error Domain=NSCocoaErrorDomain Code=513 \"The operation couldn’t be completed.\" UserInfo={NSFilePath=/var/empty/Documents}):\n"
            + "file /Users/dev/Notes/CoreDataModel.swift, line 136\nNext launch"
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 4], "\(entries.map(\.line))")
        let daemon = try TestSupport.entries("assertion failed: 14C1510 12D508: assertiond + 12446 [6756D728-8EE6-3DA2-B069-3EA61C107DF8]: 0x1 and a long tail\nNext line")
        #expect(daemon.count == 2)
    }

    /// Round 52's RP-P03: an app's short print under a one-line NSLog message that ends in a word is its own
    /// entry; a `key: value` line (Core Data's `Using local storage: 1` under its Ubiquity line), a long line
    /// and a line after an open bracket stay with the message.
    @Test func aShortPrintUnderAOneLineMessageIsItsOwnEntry() throws {
        let prefix = "2021-12-17 15:02:39.054097+0800 Demo[10950:1122437] "
        let text = prefix + "[unspecified] container_create_or_lookup_app_group_path_by_app_group_identifier: client sent invalid parameters\n"
            + "Current file index 0\n" + prefix + "next message"
        #expect(try TestSupport.entries(text).map(\.line) == [1, 2, 3])
        let keyValue = prefix + "-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](771): CoreData: Ubiquity:  mobile~361E0DEC\n"
            + "Using local storage: 1\n" + prefix + "next message"
        #expect(try TestSupport.entries(keyValue).map(\.line) == [1, 3])
        let long = prefix + "Saving the context failed for the second time in a row\n"
            + "Retrying the save later after the import finishes\n" + prefix + "next message"
        #expect(try TestSupport.entries(long).map(\.line) == [1, 3])
        let open = prefix + "Failed with options (cache size 20\n" + "Retry count 3)\n" + prefix + "next message"
        #expect(try TestSupport.entries(open).map(\.line) == [1, 3])
        let reason = prefix + "Fatal Exception: NSInvalidArgumentException\n" + "Fetch must have an entity\n" + prefix + "next message"
        #expect(try TestSupport.entries(reason).map(\.line) == [1, 3])
    }

    /// Round 82's WA-P03: Xcode's console copied with its metadata. Each message ends with its `Type: … | Timestamp: …`
    /// line, across the blank lines of a layout warning; a run of the app's standard output shares one `Type: stdio`,
    /// and its lines that open entries of their own stay apart. The same text split in blocks gives the same entries.
    @Test func xcodeMetadataLinesCloseTheirMessage() throws {
        let text = """
            Unable to simultaneously satisfy constraints.
            \tProbably at least one of the constraints in the following list is one you don't want.
            (
                "<NSLayoutConstraint:0x1385e6d00 'accessoryView.bottom' _UIRemoteKeyboardPlaceholderView:0x13577c000.bottom == SystemInputAssistantView.top + 68>"
            )

            Will attempt to recover by breaking constraint
            <NSLayoutConstraint:0x1385e68f0 'assistantView.top' V:[_UIRemoteKeyboardPlaceholderView:0x13577c000]-(0)-[SystemInputAssistantView]>

            Make a symbolic breakpoint at UIViewAlertForUnsatisfiableConstraints to catch this in the debugger.
            Type: Error | Timestamp: 2026-01-04 04:49:24.161478-08:00 | Process: TopNote | Library: UIKitCore | Subsystem: com.apple.UIKit | Category: LayoutConstraints | TID: 0x6a55e9
            CoreData: debug: WAL checkpoint: Database did checkpoint. Log size: 1258 checkpointed: 1257
            CoreData: debug: WAL checkpoint: Database busy
            Type: stdio
            Received remote change notification
            Type: Debug | Timestamp: 2026-01-04 04:49:25.994992-08:00 | Process: TopNote | Library: TopNote.debug.dylib | Subsystem: com.example.TopNote | Category: CloudKit | TID: 0x6a55e9
            CoreData: fault: Already have a mirrored relationship registered for this key: CD_M2M_Card_tags:4807AB9A:DD44CB92
            <NSCKMirroredRelationship: 0x132018960> (entity: NSCKMirroredRelationship; id: 0x8497e3b4a51991fe; data: {
                relationshipName = tags;
            })
            Type: Fault | Timestamp: 2026-01-04 04:49:28.803311-08:00 | Process: TopNote | Library: CoreData | Subsystem: com.apple.coredata | Category: error | TID: 0x6a582d

            """
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 12, 13, 15, 17])
        #expect(entries.map(\.endLine) == [11, 12, 14, 16, 21])
        #expect(TestSupport.classify(entries[4].message)?.rule.id == "sync.mirroring.duplicate-mirrored-relationship")
        for blockSize in [64, 200, 4096] {
            let reader = LineReader(source: MemoryByteSource(name: "t", bytes: Array(text.utf8), chunkSize: 7), blockSize: blockSize,
                                    maxLineBytes: EntryLimits.maxMessageBytes)
            let blocks = try #require(try EntrySplitter.entriesInBlocks(reader, format: .xcode, sourceName: "t", maxLineBytes: EntryLimits.maxMessageBytes))
            #expect(blocks.map(\.line) == entries.map(\.line) && blocks.map(\.endLine) == entries.map(\.endLine), "\(blockSize)")
        }
        // The metadata line broken by a page, after a field or inside one (`TID:` / `0x6a582d`), is still the message's.
        let broken = """
            CoreData: Already have a mirrored relationship registered for this key:
            CD_M2M_Card_tags:4807AB9A:DD44CB92
            Type: Fault | Timestamp: 2026-01-04 04:49:28.803311-08:00 | Process: TopNote |
            Library: CoreData | Subsystem: com.apple.coredata | Category: error | TID:
            0x6a582d
            Received remote change notification
            Type: Debug | Timestamp: 2026-01-04 04:49:28.932542-08:00 | Process: TopNote |
            Library: TopNote.debug.dylib | Subsystem: com.example.TopNote | Category:
            CloudKit | TID: 0x6a55e9
            CoreData: debug: WAL checkpoint: Database busy
            """
        let brokenEntries = try TestSupport.entries(broken)
        #expect(brokenEntries.map(\.line) == [1, 6, 10] && brokenEntries.map(\.endLine) == [5, 9, 10])
        // Without a timestamped metadata line the copy is ordinary console text, and `Type: ` opens no message.
        #expect(try TestSupport.entries("Received remote change notification\nType: stdio\nnext").count == 3)
        let lines = ["Type: Error | Timestamp: x", "Type: stdio", "Type: stdio  ", "Type: Fault"]
        for line in lines { #expect(Array(line.utf8).withUnsafeBytes { EntrySplitter.isMetadataTrailer($0) }, "\(line)") }
        for line in ["Type: Errors", "Type: error happened", "Type:Error", "Type: Bogus | x"] {
            #expect(!Array(line.utf8).withUnsafeBytes { EntrySplitter.isMetadataTrailer($0) }, "\(line)")
        }
    }

    /// Round 83's WC-P01, WC-P05, WC-P11: a command-line client's output. Its prints that open with an emoji under a
    /// heading (`  🔍 CloudKit batch limit…`, `   ✅ Fetched 95 articles`) are messages of their own, as at the margin;
    /// an error's labelled details under it (`Server Error Code: …`, `Reason: …`, `Raw Response: …`) are the error's.
    @Test func indentedEmojiPrintsOpenAndErrorDetailsContinue() throws {
        let text = """
            Syncing 1 DataSourceMetadata record(s) in 1 batch(es)...
              🔍 CloudKit batch limit: 200 operations/request.
              Batch 1/1: 1 records...
               ✓ 0 records confirmed
            Error: CloudKit API error: HTTP 401
            Server Error Code: AUTHENTICATION_FAILED
            Reason: Authentication failed
               ❌ Error: CloudKit API error: HTTP 400
            Raw Response: limit must be between 1 and 200, got 500
            """
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 2, 4, 5, 8])
        #expect(entries.map(\.endLine) == [1, 3, 4, 7, 9])
        #expect(TestSupport.classify(entries[3].message)?.category == .account)
        #expect(TestSupport.classify(entries[4].message)?.category == .cloudkit)
    }

    /// Round 97's pastes: among NSLog's dated lines, another logger's time of day and bar, a logging macro's method
    /// name and an app's quoted print each open a message; a method name under a message that announces it
    /// (`CoreData+CloudKit: ` broken over lines by a console copy) stays its continuation.
    @Test func otherLoggersLinesAmongDatedOnesOpenMessages() throws {
        let text = """
            2016-08-22 14:55:23.218 pomochat[25438:5473589] Launching Couchbase Lite...
            14:55:23.222‖ WARNING: EnableLogTo: There is no logging domain named 'CBLListener'.
            2012-05-21 07:34:02.144 ViennaBeta[48477:903] connessione = YES
            -[RefreshManager nqRequestFinished:]- RefreshManager.m:110 - Removed queue: 4
            2018-12-08 00:24:23.847344+0530 App[5539:146105] CouchbaseLite Query Info: End of query enumeration (0x600001fdada0)
            "FetchFromCommander UPC list []"
            2018-12-08 00:24:23.850881+0530 App[5539:169594] CloudKit: CoreData+CloudKit:
            -[NSCloudKitMirroringDelegate executeMirroringRequest:error:](969): Asked to execute request
            """
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
        #expect(entries.last?.endLine == 8)
        // Round 100's test logs: xcodebuild's and XCTest's own time-of-day lines and a test's failure under an app's
        // dated print each open a message.
        let testLog = """
            2025-09-11 12:56:41.059463-0400 DailyManna[82238:2898325] [App] [Data] Creating label locally: @work
            12:56:41.060 xcodebuild[82141:2896900] Nothing to delete
            2025-09-11 12:56:40.609879-0400 DailyManna[82220:2898157] [App] [Data] Created label locally: 8B5684F4
            /Users/me/DailyManna/DailyMannaTests/AllBucketsListTests.swift:33: error: -[DailyMannaTests.AllBucketsListTests testFetch] : XCTAssertEqual failed
            """
        #expect(try TestSupport.entries(testLog).map(\.line) == [1, 2, 3, 4])
        for (line, expected) in [("14:55:23.222| Sync: CBL_Puller[x] STARTING", true), ("14:55:23| Sync", false),
                                 ("14:55:23.222 x", false), ("12:56:41.063 DailyManna[82238:2898225] Returning result", true),
                                 ("12:56:41.063 some words [1:2] x", false), ("12:56:41.063 App[1] x", false)] {
            var bytes = Array(line.utf8)
            #expect(bytes.withUnsafeMutableBytes { EntrySplitter.opensWithTimeOfDayBar(UnsafeRawBufferPointer($0)) } == expected, "\(line)")
        }
        for (line, expected) in [("+[Store shared] opened", true), ("-[x y] z", false), ("-[Store]", false), ("\"a\" = b", false)] {
            var bytes = Array(line.utf8)
            #expect(bytes.withUnsafeMutableBytes { EntrySplitter.opensWithMethodName(UnsafeRawBufferPointer($0)) } == expected, "\(line)")
        }
        for (line, expected) in [("/Users/me/App/AppTests/ListTests.swift:33: error: -[AppTests.ListTests testFetch] : failed", true),
                                 ("/Users/me/App/main.swift: error: no line", false), ("Users/x.swift:3: error: y", false)] {
            var bytes = Array(line.utf8)
            #expect(bytes.withUnsafeMutableBytes { EntrySplitter.opensWithTestFailure(UnsafeRawBufferPointer($0)) } == expected, "\(line)")
        }
        for (line, expected) in [("\"done \"", true), ("\"key\" = 1;", false), ("\"\"", false)] {
            var bytes = Array(line.utf8)
            #expect(bytes.withUnsafeMutableBytes { EntrySplitter.isQuotedLine(UnsafeRawBufferPointer($0)) } == expected, "\(line)")
        }
        // Round 99's XY-P12: Swift Testing's event lines (`◇ … started.`, `✔ … passed …`, and in Xcode an SF Symbol)
        // under a Cocoa error printed on a line of its own each open a message (its `↳` detail lines are not such symbols).
        let swiftTesting = """
            2026-03-17 08:33:41.509274+0200 App[6246:1468410] [CloudKit] CoreData+CloudKit: recoverFromError: The store was removed
            Error Domain=NSCocoaErrorDomain Code=134407 "Request was cancelled because the store was removed from the coordinator."
            ✔ Test "switchToContainer updates runtime state" passed after 0.078 seconds.
            ◇ Test "registry stays localOnly" started.
            \u{1007C8} Test "registry stays localOnly" passed after 0.002 seconds.
            """
        #expect(try TestSupport.entries(swiftTesting).map(\.line) == [1, 3, 4, 5])
        // Round 102's YE-021: a crash report's loaded images pasted alone (iOS prints them unindented) are one list.
        let images = """
            0x1b06ab000 - 0x1b06b6fff liblockdown.dylib arm64  <e54dab767c993b6ca169686d4a2ecfc9> /usr/lib/liblockdown.dylib
            0x1b06b7000 - 0x1b09d8fff CoreData arm64  <0e99b0167a2a3b2da844a8f907dfe83a> /System/Library/Frameworks/CoreData.framework/CoreData
            0x1b09d9000 - ??? TCC arm64  <ca8dcff85b5b3a33aaed32ada8ea2ba8> /System/Library/PrivateFrameworks/TCC.framework/TCC
            Saved 3 notes
            """
        #expect(try TestSupport.entries(images).map(\.line) == [1, 4])
        for (line, expected) in [("  0x7fff25f12000 -     0x7fff260d1fff  libsqlite3.dylib (321.1)", true), ("0x10 - 0x20 x", false),
                                 ("0x1b06ab000 -0x1b06b6fff x", true), ("0x1b06ab000 - 0x1b06b6fffx", false)] {
            var bytes = Array(line.utf8)
            #expect(bytes.withUnsafeMutableBytes { EntrySplitter.isBinaryImageLine(UnsafeRawBufferPointer($0)) } == expected, "\(line)")
        }
        // Round 106's YN-P01: Lua's `stack traceback:` under the error a console logged at ERROR is that error's.
        let lua = """
            2021-06-07 11:08:45: -- Loading extension: eventtap
            2021-06-07 11:08:45: *** ERROR: .../stackline/configmanager.lua:36: attempt to index a nil value (global 'u')
            stack traceback:
            \t.../stackline/configmanager.lua:36: in main chunk
            \t[C]: in function 'rawrequire'
            """
        let luaEntries = try TestSupport.entries(lua)
        #expect(luaEntries.map(\.line) == [1, 2] && luaEntries.last?.endLine == 5, "\(luaEntries.map { ($0.line, $0.endLine) })")
        for (line, expected) in [("◇ Suite started", true), ("▸ Running script", true), ("◇x", false), ("↳ detail", false), ("• item", false)] {
            var bytes = Array(line.utf8)
            #expect(bytes.withUnsafeMutableBytes { EntrySplitter.opensWithEmoji(UnsafeRawBufferPointer($0)) } == expected, "\(line)")
        }
    }

    /// Round 99's XY-P11 (an Xcode test log): the mirroring validator prints its options, then `storeOptions: {`, the
    /// dictionary and `}` under them: one message, in bare text and among prefixed lines alike, and whichever
    /// block of a parallel read the dictionary's name starts.
    @Test func aDictionaryNamedUnderItsMessageStaysWithIt() throws {
        let text = """
            CoreData: debug: CoreData+CloudKit: -[PFCloudKitOptionsValidator validateOptions:andStoreOptions:error:](36): Validating options: <NSCloudKitMirroringDelegateOptions: 0x600003000ea0> bypassDasdRateLimiting:NO
            storeOptions: {
                NSInferMappingModelAutomaticallyOption = 1;
            }
            CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate observeChangesForStore:inPersistentStoreCoordinator:](429): Observing store
            """
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 5])
        #expect(entries.first?.endLine == 4)
        for (line, expected) in [("storeOptions: {", true), ("userInfo: (", true), ("storeOptions: { a", false), ("Reason: {", false),
                                 ("store.options: {", false), ("storeOptions:{", false)] {
            var bytes = Array(line.utf8)
            #expect(bytes.withUnsafeMutableBytes { EntrySplitter.opensNamedDump(UnsafeRawBufferPointer($0)) } == expected, "\(line)")
        }
    }

    /// Round 54's RU-008: a poster's elision (`...`, `…`, `[...]`) between the frames of a crashed thread keeps
    /// the frames one entry; the same marks inside a sentence or longer runs of dots do not.
    @Test func anElisionLineKeepsTheBlockTogether() throws {
        let frames = "Thread 0 Crashed:\n0   dyld                    0x101365190 __mmap + 8\n...\n10  dyld                    0x101368bc0 start + 6780\n"
        #expect(try TestSupport.entries(frames + "\nNext message").map(\.line) == [1, 6])
        for mark in ["…", "[...]", "  ... ", "(…)"] {
            let text = "CoreData: error: Failed to save\n" + mark + "\nCoreData: error: Failed again"
            #expect(try TestSupport.entries(text).map(\.line) == [1, 3], "\(mark)")
        }
        #expect(XcodeConsoleFormat.isElision(UnsafeRawBufferPointer(start: nil, count: 0)) == false)
        for line in ["....", "Loading...", ". . . .", "--"] {
            let bytes = Array(line.utf8)
            #expect(bytes.withUnsafeBytes { XcodeConsoleFormat.isElision($0) } == false, "\(line)")
        }
    }

    @Test func unifiedlogIteratorJSONLinesAreRead() throws {
        // mandiant's `unifiedlog_iterator --format jsonl` (its LogData members): `message`, `log_type`, `pid`,
        // `thread_id`, the process as a path; a loss record has an empty message and is no entry.
        let text = #"{"subsystem":"com.apple.coredata","thread_id":588211,"pid":812,"time":1.7641e18,"timestamp":"2025-11-25T13:05:26.434850732Z","category":"cloudkit","log_type":"Error","process":"/private/var/containers/Bundle/Application/0A1B/Notes.app/Notes","message":"CoreData: error: (14) I/O error for database at /x/Model.sqlite","event_type":"Log","raw_message":"%s","message_entries":[]}"#
            + "\n" + #"{"subsystem":"","pid":812,"timestamp":"2025-11-25T13:05:27.000000000Z","log_type":"","process":"","message":"","event_type":"Loss"}"# + "\n"
        #expect(try TestSupport.detect(text) == .logNDJSON)
        let entries = try TestSupport.entries(text)
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.message == "CoreData: error: (14) I/O error for database at /x/Model.sqlite")
        #expect(entry.process == "Notes" && entry.pid == 812 && entry.level == "error")
        #expect(entry.subsystem == "com.apple.coredata" && entry.timestamp == "2025-11-25T13:05:26.434850732Z")
        #expect(TestSupport.classify(entry.message)?.category == .store)
    }

    @Test func jsonWhoseObjectsHaveNoMessageIsAnErrorNotSilence() throws {
        // Read as a JSON export, objects with no message are an error; detected, such JSON is no export and is read
        // as text, every line an entry the rules read (round 82: a CloudKit Web Services response an app printed).
        #expect(throws: ToolFailure.self) { _ = try TestSupport.entries(#"{"level":30,"time":1640324529498,"pid":1}"# + "\n", format: .logNDJSON) }
        #expect(try TestSupport.entries(#"{"level":30,"time":1640324529498,"pid":1}"# + "\n").map(\.message) == [#"{"level":30,"time":1640324529498,"pid":1}"#])
        // Other JSON loggers' `msg` is a message.
        #expect(try TestSupport.entries(#"{"msg":"unhandled error: SQLITE_BUSY: database is locked","time":1640324529498}"# + "\n").first?.message
                == "unhandled error: SQLITE_BUSY: database is locked")
        #expect(throws: ToolFailure.self) { _ = try TestSupport.entries(#"[{"foo":1},{"bar":2}]"#, format: .logJSON) }
        // Objects without a message beside ones with one (activities) are simply not entries.
        let mixed = #"{"eventType":"activityCreateEvent"}"# + "\n" + #"{"eventMessage":"hello"}"# + "\n"
        #expect(try TestSupport.entries(mixed, format: .logNDJSON).count == 1)
    }

    /// ndjson lines holding one object are read in one pass; every other line goes through the
    /// splitter. A junk byte before each line forces the splitter's path, so on lines mutated at random
    /// (quotes, brackets, backslashes, cut-offs) both paths must give the same entries — where no
    /// object runs over several lines (there the junk byte becomes part of the object).
    @Test func objectLinesGiveWhatTheSplitterGives() throws {
        var random = SeededRandom(state: 99)
        var compared = 0
        let seeds = [#"{"timestamp":"2024-03-01 10:00:00.007297+0100","processImagePath":"/x/MyApp","processID":1234,"eventMessage":"CoreData: error: a "quoted" \ value","messageType":"Error"}"#,
                     #"  {"eventMessage":"plain","process":"App","subsystem":"","category":"cloudkit","threadID":0x1f}  "#,
                     #"{"eventType":"activityCreateEvent","processID":1}"#,
                     #"{"eventMessage":"x","extra":{"nested":[1,2,{"a":"}"}]},"threadID":7}"#,
                     #"{"eventMessage":"y","backtrace":{"frames":[{"imageOffset":1,"imageUUID":"A"}]},"n":[]}"#]
        let alphabet = Array("{}[]\\\"\":, x0".utf8)
        for round in 0..<3_000 {
            var lines: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                var line = Array(seeds.randomElement(using: &random)!.utf8)
                for _ in 0..<Int.random(in: 0...2, using: &random) where !line.isEmpty {
                    let at = Int.random(in: 0..<line.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: line[at] = alphabet.randomElement(using: &random)!
                    case 1: line.insert(alphabet.randomElement(using: &random)!, at: at)
                    default: line.removeSubrange(at..<min(line.count, at + Int.random(in: 1...8, using: &random)))
                    }
                }
                lines.append(line)
            }
            let direct = lines.joined(separator: [0x0A]).map { $0 }
            let viaSplitter = lines.map { [UInt8(ascii: "x")] + $0 }.joined(separator: [0x0A]).map { $0 }
            // A source whose objects all lack a message is refused: by both paths, or by neither.
            let expectedOrNil = try? TestSupport.entries(bytes: viaSplitter, format: .logNDJSON)
            let actualOrNil = try? TestSupport.entries(bytes: direct, format: .logNDJSON)
            guard let expected = expectedOrNil, let actual = actualOrNil else {
                #expect((expectedOrNil == nil) == (actualOrNil == nil), "round \(round): refused by one path only")
                continue
            }
            guard (expected + actual).allSatisfy({ $0.line == $0.endLine }) else { continue }
            compared += 1
            #expect(actual.map(Self.describe) == expected.map(Self.describe), "round \(round): \(String(decoding: direct, as: UTF8.self))")
        }
        #expect(compared > 1_500)
    }

    static func describe(_ entry: Entry) -> String {
        "\(entry.line)-\(entry.endLine) \(entry.truncated) \(entry.timestamp ?? "-") \(entry.process ?? "-") \(entry.pid ?? -1) "
            + "\(entry.threadID ?? "-") \(entry.subsystem ?? "-") \(entry.logCategory ?? "-") \(entry.level ?? "-") \(entry.message)"
    }
}
