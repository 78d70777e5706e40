@_spi(Testing) @testable import CDLogKit
import Testing

/// The member scan (`FlatJSONObject.Members`) runs for every member of every ndjson event, so it moved to C
/// (`cscan_json_next_member`). The previous Swift version is kept here as the reference; both must
/// report the same members and end the same way on thousands of mutated objects.
@Suite struct FlatJSONObjectReferenceTests {
    struct Visit: Equatable { let key: [UInt8], value: Range<Int>, isString: Bool }

    /// The previous Swift member scan (`FlatJSONObject.scan`): members as (key, value range, isString), then where the
    /// object ended (nil when it did not) and whether the splitter would agree.
    static func reference(_ bytes: [UInt8]) -> (visits: [Visit], afterObject: Int?, splitterAgrees: Bool) {
        var visits: [Visit] = []
        var agrees = true
        var i = 0
        let n = bytes.count
        func skipSpace() { while i < n, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 } }
        func stringEnd(_ from: Int) -> Int? {
            var j = from + 1
            while j < n {
                let b = bytes[j]
                if b == UInt8(ascii: "\\") { j += 2; continue }
                if b == UInt8(ascii: "\"") { return j }
                j += 1
            }
            return nil
        }
        func skipNested(_ from: Int) -> Int {
            var depth = 0, j = from, inString = false
            while j < n {
                let b = bytes[j]
                if inString {
                    if b == UInt8(ascii: "\\") { j += 2; continue }
                    if b == UInt8(ascii: "\"") { inString = false }
                } else if b == UInt8(ascii: "\"") { inString = true } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { depth += 1 } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { return j + 1 }
                }
                j += 1
            }
            return n
        }
        skipSpace()
        guard i < n, bytes[i] == UInt8(ascii: "{") else { return (visits, nil, agrees) }
        i += 1
        while i < n {
            skipSpace()
            guard i < n else { break }
            if bytes[i] == UInt8(ascii: "}") { return (visits, i + 1, agrees) }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "\""), let keyEnd = stringEnd(i) else { break }
            let key = Array(bytes[(i + 1)..<keyEnd])
            i = keyEnd + 1
            skipSpace()
            guard i < n, bytes[i] == UInt8(ascii: ":") else { break }
            i += 1
            skipSpace()
            guard i < n else { break }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(i) else {
                    visits.append(Visit(key: key, value: (i + 1)..<n, isString: true))
                    return (visits, nil, agrees)
                }
                visits.append(Visit(key: key, value: (i + 1)..<end, isString: true))
                i = end + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                i = skipNested(i)
            default:
                let start = i
                while i < n, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: "}"), bytes[i] > 32 {
                    if [UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{")].contains(bytes[i]) { agrees = false }
                    i += 1
                }
                visits.append(Visit(key: key, value: start..<i, isString: false))
            }
        }
        return (visits, nil, agrees)
    }

    @Test func scanMatchesTheReference() {
        var random = SeededRandom(state: 5)
        let seeds = [#"{"timestamp": "2024-03-01 10:00:00.007297+0100", "processID": 1234, "eventMessage": "a \"b\" \\ c\u00e9", "source": null}"#,
                     #" {"a":{"b":[1,"]",{"c":"}"}]},"d":[],"e":true , "f" : "x"} "#,
                     #"{"k":"\u0001 long string with many plain bytes before the end of it, sixteen at a time ........"}"#]
        let alphabet = Array("{}[]\\\":, \tx0\u{7F}".utf8) + [0x01, 0xC3, 0xFF]
        for round in 0..<20_000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            random.mutate(&bytes, alphabet: alphabet)
            let expected = Self.reference(bytes)
            var visits: [Visit] = []
            let end = bytes.withUnsafeBufferPointer { buffer in
                var members = FlatJSONObject.Members(of: buffer)
                while let (key, value, isString) = members.next() { visits.append(Visit(key: Array(key), value: value, isString: isString)) }
                return members.end
            }
            #expect(visits == expected.visits && end.afterObject == expected.afterObject && end.splitterAgrees == expected.splitterAgrees,
                    "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
