import Testing
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports

@Suite("Crash blame")
struct CrashBlameTests {
    func report(main: [String], others: [[String]] = [], code: UInt64? = 0x8badf00d) -> CrashReport {
        var report = CrashReport(format: .ips)
        func frames(_ symbols: [String]) -> [CrashFrame] {
            symbols.map { line in
                let parts = line.components(separatedBy: "  ")
                return CrashFrame(image: parts[0], symbol: parts.count > 1 ? parts[1] : nil, offset: parts.count > 1 ? nil : 42)
            }
        }
        var mainThread = CrashThread(number: 0, frames: frames(main))
        mainThread.queue = "com.apple.main-thread"
        report.threads = [mainThread] + others.enumerated().map { CrashThread(number: $0.offset + 1, frames: frames($0.element)) }
        report.faultingThread = 0
        report.terminationCodeValue = code
        return report
    }

    func cause(_ report: CrashReport, watchdog: Bool = true) -> String {
        CrashBlame.verdict(for: report, watchdog: watchdog, terminationCode: report.terminationCodeValue).cause.rawValue
    }

    @Test func storeLoad() {
        let r = report(main: ["libsystem_kernel.dylib  pread", "libsqlite3.dylib  sqlite3_step",
                              "CoreData  -[NSSQLiteConnection connect]",
                              "CoreData  -[NSPersistentStoreCoordinator addPersistentStoreWithType:configuration:URL:options:error:]"])
        #expect(cause(r) == "store-load")
    }

    @Test func migrationWithoutCheckpoint() {
        let r = report(main: ["libsqlite3.dylib  sqlite3_step", "CoreData  -[_NSSQLiteStoreMigrator performMigration:]",
                              "CoreData  -[NSPersistentContainer loadPersistentStoresWithCompletionHandler:]"])
        #expect(cause(r) == "migration")
    }

    @Test func stagedMigration() {
        let r = report(main: ["CoreData  -[NSPersistentStoreCoordinator applyMigrationStage:withContext:error:]"])
        #expect(cause(r) == "migration")
    }

    @Test func checkpointWithoutMigration() {
        let r = report(main: ["libsqlite3.dylib  sqlite3WalCheckpoint", "CoreData  -[NSSQLiteConnection _walCheckpointWithMode:]",
                              "CoreData  -[NSSQLiteConnection connect]"])
        #expect(cause(r) == "wal-checkpoint")
        // "checkpointOnClose:" in an open call is not a checkpoint.
        let open = report(main: ["CoreData  +[NSSQLiteConnection openAtPath:withKey:handle:flags:module:checkpointOnClose:]"])
        #expect(cause(open) == "store-load")
    }

    @Test func fetchAndSave() {
        #expect(cause(report(main: ["libsqlite3.dylib  sqlite3_step", "CoreData  newFetchedRowsForFetchPlan_MT",
                                    "CoreData  -[NSManagedObjectContext executeFetchRequest:error:]"])) == "fetch-on-main")
        #expect(cause(report(main: ["libsystem_kernel.dylib  fsync", "libsqlite3.dylib  unixSync",
                                    "CoreData  _executeSaveChangesRequest", "CoreData  -[NSManagedObjectContext save:]"])) == "save-on-main")
    }

    @Test func lockWaitAndIOWithoutCoreData() {
        #expect(cause(report(main: ["libsystem_kernel.dylib  __fcntl", "libsqlite3.dylib  unixShmSystemLock",
                                    "libsqlite3.dylib  unixShmLock", "libsqlite3.dylib  walTryBeginRead"])) == "sqlite-lock-wait")
        #expect(cause(report(main: ["libsystem_kernel.dylib  pread", "libsqlite3.dylib  seekAndRead", "libsqlite3.dylib  unixRead"])) == "sqlite-io")
    }

    @Test func mainWaitsOnAnotherThread() {
        let r = report(main: ["libsystem_kernel.dylib  __ulock_wait", "libdispatch.dylib  _dispatch_sync_f_slow",
                              "CoreData  -[NSManagedObjectContext performBlockAndWait:]"],
                       others: [["libsystem_kernel.dylib  pwrite"], ["libsqlite3.dylib  walCheckpoint", "CoreData  -[NSMigrationManager migrateStoreFromURL:type:options:withMappingModel:toDestinationURL:destinationType:destinationOptions:error:]"]])
        let verdict = CrashBlame.verdict(for: r, watchdog: true, terminationCode: 0x8badf00d)
        #expect(verdict.cause == .migrationWALCheckpoint)
        #expect(verdict.viaThread == 2)
    }

    @Test func idleMainThreadIsUnknown() {
        let r = report(main: ["libsystem_kernel.dylib  mach_msg_trap", "CoreFoundation  __CFRunLoopRun", "UIKitCore  UIApplicationMain"],
                       others: [["libsqlite3.dylib  sqlite3_step"]])
        #expect(cause(r) == "unknown")  // the watchdog case does not blame a thread the main thread does not wait on
    }

    @Test func unsymbolicatedCoreData() {
        #expect(cause(report(main: ["CoreData", "CoreData", "App"])) == "coredata-unsymbolicated")
    }

    @Test func cpuInterpretation() {
        #expect(CrashBlame.cpuInterpretation(appCPUPercent: 0, appCPUSeconds: 0.13, wallClock: 19.97) == "waiting")
        #expect(CrashBlame.cpuInterpretation(appCPUPercent: 83, appCPUSeconds: 49.9, wallClock: 10) == "busy")
        #expect(CrashBlame.cpuInterpretation(appCPUPercent: nil, appCPUSeconds: 15, wallClock: 20) == "busy")
        #expect(CrashBlame.cpuInterpretation(appCPUPercent: 40, appCPUSeconds: nil, wallClock: nil) == "unknown")
        #expect(CrashBlame.cpuInterpretation(appCPUPercent: nil, appCPUSeconds: nil, wallClock: 20) == "unknown")
    }
}
