import CDLogCore
@_spi(Testing) @testable import CDLogKit
import Foundation
import Testing

/// Issue 22: UTF-16 and UTF-32 logs (with or without a byte-order mark), classic Mac line ends and gzip
/// are read as the UTF-8 text they hold: the same findings as the UTF-8 original, on every chunking.
@Suite struct TextDecodingTests {
    static let text = """
    2024-01-01 10:00:01.000000+0000 App[1:2] CoreData: error: Store failed to load. NSSQLiteErrorDomain=11 ünïcödé 🧨 a
    2024-01-01 10:00:02.000000+0000 App[1:2] CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:] <NSCloudKitMirroringDelegate: 0x1>: Never successfully initialized and cannot execute request 𝄞
    2024-01-01 10:00:03.000000+0000 App[1:2] CoreData: error: Store failed to load. NSSQLiteErrorDomain=11 c

    """

    /// (rule, line, message) of every finding of a whole run.
    static func findings(_ bytes: [UInt8], chunk: Int = 1 << 16, threads: Int = 1) throws -> [String] {
        try TestSupport.classifyRun(bytes, threads: threads, chunkSize: chunk).0.entries.map {
            "\($0.classification?.rule.id ?? "-") \($0.entry.line) \($0.entry.message)"
        }
    }

    static func encoded(_ text: String, _ encoding: String.Encoding, bom: [UInt8] = []) -> [UInt8] {
        bom + [UInt8](text.data(using: encoding)!)
    }

    static let variants: [(String, [UInt8])] = [
        ("utf16 LE BOM", encoded(text, .utf16LittleEndian, bom: [0xFF, 0xFE])),
        ("utf16 BE BOM", encoded(text, .utf16BigEndian, bom: [0xFE, 0xFF])),
        ("utf16 LE", encoded(text, .utf16LittleEndian)),
        ("utf16 BE", encoded(text, .utf16BigEndian)),
        ("utf32 LE BOM", encoded(text, .utf32LittleEndian, bom: [0xFF, 0xFE, 0, 0])),
        ("utf32 BE BOM", encoded(text, .utf32BigEndian, bom: [0, 0, 0xFE, 0xFF])),
        ("utf32 LE", encoded(text, .utf32LittleEndian)),
        ("utf32 BE", encoded(text, .utf32BigEndian)),
        ("bare CR", Array(text.replacingOccurrences(of: "\n", with: "\r").utf8)),
        ("gzip", gzip(Array(text.utf8))),
        ("gzip of UTF-16", gzip(encoded(text, .utf16LittleEndian, bom: [0xFF, 0xFE]))),
        ("two gzip members", gzip(Array(text.utf8.prefix(150))) + gzip(Array(text.utf8.dropFirst(150)))),
    ]

    /// Everything `source` yields, read `bufferSize` bytes at a time.
    static func readAll(_ source: any ByteSource, bufferSize: Int) throws -> [UInt8] {
        var source = source
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { return out }
            out += buffer[0..<n]
        }
    }

    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try! process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try! input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    @Test(arguments: variants.indices)
    func sameFindingsAsUTF8(_ index: Int) throws {
        let (label, bytes) = Self.variants[index]
        let expected = try Self.findings(Array(Self.text.utf8))
        #expect(expected.count == 3 && expected.filter { !$0.hasPrefix("-") }.count >= 2, "the UTF-8 original is classified")
        for chunk in [1, 3, 7, 1 << 16] {
            #expect(try Self.findings(bytes, chunk: chunk) == expected, "\(label), chunks of \(chunk)")
        }
        #expect(try Self.findings(bytes, chunk: 5, threads: 2) == expected, "\(label), two threads")
    }

    /// Issue 21: a paste quoted (`> `) or indented as a whole splits as the text it quotes; line numbers stay.
    @Test(arguments: ["> ", ">", "    ", "\t", " "])
    func quotedOrIndentedPastesSplitAsPrinted(_ wrapper: String) throws {
        let plain = try Self.findings(Array(Self.text.utf8))
        let wrapped = Self.text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : wrapper + $0 }.joined(separator: "\n")
        for chunk in [1, 7, 1 << 16] {
            #expect(try Self.findings(Array(wrapped.utf8), chunk: chunk) == plain, "'\(wrapper)', chunks of \(chunk)")
        }
    }

    /// Issue 27: mandiant's unifiedlog_iterator CSV is read as its JSON Lines; a record's entry stands on the
    /// record's first line, and quoted commas, `""` and line feeds are the field's text.
    @Test func unifiedlogIteratorCSVIsReadRecordByRecord() throws {
        let header = "Timestamp,Event Type,Log Type,Subsystem,Thread ID,PID,EUID,Library,Library UUID,Activity ID,Category,Process,Process UUID,Message,Raw Message,Boot UUID,System Timezone Name"
        let first = "2025-11-25T13:05:26.434Z,Log,Error,com.apple.coredata,588211,812,501,/S/CoreData,6C3A,0,cloudkit,/private/var/containers/Bundle/Application/0A1B/Notes.app/Notes,6C3B,"
            + "\"CoreData: error: (14) I/O error for database at /x/Model.sqlite, \"\"quoted\"\"\nsecond line\",%s,A1,UTC"
        let second = "2025-11-25T13:05:27.000Z,Log,Default,com.example,1,812,501,/x,1,0,general,/x/Other,1,hello world,%s,A1,UTC"
        for lineEnd in ["\n", "\r\n"] {
            let text = [header, first, second].joined(separator: lineEnd) + lineEnd
            for chunk in [1, 7, 1 << 16] {
                let run = try TestSupport.classifyRun(Array(text.utf8), threads: 1, chunkSize: chunk).0
                let entries = run.entries.map(\.entry)
                #expect(entries.map(\.line) == [2, 4], "chunks of \(chunk)")
                #expect(entries.first?.message == "CoreData: error: (14) I/O error for database at /x/Model.sqlite, \"quoted\"\nsecond line")
                #expect(entries.first?.process == "Notes" && entries.first?.pid == 812 && entries.first?.level == "error")
                #expect(entries.first?.timestamp == "2025-11-25T13:05:26.434Z" && entries.last?.message == "hello world")
                #expect(run.entries.first?.classification?.category == .store)
            }
        }
        // A record cut by the end of the input is still read; a CSV with other columns is not converted.
        let cut = header + "\n" + "2025-11-25T13:05:26.434Z,Log,Error,com.apple.coredata,1,2,3,/x,u,0,c,/x/App,u,\"database disk image is malformed"
        #expect(try TestSupport.classifyRun(Array(cut.utf8), threads: 1).0.entries.first?.entry.message == "database disk image is malformed")
        #expect(!UnifiedLogCSVSource.isUnifiedLogCSV(Array("Timestamp,Level,Message\n".utf8)))
        // A quote that never closes ends its record after maxRecordLines lines; line numbers stay the CSV's.
        let open = header + "\n" + "t,Log,Error,s,1,2,3,/x,u,0,c,/x/App,u,\"disk I/O error" + String(repeating: "\nx", count: UnifiedLogCSVSource.maxRecordLines + 5)
            + "\n" + "t,Log,Default,s,1,2,3,/x,u,0,c,/x/App,u,after,%s,A1,UTC\n"
        let lines = try TestSupport.classifyRun(Array(open.utf8), threads: 1).0.entries.map(\.entry.line)
        #expect(lines.first == 2 && lines.count >= 2)
    }

    /// A paste a page HTML-escaped (`&lt;CKError …&gt;`, `&quot;`) is read as the console printed it, on
    /// every chunking (an entity cut between reads included); a log that holds raw `<` is left alone, and
    /// an `&` that starts no known entity is kept.
    @Test func anHTMLEscapedPasteIsReadAsPrinted() throws {
        let printed = "2024-01-01 10:00:01.000000+0000 App[1:2] <CKError 0x600000c3a1c0: \"Quota Exceeded\" (25/2035); server message = \"Quota exceeded\">\n"
            + "2024-01-01 10:00:02.000000+0000 App[1:2] Saved 3 items & 2 notes; R&D; &copy; kept\n"
        let escaped = printed.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        #expect(HTMLEntitySource.isEscaped(Array(escaped.utf8)))
        let plain = try Self.findings(Array(printed.utf8))
        #expect(plain.first?.hasPrefix("cloudkit.") == true || plain.first?.hasPrefix("account.") == true || plain.first?.hasPrefix("code.") == true, "\(plain)")
        for chunk in [1, 3, 7, 1 << 16] {
            #expect(try Self.findings(Array(escaped.utf8), chunk: chunk) == plain, "chunks of \(chunk)")
        }
        #expect(!HTMLEntitySource.isEscaped(Array("a &lt;b&gt; and a raw <private> value &quot;x&quot;".utf8)))
        #expect(!HTMLEntitySource.isEscaped(Array("one &lt; only".utf8)))
        // Unknown and unfinished entities stay as they were.
        let odd = "&lt;x&gt; &copy; &#x27;q&#39; &am &amp"
        let source = HTMLEntitySource(MemoryByteSource(name: "t", bytes: Array(odd.utf8), chunkSize: 2))
        #expect(String(decoding: try Self.readAll(source, bufferSize: 5), as: UTF8.self) == "<x> &copy; 'q' &am &amp")
    }

    @Test func ordinaryLogsAreNotUnwrapped() {
        // Continuation lines are indented, entries are not; a stray quote line is text.
        #expect(TextDecoding.pasteWrapping(Array("CoreData: error: x\n    userInfo = {\n    }\n> not a quote\nCoreData: b\n".utf8), whole: true) == (false, 0, false))
        #expect(TextDecoding.pasteWrapping(Array("> a\n> b\n>c\nd\n> e\n".utf8), whole: true) == (true, 0, false))
        #expect(TextDecoding.pasteWrapping(Array("  a\n    b\n\n  c".utf8), whole: false) == (false, 2, false))
        // `>>` and a `>` glued to the text are no quote of one line.
        #expect(TextDecoding.pasteWrapping(Array(">> one line only\n".utf8), whole: true) == (false, 0, false))
    }

    /// A line quoted or indented alone (`> CoreData: sql: SELECT …`, copied out of an issue) is unwrapped; the fences of a
    /// Markdown code block (```` ``` ````, ```` ```log ````, `~~~`, also inside a quote or an indented paste) are
    /// left out of the quote and indentation counts and blanked, line numbers kept.
    @Test func quotedLinesAndFencesAreUnwrapped() throws {
        #expect(TextDecoding.pasteWrapping(Array("> CoreData: sql: SELECT 1\n".utf8), whole: true) == (true, 0, false))
        // One line alone loses its indentation (a page's code block), as a whole indented paste does.
        #expect(TextDecoding.pasteWrapping(Array("    sql: SELECT 1\n".utf8), whole: true) == (false, 4, false))
        #expect(TextDecoding.pasteWrapping(Array("```\n> a\n> b\n```\n".utf8), whole: true) == (true, 0, true))
        #expect(TextDecoding.pasteWrapping(Array("```text\n    a\n    b\n```".utf8), whole: true) == (false, 4, true))
        #expect(TextDecoding.pasteWrapping(Array("> ```\n> a\n> b\n> ```\n".utf8), whole: true) == (true, 0, true))
        #expect(FenceBlankingSource.isFence(Array("```swift".utf8)) && FenceBlankingSource.isFence(Array("  ~~~ \r".utf8)))
        #expect(!FenceBlankingSource.isFence(Array("``".utf8)) && !FenceBlankingSource.isFence(Array("```let x = 1``` inline".utf8)))
        #expect(!FenceBlankingSource.isFence(Array("    ```".utf8)))
        let text = "```log\nCoreData: error: a\n`code` stays\n```\n~~~\nb\n~~~"
        for chunk in [1, 3, 64] {
            let source = try TextDecoding.prepare(MemoryByteSource(name: "t", bytes: Array(text.utf8), chunkSize: chunk))
            #expect(String(decoding: try Self.readAll(source, bufferSize: 7), as: UTF8.self) == "\nCoreData: error: a\n`code` stays\n\n\nb\n")
        }
    }

    @Test func detection() {
        #expect(TextDecoding.detectEncoding(Array("plain ascii text, long enough".utf8)).0 == .utf8)
        #expect(TextDecoding.detectEncoding([0xEF, 0xBB, 0xBF] + Array("utf-8 with a BOM".utf8)).0 == .utf8)
        // A UTF-8 log with the odd NUL is not taken for UTF-16.
        #expect(TextDecoding.detectEncoding(Array("a line\0 with a NUL and more text after it".utf8)).0 == .utf8)
        #expect(TextDecoding.detectEncoding(Self.encoded("enough text to tell", .utf16LittleEndian)) == (.utf16LE, 0))
        #expect(TextDecoding.detectEncoding([0xFF, 0xFE, 0x41, 0]) == (.utf16LE, 2))
    }

    @Test func invalidUnitsBecomeReplacementCharacters() throws {
        // A lone high surrogate, a lone low surrogate, an odd trailing byte.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x61, 0, 0x00, 0xD8, 0x62, 0, 0x00, 0xDC, 0x0A, 0, 0x63]
        let source = try TextDecoding.prepare(MemoryByteSource(name: "t", bytes: bytes, chunkSize: 1))
        #expect(String(decoding: try Self.readAll(source, bufferSize: 3), as: UTF8.self) == "a\u{FFFD}b\u{FFFD}\n\u{FFFD}")
    }

    @Test func brokenGzipIsOneLine() throws {
        let good = Self.gzip(Array(Self.text.utf8))
        for (label, bytes, wanted) in [("truncated", Array(good.prefix(good.count - 12)), "ends early"),
                                       ("corrupt", Array(good.prefix(10)) + [UInt8](repeating: 0xFF, count: 40), "corrupt")] {
            #expect(throws: ToolFailure.self, "\(label)") { _ = try Self.findings(bytes) }
            do { _ = try Self.findings(bytes) } catch let failure as ToolFailure {
                #expect(failure.message.contains(wanted) && !failure.message.contains("\n"), "\(label): \(failure.message)")
            }
        }
    }

    @Test func aGzipBombStreamsInBoundedSteps() throws {
        // 64 MiB of one letter compress to about 64 KiB; the source hands them out without holding them.
        let bomb = Self.gzip([UInt8](repeating: 0x61, count: 64 << 20))
        let source = GzipSource(MemoryByteSource(name: "t", bytes: bomb))
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            total += n
        }
        #expect(total == 64 << 20)
        #expect(source.largestStep <= 5 << 20, "one step held \(source.largestStep) bytes")
    }
}
