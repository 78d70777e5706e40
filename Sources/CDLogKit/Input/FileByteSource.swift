import CDLogCore
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A file or stdin, read with read(2). Opening refuses directories and reports errors in one line.
///
/// A file is checked when the source is made (it exists, is readable, is not a directory), opened at
/// its first read and closed at its end: a run over thousands of files holds one descriptor at a time
/// (macOS allows 256 by default).
public final class FileByteSource: ByteSource {
    public let name: String
    private var fd: Int32 = -1
    private var finished = false
    /// A pipe, terminal or socket: input that can pause (a regular file never does).
    private let isLive: Bool

    /// Checks `path` for reading (`-` means stdin). Throws `ToolFailure` naming the path.
    public init(path: String) throws {
        name = path
        var info = stat()
        if path == "-" {
            fd = 0
            isLive = fstat(0, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG
            return
        }
        guard stat(FileSystemPath.bytes(path), &info) == 0 else {
            throw ToolFailure("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ToolFailure("cannot read \(path): is a directory")
        }
        guard access(FileSystemPath.bytes(path), R_OK) == 0 else {
            throw ToolFailure("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        isLive = (info.st_mode & S_IFMT) != S_IFREG
    }

    deinit { if fd > 0 { close(fd) } }

    /// Opens the file on first use.
    private func descriptor() throws -> Int32 {
        if fd >= 0 || finished { return fd }
        let opened = open(FileSystemPath.bytes(name), O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw ToolFailure("cannot open \(name): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(opened)
            throw ToolFailure("cannot read \(name): is a directory")
        }
        fd = opened
        return fd
    }

    public func waitForInput(milliseconds: Int32) throws -> Bool {
        guard isLive, !finished else { return true }
        var request = pollfd(fd: try descriptor(), events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&request, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno == EINTR { continue }
            return true  // let read(2) report the error
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished else { return 0 }
        let fd = try descriptor()
        while true {
            #if canImport(Glibc)
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            #else
            let count = Darwin.read(fd, buffer.baseAddress, buffer.count)
            #endif
            if count > 0 { return count }
            if count == 0 {
                // The end: give the descriptor back (stdin stays open).
                finished = true
                if fd > 0 { close(fd) }
                self.fd = -1
                return 0
            }
            if errno == EINTR { continue }
            throw ToolFailure("cannot read \(name): \(String(cString: strerror(errno)))")
        }
    }
}
