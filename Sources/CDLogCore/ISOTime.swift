/// ISO 8601 (`2021-08-10T15:27:55.123456+08:00`, `…Z`, no zone = UTC) → seconds since 1970; nil otherwise.
public enum ISOTime {
    public static func seconds(_ text: String) -> Double? { parse(text)?.seconds }

    /// "2024-07-02 00:13:43.123-0700" (or with `T`, `+hh:mm`, `Z`, no fraction, no offset) → seconds since 1970
    /// and the offset printed (seconds east of UTC; nil when none): UTC when an offset is printed, else the
    /// clock as printed.
    public static func parse(_ text: String) -> (seconds: Double, offset: Int?)? {
        exact(text).map { (Double($0.seconds) + Double($0.nanoseconds) / 1e9, $0.offset) }
    }

    /// `text` (as `parse` reads it) → nanoseconds since 1970, exactly (to the ninth fraction digit); nil
    /// when it is not a timestamp or lies outside 1678–2261 (what 64 bits of nanoseconds hold).
    public static func nanoseconds(_ text: String) -> Int64? {
        guard let t = exact(text), t.seconds > -9_223_372_036, t.seconds < 9_223_372_036 else { return nil }
        return Int64(t.seconds) * 1_000_000_000 + Int64(t.nanoseconds)
    }

    /// Nanoseconds since 1970 → `2024-06-18T05:42:04.880212Z` (UTC; the fraction's trailing zeros left
    /// out, and the dot when it is 0).
    public static func utcText(nanoseconds: Int64) -> String {
        var seconds = nanoseconds / 1_000_000_000
        var nanos = nanoseconds % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        var clock = text(seconds: Double(seconds), offset: 0)  // "2024-06-18 05:42:04+0000"
        clock = String(clock.prefix(19)).replacingFirstSpace(with: "T")
        guard nanos > 0 else { return clock + "Z" }
        var digits = String(nanos)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return clock + "." + digits + "Z"
    }

    static func exact(_ text: String) -> (seconds: Int, nanoseconds: Int, offset: Int?)? {
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
        var nanoseconds = 0
        if i < u.count, u[i] == 46 {
            i += 1
            var scale = 100_000_000
            while i < u.count, u[i] >= 48, u[i] <= 57 { nanoseconds += Int(u[i] - 48) * scale; scale /= 10; i += 1 }
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
        return (days * 86400 + h * 3600 + mi * 60 + s - (offset ?? 0), nanoseconds, offset)
    }

    /// `seconds` since 1970 as "2024-07-02 08:14:03+0800", on the clock of `offset` (seconds east of UTC;
    /// whole seconds, rounded down). The form `log show --start/--end` accepts.
    public static func text(seconds: Double, offset: Int) -> String {
        let local = Int((seconds + Double(offset)).rounded(.down))
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let second = local - days * 86400
        // Civil from days (Howard Hinnant).
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day)) \(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))\(sign)\(two(minutes / 60))\(two(minutes % 60))"
    }
}

extension String {
    fileprivate func replacingFirstSpace(with replacement: Character) -> String {
        guard let index = firstIndex(of: " ") else { return self }
        var copy = self
        copy.replaceSubrange(index...index, with: String(replacement))
        return copy
    }
}
