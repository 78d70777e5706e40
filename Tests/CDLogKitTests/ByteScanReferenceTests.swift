import CDLogCore
@_spi(Testing) @testable import CDLogKit
import CScan
import Testing

/// The header scanners run once per line, so they were rewritten for speed (straight-line compares,
/// memchr). These tests keep the previous, plainly written versions as references and compare them on
/// thousands of near-miss inputs.
@Suite struct ByteScanReferenceTests {
    /// The previous `ByteScan.timestamp`: a byte-by-byte walk over the shape.
    static func referenceTimestamp(_ p: UnsafeRawBufferPointer, at start: Int) -> Int? {
        guard p.count - start >= 19 else { return nil }
        let shape = Array("dddd-dd-dd dd:dd:dd".utf8)
        for i in 0..<19 {
            let b = p[start + i]
            if shape[i] == UInt8(ascii: "d") { if !ByteScan.isDigit(b) { return nil } } else if b != shape[i] {
                if !(i == 10 && b == UInt8(ascii: "T")) { return nil }
            }
        }
        var pos = start + 19
        if pos < p.count, p[pos] == UInt8(ascii: ".") {
            pos += 1
            let digitsStart = pos
            while pos < p.count, ByteScan.isDigit(p[pos]) { pos += 1 }
            if pos == digitsStart { return nil }
        }
        if pos < p.count, p[pos] == UInt8(ascii: "+") || p[pos] == UInt8(ascii: "-") {
            var q = pos + 1
            var digits = 0
            while q < p.count, digits < 4, ByteScan.isDigit(p[q]) || (digits == 2 && p[q] == UInt8(ascii: ":")) {
                if ByteScan.isDigit(p[q]) { digits += 1 }
                q += 1
            }
            if digits == 4 { pos = q }
        } else if pos < p.count, p[pos] == UInt8(ascii: "Z") {
            pos += 1
        }
        return pos
    }

    /// The previous `ByteScan.processWithPID`: tests every byte for `[`.
    static func referenceProcess(_ p: UnsafeRawBufferPointer, at start: Int, limit: Int = 256) -> [Int]? {
        let stop = min(p.count, start + limit)
        var i = start
        while i < stop {
            if p[i] == UInt8(ascii: "["), i > start {
                guard let pidEnd = ByteScan.digits(p, at: i + 1) else { i += 1; continue }
                var tid: Range<Int>? = nil
                var close = pidEnd
                if close < p.count, p[close] == UInt8(ascii: ":") {
                    guard let tidEnd = ByteScan.hexNumber(p, at: close + 1) else { i += 1; continue }
                    tid = (close + 1)..<tidEnd
                    close = tidEnd
                }
                guard close < p.count, p[close] == UInt8(ascii: "]") else { i += 1; continue }
                return [start, i, i + 1, pidEnd, tid?.lowerBound ?? -1, tid?.upperBound ?? -1, close + 1]
            }
            i += 1
        }
        return nil
    }

    static func flatten(_ r: (process: Range<Int>, pid: Range<Int>, tid: Range<Int>?, end: Int)?) -> [Int]? {
        r.map { [$0.process.lowerBound, $0.process.upperBound, $0.pid.lowerBound, $0.pid.upperBound,
                 $0.tid?.lowerBound ?? -1, $0.tid?.upperBound ?? -1, $0.end] }
    }

    /// Lines built from valid headers with random bytes replaced, inserted or cut off.
    static func nearMisses(count: Int) -> [[UInt8]] {
        var random = SeededRandom(state: 42)
        let seeds = ["2024-03-01 10:00:00.007297+0100 MyApp[1234:567890] CoreData: x",
                     "2024-03-01T10:00:00Z App(CoreData)[12] msg", "2021-08-10 15:27:55.123+08:00 App[1:0x1f] [cat] m",
                     "2021-08-10 15:27:55 Some App Name[9] m", "2024-03-01 10:00:00.1-0700 A[1:2]", "App[x] [1:2]"]
        // Digits and separators, and bytes next to them that a word-wide digit test must reject.
        let alphabet = Array("0123456789-: T.+Z[]xX:abcf /;?>".utf8) + [0x00, 0xB3, 0x39 + 0x80, 0xF9]
        var lines: [[UInt8]] = []
        for i in 0..<count {
            var line = Array(seeds[i % seeds.count].utf8)
            random.mutate(&line, alphabet: alphabet)
            lines.append(line)
        }
        return lines
    }

    /// Every byte value in every digit position of the word-wide shape tests: only 0…9 pass.
    @Test func timestampDigitPositionsTakeOnlyDigits() {
        for position in [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] {
            for value in 0...255 {
                var bytes = Array("2024-03-01 10:00:00".utf8)
                bytes[position] = UInt8(value)
                let isDigit = (0x30...0x39).contains(value)
                bytes.withUnsafeBytes { #expect((ByteScan.timestamp($0, at: 0) != nil) == isDigit, "byte \(value) at \(position)") }
            }
        }
        // The separators are exact (`T` is also accepted at 10).
        for position in [4, 7, 10, 13, 16] {
            for value in 0...255 {
                var bytes = Array("2024-03-01 10:00:00".utf8)
                let expected = value == Int(bytes[position]) || (position == 10 && value == Int(UInt8(ascii: "T")))
                bytes[position] = UInt8(value)
                bytes.withUnsafeBytes { #expect((ByteScan.timestamp($0, at: 0) != nil) == expected, "byte \(value) at \(position)") }
            }
        }
    }

    /// Cutting a block counts its lines; the vector loop must count what a byte-by-byte loop counts at
    /// every length and alignment, across the 255-step lane sums too.
    @Test func countByteMatchesTheReference() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...300) + [8_160, 8_161, 16_320, 70_000] {
            // Dense and sparse targets: a byte taken from a small alphabet or from all 256.
            let alphabet: [UInt8] = length % 2 == 0 ? [0x0A, 0x41, 0xFF] : Array(0...255)
            let bytes = (0..<(length + 3)).map { _ in alphabet.randomElement(using: &generator)! }
            bytes.withUnsafeBufferPointer { all in
                for offset in 0...3 where offset + length <= all.count {
                    let slice = UnsafeBufferPointer(rebasing: all[offset..<(offset + length)])
                    for target: UInt8 in [0x0A, 0xFF] {
                        let expected = slice.reduce(0) { $0 + ($1 == target ? 1 : 0) }
                        #expect(cscan_count_byte(all.baseAddress! + offset, length, target) == expected,
                                "length \(length), offset \(offset), byte \(target)")
                    }
                }
            }
        }
        // A run of matches long enough to fill every lane to 255 before the sums.
        let newlines = [UInt8](repeating: 0x0A, count: 255 * 32 * 3 + 17)
        #expect(cscan_count_byte(newlines, newlines.count, 0x0A) == newlines.count)
    }

    @Test func timestampMatchesTheReference() {
        for line in Self.nearMisses(count: 20_000) {
            line.withUnsafeBytes { p in
                for start in [0, 1] where start <= p.count {
                    #expect(ByteScan.timestamp(p, at: start) == Self.referenceTimestamp(p, at: start), "\(String(decoding: line, as: UTF8.self))")
                }
            }
        }
    }

    @Test func processWithPIDMatchesTheReference() {
        for line in Self.nearMisses(count: 20_000) {
            line.withUnsafeBytes { p in
                for start in [0, 11, 20, 32] where start <= p.count {
                    #expect(Self.flatten(ByteScan.processWithPID(p, at: start)) == Self.referenceProcess(p, at: start),
                            "\(String(decoding: line, as: UTF8.self)) at \(start)")
                    #expect(Self.flatten(ByteScan.processWithPID(p, at: start, limit: 8)) == Self.referenceProcess(p, at: start, limit: 8))
                }
            }
        }
    }

    /// The previous, Swift `NSLogFormat.header(of:)`, composed of the scanners above.
    static func referenceNSLogHeader(_ line: UnsafeRawBufferPointer) -> [Int]? {
        guard let timestampEnd = referenceTimestamp(line, at: 0), timestampEnd < line.count,
              ByteClass.isBlank(line[timestampEnd]) else { return nil }
        let processStart = ByteScan.spaces(line, at: timestampEnd)
        guard let process = referenceProcess(line, at: processStart) else { return nil }
        var messageStart = ByteScan.spaces(line, at: process[6])
        var subsystem = [-1, -1], category = [-1, -1]
        let at = messageStart
        if at < line.count, line[at] == UInt8(ascii: "[") {
            let stop = min(line.count, at + 120)
            var i = at + 1
            var colon = -1
            while i < stop, line[i] != UInt8(ascii: "]"), !ByteClass.isBlank(line[i]) {
                if line[i] == UInt8(ascii: ":"), colon < 0 { colon = i }
                i += 1
            }
            if i < stop, line[i] == UInt8(ascii: "]"), i > at + 1 {
                if colon >= 0 { subsystem = [at + 1, colon]; category = [colon + 1, i] } else { category = [at + 1, i] }
                messageStart = ByteScan.spaces(line, at: i + 1)
            }
        }
        return [messageStart, 0, timestampEnd] + process[0..<6] + subsystem + category
    }

    static func flatten(_ header: LineHeader?) -> [Int]? {
        header.map { h in
            [h.messageStart, h.timestamp?.lowerBound ?? -1, h.timestamp?.upperBound ?? -1,
             h.process?.lowerBound ?? -1, h.process?.upperBound ?? -1, h.pid?.lowerBound ?? -1, h.pid?.upperBound ?? -1,
             h.thread?.lowerBound ?? -1, h.thread?.upperBound ?? -1, h.subsystem?.lowerBound ?? -1, h.subsystem?.upperBound ?? -1,
             h.logCategory?.lowerBound ?? -1, h.logCategory?.upperBound ?? -1]
        }
    }

    @Test func nslogHeaderMatchesTheReference() {
        var lines = Self.nearMisses(count: 20_000)
        var random = SeededRandom(state: 9)
        let alphabet = Array("[]: \tab.-x".utf8)
        for seed in ["2024-03-01 10:00:00.007297+0100 MyApp[1234:567890] [UIKitCore] x",
                     "2024-03-01 10:00:00.007297+0100 MyApp[1234:567890] [com.apple.coredata:cloudkit] x",
                     "2021-08-10 15:27:55 App[9] [] [a b] m", "2021-08-10 15:27:55\tApp (x)[9:0x1F]\t[c]\tm",
                     // Brackets long enough for the sixteen-byte steps, colons before and after the end.
                     "2024-03-01 10:00:00.007297+0100 MyApp[1234:567890] [com.apple.coredata.cloudkit.mirroring:export] text after it",
                     "2024-03-01 10:00:00.007297+0100 MyApp[1234:567890] [Firebase/Analytics][I-ACS023007:x] Analytics v.10 started",
                     "2024-03-01 10:00:00 MyApp[1:2] [abcdefghijklmnopqrstuvwxyzabcdefghijklmnop:q]:rst uvw xyz 0123456789 more text here"] {
            for _ in 0..<2_000 {
                var line = Array(seed.utf8)
                random.mutate(&line, alphabet: alphabet)
                lines.append(line)
            }
        }
        // The fast path's usual prefix (`cscan_usual_prefix`): every byte of its first 64 replaced by bytes
        // its tests must tell apart, names of 0–20 bytes (spaces, brackets, parentheses in them) and ids
        // of every length up to past its sixteen bytes, each cut at every length around 64.
        let usual = Array("2024-03-01 10:00:00.007297+0100 MyApp[1234:567890] [UIKitCore] Snapshotting a view that was not rendered".utf8)
        for position in 0..<64 {
            for byte in Array("0 9:-+.T\t[]x/A".utf8) + [0x00, 0x2F, 0x3A, 0xB0, 0xFF] {
                var line = usual
                line[position] = byte
                lines.append(line)
            }
        }
        let names = ["", "A", "My App", "[x", "x[", "[", "App (CoreData)", "ABCDEFGHIJKLMNO", "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOPQRST", " App"]
        let ids = ["1234:567890", "1:2", "12345678:1234567", "12345678:12345678", "1234:0x1f", "1234:abc", "1234", ":1", "1:", "1234:56a"]
        for name in names {
            for id in ids {
                let line = Array("2024-03-01 10:00:00.007297-0700 \(name)[\(id)] [com.apple.coredata:cloudkit] a message long enough".utf8)
                for length in 40...line.count { lines.append(Array(line[0..<length])) }
            }
        }
        var withHeader = 0
        for line in lines {
            line.withUnsafeBytes { p in
                let expected = Self.referenceNSLogHeader(p)
                if expected != nil { withHeader += 1 }
                #expect(Self.flatten(NSLogFormat().header(of: p)) == expected, "\(String(decoding: line, as: UTF8.self))")
            }
        }
        #expect(withHeader > 1_000, "the near misses include lines with a header")
    }

    /// The previous `Timestamps.iso8601(bytes:)` (arrays, a filter, then a String) after the syslog and
    /// old Console.app cases.
    static func referenceISO8601(_ text: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        if text.count >= 19, text[4] == UInt8(ascii: "-"), text[10] == UInt8(ascii: " ") || text[10] == UInt8(ascii: "T") {
            out.append(contentsOf: text[0..<10])
            out.append(UInt8(ascii: "T"))
            index = 11
        }
        var zoneStart = index
        while zoneStart < text.count, text[zoneStart] != UInt8(ascii: "+"), text[zoneStart] != UInt8(ascii: "-"),
              text[zoneStart] != UInt8(ascii: "Z"), text[zoneStart] != UInt8(ascii: " ") { zoneStart += 1 }
        out.append(contentsOf: text[index..<zoneStart])
        let zone = text[zoneStart...].filter { $0 != UInt8(ascii: " ") }
        if zone.count == 5 {
            out.append(contentsOf: zone[0..<3])
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: zone[3...])
        } else {
            out.append(contentsOf: zone)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func iso8601MatchesTheReference() {
        var random = SeededRandom(state: 7)
        let seeds = ["2024-03-01 10:00:00.007297+0100", "2021-08-10T15:27:55Z", "2021-08-10 15:27:55.123 +08:00",
                     "15:27:55.123456-0700", "2020-10-11 03:59:00 +0000", "2024-03-01 10:00:00"]
        let alphabet = Array("0123456789-: T.+Z".utf8) + [0xC3, 0xA9, 0xFF]
        for i in 0..<5_000 {
            var text = Array(seeds[i % seeds.count].utf8)
            random.mutate(&text, alphabet: alphabet)
            // Inner text only: both trim the same spaces and share the syslog case.
            while text.first == UInt8(ascii: " ") { text.removeFirst() }
            while text.last == UInt8(ascii: " ") { text.removeLast() }
            if text.withUnsafeBytes({ Timestamps.localeStamp($0) }) != nil { continue }
            let actual = text.withUnsafeBytes { Timestamps.iso8601(bytes: $0) }
            #expect(actual == Self.referenceISO8601(text), "\(String(decoding: text, as: UTF8.self))")
        }
    }
}
