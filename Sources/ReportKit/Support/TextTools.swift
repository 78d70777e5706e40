import CDLogCore
import CDLogKit

/// Deterministic number and size formatting (no locale, no Foundation formatters).
public enum Format {
    /// `1234567` → "1,234,567"; non-integers with one decimal.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return grouped(Int64(value)) }
        return decimal(value, places: 1)
    }

    public static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    public static func grouped(_ value: Int) -> String { grouped(Int64(value)) }

    /// Fixed decimals, rounding half away from zero, without `String(format:)`.
    public static func decimal(_ value: Double, places: Int) -> String { ByteCount.decimal(value, places: places) }

    /// "48.2 MiB" — walcheck's wording (`ByteCount`).
    public static func bytes(_ value: Double) -> String { ByteCount.text(Int64(max(0, min(value, 9.2e18)))) }
}

/// `{condition.key}` placeholders in diagnosis statements.
enum Placeholders {
    static func names(in text: String) -> [String] {
        var names: [String] = []
        var current: String?
        for c in text {
            if c == "{" { current = "" } else if c == "}" {
                if let name = current { names.append(name) }
                current = nil
            } else if current != nil { current!.append(c) }
        }
        return names
    }

    /// Replaces every placeholder with `resolve(name)`; nil when any placeholder does not resolve.
    static func fill(_ text: String, _ resolve: (String) -> String?) -> String? {
        var out = ""
        var current: String?
        for c in text {
            if c == "{" { current = "" } else if c == "}", let name = current {
                guard let value = resolve(name) else { return nil }
                out += value
                current = nil
            } else if current != nil { current!.append(c) } else { out.append(c) }
        }
        return out
    }
}

extension PCRERegex {
    /// Replaces every match: `replacement` gets the matched text and the capture groups' texts and
    /// returns what to put in the matched range (or nil to keep it).
    func replacingMatches(in text: String, scratch: MatchScratch,
                          _ replacement: (_ match: String, _ groups: [String?]) -> String?) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start <= raw.count, let ranges = firstMatch(in: raw, from: start, scratch: scratch), let whole = ranges[0] {
                let groups = ranges.dropFirst().map { $0.map { String(decoding: bytes[$0], as: UTF8.self) } }
                let matched = String(decoding: bytes[whole], as: UTF8.self)
                if let replaced = replacement(matched, Array(groups)) {
                    out.append(contentsOf: bytes[position..<whole.lowerBound])
                    out.append(contentsOf: replaced.utf8)
                    position = whole.upperBound
                }
                start = whole.isEmpty ? whole.upperBound + 1 : whole.upperBound
            }
        }
        if position == 0 && out.isEmpty { return text }
        out.append(contentsOf: bytes[position...])
        return String(decoding: out, as: UTF8.self)
    }
}


extension String {
    /// Where the first line ends: the first line feed, or `endIndex`. Found in the contiguous UTF-8 bytes,
    /// not index by index through the view.
    var firstLineFeed: String.Index {
        var copy = self  // shares the storage; withUTF8 only copies a bridged or non-contiguous string
        let offset = copy.withUTF8 { $0.firstIndex(of: 0x0A) }
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) } ?? endIndex
    }

    /// The first line, cut at `limit` characters with "…".
    func firstLine(limit: Int) -> String {
        // Measured on the UTF-8 view first: counting Characters of a long message is grapheme work.
        let line = self[..<firstLineFeed]
        if line.utf8.count <= limit { return String(line) }
        if let head = line.asciiHead(limit) { return String(head) + "…" }
        return line.count > limit ? String(line.prefix(limit)) + "…" : String(line)
    }

    func cut(_ limit: Int) -> String {
        if utf8.count <= limit { return self }
        return count > limit ? String(prefix(limit)) + "…" : self
    }
}

extension Substring {
    /// The first `limit` characters when the first `limit + 1` bytes are ASCII (then they are exactly the
    /// first `limit` characters, and there are more: an ASCII byte followed by an ASCII byte always ends a
    /// character, a line feed aside, which a first line does not hold); nil otherwise. It spares counting a
    /// long line's Characters grapheme by grapheme.
    func asciiHead(_ limit: Int) -> Substring? {
        guard utf8.count > limit else { return nil }
        let ascii = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for i in 0...limit where bytes[i] >= 0x80 || bytes[i] == 0x0A { return false }
            return true
        }
        guard ascii == true else { return nil }
        return self[..<utf8.index(startIndex, offsetBy: limit)]
    }
}
