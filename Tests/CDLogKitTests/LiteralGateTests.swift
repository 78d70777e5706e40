@_spi(Testing) @testable import CDLogKit
import CScan
import Testing

@Suite struct LiteralGateTests {
    /// Both searches agree with a byte-by-byte one on haystacks of every length around the sixteen-byte
    /// steps, with the needle anywhere (often at the very end) and in mixed case.
    @Test(arguments: [true, false])
    func searchAgreesWithAByteByByteSearch(caseless: Bool) {
        func reference(_ hay: [UInt8], _ needle: [UInt8]) -> Int {
            guard needle.count <= hay.count else { return needle.isEmpty ? 0 : -1 }
            for start in 0...(hay.count - needle.count)
            where zip(hay[start...], needle).allSatisfy({ (caseless ? RequiredLiterals.asciiLowercased($0) : $0) == $1 }) { return start }
            return -1
        }
        var random = SeededRandom(state: 11)
        let alphabet = Array("aAbBrRyY eE-\"\u{7F}".utf8) + [0xC3, 0xFF]
        let needles = ["a", "ry", "retry", "retry after ", "\"retry-after\"", "b-a", "yyyy"].map { Array($0.utf8) }
        for round in 0..<4_000 {
            var hay = (0..<Int.random(in: 0..<70, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let needle = needles[round % needles.count]
            if Bool.random(using: &random) {
                // Planted in a random case, anywhere including the last possible position.
                let planted = needle.map { Bool.random(using: &random) && $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
                let at = Bool.random(using: &random) ? hay.count : Int.random(in: 0...hay.count, using: &random)
                hay.insert(contentsOf: planted, at: at)
            }
            let found = hay.withUnsafeBytes { h in needle.withUnsafeBytes { n in
                let base = h.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
                return caseless ? cscan_find_caseless(base, h.count, n.baseAddress!, n.count) : cscan_find(base, h.count, n.baseAddress!, n.count)
            } }
            #expect(found == reference(hay, needle), "\(String(decoding: hay, as: UTF8.self)) / \(String(decoding: needle, as: UTF8.self))")
        }
    }

    /// Alternatives sharing a piece are searched for as that piece; others one by one.
    @Test func alternativesShareTheirLongestCommonPiece() {
        let retry = ["retry after ", "ckretryafter", "ckerrorretryafterkey", "\"retry-after\""].map { Array($0.utf8) }
        #expect(LiteralGate.commonPiece(of: retry) == Array("retry".utf8))
        #expect(LiteralGate.commonPiece(of: ["abcdef", "xxcdyy"].map { Array($0.utf8) }) == nil)
        #expect(LiteralGate.commonPiece(of: [Array("only".utf8)]) == nil)
    }

    /// Conservative on the whole catalog: wherever a gated pattern (fields, `exclude`, the built-in
    /// extractors) matches one of the catalog's example texts, its gate lets it run; and gates do
    /// turn patterns away from texts without their literals.
    @Test func gatesNeverTurnAwayAMatch() throws {
        let rules = try RuleSet.embedded().rules
        var patterns = try BuiltinExtractors().patterns
        for rule in rules { patterns += rule.fieldPatterns.map(\.regex) + rule.excluded }
        let texts = rules.flatMap { $0.matchExamples + $0.nomatchExamples }.map(\.text)
        let scratch = MatchScratch()
        let storage = FrozenStorage()
        var gated = 0, turnedAway = 0
        for pattern in patterns {
            guard let gate = LiteralGate(pattern: pattern, storage: storage) else { continue }
            gated += 1
            for text in texts {
                var bytes = Array(text.utf8)
                bytes.withUnsafeMutableBytes { raw in
                    let subject = UnsafeRawBufferPointer(raw)
                    let matches = pattern.matches(subject, scratch: scratch)
                    let admitted = gate.mayMatch(subject)
                    #expect(!matches || admitted, "\(pattern.pattern) on \(text)")
                    if !admitted { turnedAway += 1 }
                }
            }
        }
        #expect(gated >= 5)
        #expect(turnedAway > 0)
    }
}
