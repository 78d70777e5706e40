import CDLogCore
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Writes a command's whole output to a file named with `--output`, without ever destroying an input.
///
/// Contract: `init` throws `ToolFailure` (one line, exit 2) when the output path is, resolves to (through
/// any symlinks), or shares a device and inode (a hard link, stdin redirected from it) with any protected
/// input. `write` replaces a regular file (or creates one) only once every byte is written: the text goes
/// to a temporary file beside the target, is synced, given the old file's mode (or 0666 less the umask),
/// and renamed over the target; on any failure the temporary file is removed and the target is left as it
/// was. A target that exists and is not a regular file (a terminal, `/dev/null`, a FIFO) is written in
/// place. SIGINT, SIGTERM and SIGHUP are held while the temporary file exists, so an interrupt never
/// leaves it behind. Not thread-safe.
public struct OutputFile {
    public let path: String
    private let target: String
    private let writeInPlace: Bool

    public init(path: String, protecting inputs: ProtectedInputs) throws {
        self.path = path
        self.target = Self.canonicalPath(path)
        let outputStatus = Self.status(path)
        if let out = outputStatus {
            if inputs.readsStandardInput, let input = Self.status(descriptor: 0), input.identity == out.identity {
                throw ToolFailure("refusing to write \(path): it would replace the standard input this report reads")
            }
        }
        for input in inputs.paths where input != "-" {
            if let out = outputStatus, let status = Self.status(input), status.identity == out.identity {
                throw ToolFailure("refusing to write \(path): it would replace the input \(input)")
            }
            if Self.canonicalPath(input) == target {
                throw ToolFailure("refusing to write \(path): it would replace the input \(input)")
            }
        }
        for folder in inputs.folders where folder != "-" {
            var info = stat()
            guard stat(FileSystemPath.bytes(folder), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            let inside = Self.canonicalPath(folder)
            if target.hasPrefix(inside.hasSuffix("/") ? inside : inside + "/") {
                throw ToolFailure("refusing to write \(path): it is inside the input folder \(folder)")
            }
        }
        self.writeInPlace = outputStatus.map { !$0.isRegular } ?? false
    }

    /// Writes `text` as the whole content of the output. Throws `ToolFailure` naming the output.
    public func write(_ text: String) throws {
        try write { try $0.write(text) }
    }

    /// Writes what `body` writes to the sink it is given as the whole content of the output: into a
    /// temporary file beside it, renamed over it when `body` returns (a regular file), or straight into a
    /// FIFO or device. When `body` throws, the output is left as it was (a regular file) and the error is
    /// passed on.
    public func write(streaming body: (OutputSink) throws -> Void) throws {
        if writeInPlace {
            let fd = open(FileSystemPath.bytes(path), O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard fd >= 0 else { throw ToolFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            let sink = OutputSink(fd: fd, name: path)
            try body(sink)
            try sink.flush()
            return
        }
        try Self.withInterruptsHeld {
            let directory = Self.directoryName(target)
            let base = Self.baseName(target)
            var template = FileSystemPath.bytes("\(directory)/.\(base).cdlog-XXXXXX")
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw ToolFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
            let temporary = template
            var done = false
            defer {
                close(fd)
                if !done { unlink(temporary) }
            }
            let sink = OutputSink(fd: fd, name: path)
            try body(sink)
            try sink.flush()
            guard fsync(fd) == 0 || errno == EINVAL else {
                throw ToolFailure("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            let mode = Self.status(target).map { $0.mode & 0o7777 } ?? (0o666 & ~Self.currentUmask())
            fchmod(fd, mode_t(mode))
            guard rename(temporary, FileSystemPath.bytes(target)) == 0 else {
                throw ToolFailure("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            done = true
        }
    }

    // MARK: - File identity

    private struct Status {
        var identity: [UInt64]
        var isRegular: Bool
        var mode: UInt32

        init(_ st: stat) {
            identity = [UInt64(st.st_dev), UInt64(st.st_ino)]
            isRegular = (st.st_mode & S_IFMT) == S_IFREG
            mode = UInt32(st.st_mode)
        }
    }

    private static func status(_ path: String) -> Status? {
        var st = stat()
        guard stat(FileSystemPath.bytes(path), &st) == 0 else { return nil }
        return Status(st)
    }

    private static func status(descriptor: Int32) -> Status? {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return nil }
        return Status(st)
    }

    /// `path` with every symlink resolved, also when the file (or the symlink's target) does not exist
    /// yet: the deepest existing folder is resolved and the rest appended.
    static func canonicalPath(_ path: String, depth: Int = 0) -> String {
        if let resolved = realpath(FileSystemPath.bytes(path), nil) {
            defer { free(resolved) }
            return FileSystemPath.decode(Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
        }
        var link = stat()
        if depth < 40, lstat(FileSystemPath.bytes(path), &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(FileSystemPath.bytes(path), &buffer, Int(PATH_MAX))
            if count > 0 {
                let destination = FileSystemPath.decode(buffer[0..<count].map { UInt8(bitPattern: $0) })
                let absolute = destination.hasPrefix("/") ? destination : directoryName(path) + "/" + destination
                return canonicalPath(absolute, depth: depth + 1)
            }
        }
        let parent = directoryName(path)
        let name = baseName(path)
        if name == "." || name == ".." || parent == path { return path }
        return canonicalPath(parent, depth: depth + 1) + (parent == "/" ? "" : "/") + name
    }

    private static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = path[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    private static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static func currentUmask() -> UInt32 {
        let mask = umask(0o022)
        umask(mask)
        return UInt32(mask)
    }

    private static func withInterruptsHeld<T>(_ body: () throws -> T) rethrows -> T {
        var held = sigset_t()
        var previous = sigset_t()
        sigemptyset(&held)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&held, signal) }
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }
}
