import CDLogCore

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
