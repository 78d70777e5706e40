import CArchive
import CDLogCore

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
