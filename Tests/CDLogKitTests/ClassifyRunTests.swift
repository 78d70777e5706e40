import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing

/// The whole classify pipeline in the library: parallel blocks, echo folding, pasted crash reports.
@Suite struct ClassifyRunTests {
    static func run(_ text: String, threads: Int, blockSize: Int = 4096, all: Bool = false) throws -> (TestSupport.CollectingWriter, ClassifySummary) {
        try TestSupport.classifyRun(Array(text.utf8), threads: threads, blockSize: blockSize, all: all)
    }

    static func describe(_ reporter: TestSupport.CollectingWriter) -> [String] {
        reporter.entries.map { "\($0.entry.line)-\($0.entry.endLine) \($0.classification?.rule.id ?? "-") ×\($0.count) \($0.entry.message.count)" }
    }

    /// Every sample, cut into 4 KiB blocks on two threads, gives exactly the single-thread result.
    @Test func parallelBlocksGiveTheSameResultAsOneThread() throws {
        let samples = TestSupport.packageRoot.appendingPathComponent("Samples/logs")
        let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let text = try String(contentsOf: samples.appendingPathComponent(name), encoding: .utf8)
            let doubled = text + (text.hasSuffix("\n") ? "" : "\n") + text
            let (one, summaryOne) = try Self.run(doubled, threads: 1, all: true)
            let (two, summaryTwo) = try Self.run(doubled, threads: 2, all: true)
            #expect(Self.describe(one) == Self.describe(two), "\(name)")
            #expect(summaryOne.entries == summaryTwo.entries && summaryOne.classified == summaryTwo.classified, "\(name)")
            #expect(summaryOne.findings == summaryTwo.findings, "\(name)")
        }
    }

    /// A stack pasted without its crash line is read by the `input: stack` rules after every other rule
    /// said nothing, on one thread and on several, whatever the quiet-entry skipper skips; a one-line
    /// frame and a numbered list are not stacks.
    @Test func aStackPastedAloneIsATermination() throws {
        let text = "Saw this on launch:\n\n"
            + "0   libsystem_platform.dylib   0x00000001c4728f14 _os_unfair_lock_recursive_abort + 36\n"
            + "1   MyApp                      0x0000000100cc2000 Cache.lock() + 264\n"
            + "2   MyApp                      0x0000000100cc2538 Cache.item.getter + 76 (Cache.swift:12)\n\n"
            + "1. Open the app\n2. Tap Sync\n\n"
            + "3   MyApp                      0x0000000100cc2538 Cache.item.getter + 76\n"
        for threads in [1, 3] {
            let (reporter, _) = try Self.run(text, threads: threads, blockSize: 64, all: true)
            let verdicts = reporter.entries.map { "\($0.entry.line) \($0.classification?.rule.id ?? "-")" }
            #expect(verdicts == ["1 -", "3 crash.pasted-stack", "7 -", "8 -", "10 -"], "\(verdicts)")
            let stack = try #require(reporter.entries.first { $0.entry.line == 3 }?.classification)
            #expect(stack.category == .crash && stack.severity == .fatal)
        }
        // A crash report's thread heading over the frames opens the stack too.
        let thread = "Thread 4:: Dispatch queue: com.example.import\n"
            + "0   libobjc.A.dylib    0x00007fff5cc496bc objc_msgSend + 60\n"
            + "1   MyApp              0x0000000100cc2538 Importer.run() + 74\n"
        #expect(TestSupport.classify(thread)?.rule.id == "crash.pasted-stack")
        #expect(TestSupport.classify("Thread 4:: Dispatch queue: com.example.import\nThe import finished")?.rule.id == nil)
        // Persistence frames in the stack name the area, as for any termination no rule explained.
        let sqlite = "0   libsqlite3.dylib   0x00000001c33d5c04 sqlite3BtreeMovetoUnpacked + 1076\n"
            + "1   libsqlite3.dylib   0x00000001c33d5c04 sqlite3VdbeExec + 1076\n"
        let stored = try #require(TestSupport.classify(sqlite))
        #expect(stored.severity == .fatal && stored.category == .store, "\(stored.rule.id) \(stored.category)")
    }

    /// The runtime's unrecognized-selector line alone means the app stopped (`fatal`); printed just before its own
    /// `*** Terminating app due to uncaught exception` entry it is the error that entry reports as fatal, on one thread
    /// and on several, wherever a block boundary falls between the two.
    @Test func aLineThatAnnouncesItsTerminationIsAnError() throws {
        let line = "2015-06-19 14:22:56.661 Todos[532:117700] -[Todos.List incompleteCount]: unrecognized selector sent to instance 0x1"
        let termination = "2015-06-19 14:22:56.662 Todos[532:117700] *** Terminating app due to uncaught exception 'NSInvalidArgumentException', "
            + "reason: '-[Todos.List incompleteCount]: unrecognized selector sent to instance 0x1'"
        let other = "2015-06-19 14:22:56.663 Todos[532:117700] Saved 3 lists"
        let filler = (0..<40).map { "2015-06-19 14:22:50.\(100 + $0) Todos[532:117700] Loading list \($0)" }.joined(separator: "\n")
        let text = [filler, line, termination, filler, line, other, filler].joined(separator: "\n") + "\n"
        for (threads, blockSize) in [(1, 4096), (2, 64), (3, 200)] {
            let (reporter, _) = try Self.run(text, threads: threads, blockSize: blockSize)
            let verdicts = reporter.entries.map { "\($0.classification?.rule.id ?? "-") \($0.classification?.severity.name ?? "-")" }
            // The second announcing line is followed by the app's own next line: a console line of a log that went on.
            #expect(verdicts == ["crash.unrecognized-selector error", "crash.unrecognized-selector fatal", "crash.unrecognized-selector error"],
                    "\(threads) threads, blocks of \(blockSize): \(verdicts)")
        }
        // The same line pasted bare, with no console prefix, says the app stopped.
        let (bare, _) = try Self.run("-[Todos.List incompleteCount]: unrecognized selector sent to instance 0x1\n", threads: 1, blockSize: 4096)
        #expect(bare.entries.map { $0.classification?.severity } == [.fatal])
        // An exception table's reason the same way: a Mac app's console line (AppKit logs the exception it caught on the
        // main thread) is an error, the reason pasted alone a termination.
        let logged = "8/4/15 11:54:15.460 AM MunkiAdmin[75456]: Cannot perform operation without a managed object context\n"
        let (console, _) = try Self.run(logged, threads: 1, blockSize: 4096)
        #expect(console.entries.map { "\($0.classification?.rule.id ?? "-") \($0.classification?.severity.name ?? "-")" }
                == ["exception.controller-without-context error"])
        let (reason, _) = try Self.run("Cannot perform operation without a managed object context\n", threads: 1, blockSize: 4096)
        #expect(reason.entries.map { $0.classification?.severity } == [.fatal])
    }

    @Test func echoesFoldAcrossBlockBoundaries() throws {
        var text = ""
        for i in 0..<400 {
            let event = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:](2200): <NSCloudKitMirroringDelegate: 0x1> - Never successfully initialized and cannot execute request '<NSCloudKitMirroringImportRequest: 0x2> \(i)' due to error: Error Domain=CKErrorDomain Code=9 \"Not Authenticated\""
            text += "error: \(event)\nCoreData: error: \(event)\n"
        }
        let (reporter, summary) = try Self.run(text, threads: 2, blockSize: 4096)
        #expect(reporter.entries.count == 400)
        #expect(reporter.entries.allSatisfy { $0.count == 2 })
        #expect(summary.entries == 800)
    }

    @Test func pastedCrashReportInALogIsOneCrashEntry() throws {
        let crash = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/crash/dead10cc-sqlite.crash"), encoding: .utf8)
        let crashLines = crash.split(separator: "\n", omittingEmptySubsequences: false).count - (crash.hasSuffix("\n") ? 1 : 0)
        let text = "CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 \"x\"\n" + crash
            + (crash.hasSuffix("\n") ? "" : "\n") + "CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134100 \"y\"\n"
        for threads in [1, 2] {
            let (reporter, _) = try Self.run(text, threads: threads)
            #expect(reporter.entries.count == 3)
            #expect(reporter.entries[1].entry.format == .crashReport)
            #expect(reporter.entries[1].entry.line == 2)
            #expect(reporter.entries[1].entry.endLine >= crashLines - 1)
            #expect(reporter.entries[1].classification?.category == .crash)
            #expect(reporter.entries[2].entry.line == crashLines + 2)
        }
    }

    /// A CI log's or a page's own lines before a macOS report (which opens with its `Process:` line) stay entries of
    /// their own, and the report is one crash entry from that line on; a `sample` run's `Process:` line, under its
    /// `Analysis of sampling` line, opens no report.
    @Test func linesBeforeAPastedMacReportStayTheirOwn() throws {
        let preamble = [
            "travis_fold:start:after_failure.2",
            "$ ls -lat $HOME/Library/Logs/DiagnosticReports/",
            "-rw-------@  1 travis  staff  91743 Nov  5 12:34 Notes_2018-11-05-123432_Mac.crash",
            "/Users/travis/Library/Logs/DiagnosticReports/Notes_2018-11-05-123432_Mac.crash",
        ]
        let report = [
            "Process:               Notes [285]",
            "Path:                  /Applications/Notes.app/Contents/MacOS/Notes",
            "Identifier:            com.example.Notes",
            "Version:               8.0 (399.2.2)",
            "Code Type:             X86-64 (Native)",
            "Parent Process:        ??? [1]",
            "Date/Time:             2018-11-05 12:34:31.812 +0000",
            "OS Version:            Mac OS X 10.13.6 (17G65)",
            "Report Version:        12",
            "",
            "Crashed Thread:        0  Dispatch queue: com.apple.main-thread",
            "",
            "Exception Type:        EXC_BAD_ACCESS (SIGSEGV)",
            "Exception Codes:       KERN_INVALID_ADDRESS at 0x0000000000000010",
            "",
            "Thread 0 Crashed:: Dispatch queue: com.apple.main-thread",
            "0   libsqlite3.dylib              0x00007fff5e1a2b3c sqlite3_step + 60",
            "1   com.apple.CoreData            0x00007fff3a1b2c3d -[NSSQLiteConnection execute] + 1200",
        ]
        let text = (preamble + report).joined(separator: "\n") + "\n"
        // Detected, not forced: the document is read as a log because lines that are not the report's open it.
        #expect(try FormatDetector.detect(ArraySlice(Array(text.utf8)), sourceName: "ci.log") != .crashReport)
        for threads in [1, 2] {
            let (reporter, _) = try TestSupport.classifyRun(Array(text.utf8), threads: threads)
            let lines = reporter.entries.map { "\($0.entry.line)-\($0.entry.endLine)" }
            #expect(lines == ["1-1", "2-2", "3-3", "4-4", "5-\(preamble.count + report.count)"], "\(lines)")
            #expect(reporter.entries.last?.entry.format == .crashReport)
            #expect(reporter.entries.last?.classification?.category == .crash)
        }
        // The report alone is still a report, read by the crash reader.
        #expect(try FormatDetector.detect(ArraySlice(Array((report.joined(separator: "\n") + "\n").utf8)), sourceName: "r.crash") == .crashReport)
        // `sample`'s output: its `Process:` line opens no report.
        let sample = [
            "Sampling process 51185 for 3 seconds with 1 millisecond of run time between samples",
            "Analysis of sampling Notes (pid 51185) every 1 millisecond",
            "Process: Notes [51185]",
            "Path: /Applications/Notes.app/Contents/MacOS/Notes",
            "Call graph:",
            "    2647 Thread_12451789   DispatchQueue_1: com.apple.main-thread  (serial)",
        ].joined(separator: "\n") + "\n"
        let (sampled, _) = try TestSupport.classifyRun(Array(sample.utf8), threads: 1)
        #expect(!sampled.entries.contains { $0.entry.format == .crashReport })
    }

    /// An entry whose text names no framework but whose unified-log prefix says it is Core Data's or
    /// CloudKit's at error or fault level is read again as that framework's error line: never silent.
    /// Other levels, other subsystems and a process merely named after a framework stay quiet.
    @Test func aPersistenceSubsystemAtErrorLevelIsNeverSilent() throws {
        let header = "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
        let lines = [
            "2024-01-10 11:14:38.831786-0800 0x724d65   Error       0x0                  18248  14   knowledged: (CoreData) [com.apple.coredata:error] error:   file is not a symbolic link",
            "2024-01-10 11:14:38.841786-0800 0x724d65   Fault       0x0                  18248  14   MyApp: (CloudKit) [com.apple.cloudkit:Engine] the zone went sideways",
            "2024-01-10 11:14:38.851786-0800 0x724d65   Default     0x0                  18248  14   knowledged: (CoreData) [com.apple.coredata:sql] file is not a symbolic link",
            "2024-01-10 11:14:38.861786-0800 0x724d65   Error       0x0                  18248  14   CoreDataDemo: (UIKitCore) [com.apple.UIKit:Layout] the layout went sideways",
        ]
        let (reporter, _) = try TestSupport.classifyRun(Array((header + lines.joined(separator: "\n") + "\n").utf8), threads: 1, all: true,
                                                        format: .logDefault)
        let verdicts = reporter.entries.map { $0.classification.map { "\($0.rule.id) \($0.severity.name)" } ?? "-" }
        #expect(verdicts == ["fallback.store error", "fallback.cloudkit error", "-", "-"], "\(verdicts)")
        // The message reported is the entry's own, not the re-read one.
        #expect(reporter.entries.first?.entry.message == "error:   file is not a symbolic link")
        // JSON events carry the subsystem and the level as members.
        let events = #"{"timestamp":"2024-01-10 11:14:38.831786-0800","messageType":"Fault","subsystem":"com.apple.cloudkit","category":"Engine","eventMessage":"zone fetch went sideways","processImagePath":"/A/My"}"#
            + "\n" + #"{"timestamp":"2024-01-10 11:14:39.831786-0800","messageType":"Info","subsystem":"com.apple.coredata","category":"sql","eventMessage":"zone fetch went sideways","processImagePath":"/A/My"}"#
        let (json, _) = try TestSupport.classifyRun(Array((events + "\n").utf8), threads: 1, all: true, format: .logNDJSON)
        #expect(json.entries.map { $0.classification?.category } == [.cloudkit, nil])
        // Xcode's console with the subsystem and no level (`App[1:2] [com.apple.swiftdata:PersistentModel] …`): the
        // message's own words must say it failed.
        let xcode = "2024-01-10 11:14:38.831786-0800 MyApp[1234:56789] [com.apple.swiftdata:PersistentModel] Illegal attempt to resolve a relationship of a model with no context.\n"
            + "2024-01-10 11:14:38.841786-0800 MyApp[1234:56789] [com.apple.coredata:sql] Saved 3 objects\n"
            + "2024-01-10 11:14:38.851786-0800 MyApp[1234:56789] [Layout] Illegal attempt to lay out a view\n"
        let (console, _) = try TestSupport.classifyRun(Array(xcode.utf8), threads: 1, all: true, format: .nslog)
        #expect(console.entries.map { $0.classification?.rule.id } == ["fallback.concurrency", nil, nil])
    }

    /// A log category that names a persistence library (`tags` in Rules/tables/fallback.yaml) is read with the message
    /// of an entry nothing recognised: Amplify DataStore's classes, an app's own `CloudKit` category (whose message a code
    /// table then knows); another category (`[UIKitCore]`) adds nothing, a message a rule knows keeps its rule, and a
    /// failure only a catch-all would name stays quiet (a stem row's `… failed`, `[Database] Failed to load avatar image`).
    @Test func aPersistenceLibrarysLogCategoryIsReadWithItsMessage() throws {
        let xcode = "2022-03-09 12:11:00.362856-0500 App[2393:805841] [RemoteSyncEngine] New state: performingInitialSync\n"
            + "2023-09-30 12:24:21.902867+0200 App[637:65102] [DataStoreIncomingAsyncSubscriptionEventPublisher] sync of `User` failed\n"
            + "2024-01-10 11:14:38.831786-0800 App[1234:56789] [CloudKit] Failed to save the record: Server Rejected Request\n"
            + "2024-01-10 11:14:38.841786-0800 App[1234:56789] [UIKitCore] Failed to save the record: Server Rejected Request\n"
            + "2024-01-10 11:14:38.851786-0800 App[1234:56789] [Database] SQLite error 4: Database is suspended – while executing COMMIT\n"
            + "2024-01-10 11:14:38.861786-0800 App[1234:56789] [Database] Failed to load avatar image: 404\n"
        let (console, _) = try TestSupport.classifyRun(Array(xcode.utf8), threads: 1, all: true, format: .nslog)
        #expect(console.entries.map { $0.classification?.rule.id }
                == ["activity.sync", nil, "code.ckerror.15", nil, "grdb.database-suspended", nil])
        #expect(console.entries.map { $0.classification?.severity } == [.info, nil, .error, nil, .error, nil])
    }

    /// iCloud's sync daemons name themselves in the prefix, not in their routine lines: `cloudd`, `bird` and
    /// `syncdefaultsd` at work are sync at debug, in a device syslog and in `log show` alike; a failure only the
    /// fallback would name stays quiet (the daemons serve the system's containers too), and other processes'
    /// lines are untouched.
    @Test func iCloudsSyncDaemonsAtWorkAreSyncActivity() throws {
        let syslog = """
        Nov 15 16:51:32 iPhone cloudd(CloudKitDaemon)[101] <Notice>: [Operation 0x100ece130] Starting operation
        Nov 15 16:52:09 iPhone bird(CloudDocsDaemon)[162] <Notice>: [NOTICE] received 1 edited items from the cloud for <private>
        Nov 15 16:44:06 iPhone syncdefaultsd(ApplePushService)[498] <Notice>: Initializing APSConnection <private>
        Nov 15 16:44:07 iPhone cloudd(CloudKitDaemon)[101] <Error>: Couldn't pull url from backing account <CKDAccount 0x15dd0a1a0>
        Nov 15 16:44:08 iPhone birdwatcher[77] <Notice>: [Operation 0x1] Starting operation
        Nov 15 16:44:09 iPhone SpringBoard[55] <Notice>: [Operation 0x2] Starting operation

        """
        let (reporter, _) = try TestSupport.classifyRun(Array(syslog.utf8), threads: 1, all: true)
        #expect(reporter.entries.map { $0.classification?.rule.id } == ["sync.icloud-daemon-activity", "sync.icloud-daemon-activity",
                                                                          "sync.icloud-daemon-activity", nil, nil, nil])
        #expect(reporter.entries.first?.classification?.severity == .debug)
        let logShow = "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
            + "2023-10-14 17:53:54.688700+0800 0x1e2cd    Default     0x0                  4004   14   cloudd: (CloudKitDaemon) [com.apple.cloudkit:Operation] [Operation 0x1] Starting operation\n"
        let (shown, _) = try TestSupport.classifyRun(Array(logShow.utf8), threads: 1, all: true, format: .logDefault)
        #expect(shown.entries.map { $0.classification?.rule.id } == ["sync.icloud-daemon-activity"])
    }
}
