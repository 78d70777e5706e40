/// Normalises the timestamps the formats print to ISO 8601.
public enum Timestamps {
    /// `2021-08-10 15:27:55.123456+0800` → `2021-08-10T15:27:55.123456+08:00`; a time without a zone
    /// keeps none (`2021-08-10T15:27:55.123`); a time of day alone (`15:27:55.123456+0800`, Console.app)
    /// stays a time (`15:27:55.123456+08:00`). A value without a date or time shape is returned as given;
    /// month-day syslog stamps (`Jul  8 12:00:01`) have no year and become `--07-08T12:00:01`.
    public static func iso8601(_ raw: String) -> String {
        var text = Substring(raw.trimmingSpaces())
        if let syslog = syslogStamp(text) { return syslog }
        var result = ""
        let bytes = Array(text.utf8)
        if bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T") {
            result = String(decoding: bytes[0..<10], as: UTF8.self) + "T"
            text = Substring(String(decoding: bytes[11...], as: UTF8.self))
        }
        // text is now `HH:MM:SS[.fff][zone]`
        let timeBytes = Array(text.utf8)
        var i = 0
        while i < timeBytes.count, timeBytes[i] != UInt8(ascii: "+"), timeBytes[i] != UInt8(ascii: "-"),
              timeBytes[i] != UInt8(ascii: "Z"), timeBytes[i] != UInt8(ascii: " ") { i += 1 }
        result += String(decoding: timeBytes[0..<i], as: UTF8.self)
        var zone = Array(timeBytes[i...]).filter { $0 != UInt8(ascii: " ") }
        if zone.count == 5 {  // +0800
            zone.insert(UInt8(ascii: ":"), at: 3)
        }
        result += String(decoding: zone, as: UTF8.self)
        return result
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func syslogStamp(_ text: Substring) -> String? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, let month = months.firstIndex(of: String(parts[0])), let day = Int(parts[1]),
              (1...31).contains(day), parts[2].count == 8 else { return nil }
        let m = month + 1
        return "--\(m < 10 ? "0" : "")\(m)-\(day < 10 ? "0" : "")\(day)T\(parts[2])"
    }
}

extension String {
    /// Drops leading and trailing spaces, tabs and newlines.
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
