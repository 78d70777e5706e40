import CDLogCore
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}

/// An extracted sysdiagnose folder, walked in name order; links are reported as links and never followed.
/// Member paths start with the folder's own name, as the archive's do ("sysdiagnose_…/crashes_and_spins/…").
struct FolderWalk: MemberWalk {
    let name: String
    /// Entries beyond this many are not walked (a folder that is not a sysdiagnose).
    var entryLimit = 200_000

    init(path: String) {
        name = path
    }

    /// The folder that holds the walked one: a member's file is `base + "/" + member.path`.
    var base: String { FolderWalk.split(name).base }

    static func split(_ path: String) -> (base: String, last: String) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", trimmed) }
        let base = String(trimmed[..<slash])
        return (base.isEmpty ? "/" : base, String(trimmed[trimmed.index(after: slash)...]))
    }

    private final class Content: MemberContent {
        let path: String
        init(path: String) { self.path = path }
        func read(limit: Int) throws -> (bytes: [UInt8], more: Bool) {
            let fd = open(FileSystemPath.bytes(path), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { throw ToolFailure("cannot open \(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: limit + 1)
            var filled = 0
            while filled <= limit {
                let count = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + filled, limit + 1 - filled) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ToolFailure("cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                filled += count
            }
            return (Array(bytes.prefix(min(filled, limit))), filled > limit)
        }
    }

    func forEach(_ body: (Member, inout any MemberContent) throws -> Void) throws {
        var seen = 0
        func walk(_ folder: String, _ relative: String) throws {
            guard let dir = opendir(FileSystemPath.bytes(folder)) else {
                throw ToolFailure("cannot read \(folder): \(String(cString: strerror(errno)))")
            }
            var names: [String] = []
            while let item = readdir(dir) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names.sorted() {
                seen += 1
                guard seen <= entryLimit else { throw ToolFailure("cannot read \(self.name): more than \(entryLimit) entries (not a sysdiagnose?)") }
                let path = folder + "/" + name
                let member = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(FileSystemPath.bytes(path), &info) == 0 else { continue }
                let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    var reader: any MemberContent = Content(path: path)
                    try body(Member(path: member, kind: .folder, size: 0, modified: modified), &reader)
                    try walk(path, member)
                case S_IFREG:
                    var reader: any MemberContent = Content(path: path)
                    try body(Member(path: member, kind: .file, size: Int64(info.st_size), modified: modified), &reader)
                case S_IFLNK:
                    var reader: any MemberContent = Content(path: path)
                    try body(Member(path: member, kind: .link, size: 0, modified: modified), &reader)
                default:
                    var reader: any MemberContent = Content(path: path)
                    try body(Member(path: member, kind: .other, size: 0, modified: modified), &reader)
                }
            }
        }
        var top = name
        while top.count > 1 && top.hasSuffix("/") { top.removeLast() }
        try walk(top, FolderWalk.split(name).last)
    }
}
