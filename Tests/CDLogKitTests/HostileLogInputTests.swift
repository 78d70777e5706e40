import CDLogCore
@testable import CDLogKit
import Foundation
import Testing

/// Hostile console input (issue 8): samples cut anywhere, bad bytes, odd line ends, huge and tiny lines,
/// deep JSON — never a trap, and entries never depend on how the input was read.
@Suite struct HostileLogInputTests {
    struct View: Equatable {
        let line: Int, endLine: Int, message: String, truncated: Bool, timestamp: String?, process: String?
        init(_ e: Entry) {
            line = e.line; endLine = e.endLine; message = e.message; truncated = e.truncated
            timestamp = e.timestamp; process = e.process
        }
    }

    static let samplesDir = TestSupport.packageRoot.appendingPathComponent("Samples/logs")
    static let sampleNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: samplesDir.path)) ?? [])
        .filter { $0.hasSuffix(".log") }.sorted()
    static func sample(_ name: String) -> [UInt8] {
        [UInt8]((try? Data(contentsOf: samplesDir.appendingPathComponent(name))) ?? Data())
    }

    static func split(_ bytes: [UInt8], format: InputFormat? = nil, chunk: Int = 1 << 16, maxLine: Int = EntryLimits.maxMessageBytes) throws -> [View] {
        let reader = LineReader(source: MemoryByteSource(name: "t", bytes: bytes, chunkSize: chunk), blockSize: 4096, maxLineBytes: maxLine)
        var out: [View] = []
        try EntrySplitter(reader: reader, forcedFormat: format).forEachEntry { out.append(View($0.makeEntry(source: "t"))) }
        return out
    }

    /// As `cdlog classify --threads N` splits a source: blocks cut at entry boundaries, one splitter each.
    static func splitInBlocks(_ bytes: [UInt8], format: InputFormat, chunk: Int, blockSize: Int = 4096,
                              maxLine: Int = EntryLimits.maxMessageBytes) throws -> [View] {
        let isCutPoint = try #require(EntrySplitter.cutPointTest(for: format))
        let reader = LineReader(source: MemoryByteSource(name: "t", bytes: bytes, chunkSize: chunk), blockSize: blockSize, maxLineBytes: maxLine)
        var out: [View] = []
        var linesBefore = 0
        while let block = try reader.nextBlock(isCutPoint: isCutPoint) {
            let blockReader = LineReader(source: MemoryByteSource(name: "t", bytes: block, chunkSize: block.count),
                                         blockSize: max(block.count, 4096), maxLineBytes: maxLine)
            try EntrySplitter(reader: blockReader, forcedFormat: format).forEachEntry { raw in
                var e = raw.makeEntry(source: "t")
                e.line += linesBefore; e.endLine += linesBefore
                out.append(View(e))
            }
            linesBefore += blockReader.lineNumber
        }
        return out
    }

    @Test(arguments: sampleNames)
    func blockSplittingMatchesSequential(_ name: String) throws {
        let bytes = Self.sample(name)
        let format = try FormatDetector.detect(ArraySlice(bytes.prefix(FormatDetector.sampleBytes)), sourceName: name)
        let sequential = try Self.split(bytes)
        for chunk in [1, 7, 1 << 16] {
            #expect(try Self.splitInBlocks(bytes, format: format, chunk: chunk) == sequential, "\(name) chunk \(chunk)")
        }
    }
}
