import CDLogCore
import CScan
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Reads the top-level members of one JSON object without building a tree.
///
/// Contract: `Members` reports each top-level member as byte ranges (no allocation): the key's raw bytes
/// and the value's range — inside the quotes for strings (still escaped; `unescape` decodes), the text
/// for numbers, `true`/`false`/`null`. Nested objects and arrays are skipped iteratively. Malformed
/// input ends the scan early with what was read (an unterminated string runs to the end); it never traps.
enum FlatJSONObject {
    /// How a scan ended.
    struct End {
        /// The index just after the object's closing `}`; nil when the scan ended before it.
        var afterObject: Int?
        /// True when no bare value (number, `true`, junk) held a quote or a bracket. Strings and nested
        /// values are delimited as `JSONEventSplitter` delimits them (it tracks only strings and bracket
        /// depth), so the splitter would then have found the same closing `}`.
        var splitterAgrees = true
    }

    /// The top-level members of one object, one by one (`cscan_json_next_member`, in C: it runs for
    /// every member of every event); `end` says how the scan ended once `next` returned nil.
    struct Members {
        let bytes: UnsafeBufferPointer<UInt8>
        private var cursor = cscan_json_cursor(position: 0, started: 0, after_object: -1, splitter_agrees: 1)
        private var member = cscan_json_member()

        init(of bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// The next member: the key's raw bytes, the value's range (inside the quotes for strings).
        @inline(__always)
        mutating func next() -> (key: UnsafeBufferPointer<UInt8>, value: Range<Int>, isString: Bool)? {
            guard let base = bytes.baseAddress, cscan_json_next_member(base, bytes.count, &cursor, &member) != 0 else { return nil }
            return (UnsafeBufferPointer(start: base + member.key_start, count: member.key_end - member.key_start),
                    member.value_start..<member.value_end, member.is_string != 0)
        }

        var end: End {
            End(afterObject: cursor.after_object >= 0 ? cursor.after_object : nil, splitterAgrees: cursor.splitter_agrees != 0)
        }
    }

    /// Whether a key's raw bytes are `name` (memcmp: the generic `elementsEqual` against a `String`'s
    /// UTF-8 view cost more than the rest of the ndjson path together).
    @inline(__always)
    static func key(_ key: UnsafeBufferPointer<UInt8>, is name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount, let base = key.baseAddress else { return false }
        return memcmp(base, name.utf8Start, key.count) == 0
    }

    /// Appends the unescaped form of the string contents `bytes[range]` to `out` (`\n`, `\"`, `\uXXXX`
    /// with surrogate pairs; bad escapes become U+FFFD). Stops after `limit` output bytes.
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: ByteStore, limit: Int = Int.max) {
        guard let base = bytes.baseAddress else { return }
        var i = range.lowerBound
        let n = range.upperBound
        while i < n, out.count < limit {
            let b = bytes[i]
            if b != UInt8(ascii: "\\") {
                // Copy the run up to the next backslash in one go (found with memchr).
                let j = memchr(base + i + 1, 0x5C, n - i - 1).map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? n
                out.append(bytes[i..<(limit - out.count >= j - i ? j : i + (limit - out.count))])
                i = j
                continue
            }
            switch JSONEscape.decode(bytes, at: i, end: n) {
            case .truncated where i + 1 >= n: return
            case .truncated, .invalid:
                out.append(replacement)
                i += 2
            case .byte(let byte, let next):
                out.append(byte)
                i = next
            case .scalar(let scalar, let next):
                var encoded: [UInt8] = []
                UTF8.encode(scalar) { encoded.append($0) }
                out.append(encoded)
                i = next
            }
        }
    }

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
}
