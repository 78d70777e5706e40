import CArchive
import CDLogCore
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One member of an archive, or one entry of an extracted folder: its path relative to the top, as the
/// archive names it ("sysdiagnose_…/crashes_and_spins/MyApp-2024-….ips").
struct Member {
    enum Kind { case file, folder, link, other }
    var path: String
    var kind: Kind
    /// Bytes the member holds (a sparse member's logical size).
    var size: Int64
    /// Last modification, seconds since 1970 (nil when the archive does not say).
    var modified: Double?

    /// The path's components, or nil for a path that climbs out of its top (`..`) or starts at the root:
    /// such a member is never read (nothing is extracted either way, but a name like that is hostile).
    var safeComponents: [Substring]? {
        if path.hasPrefix("/") { return nil }
        let parts = path.split(separator: "/").filter { $0 != "." }
        return parts.contains("..") ? nil : parts
    }
}

/// Reads the current member's bytes, at most `limit` of them.
protocol MemberContent {
    /// The member's first `limit` bytes (all of them when it is smaller) and whether there were more.
    mutating func read(limit: Int) throws -> (bytes: [UInt8], more: Bool)
}

/// Walks the members of a sysdiagnose in one pass, handing each to `body` with a reader for its content;
/// a member whose content `body` does not read is skipped. Never writes, never follows a link.
protocol MemberWalk {
    /// A name for messages (the path given).
    var name: String { get }
    func forEach(_ body: (Member, inout any MemberContent) throws -> Void) throws
}

/// A tar archive (plain, gzip, bzip2, xz or zstd), streamed through libarchive: members are read in
/// archive order straight from the compressed stream; nothing touches the disk.
///
/// Contract: a truncated or corrupt archive, or one that expands beyond `expandedLimit` bytes, is a
/// `ToolFailure` naming the archive and the last member read; memory is libarchive's buffers plus what
/// the caller asks `read(limit:)` for.
struct TarWalk: MemberWalk {
    let name: String
    /// What a hostile archive may expand to before the walk gives up (a real sysdiagnose expands to 0.5–3 GB).
    var expandedLimit: Int64 = 32 << 30

    init(path: String) {
        name = path
    }

    /// True when `path` opens as a tar archive (compressed or not): its first member header reads.
    static func isTar(_ path: String) -> Bool {
        guard let archive = open(path) else { return false }
        defer { archive_read_free(archive) }
        var entry: OpaquePointer?
        return archive_read_next_header(archive, &entry) == ARCHIVE_OK
    }

    private static func open(_ path: String) -> OpaquePointer? {
        guard let archive = archive_read_new() else { return nil }
        // Only the filters a library in the process does: libarchive would run an external program for others.
        archive_read_support_filter_gzip(archive)
        archive_read_support_filter_bzip2(archive)
        archive_read_support_filter_xz(archive)
        archive_read_support_filter_zstd(archive)
        archive_read_support_format_tar(archive)
        guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
            archive_read_free(archive)
            return nil
        }
        return archive
    }

    private final class Content: MemberContent {
        let archive: OpaquePointer
        let name: String
        var consumed = false
        init(archive: OpaquePointer, name: String) {
            self.archive = archive
            self.name = name
        }
        func read(limit: Int) throws -> (bytes: [UInt8], more: Bool) {
            guard !consumed else { return ([], false) }
            consumed = true
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while bytes.count <= limit {
                let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                if count < 0 { throw ToolFailure("cannot read \(name): \(TarWalk.error(archive))") }
                if count == 0 { return (bytes, false) }
                bytes.append(contentsOf: chunk[0..<count])
            }
            return (Array(bytes.prefix(limit)), true)
        }
    }

    static func error(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unreadable archive"
    }

    func forEach(_ body: (Member, inout any MemberContent) throws -> Void) throws {
        guard let archive = archive_read_new() else { throw ToolFailure("cannot read \(name): out of memory") }
        defer { archive_read_free(archive) }
        archive_read_support_filter_gzip(archive)
        archive_read_support_filter_bzip2(archive)
        archive_read_support_filter_xz(archive)
        archive_read_support_filter_zstd(archive)
        archive_read_support_format_tar(archive)
        guard archive_read_open_filename(archive, name, 1 << 16) == ARCHIVE_OK else {
            throw ToolFailure("cannot read \(name): \(Self.error(archive))")
        }
        var last = "its first member"
        var expanded: Int64 = 0
        while true {
            var entry: OpaquePointer?
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { return }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw ToolFailure("cannot read \(name) after \(last): \(Self.error(archive)) (a truncated or damaged archive?)")
            }
            let path = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            let size = archive_entry_size(entry)
            let kind: Member.Kind
            // AE_IFREG, AE_IFDIR, AE_IFLNK (macros with casts, which Swift does not import).
            switch archive_entry_filetype(entry) {
            case 0o100000: kind = .file
            case 0o040000: kind = .folder
            case 0o120000: kind = .link
            default: kind = .other
            }
            let modified = archive_entry_mtime_is_set(entry) != 0
                ? Double(archive_entry_mtime(entry)) + Double(archive_entry_mtime_nsec(entry)) / 1e9 : nil
            expanded += max(0, size)
            if expanded > expandedLimit {
                throw ToolFailure("cannot read \(name): it expands to more than \(expandedLimit >> 30) GiB (not a sysdiagnose, or a hostile archive)")
            }
            let content = Content(archive: archive, name: name)
            var reader: any MemberContent = content
            try body(Member(path: path, kind: kind, size: size, modified: modified), &reader)
            if !content.consumed, archive_read_data_skip(archive) != ARCHIVE_OK {
                throw ToolFailure("cannot read \(name) in \(path): \(Self.error(archive)) (a truncated or damaged archive?)")
            }
            last = path
        }
    }
}

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
