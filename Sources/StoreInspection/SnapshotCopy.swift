#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore

/// A private copy of a store's files in a fresh temporary folder, for SQLite to open.
///
/// Contract: the source files are only ever opened `O_RDONLY`; nothing is created, renamed or
/// deleted beside them. The copy lives in a new `mkdtemp` folder under `$TMPDIR` (or `/tmp`; if that
/// is the store's own folder, `/var/tmp`), with permissions 0700, and `remove()` (also run on deinit)
/// deletes it with everything SQLite added (`-wal`, `-shm`, `-journal`). Copies are taken in the order
/// database, WAL, wal-index, rollback journal.
public final class SnapshotCopy {
    /// The temporary folder.
    public let directory: String
    /// The copied main database file (same base name as the source).
    public let databasePath: String
    private var removed = false

    /// Copies `files.database` (+ `-wal`, and `-shm` when `includeWalIndex`) into a new temp folder.
    /// When `emptyWalIndex` is true and the WAL is copied, an empty `-shm` is created in the copy so the
    /// copy can be opened with `readonly_shm=1`.
    ///
    /// `walBytes` copies only that prefix of the WAL: the frames SQLite's recovery can read (it stops at
    /// the first invalid frame), so a sparse or zero-filled multi-GB tail is not copied. Holes in any
    /// source stay holes in the copy (SEEK_DATA/SEEK_HOLE), so a sparse file does not fill `$TMPDIR`.
    public init(files: StoreFiles, includeWalIndex: Bool, emptyWalIndex: Bool, walBytes: Int64? = nil) throws {
        let storeDir = resolvedPath(parentDirectory(files.database)) ?? parentDirectory(files.database)
        var base = ProcessInfoLite.environment("TMPDIR") ?? "/tmp"
        if base.isEmpty { base = "/tmp" }
        if let resolved = resolvedPath(base), resolved == storeDir { base = "/var/tmp" }
        var template = Array(joinPath(base, "walcheck.XXXXXX").utf8CString)
        let name = "store.sqlite"
        // Creating the folder and registering it for the interrupt handler happen with the signals held,
        // so a SIGINT in between cannot leave an unregistered folder behind.
        let made: Result<String, ToolFailure> = SnapshotCopy.withInterruptsHeld {
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                return .failure(ToolFailure("cannot create a temporary folder in \(base): \(errnoText())"))
            }
            let folder = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            SnapshotCopy.registerForInterrupt(directory: folder, database: joinPath(folder, name))
            return .success(folder)
        }
        directory = try made.get()
        databasePath = joinPath(directory, name)
        do {
            try SnapshotCopy.copyFile(from: files.database, to: databasePath)
            if let wal = files.wal {
                try SnapshotCopy.copyFile(from: wal, to: databasePath + "-wal", limit: walBytes)
                if includeWalIndex, let shm = files.walIndex {
                    try SnapshotCopy.copyFile(from: shm, to: databasePath + "-shm")
                } else if emptyWalIndex {
                    try SnapshotCopy.createEmpty(databasePath + "-shm")
                }
            }
            if let journal = files.journal {
                // A hot journal must travel with the database, or SQLite would read half-written pages.
                try SnapshotCopy.copyFile(from: journal, to: databasePath + "-journal")
            }
        } catch {
            remove()
            throw error
        }
    }

    deinit { remove() }

    /// Deletes the temporary folder and everything in it. Safe to call more than once.
    public func remove() {
        guard !removed else { return }
        removed = true
        // Held signals: once unregistered, the handler would no longer remove a half-deleted folder.
        SnapshotCopy.withInterruptsHeld {
            SnapshotCopy.registerForInterrupt(directory: nil, database: "")
            if let names = try? directoryEntries(directory) {
                for name in names { unlink(joinPath(directory, name)) }
            }
            rmdir(directory)
        }
    }

    static func createEmpty(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 { throw ToolFailure("cannot create \(path): \(errnoText())") }
        close(fd)
    }

    /// Copies the first `limit` bytes (all when nil) with a 1 MiB buffer (bounded memory); the source is
    /// opened read-only. Only the source's data regions are read and written: a hole is skipped and left
    /// a hole in the copy (its size set with `ftruncate`).
    static func copyFile(from source: String, to destination: String, limit: Int64? = nil) throws {
        let input = try ReadOnlyFile(path: source)
        let out = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if out < 0 { throw ToolFailure("cannot create \(destination): \(errnoText())") }
        defer { close(out) }
        let end = min(input.size, max(0, limit ?? input.size))
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while offset < end {
            guard let data = input.nextData(from: offset), data < end else { break }
            offset = data
            let extentEnd = min(end, input.holeStart(from: data))
            while offset < extentEnd {
                let n = try input.read(into: buffer, at: offset, count: Int(min(Int64(size), extentEnd - offset)))
                if n == 0 { break }
                var written = 0
                while written < n {
                    let w = pwrite(out, buffer.baseAddress! + written, n - written, off_t(offset + Int64(written)))
                    if w < 0 {
                        if errno == EINTR { continue }
                        throw ToolFailure("cannot write the private copy \(destination): \(errnoText())")
                    }
                    written += w
                }
                offset += Int64(n)
            }
            if offset < extentEnd { break } // the source shrank while we read it
        }
        if ftruncate(out, off_t(end)) != 0 {
            throw ToolFailure("cannot write the private copy \(destination): \(errnoText())")
        }
    }
}

/// getenv without Foundation.
enum ProcessInfoLite {
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}

/// Removes the private copy when the process is interrupted (SIGINT, SIGTERM, SIGHUP), so a cancelled
/// run over a multi-GB WAL does not leave its copy behind. Opt-in (`SnapshotCopy.installInterruptCleanup()`),
/// because a library should not take over signals by itself. The handler only calls async-signal-safe
/// functions (`unlink`, `rmdir`, `signal`, `raise`) on paths prepared before the copy starts.
extension SnapshotCopy {
    public static func installInterruptCleanup() {
        InterruptCleanup.enabled = true
        // A blocked mask is inherited across exec: a parent that blocks these signals (Foundation's
        // `Process` on Linux passes its own mask on) would make walcheck uninterruptible, and its copy
        // would only go when the run ends. Unblock the three signals handled here (found by
        // HostileWalcheckTests.interruptedMidRunLeavesNothingBehind).
        var handled = sigset_t()
        sigemptyset(&handled)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&handled, sig) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { received in
                if let paths = InterruptCleanup.paths {
                    for i in 0..<InterruptCleanup.count { if let p = paths[i] { unlink(p) } }
                    if let dir = paths[InterruptCleanup.count] { rmdir(dir) }
                }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// Runs `body` with SIGINT, SIGTERM and SIGHUP held back on this thread (when the handler is
    /// installed); a signal that arrives meanwhile is delivered as soon as `body` returns. (Found by
    /// HostileWalcheckTests: a signal between mkdtemp and registration, or during `remove`, left a
    /// `walcheck.XXXXXX` folder in $TMPDIR.)
    static func withInterruptsHeld<T>(_ body: () throws -> T) rethrows -> T {
        guard InterruptCleanup.enabled else { return try body() }
        var held = sigset_t(), previous = sigset_t()
        sigemptyset(&held)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&held, sig) }
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Records the paths the handler must remove (nil clears them).
    static func registerForInterrupt(directory: String?, database: String) {
        guard InterruptCleanup.enabled else { return }
        let old = InterruptCleanup.paths
        InterruptCleanup.paths = nil
        if let old {
            for i in 0...InterruptCleanup.count { free(old[i]) }
            old.deallocate()
        }
        guard let directory else { return }
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: InterruptCleanup.count + 1)
        let files = ["", "-wal", "-shm", "-journal"].map { database + $0 }
        for (i, f) in files.enumerated() { table[i] = strdup(f) }
        table[InterruptCleanup.count] = strdup(directory)
        InterruptCleanup.paths = table
    }
}

enum InterruptCleanup {
    static let count = 4
    /// Set once by `installInterruptCleanup()`; copies register only then (walcheck's CLI makes one copy
    /// at a time on one thread; library users who make copies concurrently should not install it).
    nonisolated(unsafe) static var enabled = false
    nonisolated(unsafe) static var paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
}
