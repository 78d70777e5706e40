import CDLogCore

/// Turns one source into entries: detects (or is told) the format, then groups lines into entries so
/// that multi-line entries stay whole.
///
/// Contract: calls `emit` once per entry, in input order, with a `RawEntry` that is only valid during
/// the call. Memory stays bounded: one read block, one capped line and one capped entry. Throws
/// `ToolFailure` for unreadable input; never traps on any bytes.
public struct EntrySplitter {
    public let reader: LineReader
    public let format: InputFormat

    /// Opens the splitter over `reader`; `forcedFormat` skips detection.
    public init(reader: LineReader, forcedFormat: InputFormat? = nil) throws {
        self.reader = reader
        if let forcedFormat {
            format = forcedFormat
        } else {
            format = try FormatDetector.detect(try reader.peek(FormatDetector.sampleBytes), sourceName: reader.sourceName)
        }
    }

    public func forEachEntry(_ emit: (inout RawEntry) throws -> Void) throws {
        var entry = RawEntry()
        switch format {
        case .crashReport:
            let document = try reader.readRest(limit: EntryLimits.maxDocumentBytes)
            for prepared in try CrashReportReader.entries(fromDocument: document, source: reader.sourceName) {
                entry.reset(line: prepared.line, format: .crashReport)
                entry.endLine = prepared.endLine
                entry.prepared = prepared
                try emit(&entry)
            }
        case .logJSON, .logNDJSON:
            try splitJSONEvents(into: &entry, emit)
        default:
            try splitLines(FormatDetector.lineFormat(for: format), into: &entry, emit)
        }
    }

    private func splitLines(_ lineFormat: any LineFormat, into entry: inout RawEntry,
                            _ emit: (inout RawEntry) throws -> Void) throws {
        var open = false
        var pendingBlankLines = 0
        // Bare console text: a blank line ends an entry. Prefixed formats: a blank line may sit inside a
        // multi-line message, so it is kept when a continuation line follows.
        let blankEndsEntry = lineFormat.format == .xcode
        let prefixed = lineFormat.format != .xcode
        func flush() throws {
            if open { try emit(&entry) }
            open = false
            pendingBlankLines = 0
        }
        while try reader.nextLine({ line, truncated in
            let number = reader.lineNumber
            if isBlank(line) {
                if blankEndsEntry { try flush() } else if open { pendingBlankLines += 1 }
                return
            }
            if lineFormat.isBoilerplate(line) { try flush(); return }
            var header = lineFormat.header(of: line)
            if header == nil, prefixed, XcodeConsoleFormat.startsEntryWord(line, at: 0) {
                // Prefixed captures mix in bare console lines (`CoreData: …` printed without a prefix).
                header = LineHeader(messageStart: 0)
            }
            if let header {
                try flush()
                entry.reset(line: number, format: lineFormat.format)
                let prefixEnd = min(header.messageStart, line.count)
                entry.prefix.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[0..<prefixEnd]))
                entry.header = header
                entry.appendMessage(UnsafeRawBufferPointer(rebasing: line[prefixEnd...]))
                open = true
            } else if open {
                for _ in 0..<pendingBlankLines { entry.appendNewline() }
                pendingBlankLines = 0
                entry.appendNewline()
                entry.appendMessage(line)
                entry.endLine = number
            } else {
                // A continuation with nothing to continue (input starts mid-entry): its own entry.
                entry.reset(line: number, format: lineFormat.format)
                entry.appendMessage(line)
                open = true
            }
            if truncated { entry.truncated = true }
        }) {}
        try flush()
    }

    private func splitJSONEvents(into entry: inout RawEntry, _ emit: (inout RawEntry) throws -> Void) throws {
        var splitter = JSONEventSplitter()
        let format = self.format
        func emitObject(_ object: [UInt8], _ truncated: Bool, _ startLine: Int) throws {
            entry.reset(line: startLine, format: format)
            entry.endLine = reader.lineNumber
            entry.truncated = truncated
            var message: [UInt8]? = nil
            FlatJSONObject.members(object) { key, value, isString in
                switch key {
                case "eventMessage": message = value
                case "timestamp": entry.strings.timestamp = String(decoding: value, as: UTF8.self)
                case "processImagePath":
                    if entry.strings.process == nil {
                        let path = String(decoding: value, as: UTF8.self)
                        entry.strings.process = path.split(separator: "/").last.map(String.init) ?? path
                    }
                case "process": entry.strings.process = String(decoding: value, as: UTF8.self)
                case "processID": entry.strings.pid = Int(String(decoding: value, as: UTF8.self))
                case "threadID": entry.strings.thread = String(decoding: value, as: UTF8.self)
                case "subsystem": if !value.isEmpty { entry.strings.subsystem = String(decoding: value, as: UTF8.self) }
                case "category": if !value.isEmpty { entry.strings.logCategory = String(decoding: value, as: UTF8.self) }
                case "messageType": entry.strings.level = String(decoding: value, as: UTF8.self)
                default: break
                }
            }
            guard let message else { return }  // activity and signpost events carry no message
            message.withUnsafeBytes { entry.appendMessage($0) }
            try emit(&entry)
        }
        while try reader.nextLine({ line, _ in
            try splitter.feed(line, lineNumber: reader.lineNumber, emit: emitObject)
        }) {}
        try splitter.finish(emit: emitObject)
    }

    /// For formats that can be cut into independent blocks: a test for lines that start an entry and
    /// may begin a block. Nil for formats read as a whole (crash reports, `log show` JSON arrays).
    /// Every entry start is a cut point, echo lines (`CoreData: …`) included: echoes are folded after the
    /// blocks are merged back in order (`ClassifyRun.Merger`), so a cut between the two lines of an echo
    /// pair changes nothing. (Excluding them left Xcode consoles, where most lines start `CoreData: `,
    /// with no cut point for megabytes; blocks then ended at an arbitrary newline and tore multi-line
    /// entries in two, so `--threads 2` reported entries `--threads 1` did not. Found by Fuzz/FuzzLogs.)
    public static func cutPointTest(for format: InputFormat) -> ((UnsafeRawBufferPointer) -> Bool)? {
        switch format {
        case .crashReport, .logJSON: return nil
        case .logNDJSON: return { line in line.first == UInt8(ascii: "{") }
        default:
            let lineFormat = FormatDetector.lineFormat(for: format)
            return { line in lineFormat.header(of: line) != nil && !lineFormat.isBoilerplate(line) }
        }
    }

    private func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        for b in line where !ByteScan.isSpace(b) { return false }
        return true
    }
}
