import CDLogCore
/// Decides which Core Data / SQLite work a crash report points at, from its frames.
///
/// For a watchdog kill the main thread is scored (and, when the main thread only waits — in a
/// `dispatch_sync`, a semaphore, `performBlockAndWait` — the other threads it may wait on); for other
/// crashes the faulting thread, and for `0xdead10cc` every thread, since any thread can hold the lock.
/// Frame signatures come from real reports (crash-formats.md §7). The verdict names one cause id
/// (`BlameCause`) and the frames that decided it; the CPU figures say whether the app was busy or waiting.
public enum CrashBlame {
    /// Stable cause ids (part of the output contract: rules match them).
    public enum Cause: String, CaseIterable, Sendable {
        case migrationWALCheckpoint = "migration-wal-checkpoint"
        case migration
        case walCheckpoint = "wal-checkpoint"
        case cloudKitSetup = "cloudkit-setup"
        case storeLoad = "store-load"
        case saveOnMain = "save-on-main"
        case fetchOnMain = "fetch-on-main"
        /// A save or a fetch on a thread other than the main one: no watchdog story, no "on main" claim.
        case save
        case fetch
        case sqliteLockWait = "sqlite-lock-wait"
        case sqliteIO = "sqlite-io"
        /// Core Data frames whose operation is none of the above (e.g. `performBlockAndWait` only).
        case coreData = "coredata"
        case coreDataUnsymbolicated = "coredata-unsymbolicated"
        case unknown
    }

    /// What a frame is evidence of.
    enum Signal: CaseIterable {
        case migration, checkpoint, cloudKit, storeLoad, save, fetch, lockWait, io, sqliteOther, coreDataOther, imageOnly
    }

    /// Case-sensitive substrings of symbols, per signal. Order inside a list does not matter.
    static let signatures: [(Signal, [String])] = [
        (.migration, [
            "NSMigrationManager", "NSSQLiteInPlaceMigrationManager", "_NSSQLiteStoreMigrator", "NSStagedMigrationManager",
            "applyMigrationStage", "migratePersistentStore", "migrateStoreFromURL", "inferredMappingModel",
            "NSCustomMigrationStage", "NSLightweightMigrationStage", "performMigration", "_performMigration",
            "NSMappingModel", "migrationManager", "createPersistentContainerForMigrationContext",
        ]),
        (.checkpoint, ["_walCheckpoint", "walCheckpoint", "WalCheckpoint", "wal_checkpoint", "sqlite3Checkpoint"]),
        (.cloudKit, ["PFCloudKit", "NSCloudKitMirroringDelegate", "NSPersistentCloudKitContainer"]),
        (.storeLoad, [
            "addPersistentStoreWithType", "addPersistentStoreWithDescription", "loadPersistentStores",
            "_loadAndSetMetadata", "-[NSSQLCore load", "-[NSSQLiteConnection connect]", "openAtPath:",
            "NSPersistentContainer", "ModelContainer.init", "ModelContainer(", "_checkAndRepairSchema",
            "-[NSSQLCore _ensureMetadataLoaded]", "_ensureDatabaseMatchesModel",
            "_coordinator_you_never_successfully_opened_the_database",
        ]),
        (.save, [
            "-[NSManagedObjectContext save:]", "_executeSaveChangesRequest", "_commitChangesForSaveRequest",
            "_writeChangesForSaveRequest", "NSSQLSaveChangesRequestContext", "-[NSSQLiteConnection insertRow:]",
            "-[NSSQLiteConnection updateRow:", "-[NSSQLiteConnection deleteRow:", "ModelContext.save",
        ]),
        (.fetch, [
            "executeFetchRequest", "_executeFetchRequest", "newFetchedRowsForFetchPlan", "NSSQLFetchRequestContext",
            "countForFetchRequest", "_PFFaultHandlerLookupRow", "_fireFault", "newValuesForObjectWithID",
            "newValueForRelationship", "-[NSFaultHandler", "ModelContext.fetch", "-[NSSQLiteConnection selectRowsWithStatement",
            "-[NSSQLiteConnection fetchResultSet",
        ]),
        (.lockWait, [
            "walTryBeginRead", "sqlite3WalBeginReadTransaction", "unixShmLock", "unixShmSystemLock", "sqliteDefaultBusyCallback",
            "sqlite3InvokeBusyHandler", "btreeInvokeBusyHandler", "unixSleep", "pager_wait_on_lock", "walBusyLock",
            "walLockExclusive", "unixLock",
        ]),
        (.io, [
            "unixSync", "unixRead", "unixWrite", "seekAndRead", "seekAndWrite", "full_fsync", "sqlite3PagerCommitPhaseOne",
            "sqlite3OsSync", "sqlite3OsRead", "sqlite3OsWrite", "readDbPage", "walWriteToLog", "walIndexReadHdr",
        ]),
        (.sqliteOther, ["sqlite3_step", "sqlite3VdbeExec", "sqlite3_exec", "sqlite3_prepare", "sqlite3LockAndPrepare"]),
        (.coreDataOther, ["NSSQLiteConnection", "NSSQLCore", "NSPersistentStoreCoordinator", "NSManagedObjectContext", "NSSQLDefaultConnectionManager"]),
    ]

    public static let coreDataImages: Set<String> = ["CoreData", "libsqlite3.dylib", "SwiftData"]

    /// Frames of a thread that only waits for something else (so the culprit may be on another thread).
    static let waitSymbols = [
        "_dispatch_sync_f_slow", "__DISPATCH_WAIT_FOR_QUEUE__", "_dispatch_barrier_sync_f_slow", "_dispatch_sync_wait",
        "_dispatch_semaphore_wait_slow", "semaphore_wait_trap", "performBlockAndWait", "_dispatch_group_wait_slow",
        "__psynch_mutexwait", "__psynch_cvwait", "__ulock_wait", "_os_unfair_lock_lock_slow", "dispatch_sync",
        "_dispatch_lane_barrier_sync_invoke_and_complete", "_dispatch_once_wait",
    ]

    public struct Verdict {
        public var cause: Cause
        public var frames: [String]
        /// Number of the thread the frames come from, when it is not the primary thread.
        public var viaThread: Int?
        public var symbolicated: Bool
    }

    /// Signals found in one thread: each with the indices of the frames that carry it.
    private struct ThreadScan {
        var hits: [Signal: [Int]] = [:]
        var unsymbolicatedCoreData: [Int] = []
        var waits = false

        var isEmpty: Bool { hits.isEmpty && unsymbolicatedCoreData.isEmpty }
    }

    /// How many frames from the top of a thread are examined (deep recursion must not cost much).
    public static let scannedFrames = 160

    private static func scan(_ thread: CrashThread) -> ThreadScan {
        var result = ThreadScan()
        for (index, frame) in thread.frames.prefix(scannedFrames).enumerated() {
            guard let symbol = frame.symbol, !symbol.isEmpty else {
                if let image = frame.image, coreDataImages.contains(image) { result.unsymbolicatedCoreData.append(index) }
                continue
            }
            if index < 12, waitSymbols.contains(where: { symbol.includes($0) }) { result.waits = true }
            for (signal, needles) in signatures where needles.contains(where: { symbol.includes($0) }) {
                // `-[NSSQLiteConnection connect]` in a checkpoint-on-close open is still a store load; the
                // checkpoint list is specific enough that a frame can carry both signals.
                result.hits[signal, default: []].append(index)
                if signal != .storeLoad && signal != .coreDataOther { break }
            }
        }
        return result
    }

    /// The cause a scan points at, most specific first: the operation Core Data was doing wins over
    /// the mechanism (lock wait, I/O) it was stuck in.
    private static func cause(of scan: ThreadScan, onMain: Bool) -> (Cause, [Int])? {
        let hits = scan.hits
        // Per signal, the outermost frame (the Core Data call) then the innermost (where it was).
        func frames(_ signals: Signal...) -> [Int] {
            signals.flatMap { signal -> [Int] in
                guard let indices = hits[signal], let first = indices.first, let last = indices.last else { return [] }
                return first == last ? [first] : [last, first]
            }
        }
        if hits[.migration] != nil && hits[.checkpoint] != nil {
            return (.migrationWALCheckpoint, frames(.checkpoint, .migration, .lockWait, .io))
        }
        if hits[.migration] != nil { return (.migration, frames(.migration, .lockWait, .io, .sqliteOther)) }
        if hits[.checkpoint] != nil { return (.walCheckpoint, frames(.checkpoint, .storeLoad, .lockWait, .io)) }
        if hits[.cloudKit] != nil { return (.cloudKitSetup, frames(.cloudKit, .storeLoad)) }
        if hits[.storeLoad] != nil { return (.storeLoad, frames(.storeLoad, .lockWait, .io, .sqliteOther)) }
        let save = hits[.save]?.first
        let fetch = hits[.fetch]?.first
        if let save, fetch == nil || save < fetch! {
            return (onMain ? .saveOnMain : .save, frames(.save, .lockWait, .io))
        }
        if fetch != nil { return (onMain ? .fetchOnMain : .fetch, frames(.fetch, .lockWait, .io, .sqliteOther)) }
        if hits[.lockWait] != nil { return (.sqliteLockWait, frames(.lockWait, .sqliteOther)) }
        if hits[.io] != nil { return (.sqliteIO, frames(.io, .sqliteOther)) }
        if hits[.sqliteOther] != nil { return (.sqliteIO, frames(.sqliteOther)) }
        if hits[.coreDataOther] != nil { return (.coreData, frames(.coreDataOther)) }
        if !scan.unsymbolicatedCoreData.isEmpty { return (.coreDataUnsymbolicated, scan.unsymbolicatedCoreData) }
        return nil
    }

    /// The primary thread: the main thread for watchdog kills and hangs, otherwise the faulting one.
    public static func primaryThread(of report: CrashReport, watchdog: Bool) -> Int? {
        if watchdog || report.diagnosticType == "hang" || report.diagnosticType == "appLaunch" {
            if let main = report.threads.firstIndex(where: \.isMain) { return main }
            if report.format == .metrickit, let attributed = report.faultingThread { return attributed }
            if let zero = report.threads.firstIndex(where: { $0.number == 0 }) { return zero }
        }
        return report.faultingThread ?? report.threads.firstIndex(where: \.isMain) ?? (report.threads.isEmpty ? nil : 0)
    }

    public static func verdict(for report: CrashReport, watchdog: Bool, terminationCode: UInt64?) -> Verdict {
        guard let primary = primaryThread(of: report, watchdog: watchdog) else {
            let backtrace = CrashThread(number: -1, frames: report.lastExceptionBacktrace)
            if let (cause, indices) = cause(of: scan(backtrace), onMain: false) {
                return Verdict(cause: cause, frames: describe(backtrace, indices), viaThread: nil,
                               symbolicated: backtrace.frames.contains(where: \.isSymbolicated))
            }
            return Verdict(cause: .unknown, frames: [], viaThread: nil, symbolicated: false)
        }
        let thread = report.threads[primary]
        let mainScan = scan(thread)
        let onMain = thread.isMain || (watchdog && primary == report.threads.firstIndex(where: { $0.number == 0 }))
        if let (cause, indices) = cause(of: mainScan, onMain: onMain), cause != .coreData || !mainScan.waits {
            return Verdict(cause: cause, frames: describe(thread, indices), viaThread: nil,
                           symbolicated: thread.frames.contains(where: \.isSymbolicated))
        }
        // The primary thread shows nothing: look at the others when it waits (watchdog), when any thread
        // can be the culprit (0xdead10cc: the lock holder), or when the primary thread has no frames.
        let lookElsewhere = terminationCode == 0xdead10cc || (watchdog && (mainScan.waits || thread.frames.isEmpty))
            || (report.lastExceptionBacktrace.isEmpty == false)
        if lookElsewhere {
            var candidates: [(Int, Cause, [Int])] = []
            if !report.lastExceptionBacktrace.isEmpty {
                let backtrace = CrashThread(number: -1, frames: report.lastExceptionBacktrace)
                if let (cause, indices) = cause(of: scan(backtrace), onMain: onMain) {
                    return Verdict(cause: cause, frames: describe(backtrace, indices), viaThread: nil,
                                   symbolicated: backtrace.frames.contains(where: \.isSymbolicated))
                }
            }
            if terminationCode == 0xdead10cc || watchdog {
                for (index, other) in report.threads.enumerated() where index != primary {
                    if let (cause, indices) = cause(of: scan(other), onMain: false),
                       cause != .coreDataUnsymbolicated, cause != .coreData {
                        candidates.append((index, cause, indices))
                    }
                }
            }
            let order = Cause.allCases
            if let best = candidates.min(by: { order.firstIndex(of: $0.1)! < order.firstIndex(of: $1.1)! }) {
                let other = report.threads[best.0]
                return Verdict(cause: best.1, frames: describe(other, best.2), viaThread: other.number,
                               symbolicated: other.frames.contains(where: \.isSymbolicated))
            }
        }
        if let (cause, indices) = cause(of: mainScan, onMain: onMain) {
            return Verdict(cause: cause, frames: describe(thread, indices), viaThread: nil,
                           symbolicated: thread.frames.contains(where: \.isSymbolicated))
        }
        return Verdict(cause: .unknown, frames: [], viaThread: nil, symbolicated: thread.frames.contains(where: \.isSymbolicated))
    }

    /// Up to six deciding frames, most telling first.
    private static func describe(_ thread: CrashThread, _ indices: [Int]) -> [String] {
        var seen = Set<Int>()
        return indices.filter { seen.insert($0).inserted }.prefix(6).map { thread.frames[$0].display }
    }

    /// busy when the app used at least half of the CPU it could have (a migration doing real work),
    /// waiting when it used little (blocked on I/O, a lock or another process), unknown in between
    /// or without figures. Apple: "Addressing watchdog terminations".
    public static func cpuInterpretation(appCPUPercent: Double?, appCPUSeconds: Double?, wallClock: Double?) -> String {
        // The report's own percentage covers its CPU-statistics window; prefer it to seconds ÷ allowance.
        var share = appCPUPercent
        if share == nil, let appCPUSeconds, let wallClock, wallClock > 0 {
            share = appCPUSeconds / wallClock * 100
        }
        guard let share else { return "unknown" }
        if share >= 50 { return "busy" }
        if share < 35 { return "waiting" }
        return "unknown"
    }
}

extension CrashThread {
    init(number: Int, frames: [CrashFrame]) {
        self.init(number: number)
        self.frames = frames
    }
}
