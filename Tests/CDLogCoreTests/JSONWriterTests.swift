import Testing
import CScan
@testable import CDLogCore

@Suite struct JSONWriterTests {
    @Test func escapesControlCharactersQuotesAndBackslashes() {
        #expect(JSONWriter.quoted("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    }

    /// The eight-bytes-at-a-time scan agrees with a byte-by-byte escaper wherever the special bytes fall.
    @Test func escapingAgreesWithAByteByByteReference() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let pieces: [String] = ["a", "Z", " ", "\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{7F}", "é", "日本", "🙂", "~", "\u{80}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(JSONWriter.quoted(text) == reference(text), "\(Array(text.utf8))")
        }
    }

    @Test func integersAreWrittenAsDecimalDigits() {
        var generator = SystemRandomNumberGenerator()
        let values = [0, 1, -1, 9, 10, 99, 100, Int.max, Int.min, Int.min + 1] + (0..<500).map { _ in Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...63, using: &generator) }
        for value in values {
            var w = JSONWriter()
            w.int(value)
            #expect(w.text == String(value))
        }
    }

    @Test func keepsKeyOrderAndCommas() {
        var w = JSONWriter()
        w.beginObject(); w.field("b", 1); w.field("a", "x"); w.key("n"); w.null()
        w.key("list"); w.beginArray(); w.int(1); w.int(2); w.endArray(); w.endObject()
        #expect(w.text == #"{"b":1,"a":"x","n":null,"list":[1,2]}"#)
    }

    @Test func severityOrderAndNames() {
        #expect(Severity.debug < Severity.fatal)
        #expect(Severity(name: "WARNING") == .warning)
        #expect(Severity(name: "bogus") == nil)
    }
}

/// `cscan_json_plain_prefix` (16 bytes a step with SSE2, 8 with SWAR, then byte by byte) finds the same
/// first byte needing escape as a plain loop, at every length and alignment and for every byte value.
@Suite struct PlainPrefixTests {
    static func reference(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F } ?? bytes.count
    }

    @Test func agreesWithAByteByByteScan() {
        var generator = SystemRandomNumberGenerator()
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 96)
        defer { storage.deallocate() }
        for round in 0..<20_000 {
            for i in storage.indices { storage[i] = UInt8.random(in: 0x20...0xFF, using: &generator) }
            for i in storage.indices where storage[i] == 0x22 || storage[i] == 0x5C || storage[i] == 0x7F { storage[i] = 0x41 }
            let offset = round % 16
            let length = Int.random(in: 0...(96 - offset), using: &generator)
            if length > 0, round % 5 != 0 {
                // One byte to escape somewhere (every value in turn), sometimes a second one later.
                let flagged: [UInt8] = Array(0..<0x20) + [0x22, 0x5C, 0x7F]
                storage[offset + Int.random(in: 0..<length, using: &generator)] = flagged[round % flagged.count]
                if round % 3 == 0 { storage[offset + Int.random(in: 0..<length, using: &generator)] = flagged[(round / 3) % flagged.count] }
            }
            let slice = UnsafeBufferPointer(rebasing: storage[offset..<(offset + length)])
            let found = slice.baseAddress.map { cscan_json_plain_prefix($0, length) } ?? 0
            #expect(found == Self.reference(slice), "round \(round), offset \(offset), length \(length)")
        }
    }
}
