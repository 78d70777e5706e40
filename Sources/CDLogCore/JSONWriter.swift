import CScan

/// Builds JSON text with a fixed key order (output is deterministic and diff-friendly).
///
/// Contract: strings are escaped per RFC 8259; invalid UTF-8 never reaches here because Swift
/// `String`s are valid Unicode (callers decode bytes with replacement). Non-finite doubles are
/// written as `null`. The writer does not validate nesting; callers pair begin/end calls.
public struct JSONWriter {
    /// The UTF-8 text written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    public init() {}

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the writer, keeping its storage (one writer can serve many documents).
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
        needsComma.append(false)
    }

    private mutating func separator() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func append(_ literal: String) { bytes.append(contentsOf: literal.utf8) }

    public mutating func beginObject() { separator(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    public mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { separator(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    public mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// Writes `"name":` inside an object; the next value call writes the value.
    public mutating func key(_ name: String) {
        separator()
        JSONWriter.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    /// `key(_:)` for a key written in the source: its bytes are copied as they are (the caller
    /// guarantees they need no escaping), without going through a `String`.
    public mutating func key(constant name: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    /// Writes object members encoded beforehand (`"a":1,"b":"x"`, no leading or trailing comma), as if
    /// each had been written with `key` and a value call. For members that are the same in every object
    /// (a rule's verdict), encoded once instead of escaped again each time.
    public mutating func members(encoded fragment: UnsafeBufferPointer<UInt8>) {
        separator()
        bytes.append(contentsOf: fragment)
    }

    /// The text `members(encoded:)` takes for `pairs` (string values; nil is `null`).
    public static func encodeMembers(_ pairs: [(key: String, value: String?)]) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        for (key, value) in pairs { writer.field(key, value) }
        writer.endObject()
        return Array(writer.bytes.dropFirst().dropLast())
    }

    public mutating func string(_ value: String?) {
        separator()
        if let value { JSONWriter.appendQuoted(value, to: &bytes) } else { append("null") }
    }

    public mutating func int(_ value: Int?) {
        separator()
        if let value { JSONWriter.appendDecimal(value, to: &bytes) } else { append("null") }
    }

    public mutating func double(_ value: Double?) {
        separator()
        if let value, value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 { append(String(Int(value))) } else { append(String(value)) }
        } else { append("null") }
    }

    public mutating func bool(_ value: Bool?) {
        separator()
        if let value { append(value ? "true" : "false") } else { append("null") }
    }

    public mutating func null() { separator(); append("null") }

    /// Inserts already-serialised JSON as one value.
    public mutating func raw(_ json: String) { separator(); append(json) }

    // Convenience members for `"key": value` pairs.
    public mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    public mutating func field(_ name: String, _ value: Int?) { key(name); int(value) }
    public mutating func field(_ name: String, _ value: Double?) { key(name); double(value) }
    public mutating func field(_ name: String, _ value: Bool?) { key(name); bool(value) }

    /// Appends `value` as a JSON string literal (with quotes) to `out`: runs of bytes that need no
    /// escaping are found eight bytes at a time (`cscan_json_plain_prefix`) and copied whole.
    public static func appendQuoted(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            var index = 0
            while index < utf8.count {
                let plain = cscan_json_plain_prefix(base + index, utf8.count - index)
                out.append(contentsOf: UnsafeBufferPointer(start: base + index, count: plain))
                index += plain
                guard index < utf8.count else { break }
                let byte = utf8[index]
                index += 1
                // Byte by byte: an array literal here would be allocated for every escape, and Core
                // Data dumps escape a quote or a newline every few dozen bytes.
                out.append(0x5C)
                switch byte {
                case 0x22, 0x5C: out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(UInt8(ascii: "u"))
                    out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0"))
                    out.append(JSONWriter.hexDigit(byte >> 4))
                    out.append(JSONWriter.hexDigit(byte & 0xF))
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always) static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Appends the decimal digits of `value` (no `String` made): room for the digits first, then
    /// filled from the least significant end.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits = 1
        var rest = value.magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        out.withUnsafeMutableBufferPointer { buffer in
            var magnitude = value.magnitude
            for index in stride(from: buffer.count - 1, through: buffer.count - digits, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
        }
    }

    /// `value` as a quoted JSON string literal.
    public static func quoted(_ value: String) -> String {
        var out: [UInt8] = []
        appendQuoted(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
