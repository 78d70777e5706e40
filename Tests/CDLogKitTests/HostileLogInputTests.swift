import CDLogCore
@_spi(Testing) @testable import CDLogKit
import CrashReports
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
        let reader = LineReader(source: MemoryByteSource(name: "t", bytes: bytes, chunkSize: chunk), blockSize: blockSize, maxLineBytes: maxLine)
        return try #require(try EntrySplitter.entriesInBlocks(reader, format: format, sourceName: "t", maxLineBytes: maxLine)).map(View.init)
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

    /// A crash report pasted into bare console text goes on until the log resumes; an indented entry word
    /// (` CoreData: …`, as Xcode sometimes prints it) resumes it in one pass as it does where the input is
    /// cut into blocks (found by Fuzz/FuzzLogs: the cut test accepted the indented word, one pass did not).
    @Test func pastedReportEndsAtAnIndentedEntryWordWhereverTheInputIsCut() throws {
        var text = ""
        for k in 0..<40 { text += "CoreData: annotation: filler line \(k) before the report\n" }
        text += "Incident Identifier: 7E1D5C07-4D1B-4F1A-9C0B-2A1E3F4D5C6B\nHardware Model: iPhone14,2\n"
        for k in 0..<30 {
            text += "Thread \(k):\n0   libsystem_kernel.dylib  0x00000001 mach_msg_trap + 8\n"
            if k % 3 == 2 { text += " CoreData: error: indented entry \(k) after the report\n" }
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 4096)
        let sequential = try Self.split(bytes, format: .xcode)
        #expect(sequential.contains { $0.message.hasPrefix("CoreData: error: indented entry 2 ") })
        try Self.expectBlocksSplitAlike(bytes, sequential, chunks: [1, 7, 1 << 16])
    }
    /// Text broken at 72 columns (`SourceLayout.wrapWidth`) gives the same entries wherever it is cut into
    /// blocks: bare text is cut only before a console entry word, which the width never joins to the line
    /// above (`EntrySplitter.opensMessageAnywhere`), and every block is given the whole source's layout.
    @Test func textBrokenAtOneWidthGivesTheSameEntriesWhereverTheInputIsCut() throws {
        var text = ""
        for k in 0..<60 {
            let message = "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///var/mobile/x\(k).sqlite "
                + "options:{ NSInferMappingModelAutomaticallyOption = 1; } ... returned error Error Domain=NSCocoaErrorDomain "
                + "Code=134110 UserInfo={reason=Cannot migrate store in-place: constraint violation number \(k)}"
            var line = ""
            for word in message.split(separator: " ") {
                if !line.isEmpty, line.count + 1 + word.count > 72 { text += line + "\n"; line = String(word) } else { line += line.isEmpty ? String(word) : " " + word }
            }
            text += line + "\n"
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 4 * 4096)
        #expect(SourceLayout.wrapWidth(of: ArraySlice(bytes.prefix(FormatDetector.sampleBytes)), format: .xcode) != nil)
        let sequential = try Self.split(bytes, format: .xcode)
        #expect(sequential.count == 60)
        try Self.expectBlocksSplitAlike(bytes, sequential, chunks: [7, 1 << 16])
    }

    /// A spaced copy (`SourceLayout.isSpaced`) gives the same entries wherever it is cut into blocks: every
    /// block is given the whole source's layout, and a block opens at a text line.
    @Test func aSpacedCopyGivesTheSameEntriesWhereverTheInputIsCut() throws {
        var lines: [String] = []
        for k in 0..<120 {
            lines += ["CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 number \(k) UserInfo={",
                      "    reason = \"Cannot migrate store in-place\";", "}"]
        }
        let bytes = Array((lines.joined(separator: "\n\n") + "\n").utf8)
        #expect(bytes.count > 4 * 4096)
        #expect(SourceLayout.isSpaced(ArraySlice(bytes.prefix(FormatDetector.sampleBytes)), format: .xcode))
        let sequential = try Self.split(bytes, format: .xcode)
        #expect(sequential.count == 120)
        try Self.expectBlocksSplitAlike(bytes, sequential, chunks: [7, 1 << 16])
    }

    /// Expects bare console text `bytes` split in blocks of 4 096 and 5 000 bytes, read `chunks` bytes at a time, to
    /// give `sequential`, the entries of one reader over the whole text.
    static func expectBlocksSplitAlike(_ bytes: [UInt8], _ sequential: [View], chunks: [Int]) throws {
        for chunk in chunks {
            for blockSize in [4096, 5000] {
                #expect(try splitInBlocks(bytes, format: .xcode, chunk: chunk, blockSize: blockSize) == sequential,
                        "chunk \(chunk) block \(blockSize)")
            }
        }
    }

    /// Byte offsets where each entry's first line starts.
    static func entryStarts(_ bytes: [UInt8], _ entries: [View]) -> [Int] {
        var lineStart = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { lineStart.append(i + 1) }
        return entries.map { lineStart[$0.line - 1] }
    }

    @Test(arguments: sampleNames)
    func sampleCutAtEveryEntryBoundary(_ name: String) throws {
        let bytes = Self.sample(name)
        let full = try Self.split(bytes)
        #expect(!full.isEmpty)
        for (k, start) in Self.entryStarts(bytes, full).enumerated() {
            // Cut exactly at the boundary: the head holds the first k entries unchanged (the last one may
            // lose trailing blank lines only), the tail reads without error.
            let head = try Self.split(Array(bytes[..<start]))
            #expect(head.count == k, "\(name) cut before entry \(k + 1)")
            for (a, b) in zip(head, full) where a != b {
                #expect(a.line == b.line && a.message == b.message, "\(name) cut before entry \(k + 1)")
            }
            _ = try Self.split(Array(bytes[start...]))
            // One byte either side: never a trap.
            for cut in [start - 1, start + 1] where cut > 0 && cut < bytes.count {
                _ = try Self.split(Array(bytes[..<cut]))
                _ = try Self.split(Array(bytes[cut...]))
            }
        }
    }

    /// CRLF, invalid UTF-8 and stray NUL bytes: same entries (modulo the bytes themselves) at every read size.
    @Test(arguments: sampleNames)
    func mangledByChatApps(_ name: String) throws {
        let bytes = Self.sample(name)
        let full = try Self.split(bytes)
        var crlf: [UInt8] = []
        for b in bytes { if b == 0x0A { crlf.append(0x0D) }; crlf.append(b) }
        var invalid: [UInt8] = [], nul: [UInt8] = []
        for (i, b) in bytes.enumerated() {
            invalid.append(b); nul.append(b)
            if b == UInt8(ascii: " ") && i % 5 == 0 { invalid += [0xFF, 0xC3, 0x28, 0xE2, 0x82] }
            if b == UInt8(ascii: " ") && i % 50 == 0 { nul.append(0) }
        }
        let crlfEntries = try Self.split(crlf)
        #expect(crlfEntries == full, "\(name): CRLF")
        for (label, variant) in [("crlf", crlf), ("invalid", invalid), ("nul", nul)] {
            // Bad bytes may change how a line is read (a prefix that no longer parses), never whether it
            // can be read, and never with the read size.
            let reference = try Self.split(variant)
            #expect(!reference.isEmpty, "\(name) \(label)")
            for chunk in [1, 7] {
                #expect(try Self.split(variant, chunk: chunk) == reference, "\(name) \(label) chunk \(chunk)")
            }
        }
        #expect(try Self.split(invalid).contains { $0.message.contains("\u{FFFD}") })
    }

    /// The whole classify run (classification, echo folding, reporting) at read sizes 1, 7 and 64 KiB.
    @Test(arguments: sampleNames)
    func classifyRunDoesNotDependOnReadSize(_ name: String) throws {
        let bytes = Self.sample(name)
        func run(_ chunk: Int) throws -> [String] {
            let reporter = TestSupport.CollectingWriter()
            try ClassifyRun(classifier: TestSupport.classifier, options: ClassifyRun.Options())
                .run(sources: [MemoryByteSource(name: name, bytes: bytes, chunkSize: chunk)], reporter: reporter)
            return reporter.entries.map { "\($0.entry.line)-\($0.entry.endLine) \($0.classification?.rule.id ?? "-") ×\($0.count) \($0.entry.message)" }
        }
        let reference = try run(1 << 16)
        #expect(try run(1) == reference)
        #expect(try run(7) == reference)
    }

    /// Parallel classification of a large Xcode console (blocks of ≥ 1 MiB) gives the same output as one thread.
    @Test func parallelClassifyMatchesSequentialOnALargeConsole() throws {
        var bytes: [UInt8] = []
        let samples = Self.sampleNames.map(Self.sample)
        while bytes.count < 5 << 20 { for s in samples { bytes += s; bytes.append(0x0A) } }
        func run(threads: Int) throws -> [String] {
            var options = ClassifyRun.Options()
            options.threads = threads
            options.includeUnclassified = true
            let reporter = TestSupport.CollectingWriter()
            try ClassifyRun(classifier: TestSupport.classifier, options: options)
                .run(sources: [MemoryByteSource(name: "big", bytes: bytes)], reporter: reporter)
            return reporter.entries.map { "\($0.entry.line)-\($0.entry.endLine) ×\($0.count) \($0.entry.message.utf8.count)" }
        }
        let one = try run(threads: 1)
        #expect(try run(threads: 2) == one)
        #expect(try run(threads: 4) == one)
    }

    @Test func overlongLineIsCutTheSameWayAtEveryReadSizeAndInBlocks() throws {
        for length in [36, 37, 38, 39, 5000] {
            for ending in ["", "\n", "\r\n", "\r"] {
                let bytes = Array(("CoreData: error: " + String(repeating: "x", count: length - 17)).utf8) + Array(ending.utf8)
                    + Array("\nCoreData: error: after\n".utf8)
                let reference = try Self.split(bytes, maxLine: 37)
                #expect(reference.first?.truncated == (length > 37), "length \(length) ending \(ending.debugDescription)")
                for chunk in [1, 7, 36, 37, 38] {
                    #expect(try Self.split(bytes, chunk: chunk, maxLine: 37) == reference, "length \(length) chunk \(chunk)")
                }
                #expect(try Self.splitInBlocks(bytes, format: .xcode, chunk: 1, maxLine: 37) == reference)
            }
        }
    }

    @Test func aMillionOneByteLines() throws {
        let bytes = [UInt8](repeating: 0, count: 2_000_000).enumerated().map { $0.offset % 2 == 0 ? UInt8(ascii: "a") : 0x0A }
        let reader = LineReader(source: MemoryByteSource(name: "t", bytes: bytes))
        var count = 0, lastLine = 0
        try EntrySplitter(reader: reader).forEachEntry { count += 1; lastLine = $0.line }
        #expect(count == 1_000_000)
        #expect(lastLine == 1_000_000)
    }

    @Test func jsonNested100000LevelsDeep() throws {
        let depth = 100_000
        let nest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        // ndjson: the nested member is skipped without recursion; the event is still read.
        let ndjson = "{\"eventMessage\":\"CoreData: error: deep\",\"x\":\(nest)}\n{\"eventMessage\":\"after\"}\n"
        let events = try Self.split(Array(ndjson.utf8))
        #expect(events.map(\.message) == ["CoreData: error: deep", "after"])
        // log show --style json: an array of objects, one of them deep and unbalanced.
        let objects = String(repeating: "{\"a\":", count: depth)
        let json = "[{\"eventMessage\":\"first\"},\n{\"eventMessage\":\"deep\",\"x\":\(objects)1\n]"
        let jsonEvents = try Self.split(Array(json.utf8), format: .logJSON)
        #expect(jsonEvents.first?.message == "first")
        // A crash report body nested 100 000 levels: a one-line refusal, no stack overflow.
        let ips = "{\"bug_type\":\"309\",\"incident_id\":\"X\"}\n{\"exception\":" + String(repeating: "{\"a\":", count: depth) + "1"
        do {
            let crash = try Self.split(Array(ips.utf8))
            #expect(crash.count == 1)
        } catch let failure as ToolFailure {
            #expect(!failure.message.contains("\n"))
        }
    }

    @Test func ipsHeaderWithNoBody() throws {
        for body in ["", "\n", "\n\n   \n"] {
            let text = "{\"app_name\":\"Recipes\",\"bug_type\":\"309\",\"incident_id\":\"A1\",\"os_version\":\"iPhone OS 17.5\"}" + body
            let entries = try Self.split(Array(text.utf8))
            #expect(entries.count == 1)
            let parsed = try CrashReportReader.entries(fromDocument: Array(text.utf8), source: "x.ips")
            #expect(parsed.first?.presetFields.contains { $0.name == "partial" && $0.value == "true" } == true)
        }
    }

    static let crashNames: [String] = {
        let dir = TestSupport.packageRoot.appendingPathComponent("Samples/crash")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { !$0.hasSuffix(".md") }.sorted()
    }()

    /// Crash reports cut at every line boundary (and every 97 bytes): a partial entry or a one-line error.
    @Test(arguments: crashNames)
    func crashReportCutAnywhere(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/crash/\(name)")))
        var cuts = Set(stride(from: 0, to: bytes.count, by: 97))
        for (i, b) in bytes.enumerated() where b == 0x0A { cuts.insert(i); cuts.insert(i + 1) }
        var readable = 0
        for cut in cuts.sorted() {
            do {
                let entries = try CrashReportReader.entries(fromDocument: Array(bytes[..<cut]), source: name)
                #expect(!entries.isEmpty)
                readable += 1
            } catch let failure as ToolFailure {
                #expect(!failure.message.contains("\n"), "\(name) cut at \(cut): \(failure.message)")
            }
        }
        #expect(readable > 0)
    }

    /// Lines the splitter joins to the entry before them by context (iOS 14's per-line `addPersistentStore`
    /// fields, an exception's reason broken inside its quotes above a `CoreData:` line) are no place to cut
    /// a block: the entries are the same however the input is cut (found by an outside review: 20 045
    /// findings with two threads, 20 000 with one).
    @Test func contextJoinedLinesAreNeverCutApart() throws {
        var prefixed = "", bare = ""
        for k in 0..<300 {
            let stamp = "2021-02-03 04:05:\(String(format: "%02d", k % 60)).123456+0100 App[812:4021] "
            prefixed += stamp + "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///tmp/S\(k).sqlite options:{} ... returned error NSCocoaErrorDomain (134100) with userInfo dictionary {}\n"
            for field in ["CoreData: error: userInfo:", "CoreData: error: \tmetadata : {", "CoreData: error: storeType: SQLite",
                          "CoreData: error: configuration: (null)", "CoreData: annotation: options:"] {
                prefixed += stamp + field + "\n"
            }
            prefixed += stamp + "App started \(k)\n"
            bare += "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'bad \(k)\n"
            bare += "CoreData: error: Failed to save: Error Domain=NSCocoaErrorDomain Code=134110 item \(k)\n"
        }
        for text in [prefixed, bare] {
            let bytes = Array(text.utf8)
            let format = try FormatDetector.detect(ArraySlice(bytes.prefix(FormatDetector.sampleBytes)), sourceName: "t")
            let sequential = try Self.split(bytes)
            #expect(sequential.count == 600 || sequential.count == 300, "\(sequential.count) entries")
            for blockSize in [4096, 5000, 7777] {
                let blocks = try Self.splitInBlocks(bytes, format: format, chunk: 1 << 16, blockSize: blockSize)
                let same = blocks == sequential
                #expect(same, "\(format) block \(blockSize): \(blocks.count) entries, \(sequential.count) in one pass")
            }
        }
    }

    /// An entry cut at the message cap takes no more lines by context: a cut line that ends inside an open
    /// quote or a sentence no longer swallows the rest of the file, and each later line costs its own bytes
    /// (found by an outside review: 64 000 short lines after such an entry took 90 s, and 1 000 Core Data
    /// errors after an open quote were lost).
    @Test func anEntryCutAtTheCapTakesNoLineByContext() throws {
        let cap = 4096
        var text = "*** Terminating app due to uncaught exception 'NSGenericException', reason: '" + String(repeating: "could not ", count: 600) + "\n"
        text += "CoreData: error: Failed to save: Error Domain=NSCocoaErrorDomain Code=134110 after the cut\n"
        text += String(repeating: "x", count: 5000) + " \n"
        for k in 0..<2000 { text += "hello world \(k)\n" }
        let bytes = Array(text.utf8)
        let started = Date()
        let entries = try Self.split(bytes, format: .xcode, maxLine: cap)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(entries.first?.truncated == true)
        #expect(entries.contains { $0.message.hasPrefix("CoreData: error: Failed to save:") && $0.line == 2 })
        #expect(entries.contains { $0.message.hasPrefix("hello world 1999") })
        #expect(try Self.splitInBlocks(bytes, format: .xcode, chunk: 1 << 16, maxLine: cap) == entries)
    }

    /// A file a folder walk skips is named once, before its reason (an outside review found `skipped
    /// x.log: cannot open Permission denied`).
    @Test func aSkippedFilesReasonKeepsItsColon() {
        #expect(InputFolders.reason("cannot open /t/udir/b.log: Permission denied", path: "/t/udir/b.log") == "cannot open: Permission denied")
        #expect(InputFolders.reason("/t/a.gz is truncated", path: "/t/a.gz") == "is truncated")
    }
}
