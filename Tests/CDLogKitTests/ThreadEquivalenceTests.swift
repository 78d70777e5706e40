import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing

/// `ClassifyRun`'s contract: the output is the same whatever `threads` is. These inputs are built so
/// that entries straddle block boundaries: mutated samples, multi-line entries and pasted crash reports
/// longer than a block, continuation lines longer than the line cap, CRLF endings, bare and prefixed
/// console text and ndjson.
@Suite struct ThreadEquivalenceTests {
    /// Everything a reporter is given, one string per finding, then the summary.
    static func run(_ bytes: [UInt8], threads: Int, blockSize: Int = 4096, all: Bool = true, skipsQuietEntries: Bool = true,
                    format: InputFormat? = nil) throws -> [String] {
        let (reporter, summary) = try TestSupport.classifyRun(bytes, threads: threads, blockSize: blockSize, all: all, chunkSize: 1000,
                                                              skipsQuietEntries: skipsQuietEntries, format: format)
        return reporter.entries.map { reported in
            let fields = reported.classification?.fields.map { "\($0.name)=\($0.value)" }.joined(separator: ",") ?? ""
            let e = reported.entry
            return "\(e.line)-\(e.endLine) \(e.format) \(reported.classification?.rule.id ?? "-") ×\(reported.count) t=\(e.truncated) "
                + "\(e.timestamp ?? "") \(e.process ?? "") [\(fields)] \(e.message.count) \(e.message.prefix(200))"
        } + ["entries \(summary.entries) classified \(summary.classified) findings \(summary.findings) truncated \(summary.truncatedEntries)"]
    }

    static func expectSameOutput(_ bytes: [UInt8], _ label: String, blockSize: Int = 4096,
                                 sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let reference = try run(bytes, threads: 1, blockSize: blockSize)
        let parallel = try run(bytes, threads: 2, blockSize: blockSize)
        let firstDifference = zip(parallel, reference).first { $0 != $1 }
            .map { "\n  2 threads \($0.0.prefix(300))\n  1 thread  \($0.1.prefix(300))" }
            ?? "\(parallel.count) vs \(reference.count) findings"
        #expect(parallel == reference, "\(label): \(firstDifference)", sourceLocation: sourceLocation)
    }

    static var sampleNames: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: TestSupport.packageRoot.appendingPathComponent("Samples/logs").path).sorted()) ?? []
    }

    static func sampleLines(_ name: String) throws -> [String] {
        let url = TestSupport.packageRoot.appendingPathComponent("Samples/logs/\(name)")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static let crashLines: [String] = {
        let url = TestSupport.packageRoot.appendingPathComponent("Samples/crash/dead10cc-sqlite.crash")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }()

    /// Rewrites a sample's lines at random: noise lines, lines split in two, blank and white-space
    /// lines, duplicates, runs of continuation lines longer than a block, pasted crash reports (some
    /// longer than a block), CRLF endings.
    static func mutate(_ lines: [String], seed: UInt64) -> [UInt8] {
        var random = SeededRandom(state: seed)
        var out: [String] = []
        for line in lines {
            switch Int.random(in: 0..<16, using: &random) {
            case 0: out.append(String(line.map { $0.isLetter ? "q" : $0 }))
            case 1:
                let cut = line.isEmpty ? 0 : Int.random(in: 0..<line.count, using: &random)
                let index = line.index(line.startIndex, offsetBy: cut)
                out.append(String(line[..<index]))
                out.append(String(line[index...]))
            case 2: out.append(line); out.append("")
            case 3: out.append(line); out.append("   \t")
            case 4: out.append(line); out.append(line)
            case 5:
                // A multi-line entry longer than a block: continuation lines, some blank.
                out.append(line)
                for i in 0..<Int.random(in: 40...160, using: &random) {
                    out.append(i % 17 == 5 ? "" : "    frame \(i) CoreData: continuation of the entry above with some text")
                }
            case 6 where Int.random(in: 0..<3, using: &random) == 0:
                // A pasted crash report, sometimes repeated into one longer than a block.
                out.append(line)
                out.append(contentsOf: crashLines)
                if Bool.random(using: &random) {
                    for _ in 0..<3 { out.append(contentsOf: crashLines.dropFirst(12)) }
                }
            default: out.append(line)
            }
        }
        let newline = Int.random(in: 0..<3, using: &random) == 0 ? "\r\n" : "\n"
        return Array(out.joined(separator: newline).utf8)
    }

    @Test func mutatedSamplesGiveTheSameOutputOnOneAndTwoThreads() throws {
        #expect(!Self.sampleNames.isEmpty)
        for name in Self.sampleNames {
            let lines = try Self.sampleLines(name)
            for seed in 1...8 as ClosedRange<UInt64> {
                var bytes: [UInt8] = []
                for round in 0..<3 { bytes += Self.mutate(lines, seed: seed &* 100 &+ UInt64(round)); bytes.append(0x0A) }
                try Self.expectSameOutput(bytes, "\(name) seed \(seed)")
            }
        }
    }

    /// Lines longer than the line cap (1 MiB), alone and followed by continuation lines, in a log
    /// with entries before and after.
    @Test func overlongLinesAndTheirContinuationsGiveTheSameOutput() throws {
        let prefix = "2024-03-01 10:00:00.000000+0100 App[1:2] "
        let before = prefix + "CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 \"x\"\n"
        let filler = String(repeating: "x", count: EntryLimits.maxMessageBytes + 5000)
        let continuations = (0..<3000).map { "    continuation \($0)" }.joined(separator: "\n")
        let cases = [
            prefix + "CoreData: error: " + filler,
            prefix + "CoreData: error: short\n" + filler,
            prefix + "CoreData: error: short\n" + filler + "\n" + continuations,
            prefix + "CoreData: error: short\n" + continuations + "\n" + filler + "\r",
            filler,
        ]
        for (index, text) in cases.enumerated() {
            let bytes = Array((before + text + "\n" + before + before).utf8)
            try Self.expectSameOutput(bytes, "overlong case \(index)")
        }
    }

    /// ndjson whose events are longer than a block (one line each, and pretty-printed over many lines).
    @Test func ndjsonWithEventsLongerThanABlockGivesTheSameOutput() throws {
        func event(_ message: String) -> String {
            "{\"timestamp\":\"2024-03-01 10:00:00.000000+0100\",\"processImagePath\":\"/App\",\"processID\":1,\"eventMessage\":\"\(message)\"}"
        }
        let long = String(repeating: "y", count: 9000)
        var lines: [String] = []
        for i in 0..<60 {
            lines.append(event("CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 \(i)"))
            if i % 7 == 3 { lines.append(event("CoreData: debug: " + long)) }
            if i % 11 == 5 {
                lines.append("{\"eventMessage\":\"CoreData: error: pretty printed \(i)\",")
                for j in 0..<400 { lines.append("  \"k\(j)\":\"\(long.prefix(20))\",") }
                lines.append("  \"timestamp\":\"2024-03-01 10:00:00.000000+0100\"}")
            }
        }
        try Self.expectSameOutput(Array(lines.joined(separator: "\n").utf8), "ndjson")
    }

    /// Hands out `bytes` in chunks of 1000, then fails instead of ending.
    struct FailingSource: ByteSource {
        let name = "t"
        let bytes: [UInt8]
        var offset = 0
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard offset < bytes.count else { throw ToolFailure("cannot read t: Input/output error") }
            let count = min(buffer.count, 1000, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            offset += count
            return count
        }
    }

    /// A read error in the middle of a source: every thread count reports it, after the entries of the
    /// parts cut before it, in order: the same entries as one thread reports before failing.
    @Test func aReadErrorIsReportedAfterThePartsBeforeIt() throws {
        let lines = try Self.sampleLines("merge-conflicts.log").filter { !$0.isEmpty }
        let bytes = Array((0..<40).flatMap { _ in lines }.joined(separator: "\n").utf8)
        func run(threads: Int) -> (entries: [String], error: Error?) {
            var options = ClassifyRun.Options()
            options.threads = threads
            options.blockSize = 4096
            options.includeUnclassified = true
            let reporter = TestSupport.CollectingWriter()
            do {
                try ClassifyRun(classifier: TestSupport.classifier, options: options)
                    .run(sources: [FailingSource(bytes: bytes)], reporter: reporter)
                return (reporter.entries.map { "\($0.entry.line) \($0.classification?.rule.id ?? "-")" }, nil)
            } catch {
                return (reporter.entries.map { "\($0.entry.line) \($0.classification?.rule.id ?? "-")" }, error)
            }
        }
        let reference = run(threads: 1)
        #expect(reference.error as? ToolFailure == ToolFailure("cannot read t: Input/output error"))
        for threads in [2, 3, 8] {
            let parallel = run(threads: threads)
            #expect(parallel.error as? ToolFailure == ToolFailure("cannot read t: Input/output error"), "\(threads) threads")
            // Either run may hold back the entries around the failure (one thread: the entry being read and
            // the one kept for echo folding; several: the parts cut after it), so neither has to be the
            // longer; the entries both report are the same, and only a block's worth or so is missing.
            #expect(abs(parallel.entries.count - reference.entries.count) < 20 && reference.entries.count > 200,
                    "\(threads) threads: \(parallel.entries.count) against \(reference.entries.count) entries")
            let difference = zip(parallel.entries, reference.entries).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(difference == nil, "\(threads) threads: \(difference.map { "at \($0.offset): \($0.element)" } ?? "")")
        }
    }
}
