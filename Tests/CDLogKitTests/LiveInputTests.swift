import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Testing

/// A live input (`log stream` into a pipe) that pauses: what came before the pause is finished and
/// flushed then, the same way with one thread or two.
@Suite struct LiveInputTests {
    /// Hands out `chunks` in order; after each chunk but the last, the next wait reports a pause.
    struct PausingSource: ByteSource {
        let name = "-"
        var chunks: [[UInt8]]
        var next = 0
        var offset = 0
        var pausePending = false

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            pausePending = false
            guard next < chunks.count else { return 0 }
            let chunk = chunks[next]
            let count = min(buffer.count, chunk.count - offset)
            chunk.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            offset += count
            if offset == chunk.count {
                next += 1
                offset = 0
                pausePending = next < chunks.count
            }
            return count
        }

        /// Quiet until the reader gives up waiting and reads (blocking) again.
        mutating func waitForInput(milliseconds: Int32) throws -> Bool { !pausePending }
    }

    /// Records reported entries and flushes in order.
    final class EventWriter: FindingWriter {
        var events: [String] = []
        func report(_ entry: ClassifiedEntry) throws {
            events.append("\(entry.entry.line)-\(entry.entry.endLine) \(entry.classification?.rule.id ?? "-") ×\(entry.count)")
        }
        func flush() throws { events.append("flush") }
        func finish(summary: ClassifySummary) throws { events.append("finish \(summary.entries)") }
    }

    static func run(_ chunks: [String], threads: Int, pause: Int32? = 100) throws -> [String] {
        var options = ClassifyRun.Options()
        options.threads = threads
        options.blockSize = 4096
        options.pauseMilliseconds = pause
        let reporter = EventWriter()
        try ClassifyRun(classifier: TestSupport.classifier, options: options)
            .run(sources: [PausingSource(chunks: chunks.map { Array($0.utf8) })], reporter: reporter)
        return reporter.events
    }

    static let prefix = "2024-03-01 10:00:00.123456+0100 0x1f Error 0x0 123 0 Notes: (CoreData) [com.apple.coredata:error] "
    static let error = prefix + "CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 \"x\"\n"
    /// A quiet line: Default level (Core Data's subsystem at error level is never quiet).
    static let noise = "2024-03-01 10:00:00.123456+0100 0x1f Default 0x0 123 0 Notes: (CoreData) [com.apple.coredata:error] view did appear\n"

    @Test func entriesBeforeAPauseAreReportedAndFlushedAtThePause() throws {
        // The echo of the first error and a continuation line come in one burst with it; the second
        // error comes after a pause, after a partial line that the pause must not cut.
        let chunks = [Self.error + Self.error + "  more detail\n" + Self.noise + String(Self.noise.prefix(20)),
                      String(Self.noise.dropFirst(20)) + Self.error]
        for threads in [1, 2] {
            let events = try Self.run(chunks, threads: threads)
            #expect(events == ["1-1 coredata.migration.failed ×1", "2-3 coredata.migration.failed ×1",
                               "flush", "6-6 coredata.migration.failed ×1", "finish 5"],
                    "\(threads) threads: \(events)")
        }
    }

    @Test func withoutPausesTheOutputIsTheSameAsForAFile() throws {
        let text = Self.error + Self.noise + Self.error
        for threads in [1, 2] {
            let paused = try Self.run([String(text.prefix(30)), String(text.dropFirst(30))], threads: threads, pause: nil)
            #expect(paused == ["1-1 coredata.migration.failed ×1", "3-3 coredata.migration.failed ×1", "finish 3"])
        }
    }

    /// A pause in the middle of sending a pasted JSON document (`log show --style json`) does not cut it.
    @Test func documentsAreNotCutAtPauses() throws {
        func event(_ code: Int) -> String {
            "{\"timestamp\":\"2024-03-01 10:00:00.000000+0100\",\"eventMessage\":\"CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=\(code)\"}"
        }
        let document = "[" + event(134110) + ",\n" + event(134100) + "]\n"
        let middle = document.index(document.startIndex, offsetBy: document.count / 2)
        for threads in [1, 2] {
            let events = try Self.run([String(document[..<middle]), String(document[middle...])], threads: threads)
            #expect(events.filter { $0 != "flush" }.count == 3, "\(events)")
            #expect(!events.contains("flush"), "\(events)")
        }
    }
}
