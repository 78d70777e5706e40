import CDLogCore
/// Normalises the timestamps the formats print to ISO 8601.
public enum Timestamps {
    /// `2021-08-10 15:27:55.123456+0800` → `2021-08-10T15:27:55.123456+08:00`; a time without a zone
    /// keeps none (`2021-08-10T15:27:55.123`); a time of day alone (`15:27:55.123456+0800`, Console.app)
    /// stays a time (`15:27:55.123456+08:00`). A value without a date or time shape is returned as given;
    /// month-day syslog stamps (`Jul  8 12:00:01`) have no year and become `--07-08T12:00:01`.
    public static func iso8601(_ raw: String) -> String {
        var raw = raw
        return raw.withUTF8 { iso8601(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `iso8601` on UTF-8 bytes (a header's timestamp range): one pass of byte work into the new
    /// string's own storage, no intermediate arrays (it runs for every reported entry).
    public static func iso8601(bytes input: UnsafeRawBufferPointer) -> String {
        var lower = 0, upper = input.count
        while lower < upper, ByteClass.isBlankOrLineBreak(input[lower]) { lower += 1 }
        while upper > lower, ByteClass.isBlankOrLineBreak(input[upper - 1]) { upper -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: input[lower..<upper])
        if let syslog = syslogStamp(text) { return syslog }
        if let local = localeStamp(text) { return local }
        // At most one byte longer than the input: `+0800` gains a colon; `T` replaces a space.
        return String(unsafeUninitializedCapacity: text.count + 1) { out in
            var written = 0
            var index = 0
            if text.count >= 19, text[4] == UInt8(ascii: "-"), text[10] == UInt8(ascii: " ") || text[10] == UInt8(ascii: "T") {
                for i in 0..<10 { out[i] = text[i] }
                out[10] = UInt8(ascii: "T")
                written = 11
                index = 11
            }
            // Now `HH:MM:SS[.fff][zone]`.
            while index < text.count {
                let b = text[index]
                if b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: "Z") || b == UInt8(ascii: " ") { break }
                out[written] = b
                written += 1
                index += 1
            }
            // The zone, spaces dropped; `+0800` → `+08:00`.
            let zoneStart = written
            for b in text[index...] where b != UInt8(ascii: " ") {
                out[written] = b
                written += 1
            }
            if written - zoneStart == 5 {
                out[written] = out[written - 1]
                out[written - 1] = out[written - 2]
                out[written - 2] = UInt8(ascii: ":")
                written += 1
            }
            return written
        }
    }


    /// An old Console.app stamp in the Mac's locale (`TimestampedFormat`): `8/4/15 11:54:15.460 AM` →
    /// `2015-08-04T11:54:15.460`, `27.02.12 19:19:49,064` → `2012-02-27T19:19:49.064`. Dotted dates are
    /// day first; slashed ones are month first with `AM`/`PM` (the US form) and day first without (the
    /// 24-hour locales), unless the first number cannot be a month. Two-digit years are 2000 + YY.
    static func localeStamp(_ text: UnsafeRawBufferPointer) -> String? {
        guard let end = TimestampedFormat.localeDateTime(text), end == text.count else { return nil }
        var fields: [Int] = []
        var i = 0
        for _ in 0..<3 {
            var value = 0
            while i < text.count, ByteScan.isDigit(text[i]) { value = value * 10 + Int(text[i] - 48); i += 1 }
            fields.append(value)
            i += 1
        }
        while i < text.count, text[i] == 32 { i += 1 }
        let timeStart = i
        guard let timeEnd = TimestampedFormat.timeOfDay(text, at: timeStart) else { return nil }
        var hour = 0
        while i < text.count, ByteScan.isDigit(text[i]) { hour = hour * 10 + Int(text[i] - 48); i += 1 }
        let meridiem: UInt8? = timeEnd + 2 < text.count ? text[timeEnd + 1] | 0x20 : nil
        let dotted = text.first { !ByteScan.isDigit($0) } == UInt8(ascii: ".")
        var (day, month) = dotted || meridiem == nil ? (fields[0], fields[1]) : (fields[1], fields[0])
        if month > 12, day <= 12 { swap(&day, &month) }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 23 else { return nil }
        if meridiem == UInt8(ascii: "p"), hour < 12 { hour += 12 }
        if meridiem == UInt8(ascii: "a"), hour == 12 { hour = 0 }
        let year = fields[2] < 100 ? 2000 + fields[2] : fields[2]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        // The minutes, seconds and fraction as printed (a decimal comma becomes a point).
        let clock = String(decoding: text[timeStart..<timeEnd], as: UTF8.self)
        let rest = clock.drop { $0 != ":" }.replacingOccurrences(of: ",", with: ".")
        return "\(year)-\(two(month))-\(two(day))T\(two(hour))\(rest)"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }

    /// `Mmm d HH:MM:SS` (space-separated, any number of spaces) → `--MM-DDTHH:MM:SS`.
    private static func syslogStamp(_ text: UnsafeRawBufferPointer) -> String? {
        guard let first = text.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return nil }
        var parts: [Range<Int>] = []
        var index = 0
        while index < text.count {
            while index < text.count, text[index] == UInt8(ascii: " ") { index += 1 }
            let start = index
            while index < text.count, text[index] != UInt8(ascii: " ") { index += 1 }
            if index > start { parts.append(start..<index) }
            if parts.count > 3 { return nil }
        }
        guard parts.count == 3, let month = months.firstIndex(where: { $0.elementsEqual(text[parts[0]]) }),
              parts[1].count <= 2, text[parts[1]].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              parts[2].count == 8 else { return nil }
        let day = text[parts[1]].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard (1...31).contains(day) else { return nil }
        let m = month + 1
        return "--\(m < 10 ? "0" : "")\(m)-\(day < 10 ? "0" : "")\(day)T" + String(decoding: text[parts[2]], as: UTF8.self)
    }
}
