import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation

/// Helpers shared by the CDLogKit tests.
enum TestSupport {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/CDLogKitTests/Fixtures")
    static let sharedCorpus = packageRoot.appendingPathComponent("../shared/corpus").standardizedFileURL

    static let classifier: Classifier = try! Classifier(ruleSet: RuleSet.embedded())

    /// Splits `text` (read `chunkSize` bytes at a time) into entries.
    static func entries(_ text: String, format: InputFormat? = nil, chunkSize: Int = 1 << 16) throws -> [Entry] {
        try entries(bytes: Array(text.utf8), format: format, chunkSize: chunkSize)
    }

    static func entries(bytes: [UInt8], format: InputFormat? = nil, chunkSize: Int = 1 << 16) throws -> [Entry] {
        let reader = LineReader(source: MemoryByteSource(name: "t", bytes: bytes, chunkSize: chunkSize), blockSize: 4096)
        let splitter = try EntrySplitter(reader: reader, forcedFormat: format)
        var result: [Entry] = []
        try splitter.forEachEntry { result.append($0.makeEntry(source: "t")) }
        return result
    }

    static func detect(_ text: String) throws -> InputFormat {
        try FormatDetector.detect(ArraySlice(Array(text.utf8)), sourceName: "t")
    }

    /// Classifies one message with the embedded catalog.
    static func classify(_ text: String) -> Classification? {
        classifier.classify(text: text, scratch: classifier.makeScratch())
    }

    /// A whole `ClassifyRun` over `bytes` (read `chunkSize` bytes at a time) with every entry reported.
    static func classifyRun(_ bytes: [UInt8], threads: Int, blockSize: Int = 4096, all: Bool = true,
                            chunkSize: Int = 1 << 16, skipsQuietEntries: Bool = true,
                            format: InputFormat? = nil) throws -> (CollectingWriter, ClassifySummary) {
        var options = ClassifyRun.Options()
        options.forcedFormat = format
        options.threads = threads
        options.blockSize = blockSize
        options.includeUnclassified = all
        options.skipsQuietEntries = skipsQuietEntries
        let reporter = CollectingWriter()
        let summary = try ClassifyRun(classifier: classifier, options: options)
            .run(sources: [MemoryByteSource(name: "t", bytes: bytes, chunkSize: chunkSize)], reporter: reporter)
        return (reporter, summary)
    }

    /// A reporter that keeps what it is given.
    final class CollectingWriter: FindingWriter {
        var entries: [ClassifiedEntry] = []
        var summary: ClassifySummary?
        func report(_ entry: ClassifiedEntry) throws { entries.append(entry) }
        func finish(summary: ClassifySummary) throws { self.summary = summary }
    }

    /// Decodes the corpus/eval TSV escapes (`\n`, `\t`, `\r`, `\\`) in one pass.
    static func unescapeTSV(_ field: Substring) -> String {
        var out = ""
        var iterator = field.makeIterator()
        while let c = iterator.next() {
            guard c == "\\" else { out.append(c); continue }
            switch iterator.next() {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\\": out.append("\\")
            case let other?: out.append("\\"); out.append(other)
            case nil: out.append("\\")
            }
        }
        return out
    }
}

/// SplitMix64, so generated inputs are the same on every run and failures reproduce.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D4_9BB1_3311_33EB
        return z ^ (z >> 31)
    }
}

extension SeededRandom {
    /// Up to `maxEdits` random edits of `bytes` (none when empty): a byte replaced by one of `alphabet`,
    /// one of `alphabet` inserted, or everything from a random position on cut off. Near-miss inputs for
    /// comparing a scanner with its reference.
    mutating func mutate(_ bytes: inout [UInt8], alphabet: [UInt8], maxEdits: Int = 3) {
        for _ in 0..<Int.random(in: 0...maxEdits, using: &self) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &self)
            switch Int.random(in: 0..<3, using: &self) {
            case 0: bytes[at] = alphabet.randomElement(using: &self)!
            case 1: bytes.insert(alphabet.randomElement(using: &self)!, at: at)
            default: bytes.removeSubrange(at...)
            }
        }
    }
}
