#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore

/// What `lstat`/`stat` says about a path, without opening it.
struct FileStatus: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case regular, directory, symlink, fifo, characterDevice, blockDevice, socket, other
        /// "a named pipe (FIFO)", "a folder"…: for messages.
        var described: String {
            switch self {
            case .regular: return "a regular file"
            case .directory: return "a folder"
            case .symlink: return "a symlink"
            case .fifo: return "a named pipe (FIFO)"
            case .characterDevice: return "a character device"
            case .blockDevice: return "a block device"
            case .socket: return "a socket"
            case .other: return "a special file"
            }
        }
    }
    let kind: Kind
    let size: Int64
    let modificationSeconds: Int64
    let modificationNanoseconds: Int64

    /// `lstat` (does not follow a symlink). Nil when the path does not exist; throws on other errors.
    static func lstatus(_ path: String) throws -> FileStatus? { try status(path, follow: false) }
    /// `stat` (follows symlinks). Nil when the path (or the link's target) does not exist.
    static func status(_ path: String) throws -> FileStatus? { try status(path, follow: true) }

    private static func status(_ path: String, follow: Bool) throws -> FileStatus? {
        var st = stat()
        let rc = follow ? stat(FileSystemPath.bytes(path), &st) : lstat(FileSystemPath.bytes(path), &st)
        if rc != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw ToolFailure("cannot examine \(path): \(errnoText(code))")
        }
        let fmt = st.st_mode & S_IFMT
        let kind: Kind
        switch fmt {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        #if canImport(Darwin)
        let sec = Int64(st.st_mtimespec.tv_sec), nsec = Int64(st.st_mtimespec.tv_nsec)
        #else
        let sec = Int64(st.st_mtim.tv_sec), nsec = Int64(st.st_mtim.tv_nsec)
        #endif
        return FileStatus(kind: kind, size: Int64(st.st_size), modificationSeconds: sec, modificationNanoseconds: nsec)
    }
}
