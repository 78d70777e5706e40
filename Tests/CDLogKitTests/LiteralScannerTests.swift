@_spi(Testing) @testable import CDLogKit
import CScan
import Testing

@Suite struct LiteralScannerTests {
    /// Every id `scanner` reports for `bytes`, with how often.
    static func occurrences(_ scanner: LiteralScanner, _ bytes: [UInt8]) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        var copy = bytes
        copy.withUnsafeMutableBytes { raw in scanner.scan(UnsafeRawBufferPointer(raw)) { counts[$0, default: 0] += 1 } }
        return counts
    }

    /// What the window scan alone (`cscan_window_scan`) reports for `bytes[0..<length]`, told that all of
    /// `bytes` may be read.
    static func windowOccurrences(_ scanner: LiteralScanner, _ bytes: [UInt8], length: Int) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        bytes.withUnsafeBufferPointer { buffer in
            scanner.tables.withScanRoom { window, room, capacity in
                var position = 0
                while position < length {
                    let count = cscan_window_scan(window, buffer.baseAddress, length, buffer.count, &position, room, capacity)
                    for k in 0..<count { counts[Int(room[k]), default: 0] += 1 }
                }
            }
        }
        return counts
    }

    static func found(_ scanner: LiteralScanner, _ text: String) -> Set<Int> {
        Set(occurrences(scanner, Array(text.utf8)).keys)
    }

    /// How often `literal` occurs in `subject` (overlapping occurrences count), the naive way.
    static func naiveCount(_ literal: [UInt8], caseless: Bool, in subject: [UInt8]) -> Int {
        guard !literal.isEmpty, literal.count <= subject.count else { return 0 }
        func fold(_ byte: UInt8) -> UInt8 { caseless ? RequiredLiterals.asciiLowercased(byte) : byte }
        var count = 0
        for start in 0...(subject.count - literal.count)
        where literal.indices.allSatisfy({ fold(subject[start + $0]) == fold(literal[$0]) }) {
            count += 1
        }
        return count
    }

    @Test func findsOverlappingCaseSensitiveAndCaselessLiterals() {
        // Two bytes ("he": searched for alone), three ("she": every window it begins), four and more.
        let scanner = LiteralScanner(literals: [
            (Array("he".utf8), false), (Array("she".utf8), false), (Array("hers".utf8), false),
            (Array("quota exceeded".utf8), true), (Array("Code=134110".utf8), false), (Array("スト".utf8), false),
        ])
        #expect(Self.found(scanner, "ushers") == [0, 1, 2])
        #expect(Self.found(scanner, "HE SHE") == [])
        #expect(Self.found(scanner, "Error uploading asset: Quota Exceeded") == [3])
        #expect(Self.found(scanner, "code=134110 Code=134110") == [4])
        #expect(Self.found(scanner, "ストア") == [5])
        #expect(Self.found(scanner, "she") == [0, 1])   // a three-byte literal filling the subject
        #expect(Self.found(scanner, "") == [])
    }

    /// The scan agrees with a naive search, occurrence for occurrence, on random subjects of every
    /// length up to 300 (the sixteen-byte steps, the zero-padded tail, literals at both ends and at
    /// even and odd offsets, which only every second window start sees), with literals of 1 to 23
    /// bytes (3, 4 and 5 bytes are the edge cases of the two-parity anchors), caseless or not, some
    /// containing zero bytes; and the anchors chosen from a sample (the subjects' own text, or
    /// unrelated bytes) change nothing. Nor do readable bytes after the subject (`readable`: the quiet
    /// walk's subjects are followed by the rest of their buffer), whatever they are.
    @Test(arguments: ["none", "alike", "unrelated"])
    func agreesWithNaiveSearch(sampleKind: String) {
        var random = SeededRandom(state: 2026)
        let alphabet = Array("ab CKErorFinshedqu134105ZNtRy\u{0}".utf8) + [0xE3, 0x82, 0xB9]
        let words = ["Finished request", "CKError", "Partial Failure", "134110", "Zone Not Found", "retry after", "abab",
                     "bab", "PSC", "ab", "N", "Could not merge changes", "a\u{0}b", "RETRY"]
        let literals = words.map { (bytes: Array($0.utf8), caseless: $0 == "retry after" || $0 == "RETRY" || $0 == "bab") }
        func randomSubject() -> [UInt8] {
            var subject = (0..<Int.random(in: 0...300, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let word = literals.randomElement(using: &random)!.bytes
                let at = [0, subject.count, Int.random(in: 0...subject.count, using: &random)].randomElement(using: &random)!
                subject.insert(contentsOf: word, at: at)
            }
            return subject
        }
        let subjects = (0..<800).map { _ in randomSubject() }
        var sample: [UInt8] = []
        switch sampleKind {
        case "alike": sample = subjects.prefix(40).flatMap { $0 }
        case "unrelated": sample = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) }
        default: break
        }
        let scanner = sampleKind == "none" ? LiteralScanner(literals: literals)
            : sample.withUnsafeBytes { LiteralScanner(literals: literals, sample: $0) }
        for subject in subjects {
            var expected: [Int: Int] = [:]
            for (id, literal) in literals.enumerated() {
                let count = Self.naiveCount(literal.bytes, caseless: literal.caseless, in: subject)
                if count > 0 { expected[id] = count }
            }
            var actual = Self.occurrences(scanner, subject)
            // Literals of one or two bytes are searched for alone: reported once, however often they occur.
            for (id, literal) in literals.enumerated() where literal.bytes.count < 3 && expected[id] != nil {
                expected[id] = 1
                #expect(actual[id] == 1)
                actual[id] = 1
            }
            #expect(actual == expected, "\(String(decoding: subject, as: UTF8.self).debugDescription)")
            let alone = Self.windowOccurrences(scanner, subject, length: subject.count)
            let followed = subject + (0..<Int.random(in: 1...40, using: &random)).map { _ in
                [UInt8.random(in: 0...255, using: &random), alphabet.randomElement(using: &random)!].randomElement(using: &random)!
            }
            #expect(Self.windowOccurrences(scanner, followed, length: subject.count) == alone,
                    "followed by \(followed.count - subject.count) bytes: \(String(decoding: subject, as: UTF8.self).debugDescription)")
        }
    }

    /// A subject with more occurrences than one call's output room: the scan resumes where it stopped.
    @Test func reportsEveryOccurrenceBeyondOneCallsRoom() {
        let scanner = LiteralScanner(literals: [(Array("CKError".utf8), false), (Array("Failure".utf8), true)])
        let subject = Array(String(repeating: "CKError failure ", count: 500).utf8)
        #expect(Self.occurrences(scanner, subject) == [0: 500, 1: 500])
    }

    /// A run over a source larger than its sample is tuned to it (`ClassifyRun`), and every entry it
    /// reports gets the verdict and fields the untuned classifier gives its message.
    @Test(arguments: [1, 2])
    func tunedRunAgreesWithThePlainClassifier(threads: Int) throws {
        var bytes: [UInt8] = []
        while bytes.count < 3 * FormatDetector.sampleBytes {
            for name in HostileLogInputTests.sampleNames { bytes += HostileLogInputTests.sample(name) }
        }
        // The default block size: the reader must hold a whole sample for the run to be tuned.
        let (reporter, _) = try TestSupport.classifyRun(bytes, threads: threads, blockSize: ClassifyRun.Options().blockSize)
        let classified = reporter.entries.filter { $0.classification != nil }.count
        #expect(classified > 100)
        let scratch = TestSupport.classifier.makeScratch()
        for reported in reporter.entries {
            let plain = TestSupport.classifier.classify(text: reported.entry.message, scratch: scratch)
            #expect(plain?.rule.id == reported.classification?.rule.id, "\(reported.entry.message)")
            #expect(plain.map { $0.fields.map { "\($0.name)=\($0.value)" } } == reported.classification.map { $0.fields.map { "\($0.name)=\($0.value)" } })
        }
    }

    /// The whole catalog, tuned to a sample or not, gives every rule example the same verdict.
    @Test func tunedClassifierAgreesOnEveryRuleExample() {
        let classifier = TestSupport.classifier
        let rules = classifier.ruleSet.rules
        let texts = rules.flatMap { $0.matchExamples.map(\.text) + $0.nomatchExamples.map(\.text) }
        let sample = Array(texts.prefix(60).joined(separator: "\n").utf8)
        let tuned = sample.withUnsafeBytes { classifier.tuned(toSample: $0) }
        let plainScratch = classifier.makeScratch(), tunedScratch = tuned.makeScratch()
        for text in texts {
            let plain = classifier.classify(text: text, scratch: plainScratch)
            let other = tuned.classify(text: text, scratch: tunedScratch)
            #expect(plain?.rule.id == other?.rule.id, "\(text)")
            #expect(plain.map { $0.fields.map { "\($0.name)=\($0.value)" } } == other.map { $0.fields.map { "\($0.name)=\($0.value)" } })
        }
    }
}
