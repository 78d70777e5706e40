import Testing
import Foundation
import CDLogCore
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports

@Suite("Crash parsing")
struct CrashParsingTests {
    func entry(_ text: String) throws -> Entry {
        let entries = try CrashReportReader.entries(fromDocument: Array(text.utf8), source: "t.crash")
        return try #require(entries.first)
    }

    @Test func detection() {
        func looks(_ text: String) -> Bool { CrashReportReader.looksLikeCrashReport(Array(text.utf8)[...]) }
        #expect(looks(#"{"bug_type":"309","name":"App"}"# + "\n{}"))
        #expect(looks("\u{FEFF}Incident Identifier: 1\nCrashReporter Key: x\n"))
        #expect(looks("Process:  App [12]\nException Type:  EXC_CRASH (SIGABRT)\n"))
        // The exception section pasted alone (round 30): its codes and termination lines appear in no log.
        #expect(looks("Exception Type:        EXC_ARITHMETIC (SIGFPE)\nException Codes:       EXC_I386_DIV (divide by zero)\n"))
        #expect(looks("Exception Type:  EXC_CRASH (SIGKILL)\nTermination Reason: FRONTBOARD 2343432205\n"))
        #expect(!looks("Exception Codes: are printed by the report\nTermination Reason: see above\n"))
        #expect(looks("{\n  \"crashDiagnostics\" : []\n}"))
        #expect(looks("[{\"diagnosticMetaData\":{},\"callStackTree\":{}}]"))
        #expect(!looks("2021-08-10 15:27:55.123456+0800 App[1234:567890] CoreData: error: Exception Type: x"))
        #expect(!looks(#"{"timestamp":"2024","eventMessage":"Exception Type: EXC_CRASH"}"#))
        #expect(!looks("CoreData: debug: CoreData+CloudKit: -[PFCloudKitSetupAssistant _setupIfNecessary]"))
        #expect(!looks(""))
        // A report's header alone, cut before its exception (round 102's YE-016 and YE-026): a partial report.
        let header = """
            Process:               OpenEmu [95733]
            Path:                  /Applications/OpenEmu.app/Contents/MacOS/OpenEmu
            Identifier:            org.openemu.OpenEmu
            Version:               2.0.6.1 (2.0.6.1)
            Code Type:             X86-64 (Native)
            Date/Time:             2018-07-02 10:21:08.055 -0400
            """
        #expect(looks(header))
        let report = try? entry(header)
        #expect(report?.field("partial") != nil || report?.message.contains("Partial report") == true)
        // `sample`'s output and a hang report open with the same fields, and say so; four fields are not enough.
        #expect(!looks("Analysis of sampling OpenEmu (pid 95733) every 1 millisecond\n" + header))
        #expect(!looks(header + "\nDuration:              5.01s\nSteps:                 501"))
        #expect(!looks(header.split(separator: "\n").prefix(4).joined(separator: "\n")))
    }

    @Test func pastedReportStart() {
        #expect(CrashReportReader.isPastedReportStart("Incident Identifier: 2936A3DF-84C3-4AF0-AB28-C84C1C002876"))
        #expect(CrashReportReader.isPastedReportStart("  Incident Identifier:  X"))
        #expect(CrashReportReader.isPastedReportStart("Translated Report (Full Report Below)"))
        // The `Process:` line a macOS report opens with (the splitter asks only outside a report, so the same line
        // inside an iOS report, after its incident identifier, cuts nothing).
        #expect(CrashReportReader.isPastedReportStart("Process:             App [455]"))
        #expect(CrashReportReader.isPastedReportStart("Process:               CalendarAgent [285]"))
        #expect(!CrashReportReader.isPastedReportStart("Process: App"))
        #expect(!CrashReportReader.isPastedReportStart("Process: syncing [done]"))
        #expect(!CrashReportReader.isPastedReportStart("Process:[455]"))
        #expect(!CrashReportReader.isPastedReportStart("CoreData: error: Incident"))
    }

    @Test func decimalTerminationCodeBecomesHex() throws {
        let text = """
        Incident Identifier: 1
        Exception Type:  EXC_CRASH (SIGKILL)
        Termination Reason: FRONTBOARD 2343432205
        <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:process-launch watchdog transgression: app<x>:1 exhausted real (wall clock) time allowance of 20.00 seconds
        ProcessVisibility: Foreground
        WatchdogEvent: process-launch
        ) reportType:CrashLog maxTerminationResistance:Interactive>

        Triggered by Thread:  0
        """
        let e = try entry(text)
        #expect(e.field("terminationCode") == "0x8badf00d")
        #expect(e.field("terminationNamespace") == "FRONTBOARD")
        #expect(e.field("watchdogEvent") == "process-launch")
        #expect(e.field("wallClockAllowance") == "20")
        #expect(e.field("cpuInterpretation") == "unknown")
        #expect(e.field("cannotTell")?.contains("no CPU statistics") == true)
    }

    @Test func terminationDescriptionWithEmbeddedContext() throws {
        let text = """
        Incident Identifier: 1
        Exception Type:  EXC_CRASH (SIGKILL)
        Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d
        Termination Description: SPRINGBOARD, <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression: application<com.tencent.xin>:77952 exhausted CPU time allowance of 2.32 seconds | ProcessVisibility: Background | ProcessState: Running | WatchdogEvent: scene-create | WatchdogVisibility: Background | WatchdogCPUStatistics: ( | "Elapsed total CPU time (seconds): 3.100 (user 3.100, system 0.000), 31% CPU", | "Elapsed application CPU time (seconds): 2.400, 80% CPU" | ) reportType:CrashLog maxTerminationResistance:Interactive>
        Triggered by Thread:  0
        """
        let e = try entry(text)
        #expect(e.field("watchdogEvent") == "scene-create")
        #expect(e.field("cpuAllowance") == "2.32")
        #expect(e.field("appCPUSeconds") == "2.4")
        #expect(e.field("appCPUPercent") == "80")
        #expect(e.field("totalCPUPercent") == "31")
        #expect(e.field("cpuInterpretation") == "busy")
        #expect(e.field("terminationReason")?.hasPrefix("scene-create watchdog transgression: application<com.tencent.xin>") == true)
    }

    @Test func watchOSAndOldFormats() throws {
        let watch = try entry("Exception Type:  EXC_CRASH (SIGKILL)\nTermination Reason: CAROUSEL, WatchConnectivity watchdog transgression. Exhausted wall time allowance of 15.00 seconds.\nThread 0 Crashed:\n")
        #expect(watch.field("terminationNamespace") == "CAROUSEL")
        #expect(watch.field("wallClockAllowance") == "15")
        let signal = try entry("Exception Type:        EXC_BAD_ACCESS (SIGSEGV)\nTermination Reason:    Namespace SIGNAL, Code 11 Segmentation fault: 11\n")
        #expect(signal.field("terminationCode") == "0xb")
        #expect(signal.field("signal") == "SIGSEGV")
    }

    @Test func legacyFramesAndThreads() {
        let symbolicated = LegacyCrashReader.parseFrame("2   CoreData                      \t0x1a86a1ce0 -[NSPersistentStoreCoordinator _introspectLastErrorAndThrow] + 212 (NSPersistentStoreCoordinator.m:0)")
        #expect(symbolicated?.display == "CoreData  -[NSPersistentStoreCoordinator _introspectLastErrorAndThrow]")
        let raw = LegacyCrashReader.parseFrame("13  blaboo                        \t0x0000000100969608 0x10093c000 + 185864")
        #expect(raw?.display == "blaboo + 185864")
        let unknown = LegacyCrashReader.parseFrame("0   ???                           \t000000000000000000 0 + 0")
        #expect(unknown?.display == "??? + 0")
        let spaced = LegacyCrashReader.parseFrame("5   Google Chrome Framework       \t0x0000000110a0b0c0 ChromeMain + 12")
        #expect(spaced?.image == "Google Chrome Framework")
        let swift = LegacyCrashReader.parseFrame("0   libswiftCore.dylib            \t       0x18a98520c _assertionFailure(_:_:file:line:flags:) + 312")
        #expect(swift?.symbol == "_assertionFailure(_:_:file:line:flags:)")
        #expect(LegacyCrashReader.parseFrame("Thread 0 Crashed:") == nil)
    }

    @Test func macOSThreadHeadersAndExceptionText() throws {
        let text = """
        Process:               Tool [10463]
        Identifier:            com.example.tool
        Version:               1.0.185 (185)
        OS Version:            macOS 12.7.6 (21H1320)
        Crashed Thread:        1  Dispatch queue: com.apple.root.user-initiated-qos

        Exception Type:        EXC_CRASH (SIGABRT)

        Application Specific Information:
        *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'This NSPersistentStoreCoordinator has no persistent stores (unknown). It cannot perform a save operation.'

        Thread 0::  Dispatch queue: com.apple.main-thread
        0   libsystem_kernel.dylib        \t    0x7ff81007993a mach_msg_trap + 10

        Thread 1 Crashed::  Dispatch queue: com.apple.root.user-initiated-qos
        0   CoreData                      \t    0x7ff8101992ef -[NSManagedObjectContext save:] + 96
        1   Tool                          \t       0x10c1506a3 Store.save() + 19
        """
        let e = try entry(text)
        #expect(e.field("appVersion") == "1.0.185")
        #expect(e.field("build") == "185")
        #expect(e.field("faultingThread") == "1")
        #expect(e.field("exceptionName") == "NSInternalInconsistencyException")
        #expect(e.field("exceptionReason")?.hasPrefix("This NSPersistentStoreCoordinator has no persistent stores") == true)
        // The save ran on a background queue (thread 1): no "on main" claim (issue 24).
        #expect(e.field("blamedCause") == "save")
        #expect(e.message.contains("Crashed thread 1: CoreData  -[NSManagedObjectContext save:]"))
        #expect(e.field("mainThreadFrames") == "libsystem_kernel.dylib  mach_msg_trap")
    }

    @Test func severalLegacyReportsInOneFile() throws {
        let one = "Incident Identifier: A\nException Type:  EXC_CRASH (SIGKILL)\nTermination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc\n\n"
        let two = "Incident Identifier: B\nException Type:  EXC_BAD_ACCESS (SIGSEGV)\n"
        let entries = try CrashReportReader.entries(fromDocument: Array((one + two).utf8), source: "two.crash")
        #expect(entries.map { $0.field("incidentID") } == ["A", "B"])
        #expect(entries.map(\.line) == [1, 5])
        #expect(entries[0].endLine == 4)
    }

    @Test func iso8601() {
        #expect(CrashSummary.iso8601("2022-09-18 15:28:37.00 +0900") == "2022-09-18T15:28:37.00+09:00")
        #expect(CrashSummary.iso8601("2020-10-11 03:59:00 +0000") == "2020-10-11T03:59:00+00:00")
        #expect(CrashSummary.iso8601("yesterday") == nil)
    }

    /// Issue 22: an array kept in two references was copied on every append, so a 22 MB `.ips` with 200 k
    /// frames took minutes. 300 000 elements in nested arrays: linear parsing takes well under a second (debug
    /// build), quadratic copying about 4.5 × 10¹⁰ element copies, minutes; the bound is generous.
    @Test func longArraysParseInLinearTime() throws {
        let count = 300_000
        var text = "{\"frames\":["
        text += Array(repeating: "{\"imageOffset\":1}", count: count).joined(separator: ",")
        text += "],\"flat\":[" + Array(repeating: "7", count: count).joined(separator: ",") + "]}"
        let clock = ContinuousClock()
        let start = clock.now
        let value = try CrashJSONParser.parse(Array(text.utf8)).value
        let elapsed = clock.now - start
        #expect(value["frames"]?.array?.count == count)
        #expect(value["flat"]?.array?.count == count)
        #expect(elapsed < .seconds(20), "parsing \(count) elements took \(elapsed)")
        // Lenient parsing of the same arrays cut short closes them the same way.
        let cut = try CrashJSONParser.parse(Array(text.utf8.prefix(text.utf8.count / 2)), lenient: true)
        #expect(cut.truncated)
        #expect((cut.value["frames"]?.array?.count ?? 0) > 1000)
    }

    @Test func jsonParser() throws {
        let text = #"{"a":[1,-2.5e3,true,false,null,"x\"y\u00e9\ud83d\ude00"],"b":{"c":18446744073709551615}}"#
        let value = try CrashJSONParser.parse(Array(text.utf8)).value
        #expect(value["a"]?.array?.count == 6)
        #expect(value["a"]?.array?[5].string == "x\"yé😀")
        #expect(value["b"]?["c"]?.integer == UInt64.max)
        #expect(throws: CrashJSONError.self) { try CrashJSONParser.parse(Array("{\"a\" 1}".utf8)) }
        #expect(throws: CrashJSONError.self) { try CrashJSONParser.parse(Array("[1,]".utf8)) }
        let truncated = try CrashJSONParser.parse(Array("{\"a\":[1,2,{\"b\":\"unterminated".utf8), lenient: true)
        #expect(truncated.truncated)
        #expect(truncated.value["a"]?.array?.count == 3)
    }
}
