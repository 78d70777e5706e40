import CScan

/// Builds JSON text with a fixed key order (output is deterministic and diff-friendly).
///
/// Contract: strings are escaped per RFC 8259; invalid UTF-8 never reaches here because Swift
/// `String`s are valid Unicode (callers decode bytes with replacement). Non-finite doubles are
/// written as `null`. The writer does not validate nesting; callers pair begin/end calls.
public struct JSONWriter {
    /// The text's bytes in memory of their own: each call writes with plain stores after one check that
    /// the storage is not shared (copy on write), where an array would check uniqueness and capacity
    /// for every byte appended.
    private final class Storage {
        var base: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = max(16, capacity)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        func copy() -> Storage {
            let copy = Storage(capacity: capacity)
            copy.base.initialize(from: base, count: count)
            copy.count = count
            return copy
        }

        /// Room for `extra` more bytes (capacity at least doubles when it grows).
        @inline(__always) func reserve(_ extra: Int) {
            if capacity - count < extra { grow(count + extra) }
        }

        private func grow(_ needed: Int) {
            let newCapacity = max(needed, capacity * 2)
            let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBase.initialize(from: base, count: count)
            base.deallocate()
            base = newBase
            capacity = newCapacity
        }

        @inline(__always) func append(_ byte: UInt8) {
            reserve(1)
            base[count] = byte
            count &+= 1
        }

        @inline(__always) func append(_ bytes: UnsafePointer<UInt8>, count n: Int) {
            reserve(n)
            (base + count).update(from: bytes, count: n)
            count &+= n
        }

        @inline(__always) func append(_ literal: StaticString) {
            append(literal.utf8Start, count: literal.utf8CodeUnitCount)
        }

        /// `utf8` as a JSON string literal (with quotes): runs of bytes that need no escaping are found
        /// eight bytes at a time (`cscan_json_plain_prefix`) and copied whole.
        func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
            append(UInt8(ascii: "\""))
            if let source = utf8.baseAddress {
                var index = 0
                while index < utf8.count {
                    let plain = cscan_json_plain_prefix(source + index, utf8.count - index)
                    append(source + index, count: plain)
                    index += plain
                    guard index < utf8.count else { break }
                    let byte = source[index]
                    index += 1
                    reserve(6)
                    base[count] = 0x5C
                    switch byte {
                    case 0x22, 0x5C: base[count + 1] = byte; count += 2
                    case 0x0A: base[count + 1] = UInt8(ascii: "n"); count += 2
                    case 0x0D: base[count + 1] = UInt8(ascii: "r"); count += 2
                    case 0x09: base[count + 1] = UInt8(ascii: "t"); count += 2
                    default:
                        base[count + 1] = UInt8(ascii: "u")
                        base[count + 2] = UInt8(ascii: "0")
                        base[count + 3] = UInt8(ascii: "0")
                        base[count + 4] = JSONWriter.hexDigit(byte >> 4)
                        base[count + 5] = JSONWriter.hexDigit(byte & 0xF)
                        count += 6
                    }
                }
            }
            append(UInt8(ascii: "\""))
        }

        /// The decimal digits of `value`, filled from the least significant end.
        func appendDecimal(_ value: Int) {
            reserve(20)
            if value < 0 { base[count] = UInt8(ascii: "-"); count += 1 }
            var digits = 1
            var rest = value.magnitude / 10
            while rest > 0 { digits += 1; rest /= 10 }
            var magnitude = value.magnitude
            var index = count + digits - 1
            while index >= count {
                base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                index -= 1
            }
            count += digits
        }
    }

    private var storage = Storage(capacity: 256)
    /// Whether the innermost open container already holds a value (the next one needs a comma).
    private var needsComma = false
    /// `needsComma` of the containers around the innermost, outermost first.
    private var outerNeedsComma: [Bool] = []

    public init() {}

    /// The UTF-8 text written so far (a copy).
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// Calls `body` with the UTF-8 text written so far, without copying it.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// The text written so far.
    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The storage, made this writer's own first: call once per public mutating method.
    @inline(__always) private mutating func out() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Empties the writer, keeping its storage (one writer can serve many documents).
    public mutating func reset() {
        out().count = 0
        needsComma = false
        outerNeedsComma.removeAll(keepingCapacity: true)
    }

    /// Writes the comma a value needs before it in its container.
    @inline(__always) private mutating func separator(_ out: Storage) {
        if needsComma { out.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    private mutating func open(_ bracket: UInt8) {
        let out = out()
        separator(out)
        out.append(bracket)
        outerNeedsComma.append(needsComma)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        out().append(bracket)
        needsComma = outerNeedsComma.popLast() ?? true
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes `"name":` inside an object; the next value call writes the value.
    public mutating func key(_ name: String) {
        let out = out()
        separator(out)
        var name = name
        name.withUTF8 { out.appendQuoted($0) }
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// `key(_:)` for a key written in the source: its bytes are copied as they are (the caller
    /// guarantees they need no escaping), without going through a `String`.
    public mutating func key(constant name: StaticString) {
        let out = out()
        separator(out)
        out.reserve(name.utf8CodeUnitCount + 3)
        out.append(UInt8(ascii: "\""))
        out.append(name)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes object members encoded beforehand (`"a":1,"b":"x"`, no leading or trailing comma), as if
    /// each had been written with `key` and a value call. For members that are the same in every object
    /// (a rule's verdict), encoded once instead of escaped again each time.
    public mutating func members(encoded fragment: UnsafeBufferPointer<UInt8>) {
        let out = out()
        separator(out)
        if let base = fragment.baseAddress { out.append(base, count: fragment.count) }
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
        let out = out()
        separator(out)
        if var value { value.withUTF8 { out.appendQuoted($0) } } else { out.append("null") }
    }

    /// `value` as a string of 16 lower-case hex digits (a fingerprint), with no String made for it.
    public mutating func hex64(_ value: UInt64) {
        let out = out()
        separator(out)
        let digits: StaticString = "0123456789abcdef"
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 18 bytes: the quotes and the digits
        withUnsafeMutableBytes(of: &text) { bytes in
            bytes[0] = 0x22
            for i in 0..<16 { bytes[1 + i] = digits.utf8Start[Int((value >> UInt64(60 - 4 * i)) & 0xF)] }
            bytes[17] = 0x22
            out.append(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 18)
        }
    }

    public mutating func int(_ value: Int?) {
        let out = out()
        separator(out)
        if let value { out.appendDecimal(value) } else { out.append("null") }
    }

    public mutating func double(_ value: Double?) {
        let out = out()
        separator(out)
        if let value, value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 { out.appendDecimal(Int(value)) } else { append(String(value), to: out) }
        } else { out.append("null") }
    }

    public mutating func bool(_ value: Bool?) {
        let out = out()
        separator(out)
        if let value { out.append(value ? "true" : "false") } else { out.append("null") }
    }

    public mutating func null() { let out = out(); separator(out); out.append("null") }

    private func append(_ text: String, to out: Storage) {
        var text = text
        text.withUTF8 { if let base = $0.baseAddress { out.append(base, count: $0.count) } }
    }

    /// Inserts already-serialised JSON as one value.
    public mutating func raw(_ json: String) { let out = out(); separator(out); append(json, to: out) }

    // Convenience members for `"key": value` pairs.
    public mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    public mutating func field(_ name: String, _ value: Int?) { key(name); int(value) }
    public mutating func field(_ name: String, _ value: Double?) { key(name); double(value) }
    public mutating func field(_ name: String, _ value: Bool?) { key(name); bool(value) }

    @inline(__always) static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// `value` as a quoted JSON string literal.
    public static func quoted(_ value: String) -> String {
        var writer = JSONWriter()
        writer.string(value)
        return writer.text
    }
}
