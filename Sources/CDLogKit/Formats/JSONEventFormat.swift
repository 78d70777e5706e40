import CDLogCore
import CScan
/// `log show --style ndjson` (one object per line) and `--style json` (one array of objects, usually
/// pretty-printed over many lines): both are a stream of top-level event objects.
///
/// Contract: objects are found by tracking string state and nesting depth byte by byte, without
/// recursion, so any nesting depth is safe; an object's bytes are kept up to
/// `EntryLimits.maxMessageBytes` (beyond that the entry is marked truncated). Bytes outside objects
/// (`[`, `,`, whitespace, junk) are skipped. An object cut off by the end of input is still reported.
struct JSONEventSplitter {
    private var depth = 0
    private var inString = false
    private var escaped = false
    private(set) var object: [UInt8] = []
    private(set) var objectTruncated = false
    private(set) var startLine = 0
    /// Depth at which event objects live: 1 for ndjson, 2 inside a json array.
    private var eventDepth = 0

    var isInsideObject: Bool { eventDepth > 0 }

    /// True when no object, string or bracket is open: the next line starts afresh.
    var isAtTopLevel: Bool { depth == 0 && eventDepth == 0 && !inString && !escaped }

    /// Feeds one line; calls `emit` for every event object completed in it.
    /// An object that starts and ends within the line (every ndjson event) is handed out from the line
    /// itself, without a copy; `object` only collects objects spread over lines.
    mutating func feed(_ line: UnsafeRawBufferPointer, lineNumber: Int,
                       emit: (_ object: UnsafeBufferPointer<UInt8>, _ truncated: Bool, _ startLine: Int) throws -> Void) rethrows {
        var runStart = 0
        var startedInLine = false
        var index = 0
        let count = line.count
        while index < count {
            if inString && !escaped {
                // Skip the string's plain run at once (eight bytes a step) to its next quote or backslash.
                index += cscan_json_plain_prefix(line.baseAddress!.assumingMemoryBound(to: UInt8.self) + index, count - index)
                guard index < count else { break }
            }
            let byte = line[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                if eventDepth > 0 { inString = true }
            case UInt8(ascii: "{"):
                depth += 1
                if eventDepth == 0 {
                    eventDepth = depth
                    if !object.isEmpty { object.removeAll(keepingCapacity: true) }
                    objectTruncated = false
                    startLine = lineNumber
                    runStart = index
                    startedInLine = true
                }
            case UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth > 0 { depth -= 1 }
                if eventDepth > 0, depth < eventDepth, byte == UInt8(ascii: "}") {
                    eventDepth = 0
                    if startedInLine, index - runStart < EntryLimits.maxMessageBytes {
                        try emit(UnsafeBufferPointer(rebasing: line.assumingMemoryBound(to: UInt8.self)[runStart...index]), false, startLine)
                    } else {
                        append(UnsafeRawBufferPointer(rebasing: line[runStart...index]))
                        try object.withUnsafeBufferPointer { try emit($0, objectTruncated, startLine) }
                        object.removeAll(keepingCapacity: true)
                    }
                    startedInLine = false
                    runStart = index + 1
                }
            default: break
            }
            index += 1
        }
        if eventDepth > 0 {
            append(UnsafeRawBufferPointer(rebasing: line[min(runStart, count)..<count]))
            append(newline: ())
        }
    }

    /// At the end of input: an unfinished object is reported as it is.
    mutating func finish(emit: (_ object: UnsafeBufferPointer<UInt8>, _ truncated: Bool, _ startLine: Int) throws -> Void) rethrows {
        if eventDepth > 0 {
            eventDepth = 0
            if object.last == 0x0A { object.removeLast() }
            try object.withUnsafeBufferPointer { try emit($0, true, startLine) }
        }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let room = EntryLimits.maxMessageBytes - object.count
        if bytes.count <= room { object.append(contentsOf: bytes) } else {
            if room > 0 { object.append(contentsOf: bytes[bytes.startIndex..<(bytes.startIndex + room)]) }
            objectTruncated = true
        }
    }

    private mutating func append(newline: Void) {
        if object.count < EntryLimits.maxMessageBytes { object.append(0x0A) } else { objectTruncated = true }
    }
}

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

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
