/// Byte sizes as every output of cdlog and walcheck prints them: "512 bytes", "1.5 KiB", "48.2 MiB",
/// "120 MiB", "4.00 GiB" (binary units; one decimal below 100 MiB, none from 100 MiB, two in GiB).
/// Deterministic: no locale, no Foundation formatter.
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String {
        let v = Double(max(0, bytes))
        if v < 1024 { return "\(Int64(v)) bytes" }
        if v < 1_048_576 { return decimal(v / 1024, places: 1) + " KiB" }
        if v < 1_073_741_824 {
            let m = v / 1_048_576
            return (m >= 100 ? decimal(m, places: 0) : decimal(m, places: 1)) + " MiB"
        }
        return decimal(v / 1_073_741_824, places: 2) + " GiB"
    }

    /// Fixed decimals, rounding half away from zero.
    public static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "?" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        var fraction = String(Int64(scaled) - whole * Int64(scale))
        while fraction.count < places { fraction = "0" + fraction }
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return places == 0 ? sign + String(whole) : sign + String(whole) + "." + fraction
    }
}
