#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore

// SEEK_DATA / SEEK_HOLE are not exported by the Glibc module (they need _GNU_SOURCE).
#if canImport(Darwin)
private let seekHole: Int32 = 3, seekData: Int32 = 4
#else
private let seekData: Int32 = 3, seekHole: Int32 = 4
#endif

/// The text of `errno` for messages.
func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// A file opened read-only (`O_RDONLY`, never `O_CREAT`), read with `pread`. Reading never changes the
/// file's bytes or mtime. Closed on deinit.
///
/// Contract: `read(at:count:)` returns at most `count` bytes (fewer at end of file, never more);
/// I/O errors throw `ToolFailure` naming the path.
public final class ReadOnlyFile {
    public let path: String
    public let size: Int64
    private let fd: Int32
    private let device: UInt64
    private let inode: UInt64

    /// Opens `path` for reading. Throws `ToolFailure` with a one-line reason (missing, unreadable,
    /// not a regular file).
    public init(path: String) throws {
        self.path = path
        // O_NONBLOCK: a path that is (or has just become) a FIFO must not wait for a writer; regular
        // files ignore the flag, and anything that is not one is refused below.
        let fd = open(FileSystemPath.bytes(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { throw ToolFailure("cannot open \(path): \(errnoText())") }
        var st = stat()
        if fstat(fd, &st) != 0 {
            let code = errno
            close(fd)
            throw ToolFailure("cannot examine \(path): \(errnoText(code))")
        }
        if st.st_mode & S_IFMT != S_IFREG {
            close(fd)
            let kind = (try? FileStatus.status(path))?.kind ?? .other
            throw ToolFailure("\(path) is \(kind.described), not a regular file")
        }
        self.fd = fd
        self.size = Int64(st.st_size)
        self.device = UInt64(truncatingIfNeeded: st.st_dev)
        self.inode = UInt64(truncatingIfNeeded: st.st_ino)
    }

    private init(path: String, size: Int64, fd: Int32, device: UInt64, inode: UInt64) {
        (self.path, self.size, self.fd, self.device, self.inode) = (path, size, fd, device, inode)
    }

    /// The same file opened once more (`O_RDONLY`), with its own open file description, for a thread
    /// of its own: threads sharing one description contend on its reference count at every `pread`.
    /// Nil when `path` no longer names this file (same device and inode) or cannot be opened.
    func openedAgain() -> ReadOnlyFile? {
        // O_NONBLOCK: should `path` have become a FIFO, the open must not wait for a writer (regular
        // files ignore the flag).
        let again = open(FileSystemPath.bytes(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if again < 0 { return nil }
        var st = stat()
        guard fstat(again, &st) == 0, st.st_mode & S_IFMT == S_IFREG,
              UInt64(truncatingIfNeeded: st.st_dev) == device, UInt64(truncatingIfNeeded: st.st_ino) == inode else {
            close(again)
            return nil
        }
        return ReadOnlyFile(path: path, size: size, fd: again, device: device, inode: inode)
    }

    deinit { close(fd) }

    /// Whether another process holds a POSIX lock on byte `offset` (`F_GETLK`, which only asks: no lock
    /// is taken, nothing changes). Locks of this process are never reported (POSIX).
    func isLockedByAnotherProcess(byte offset: Int64) -> Bool {
        var query = flock()
        query.l_type = Int16(F_WRLCK)
        query.l_whence = Int16(SEEK_SET)
        query.l_start = off_t(offset)
        query.l_len = 1
        guard fcntl(fd, F_GETLK, &query) == 0 else { return false }
        return query.l_type != Int16(F_UNLCK)
    }

    /// The first offset at or after `offset` that holds data (`SEEK_DATA`): nil when only a hole (or the
    /// end of the file) follows; `offset` itself where the file system cannot tell.
    func nextData(from offset: Int64) -> Int64? {
        guard offset < size else { return nil }
        let found = lseek(fd, off_t(offset), seekData)
        if found >= 0 { return Int64(found) }
        return errno == ENXIO ? nil : offset
    }

    /// Where the data region holding `offset` ends (`SEEK_HOLE`; every file ends in a hole): the file's
    /// size where the file system cannot tell.
    func holeStart(from offset: Int64) -> Int64 {
        let found = lseek(fd, off_t(offset), seekHole)
        return found >= 0 ? min(Int64(found), size) : size
    }

    /// Reads up to `count` bytes at `offset` into `buffer` (which must hold `count` bytes). Returns
    /// the number of bytes read (short only at end of file).
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64, count: Int) throws -> Int {
        guard let base = buffer.baseAddress, count > 0 else { return 0 }
        let wanted = min(count, buffer.count)
        var done = 0
        while done < wanted {
            let n = pread(fd, base + done, wanted - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolFailure("cannot read \(path): \(errnoText())")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads up to `count` bytes at `offset` into a new array.
    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let n = try out.withUnsafeMutableBytes { try read(into: $0, at: offset, count: count) }
        if n < count { out.removeLast(count - n) }
        return out
    }
}


/// `realpath(3)`: the absolute path with symlinks resolved, or nil.
func resolvedPath(_ path: String) -> String? {
    guard let p = realpath(FileSystemPath.bytes(path), nil) else { return nil }
    defer { free(p) }
    return FileSystemPath.decode(Array(UnsafeRawBufferPointer(start: p, count: strlen(p))))
}

/// Joins a directory and a name with one slash.
func joinPath(_ dir: String, _ name: String) -> String {
    dir.hasSuffix("/") ? dir + name : dir + "/" + name
}

/// The directory part of a path ("." when there is none).
func parentDirectory(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
}

/// The last path component.
func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}

/// Monotonic seconds, for timings.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
