import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing

/// Issue 22: work that grew with the input. Bare text on several threads was held until the end
/// (450 MB for a million lines with `--all`), and legacy crash text was parsed as one document (14 KB
/// per report, 64 MiB at most). Measured by counting, not timing: the reporter must have the early
/// findings while the source is still being read.
@Suite struct StreamingBoundTests {
    /// Memory in `chunk`-sized reads; records at each read how many entries the reporter already had.
    final class WatchedSource: ByteSource {
        let name = "watched"
        let bytes: [UInt8]
        let chunk: Int
        var offset = 0
        let reporter: TestSupport.CollectingWriter
        var reportedAtLastRead = -1
        init(_ bytes: [UInt8], chunk: Int, reporter: TestSupport.CollectingWriter) {
            self.bytes = bytes
            self.chunk = chunk
            self.reporter = reporter
        }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let n = min(buffer.count, chunk, bytes.count - offset)
            if n > 0 {
                bytes.withUnsafeBytes { all in
                    buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: n)
                }
                offset += n
            }
            if n == 0 || offset == bytes.count { reportedAtLastRead = reporter.entries.count }
            return n
        }
    }

    /// Bare lines (no header, no cut point) on two threads with every entry reported: they stream out
    /// while the input is read, in the same order as on one thread.
    @Test func bareTextStreamsOnSeveralThreads() throws {
        let text = (1...60_000).map { "plain app output line \($0)" }.joined(separator: "\n") + "\n"
        let bytes = Array(text.utf8)
        var outputs: [[String]] = []
        for threads in [1, 2] {
            let reporter = TestSupport.CollectingWriter()
            var options = ClassifyRun.Options()
            options.threads = threads
            options.blockSize = 4096
            options.includeUnclassified = true
            options.forcedFormat = .xcode
            let source = WatchedSource(bytes, chunk: 1 << 16, reporter: reporter)
            try ClassifyRun(classifier: TestSupport.classifier, options: options).run(sources: [source], reporter: reporter)
            #expect(reporter.entries.count == 60_000)
            // Before the last bytes were read, most entries had already gone out (collected, none had).
            #expect(source.reportedAtLastRead > 50_000, "threads \(threads): \(source.reportedAtLastRead) reported before the end")
            outputs.append(reporter.entries.map { "\($0.entry.line) \($0.entry.message)" })
        }
        #expect(outputs[0] == outputs[1])
    }

    static var legacyReport: String {
        get throws { try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/crash/dead10cc-sqlite.crash"), encoding: .utf8) }
    }

    /// Concatenated legacy reports: one entry each, emitted as they are read, with their own line
    /// numbers; more than 64 MiB of them is no longer refused.
    @Test func legacyCrashReportsAreReadOneAtATime() throws {
        let report = try Self.legacyReport
        let count = 300
        let text = String(repeating: "\n" + report, count: count)
        let reporter = TestSupport.CollectingWriter()
        var options = ClassifyRun.Options()
        options.includeUnclassified = true
        let source = WatchedSource(Array(text.utf8), chunk: 1 << 14, reporter: reporter)
        try ClassifyRun(classifier: TestSupport.classifier, options: options).run(sources: [source], reporter: reporter)
        // Echo folding folds identical reports; the summary counts every one.
        #expect(reporter.summary?.entries == count)
        #expect(source.reportedAtLastRead >= 0)
        let first = try #require(reporter.entries.first)
        #expect(first.entry.line == 2)
        #expect(first.entry.format == .crashReport)
        #expect(first.count == count, "identical reports fold into one finding with their count")
    }

    @Test func legacyReportsWithDifferentContentKeepTheirLineNumbers() throws {
        let report = try Self.legacyReport
        let other = report.replacingOccurrences(of: "OneMessenger", with: "OtherApp")
        let reportLines = report.split(separator: "\n", omittingEmptySubsequences: false).count
        let text = report + "\n" + other
        let entries = try TestSupport.entries(text, format: .crashReport)
        #expect(entries.count == 2)
        #expect(entries.map(\.line) == [1, reportLines + 1], "\(entries.map(\.line))")
        #expect(entries[1].message.contains("OtherApp"))
    }

    @Test func textWithoutAnyReportIsOneError() throws {
        #expect(throws: ToolFailure.self) { _ = try TestSupport.entries("\n\nHello\nworld\n", format: .crashReport) }
    }

    @Test func frameSignatureSearchIsByteExact() {
        #expect("-[NSManagedObjectContext save:]".includes("save:"))
        #expect(!"-[NSManagedObjectContext save:]".includes("Save:"))
        #expect("é-[NSSQLiteConnection connect]".includes("NSSQLiteConnection"))
        #expect("x".includes(""))
        #expect(!"".includes("x"))
    }
}
