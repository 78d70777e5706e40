import Testing
import Foundation
import CDLogCore
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports

/// Resource reports (microstackshot text: cpu usage, disk writes, wakeups; issue 24): read, not refused,
/// as an EXC_RESOURCE report whose one thread is the heaviest stack. Expectations come from what the
/// sample reports say (`Event:`, `Action taken:`, the figures and the frames printed).
@Suite("Resource and embedded reports")
struct ResourceReportTests {
    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/crash/\(name)")))
    }

    @Test func diskWritesReportWithIPSHeader() throws {
        let entries = try CrashReportReader.entries(fromDocument: Self.sample("disk-writes-resource.ips"), source: "d.ips")
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.field("exceptionType") == "EXC_RESOURCE")
        #expect(entry.field("exceptionSubtype") == "IO")
        #expect(entry.field("resourceEvent") == "disk writes")
        #expect(entry.field("writesCaused") == "1073.75 MB")
        #expect(entry.field("appVersion") == "2.4" && entry.field("build") == "118")
        #expect(entry.field("exceptionMessage")?.hasPrefix("1073.75 MB of file backed memory dirtied over 1419 seconds") == true)
        #expect(entry.field("exceptionMessage")?.hasSuffix("action taken: none") == true)
        // The heaviest stack, deepest frame first, and no main thread: a background queue's save.
        #expect(entry.field("crashedThread") == "heaviest stack")
        #expect(entry.field("crashedThreadFrames")?.hasPrefix("libsystem_kernel.dylib  pwrite + 8; libsqlite3.dylib  sqlite3_step") == true)
        #expect(entry.field("mainThreadFrames") == nil)
        #expect(entry.field("blamedCause") == "save")
        #expect(!entry.message.contains("Main thread:"))
        let result = TestSupport.classifier.classify(text: entry.message, isCrashReport: true, scratch: TestSupport.classifier.makeScratch())
        #expect(result?.rule.id == "crash.exc-resource.disk-writes")
        #expect(result?.severity == .warning)
    }

    @Test func cpuReportWithoutHeaderWhereTheProcessWasKilled() throws {
        // The whole file as `cdlog classify` reads it: format detection, then the streaming legacy reader.
        let run = try TestSupport.classifyRun(Self.sample("cpu-resource-killed.txt"), threads: 1).0
        let found = run.entries.compactMap(\.classification)
        #expect(found.count == 1)
        #expect(found.first?.rule.id == "crash.exc-resource.cpu-fatal")
        #expect(found.first?.severity == .fatal)
        let entry = try #require(run.entries.first?.entry)
        // The date and OS lines come before the incident identifier: still one report.
        #expect(entry.line == 1)
        #expect(entry.field("osVersion") == "iPhone OS 17.6.1 (Build 21G93)")
        #expect(entry.field("exceptionSubtype") == "CPU_FATAL")
        #expect(entry.field("blamedCause") == "fetch")
        #expect(entry.field("totalCPUSeconds") == "48")
    }

    @Test func aCPUReportNotKilledIsAWarningAndBugType206IsRead() throws {
        let header = #"{"app_name":"App","bug_type":"206","os_version":"iPhone OS 17.0 (21A329)","incident_id":"X","app_version":"1.0","build_version":"7","bundleID":"com.example.app","name":"App"}"#
        let body = """
        Date/Time:        2026-01-02 03:04:05.000 +0000
        Command:          App
        Event:            cpu usage
        Action taken:     none
        CPU:              90 seconds cpu time over 150 seconds (60% cpu
         average), exceeding limit of 50% cpu over 180 seconds

        Heaviest stack for the target process:
          18  ??? (libsystem_pthread.dylib + 14340) [0x1db258804]
          18  ??? (App + 18536)
          16  ??? (CoreData + 1234) [0x104f2e790]
        """
        let entries = try CrashReportReader.entries(fromDocument: Array((header + "\n" + body).utf8), source: "c.ips")
        let entry = try #require(entries.first)
        #expect(entry.field("exceptionSubtype") == "CPU")
        // A value the page wrapped is joined.
        #expect(entry.field("exceptionMessage")?.contains("(60% cpu average), exceeding limit of 50% cpu over 180 seconds") == true)
        #expect(entry.field("crashedThreadFrames") == "CoreData + 1234; App + 18536; libsystem_pthread.dylib + 14340")
        #expect(entry.field("blamedCause") == "coredata-unsymbolicated")
        let result = TestSupport.classifier.classify(text: entry.message, isCrashReport: true, scratch: TestSupport.classifier.makeScratch())
        #expect(result?.rule.id == "crash.exc-resource.cpu")
    }

    @Test func framesInEveryPrintedForm() throws {
        let plain = try #require(MicrostackshotReader.frame("18  ??? (libdispatch.dylib + 89464) [0x19146ad78]"))
        #expect(plain.image == "libdispatch.dylib" && plain.offset == 89464 && plain.symbol == nil)
        let noAddress = try #require(MicrostackshotReader.frame("11  ??? (dyld + 82408)"))
        #expect(noAddress.image == "dyld" && noAddress.offset == 82408)
        let symbol = try #require(MicrostackshotReader.frame("98   -[NSManagedObjectContext save:] + 1136 (CoreData + 349812) [0x1a5bcf674]"))
        #expect(symbol.image == "CoreData" && symbol.symbol == "-[NSManagedObjectContext save:] + 1136")
        #expect(MicrostackshotReader.frame("...") == nil)
        #expect(MicrostackshotReader.frame("Powerstats for:   Notes [2210]") == nil)
    }

    /// Issue 24: a report quoted inside other text (a test runner's output, indented) is found and read,
    /// and the text after it is not swallowed into it.
    @Test func aReportEmbeddedInATestRunnerDumpIsFound() throws {
        let report = String(decoding: try CrashFixtures.bytes("crash-swift-trap-ios16.crash"), as: UTF8.self)
        let indented = report.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }
            .joined(separator: "\n")
        let text = "Test Suite 'All tests' started at 2026-01-02 10:00:00.000\nThe crash report:\n" + indented
            + "\nTest Suite 'All tests' failed at 2026-01-02 10:00:05.000.\n"
        let run = try TestSupport.classifyRun(Array(text.utf8), threads: 1).0
        let crash = try #require(run.entries.first { $0.classification?.rule.id == "crash.swift-trap" })
        #expect(crash.entry.line == 3)
        #expect(crash.entry.field("appName") == "iOSCrashingTest")
        let last = try #require(run.entries.last)
        #expect(last.entry.message.hasPrefix("Test Suite 'All tests' failed"), "the runner's line after the report is its own entry")
        // Forced to read crash reports, the same text gives the report (the prose around it is skipped).
        let forced = try TestSupport.classifyRun(Array(text.utf8), threads: 1, format: .crashReport).0
        #expect(forced.entries.compactMap(\.classification).map(\.rule.id) == ["crash.swift-trap"])
    }

    /// Issue 24: reports as tickets carry them: cut before the crashed thread's section, under a JSON header
    /// a paste broke, as a fragment of an .ips body, or with an exception no rule knows.
    @Test func cutBrokenAndFragmentaryReportsAreStillRead() throws {
        let cut = "Process:               Tool [10463]\nCrashed Thread:        4  Dispatch queue: NSManagedObjectContext 0x6000\n\nException Type:        EXC_BREAKPOINT (SIGTRAP)\n\nThread 0::  Dispatch queue: com.apple.main-thread\n0   libsystem_kernel.dylib  0x7ff81007993a mach_msg_trap + 10\n"
        let cutEntry = try #require(CrashReportReader.entries(fromDocument: Array(cut.utf8), source: "cut.crash").first)
        #expect(cutEntry.field("faultingThread") == "4", "the thread the report names, though its section is cut")

        let broken = "{\"app_name\":\"SpringBoard\",\"timestamp\":\"2020-03-11\n15:43:50.24\n-0400\",\"bug_type\":\"109\"}\nIncident Identifier: B39134C2-1415-486F-9197-6C4CAD7FD3DD\nException Type:  EXC_BAD_ACCESS (SIGSEGV)\nTriggered by Thread:  0\n\nThread 0 Crashed:\n0   libobjc.A.dylib  0x1a4c3f0a0 objc_msgSend + 32\n"
        let brokenEntry = try #require(CrashReportReader.entries(fromDocument: Array(broken.utf8), source: "b.txt").first)
        #expect(brokenEntry.field("exceptionType") == "EXC_BAD_ACCESS" && brokenEntry.field("appName") == "SpringBoard")

        let fragment = "  \"crashReporterKey\" : \"BB9B\",\n  \"exception\" : {\"type\":\"EXC_CRASH\",\"signal\":\"SIGKILL\"},\n  \"termination\" : {\"code\":2343432205,\"namespace\":\"FRONTBOARD\",\"reasons\":[\"<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression\"]},\n  \"faultingThread\" : 0,\n"
        let run = try TestSupport.classifyRun(Array(fragment.utf8), threads: 1, format: .crashReport).0
        let fragmentEntry = try #require(run.entries.first)
        #expect(fragmentEntry.entry.field("terminationCode") == "0x8badf00d")
        #expect(fragmentEntry.classification?.category == .watchdog)

        // A report whose exception no rule knows is still a finding, never silent.
        let unknown = "{\"app_name\":\"App\",\"bug_type\":\"309\",\"incident_id\":\"X\"}\n{\"exception\":{\"type\":\"EXC_CRASH\",\"signal\":\"SIGSEGV\"},\"threads\":[{\"triggered\":true,\"frames\":[]}]}"
        let unknownEntry = try #require(CrashReportReader.entries(fromDocument: Array(unknown.utf8), source: "u.ips").first)
        let result = TestSupport.classifier.classify(text: unknownEntry.message, isCrashReport: true, scratch: TestSupport.classifier.makeScratch())
        #expect(result?.rule.id == "crash.report" && result?.severity == .fatal)
    }

    @Test func aJetsamProcessEntryPostedAloneIsAJetsamReportOfOne() throws {
        // One member of a JetsamEvent report's `processes`, as people quote it (with the list's comma).
        let text = """
          {
            "states" : [
              "frontmost"
            ],
            "lifetimeMax" : 795,
            "rpages" : 960,
            "reason" : "per-process-limit",
            "pid" : 4624,
            "name" : "Tunnel"
          },
        """
        let bytes = Array(text.utf8)
        #expect(CrashReportReader.looksLikeCrashReport(ArraySlice(bytes)))
        let run = try TestSupport.classifyRun(bytes, threads: 1).0
        let entry = try #require(run.entries.first?.entry)
        #expect(entry.field("terminationNamespace") == "JETSAM" && entry.field("appName") == "Tunnel")
        #expect(entry.field("terminationReason")?.hasPrefix("jetsam per-process-limit: Tunnel was ended") == true)
        #expect(entry.field("partial") == "true")
        #expect(run.entries.first?.classification?.rule.id == "crash.jetsam")
        // A unified-log event that happens to carry such members is not one.
        #expect(!CrashReportReader.looksLikeCrashReport(ArraySlice(Array(#"{"eventMessage":"x","rpages":1,"reason":"y"}"#.utf8))))
    }

    @Test func aTextThatOnlyMentionsAnEventIsNoResourceReport() throws {
        #expect(!MicrostackshotReader.isResourceReport(["Event: launch", "Command: x"].map { Substring($0) }))
        #expect(!MicrostackshotReader.isResourceReport(["Event: cpu usage"].map { Substring($0) }))
        #expect(MicrostackshotReader.isResourceReport(["Event: wakeups", "Action taken: none"].map { Substring($0) }))
    }

    /// Round 53: a report the system wrote while the process went on (`Exception Note: SIMULATED (this is
    /// NOT a crash)`, an `.ips` body's `isNonFatal`) keeps its finding, lowered from fatal to error.
    @Test func aReportThatSaysItIsNotACrashIsNotFatal() throws {
        let legacy = """
        Exception Type:        EXC_GUARD
        Exception Codes:       0x800000040000d364, 0x08fd4dbfade2dead
        Exception Subtype:     GUARD_TYPE_VN, id=0x08fd4dbfade2dead, pid=54116, flavor=0x00000004 (VNG_UNLINK)
        Exception Note:        SIMULATED (this is NOT a crash)
        Termination Reason:    Namespace <0x17>, Code 0x1

        Thread 0 Crashed:
        0   libsystem_kernel.dylib              0x00007fff6c5a7ee2 __unlink + 10
        """
        let entry = try #require(try CrashReportReader.entries(fromDocument: Array(legacy.utf8), source: "g.crash").first)
        #expect(entry.field("exceptionNote") == "SIMULATED (this is NOT a crash)")
        #expect(entry.message.contains("Exception note: SIMULATED (this is NOT a crash)"))
        let scratch = TestSupport.classifier.makeScratch()
        let lowered = try #require(TestSupport.classifier.classify(text: entry.message, isCrashReport: true, scratch: scratch))
        #expect(lowered.rule.id == "crash.exc-guard")
        #expect(lowered.severity == .error)
        #expect(lowered.fields.contains { $0.name == "caught" && $0.value == "the report says it is not a crash" })
        // Without the note the same report is fatal.
        let fatal = legacy.replacingOccurrences(of: "Exception Note:        SIMULATED (this is NOT a crash)\n", with: "")
        let killed = try #require(try CrashReportReader.entries(fromDocument: Array(fatal.utf8), source: "g.crash").first)
        #expect(killed.field("exceptionNote") == nil)
        #expect(TestSupport.classifier.classify(text: killed.message, isCrashReport: true, scratch: scratch)?.severity == .fatal)

        let header = #"{"app_name":"App","bug_type":"309","name":"App"}"#
        let body = #"{"isNonFatal":true,"exception":{"type":"EXC_GUARD","subtype":"GUARD_TYPE_FD"},"threads":[]}"#
        let ips = try #require(try CrashReportReader.entries(fromDocument: Array((header + "\n" + body).utf8), source: "g.ips").first)
        #expect(ips.field("exceptionNote") == "NON-FATAL CONDITION (this is NOT a crash)")
        #expect(TestSupport.classifier.classify(text: ips.message, isCrashReport: true, scratch: scratch)?.severity == .error)
    }
}
