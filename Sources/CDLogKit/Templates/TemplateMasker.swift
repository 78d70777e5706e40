import CDLogCore
import CScan
import Foundation

/// Masks the variable parts of a line (e-mail addresses, UUIDs, URLs, paths, record names, addresses, long
/// hex runs, numbers) so that lines of one kind share a template: findings' fingerprints and the report's timeline
/// fold by rule and template, and the report's appendix groups unclassified lines by template.
///
/// The regex is the reference. A one-pass byte scanner gives the same output for text with no `@`, `://`
/// or `Name=` (which only the e-mail, URL and record alternatives need), and can feed a hash instead of a
/// string, so that a folding key costs no allocation. `TemplateMaskerTests` holds the scanner and the
/// folding key to the regex.
public final class TemplateMasker {
    private let regex: PCRERegex
    private let scratch = MatchScratch()
    static let kinds = ["email", "uuid", "url", "path", "record", "addr", "hex", "n"]

    public init() {
        regex = try! PCRERegex(
            #"(?<email>[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})"#
            + #"|(?<uuid>\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b)"#
            + #"|(?<url>\b(?:file|https?|x-coredata)://(?:[^\s"'<>,;)}\]]|\x20(?=Support/))*)"#
            + #"|(?<path>(?<![\w.])/(?:[^\s/"'<>,;:)}\]]|\x20(?=Support/))+(?:/(?:[^\s"'<>,;:)}\]/]|\x20(?=Support/))*)+)"#
            + #"|(?:recordName=|ownerName=)(?<record>[^,;>\s"]+)"#
            + #"|(?<addr>\b0x[0-9A-Fa-f]+\b)"#
            + #"|(?<hex>\b[0-9A-Fa-f]{16,}\b)"#
            + #"|(?<n>(?<![A-Za-z_\d])\d+(?:\.\d+)?)"#)
    }

    public func mask(_ text: String) -> String {
        Self.maskWithoutRegex(text) ?? maskWithRegex(text)
    }

    /// The reference: the regex above, for every text.
    func maskWithRegex(_ text: String) -> String {
        regex.replacingMatches(in: text, scratch: scratch) { match, groups in
            for (index, kind) in Self.kinds.enumerated() where index < groups.count && groups[index] != nil {
                if kind == "record" { return match.replacingOccurrences(of: groups[index]!, with: "<record>") }
                return "<\(kind)>"
            }
            return nil
        }
    }

    /// The regex's output by the byte scanner, or nil for text the scanner leaves to the regex.
    static func maskWithoutRegex(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var out = MaskedBytes()
            guard scan(bytes, into: &out) else { return nil }
            return String(decoding: out.bytes, as: UTF8.self)
        }
    }

    /// The template key of a message: `TemplateHash` of the first `limit` bytes of its first line masked
    /// (the line read up to `maxLineBytes`). Masked first, then cut, so that a variable part of another
    /// length (a longer path, a bigger number) does not move the cut. The scanner in C takes what it can
    /// without building a string (`hashWithoutRegex`); the rest goes through the regex.
    public func foldingKey(ofFirstLineOf message: String, limit: Int) -> UInt64 {
        var message = message
        return message.withUTF8 { all -> UInt64 in
            guard let base = all.baseAddress else { return TemplateHash().value }
            let scanned = min(all.count, Self.maxLineBytes)
            let end = memchr(base, 0x0A, scanned).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? scanned
            let line = UnsafeBufferPointer(rebasing: all[..<end])
            if let key = Self.hashWithoutRegex(line, limit: limit) { return key }
            var masked = mask(String(decoding: line, as: UTF8.self))
            return masked.withUTF8 { bytes in
                var hash = TemplateHash()
                hash.keep(UnsafeBufferPointer(rebasing: bytes.prefix(limit)))
                return hash.value
            }
        }
    }

    /// How much of a first line is masked for its key: past this, a line's variable parts no longer count.
    public static let maxLineBytes = 1 << 16

    /// `TemplateHash` of the first `limit` bytes of `u` masked, or nil when the regex must decide (`scan`
    /// returns false): the scanner in C (`cscan_template_hash`), which builds nothing and stops at the limit.
    /// `TemplateMaskerTests` holds it to `scan`.
    public static func hashWithoutRegex(_ u: UnsafeBufferPointer<UInt8>, limit: Int = .max) -> UInt64? {
        guard let base = u.baseAddress else { return TemplateHash().value }
        var hash: UInt64 = 0
        return cscan_template_hash(base, u.count, limit, &hash) == 1 ? hash : nil
    }

    /// Masks `u` into `sink` and returns true, or returns false (the sink then holds a part) when `u` holds
    /// `@`, `://` or `Name=`, so that an e-mail address, a URL or a record name could match.
    ///
    /// The regex is compiled without PCRE2_UCP, so `\w`, `\d`, `\b` and `\s` are ASCII and every byte of a
    /// multi-byte character is a non-word character that no class here excludes. Every alternative the
    /// scanner does wants a non-word byte (or the start) before it, so it looks only at word starts and
    /// slashes: the rest of a word is skipped.
    static func scan<Sink: MaskSink>(_ u: UnsafeBufferPointer<UInt8>, into sink: inout Sink) -> Bool {
        let n = u.count
        guard let base = u.baseAddress else {
            sink.keep(u)
            return true
        }
        /// Each place of `byte` (found by memchr, not byte by byte).
        func anyPlace(of byte: UInt8, where test: (Int) -> Bool) -> Bool {
            var from = 0
            while from < n, let hit = memchr(base + from, Int32(byte), n - from) {
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if test(at) { return true }
                from = at + 1
            }
            return false
        }
        if memchr(base, 0x40, n) != nil  // @
            || anyPlace(of: 0x3A, where: { $0 + 2 < n && u[$0 + 1] == 0x2F && u[$0 + 2] == 0x2F })  // ://
            || anyPlace(of: 0x3D, where: { $0 >= 4 && u[$0 - 4] == 0x4E && u[$0 - 3] == 0x61 && u[$0 - 2] == 0x6D && u[$0 - 1] == 0x65 })  // Name=
        { return false }
        return MaskByteClass.table.withUnsafeBufferPointer { table -> Bool in
            @inline(__always) func has(_ j: Int, _ bit: UInt8) -> Bool { table[Int(u[j])] & bit != 0 }
            /// The end of a run of hex digits from `from`.
            @inline(__always) func hexEnd(_ from: Int) -> Int {
                var j = from
                while j < n, has(j, MaskByteClass.hex) { j += 1 }
                return j
            }
            /// A word boundary before `at` (the end, or a non-word byte), after a word byte.
            @inline(__always) func boundary(_ at: Int) -> Bool { at >= n || !has(at, MaskByteClass.word) }
            /// 8-4-4-4-12 hex digits from `from`, then a boundary: the dashes first, the cheapest way out.
            func uuidEnd(_ from: Int) -> Int? {
                guard from + 36 <= n, u[from + 8] == 0x2D, u[from + 13] == 0x2D, u[from + 18] == 0x2D, u[from + 23] == 0x2D else { return nil }
                for j in from..<(from + 36) where j != from + 8 && j != from + 13 && j != from + 18 && j != from + 23 {
                    guard has(j, MaskByteClass.hex) else { return nil }
                }
                return boundary(from + 36) ? from + 36 : nil
            }
            /// A byte a path segment may hold (the class `[^\s/"'<>,;:)}\]]`), or a space before `Support/`.
            @inline(__always) func segmentByte(_ j: Int) -> Bool {
                if u[j] == 0x20 {
                    return j + 8 < n && u[j + 1] == 0x53 && u[j + 2] == 0x75 && u[j + 3] == 0x70 && u[j + 4] == 0x70
                        && u[j + 5] == 0x6F && u[j + 6] == 0x72 && u[j + 7] == 0x74 && u[j + 8] == 0x2F
                }
                return !has(j, MaskByteClass.segmentStop)
            }
            /// A path from the slash at `from`: a segment, then at least one more slash.
            func pathEnd(_ from: Int) -> Int? {
                var j = from + 1
                while j < n, segmentByte(j) { j += 1 }
                guard j > from + 1, j < n, u[j] == 0x2F else { return nil }
                while j < n, u[j] == 0x2F {
                    j += 1
                    while j < n, segmentByte(j) { j += 1 }
                }
                return j
            }
            /// The alternative that matches at `i` (not after a word byte): its end and placeholder.
            func match(_ i: Int) -> (end: Int, kind: StaticString)? {
                let b = u[i]
                if has(i, MaskByteClass.hex) {
                    if let end = uuidEnd(i) { return (end, "<uuid>") }
                    if b == 0x30, i + 1 < n, u[i + 1] == 0x78 {
                        let end = hexEnd(i + 2)
                        if end > i + 2, boundary(end) { return (end, "<addr>") }
                    }
                    let end = hexEnd(i)
                    if end - i >= 16, boundary(end) { return (end, "<hex>") }
                    if has(i, MaskByteClass.digit) {
                        var j = i + 1
                        while j < n, has(j, MaskByteClass.digit) { j += 1 }
                        if j + 1 < n, u[j] == 0x2E, has(j + 1, MaskByteClass.digit) {
                            j += 2
                            while j < n, has(j, MaskByteClass.digit) { j += 1 }
                        }
                        return (j, "<n>")
                    }
                } else if b == 0x2F, i == 0 || u[i - 1] != 0x2E, let end = pathEnd(i) {
                    return (end, "<path>")
                }
                return nil
            }
            var copied = 0
            var i = 0
            var wordBefore = false
            while i < n {
                if !wordBefore, let (end, kind) = match(i) {
                    sink.keep(UnsafeBufferPointer(rebasing: u[copied..<i]))
                    sink.placeholder(kind)
                    copied = end
                    i = end
                    wordBefore = has(end - 1, MaskByteClass.word)
                } else if has(i, MaskByteClass.word) {
                    // Inside a word nothing can start.
                    i += 1
                    while i < n, has(i, MaskByteClass.word) { i += 1 }
                    wordBefore = true
                } else {
                    i += 1
                    wordBefore = false
                }
            }
            sink.keep(UnsafeBufferPointer(rebasing: u[copied..<n]))
            return true
        }
    }
}

/// A masked text's bytes.
struct MaskedBytes: MaskSink {
    var bytes: [UInt8] = []
    mutating func keep(_ part: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: part) }
    mutating func placeholder(_ kind: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: kind.utf8Start, count: kind.utf8CodeUnitCount))
    }
}

/// The scanner's byte classes (ASCII only: a byte of a multi-byte character is in none).
enum MaskByteClass {
    static let word: UInt8 = 1  // [A-Za-z0-9_]
    static let hex: UInt8 = 2  // [0-9A-Fa-f]
    static let digit: UInt8 = 4  // [0-9]
    static let segmentStop: UInt8 = 8  // what ends a path segment: \s (but space, handled apart) / " ' < > , ; : ) } ]

    static let table: [UInt8] = (0...255).map { (value: Int) -> UInt8 in
        let b = UInt8(value)
        var bits: UInt8 = 0
        let digit = b >= 0x30 && b <= 0x39
        if digit || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F { bits |= word }
        if digit || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) { bits |= hex }
        if digit { bits |= MaskByteClass.digit }
        if [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x2F, 0x22, 0x27, 0x3C, 0x3E, 0x2C, 0x3B, 0x3A, 0x29, 0x7D, 0x5D].contains(b) { bits |= segmentStop }
        return bits
    }
}
