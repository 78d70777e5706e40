#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// File names are bytes (on Linux, any bytes but `/` and NUL); Swift strings are Unicode. A name that is
/// not valid UTF-8 is shown with each invalid byte as `\xNN`, and each such path component is remembered,
/// so that the file system is always handed the original bytes: `bytes(_:)` maps a shown path back,
/// wherever the component stands (a store's `-wal` beside it, a temporary file named after it).
///
/// Contract: a path without a backslash goes through unchanged at the cost of one scan; thread-safe.
public enum FileSystemPath {
    private final class Table: @unchecked Sendable {
        /// Shown component → its bytes, longest shown first.
        var components: [(shown: [UInt8], raw: [UInt8])] = []
        let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
            let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            pthread_mutex_init(m, nil)
            return m
        }()
        func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }
    }

    private static let table = Table()

    /// The command line's arguments (without the program), each decoded by `decode`.
    public static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            return decode(UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) })
        }
    }

    /// `raw` (a path or a name) as a string: itself when valid UTF-8; otherwise with invalid bytes as
    /// `\xNN`, its components remembered.
    public static func decode(_ raw: [UInt8]) -> String {
        guard escapingInvalidUTF8(raw) != nil else { return String(decoding: raw, as: UTF8.self) }
        var shown: [String] = []
        for component in raw.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let bytes = Array(component)
            if let escaped = escapingInvalidUTF8(bytes) {
                register(shown: Array(escaped.utf8), raw: bytes)
                shown.append(escaped)
            } else {
                shown.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return shown.joined(separator: "/")
    }

    private static func register(shown: [UInt8], raw: [UInt8]) {
        table.locked {
            guard !table.components.contains(where: { $0.shown == shown }) else { return }
            table.components.append((shown, raw))
            table.components.sort { $0.shown.count > $1.shown.count }
        }
    }

    /// The bytes to hand the file system for `path` (NUL-terminated, for the C calls).
    public static func bytes(_ path: String) -> [CChar] {
        var out = rawBytes(path)
        out.append(0)
        return out.map { CChar(bitPattern: $0) }
    }

    /// The bytes of `path` (no NUL), every remembered component in its original bytes.
    public static func rawBytes(_ path: String) -> [UInt8] {
        let utf8 = Array(path.utf8)
        guard utf8.contains(UInt8(ascii: "\\")) else { return utf8 }
        return table.locked {
            var out = utf8
            for (shown, raw) in table.components {
                var result: [UInt8] = []
                var i = 0
                var replaced = false
                while i < out.count {
                    if out[i] == shown[0], i + shown.count <= out.count, out[i..<(i + shown.count)].elementsEqual(shown) {
                        result += raw
                        i += shown.count
                        replaced = true
                    } else {
                        result.append(out[i])
                        i += 1
                    }
                }
                if replaced { out = result }
            }
            return out
        }
    }

    /// nil when `raw` is valid UTF-8; otherwise the text with every byte that is not part of a valid
    /// sequence written `\xNN`.
    static func escapingInvalidUTF8(_ raw: [UInt8]) -> String? {
        var out: [UInt8] = []
        var i = 0
        var invalid = false
        while i < raw.count {
            let length = validSequenceLength(raw, at: i)
            if length == 0 {
                invalid = true
                let hex = Array(String(raw[i], radix: 16, uppercase: true).utf8)
                out += Array("\\x".utf8) + (hex.count == 1 ? [UInt8(ascii: "0")] : []) + hex
                i += 1
            } else {
                out += raw[i..<(i + length)]
                i += length
            }
        }
        return invalid ? String(decoding: out, as: UTF8.self) : nil
    }

    /// The length of the valid UTF-8 sequence at `i`, or 0.
    private static func validSequenceLength(_ b: [UInt8], at i: Int) -> Int {
        let lead = b[i]
        func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool { i + k < b.count && range.contains(b[i + k]) }
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : 0
        case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
        case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default: return 0
        }
    }
}

/// Names in a directory (without "." and ".."), sorted; names that are not valid UTF-8 are decoded by
/// `FileSystemPath.decode`, so they can be opened again. Throws `ToolFailure` when unreadable.
public func directoryEntries(_ path: String) throws -> [String] {
    guard let dir = opendir(FileSystemPath.bytes(path)) else {
        throw ToolFailure("cannot list \(path): \(String(cString: strerror(errno)))")
    }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: UInt8.self, capacity: 256) {
                FileSystemPath.decode(Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)))))
            }
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}
