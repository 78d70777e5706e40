import Testing
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports

/// docs/domain.md, "The launch-watchdog story": a launch watchdog kill while Core Data checkpoints a multi-GB WAL before a migration,
/// on the main thread.
@Suite("Crash seed story")
struct CrashSeedStoryTests {
    let entry: Entry

    init() throws {
        let entries = try CrashFixtures.entries("ips-watchdog-migration-wal-checkpoint-constructed.ips")
        try #require(entries.count == 1)
        entry = entries[0]
    }

    @Test func fieldsOfTheContract() {
        #expect(entry.field("terminationCode") == "0x8badf00d")
        #expect(entry.field("terminationNamespace") == "FRONTBOARD")
        #expect(entry.field("exceptionType") == "EXC_CRASH")
        #expect(entry.field("signal") == "SIGKILL")
        #expect(entry.field("watchdogEvent") == "scene-create")
        #expect(entry.field("wallClockAllowance") == "19.97")
        #expect(entry.field("appCPUSeconds") == "0.13")
        #expect(entry.field("appCPUPercent") == "0")
        #expect(entry.field("totalCPUPercent") == "18")
        #expect(entry.field("appName") == "NotingPro")
        #expect(entry.field("appVersion") == "3.2")
        #expect(entry.field("build") == "512")
        #expect(entry.field("device") == "iPad13,4")
        #expect(entry.field("bundleID") == "com.example.notingpro")
        #expect(entry.field("incidentID") == "6E1B7C0A-2F4D-4E3B-9A57-0C5D8E2F1A90")
        #expect(entry.field("faultingThread") == "0")
        #expect(entry.timestamp == "2024-07-02T08:14:03.00+08:00")
        #expect(entry.process == "NotingPro")
    }

    @Test func blameNamesTheMigrationCheckpoint() throws {
        #expect(entry.field("blamedCause") == "migration-wal-checkpoint")
        #expect(entry.field("cpuInterpretation") == "waiting")
        let frames = try #require(entry.field("blamedFrames")).components(separatedBy: "; ")
        #expect(frames.first == "CoreData  -[NSSQLiteConnection _walCheckpointWithMode:]")
        #expect(frames.contains("libsqlite3.dylib  walCheckpoint"))
        #expect(frames.contains { $0.contains("NSMigrationManager migrateStoreFromURL") })
        #expect(frames.contains("CoreData  -[_NSSQLiteStoreMigrator performMigration:]"))
        let main = try #require(entry.field("mainThreadFrames")).components(separatedBy: "; ")
        #expect(main.count == 12)
        #expect(main.first == "libsystem_kernel.dylib  pwrite")
        #expect(entry.field("cannotTell")?.contains("walcheck") == true)
    }

    @Test func summaryLines() {
        let lines = entry.message.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "Crash report (ips) for NotingPro 3.2 (512), iPhone OS 17.5.1 (21F90), iPad13,4")
        #expect(lines.contains("Exception: EXC_CRASH (SIGKILL)"))
        #expect(lines.contains("Termination: FRONTBOARD 0x8badf00d (watchdog)"))
        #expect(lines.contains("Watchdog event: scene-create"))
        #expect(lines.contains("CPU: app 0.13 s (0%) of 19.97 s wall clock (waiting)"))
        #expect(lines.contains("Blamed cause: migration-wal-checkpoint"))
        #expect(lines.contains { $0.hasPrefix("Termination reason: scene-create watchdog transgression:") && $0.hasSuffix("19.97 seconds") })
        // Continuation lines are indented so the summary stays one entry in line formats.
        #expect(entry.message.components(separatedBy: "\n").dropFirst().allSatisfy { $0.hasPrefix("  ") })
    }
}
