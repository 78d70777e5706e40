import CDLogCore
import Foundation

/// Small text helpers shared by the crash readers (no regular expressions: reports can be large
/// and these run on every line).
public enum CrashText {
    /// `0x…` hexadecimal or decimal; nil otherwise.
    public static func parseInteger(_ text: some StringProtocol) -> UInt64? {
        let trimmed = trim(text)
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            return UInt64(trimmed.dropFirst(2), radix: 16)
        }
        return UInt64(trimmed)
    }

    /// The text without leading and trailing spaces, tabs and line breaks.
    public static func trim(_ text: some StringProtocol) -> Substring {
        var result = Substring(text)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }

    /// Lower-case `0x…` hex form of a code.
    public static func hex(_ value: UInt64) -> String {
        "0x" + String(value, radix: 16)
    }

    /// The first decimal number (with optional fraction) at or after `marker` in `text`.
    public static func number(after marker: String, in text: String) -> Double? {
        guard let range = text.range(of: marker) else { return nil }
        return leadingNumber(text[range.upperBound...])
    }

    public static func leadingNumber(_ text: Substring) -> Double? {
        var digits = ""
        var started = false
        for character in text {
            if character.isASCII, character.isNumber || (character == "." && started) {
                digits.append(character)
                started = true
            } else if character == "," && started {
                continue  // "2,000"
            } else if started || !(character == " " || character == "\t" || character == "(") {
                break
            }
        }
        return Double(digits)
    }

    /// The word (letters, digits, `-`, `_`) right after `marker`.
    public static func word(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let rest = text[range.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
        let word = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        return word.isEmpty ? nil : String(word)
    }

    /// Seconds from MetricKit duration strings: "20 secs", "2.5 sec", "20000 ms", "1 min".
    public static func seconds(_ text: String) -> Double? {
        guard let value = leadingNumber(Substring(text)) else { return nil }
        let lower = text.lowercased()
        if lower.contains("ms") { return value / 1000 }
        if lower.contains("min") { return value * 60 }
        if lower.contains("hour") || lower.hasSuffix(" h") { return value * 3600 }
        return value
    }

    /// Formats seconds without trailing zeros: 19.97, 20, 0.13.
    public static func formatSeconds(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        let scaled = (value * 1000).rounded()
        let magnitude = Int64(min(abs(scaled), 9e15))
        var fractionText = String(magnitude % 1000)
        while fractionText.count < 3 { fractionText = "0" + fractionText }
        var text = (scaled < 0 ? "-" : "") + String(magnitude / 1000) + "." + fractionText
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
