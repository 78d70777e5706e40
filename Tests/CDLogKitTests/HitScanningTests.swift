import CDLogCore
@testable import CDLogKit
import Foundation
import Testing

/// Block hit scanning (`HitScanner`, deferred entries) must not change what classify reports: every
/// input gives the same findings, fields, line numbers and summary with and without it.
@Suite struct HitScanningTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D4_9BB1_3311_33EB
            return z ^ (z >> 31)
        }
    }

    static func run(_ bytes: [UInt8], hitScanning: Bool, threads: Int, blockSize: Int = 16 << 10) throws -> [String] {
        var options = ClassifyRun.Options()
        options.threads = threads
        options.blockSize = blockSize
        options.hitScanning = hitScanning
        options.hitScanningSmallInputs = true
        let reporter = TestSupport.CollectingReporter()
        let summary = try ClassifyRun(classifier: TestSupport.classifier, options: options)
            .run(sources: [MemoryByteSource(name: "t", bytes: bytes)], reporter: reporter)
        return reporter.entries.map { reported in
            let fields = reported.classification?.fields.map { "\($0.name)=\($0.value)" }.joined(separator: ",") ?? ""
            let e = reported.entry
            return "\(e.line)-\(e.endLine) \(reported.classification?.rule.id ?? "-") ×\(reported.count) t=\(e.truncated) "
                + "\(e.timestamp ?? "") \(e.process ?? "") \(e.pid.map(String.init) ?? "") [\(fields)] \(e.message)"
        } + ["entries \(summary.entries) classified \(summary.classified) findings \(summary.findings) truncated \(summary.truncatedEntries)"]
    }

    /// Scanning on one thread and on two must give what classifying every entry of the same blocks gives.
    /// (Blocks themselves are compared with line-by-line reading in `ClassifyRunTests`.)
    static func expectSameOutput(_ bytes: [UInt8], _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let reference = try run(bytes, hitScanning: false, threads: 2)
        for threads in [1, 2] {
            let scanned = try run(bytes, hitScanning: true, threads: threads)
            let firstDifference = zip(scanned, reference).first { $0 != $1 }.map { "\n  got      \($0.0.prefix(300))\n  expected \($0.1.prefix(300))" }
                ?? "\(scanned.count) vs \(reference.count) findings"
            let same = scanned == reference
            #expect(same, "\(label), \(threads) threads: \(firstDifference)", sourceLocation: sourceLocation)
        }
    }

    static func sampleLines(_ name: String) throws -> [String] {
        let url = TestSupport.packageRoot.appendingPathComponent("Samples/logs/\(name)")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static var sampleNames: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: TestSupport.packageRoot.appendingPathComponent("Samples/logs").path).sorted()) ?? []
    }

    /// Rewrites a sample's lines at random in ways that move literals around entries: noise lines
    /// (letters replaced), lines split in two (a literal may then sit only in a continuation line),
    /// blank and white-space lines, duplicates, CRLF endings, a pasted crash report.
    static func mutate(_ lines: [String], seed: UInt64) -> [UInt8] {
        var random = Seeded(state: seed)
        var out: [String] = []
        for line in lines {
            switch Int.random(in: 0..<12, using: &random) {
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
                // Noise after the literal-bearing part: the second half defanged.
                let half = line.index(line.startIndex, offsetBy: line.count / 2)
                out.append(String(line[..<half]) + String(line[half...].map { $0.isLetter ? "z" : $0 }))
            default: out.append(line)
            }
        }
        if Int.random(in: 0..<4, using: &random) == 0, let crash = try? String(
            contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/crash/dead10cc-sqlite.crash"), encoding: .utf8) {
            out.insert(contentsOf: crash.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                       at: Int.random(in: 0...out.count, using: &random))
        }
        let newline = Int.random(in: 0..<3, using: &random) == 0 ? "\r\n" : "\n"
        return Array(out.joined(separator: newline).utf8)
    }

    @Test func everySampleGivesTheSameOutputWithAndWithoutHitScanning() throws {
        #expect(!Self.sampleNames.isEmpty)
        for name in Self.sampleNames {
            let lines = try Self.sampleLines(name)
            try Self.expectSameOutput(Array((lines + lines).joined(separator: "\n").utf8), name)
        }
    }

    @Test func mutatedSamplesGiveTheSameOutputWithAndWithoutHitScanning() throws {
        for name in Self.sampleNames {
            let lines = try Self.sampleLines(name)
            for seed in 1...12 as ClosedRange<UInt64> {
                // Repeated so the input spans several 16 KiB blocks.
                var bytes: [UInt8] = []
                for round in 0..<6 { bytes += Self.mutate(lines, seed: seed &* 100 &+ UInt64(round)); bytes.append(0x0A) }
                try Self.expectSameOutput(bytes, "\(name) seed \(seed)")
            }
        }
    }

    /// A literal past the line cap is not part of the message, with or without scanning; one before it is.
    @Test func overlongLinesAreCutTheSameWay() throws {
        let literal = "CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110"
        let prefix = "2024-03-01 10:00:00.000000+0100 App[1:2] "
        let filler = String(repeating: "x", count: EntryLimits.maxMessageBytes)
        for text in [prefix + filler + literal, prefix + literal + filler, prefix + "noise\n" + filler + " " + literal] {
            try Self.expectSameOutput(Array((text + "\n" + prefix + "after\n").utf8), "overlong \(text.count)")
        }
    }

    @Test func noiseHasNoHitsAndLiteralLinesDo() throws {
        let scanner = try #require(TestSupport.classifier.hitScanner(for: .nslog))
        let noise = (0..<200).map { "2024-03-01 10:00:00.000000+0100 App[1:2] [UI] view did appear \($0)" }.joined(separator: "\n")
        var hits: [UInt32] = []
        Array(noise.utf8).withUnsafeBytes { scanner.scan($0, into: &hits) }
        #expect(hits.isEmpty)
        let text = noise + "\n2024-03-01 10:00:00.000000+0100 App[1:2] CoreData: error: Failed to call designated initializer\n" + noise
        Array(text.utf8).withUnsafeBytes { scanner.scan($0, into: &hits) }
        #expect(hits.count == 1)
        let line = try #require(hits.first.map { Int($0) })
        let lineStart = Array(text.utf8)[..<line].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        #expect(String(decoding: Array(text.utf8)[lineStart..<(lineStart + 60)], as: UTF8.self).contains("CoreData: error"))
    }

    @Test func jsonKeysAvoidEscapedBytes() {
        #expect(HitScanner.longestPlainRun(Array("a/bcd\"e".utf8), encoding: .jsonStrings).map { String(decoding: $0, as: UTF8.self) } == "bcd")
        #expect(HitScanner.longestPlainRun(Array("line one\nline".utf8), encoding: .lines).map { String(decoding: $0, as: UTF8.self) } == "line one")
        #expect(HitScanner.longestPlainRun(Array("/".utf8), encoding: .jsonStrings) == nil)
    }
}
