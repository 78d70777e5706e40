import Testing
import Foundation
import CDLogCore
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports

/// Bad input: a one-line error or a partial result, never a trap or a stack overflow.
@Suite("Crash robustness")
struct CrashRobustnessTests {
    func read(_ text: String) throws -> [Entry] {
        try CrashReportReader.entries(fromDocument: Array(text.utf8), source: "t.ips")
    }

    func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try CrashReportReader.entries(fromDocument: bytes, source: "t.ips")
            return nil
        } catch let error as ToolFailure {
            return error.message
        } catch {
            return "unexpected error type: \(error)"
        }
    }

    static let header = #"{"app_name":"App","bug_type":"309","os_version":"iPhone OS 17.0 (21A329)","incident_id":"X","timestamp":"2024-01-02 03:04:05.00 +0000","app_version":"1.0","build_version":"7","bundleID":"com.example.app"}"#

    @Test func truncatedBodyGivesAPartialEntry() throws {
        let full = try CrashFixtures.bytes("ips-watchdog-migration-wal-checkpoint-constructed.ips")
        for cut in [full.count / 3, full.count / 2, full.count - 40] {
            let entries = try CrashReportReader.entries(fromDocument: Array(full.prefix(cut)), source: "cut.ips")
            #expect(entries.count == 1)
            #expect(entries[0].field("partial") == "true")
            #expect(entries[0].field("appName") == "NotingPro")
            #expect(entries[0].message.contains("Partial report: missing"))
        }
        // Cut after the termination object: the watchdog facts survive.
        let text = String(decoding: full, as: UTF8.self)
        let threads = try #require(text.range(of: "\"faultingThread\""))
        let entries = try read(String(text[..<threads.lowerBound]))
        #expect(entries[0].field("terminationCode") == "0x8badf00d")
        #expect(entries[0].field("watchdogEvent") == "scene-create")
    }

    @Test func headerWithoutBody() throws {
        let entries = try read(Self.header + "\n")
        #expect(entries.count == 1)
        #expect(entries[0].field("partial") == "true")
        #expect(entries[0].field("appVersion") == "1.0")
        #expect(entries[0].field("cannotTell")?.contains("missing") == true)
    }

    @Test func wrongFieldTypesAreSkipped() throws {
        let body = #"{"exception":{"type":42,"signal":["SIGKILL"]},"termination":{"code":"0x8BADF00D","namespace":7,"reasons":"not an array"},"threads":"none","faultingThread":"zero","usedImages":{"a":1},"osVersion":5}"#
        let entries = try read(Self.header + "\n" + body)
        #expect(entries.count == 1)
        #expect(entries[0].field("terminationCode") == "0x8badf00d")
        #expect(entries[0].field("exceptionType") == nil)
        #expect(entries[0].field("partial") == "true")  // no thread backtraces
    }

    @Test func frameWithOutOfRangeImageIndex() throws {
        let body = #"{"exception":{"type":"EXC_CRASH","signal":"SIGKILL"},"threads":[{"queue":"com.apple.main-thread","frames":[{"imageIndex":99,"imageOffset":1},{"imageIndex":-1,"symbol":"x"},7,null]}],"usedImages":[]}"#
        let entries = try read(Self.header + "\n" + body)
        #expect(entries[0].field("mainThreadFrames") == "??? + 1; ???  x")
    }

    /// A legacy crash (`bug_type` 109) a page cut inside its header fields, before `Exception Type:` (round 70's
    /// ST-024, github.com/home-assistant/iOS): a partial crash report, not a refusal.
    @Test func legacyCrashCutBeforeItsExceptionIsPartial() throws {
        let header = #"{"app_name":"Notes","timestamp":"2019-03-12 11:08:14.87 +0100","app_version":"1.5.1","bug_type":"109","os_version":"iPhone OS 12.1.4 (16D57)","incident_id":"78514C6F-C95D-463A-AC38-D819AB356643","name":"Notes"}"#
        let body = "Incident Identifier: 78514C6F-C95D-463A-AC38-D819AB356643\nHardware Model:      iPhone11,2\nProcess:             Notes [364]\nRole:                Non UI\nParent Process:"
        let entries = try read(header + "\n" + body)
        #expect(entries.count == 1)
        #expect(entries[0].field("partial") == "true")
        #expect(entries[0].field("appName") == "Notes")
        // Another kind's header over the same text is still refused.
        let other = header.replacingOccurrences(of: #""bug_type":"109""#, with: #""bug_type":"185""#)
        #expect(failure(Array((other + "\n" + body).utf8))?.contains("is not a crash report") == true)
        // And so is other text under a crash's header.
        #expect(failure(Array((header + "\nhello\nworld").utf8))?.contains("is not a crash report") == true)
    }

    /// A crash's `.ips` header over the body's members a poster kept between elisions (round 96's XS-010,
    /// github.com/bitwarden/mobile #2294: `…` / `"exception" : {…},` / `…`): a partial report with its exception.
    @Test func anIPSBodyElidedAroundItsExceptionIsPartial() throws {
        let header = #"{"app_name":"Vault","app_version":"1.0","bug_type":"309","os_version":"iPhone OS 16.2 (20C65)","name":"Vault","incident_id":"CE81DE26-3C0C-4062-95CD-7B2FFA092CB4"}"#
        let body = "…\n  \"exception\" : {\"codes\":\"0x1, 0x0\",\"type\":\"EXC_BAD_ACCESS\",\"signal\":\"SIGSEGV\",\"subtype\":\"KERN_INVALID_ADDRESS at 0x0\"},\n…"
        let entries = try read(header + "\n" + body)
        #expect(entries.count == 1)
        #expect(entries[0].field("exceptionType") == "EXC_BAD_ACCESS")
        #expect(entries[0].field("partial") == "true")
        // A key with no value after it, or elisions alone, is still refused.
        #expect(failure(Array((header + "\n…\n\"exception\" is gone\n…").utf8))?.contains("is not a crash report") == true)
    }

    /// iOS 7's watchdog report names its code in the singular (`Exception Code: 0x8badf00d`, round 98's XX-015,
    /// gist.github.com/d108/7841283): the same code as `Exception Codes:`, so a watchdog kill.
    @Test func aSingularExceptionCodeIsTheReportsCode() throws {
        let text = """
        Incident Identifier: 6FF3D615-9306-414C-86A3-8C8BD27B6C87
        Hardware Model: iPhone5,1
        OS Version: iPhone OS 7.0.4 (11B554a)
        Exception Code: 0x8badf00d
        Reason: MobileCal[7899] has active assertions beyond permitted time:
        """
        let entries = try read(text)
        #expect(entries.count == 1)
        #expect(entries[0].field("terminationCode") == "0x8badf00d")
        #expect(TestSupport.classify(entries[0].message)?.category == .watchdog)
    }

    @Test func unknownBugTypeIsAClearError() throws {
        let header = #"{"bug_type":"211","name":"analytics"}"#
        let message = try #require(failure(Array((header + "\n{\"events\":[]}").utf8)))
        #expect(message.contains("bug_type 211 (analytics) is not a crash report"))
        #expect(!message.contains("\n"))
    }

    /// Issue 24: PLCrashReporter / Crashlytics-era text names the signal alone; it maps to the Mach exception
    /// Apple's reports print (SIGSEGV → EXC_BAD_ACCESS), so the same rules apply.
    @Test(arguments: [("SIGSEGV", "SEGV_ACCERR at 0x10", "EXC_BAD_ACCESS", "crash.bad-access"),
                      ("SIGBUS", "BUS_ADRALN at 0x3", "EXC_BAD_ACCESS", "crash.bad-access"),
                      ("SIGABRT", "#0 at 0x1a2b3c", "EXC_CRASH", "crash.uncaught-exception")])
    func signalOnlyExceptionTypes(_ signal: String, _ codes: String, _ type: String, _ rule: String) throws {
        let text = """
        Incident Identifier: 1B2C3D4E-0000-0000-0000-000000000001
        Hardware Model:      iPhone10,4
        Process:         MyApp [123]
        Version:         1.0 (1)
        OS Version:      iOS 13.3 (17C54)

        Exception Type:  \(signal)
        Exception Codes: \(codes)
        Crashed Thread:  2

        Thread 2 Crashed:
        0   CoreData  0x0000000191a2b3c4 _PFObjectIDFastHash64 + 36
        """
        let entry = try #require(try read(text).first)
        #expect(entry.field("exceptionType") == type)
        #expect(entry.field("signal") == signal)
        let run = try TestSupport.classifyRun(Array(text.utf8), threads: 1)
        #expect(run.0.entries.first?.classification?.rule.id == rule, "\(entry.message)")
    }

    /// Issue 24: watchdog vocabulary stays on kills that are about time: the store-size note is given for a
    /// watchdog kill whose main thread was in store work, not for an uncaught Core Data exception.
    @Test func storeSizeNoteOnlyWhereTimeIsTheCause() throws {
        func cannotTell(_ fixture: String) throws -> String {
            let text = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("Tests/CDLogKitTests/Fixtures/crash/\(fixture)"), encoding: .utf8)
            return try read(text).first?.field("cannotTell") ?? ""
        }
        #expect(try cannotTell("ips-watchdog-migration-wal-checkpoint-constructed.ips").contains("how large the store and its WAL were"))
        #expect(try !cannotTell("crash-coredata-exception-ios13-excerpt.crash").contains("how large the store"))
    }

    /// Issue 24: a jetsam event report (bug_type 298) is read, not refused: the killed process, why and
    /// how much memory it held, from the report's own figures.
    @Test func jetsamEventReportsAreRead() throws {
        let empty = try read(#"{"bug_type":"298","name":"JetsamEvent"}"# + "\n" + #"{"largestProcess":"App","processes":[]}"#)
        #expect(empty[0].field("terminationNamespace") == "JETSAM")
        #expect(empty[0].field("terminationReason")?.contains("no process in the report has a kill reason") == true)
        let sample = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/crash/jetsam-per-process-limit.ips"), encoding: .utf8)
        let entries = try read(sample)
        #expect(entries.count == 1)
        let reason = try #require(entries[0].field("terminationReason"))
        // 92 802 resident pages of 16 384 bytes, as the report states them.
        #expect(reason.hasPrefix("jetsam per-process-limit: NotingPro was ended because it used more memory than the system allows one process"))
        #expect(reason.contains("1.42 GiB (92802 pages of 16.0 KiB)"))
        #expect(entries[0].field("appName") == "NotingPro")
        #expect(entries[0].field("device") == "iPhone14,5")
        #expect(entries[0].field("blamedCause") == nil, "no threads, nothing to blame")
        #expect(TestSupport.classify(entries[0].message)?.rule.id == "crash.jetsam")
    }

    @Test func binaryJunk() throws {
        var bytes: [UInt8] = Array("Incident Identifier: X\n".utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4096 { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
        bytes[100] = 0
        #expect(failure(bytes)?.contains("binary data") == true)
        // Invalid UTF-8 without NUL bytes still reads as text with replacement characters.
        let invalid: [UInt8] = Array("Exception Type:  EXC_CRASH (SIGKILL)\nThread 0 Crashed:\n0   App \u{0009}0x0000000100000000 main + 4\n".utf8) + [0xFF, 0xFE, 0x80]
        let entries = try CrashReportReader.entries(fromDocument: invalid, source: "bad.crash")
        #expect(entries.first?.field("signal") == "SIGKILL")
    }

    @Test func deeplyNestedJSONIsRefusedWithoutRecursion() throws {
        let depth = 100_000
        let nested = Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
        let message = try #require(failure(nested))
        #expect(message.contains("nested deeper than 512 levels"))
        let objects = Array(String(repeating: "{\"a\":", count: depth).utf8)
        let entries = try CrashReportReader.entries(fromDocument: Array((Self.header + "\n").utf8) + objects, source: "deep.ips")
        #expect(entries.first?.field("partial") == "true")
        let metricKit = Array("{\"crashDiagnostics\":".utf8) + nested
        #expect(failure(metricKit)?.contains("nested deeper") == true)
    }

    @Test func emptyAndNonCrashInput() {
        #expect(failure([]) != nil)
        #expect(failure(Array("   \n\n".utf8)) != nil)
        #expect(failure(Array("just a log line\nanother".utf8))?.contains("no crash report found") == true)
        #expect(failure(Array("{\"hello\":1}".utf8))?.contains("neither an .ips crash report nor a MetricKit") == true)
        #expect(failure(Array("{\"crashDiagnostics\":[{\"diagnosticMetaData\":{".utf8)) == nil)  // partial
    }

    /// A crash log cut after its header (a translated report pasted up to `Sleep/Wake UUID:`) is a partial
    /// report, not "no crash report": the log exists because the process ended. A line naming a process
    /// with no other header field is not a report.
    @Test func headerOnlyCrashLogIsPartial() throws {
        let header = """
            -------------------------------------
            Translated Report (Full Report Below)
            -------------------------------------

            Process:               Example [89440]
            Identifier:            com.example.app
            Version:               3.1 (3.1)
            Date/Time:             2023-05-10 10:16:29.7820 +1000
            OS Version:            macOS 13.3.1 (22E772610a)
            Report Version:        12

            Sleep/Wa
            """
        let entries = try CrashReportReader.entries(fromDocument: Array(header.utf8), source: "cut.crash")
        #expect(entries.count == 1)
        #expect(entries.first?.field("partial") == "true")
        #expect(entries.first?.message.contains("cut off after the header") == true)
        #expect(failure(Array("Process:  Foo [12]\nhello\n".utf8))?.contains("no crash report found") == true)
    }

    @Test func truncatedMetricKitPayloadIsPartial() throws {
        let full = try CrashFixtures.bytes("metrickit-two-crashes-ios14.json")
        let entries = try CrashReportReader.entries(fromDocument: Array(full.prefix(full.count * 3 / 4)), source: "mk.json")
        #expect(entries.count == 2)
        #expect(entries[0].field("partial") == nil)
        #expect(entries[1].field("partial") == "true")
    }

    /// A long thread list is read whole (speed is measured by the benchmark, not here).
    @Test func longThreadListIsRead() throws {
        var text = "Incident Identifier: 1\nProcess:             Big [1]\nException Type:  EXC_CRASH (SIGKILL)\nTermination Reason: Namespace SPRINGBOARD, Code 0x8badf00d\nTriggered by Thread:  0\n\n"
        for thread in 0..<300 {
            text += "Thread \(thread)\(thread == 0 ? " name:  Dispatch queue: com.apple.main-thread\nThread 0 Crashed:" : ":")\n"
            for frame in 0..<50 {
                text += "\(frame)   libsqlite3.dylib              \t0x00000001a0000000 sqlite3_step + \(frame)\n"
            }
            text += "\n"
        }
        let entries = try CrashReportReader.entries(fromDocument: Array(text.utf8), source: "big.crash")
        #expect(entries.count == 1)
        #expect(entries[0].field("blamedCause") == "sqlite-io")
    }

    @Test func documentLimit() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: EntryLimits.maxDocumentBytes + 1)
        #expect(failure(big)?.contains("larger than") == true)
    }
}
