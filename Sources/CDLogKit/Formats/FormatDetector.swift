import CDLogCore
import CrashReports

/// Decides a source's input format from its first bytes.
///
/// Contract: looks at most at `sampleBytes` bytes (given by the caller) and decides by content only.
/// Throws `ToolFailure` for input that is not text (an SQLite database, an image, binary junk), so the
/// user gets one clear line instead of garbage findings. Empty input is `.xcode` (no entries).
public enum FormatDetector {
    /// How much of a source detection looks at.
    public static let sampleBytes = 64 * 1024
    /// How many lines are scored.
    static let sampleLines = 200

    /// The line formats, in tie-break order (most specific first).
    static let lineFormats: [any LineFormat] = [
        LogDefaultFormat(), LogCompactFormat(), LogSyslogFormat(), DeviceSyslogFormat(), ConsoleAppFormat(), NSLogFormat(),
        TimestampedFormat(),
    ]

    public static func lineFormat(for format: InputFormat) -> any LineFormat {
        lineFormats.first { $0.format == format } ?? XcodeConsoleFormat()
    }

    public static func detect(_ sample: ArraySlice<UInt8>, sourceName: String) throws -> InputFormat {
        var bytes = sample
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: Array("SQLite format 3\0".utf8)) {
            throw ToolFailure("\(sourceName) is an SQLite database, not a log: inspect it with walcheck")
        }
        if looksBinary(bytes) {
            throw ToolFailure("\(sourceName) does not look like text (binary data); pass --input-format to read it anyway")
        }
        // A log that merely contains a pasted report stays a log (the splitter reads the report);
        // a source is a crash report when it does not open with a log line.
        if CrashReportReader.looksLikeCrashReport(bytes), !startsWithLogLine(bytes),
           !CrashReportReader.hasLinesBeforePastedReport(bytes) { return .crashReport }
        let firstNonSpace = bytes.first { !(ByteClass.isBlank($0) || $0 == 10 || $0 == 13) }
        if firstNonSpace == UInt8(ascii: "[") {
            // `log show --style json` opens an array of objects.
            let afterBracket = bytes.drop { $0 != UInt8(ascii: "[") }.dropFirst()
            if afterBracket.first(where: { !(ByteClass.isBlank($0) || $0 == 10 || $0 == 13) }) == UInt8(ascii: "{"),
               hasMessageKey(bytes) {
                return .logJSON
            }
        }
        if firstNonSpace == UInt8(ascii: "{") {
            // The first line with text (a converted CSV's header is an empty line).
            let firstLine = bytes.drop { ByteClass.isBlank($0) || $0 == 10 || $0 == 13 }.prefix { $0 != 10 }
            if firstLine.last == UInt8(ascii: "}") || firstLine.last == 13 || containsSequence(firstLine, "\"eventMessage\"") {
                // JSON with no message member (a CloudKit Web Services response, an app's error object printed
                // as JSON) is no log export: it is read as text, where the codes and phrases in it are found. Where
                // the objects are one a line, the member must be an object's own, not one nested in it (a plugin's
                // `{"result":{"sqliteCode":11,"message":"database disk image is malformed"}}`).
                if let decided = objectLinesHoldMessageMember(bytes) {
                    if decided { return .logNDJSON }
                } else if hasMessageKey(bytes) {
                    return .logNDJSON
                }
            }
        }
        return scoreLines(bytes)
    }

    /// True when `bytes` hold a JSON member named as the JSON readers take an event's message from
    /// (`"eventMessage"`, `"message"`, `"msg"`, each followed by `:`): a log export, not JSON that merely
    /// opens the text.
    static func hasMessageKey(_ bytes: ArraySlice<UInt8>) -> Bool {
        for key in ["\"eventMessage\"", "\"message\"", "\"msg\""] {
            let needle = Array(key.utf8)
            var index = bytes.startIndex
            while let found = firstIndex(of: needle, in: bytes, from: index) {
                var after = found + needle.count
                while after < bytes.endIndex, ByteClass.isBlank(bytes[after]) { after += 1 }
                if after < bytes.endIndex, bytes[after] == UInt8(ascii: ":") { return true }
                index = found + 1
            }
        }
        return false
    }

    /// Whether one of the first lines that hold a whole JSON object (up to five) has a top-level message member
    /// (`"eventMessage"`, `"message"`, `"msg"`); nil when no line holds a whole object (objects spread over lines).
    static func objectLinesHoldMessageMember(_ bytes: ArraySlice<UInt8>) -> Bool? {
        var objects = 0
        for line in bytes.split(separator: 10, maxSplits: 64, omittingEmptySubsequences: true).prefix(64) {
            let found: Bool? = line.withUnsafeBytes { raw in
                guard let object = EntrySplitter.objectLine(raw) else { return nil }
                var members = FlatJSONObject.Members(of: object)
                while let member = members.next() {
                    if FlatJSONObject.key(member.key, is: "eventMessage") || FlatJSONObject.key(member.key, is: "message")
                        || FlatJSONObject.key(member.key, is: "msg") { return true }
                }
                return false
            }
            guard let found else { continue }
            if found { return true }
            objects += 1
            if objects == 5 { break }
        }
        return objects > 0 ? false : nil
    }

    /// Where `needle` first occurs in `bytes` at or after `start`, or nil.
    private static func firstIndex(of needle: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, bytes.endIndex - start >= needle.count else { return nil }
        var index = start
        while index <= bytes.endIndex - needle.count {
            if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func scoreLines(_ bytes: ArraySlice<UInt8>) -> InputFormat {
        var scores = [Int](repeating: 0, count: lineFormats.count)
        forEachSampleLine(bytes) { line in
            guard !line.isEmpty else { return false }
            for (index, format) in lineFormats.enumerated()
            where format.header(of: line) != nil || format.indentedHeader(of: line) != nil {
                scores[index] += 1
            }
            return true
        }
        guard let best = scores.max(), best > 0 else { return .xcode }
        // A few prefixed lines among many bare ones still make the source prefixed: the bare lines are
        // continuations or bare console lines, which the prefixed formats also accept.
        return lineFormats[scores.firstIndex(of: best)!].format
    }

    /// True when a source of a prefixed `format` is mostly bare console text: among the sample's lines
    /// that start at the left margin and are no continuation (not indented, no frame, no `}`), those the
    /// bare reader would open a message with outnumber the prefixed ones more than one and a half times
    /// (a terminal run's five NSLog lines of the system's over eight lines the program printed), or more
    /// than twice where the sample holds fewer than four prefixed lines (two prefixed messages a page broke
    /// at 80 columns leave as many bare lines as that, and they are the messages' rest). A page that
    /// quotes one NSLog line above an app's `print` output, a simulator log whose one syslog line sits among
    /// relayed ones: there a bare line is another message, not the rest of the prefixed one above it. A
    /// capture that is mostly prefixed keeps its bare lines as continuations (a multi-line message).
    /// Decided once per source from the detection sample, so that every block of it is split alike.
    /// Where blank lines set the capture's messages apart (every prefixed line opens a paragraph, as a page
    /// that breaks each message over lines prints them: TN3163's `default  … 14:14:15.841696 …  App` over the
    /// message's lines), only a bare line that opens a paragraph of its own counts: the others are the
    /// lines of the prefixed message above them.
    public static func isMostlyBare(_ sample: ArraySlice<UInt8>, format: InputFormat) -> Bool {
        guard format != .xcode, format != .crashReport, format != .logJSON, format != .logNDJSON else { return false }
        let lineFormat = lineFormat(for: format)
        let bare = XcodeConsoleFormat()
        var prefixedLines = 0, prefixedParagraphs = 0
        var bareOpeners = 0, bareParagraphs = 0
        var afterBlank = true
        forEachSampleLine(sample) { line in
            guard line.contains(where: { !ByteClass.isBlankOrCR($0) }) else {
                afterBlank = true
                return false
            }
            defer { afterBlank = false }
            guard let first = line.first, !ByteClass.isBlank(first) else { return false }
            if lineFormat.header(of: line) != nil {
                prefixedLines += 1
                if afterBlank { prefixedParagraphs += 1 }
            } else if bare.header(of: line) != nil {
                bareOpeners += 1
                if afterBlank { bareParagraphs += 1 }
            }
            return true
        }
        if prefixedLines >= 2, prefixedParagraphs == prefixedLines { return bareParagraphs > 2 * prefixedLines }
        return prefixedLines > 0 && 2 * bareOpeners > (prefixedLines >= 4 ? 3 : 4) * prefixedLines
    }

    /// Calls `body` with each line of `bytes` (without its `\n` or `\r\n`) until `sampleLines` lines for
    /// which it returned true (the lines it counts).
    static func forEachSampleLine(_ bytes: ArraySlice<UInt8>, _ body: (UnsafeRawBufferPointer) -> Bool) {
        Array(bytes).withUnsafeBytes { raw in
            var start = 0
            var counted = 0
            while start < raw.count, counted < sampleLines {
                var end = start
                while end < raw.count, raw[end] != 10 { end += 1 }
                var lineEnd = end
                if lineEnd > start, raw[lineEnd - 1] == 13 { lineEnd -= 1 }
                if body(UnsafeRawBufferPointer(rebasing: raw[start..<lineEnd])) { counted += 1 }
                start = end + 1
            }
        }
    }

    /// True when some line of the sample opens with a console entry word (`CoreData:`, `error:`, a level
    /// word, `SwiftData`…), a known error form (`Error Domain=`, `<CKError`, `*** Terminating app`), or a
    /// crash (a pasted report's `Incident Identifier:`, `Exception Type:`, Crashlytics' `Crashed:`, AppKit's
    /// uncaught exception): bare text that is a console paste or a test run's output, not prose.
    public static func hasEntryWord(_ bytes: ArraySlice<UInt8>) -> Bool {
        let array = Array(bytes)
        return array.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                var end = start
                while end < raw.count, raw[end] != 10 { end += 1 }
                let line = UnsafeRawBufferPointer(rebasing: raw[start..<end])
                let i = ByteScan.spaces(line, at: 0)
                if XcodeConsoleFormat.startsEntryWord(line, at: i) || line.hasPrefix("Error Domain=", at: i)
                    || line.hasPrefix("<CKError", at: i) || line.hasPrefix("*** Terminating app", at: i)
                    || line.hasPrefix("Fatal error: ", at: i) || line.hasPrefix("Fatal Exception: ", at: i)
                    || line.hasPrefix("Incident Identifier:", at: i) || line.hasPrefix("Exception Type:", at: i)
                    || line.hasPrefix("Crashed: ", at: i) || line.hasPrefix("An uncaught exception was raised", at: i) { return true }
                start = end + 1
            }
            return false
        }
    }

    /// True when the first non-blank line is a console entry in some line format.
    static func startsWithLogLine(_ bytes: ArraySlice<UInt8>) -> Bool {
        let trimmed = bytes.drop { $0 == 10 || $0 == 13 || ByteClass.isBlank($0) }
        var line = Array(trimmed.prefix { $0 != 10 })
        if line.last == 13 { line.removeLast() }
        return line.withUnsafeBytes { raw in
            XcodeConsoleFormat.startsEntryWord(raw, at: 0) || lineFormats.contains { $0.header(of: raw) != nil }
        }
    }

    /// Text may contain tabs, escapes and the odd control byte; binary data has many NULs and controls.
    static func looksBinary(_ bytes: ArraySlice<UInt8>) -> Bool {
        let sample = bytes.prefix(8192)
        guard !sample.isEmpty else { return false }
        var suspicious = 0
        for b in sample where b < 32 && b != 9 && b != 10 && b != 13 && b != 27 && b != 12 { suspicious += 1 }
        return suspicious * 10 > sample.count
    }

    static func containsSequence(_ haystack: ArraySlice<UInt8>, _ needle: String) -> Bool {
        firstIndex(of: Array(needle.utf8), in: haystack, from: haystack.startIndex) != nil
    }
}
