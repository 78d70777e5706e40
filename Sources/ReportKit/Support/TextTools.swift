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

/// ISO 8601 (`2021-08-10T15:27:55.123456+08:00`, `…Z`, no zone = UTC) → seconds since 1970; nil otherwise.
enum ISOTime {
    static func seconds(_ text: String) -> Double? { parse(text)?.seconds }

    /// "2024-07-02 00:13:43.123-0700" (or with `T`, `+hh:mm`, `Z`, no fraction, no offset) → seconds since 1970
    /// and the offset printed (seconds east of UTC; nil when none): UTC when an offset is printed, else the
    /// clock as printed.
    static func parse(_ text: String) -> (seconds: Double, offset: Int?)? {
        let u = Array(text.utf8)
        guard u.count >= 19, u[4] == 45, u[7] == 45, u[10] == 84 || u[10] == 32, u[13] == 58, u[16] == 58 else { return nil }
        func num(_ a: Int, _ b: Int) -> Int? {
            var v = 0
            for i in a..<b { guard u[i] >= 48 && u[i] <= 57 else { return nil }; v = v * 10 + Int(u[i] - 48) }
            return v
        }
        guard let y = num(0, 4), let mo = num(5, 7), let d = num(8, 10), let h = num(11, 13), let mi = num(14, 16),
              let s = num(17, 19), (1...12).contains(mo), (1...31).contains(d) else { return nil }
        var i = 19
        var fraction = 0.0
        if i < u.count, u[i] == 46 {
            i += 1
            var scale = 0.1
            while i < u.count, u[i] >= 48, u[i] <= 57 { fraction += Double(u[i] - 48) * scale; scale /= 10; i += 1 }
        }
        var offset: Int?
        if i < u.count, u[i] == 90 { offset = 0 }  // "Z"
        if i < u.count, u[i] == 43 || u[i] == 45, u.count >= i + 5, let oh = num(i + 1, i + 3) {
            let minutesAt = u[i + 3] == 58 ? i + 4 : i + 3
            if u.count >= minutesAt + 2, let om = num(minutesAt, minutesAt + 2) {
                offset = (oh * 3600 + om * 60) * (u[i] == 45 ? -1 : 1)
            }
        }
        // Days from civil (Howard Hinnant).
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return (Double(days * 86400 + h * 3600 + mi * 60 + s - (offset ?? 0)) + fraction, offset)
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
