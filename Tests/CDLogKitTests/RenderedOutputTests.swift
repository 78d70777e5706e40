import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing

/// With several threads, the jsonl, json and text reporters get most entries rendered on the classifying
/// threads (`RenderingFindingWriter`), each block's echoes folded there and only its first and last
/// findings folded again across blocks. The bytes written must be those of one thread.
@Suite struct RenderedOutputTests {
    /// What `cdlog classify --format FORMAT` writes for `bytes` (text in colour), read back from a file.
    static func output(_ bytes: [UInt8], format: FindingsFormat, threads: Int, blockSize: Int,
                       minimumSeverity: Severity = .debug, all: Bool = false) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-rendered-\(UUID().uuidString)").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        defer { unlink(path) }
        let sink = OutputSink(fd: fd, name: path)
        var options = ClassifyRun.Options()
        options.threads = threads
        options.blockSize = blockSize
        options.includeUnclassified = all
        options.minimumSeverity = minimumSeverity
        try ClassifyRun(classifier: TestSupport.classifier, options: options)
            .run(sources: [MemoryByteSource(name: "log", bytes: bytes, chunkSize: 1000)],
                 reporter: format.makeWriter(sink: sink, color: format == .text))
        close(fd)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static func expectSameBytes(_ bytes: [UInt8], _ label: String, blockSizes: [Int] = [512, 4096],
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for format in [FindingsFormat.jsonl, .json, .text] {
            for all in [false, true] {
                let reference = try output(bytes, format: format, threads: 1, blockSize: 4096, all: all)
                for blockSize in blockSizes {
                    for threads in [2, 3] {
                        let parallel = try output(bytes, format: format, threads: threads, blockSize: blockSize, all: all)
                        let difference = zip(parallel.split(separator: "\n"), reference.split(separator: "\n"))
                            .first { $0 != $1 }.map { "\n  \(threads) threads \($0.0.prefix(240))\n  1 thread  \($0.1.prefix(240))" } ?? ""
                        #expect(parallel == reference,
                                "\(label) \(format) all=\(all) block \(blockSize) threads \(threads)\(difference)",
                                sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }

    /// Runs of echoes (1 to 5 in a row, `error:` and `CoreData: error:` forms alternating) with noise
    /// between some of them, in blocks small enough that runs straddle block boundaries and blocks
    /// hold zero, one, two or many findings.
    @Test func echoRunsAcrossBlocksGiveTheBytesOfOneThread() throws {
        var random = SeededRandom(state: 7)
        let prefix = "2024-03-01 10:00:00.000000+0100 App[1:2] "
        var lines: [String] = []
        for i in 0..<300 {
            let event = "CoreData+CloudKit: -[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:](2200): - Never successfully initialized and cannot execute request '<NSCloudKitMirroringImportRequest: 0x2> \(i % 7)' due to error: Error Domain=CKErrorDomain Code=9 \"Not Authenticated\""
            for run in 0..<Int.random(in: 1...5, using: &random) {
                lines.append(prefix + (run % 2 == 0 ? "error: " : "CoreData: error: ") + event)
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                lines.append(prefix + "[UIKitCore] Snapshotting a view that has not been rendered \(Int.random(in: 0...99, using: &random))")
            }
        }
        try Self.expectSameBytes(Array(lines.joined(separator: "\n").utf8), "echo runs", blockSizes: [300, 512, 4096])
    }

    /// Every sample, mutated (multi-line entries and pasted crash reports longer than a block, CRLF).
    @Test func mutatedSamplesGiveTheBytesOfOneThread() throws {
        for name in ThreadEquivalenceTests.sampleNames {
            let lines = try ThreadEquivalenceTests.sampleLines(name)
            for seed in 1...2 as ClosedRange<UInt64> {
                try Self.expectSameBytes(ThreadEquivalenceTests.mutate(lines, seed: seed), "\(name) seed \(seed)")
            }
        }
    }

    /// Blocks count their lines when they are cut (so their threads can number lines as the source
    /// does); the count must be what a reader of the block counts, for any bytes.
    @Test func aBlockCountsTheLinesItsReaderHandsOut() throws {
        var random = SeededRandom(state: 11)
        let pieces: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D], Array("text".utf8), [0xFF, 0x00], Array(repeating: 0x61, count: 40)]
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...60, using: &random) { bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
            let block = bytes.withUnsafeBytes { ByteBlock(copying: $0) }
            let reader = LineReader(block: block, name: "b")
            while try reader.nextLine({ _, _ in }) {}
            #expect(block.lineCount == reader.lineNumber, "\(bytes)")
        }
    }
}
