/// Builds JSON text with a fixed key order (output is deterministic and diff-friendly).
///
/// Contract: strings are escaped per RFC 8259; invalid UTF-8 never reaches here because Swift
/// `String`s are valid Unicode (callers decode bytes with replacement). Non-finite doubles are
/// written as `null`. The writer does not validate nesting; callers pair begin/end calls.
public struct JSONWriter {
    public private(set) var text: String = ""
    private var needsComma: [Bool] = [false]

    public init() {}

    private mutating func separator() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    public mutating func beginObject() { separator(); text += "{"; needsComma.append(false) }
    public mutating func endObject() { needsComma.removeLast(); text += "}" }
    public mutating func beginArray() { separator(); text += "["; needsComma.append(false) }
    public mutating func endArray() { needsComma.removeLast(); text += "]" }

    /// Writes `"name":` inside an object; the next value call writes the value.
    public mutating func key(_ name: String) {
        separator()
        JSONWriter.appendQuoted(name, to: &text)
        text += ":"
        needsComma[needsComma.count - 1] = false
    }

    public mutating func string(_ value: String?) {
        separator()
        if let value { JSONWriter.appendQuoted(value, to: &text) } else { text += "null" }
    }

    public mutating func int(_ value: Int?) {
        separator()
        if let value { text += String(value) } else { text += "null" }
    }

    public mutating func double(_ value: Double?) {
        separator()
        if let value, value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 { text += String(Int(value)) } else { text += String(value) }
        } else { text += "null" }
    }

    public mutating func bool(_ value: Bool?) {
        separator()
        if let value { text += value ? "true" : "false" } else { text += "null" }
    }

    public mutating func null() { separator(); text += "null" }

    /// Inserts already-serialised JSON as one value.
    public mutating func raw(_ json: String) { separator(); text += json }

    // Convenience members for `"key": value` pairs.
    public mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    public mutating func field(_ name: String, _ value: Int?) { key(name); int(value) }
    public mutating func field(_ name: String, _ value: Double?) { key(name); double(value) }
    public mutating func field(_ name: String, _ value: Bool?) { key(name); bool(value) }

    /// Appends `value` as a JSON string literal (with quotes) to `out`.
    public static func appendQuoted(_ value: String, to out: inout String) {
        out += "\""
        var pendingStart = value.utf8.startIndex
        let utf8 = value.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            let escape: String?
            switch byte {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x00..<0x20, 0x7F:
                let hex = String(byte, radix: 16)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escape = nil
            }
            if let escape {
                out += String(decoding: utf8[pendingStart..<index], as: UTF8.self)
                out += escape
                pendingStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        out += String(decoding: utf8[pendingStart..<utf8.endIndex], as: UTF8.self)
        out += "\""
    }

    /// `value` as a quoted JSON string literal.
    public static func quoted(_ value: String) -> String {
        var out = ""
        appendQuoted(value, to: &out)
        return out
    }
}
