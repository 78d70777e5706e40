import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Testing

/// Real line shapes of every format docs/classify.md lists, detected and parsed.
@Suite struct FormatDetectionTests {
    static let samples: [(InputFormat, String)] = [
        (.xcode, "CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): <NSCloudKitMirroringDelegate: 0x28266c0f0>: Successfully set up CloudKit integration for store: <NSSQLCore: 0x10311a6f0> (URL: file:///var/mobile/Containers/Data/Application/X/Library/Application%20Support/Model.sqlite)\n"),
        (.nslog, "2021-08-10 15:27:55.123456+0800 MyApp[1234:567890] CoreData: error: Failed to load persistent stores\n2021-08-10 15:27:55.223456+0800 MyApp[1234:567890] [error] error: CoreData+CloudKit: oops\n"),
        (.logDefault, "Filtering the log data using \"subsystem == \\\"com.apple.coredata\\\"\"\nSkipping info and debug messages, pass --info and/or --debug to include.\nTimestamp                       Thread     Type        Activity             PID    TTL  \n2021-08-10 15:27:55.123456+0800 0x2b4c1    Default     0x0                  1234   0    MyApp: (CoreData) [com.apple.coredata:cloudkit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate finishedAutomatedRequestWithResult:](2972): Finished request\n--------------------------------------------------------------------------------------------------------------------\nLog      - Default:          1, Info:                0, Debug:             0, Error:          0, Fault:          0\nActivity - Create:            0, Transition:          0, Actions:           0\n"),
        (.logCompact, "Timestamp               Ty Process[PID:TID]\n2021-08-10 15:27:55.123 Df MyApp[1234:2b4c1] [com.apple.coredata:cloudkit] CoreData+CloudKit: Finished request\n"),
        (.logSyslog, "Timestamp                       (process)[PID]    \n2021-08-10 15:27:55.123456+0800  localhost MyApp[1234]: (CoreData) [com.apple.coredata:cloudkit] CoreData+CloudKit: Finished request\n"),
        (.logNDJSON, #"{"traceID":123,"eventMessage":"CoreData+CloudKit: Finished request","eventType":"logEvent","source":null,"formatString":"%@","activityIdentifier":0,"subsystem":"com.apple.coredata","category":"cloudkit","threadID":176321,"senderImageUUID":"X","backtrace":{"frames":[{"imageOffset":1,"imageUUID":"Y"}]},"bootUUID":"","processImagePath":"\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp","timestamp":"2021-08-10 15:27:55.123456+0800","senderImagePath":"\/System\/Library\/Frameworks\/CoreData.framework\/CoreData","machTimestamp":1,"messageType":"Default","processImageUUID":"Z","processID":1234,"senderProgramCounter":1,"parentActivityIdentifier":0,"timezoneName":""}"# + "\n"),
        (.logJSON, "[{\n  \"timestamp\" : \"2021-08-10 15:27:55.123456+0800\",\n  \"messageType\" : \"Error\",\n  \"eventMessage\" : \"CoreData+CloudKit: Finished request\",\n  \"processImagePath\" : \"\\/Applications\\/MyApp.app\\/Contents\\/MacOS\\/MyApp\",\n  \"processID\" : 1234,\n  \"subsystem\" : \"com.apple.coredata\",\n  \"category\" : \"cloudkit\"\n},{\n  \"timestamp\" : \"2021-08-10 15:27:56.000000+0800\",\n  \"eventMessage\" : \"second\",\n  \"processID\" : 1234\n}]\n"),
        (.consoleApp, "error\t15:27:55.123456+0800\tMyApp\tCoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1242): Failed to set up CloudKit integration\n"),
        (.deviceSyslog, "Jul  8 12:00:01 iPhone MyApp(CoreData)[123] <Error>: CoreData: error: Failed to load persistent stores\n"),
        // Shapes from AU-009 (github.com/hjuutilainen/munkiadmin) and AR-013 (a Xamarin.iOS sqlite-net issue).
        (.timestamped, "8/4/15 11:54:15.460 AM MunkiAdmin[75456]: Cannot perform operation without a managed object context\n"
            + "2018-03-17 01:42:36.743[7344:32574382] critical:   at <unknown> <0xffffffff>\n"),
    ]

    @Test(arguments: samples.map { $0.0 })
    func detectsEachFormat(_ format: InputFormat) throws {
        let text = Self.samples.first { $0.0 == format }!.1
        #expect(try TestSupport.detect(text) == format)
    }

    /// JSON that holds no event message (a CloudKit Web Services response an app printed, VX-053 of round 82) is no
    /// log export: it is read as text, and the server code in it is found, where it used to be refused.
    @Test func jsonWithNoMessageMemberIsReadAsText() throws {
        let response = #"{"records":[{"recordName":"a4cd61f4","reason":"bad upload receipt (did_not_validate)","serverErrorCode":"BAD_REQUEST"}]}"# + "\n"
        #expect(try TestSupport.detect(response) == .xcode)
        #expect(try TestSupport.detect("[" + response.dropLast() + "]\n") == .xcode)
        #expect(TestSupport.classify(response)?.category == .cloudkit)
        // A member named as a message still makes it an export, with spaces before the colon too.
        #expect(try TestSupport.detect(#"{"level":"error", "msg" : "CoreData: error: x"}"# + "\n") == .logNDJSON)
        // A message member nested in an object of one line is the object's payload, not an event's message (round
        // 102's YC-002, a SQLite plugin's result): text, where the SQLite error is found.
        let result = #"{"result":{"code":0,"sqliteCode":11,"message":"database disk image is malformed"}}"# + "\n"
        #expect(try TestSupport.detect(result) == .xcode)
        #expect(TestSupport.classify(result)?.category == .store)
        #expect(try TestSupport.detect(result + #"{"message":"CoreData: error: x"}"# + "\n") == .logNDJSON)
    }

    @Test func extractsHeaderFieldsFromNSLogPrefix() throws {
        let entries = try TestSupport.entries(Self.samples[1].1)
        #expect(entries.count == 2)
        #expect(entries[0].timestamp == "2021-08-10T15:27:55.123456+08:00")
        #expect(entries[0].process == "MyApp")
        #expect(entries[0].pid == 1234)
        #expect(entries[0].message == "CoreData: error: Failed to load persistent stores")
        #expect(entries[1].logCategory == "error")
        #expect(entries[1].message == "error: CoreData+CloudKit: oops")
    }

    @Test func logShowDefaultSkipsPreambleAndFooter() throws {
        let entries = try TestSupport.entries(Self.samples[2].1)
        #expect(entries.count == 1)
        #expect(entries[0].line == 4)
        #expect(entries[0].process == "MyApp")
        #expect(entries[0].subsystem == "com.apple.coredata")
        #expect(entries[0].logCategory == "cloudkit")
        #expect(entries[0].level == "default")
        #expect(entries[0].message.hasPrefix("CoreData+CloudKit: -[NSCloudKitMirroringDelegate"))
        // A message that opens with a parenthesis holding blanks is not the library column: it keeps it.
        let opening = Self.samples[2].1.replacingOccurrences(of: "(CoreData) [com.apple.coredata:cloudkit] CoreData+CloudKit: -[NSCloudKitMirroringDelegate finishedAutomatedRequestWithResult:](2972): Finished request",
                                                            with: "(SyncKit.CloudKitSynchronizer.SyncError error 0) The operation couldn’t be completed.")
        let kept = try TestSupport.entries(opening)
        #expect(kept.first?.message == "(SyncKit.CloudKitSynchronizer.SyncError error 0) The operation couldn’t be completed.")
    }

    @Test func compactAndSyslogStyles() throws {
        let compact = try TestSupport.entries(Self.samples[3].1)
        #expect(compact.count == 1)
        #expect(compact[0].timestamp == "2021-08-10T15:27:55.123")
        #expect(compact[0].level == "df")
        #expect(compact[0].message == "CoreData+CloudKit: Finished request")
        let syslog = try TestSupport.entries(Self.samples[4].1)
        #expect(syslog.count == 1)
        #expect(syslog[0].process == "MyApp")
        #expect(syslog[0].pid == 1234)
        #expect(syslog[0].message == "CoreData+CloudKit: Finished request")
    }

    /// An NSLog line whose message holds `Name[N]: ` (Realm Sync's `Sync: Connection[1]: …`, round 31) is not
    /// `log show --style syslog` with a host `App[pid:tid]`: a host name has no `[`.
    @Test func anNSLogMessageWithABracketedCounterIsNotSyslogStyle() throws {
        let text = "2017-01-04 06:27:20.721 Banjo[3293:30756] Sync: Connection[1]: Sending: CLIENT(protocol_version=15, client_info_size=2)\n"
        #expect(try TestSupport.detect(text) == .nslog)
        let entries = try TestSupport.entries(text)
        #expect(entries.first?.process == "Banjo")
        #expect(entries.first?.message.hasPrefix("Sync: Connection[1]: ") == true)
    }

    @Test func jsonStylesGiveOneEntryPerEvent() throws {
        let ndjson = try TestSupport.entries(Self.samples[5].1)
        #expect(ndjson.count == 1)
        #expect(ndjson[0].process == "MyApp")
        #expect(ndjson[0].message == "CoreData+CloudKit: Finished request")
        #expect(ndjson[0].timestamp == "2021-08-10T15:27:55.123456+08:00")
        let json = try TestSupport.entries(Self.samples[6].1)
        #expect(json.count == 2)
        #expect(json[0].line == 1 && json[0].endLine == 9)
        #expect(json[0].level == "error")
        #expect(json[1].message == "second")
    }

    @Test func consoleAndDeviceSyslog() throws {
        let console = try TestSupport.entries(Self.samples[7].1)
        #expect(console.first?.process == "MyApp")
        #expect(console.first?.message.hasPrefix("CoreData+CloudKit:") == true)
        let device = try TestSupport.entries(Self.samples[8].1)
        #expect(device.first?.process == "MyApp(CoreData)")
        #expect(device.first?.level == "error")
        #expect(device.first?.timestamp == "--07-08T12:00:01")
        #expect(device.first?.message == "CoreData: error: Failed to load persistent stores")
        // A page that collapsed the day's padding (`Jul 7`, BA-P01's shape): still a header.
        let collapsed = try TestSupport.entries("Jul 7 19:29:58 ShrutiMac syslogd[3748]: Configuration Notice:\nJul 17 19:29:59 ShrutiMac syslogd[3748]: restarted", format: .deviceSyslog)
        #expect(collapsed.map(\.line) == [1, 2] && collapsed.map(\.timestamp) == ["--07-07T19:29:58", "--07-17T19:29:59"])
        // A Mac's copy with the host column empty (round 70, github.com/sqlitebrowser/sqlitebrowser/issues/782):
        // the process (spaces and all) is read, so its name is not taken for the message's words.
        let hostless = try TestSupport.entries("Sep 20 16:23:31  DB Browser for SQLite[16536] <Error>: This user is not allowed access to the window system right now.", format: .deviceSyslog)
        #expect(hostless.first?.process == "DB Browser for SQLite" && hostless.first?.level == "error")
        #expect(hostless.first?.message == "This user is not allowed access to the window system right now.")
    }

    /// TN3163's log excerpts (round 71): Console.app's columns with blanks for tabs and an ellipsis for each
    /// column left out, the message on the lines under its header, a blank line between messages. The
    /// header is read, and the lines under it (`Enqueued request: …`, `in response to activity:`) stay in
    /// its message though they outnumber the headers: each header opens a paragraph.
    @Test func elidedConsoleColumnsInParagraphs() throws {
        let text = """
        default  … 14:14:15.841696 …  YourCoolApp CloudKit: CoreData+CloudKit: 
        -[NSCloudKitMirroringDelegate _scheduleAutomatedImportWithLabel:activity:voucher:completionHandler:](3594): 
         - Beginning automated import - ImportActivity - 
        in response to activity:

        default  … 14:14:15.841866 …  YourCoolApp CloudKit: CoreData+CloudKit: 
        -[NSCloudKitMirroringDelegate _enqueueRequest:]_block_invoke_2(1012): 
        Enqueued request:  2D00459F-8C08-4E9A-BC44-FCE1CD29A550

        default  … 14:14:16.536834 …  YourCoolApp CloudKit: CoreData+CloudKit: 
        -[NSCloudKitMirroringDelegate _finishedRequest:withResult:](3542): 
        Finished request:  2D00459F-8C08-4E9A-BC44-FCE1CD29A550
        with result:  storeIdentifier: … 
        success: 1 madeChanges: 0 error: (null)
        """
        #expect(try TestSupport.detect(text) == .consoleApp)
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 6, 10] && entries.map(\.endLine) == [4, 8, 14])
        #expect(entries.first?.process == "YourCoolApp" && entries.first?.timestamp?.hasSuffix("14:14:15.841696") == true)
        // The ellipses set against the time, as another of the note's excerpts prints them.
        let glued = try TestSupport.entries("default  …12:21:54.208523…  YourCoolApp  CloudKit: CoreData+CloudKit: ", format: .consoleApp)
        #expect(glued.first?.process == "YourCoolApp" && glued.first?.message == "CloudKit: CoreData+CloudKit: ")
        // Without blank lines between messages the same bare lines open messages of their own, as they do
        // where a few prefixed lines sit among an app's prints.
        let dense = text.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
        #expect(try TestSupport.entries(dense).count > 3)
    }

    /// Old Console.app copies in the Mac's locale and NSLog's prefix without a process name: the prefix
    /// is read (time, process, pid, thread), never left in the message, and each header line opens an entry.
    @Test func otherTimestampedPrefixes() throws {
        let text = """
        8/4/15 11:54:15.460 PM MunkiAdmin[75456]: Cannot perform operation without a managed object context
        27.02.12 19:19:49,064 CodeKit: An uncaught exception was raised
        04/08/2015 09:05:01 backupd[343] Backup failed
        2017-01-24 15:54:00.649652 [1578:314845] [error] error: (7) I/O error for database at /var/mobile/x.sqlite
        11:43:58.831 [1859:2672475] critical: Stacktrace:
        """
        #expect(try TestSupport.detect(text) == .timestamped)
        let entries = try TestSupport.entries(text)
        #expect(entries.map(\.line) == [1, 2, 3, 4, 5])
        #expect(entries.map(\.timestamp) == ["2015-08-04T23:54:15.460", "2012-02-27T19:19:49.064", "2015-08-04T09:05:01",
                                             "2017-01-24T15:54:00.649652", "11:43:58.831"])
        #expect(entries.map(\.process) == ["MunkiAdmin", "CodeKit", "backupd", nil, nil])
        #expect(entries.map(\.pid) == [75456, nil, 343, 1578, 1859])
        #expect(entries[0].message == "Cannot perform operation without a managed object context")
        #expect(entries[1].message == "An uncaught exception was raised")
        #expect(entries[3].logCategory == "error" && entries[3].message.hasPrefix("error: (7) I/O error"))
        #expect(entries[4].message == "critical: Stacktrace:")
        // A simulator's system.log (BA-P02's shape, pastebin.com/i7pPA8Ws): process names with colons, and a
        // launchd job's line whose message names another process's pid.
        let simulator = """
        12/21/12 6:52:40.450 PM com.apple.iPhoneSimulator:com.apple.itunescloudd: mach_port_mod_refs() failed
        12/21/12 6:52:46.292 PM com.apple.launchd.peruser.501: (com.apple.iPhoneSimulator:com.apple.locationd[340]) Exited with code: 1
        12/21/12 6:52:47 PM Google Chrome Helper[355]: started
        """
        let simulatorEntries = try TestSupport.entries(simulator, format: .timestamped)
        #expect(simulatorEntries.map(\.process) == ["com.apple.iPhoneSimulator:com.apple.itunescloudd", "com.apple.launchd.peruser.501", "Google Chrome Helper"])
        #expect(simulatorEntries[1].message.hasPrefix("(com.apple.iPhoneSimulator:com.apple.locationd[340]) Exited"))
        // Not these formats' lines: an NSLog prefix, a version number, a sentence with a date, a clock
        // without ids.
        for line in ["2021-08-10 15:27:55.123456+0800 MyApp[1234:567890] CoreData: error: x", "1.2.3 10:00:00 x",
                     "12/31/2024 was the day", "10:00:00 nothing here"] {
            #expect(Array(line.utf8).withUnsafeBytes { TimestampedFormat().header(of: $0) } == nil, "\(line)")
        }
        // The same log as a page broke it at 72 columns: the stamp alone, or the process name alone, ends a line;
        // the next line is that entry's message.
        let broken = """
        12/21/12 6:52:40.129 PM assetsd: Store has no version. Needs migration.
        12/21/12 6:52:40.450 PM
        com.apple.iPhoneSimulator:com.apple.itunescloudd: mach_port_mod_refs()
        failed
        12/21/12 6:52:46.292 PM com.apple.launchd.peruser.501:
        (com.apple.iPhoneSimulator:com.apple.locationd[340]) Exited with code: 1
        """
        let brokenEntries = try TestSupport.entries(broken, format: .timestamped)
        #expect(brokenEntries.map(\.line) == [1, 2, 5])
        #expect(brokenEntries.map(\.process) == ["assetsd", nil, "com.apple.launchd.peruser.501"])
    }

    @Test func refusesBinaryAndDatabases() {
        #expect(throws: ToolFailure.self) { try TestSupport.detect("SQLite format 3\0rest") }
        let junk = String(decoding: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }, as: UTF8.self)
        #expect(throws: ToolFailure.self) { try FormatDetector.detect(ArraySlice((0..<4096).map { UInt8(truncatingIfNeeded: $0 % 9) }), sourceName: "t") }
        _ = junk
    }

    @Test func timestampsNormalise() {
        #expect(Timestamps.iso8601("2021-08-10 15:27:55.123456+0800") == "2021-08-10T15:27:55.123456+08:00")
        #expect(Timestamps.iso8601("2021-08-10 15:27:55-0700") == "2021-08-10T15:27:55-07:00")
        #expect(Timestamps.iso8601("15:27:55.123456+0800") == "15:27:55.123456+08:00")
        #expect(Timestamps.iso8601("Dec 31 23:59:59") == "--12-31T23:59:59")
        // Old Console.app stamps: dotted dates day first, slashed ones month first with AM/PM.
        #expect(Timestamps.iso8601("12/1/13 12:05:09.5 AM") == "2013-12-01T00:05:09.5")
        #expect(Timestamps.iso8601("1.12.13 23:05:09,5") == "2013-12-01T23:05:09.5")
        #expect(Timestamps.iso8601("25/12/2013 23:05:09") == "2013-12-25T23:05:09")
        #expect(Timestamps.iso8601("12/25/2013 23:05:09") == "2013-12-25T23:05:09")
    }
}
