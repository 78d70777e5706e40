/// One JSON string escape (RFC 8259 §7) decoded, for both JSON readers: the `log show --style ndjson`
/// event reader (`FlatJSONObject`) and the crash-report parser (`CrashJSON`). Each decides what a bad or
/// cut escape becomes (a replacement character, an error, the end of a lenient parse).
public enum JSONEscape {
    public enum Decoded: Equatable, Sendable {
        /// A one-byte escape (`\n`, `\"`, `\\`, `\/`, or an unknown letter kept as itself).
        case byte(UInt8, next: Int)
        /// A `\uXXXX` escape or a surrogate pair; a lone surrogate is U+FFFD.
        case scalar(Unicode.Scalar, next: Int)
        /// `\u` not followed by four hex digits; `next` is just after the `u`.
        case invalid(next: Int)
        /// The input ends inside the escape.
        case truncated
    }

    /// Decodes the escape whose backslash is at `at`, reading no byte at or after `end`.
    @inlinable @inline(__always)
    public static func decode<Bytes: RandomAccessCollection>(_ bytes: Bytes, at: Int, end: Int) -> Decoded
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard at + 1 < end else { return .truncated }
        let letter = bytes[at + 1]
        switch letter {
        case UInt8(ascii: "n"): return .byte(0x0A, next: at + 2)
        case UInt8(ascii: "t"): return .byte(0x09, next: at + 2)
        case UInt8(ascii: "r"): return .byte(0x0D, next: at + 2)
        case UInt8(ascii: "b"): return .byte(0x08, next: at + 2)
        case UInt8(ascii: "f"): return .byte(0x0C, next: at + 2)
        case UInt8(ascii: "u"):
            guard at + 6 <= end else { return .truncated }
            guard let unit = hex4(bytes, at + 2) else { return .invalid(next: at + 2) }
            let next = at + 6
            if (0xD800..<0xDC00).contains(unit) {
                if next + 6 <= end, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u"),
                   let low = hex4(bytes, next + 2), (0xDC00..<0xE000).contains(low) {
                    let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    return .scalar(Unicode.Scalar(value) ?? "\u{FFFD}", next: next + 6)
                }
                return .scalar("\u{FFFD}", next: next)
            }
            return .scalar(Unicode.Scalar(UInt32(unit)) ?? "\u{FFFD}", next: next)
        default:
            return .byte(letter, next: at + 2)
        }
    }

    @inlinable @inline(__always)
    public static func hex4<Bytes: RandomAccessCollection>(_ bytes: Bytes, _ at: Int) -> UInt16? where Bytes.Element == UInt8, Bytes.Index == Int {
        var value: UInt16 = 0
        for i in at..<(at + 4) {
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case 48...57: digit = b - 48
            case 65...70: digit = b - 55
            case 97...102: digit = b - 87
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
