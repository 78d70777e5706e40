import Testing
import Foundation
import CDLogCore
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports

/// Hang reports (spindump text) and stackshots (`bug_type` 288), issue 24: read, not refused. The
/// expectations come from what the sample reports print (their `Duration:` lines, the frames listed, the
/// process and thread members), never from cdlog's own output.
@Suite("Hang reports and stackshots")
struct HangAndStackshotTests {
    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/crash/\(name)")))
    }

    static func classify(_ entry: Entry) -> Classification? {
        TestSupport.classifier.classify(text: entry.message, isCrashReport: true, scratch: TestSupport.classifier.makeScratch())
    }

    @Test func aHangReportWithCoreDataOnTheMainThread() throws {
        // The whole file as `cdlog classify` reads it: format detection, then the streaming legacy reader.
        let run = try TestSupport.classifyRun(Self.sample("hang-fetch-on-main.hang"), threads: 1).0
        let found = run.entries.compactMap(\.classification)
        #expect(found.map(\.rule.id) == ["watchdog.hang-report"])
        #expect(found.first?.severity == .warning && found.first?.category == .watchdog)
        let entry = try #require(run.entries.first?.entry)
        #expect(entry.field("diagnosticType") == "hang")
        #expect(entry.field("appName") == "Ledger" && entry.field("bundleID") == "com.example.ledger")
        #expect(entry.field("appVersion") == "3.2" && entry.field("build") == "412")
        // Report version 35: `Duration:` is the whole hang (`Duration Sampled:` its sampled part).
        #expect(entry.field("hangDuration") == "8.19")
        // The heaviest stack, deepest frame first, without its kernel frame (`*12  hndl_allintrs`).
        #expect(entry.field("mainThreadFrames")?.hasPrefix("libsqlite3.dylib  sqlite3BtreeNext + 180; libsqlite3.dylib  sqlite3VdbeExec") == true)
        #expect(entry.field("mainThreadFrames")?.contains("hndl_allintrs") == false)
        #expect(entry.field("blamedCause") == "fetch-on-main")
        #expect(entry.field("cannotTell")?.contains("a hang report is written while the app still runs") == true)
    }

    @Test func anOlderHeavyFormatSpindumpReadsTheMainThreadsTree() throws {
        // Report version 25: `Duration:` is the sampling window; the time unresponsive before it is added.
        let text = """
        Date/Time:       2017-08-05 16:27:37 -0400
        OS Version:      Mac OS X 10.12.6 (Build 16G29)
        Report Version:  25

        Data Source:     Stackshots

        Command:         Viewer
        Path:            /Applications/Viewer.app/Contents/MacOS/Viewer
        Version:         2.2.0 (20170725)
        PID:             5450

        Duration:        9.99s (process was unresponsive for 94 seconds before sampling)
        Steps:           1000 (10ms sampling interval)

        ------------------------------------------------------------
        Heavy format: stacks are sorted by count
        Use -i and -timeline to re-report with chronological sorting
        ------------------------------------------------------------

        Process:         Viewer [5450]
        Note:            Unresponsive for 94 seconds before sampling

          Thread 0x1ff004           Thread name "com.apple.NSEventThread"               1000 samples (1-1000)     priority 20 (base 20)
          1000  thread_start + 13 (libsystem_pthread.dylib + 12429) [0x7fff9b00508d]

          Thread 0x1fefb1           DispatchQueue 1           1000 samples (1-1000)     priority 46 (base 46)
          1000  start + 1 (libdyld.dylib + 4629) [0x7fff9adec235]
            1000  NSApplicationMain + 1237 (AppKit + 30693) [0x7fff82b727e5]
              990  -[NSManagedObjectContext save:] + 1101 (CoreData + 1154557) [0x7fff84c8adfd]
                990  -[NSPersistentStoreCoordinator executeRequest:withContext:error:] + 213 (CoreData + 1158150) [0x7fff84c8bc06]
                 *990  hndl_mach_scall64 + 22 (kernel + 1234) [0xffffff80002cf8d0]
              10  -[NSApplication run] + 926 (AppKit + 201730) [0x7fff82b9c402]

          Binary Images:
                   0x10ca75000 -        0x10e1fefff  com.example.viewer 2.2.0 (20170725) <63E939C5-504A-378A-B56F-D19B8F88C030>  /Applications/Viewer.app/Contents/MacOS/Viewer

        Process:         WindowServer [180]
          Thread 0x5a1    DispatchQueue "com.apple.main-thread"(1)    1000 samples (1-1000)    priority 79 (base 79)
          1000  start + 1 (libdyld.dylib + 4629) [0x7fff9adec235]
        """
        let reports = try CrashReportReader.reports(fromDocument: Array(text.utf8), source: "v.hang")
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report.diagnosticType == "hang")
        #expect(report.hangDuration == 103.99)
        #expect(report.appVersion == "2.2.0" && report.build == "20170725")
        // `DispatchQueue 1` is the main queue; its first child at every level, down to the kernel frame.
        let thread = try #require(report.threads.first)
        #expect(thread.isMain)
        #expect(thread.frames.map { $0.symbol ?? "" } == [
            "-[NSPersistentStoreCoordinator executeRequest:withContext:error:] + 213", "-[NSManagedObjectContext save:] + 1101",
            "NSApplicationMain + 1237", "start + 1",
        ])
        let entry = CrashSummary.entry(for: report, source: "v.hang")
        #expect(entry.field("blamedCause") == "save-on-main")
        #expect(Self.classify(entry)?.rule.id == "watchdog.hang-report")
    }

    @Test func otherSpindumpsAreNotHangReports() throws {
        // A resource report, a system watchdog's spin, a log that quotes an event line.
        #expect(!HangReportReader.isHangReport(["Command: App", "Event: cpu usage", "Data Source: Microstackshots"]))
        #expect(!HangReportReader.isHangReport(["Command: WindowServer", "Event: service process watchdog", "Data Source: Stackshots"]))
        #expect(!HangReportReader.isHangReport(["2024-01-01 10:00:00.000 App[1:2] Event: hang detected"]))
        #expect(HangReportReader.isHangReport(["Command:          App", "Event:            hang"]))
        #expect(CrashReportReader.looksLikeCrashReport(ArraySlice(Array("Date/Time: 2024\nCommand:          App\nEvent:            hang\n".utf8))))
    }

    @Test func aStackshotNamesTheFrontmostAppAndWhatItsMainThreadWaitedOn() throws {
        let entries = try CrashReportReader.entries(fromDocument: Self.sample("stackshot-frozen-app.ips"), source: "s.ips")
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry.field("diagnosticType") == "stackshot")
        #expect(entry.field("stackshotReason") == "stackshot via buttons")
        #expect(entry.field("stackshotCode") == "0xbaaaaaad")
        #expect(entry.field("appName") == "Ledger" && entry.field("device") == "iPhone15,2")
        // Thread 28811 is on no named queue but has the lowest id; it is blocked on 28902, a context's queue.
        #expect(entry.message.contains("Stackshot: main thread (id 28811): TH_WAIT, TH_UNINT"))
        #expect(entry.message.contains("main thread blocked on 28902, hops: 1, priority: 47 (thread 28902: queue NSManagedObjectContext 0x283ce7810, TH_RUN)"))
        // Unsymbolicated frames: the shared cache and the app's image by UUID, deepest first as printed.
        #expect(entry.field("mainThreadFrames") == "shared cache + 1124419032; shared cache + 402114560; image 0f4a6b2c + 155320; image 0f4a6b2c + 20312")
        let found = Self.classify(entry)
        #expect(found?.rule.id == "watchdog.stackshot" && found?.severity == .info)
    }

    @Test func stackshotsWithAnIntegerBugTypeHugeNumbersOrNoFrontmostApp() throws {
        // kcdata.py writes `"bug_type": 288` as a number; load addresses and wait events exceed 2^63.
        let text = #"{"bug_type": 288, "timestamp": "2026-01-01 10:00:00.00 +0000", "os_version": "iPhone OS 18.0 (22A3354)"}"#
            + "\n" + #"{"reason":"kernel panic stackshot","exception":"0xDEADF157","frontmostPids":[],"processByPid":{"0":{"pid":0,"procname":"kernel_task","threadById":{"7":{"id":7,"waitEvent":[1,13560469141645532267]}}}},"binaryImages":[["291aaed2-c0da-67f8-2467-48a64e41174c",18446743936270598144,"U"]]}"#
        let entry = try #require(try CrashReportReader.entries(fromDocument: Array(text.utf8), source: "k.ips").first)
        #expect(entry.field("diagnosticType") == "stackshot")
        #expect(entry.field("stackshotCode") == "0xDEADF157")
        #expect(entry.message.contains("no frontmost process"))
        // A stackshot whose body is cut still says what it is (the header's bug_type).
        let cut = #"{"bug_type":"288","os_version":"iPhone OS 16.1 (20B82)","incident_id":"X"}"# + "\n{\n  \"build\" : \"iPhone OS 16.1\",\n  \"processByPid\" : {\"0\" : {\"procname\" : \"ker"
        let partial = try #require(try CrashReportReader.entries(fromDocument: Array(cut.utf8), source: "c.ips").first)
        #expect(partial.field("diagnosticType") == "stackshot")
        #expect(Self.classify(partial)?.rule.id == "watchdog.stackshot")
    }
}
