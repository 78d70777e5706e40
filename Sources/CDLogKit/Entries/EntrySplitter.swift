import CDLogCore
import CScan
import CrashReports

/// Turns one source into entries: detects (or is told) the format, then groups lines into entries so
/// that multi-line entries stay whole.
///
/// Contract: calls `emit` once per entry, in input order, with a `RawEntry` that is only valid during
/// the call. Memory stays bounded: one read block, one capped line and one capped entry. Throws
/// `ToolFailure` for unreadable input; never traps on any bytes.
public struct EntrySplitter {
    public let reader: LineReader
    public let format: InputFormat
    /// What was read from the source's first bytes (`SourceLayout`).
    public let layout: SourceLayout
    /// Whether bare lines among the prefixed ones open messages as in bare console text: a source that is
    /// mostly bare with a few prefixed lines (`FormatDetector.isMostlyBare`). Always false for bare text.
    public var bareLinesOpen: Bool { layout.bareLinesOpen }
    /// Set by a caller that does not want every entry (a classifying run: `QuietEntrySkipper`): after each
    /// header line of a format with a C header parser, it may skip that entry and the ones after it, which
    /// are then counted, not emitted. Nil: every entry is emitted.
    public var skipper: (any EntrySkipper)?

    /// Opens the splitter over `reader`; `forcedFormat` skips detection. `layout` is read from the
    /// source's first bytes when not given; a part of a source (a block of a parallel run) is given the
    /// whole source's.
    public init(reader: LineReader, forcedFormat: InputFormat? = nil, layout: SourceLayout? = nil) throws {
        self.reader = reader
        if let forcedFormat {
            format = forcedFormat
        } else {
            format = try FormatDetector.detect(try reader.peek(FormatDetector.sampleBytes), sourceName: reader.sourceName)
        }
        if let layout {
            self.layout = layout
        } else {
            self.layout = try SourceLayout(sample: reader.peek(FormatDetector.sampleBytes), format: format)
        }
    }

    /// Calls `emit` for each entry. When the reader stops because a live input paused
    /// (`LineReader.pauseMilliseconds`), the entries begun so far are finished as at the end of input,
    /// then `onPause` is called and splitting goes on with the next line; without `onPause` this
    /// returns there.
    public func forEachEntry(onPause: (() throws -> Void)? = nil, _ emit: (inout RawEntry) throws -> Void) throws {
        var entry = RawEntry()
        switch format {
        case .crashReport where CrashReportReader.isLegacyText(try reader.peek(FormatDetector.sampleBytes)):
            try splitLegacyCrashReports(into: &entry, emit)
        case .crashReport:
            let document = try reader.readRest(limit: EntryLimits.maxDocumentBytes)
            for prepared in try CrashReportReader.entries(fromDocument: document, source: reader.sourceName) {
                entry.reset(line: prepared.line, format: .crashReport)
                entry.endLine = prepared.endLine
                entry.prepared = prepared
                try emit(&entry)
            }
        default:
            while true {
                if format == .logJSON || format == .logNDJSON {
                    try splitJSONEvents(into: &entry, emit)
                } else {
                    try splitLinesOfFormat(into: &entry, emit)
                }
                guard reader.stoppedAtPause, let onPause else { return }
                reader.resumeAfterPause()
                try onPause()
            }
        }
    }

    /// Legacy crash text, one report after another: each report (from one `Incident Identifier:` line to
    /// the next) is read, summarised and emitted before the next is read, so memory holds one report
    /// however many there are (whole documents cost about 14 KB of memory per report). A single report
    /// is capped at `EntryLimits.maxDocumentBytes`.
    private func splitLegacyCrashReports(into entry: inout RawEntry, _ emit: (inout RawEntry) throws -> Void) throws {
        var lines: [Substring] = []
        var firstLine = 0
        var bytes = 0
        var emitted = 0
        // Whether the lines so far hold a report's body (an exception, a thread, a resource event): only
        // then does an `Incident Identifier:` line start the next report. A resource report prints its
        // date and OS lines before its incident identifier.
        var hasBody = false
        let source = reader.sourceName
        func finish(_ entry: inout RawEntry) throws {
            defer { lines.removeAll(keepingCapacity: true); bytes = 0; hasBody = false }
            while let last = lines.last, CrashText.trim(last).isEmpty { lines.removeLast() }
            guard !lines.isEmpty else { return }
            // A resource report (`Event: cpu usage`) or a hang report (`Event: hang`) is read by its own reader.
            let report = CrashReportReader.readText(lines: lines[...], firstLineNumber: firstLine, format: .crash)
            guard CrashReportReader.isUsable(report) else { return }
            let prepared = CrashSummary.entry(for: report, source: source)
            entry.reset(line: prepared.line, format: .crashReport)
            entry.endLine = prepared.endLine
            entry.prepared = prepared
            emitted += 1
            try emit(&entry)
        }
        while try reader.nextLine({ line, _ in
            var text = String(decoding: line, as: UTF8.self)
            if reader.lineNumber == 1, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            let trimmed = CrashText.trim(Substring(text))
            if lines.isEmpty {
                if trimmed.isEmpty { return } // blank lines before a report
                firstLine = reader.lineNumber
            } else if trimmed.hasPrefix("Incident Identifier:"), hasBody {
                try finish(&entry)
                firstLine = reader.lineNumber
            }
            if !hasBody, trimmed.hasPrefix("Exception Type:") || trimmed.hasPrefix("Event:") || trimmed.hasPrefix("Thread ")
                || trimmed.hasPrefix("Termination Reason:") || trimmed.hasPrefix("Crashed Thread:") {
                hasBody = true
            }
            bytes += line.count + 1
            if bytes > EntryLimits.maxDocumentBytes {
                throw ToolFailure("\(source): crash report larger than \(EntryLimits.maxDocumentBytes >> 20) MB")
            }
            lines.append(Substring(text))
        }) {}
        try finish(&entry)
        if emitted == 0 { throw ToolFailure("\(source): \(CrashReportReader.noReportFound)") }
    }

    /// `splitLines` for the source's line format (`FormatDetector.lineFormat(for:)`) as its concrete type,
    /// so that the per-line `header(of:)` is a direct, inlinable call; through `any LineFormat` every
    /// line paid for opening the existential and a witness call.
    private func splitLinesOfFormat(into entry: inout RawEntry, _ emit: (inout RawEntry) throws -> Void) throws {
        let lineFormat = FormatDetector.lineFormat(for: format)
        if let concrete = lineFormat as? NSLogFormat { return try splitLines(concrete, into: &entry, emit) }
        if let concrete = lineFormat as? XcodeConsoleFormat { return try splitLines(concrete, into: &entry, emit) }
        if let concrete = lineFormat as? LogDefaultFormat { return try splitLines(concrete, into: &entry, emit) }
        if let concrete = lineFormat as? LogCompactFormat { return try splitLines(concrete, into: &entry, emit) }
        if let concrete = lineFormat as? LogSyslogFormat { return try splitLines(concrete, into: &entry, emit) }
        if let concrete = lineFormat as? ConsoleAppFormat { return try splitLines(concrete, into: &entry, emit) }
        if let concrete = lineFormat as? DeviceSyslogFormat { return try splitLines(concrete, into: &entry, emit) }
        try splitLines(lineFormat, into: &entry, emit)  // a format added later: same result, unspecialised
    }

    private func splitLines<Format: LineFormat>(_ lineFormat: Format, into entry: inout RawEntry,
                                                _ emit: (inout RawEntry) throws -> Void) throws {
        var open = false
        var pendingBlankLines = 0
        // Whether a line with the format's prefix has been read yet.
        var seenPrefix = false
        // Bare console text: a blank line ends an entry. Prefixed formats: a blank line may sit inside a
        // multi-line message, so it is kept when a continuation line follows.
        let blankEndsEntry = lineFormat.format == .xcode
        let prefixed = lineFormat.format != .xcode
        // A crash report pasted into the log is collected whole and read by CrashReportReader.
        var report: [UInt8] = []
        var reportStartLine = 0
        var inReport = false
        // The indentation of a pasted report's first line: a line indented less ends the report (a test
        // runner's or a page's own text after a quoted report).
        var reportIndent = 0
        // No local functions here: variables they capture are boxed, and then every access to them is
        // checked for exclusivity at run time (about six checks per line); the helpers are static and
        // take what they change as inout.
        let sourceName = reader.sourceName
        let bareLinesOpen = self.bareLinesOpen
        let wrapWidth = layout.wrapWidth
        let spaced = layout.spaced
        let metadataTrailers = layout.metadataTrailers && !prefixed
        // In such a copy, the open message ended with its metadata line: only that line's broken rest may follow.
        var closedByTrailer = false
        // In a spaced copy (`SourceLayout.isSpaced`), the first blank line after a text line is the copy's.
        var skippedSpacing = false
        let skipper = lineFormat.headerParser == nil ? nil : self.skipper
        let headerParser = lineFormat.headerParser
        // Whether the line before opened a `sample` run's analysis (`Analysis of sampling App (pid 51185) …`), whose
        // next line is a `Process:` header that opens no crash report.
        var previousOpensSampling = false
        while try reader.nextLine({ line, truncated in
            let number = reader.lineNumber
            let afterSampling = previousOpensSampling
            previousOpensSampling = line.first == UInt8(ascii: "A") && line.hasPrefix("Analysis of sampling ")
            if inReport {
                // The report goes on until the log resumes (a prefixed line or a console entry word).
                let dedented = reportIndent > 0 && !isBlank(line) && ByteScan.spaces(line, at: 0) < reportIndent
                let resumes = dedented || (lineFormat.header(of: line).map { EntrySplitter.resumesLog(line, header: $0, bare: !prefixed) } ?? false)
                if !resumes && report.count + line.count < EntryLimits.maxDocumentBytes {
                    report.append(contentsOf: line)
                    report.append(0x0A)
                    return
                }
                inReport = false
                try EntrySplitter.finishReport(&report, startLine: reportStartLine, format: lineFormat.format,
                                               source: sourceName, into: &entry, emit)
            }
            if EntrySplitter.mayStartPastedReport(line), !afterSampling,
               CrashReportReader.isPastedReportStart(Substring(String(decoding: line, as: UTF8.self))) {
                try EntrySplitter.flush(&open, &pendingBlankLines, &entry, emit)
                inReport = true
                reportStartLine = number
                reportIndent = ByteScan.spaces(line, at: 0)
                report.append(contentsOf: line)
                report.append(0x0A)
                return
            }
            if metadataTrailers {
                // Xcode's console copied with its metadata (`SourceLayout.hasMetadataTrailers`): a message runs to
                // its `Type: … | Timestamp: …` line, across blank lines (a layout warning's constraint list), and
                // only a line that opens an entry by itself starts another before it (Xcode prints a run of the
                // app's standard output under one `Type: stdio`).
                if isBlank(line) {
                    if open { pendingBlankLines += 1 }
                    return
                }
                if closedByTrailer {
                    // The metadata line's rest, where a page or a mail client broke it (`… | Process: App |` /
                    // `Library: CoreData | Subsystem: com.apple.coredata | …`), is the metadata's; anything else opens
                    // the next message.
                    if pendingBlankLines == 0, EntrySplitter.continuesMetadataTrailer(line)
                        || EntrySplitter.endsWithMetadataField(EntrySplitter.lastTextLine(of: entry.message.bytes)) {
                        entry.appendNewline()
                        entry.appendMessage(line)
                        entry.endLine = number
                        return
                    }
                    closedByTrailer = false
                    try EntrySplitter.flush(&open, &pendingBlankLines, &entry, emit)
                }
                let trailer = EntrySplitter.isMetadataTrailer(line)
                if trailer || (open && !entry.truncated && !EntrySplitter.opensEntryInBareText(line)) {
                    if open {
                        for _ in 0..<pendingBlankLines { entry.appendNewline() }
                        entry.appendNewline()
                    } else {
                        entry.reset(line: number, format: lineFormat.format)
                        open = true
                    }
                    pendingBlankLines = 0
                    entry.appendMessage(line)
                    entry.endLine = number
                    if truncated { entry.truncated = true }
                    if trailer { closedByTrailer = true }
                    return
                }
            }
            if isBlank(line) {
                if spaced, !skippedSpacing {
                    skippedSpacing = true
                    return
                }
                // Crashlytics sets one blank line between its header block and the crashed thread: kept open
                // across up to two.
                // Unity's player log sets one blank line between an exception's managed frames (`  at Store.Open ()
                // [0x00000] in <filename unknown>:0`) and its `(Filename: … Line: N)` line: kept open across it.
                // Go sets one blank line between `panic: <message>` and its goroutines' stacks, and Node one between the
                // line that threw (`throw e;` over a `^`) and the uncaught error: kept open across it.
                // Python sets one blank line before and after the sentence that chains a traceback to the one above it
                // (`During handling of the above exception, another exception occurred:`): kept open across them.
                if blankEndsEntry, !(open && pendingBlankLines < 2 && EntrySplitter.isCrashHeaderBlock(entry.message.bytes)),
                   !(open && pendingBlankLines == 0 && EntrySplitter.endsWithUnityFrame(entry.message.bytes)),
                   !(open && pendingBlankLines == 0 && EntrySplitter.isGoPanicLine(entry.message.bytes)),
                   !(open && pendingBlankLines == 0 && EntrySplitter.isLoneFatalHeading(entry.message.bytes)),
                   !(open && pendingBlankLines == 0 && EntrySplitter.endsWithCaretLine(entry.message.bytes)),
                   !(open && pendingBlankLines == 0 && entry.tracebackHead) {
                    try EntrySplitter.flush(&open, &pendingBlankLines, &entry, emit)
                } else if open { pendingBlankLines += 1 }
                return
            }
            skippedSpacing = false
            if lineFormat.isBoilerplate(line) { try EntrySplitter.flush(&open, &pendingBlankLines, &entry, emit); return }
            // The format's own prefix on this line, before any of the readings below changes `header`.
            let prefixHeader = lineFormat.header(of: line)
            var header = prefixHeader
            if header == nil, prefixed, let indented = lineFormat.indentedHeader(of: line) {
                // A timestamped line indented by the paste (a tab before `2020-06-14 16:26:48.788 App[…]`)
                // opens an entry as it did in the capture.
                header = indented
            }
            // Whether this line is read as bare console text: every line of bare text; in a prefixed
            // capture a line without the prefix before the first prefixed line (a build's or a tool's
            // output pasted above it: no prefixed message is open to continue), and every such line of a
            // capture that is mostly bare (there a bare line is more likely another message than the rest
            // of a prefixed one).
            var readBare = !prefixed
            if header != nil { seenPrefix = true } else if prefixed, open, !seenPrefix || bareLinesOpen {
                readBare = true
                header = XcodeConsoleFormat().header(of: line)
            }
            if header == nil, prefixed, XcodeConsoleFormat.startsEntryWord(line, at: 0) || EntrySplitter.opensWithLoggerTime(line) {
                // Prefixed captures mix in bare console lines (`CoreData: …` printed without a prefix), and
                // a library's own logger stamps its lines with the time of day alone (Couchbase Lite's
                // `12:08:15.750| WARNING: …`): a line with a stamp of its own is a message of its own.
                header = LineHeader(messageStart: 0)
            }
            // An entry cut at the message cap takes no more lines by context: its last line no longer changes,
            // so a test on it would hold for every line to come (and each would read that line again).
            let joinable = open && !entry.truncated
            if header != nil, joinable, pendingBlankLines == 0, entry.message.count < 80, EntrySplitter.holdsNoMessage(entry.message.bytes),
               ByteScan.timestamp(line, at: 0) == nil, !prefixed || prefixHeader == nil {
                // A prefix with no message after it (`2023-05-01 12:09:01.047 App[2562:2636828]`, or only a
                // logger's tag: `… [AppCenter]`), as a page that broke the line after it leaves it: the next
                // line without a prefix of its own is its message. (Asked of every line, so only a message under
                // 80 bytes is read: what a prefix leaves is short.)
                header = nil
            }
            if let header, joinable, EntrySplitter.continuesFieldList(&entry, line, messageStart: header.messageStart) {
                // iOS 14+ prints a failed addPersistentStore as a header line and one `CoreData: error:`
                // line per userInfo field, each a console entry of its own: one error, kept whole.
                entry.appendNewline()
                entry.appendMessage(UnsafeRawBufferPointer(rebasing: line[min(header.messageStart, line.count)...]))
                entry.endLine = number
                pendingBlankLines = 0
                return
            }
            if let header, joinable, prefixed, pendingBlankLines == 0,
               EntrySplitter.continuesAppKitException(entry, line, header: header)
                || EntrySplitter.continuesMonoCrash(entry, line, header: header) {
                // AppKit logs an uncaught exception as three lines of the same process: `An uncaught
                // exception was raised`, the reason, and `(` opening the backtrace: one exception. Mono
                // (Xamarin) prints its crash report one `critical:` line at a time: one report.
                entry.appendNewline()
                entry.appendMessage(UnsafeRawBufferPointer(rebasing: line[min(header.messageStart, line.count)...]))
                entry.endLine = number
                return
            }
            if let header, joinable, line[0..<min(header.messageStart, line.count)].allSatisfy(ByteClass.isBlank),
               EntrySplitter.continuesException(entry.message.bytes), !line.hasPrefix("Fatal Exception: "), !line.hasPrefix("Thread ") {
                // Crashlytics prints `Fatal Exception: NSInternalInconsistencyException` and the reason on the
                // next line (indented by a space where a page or a comment quoted it): one exception.
                entry.appendNewline()
                entry.appendMessage(line)
                entry.endLine = number
                pendingBlankLines = 0
                return
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.isLoneOpeningBracket(line) {
                // A dictionary or list printed on the lines under the message that holds it (`… (Cocoa error
                // 133000.)` / `{` / `NSUnderlyingException = "…";` / `}`, NSLog of an array): it opens on a
                // line of its own, and the lines up to its close belong to the message.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0,
               EntrySplitter.closesOpenBracket(line, after: entry.message.bytes) || EntrySplitter.staysInsideOpenBracket(line, after: &entry)
                || EntrySplitter.continuesOpenCKError(line, after: &entry) {
                // A dictionary or argument list the printer broke over lines (`… {sound: true, badge: true,` /
                // `provisional: true}`, a userInfo whose reason lists `Entity: attribute` lines): the lines
                // up to the one that closes it belong to it.
                header = nil
            }
            if header == nil, blankEndsEntry, open, pendingBlankLines > 0, entry.tracebackHead,
               !EntrySplitter.continuesChainedTraceback(line, after: entry.message.bytes) {
                // A traceback is kept open across a blank line only for the chain sentence and the chained traceback
                // under it: anything else after the blank, an indented line too, opens a message of its own.
                header = LineHeader(messageStart: 0)
            }
            if header != nil, joinable, readBare, pendingBlankLines > 0 {
                // Only a crash header block is still open after a blank line in bare text: what follows it is
                // its thread or its trap's message, or else a message of its own.
                // Unity's player log closes an exception and its managed frames with `(Filename: … Line: N)` after
                // a blank line: the same message.
                // Go sets a blank line between its panic and the goroutines' stacks: the heading and its frames go on.
                let goroutine = pendingBlankLines == 1 && EntrySplitter.isGoroutineHeading(line) && EntrySplitter.isGoPanicLine(entry.message.bytes)
                if goroutine { entry.goroutineStack = true }
                if goroutine || EntrySplitter.continuesCrashHeaderBlock(line, after: entry.message.bytes)
                    || (pendingBlankLines == 1 && entry.tracebackHead && EntrySplitter.continuesChainedTraceback(line, after: entry.message.bytes))
                    || (pendingBlankLines == 1 && line.hasPrefix("(Filename: "))
                    || (pendingBlankLines == 1 && EntrySplitter.isLoneFatalHeading(entry.message.bytes))
                    || (pendingBlankLines == 1 && EntrySplitter.endsWithCaretLine(entry.message.bytes)) {
                    header = nil
                } else {
                    try EntrySplitter.flush(&open, &pendingBlankLines, &entry, emit)
                }
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.announcesUncaughtException(entry.message.bytes) {
                // AppKit prints `An uncaught exception was raised`, then the reason and the backtrace on lines
                // of their own: one exception.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, line.first == UInt8(ascii: "N"),
               EntrySplitter.isUserInfoKeyLine(line) {
                // A userInfo key a poster put on its own line under the error (`NSLocalizedFailureReason=CloudKit
                // integration requires …`): the rest of the error above it.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesColumnFrames(line, after: entry.message.bytes) {
                // A hang or crash service's stack without frame numbers, in columns (`libsystem_kernel    0x1decd56c8
                // mach_msg2_trap`, as Sentry shows an App Hang): one stack.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesBrokenFrame(line, after: entry.message.bytes) {
                // A frame a page broke before its symbol (`0  libsystem_platform.dylib  0x1dd44820c` /
                // `_os_unfair_lock_unowned_abort + 36`) or before its location (`… std::__1::lock_guard` /
                // `(__mutex_base:90)`): the rest of the same frame.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesNumberedFrames(line, after: entry.message.bytes) {
                // Frames a poster picked out of a symbolicated stack (`0  _assertionFailure` / `4  SwiftData
                // _SD_get_faulting_backingdata_tsd`): numbered lines counting up are one stack.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.isBinaryImageLine(line),
               EntrySplitter.isBinaryImageLine(EntrySplitter.lastTextLine(of: entry.message.bytes)) {
                // A crash report's loaded images (`0x1b06b7000 - 0x1b09d8fff CoreData arm64 <…> /System/…`), pasted
                // without the rest of the report: one list, as the report's section is one.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.opensTraceback(line),
               EntrySplitter.endsAtErrorLevel(entry.message.bytes) {
                // Python's `logging.exception` prints its message at ERROR, then the traceback on the lines under it
                // (`workflow.py:2080 ERROR    database is locked` / `Traceback (most recent call last):`): one entry.
                header = nil
                entry.tracebackHead = true
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.tracebackHead,
               EntrySplitter.continuesChainedTraceback(line, after: entry.message.bytes) {
                // A chained traceback a page printed without Python's blank lines (`… PyiCloudAPIResponseException: …` / `The
                // above exception was the direct cause of the following exception:` / `Traceback (most recent call last):`).
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.tracebackHead, EntrySplitter.isPythonExceptionLine(line),
               EntrySplitter.endsWithIndentedLine(entry.message.bytes) {
                // Python prints the exception that ended a traceback at the left margin, under the last
                // frame's indented source line: the traceback's own last line.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.endLine == entry.line, line.hasPrefix("# Reported at: "),
               entry.message.bytes.hasPrefix("# Cause: ") {
                // Instabug's crash heading: the cause, then when it was reported.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.endLine == entry.line + 1,
               EntrySplitter.continuesIssueHeading(after: entry.message.bytes) {
                // A crash service's issue heading: the exception's name, the frame it blames, then the reason
                // (`NSInvalidArgumentException` / `specialized Store.delete(in:) + 75` / `Fetch must have an entity`).
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.message.bytes.first == UInt8(ascii: "C") || entry.message.bytes.first == UInt8(ascii: "T"),
               EntrySplitter.continuesCrashHeading(line, after: entry.message.bytes) {
                // Crashlytics' `Crashed: com.apple.main-thread` with the trap's message on the next line: one crash.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesTestFailure(line, after: entry.message.bytes) {
                // XCTest's failure line broken after its test name (`error: -[AppTests testSave] :`), the reason on
                // the next line and the exception's name in parentheses under it: one failure.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesLoaderMessage(line, after: entry.message.bytes) {
                // dyld's message for a launch it ended is several lines (`Library not loaded: @rpath/…`,
                // `Referenced from: …`, `Reason: tried: …`), under a report's `Termination Reason: DYLD 1`: one message.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.message.bytes.first == UInt8(ascii: "T"),
               EntrySplitter.continuesThreadListing(line, after: entry.message.bytes) {
                // Xcode's debug navigator copies a thread as `Thread 1`, `Queue : com.apple.main-thread (serial)`
                // and its frames (`#0	0x… in __psynch_mutexwait ()`): one thread's stack.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.message.bytes.first.map(ByteScan.isDigit) == true,
               EntrySplitter.continuesStampCells(line, after: entry.message.bytes) {
                // A log copied out of a web page's table puts each cell on a line of its own (`6/5/2026, 8:36:02 PM` /
                // `WARN` / `TokenApp` / the message): the cells after a date and time alone make one entry.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, line.first.map({ $0 >= 65 && $0 <= 90 }) == true,
               EntrySplitter.continuesErrorDetails(line, after: entry.message.bytes) {
                // An app's or a client's dump of an error puts its details on labelled lines under it (`Error: CloudKit
                // API error: HTTP 401` / `Server Error Code: AUTHENTICATION_FAILED` / `Reason: Authentication failed`):
                // the rest of the error above.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.mayBePrintedDetail(line),
               EntrySplitter.continuesPrintedDetail(line, after: &entry) {
                // What a tool prints under its message (`continuesPrintedDetail`): a runtime's `Stack trace:` heading and
                // the first frame under it (PHP's `Fatal error: Uncaught PDOException: … in …/workflow.php:428` / `Stack
                // trace:` / `#0 …/workflow.php(428): PDO->prepare(…)`; the frames after it count up), the `- ` items of a
                // message that announces a list (`[state-migrations] Legacy state migration warnings:` / `- Failed
                // migrating …`), GORM's statement under the location that failed (`… /merge.go:229 database disk image is
                // malformed` / `[141.428ms] [rows:623] SELECT …`; its first version puts the location alone over the
                // message: `(/…/database.go:370)` / `[2022-01-22 08:12:08]  no such table: widgets`), and Node's hint
                // under its warning (`(Use `node --trace-warnings ...` to show where the warning was created)`).
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.opensNamedDump(line) {
                // A dictionary the message above goes on to print under its name (Core Data's mirroring validator:
                // `Validating options: <NSCloudKitMirroringDelegateOptions: 0x…> …` / `storeOptions: {` / its keys / `}`):
                // the rest of that message.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesNodeModuleError(line, after: entry.message.bytes) {
                // Node's loader breaks its message for a native module built for another Node ABI over lines (`The
                // module '…/better_sqlite3.node'` / `was compiled against a different Node.js version using` /
                // `NODE_MODULE_VERSION 59. This version of Node.js requires` / …): one message.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.androidCrash,
               EntrySplitter.continuesAndroidCrash(line, after: entry.message.bytes) {
                // The Android runtime prints `FATAL EXCEPTION: main`, `Process: com.example, PID: 7036` and the exception
                // on lines of their own, its frames under it: one crash.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesRustPanic(line, after: entry.message.bytes) {
                // Rust prints `thread 'main' panicked at src/main.rs:19:22:`, the panic's message on the next line,
                // then a `note: run with `RUST_BACKTRACE=1`…` line: one panic.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesDartVMDump(line, after: entry.message.bytes) {
                // The Dart VM (Flutter's engine) prints its fatal error at a source location in its runtime
                // (`…/runtime/vm/runtime_entry.cc: 5095: error: …`), then `version=…`, `pid=…`, `os=…`,
                // `isolate_instructions=…` and `fp=…, sp=…, pc=…` lines and its frames: one dump.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.message.bytes.first.map({ $0 >= 65 && $0 <= 90 }) == true,
               EntrySplitter.isCapitalBanner(entry.message.bytes), ByteScan.timestamp(line, at: 0) == nil {
                // A banner in capitals on a line of its own (`BUG IN CLIENT OF CLOUDKIT:`, as a poster or a
                // note broke the line after it): the message it announces is the next line.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0,
               entry.message.bytes.first == UInt8(ascii: "A") || entry.message.bytes.first == UInt8(ascii: "D"),
               EntrySplitter.isSectionHeading(entry.message.bytes) {
                // A crash report's `Application Specific Information:` or `Dyld Error Message:` quoted alone: its text
                // follows it.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesCheckerReport(line, after: entry.message.bytes) {
                // Xcode's Thread Performance Checker prints its warning, `PID: …, TID: …`, `Backtrace`, a rule
                // of `=` and the frames: one report.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0,
               EntrySplitter.continuesCompilerDiagnostic(line, after: entry.message.bytes) {
                // clang's and swiftc's diagnostic prints the source line it points at and a caret line under it
                // (`…/AppDelegate.h:1:9: fatal error: 'Flutter/Flutter.h' file not found` / `#import <Flutter/Flutter.h>`
                // / `^~~~~~~`), after the `In file included from …:5:` lines that lead to it: one diagnostic.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, line.first == UInt8(ascii: "*"),
               EntrySplitter.continuesProcessStop(line, after: entry.message.bytes) {
                // lldb's `Process 19520 stopped`, then `* thread #9, …, stop reason = signal SIGABRT`: one report.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, line.first == UInt8(ascii: "F"), EntrySplitter.isFileFrame(line) {
                // Sentry's and Python's frames (`File "Store.swift", line 87, in Store.container.getter`) at the
                // margin, as a page that dropped their indentation prints them: frames of the open entry.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.endsWithCaretLine(entry.message.bytes),
               EntrySplitter.opensWithErrorName(line, afterGutter: entry.message.bytes) {
                // A runtime's print of the source line that threw, a caret under it and the error on the next line (Bun's
                // `426 |     sqlite.exec("PRAGMA journal_mode = DELETE");` / `^` / `SQLiteError: database is locked`).
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.endsWithLoneCausedBy(entry.message.bytes),
               ByteScan.timestamp(line, at: 0) == nil {
                // The cause a `Caused by:` line announces (Amplify's `Caused by:` / `APIError: Subscription item event failed
                // with error` / `Caused by:` / `connection`): the same error's chain.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.continuesNpmError(line, after: entry.message.bytes) {
                // npm's and node-gyp's report of an install or a build that failed prints every line under its tag
                // (`npm ERR! code 1` / `npm ERR! path …/node_modules/sqlite3` / `npm ERR! command failed`, `gyp ERR! build
                // error` / `gyp ERR! stack …`): one report (round 135's labels; their `WARN` lines stay apart).
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, entry.goroutineStack, EntrySplitter.continuesGoroutineStack(line) {
                // A Go panic's goroutine stack (`main.PanicOnErr(...)` / `	github.com/x/y/main.go:461 +0x654`), whose
                // function lines sit at the margin: every line up to the next blank one is the panic's.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, line.first == UInt8(ascii: "f"), EntrySplitter.isRubyFrame(line) {
                // Ruby's callers under an exception no code rescued (`from ./lib/AppleNoteStore.rb:678:in `rip_notes'`),
                // at the margin as a page that dropped their tab prints them: frames of the open entry.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, line.first == UInt8(ascii: "f") || line.first == UInt8(ascii: "*"),
               EntrySplitter.continuesThreadStop(line, after: entry.message.bytes) {
                // lldb's `* thread #1, …, stop reason = …` and its first frame, the indentation a page dropped.
                header = nil
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0,
               EntrySplitter.continuesWrappedSentence(line, after: entry.message.bytes, prefixWidth: entry.prefix.count) {
                // A long line broken mid-sentence by a page or a mail client (`… claim the NSManagedObject`
                // / `subclass 'Item' so +entity …`): the rest of the same message.
                header = nil
                entry.wrapped = true
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.mayOpenWithCommentMarker(line),
               let inner = EntrySplitter.commentContinuation(line, after: entry.message.bytes),
               EntrySplitter.continuesWrappedSentence(inner, after: entry.message.bytes, prefixWidth: entry.prefix.count) {
                // A message quoted in a code comment and wrapped by it (`/// SwiftData/BackingData.swift:940: Fatal
                // error: Never access a full` / `///   future backing data - …`): read past the comment's marker, the
                // rest of the same message.
                header = nil
                entry.wrapped = true
            }
            if header != nil, joinable, readBare, pendingBlankLines == 0, EntrySplitter.staysInsideQuotedReason(line, after: &entry) {
                // An exception's reason a poster or a page broke over several lines (`reason: 'Illegal attempt to
                // establish a` / `relationship 'owner' between objects in` / `different contexts …'`): until its
                // quote closes, the same message.
                header = nil
                entry.wrapped = true
            }
            if let lineHeader = header, lineHeader.messageStart == 0, let wrapWidth, joinable, readBare, pendingBlankLines == 0,
               EntrySplitter.brokeAtWidth(line, after: entry.message.bytes, prefixWidth: entry.prefix.count, width: wrapWidth) {
                // A source whose long lines a page, a mail client or a commit editor broke at one width
                // (`SourceLayout.wrapWidth`): a line whose first word had no room on the line above is the
                // rest of that line's message.
                header = nil
                entry.wrapped = true
            }
            if header == nil, open, prefixed, pendingBlankLines > 0, EntrySplitter.startsParagraph(line, orTypeName: true) {
                // A bare sentence after a blank line among prefixed entries (`The operation couldn’t be
                // completed. (SQLite.Result error 0.)` printed by the app after SQLite's log lines): its own message.
                header = LineHeader(messageStart: 0)
            }
            if header == nil, open, prefixed, EntrySplitter.startsBareMessage(line, after: entry.message.bytes),
               wrapWidth.map({ !EntrySplitter.brokeAtWidth(line, after: entry.message.bytes, prefixWidth: entry.prefix.count, width: $0) }) ?? true {
                // A bare line among prefixed ones (test-runner output, an app's print) after an entry
                // that ended its sentence is a message of its own, not a continuation.
                header = LineHeader(messageStart: 0)
            }
            if header == nil, open, prefixed, wrapWidth == nil, pendingBlankLines == 0,
               EntrySplitter.startsShortPrint(line, after: entry.message.bytes) {
                // An app's short print under a one-line log message (round 52's RP-P03).
                header = LineHeader(messageStart: 0)
            }
            if header == nil, open, readBare, line.first == 32, EntrySplitter.opensSiblingBullet(line, after: entry.message.bytes) {
                // A command-line logger that opens each message with an indented bullet (Go's apex/log handler: `   ⨯ query all
                // widgets failed  error=…` / `   • parsing launchpad config …`): a bullet is the next message, unless the open
                // message is a heading that announces the bullets (`Troubleshooting:` / `  • Verify …`).
                header = LineHeader(messageStart: 0)
            }
            if header == nil, open, line.count < 120, EntrySplitter.isRepeatNote(line) {
                // syslog's `Aug 18 16:29:34 --- last message repeated 1 time ---`: a line of its own, not the
                // rest of the message it counts.
                header = LineHeader(messageStart: 0)
            }
            if let header {
                try EntrySplitter.flush(&open, &pendingBlankLines, &entry, emit)
                if let skipper, let headerParser, !truncated,
                   let skipped = skipper.skip(line, messageStart: header.messageStart, parser: headerParser, reader: reader) {
                    skipper.skipped(skipped)
                    return
                }
                entry.reset(line: number, format: lineFormat.format)
                let prefixEnd = min(header.messageStart, line.count)
                entry.prefix.append(UnsafeRawBufferPointer(rebasing: line[0..<prefixEnd]))
                entry.header = header
                let first = UnsafeRawBufferPointer(rebasing: line[prefixEnd...])
                entry.appendMessage(first)
                EntrySplitter.readOpening(first, into: &entry)
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
                EntrySplitter.readOpening(line, into: &entry)
                open = true
            }
            if truncated { entry.truncated = true }
        }) {}
        if inReport {
            try EntrySplitter.finishReport(&report, startLine: reportStartLine, format: lineFormat.format,
                                           source: sourceName, into: &entry, emit)
        }
        try EntrySplitter.flush(&open, &pendingBlankLines, &entry, emit)
    }

    /// True when `line` (its message from `messageStart`) is one field of the per-line form of a failed
    /// `addPersistentStore` whose header line opened `message`: `CoreData: error: userInfo:`,
    /// `storeType:`, `configuration:`, `URL:`, `options:` or an indented `key : value` line, at `error` or
    /// `annotation` level.
    static func continuesFieldList(_ entry: inout RawEntry, _ line: UnsafeRawBufferPointer, messageStart: Int) -> Bool {
        guard isFieldLine(line, messageStart: messageStart) else { return false }
        // The open entry is such an error: its first line says `… returned error …` (read once an entry).
        if entry.returnsError == 0 {
            let message = entry.message.bytes
            let firstLineEnd = message.firstIndex(of: 10) ?? message.count
            entry.returnsError = UnsafeRawBufferPointer(rebasing: message[0..<firstLineEnd]).contains(sequence: "returned error") ? 1 : 2
        }
        return entry.returnsError == 1
    }

    /// True when `line` (its message from `messageStart`) has the shape of one field of the per-line form
    /// of a failed `addPersistentStore` (`continuesFieldList`), whatever entry is open.
    static func isFieldLine(_ line: UnsafeRawBufferPointer, messageStart: Int) -> Bool {
        guard messageStart < line.count else { return false }
        var i = messageStart
        // `[error] ` (the NSLog-style level column some captures print) before `CoreData: error: `.
        if line.hasPrefix("[", at: i), let close = line.firstIndex(of: UInt8(ascii: "]"), from: i, to: min(line.count, i + 16)) {
            i = ByteScan.spaces(line, at: close + 1)
        }
        // Fields print at `error` and, for the options, at `annotation` (`CoreData: annotation: options:`);
        // `log stream` styles print the level word alone (`annotation: \treason : …`).
        // Byte tests first: this runs on every line of a prefixed capture.
        guard i < line.count else { return false }
        if line[i] == UInt8(ascii: "C") {
            guard line.hasPrefix("CoreData: ", at: i) else { return false }
            i += 10
        }
        guard i < line.count else { return false }
        if line[i] == UInt8(ascii: "e"), line.hasPrefix("error: ", at: i) {
            i += 7
        } else if line[i] == UInt8(ascii: "a"), line.hasPrefix("annotation: ", at: i) {
            i += 12
        } else {
            return false
        }
        let isField = line.hasPrefix("userInfo:", at: i) || line.hasPrefix("storeType:", at: i) || line.hasPrefix("configuration:", at: i)
            || line.hasPrefix("URL:", at: i) || line.hasPrefix("options:", at: i)
            || (i < line.count && (line[i] == 9 || (line[i] == 32 && line.hasPrefix("  ", at: i))))
        return isField
    }

    /// True when `message` is an exception's name with its reason still to come: its only line is
    /// `Fatal Exception: Name` (Crashlytics, optionally after `Thread : `), nothing after the name, or the
    /// name alone, with or without a colon (`NSInvalidArgumentException:`, a crash reporter's title).
    /// (The caller keeps a next line that opens another exception or thread its own entry.)
    static func continuesException(_ message: UnsafeRawBufferPointer) -> Bool {
        guard message.count < 200, !message.contains(10) else { return false }
        let end = textEnd(of: message)
        let nameEnd = end > 0 && message[end - 1] == UInt8(ascii: ":") ? end - 1 : end
        if nameEnd > 10, message.hasPrefix("NS"), message.hasPrefix("Exception", at: nameEnd - 9),
           !message[0..<nameEnd].contains(where: { ($0 | 0x20) < 97 || ($0 | 0x20) > 122 }) {
            return true
        }
        var i = 0
        if message.hasPrefix("Thread : ") { i = 9 }
        guard message.hasPrefix("Fatal Exception: ", at: i) else { return false }
        i += 17
        guard end > i else { return false }
        return !message[i..<end].contains(32)
    }

    /// True when `line` (prefixed, with `header`) continues AppKit's report of an uncaught exception that
    /// `entry` opened: the same process (and pid, where printed) logs the reason right after `An uncaught
    /// exception was raised`, then `(` alone, which opens the backtrace.
    static func continuesAppKitException(_ entry: RawEntry, _ line: UnsafeRawBufferPointer, header: LineHeader) -> Bool {
        let message = entry.message.bytes
        // Cheapest first: this runs on every prefixed line that opens a message.
        guard message.first == UInt8(ascii: "A") else { return false }
        let firstLineEnd = message.firstIndex(of: 10) ?? message.count
        guard announcesUncaughtException(UnsafeRawBufferPointer(rebasing: message[0..<firstLineEnd])) else { return false }
        let start = min(header.messageStart, line.count)
        let text = UnsafeRawBufferPointer(rebasing: line[start...])
        let opensStack = text.first == UInt8(ascii: "(") && text.dropFirst().allSatisfy(ByteClass.isBlank)
        // The reason is the second line; the backtrace's `(` may follow it.
        guard firstLineEnd == message.count || opensStack else { return false }
        guard let process = header.process, let openProcess = entry.header.process,
              samePrefixPart(entry.prefix.bytes, openProcess, line, process) else { return false }
        if let pid = header.pid, let openPid = entry.header.pid { return samePrefixPart(entry.prefix.bytes, openPid, line, pid) }
        return true
    }

    /// True when `line` (prefixed, with `header`) continues the crash report Mono (Xamarin.iOS) logs one
    /// `critical:` line at a time (`critical: Stacktrace:`, `critical:   at SQLitePCL.raw.sqlite3_prepare_v2 …`,
    /// `critical: Native stacktrace:`): both messages open with `critical:` and the thread is the same.
    static func continuesMonoCrash(_ entry: RawEntry, _ line: UnsafeRawBufferPointer, header: LineHeader) -> Bool {
        let start = min(header.messageStart, line.count)
        // Cheapest first: this runs on every prefixed line that opens a message.
        guard start < line.count, line[start] == UInt8(ascii: "c"), line.hasPrefix("critical:", at: start),
              entry.message.bytes.hasPrefix("critical:") else { return false }
        guard let thread = header.thread, let openThread = entry.header.thread else { return false }
        return samePrefixPart(entry.prefix.bytes, openThread, line, thread)
    }

    /// True when `first[a]` and `second[b]` hold the same bytes (ranges checked against their buffers).
    private static func samePrefixPart(_ first: UnsafeRawBufferPointer, _ a: Range<Int>, _ second: UnsafeRawBufferPointer, _ b: Range<Int>) -> Bool {
        guard a.lowerBound >= 0, a.upperBound <= first.count, b.lowerBound >= 0, b.upperBound <= second.count,
              a.count == b.count else { return false }
        return first[a].elementsEqual(second[b])
    }

    /// Reads what the first line of a new entry says of the lines that may follow it, once per entry (the checks
    /// that use it run on every bare line): a Python traceback's head (`Traceback (most recent call last):`, opening
    /// the line or ending it after a runner's prefix: `[ERROR: input.scriptfilter] Code 1: Traceback (most recent call
    /// last):`) and the Android runtime's `FATAL EXCEPTION: main` heading.
    static func readOpening(_ first: UnsafeRawBufferPointer, into entry: inout RawEntry) {
        guard let opening = first.first else { return }
        let head: StaticString = "Traceback (most recent call last):"
        if opening == UInt8(ascii: "T"), first.hasPrefix(head) { entry.tracebackHead = true; return }
        if opening == UInt8(ascii: "F"), first.hasPrefix("FATAL EXCEPTION: ") { entry.androidCrash = true; return }
        var end = first.count
        while end > 0, first[end - 1] == 0x0D || ByteClass.isBlank(first[end - 1]) { end -= 1 }
        if end > 0, first[end - 1] == UInt8(ascii: ":"), first.hasPrefix(head, at: end - head.utf8CodeUnitCount) { entry.tracebackHead = true }
    }

    /// True when `line` is an exception line that may close a Python traceback (`sqlite3.DatabaseError: authorization
    /// denied`, `PermissionError: [Errno 1] …`, `KeyboardInterrupt`): a dotted name ending in `Error`, `Exception`,
    /// `Exit` or `Interrupt`, then `:`, a blank or the line's end. Read under an open traceback
    /// (`RawEntry.tracebackHead`) whose last line is indented (a frame or its source line).
    static func isPythonExceptionLine(_ line: UnsafeRawBufferPointer) -> Bool {
        let i = dottedNameEnd(of: line)
        guard i >= 4, i == line.count || line[i] == UInt8(ascii: ":") || ByteClass.isBlank(line[i]) else { return false }
        // The name's last letters, cheapest first: `r` (Error), `n` (Exception), `t` (Exit, Interrupt).
        switch line[i - 1] {
        case UInt8(ascii: "r"): return line.hasPrefix("Error", at: i - 5)
        case UInt8(ascii: "n"): return line.hasPrefix("Exception", at: i - 9)
        case UInt8(ascii: "t"): return line.hasPrefix("Exit", at: i - 4) || line.hasPrefix("Interrupt", at: i - 9)
        default: return false
        }
    }

    /// True when `line`, after a blank line, goes on the open traceback: the sentence that chains the next traceback
    /// to it (`During handling of the above exception, another exception occurred:`), or the chained traceback's head
    /// under that sentence.
    static func continuesChainedTraceback(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        if isTracebackChain(line) { return true }
        return line.hasPrefix("Traceback (most recent call last):") && isTracebackChain(lastTextLine(of: message))
    }

    /// Python's sentences between chained tracebacks.
    static func isTracebackChain(_ line: UnsafeRawBufferPointer) -> Bool {
        line.hasPrefix("During handling of the above exception, another exception occurred:")
            || line.hasPrefix("The above exception was the direct cause of the following exception:")
    }

    /// Where the dotted name opening `line` ends (letters, digits, `_` and `.`, at most 120 bytes):
    /// `sqlite3.OperationalError` in `sqlite3.OperationalError: database is locked`.
    @inline(__always) static func dottedNameEnd(of line: UnsafeRawBufferPointer) -> Int {
        var i = 0
        while i < line.count, i < 120 {
            let b = line[i]
            guard (b | 0x20) >= 97 && (b | 0x20) <= 122 || (b >= 48 && b <= 57) || b == 95 || b == 46 else { break }
            i += 1
        }
        return i
    }

    /// True when the last line of `message` is indented: a traceback's frame or its source line.
    static func endsWithIndentedLine(_ message: UnsafeRawBufferPointer) -> Bool {
        let start = lineStart(in: message, before: message.count)
        return start < message.count && ByteClass.isBlank(message[start])
    }

    /// True when `line` opens a Python traceback (`Traceback (most recent call last):`, indented or not) or a Lua one.
    static func opensTraceback(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first, first == UInt8(ascii: "T") || first == UInt8(ascii: "s") || ByteClass.isBlank(first) else { return false }
        var i = 0
        while i < line.count, i < 40, ByteClass.isBlank(line[i]) { i += 1 }
        // Lua's runtime prints its traceback under the error the same way (`*** ERROR: …/init.lua:36: attempt to index a nil
        // value` / `stack traceback:`), as Hammerspoon's console shows it.
        return line.hasPrefix("Traceback (most recent call last):", at: i) || line.hasPrefix("stack traceback:", at: i)
    }

    /// True when the last line of `message` is a logger's line at the ERROR or CRITICAL level: the traceback
    /// `logging.exception` prints goes under it (`workflow.py:2080 ERROR    database is locked`); or a line that
    /// announces the exception under it (Anki's dialog: `Caught exception:`).
    static func endsAtErrorLevel(_ message: UnsafeRawBufferPointer) -> Bool {
        let last = lastTextLine(of: message)
        if last.contains(sequence: "ERROR") || last.contains(sequence: "CRITICAL") { return true }
        let end = textEnd(of: last)
        return end >= 10 && (last.hasPrefix("exception:", at: end - 10) || last.hasPrefix("Exception:", at: end - 10))
    }

    /// True when the open message is a Thread Performance Checker warning (`Thread Performance Checker: …`)
    /// and `line` is the rest of its report: `PID: 812, TID: 40211`, `Backtrace`, the `====` rule under it.
    static func continuesCheckerReport(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        // Cheapest first: this runs on every bare line that opens a message.
        guard let first = line.first else { return false }
        if first == UInt8(ascii: "D") || first == UInt8(ascii: "O") || first == UInt8(ascii: "M") || first == UInt8(ascii: "T")
            || first == UInt8(ascii: "P") {
            // Xcode's (and xcodebuild's) internal assertion: `DVTAssertions: Warning in …`, then `Details:`,
            // `Object:`, `Method:`, `Thread:` and `Please file a bug at …` lines: one warning.
            if line.hasPrefix("Details:  ") || line.hasPrefix("Object:   ") || line.hasPrefix("Method:   ") || line.hasPrefix("Thread:   ")
                || line.hasPrefix("Please file a bug at ") {
                if message.contains(sequence: "DVTAssertions: ") { return true }
            }
        }
        guard first == UInt8(ascii: "P") || first == UInt8(ascii: "B") || first == UInt8(ascii: "="),
              message.first == UInt8(ascii: "T"), message.hasPrefix("Thread Performance Checker: ") else { return false }
        return line.hasPrefix("PID: ") || holdsAlone("Backtrace", line) || line.hasPrefix("=====")
    }

    /// True when `line` goes on with the compiler diagnostic `message` holds: the caret line under the diagnostic's
    /// source line (`^~~~~~`), the source line under a diagnostic still alone on its line, or the diagnostic an
    /// `In file included from …:5:` line leads to.
    static func continuesCompilerDiagnostic(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        // Cheapest first: this runs on every bare line that opens a message.
        guard let first = line.first, let opening = message.first else { return false }
        if first == UInt8(ascii: "^") || first == 32 || first == 9 {
            guard isCaretLine(line) else { return false }
            // The caret points into the source line quoted after a diagnostic.
            guard let newline = message.firstIndex(of: 0x0A, from: 0) else { return false }
            return isCompilerDiagnostic(UnsafeRawBufferPointer(rebasing: message[..<newline]))
                || (opening == UInt8(ascii: "I") && message.hasPrefix("In file included from "))
        }
        guard message.count <= 2_000 else { return false }
        let includeChain = opening == UInt8(ascii: "I") && message.hasPrefix("In file included from ")
        if includeChain, message.last == UInt8(ascii: ":") {
            // The include chain's lines, then the diagnostic they lead to.
            return line.hasPrefix("In file included from ") || isCompilerDiagnostic(line)
        }
        // The source line under a diagnostic alone in the message, or under the include chain that led to it. The
        // open message grows line by line: only its first newline is looked for (one `memchr`), never its last,
        // unless it is an include chain.
        if includeChain {
            guard let newline = message.lastIndex(of: 0x0A),
                  isCompilerDiagnostic(UnsafeRawBufferPointer(rebasing: message[(newline + 1)...])) else { return false }
        } else {
            // The diagnostic's test fails at the message's first `: ` for nearly every line: it comes first.
            guard isCompilerDiagnostic(message), !message.contains(byte: 0x0A, before: message.count) else { return false }
        }
        // Any line but another diagnostic, a build's summary (`1 error generated.`), a banner (`=== BUILD TARGET …`,
        // `** BUILD FAILED **`) or the linker's and driver's own.
        if first == UInt8(ascii: "="), line.hasPrefix("===") { return false }
        if first == UInt8(ascii: "*"), line.hasPrefix("** ") { return false }
        if line.hasPrefix("In file included from ") || line.hasPrefix("ld: ") || line.hasPrefix("clang: ")
            || line.hasPrefix("error: ") || line.hasPrefix("warning: ") || isCompilerDiagnostic(line) { return false }
        // Nor a line that opens a message wherever it stands (`CoreData: error: …`, a trap at its location, a date):
        // a linter's diagnostic in a console is often followed by the app's own output, not by a source line.
        if opensMessageAnywhere(line) { return false }
        if first >= 48, first <= 57, let digits = ByteScan.digits(line, at: 0),
           line.hasPrefix(" error", at: digits) || line.hasPrefix(" warning", at: digits) { return false }
        return true
    }

    /// True when `line` holds only a compiler's caret and its range marks (`^~~~~~~`, `~~~^~~~`), after any indentation.
    static func isCaretLine(_ line: UnsafeRawBufferPointer) -> Bool {
        var caret = false
        for byte in line {
            if byte == UInt8(ascii: "^") { caret = true; continue }
            if byte == UInt8(ascii: "~") || byte == 32 || byte == 9 || byte == 0x0D { continue }
            return false
        }
        return caret
    }

    /// True when `line` is a compiler's diagnostic at its source location: a file, its line and column, and the
    /// diagnostic's kind (`/x/AppDelegate.h:1:9: fatal error: …`, `Item.swift:12:5: warning: …`, `x.m:3:1: note: …`).
    /// A path may hold spaces but no `: `, so the first colon followed by a blank is the one after the location.
    static func isCompilerDiagnostic(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count >= 12, line.count <= 4_000, let first = line.first, first != 32, first != 9 else { return false }
        var from = 0
        while let colon = line.firstIndex(of: UInt8(ascii: ":"), from: from) {
            from = colon + 1
            guard colon + 1 < line.count, line[colon + 1] == 32 else { continue }
            guard colon > 0, ByteScan.isDigit(line[colon - 1]) else { return false }
            let kind = colon + 2
            if line.hasPrefix("error: ", at: kind) || line.hasPrefix("fatal error: ", at: kind)
                || line.hasPrefix("warning: ", at: kind) || line.hasPrefix("note: ", at: kind) {
                // The location before it: `name.ext:line:column:` (XCTest's `name.swift:53: error: -[…] : failed`
                // has no column and quotes no source line).
                var i = colon - 1
                while i > 0, ByteScan.isDigit(line[i - 1]) { i -= 1 }
                guard i > 1, line[i - 1] == UInt8(ascii: ":") else { return false }
                var j = i - 1
                guard j > 0, ByteScan.isDigit(line[j - 1]) else { return false }
                while j > 0, ByteScan.isDigit(line[j - 1]) { j -= 1 }
                guard j > 1, line[j - 1] == UInt8(ascii: ":") else { return false }
                j -= 1
                // A file name with an extension before the location.
                var k = j - 1
                while k > 0, line[k] != UInt8(ascii: "."), line[k] != UInt8(ascii: "/"), j - k <= 12 { k -= 1 }
                return line[k] == UInt8(ascii: ".") && k + 1 < j
            }
            return false
        }
        return false
    }

    /// True when `message` opened with a line that holds a date and a time alone (a table's first cell), every
    /// line after it is one short word (a level, a source: the next cells), three lines at most, and `line` is
    /// not another date and time: `line` is the next cell of the same row.
    static func continuesStampCells(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard message.count <= 120, !isStampCell(line) else { return false }
        var lines = 0, start = 0
        for index in 0...message.count where index == message.count || message[index] == 0x0A {
            let cell = UnsafeRawBufferPointer(rebasing: message[start..<index])
            if lines == 0 {
                guard isStampCell(cell) else { return false }
            } else if cell.isEmpty || cell.count > 40 || cell.contains(where: ByteClass.isBlank) {
                return false
            }
            lines += 1
            start = index + 1
        }
        return lines <= 3
    }

    /// True when `line` is a date and a time of day and nothing else (`6/5/2026, 8:36:02 PM`, `2024-03-01 10:22:31.114`,
    /// `2024-03-01T10:22:31Z`): digits, date and time separators, and an AM or PM at the end.
    static func isStampCell(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, ByteClass.isBlankOrCR(line[end - 1]) { end -= 1 }
        guard end >= 8, end <= 40, ByteScan.isDigit(line[0]) else { return false }
        if end > 3, line[end - 1] == UInt8(ascii: "M"), line[end - 2] == UInt8(ascii: "A") || line[end - 2] == UInt8(ascii: "P"),
           line[end - 3] == 32 { end -= 3 }
        var colons = 0, dateMarks = 0
        for index in 0..<end {
            let b = line[index]
            switch b {
            case 48...57, UInt8(ascii: "."), UInt8(ascii: ","), 32, UInt8(ascii: "+"), UInt8(ascii: "T"), UInt8(ascii: "Z"): continue
            case UInt8(ascii: ":"): colons += 1
            case UInt8(ascii: "/"), UInt8(ascii: "-"): dateMarks += 1
            default: return false
            }
        }
        return colons >= 2 && dateMarks >= 2
    }

    /// True when `message`'s last line is a managed frame as Unity's player log prints it (`  at X.Y () [0x00000] in
    /// <filename unknown>:0`).
    static func endsWithUnityFrame(_ message: UnsafeRawBufferPointer) -> Bool {
        let last = lastTextLine(of: message)
        return last.count > 30 && last.hasPrefix("  at ") && last.contains(sequence: " in <filename unknown>:")
    }

    /// True when `message` is a crash report's heading whose text is on the lines below it
    /// (`Application Specific Information:`, `Dyld Error Message:`), alone.
    static func isSectionHeading(_ message: UnsafeRawBufferPointer) -> Bool {
        holdsAlone("Application Specific Information:", message) || holdsAlone("Dyld Error Message:", message)
    }

    /// True when `line` is lldb's `* thread #N, …` under its `Process N stopped` line, the open message's last,
    /// or under the backtrace command that printed it (`(lldb) bt`, `(lldb) bt all`, `(lldb) thread backtrace`).
    static func continuesProcessStop(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        // Cheapest first: this runs on every bare line that opens a message.
        guard line.first == UInt8(ascii: "*"), line.hasPrefix("* thread #") else { return false }
        let last = lastTextLine(of: message)
        if last.hasPrefix("(lldb) ") {
            var end = last.count
            while end > 0, ByteClass.isBlankOrCR(last[end - 1]) { end -= 1 }
            let command = UnsafeRawBufferPointer(rebasing: last[7..<max(7, end)])
            return command.elementsEqual("bt".utf8) || command.elementsEqual("bt all".utf8)
                || command.elementsEqual("thread backtrace".utf8) || command.elementsEqual("thread backtrace all".utf8)
        }
        guard last.hasPrefix("Process "), let digitsEnd = ByteScan.digits(last, at: 8) else { return false }
        return digitsEnd + 8 == last.count && last.hasPrefix(" stopped", at: digitsEnd)
    }

    /// True when `message` is AppKit's `An uncaught exception was raised` alone: its reason follows.
    static func announcesUncaughtException(_ message: UnsafeRawBufferPointer) -> Bool {
        holdsAlone("An uncaught exception was raised", message)
    }

    /// True when `message` is `phrase` and nothing else but trailing blanks.
    static func holdsAlone(_ phrase: StaticString, _ message: UnsafeRawBufferPointer) -> Bool {
        let end = textEnd(of: message)
        return end == phrase.utf8CodeUnitCount && message.hasPrefix(phrase)
    }

    /// Where `message`'s text ends: its length less the trailing blanks.
    static func textEnd(of message: UnsafeRawBufferPointer) -> Int {
        var end = message.count
        while end > 0, ByteClass.isBlank(message[end - 1]) { end -= 1 }
        return end
    }

    /// True when `line` is syslog's note that it folded repeats (`--- last message repeated 2 times ---`),
    /// after at most 40 bytes of time stamp or prefix.
    static func isRepeatNote(_ line: UnsafeRawBufferPointer) -> Bool {
        var from = 0
        while let dash = line.firstIndex(of: UInt8(ascii: "-"), from: from, to: min(line.count, 41)) {
            if line.hasPrefix("--- last message repeated ", at: dash) { return true }
            from = dash + 1
        }
        return false
    }

    /// True when `message` holds no text but blanks and loggers' tags in brackets (`[AppCenter]`,
    /// `[connection] [C8]`): what is left of a line a page broke right after its prefix.
    static func holdsNoMessage(_ message: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < message.count {
            let byte = message[i]
            if ByteClass.isBlank(byte) { i += 1; continue }
            // Core Data's tag with nothing after it (`[error] CoreData:`, `CoreData: warning:`): its text is on
            // the next line.
            if byte == UInt8(ascii: "C") {
                let end = textEnd(of: message)
                return message[end - 1] == UInt8(ascii: ":") && frameworkTagStart(message, end: end) == i
            }
            guard byte == UInt8(ascii: "["), let close = message[i...].firstIndex(of: UInt8(ascii: "]")),
                  !message[i..<close].contains(0x0A) else { return false }
            i = close + 1
        }
        return true
    }

    /// The open message's last line, without its trailing blanks.
    static func lastTextLine(of message: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let end = textEnd(of: message)
        return UnsafeRawBufferPointer(rebasing: message[lineStart(in: message, before: end)..<end])
    }

    /// Where the line that holds `message[end - 1]` starts: after the newline before `end`, or at 0.
    static func lineStart(in message: UnsafeRawBufferPointer, before end: Int) -> Int {
        var start = end
        while start > 0, message[start - 1] != 0x0A { start -= 1 }
        return start
    }

    /// True when `line` opens with a frame number (1 to 3 digits, then a tab or two spaces) greater than the
    /// one that opens the open message's last line: the next frame of a stack printed without addresses.
    static func continuesNumberedFrames(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard let next = frameNumber(line) else { return false }
        guard let previous = lastFrameLine(of: message, where: { frameNumber($0) }) else { return false }
        return previous < next
    }

    /// What `read` gives the open message's last line, or the line above it, or the one above that, when the
    /// lines below it are the rest of a frame a page broke (a symbol under a frame that ends with its address,
    /// a source location alone: `continuesBrokenFrame`); nil otherwise.
    static func lastFrameLine<T>(of message: UnsafeRawBufferPointer, where read: (UnsafeRawBufferPointer) -> T?) -> T? {
        var end = textEnd(of: message)
        for _ in 0..<3 {
            guard end > 0 else { return nil }
            let start = lineStart(in: message, before: end)
            let candidate = UnsafeRawBufferPointer(rebasing: message[start..<end])
            if let value = read(candidate) { return value }
            // Only a piece of a broken frame lets the search go up a line: a location alone, or a line with no
            // run of blanks in it (a symbol, not a frame's columns).
            guard start > 1, isLoneLocation(candidate) || !candidate.contains(sequence: "  ") else { return nil }
            end = start - 1
        }
        return nil
    }

    /// True when `line` is the rest of a frame a page broke: the open message's last line is a numbered frame
    /// that ends with its address (`0  libsystem_platform.dylib  0x1dd44820c`) and `line` is no frame, or `line` is a
    /// source location alone (`(SPDictionary.m:339)`, `(__mutex_base:90)`) under a frame or under the symbol
    /// broken off one; either way `line` opens at the left margin with nothing that opens a message anywhere.
    static func continuesBrokenFrame(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        // Asked of every bare line: the bytes at the message's end and the line's first byte decide before a
        // line is scanned.
        guard let first = line.first, first != 32, first != 9, let tail = message.last else { return false }
        guard first == UInt8(ascii: "(") || ByteScan.isHexDigit(tail) || tail == 32 || tail == 9 else {
            return false
        }
        let end = textEnd(of: message)
        guard end > 2 else { return false }
        if first == UInt8(ascii: "("), isLoneLocation(line) {
            let start = lineStart(in: message, before: end)
            if StackLines.isFrame(UnsafeRawBufferPointer(rebasing: message[start..<end])) { return true }
            guard start > 1 else { return false }
            let before = lineStart(in: message, before: start - 1)
            return StackLines.isFrame(UnsafeRawBufferPointer(rebasing: message[before..<(start - 1)]))
        }
        // The message ends with a hex address after a blank: `… 0x1dd44820c`.
        var i = end
        while i > 0, ByteScan.isHexDigit(message[i - 1]) { i -= 1 }
        guard i < end, i >= 3, message[i - 1] | 0x20 == UInt8(ascii: "x"), message[i - 2] == UInt8(ascii: "0"),
              message[i - 3] == 32 || message[i - 3] == 9 else { return false }
        let last = UnsafeRawBufferPointer(rebasing: message[lineStart(in: message, before: end)..<end])
        guard frameNumber(last) != nil, StackLines.isFrame(last) else { return false }
        return !StackLines.isFrame(line) && !opensMessageAnywhere(line)
    }

    /// True when `line` is a source location alone in parentheses: `(File.m:339)`, `(<compiler-generated>:0)`.
    static func isLoneLocation(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, line[end - 1] == 32 || line[end - 1] == 9 || line[end - 1] == 13 { end -= 1 }
        guard end >= 5, line[0] == UInt8(ascii: "("), line[end - 1] == UInt8(ascii: ")") else { return false }
        var i = end - 2
        let digitsEnd = i + 1
        while i > 1, ByteScan.isDigit(line[i]) { i -= 1 }
        guard i + 1 < digitsEnd, line[i] == UInt8(ascii: ":") else { return false }
        return !line[1..<i].contains(32) && !line[1..<i].contains(9)
    }

    /// True when `line` and the open message's last line are both frames printed in columns without a number:
    /// an image name, two blanks or more, an address of eight hex digits or more, a blank, a symbol.
    static func continuesColumnFrames(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard isColumnFrame(line) else { return false }
        return lastFrameLine(of: message, where: { isColumnFrame($0) ? true : nil }) ?? false
    }

    /// True when `line` is a frame in Sentry's and Python's form: `File "<file>", line <n>, in <symbol>`, or
    /// `File "<file>", in <symbol>` where the line is not known (`<compiler-generated>`).
    static func isFileFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.hasPrefix("File \""), let close = line.firstIndex(of: UInt8(ascii: "\""), from: 6, to: min(line.count, 400)),
              close > 6 else { return false }
        if line.hasPrefix("\", in ", at: close) { return true }
        guard line.hasPrefix("\", line ", at: close), let end = ByteScan.digits(line, at: close + 8) else { return false }
        return line.hasPrefix(", in ", at: end) || end == line.count
    }

    /// True when the last line of `message`, under at least one other, is `Caused by:` alone (before any blanks).
    static func endsWithLoneCausedBy(_ message: UnsafeRawBufferPointer) -> Bool {
        var end = message.count
        while end > 0, ByteClass.isBlankOrCR(message[end - 1]) { end -= 1 }
        guard end > 11, message[end - 1] == UInt8(ascii: ":") else { return false }
        var start = end - 10
        guard message.hasPrefix("Caused by:", at: start) else { return false }
        while start > 0, ByteClass.isBlank(message[start - 1]) { start -= 1 }
        return start > 0 && message[start - 1] == 0x0A
    }

    /// True when `line` and the first line of `message` both carry npm's or node-gyp's error tag (`npm ERR! `, npm 10's
    /// `npm error `, `gyp ERR! `): lines of one failed command's report.
    /// The run ends after npm's `A complete log of this run can be found in:` and the path it names (on its line, or on
    /// the next), so that two failed commands pasted one after the other stay two reports.
    static func continuesNpmError(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first, first == UInt8(ascii: "n") || first == UInt8(ascii: "g") else { return false }
        guard isNpmErrorLine(line), isNpmErrorLine(message), let base = message.baseAddress else { return false }
        // A run that goes on has no phrase before its last two lines: only they are searched, not the whole run again.
        var tail = message.count
        for _ in 0..<2 {
            while tail > 0, message[tail - 1] != 0x0A { tail -= 1 }
            if tail > 0 { tail -= 1 }
        }
        let phrase: StaticString = "complete log of this run can be found in:"
        let found = cscan_find(base + tail, message.count - tail, phrase.utf8Start, phrase.utf8CodeUnitCount)
        guard found >= 0 else { return true }
        // Still open when nothing but blanks follow the phrase: the path is on the next line.
        var i = tail + found + phrase.utf8CodeUnitCount
        while i < message.count, ByteClass.isBlankOrCR(message[i]) { i += 1 }
        return i == message.count
    }

    @inline(__always) static func isNpmErrorLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.hasPrefix("npm ERR! ") || bytes.hasPrefix("npm error ") || bytes.hasPrefix("gyp ERR! ")
    }

    /// True when `message` is one line that opens as Go's panic does (`panic: unable to open database file`), or
    /// holds it after a runner's prefix (`… Code 2: panic: no such table: Z_7TAGS`).
    static func isGoPanicLine(_ message: UnsafeRawBufferPointer) -> Bool {
        message.count > 7 && message.count <= 2000 && !message.contains(byte: 0x0A, before: message.count)
            && (message.hasPrefix("panic: ") || message.contains(sequence: ": panic: "))
    }

    /// True when `line` opens with an error's or an exception's name and a colon (`SQLiteError: database is locked`,
    /// `TypeError: …`, `java.io.IOException: …`), or with Bun's `error: ` for an error thrown without a name (`error: This
    /// build of sqlite3 does not support dynamic extension loading`, round 135).
    /// Bun's `error: ` counts only under its source excerpt (`55 |   db.loadExtension(…)` over the caret line), not under a
    /// compiler's caret.
    static func opensWithErrorName(_ line: UnsafeRawBufferPointer, afterGutter message: UnsafeRawBufferPointer) -> Bool {
        let i = dottedNameEnd(of: line)
        guard i >= 5, i < line.count, line[i] == UInt8(ascii: ":") else { return false }
        if line.hasPrefix("Error", at: i - 5) || line.hasPrefix("Exception", at: i - 9) { return true }
        return i == 5 && line.hasPrefix("error: ") && endsWithGutterLineAndCaret(message)
    }

    /// True when the line before the last line of `message` opens with a source excerpt's gutter (blanks, a line number,
    /// ` | `), as Bun prints the line that threw over its caret.
    static func endsWithGutterLineAndCaret(_ message: UnsafeRawBufferPointer) -> Bool {
        var end = message.count
        while end > 0, ByteClass.isBlankOrCR(message[end - 1]) { end -= 1 }
        var lineEnd = end
        while lineEnd > 0, message[lineEnd - 1] != 0x0A { lineEnd -= 1 }
        guard lineEnd > 0 else { return false }
        lineEnd -= 1
        var start = lineEnd
        while start > 0, message[start - 1] != 0x0A { start -= 1 }
        var i = start
        while i < lineEnd, ByteClass.isBlank(message[i]) { i += 1 }
        let digits = i
        while i < lineEnd, ByteScan.isDigit(message[i]) { i += 1 }
        return i > digits && i + 2 < lineEnd && message[i] == 32 && message[i + 1] == UInt8(ascii: "|")
    }

    /// True when the last line of `message`, under at least one other, holds only a caret (`        ^`): Node's print
    /// of the source line that threw an uncaught exception, the error after a blank line under it.
    static func endsWithCaretLine(_ message: UnsafeRawBufferPointer) -> Bool {
        var end = message.count
        while end > 0, ByteClass.isBlank(message[end - 1]) { end -= 1 }
        guard end > 1, message[end - 1] == UInt8(ascii: "^") else { return false }
        var i = end - 1
        while i > 0, ByteClass.isBlank(message[i - 1]) { i -= 1 }
        return i > 0 && message[i - 1] == 0x0A
    }

    /// True when `message` is one line that ends with `Fatal error:` and says nothing after it (an app's dialog text,
    /// `An error occurred: Fatal error:`): the error it announces follows after a blank line.
    static func isLoneFatalHeading(_ message: UnsafeRawBufferPointer) -> Bool {
        guard message.count >= 12, message.count <= 200 else { return false }
        let end = textEnd(of: message)
        guard end >= 12, end <= 160, !message.contains(byte: 0x0A, before: end) else { return false }
        let tail = UnsafeRawBufferPointer(rebasing: message[(end - 12)..<end])
        return tail.hasPrefix("Fatal error:") || tail.hasPrefix("fatal error:") || tail.hasPrefix("FATAL ERROR:")
    }

    /// True when `line` is a goroutine's heading in a Go stack dump (`goroutine 1 [running]:`).
    static func isGoroutineHeading(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.hasPrefix("goroutine "), let end = ByteScan.digits(line, at: 10) else { return false }
        return line.hasPrefix(" [", at: end)
    }

    /// True when `line` is one of a goroutine's frames at the margin (a function line, or `created by …`), read
    /// under a Go panic whose goroutine heading the splitter kept with it (`RawEntry.goroutineStack`).
    static func continuesGoroutineStack(_ line: UnsafeRawBufferPointer) -> Bool {
        // A frame's function line ends with its arguments' parenthesis (`main.main()`, `main.PanicOnErr(...)`), or
        // names the goroutine's creator; its location line is indented and goes on without this.
        line.last == UInt8(ascii: ")") || line.hasPrefix("created by ")
    }

    /// True when `line` is a Ruby backtrace's caller line (`from ./lib/store.rb:678:in `rip_notes'`, Ruby 3.4's
    /// `in 'Store#rip'` too) at the left margin.
    static func isRubyFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.hasPrefix("from ") else { return false }
        var i = 5
        while i < min(line.count, 400), line[i] != UInt8(ascii: " ") {
            if line.hasPrefix(".rb:", at: i), let end = ByteScan.digits(line, at: i + 4) { return line.hasPrefix(":in ", at: end) }
            i += 1
        }
        return false
    }

    /// True when `line` is lldb's first frame (`frame #0: 0x…`, `* frame #0: …`) at the left margin and the
    /// open message's last line is the thread it stopped in (`* thread #1, queue = …, stop reason = …`): a
    /// `bt` whose indentation a page dropped. The frames after it go on as numbered frames.
    static func continuesThreadStop(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        let frame = line.hasPrefix("* ") ? 2 : 0
        guard line.hasPrefix("frame #0: ", at: frame) else { return false }
        let last = lastTextLine(of: message)
        let indent = ByteScan.spaces(last, at: 0)
        return last.hasPrefix("* thread #", at: indent) && last.contains(sequence: "stop reason = ")
    }

    /// `image  0x1decd56c8  symbol` (`cscan_column_frame`): see `continuesColumnFrames`.
    static func isColumnFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let base = line.baseAddress else { return false }
        return cscan_column_frame(base.assumingMemoryBound(to: UInt8.self), line.count) != 0
    }

    /// The number opening `line` (after its indentation) when 1 to 3 digits are followed by a tab, two spaces
    /// or ` | ` and then text; an `at ` before the number is the .NET and Kotlin stack form (`at 1
    /// android::throw_…`). lldb's `frame #6: 0x…`, gdb's `#6  0x… in …` and Godot's `[6] 6   image  0x…` number
    /// their frames too.
    private static func frameNumber(_ line: UnsafeRawBufferPointer) -> Int? {
        var start = ByteScan.spaces(line, at: 0)
        guard start < line.count else { return nil }
        if line[start] == UInt8(ascii: "a"), line.hasPrefix("at ", at: start) { start += 3 }
        guard start < line.count else { return nil }
        let first = line[start]
        if first == UInt8(ascii: "#") || (first == UInt8(ascii: "f") && line.hasPrefix("frame #", at: start)) {
            let from = first == UInt8(ascii: "#") ? start + 1 : start + 7
            guard let (number, end) = frameDigits(line, at: from), end + 1 < line.count,
                  line[end] == UInt8(ascii: ":") || line[end] == 32 || line[end] == 9 else { return nil }
            return number
        }
        var bracketed: Int?
        if first == UInt8(ascii: "["), let (number, end) = frameDigits(line, at: start + 1), line.hasPrefix("] ", at: end) {
            // Godot numbers each frame in brackets, then prints the image's own number or the symbol alone.
            bracketed = number
            start = end + 2
        }
        guard let (number, i) = frameDigits(line, at: start), i + 1 < line.count else {
            return bracketed.flatMap { ByteScan.spaces(line, at: start) < line.count ? $0 : nil }
        }
        let piped = i + 2 < line.count && line[i + 1] == UInt8(ascii: "|") && line[i + 2] == 32
        let separated = line[i] == 9 || (line[i] == 32 && (line[i + 1] == 32 || piped))
        guard separated else { return nil }
        let text = ByteScan.spaces(line, at: i)
        guard text < line.count else { return nil }
        // A logger's table (`0 | Thu Apr 21 2022 00:58:52 | DEBUG | ios | …`, a row number, a pipe, then the
        // time): rows of a log, each a message of its own, not the frames of a stack.
        if piped, opensWithDateOrWeekday(UnsafeRawBufferPointer(rebasing: line[(i + 3)...])) { return nil }
        return number
    }

    /// True when `text` opens with a date or a time (`2022-04-21`, `00:58:52`) or an English weekday's short
    /// name and a blank (`Thu Apr 21`).
    static func opensWithDateOrWeekday(_ text: UnsafeRawBufferPointer) -> Bool {
        let wordEnd = firstWordEnd(of: text)
        if SourceLayout.opensWithDateOrTime(text[0..<wordEnd]) { return true }
        return wordEnd == 3 && weekdayPrefixes.contains { text.hasPrefix($0) }
    }
    private static let weekdayPrefixes: [StaticString] = ["Mon ", "Tue ", "Wed ", "Thu ", "Fri ", "Sat ", "Sun "]

    /// True when `line` opens with a Foundation userInfo key and `=` (`NSLocalizedFailureReason=…`,
    /// `NSUnderlyingError=…`, `NSFilePath=…`): `NS`, a capital, letters, then `=`.
    static func isUserInfoKeyLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count > 4, line[0] == UInt8(ascii: "N"), line[1] == UInt8(ascii: "S"), line[2] >= 65, line[2] <= 90 else { return false }
        var i = 3
        while i < line.count, i < 64, (line[i] >= 65 && line[i] <= 90) || (line[i] >= 97 && line[i] <= 122) { i += 1 }
        return i < line.count && line[i] == UInt8(ascii: "=")
    }

    /// A run of one to three digits at `from` (`ByteScan.digits`), its value and the index after it.
    @inline(__always) private static func frameDigits(_ line: UnsafeRawBufferPointer, at from: Int) -> (number: Int, end: Int)? {
        guard let end = ByteScan.digits(line, at: from), end - from <= 3 else { return nil }
        return ((from..<end).reduce(0) { $0 * 10 + Int(line[$1] - 48) }, end)
    }

    /// True when `line`'s first byte after its blanks is a `/`: the one test every line pays before
    /// `commentContinuation`.
    @inline(__always)
    static func mayOpenWithCommentMarker(_ line: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < line.count, i < 16, line[i] == 32 || line[i] == 9 { i += 1 }
        return i < line.count && line[i] == UInt8(ascii: "/")
    }

    /// `line` after its code comment's marker (`//`, `///`) and the blanks after it, where the line goes on a comment:
    /// the message's last line opened with a marker too, or the text is indented under the marker by two blanks or
    /// more (the first line of the quote lost its marker when it was copied). Nil for any other line.
    static func commentContinuation(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        // The index after a marker of two to four slashes (blanks before it) that a blank follows.
        func markerEnd(_ text: UnsafeRawBufferPointer, from start: Int) -> Int? {
            var i = start
            while i < text.count, text[i] == 32 || text[i] == 9 { i += 1 }
            let slashStart = i
            while i < text.count, text[i] == UInt8(ascii: "/") { i += 1 }
            guard (2...4).contains(i - slashStart), i < text.count, text[i] == 32 || text[i] == 9 else { return nil }
            return i
        }
        guard let marker = markerEnd(line, from: 0) else { return nil }
        var textStart = marker
        while textStart < line.count, line[textStart] == 32 || line[textStart] == 9 { textStart += 1 }
        guard textStart < line.count else { return nil }
        var lastLineStart = message.count
        while lastLineStart > 0, message[lastLineStart - 1] != 0x0A { lastLineStart -= 1 }
        let inComment = markerEnd(message, from: lastLineStart) != nil
        guard inComment || textStart - marker >= 2 else { return nil }
        return UnsafeRawBufferPointer(rebasing: line[textStart...])
    }

    /// True when `line` of a console without prefixes is the rest of a sentence a page or a mail client
    /// wrapped: the open message's last line is long (`wrapWidth` bytes or more) and ends mid-sentence (a
    /// trailing space, a comma, or a word such as `a`, `the`, `for`), and `line` starts with a lower-case word
    /// that is not a logger's tag (`flutter:`,
    /// `nw_path`, `objc[12]`) and holds no `key: value`.
    static func continuesWrappedSentence(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer,
                                         prefixWidth: Int = 0) -> Bool {
        if EntrySplitter.announcesError(line, after: message) { return true }
        // `*** Terminating app due to uncaught` / `exception 'NSInvalidArgumentException', reason: …`.
        if line.hasPrefix("exception '") {
            let end = textEnd(of: message)
            if end >= 8, message.hasPrefix("uncaught", at: end - 8) { return true }
        }
        // An exception's quoted reason or a debugger's quoted message the page broke inside its quotes.
        if endsInsideQuote(message) { return true }
        // A trap's source location left alone on a line (`SwiftData/BackingData.swift:1039:`): its message follows.
        if EntrySplitter.endsWithSourceLocation(message) { return true }
        // A trap's or a teardown's line that ends announcing its text (`…/WidgetDataDecoder.swift:17: Fatal error:` /
        // `Unexpectedly found nil …`, `… Told to tear down with reason:` / `Store Removed`), the text moved down.
        if EntrySplitter.endsAnnouncingText(message), line.first.map({ $0 != 32 && $0 != 9 }) ?? false { return true }
        // Swift 2–4 printed a trap as `fatal error: <message>: file <path>, line <n>` (and `assertion failed:`,
        // `precondition failed:` the same way): until its location is printed, a line a page broke off is the
        // trap's (`… raised an error: SQL logic` / `error or missing database: file` / `/Library/…/ErrorType.swift,`
        // / `line 50`).
        if EntrySplitter.continuesOldSwiftTrap(line, after: message) { return true }
        // A type name (`NSValueTransformer`, `CKRecord`) after a long line the wrapper left ending in a space.
        if line.count > 1, line[0] >= 65, line[0] <= 90, line[1] >= 65, line[1] <= 90, endsInWrapSpace(message) { return true }
        // A qualified name (`ModelContext.reset`) under a trap's message broken mid-sentence.
        if startsWithQualifiedName(line), endsTrapMidSentence(message) { return true }
        guard let first = line.first else { return false }
        // A line that opens as the message did (`icloudpd-1  | 2023-08-24 17:54:29 INFO …` twice: a prefix this
        // format does not know) is another line of the same logger, not the rest of a broken one.
        if repeatsOpening(line, of: message) { return false }
        var end = message.count
        while end > 0, message[end - 1] == 32 || message[end - 1] == 9 { end -= 1 }
        guard end > 0 else { return false }
        // A Cocoa error the page broke inside its own name (`… raised an error: Error` / `Domain=NSCocoaErrorDomain …`).
        if first == UInt8(ascii: "D"), line.hasPrefix("Domain="), end >= 5, message.hasPrefix("Error", at: end - 5) { return true }
        // A frame the page broke before its offset (`… _os_unfair_lock_recursive_abort +` / `36`).
        if first >= 48, first <= 57, end >= 2, message[end - 1] == UInt8(ascii: "+"), message[end - 2] == 32 { return true }
        // A Swift trap printed `Fatal` / `error: …` over two lines by the page.
        if first == UInt8(ascii: "e"), line.hasPrefix("error: "), end >= 5, message.hasPrefix("Fatal", at: end - 5),
           end == 5 || message[end - 6] == 32 { return true }
        // The value a page-wide line announced and the page put on the next line: a qualified name after a
        // colon (`… raised an error:` / `Database.SQLiteDatabase.Error.failedToOpenDatabase`), or the type the
        // C++ runtime names (`… uncaught exception of type` / `realm::IncorrectThreadException: …`).
        let announcesType = end >= 8 && message.hasPrefix(" of type", at: end - 8)
        if announcesType || (message[end - 1] == UInt8(ascii: ":") && startsWithQualifiedToken(line)),
           printedWidth(message, end: end, prefixWidth: prefixWidth) >= wrapWidth { return true }
        // A value a message goes on with (`<x-coredata://…>`, `(0x6000…)`, `"No account"`, a path, a
        // reverse-DNS name such as `com.apple.developer.…`) opening a line after one as wide as a page breaks
        // them that stops mid-sentence: a line no message opens with, broken off the one before.
        // A reverse-DNS name is met in the lower-case branch below, at the first word's dot.
        func continuesWithValue() -> Bool {
            // A `<…>` value may follow the colon that announced it (`*** Uncaught exception:` / `<NSUnknownKeyException> …`).
            // So may a path alone on its line, the value a page moved under the colon that announced it
            // (`opening database:` / `/Users/me/Library/Messages/chat.db`); not a tool's path that opens its own
            // message (`/usr/bin/sim:` / `No simulator devices …`).
            guard opensWrappedValue(line), !endsSentence(message[end - 1]),
                  message[end - 1] != UInt8(ascii: ":") || first == UInt8(ascii: "<")
                    || (first == UInt8(ascii: "/") && !line.contains(byte: 32, before: line.count) && line.last != UInt8(ascii: ":")),
                  // A test failure or a trap at its source location (`/x/DBTests.swift:53: error: …`) is a message of its own,
                  // and so is a diagnostic with no source file (`<unknown>:0: error: link command failed`).
                  !opensWithTrapLocation(line, wordEnd: firstWordEnd(of: line)), !line.hasPrefix("<unknown>:"),
                  // So is a whole sentence in quotes, as Swift's debugPrint prints a string (`"Sync >> Initiating synchronization"`).
                  !isQuotedSentence(line) else { return false }
            return brokeBefore(line, width: printedWidth(message, end: end, prefixWidth: prefixWidth))
        }
        if first < 65 || first > 122 { return continuesWithValue() }
        // Asked of every bare line: the checks that read a few bytes come before the ones that read a line.
        if first <= 90 {
            // A Swift trap's message is one print, broken mid-sentence before a capitalised word too
            // (`Fatal error: Unable to find App Group` / `Container in`); not before another trap at its location.
            if (message[end - 1] | 0x20) >= 97, (message[end - 1] | 0x20) <= 122, endsTrapMidSentence(message) {
                return !opensWithTrapLocation(line, wordEnd: firstWordEnd(of: line))
            }
            // A capitalised word (`NSFetchedResultsController during a call …`) continues a line the wrapper
            // broke after a word no sentence ends with (`… from the delegate of`); a type's name that ends
            // the sentence (`NSManagedObjectContext.`) continues one it broke after any word.
            guard (message[end - 1] | 0x20) >= 97, (message[end - 1] | 0x20) <= 122 else { return false }
            guard startsWithTypeName(line) || endsInUnfinishedWord(message, end: end) else { return false }
            return brokeBefore(line, width: printedWidth(message, end: end, prefixWidth: prefixWidth))
                && !line.contains(sequence: ": ")
        }
        guard first >= 97 else { return false }
        var i = 0
        while i < line.count, line[i] != 32 {
            let byte = line[i]
            // A sentence's last word (`transformer.`, `error,`) is a word, not a dotted name.
            if (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")), i + 1 == line.count || line[i + 1] == 32 { break }
            if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "(")
                || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "/") { return false }
            if byte == UInt8(ascii: ".") { return startsWithDottedName(line) && continuesWithValue() }
            i += 1
        }
        let start = lineStart(in: message, before: end)
        // The printed line's width: its prefix counts where the message is still on its first line (a page
        // wrapped `2014-03-21 08:20:41.920 App[4164:60b] CoreData: error: Serious` at its 80th column).
        let width = characters(message, start, end) + (start == 0 ? prefixWidth : 0)
        // A Swift trap's message is one print: a page that broke it mid-sentence (`… was destroyed` / `by
        // calling ModelContext.reset`, `… <computed 0x…>` / `on Item with fields [name: …]`) broke one
        // message, however short the line.
        if !endsSentence(message[end - 1]),
           UnsafeRawBufferPointer(rebasing: message[start..<end]).contains(sequence: "Fatal error: ") { return true }
        // So is a trap's message quoted at its source location without the `Fatal error:` word (`SwiftData/
        // BackingData.swift:940: Never access a` / `full future backing data`), broken after a word no sentence ends with.
        if start == 0, opensWithSwiftSourceLocation(message, wordEnd: firstWordEnd(of: message)),
           endsInUnfinishedWord(message, end: end) { return true }
        // A `key: value` line (`references #: Optional(1)`) is an app's own print, not a wrapped sentence,
        // unless the line before broke off after a word no sentence ends with (`… due to` / `uncaught
        // exception 'RLMException', reason: …`).
        if line.contains(sequence: ": "), message[end - 1] != UInt8(ascii: ","), !endsInUnfinishedWord(message, end: end) { return false }
        guard width >= wrapWidth else { return false }
        // The break is mid-sentence: the wrapper left a space at the end of the line, or the line ends in a
        // comma or a word no sentence ends with (`for a`, `to the`, `is`); or a printed line as wide as a
        // page or a mail client breaks them (`wrappedLineWidths`) ends in a word, and a lower-case word goes on.
        if end < message.count || message[end - 1] == UInt8(ascii: ",") { return true }
        if brokeBefore(line, width: width), (message[end - 1] | 0x20) >= 97, (message[end - 1] | 0x20) <= 122 { return true }
        return endsInUnfinishedWord(message, end: end)
    }

    /// True when `line` is a sentence of three words or more wholly in double quotes (`"QSCloudKitSynchronizer >>
    /// Finishing synchronization"`): a string an app printed with debugPrint, not a value broken off the line above.
    static func isQuotedSentence(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count >= 8, line[0] == UInt8(ascii: "\"") else { return false }
        let end = textEnd(of: line)
        guard end > 2, line[end - 1] == UInt8(ascii: "\"") else { return false }
        var blanks = 0
        for i in 1..<(end - 1) {
            if line[i] == UInt8(ascii: "\"") { return false }
            if line[i] == 32 { blanks += 1 }
        }
        return blanks >= 2
    }

    /// True when a page that breaks lines at 80 columns would have broken a line `width` wide before `line`:
    /// the line is as wide as pages leave them (`wrappedLineWidths`), or `line`'s first word would not have
    /// fitted after it (a long name such as `NSManagedObjectContextObjectsDidChangeNotification.` leaves the
    /// line before it short), though it fits a line.
    static func brokeBefore(_ line: UnsafeRawBufferPointer, width: Int) -> Bool {
        if wrappedLineWidths.contains(width) { return true }
        guard width <= wrappedLineWidths.upperBound else { return false }
        let word = characters(line, 0, firstWordEnd(of: line))
        // A word wider than the page goes on a line of its own wherever it stands: no evidence of a break.
        return word <= wrappedLineWidths.upperBound && width + 1 + word > wrappedLineWidths.upperBound
    }

    /// True when `line` continues the open message's last line in a source broken at `width` characters
    /// (`SourceLayout.wrapWidth`): that line is at least half the width and no wider (or shorter, when `line`'s
    /// first word is longer than half the width; or one word wider than the width, which a wrapper leaves
    /// alone on its line), `line` opens at the left margin with a word that
    /// would not have fitted after it, and `line` neither opens with the same word as that line (a logger's
    /// lines), nor with a capitalised plain word (`An …`, `Unable …`: a sentence starts there as likely as
    /// it goes on; a type's name such as `NSManagedObjectContext` goes on; after a line that ends with `:`
    /// it is the text that line announces), nor is anything that opens a message wherever it stands
    /// (`opensMessageAnywhere`).
    static func brokeAtWidth(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer, prefixWidth: Int, width: Int) -> Bool {
        guard let first = line.first, first != 32, first != 9 else { return false }
        let end = textEnd(of: message)
        guard end > 0 else { return false }
        let start = lineStart(in: message, before: end)
        let lastWordEnd = message[start..<end].firstIndex { $0 == 32 || $0 == 9 } ?? end
        let previous = printedWidth(message, end: end, prefixWidth: prefixWidth)
        let wordEnd = firstWordEnd(of: line)
        let word = characters(line, 0, wordEnd)
        // A line shorter than half the width was broken there only when the word after it is itself longer
        // than half the width (a mangled Swift name, a path): it had no room on the line.
        guard previous <= width ? previous * 2 >= width || word * 2 > width : lastWordEnd == end else { return false }
        guard previous + 1 + word > width,
              !line[0..<wordEnd].elementsEqual(message[start..<lastWordEnd]) else { return false }
        // After a line that ends announcing its text (`… CoreData: error:`, the rest of a `log show` prefix a
        // page broke: `50476  0    App: (CoreAnalytics) [com.apple.CoreAnalytics:client]`), a capitalised
        // word is that text.
        let announces = message[end - 1] == UInt8(ascii: ":")
            || isLogShowPrefixTail(UnsafeRawBufferPointer(rebasing: message[start..<end]))
        return (announces || !opensWithCapitalisedWord(line, wordEnd: wordEnd)) && !opensMessageAnywhere(line)
    }

    /// True when `line` is only the rest of a `log show` line's prefix that a page broke after its activity
    /// column: the process id, the TTL, `Process:` and the optional `(Library)` and `[subsystem:category]`.
    static func isLogShowPrefixTail(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let last = line.last, last == UInt8(ascii: "]") || last == UInt8(ascii: ")") || last == UInt8(ascii: ":"),
              let pidEnd = ByteScan.digits(line, at: 0) else { return false }
        var i = ByteScan.spaces(line, at: pidEnd)
        guard i > pidEnd, let ttlEnd = ByteScan.digits(line, at: i) else { return false }
        i = ByteScan.spaces(line, at: ttlEnd)
        guard i > ttlEnd, let colon = line.firstIndex(of: UInt8(ascii: ":"), from: i, to: min(line.count, i + 256)) else { return false }
        var header = LineHeader(messageStart: 0)
        var j = ByteScan.spaces(line, at: colon + 1)
        LogShowPrefix.libraryAndSubsystem(line, from: &j, into: &header)
        return j >= line.count
    }

    /// Where `line`'s first word ends: its first blank, or its end.
    static func firstWordEnd(of line: UnsafeRawBufferPointer) -> Int {
        line.firstIndex { $0 == 32 || $0 == 9 } ?? line.count
    }

    /// True when `line` opens with a capital letter and lower-case letters only up to a blank (`A `, `An `,
    /// `Unable `): a plain word, not a type's or a key's name.
    static func opensWithCapitalisedWord(_ line: UnsafeRawBufferPointer, wordEnd: Int) -> Bool {
        guard wordEnd < line.count, let first = line.first, first >= 65, first <= 90 else { return false }
        return line[1..<wordEnd].allSatisfy { $0 >= 97 && $0 <= 122 }
    }

    /// True when `line` opens a message wherever it stands, even where a page broke the text at one width: a
    /// console entry word (`CoreData:`, `error: `), `***`, a Swift trap (`Fatal error: `), a date or a time
    /// (`04-14 11:26:34…`, `12:08:15.750|`), a stack frame, a thread's heading, the runtime's `objc[pid]: ` or a
    /// Swift trap at its source location (`SwiftData/ModelContext.swift:3212: Fatal error: …`).
    static func opensMessageAnywhere(_ line: UnsafeRawBufferPointer) -> Bool {
        let wordEnd = firstWordEnd(of: line)
        return XcodeConsoleFormat.startsEntryWord(line, at: 0) || line.hasPrefix("***") || line.hasPrefix("Fatal error: ")
            || SourceLayout.opensWithDateOrTime(line[0..<wordEnd]) || StackLines.isFrame(line) || StackLines.isThreadHeading(line)
            || opensWithRuntimeTag(line) || opensWithTrapLocation(line, wordEnd: wordEnd)
    }

    /// True when `line` opens with a Swift source location and a trap's word after it (`Item.swift:12: Fatal
    /// error: `, `SwiftData/BackingData.swift:466: Fatal error: `, `…: Assertion failed: `, `…: Precondition
    /// failed: `) or XCTest's `error: ` (`DBTests.swift:53: error: -[DBTests testDB] : failed - …`): a message of
    /// its own, whatever the line above left open. `wordEnd` is where its first word ends.
    static func opensWithTrapLocation(_ line: UnsafeRawBufferPointer, wordEnd: Int) -> Bool {
        guard opensWithSwiftSourceLocation(line, wordEnd: wordEnd) else { return false }
        let text = wordEnd + 1
        return line.hasPrefix("Fatal error: ", at: text) || line.hasPrefix("Assertion failed", at: text)
            || line.hasPrefix("Precondition failed", at: text) || line.hasPrefix("error: ", at: text)
    }

    /// True when `line`'s first word, `wordEnd` bytes long, is a Swift source location with text after it
    /// (`SwiftData/BackingData.swift:940: …`): where a trap or a runtime check printed its message.
    static func opensWithSwiftSourceLocation(_ line: UnsafeRawBufferPointer, wordEnd: Int) -> Bool {
        // `x.swift:1:` is ten bytes at least; the word must end with the line number's colon.
        guard wordEnd >= 10, wordEnd < line.count, line[wordEnd - 1] == UInt8(ascii: ":") else { return false }
        var i = wordEnd - 1
        while i > 0, ByteScan.isDigit(line[i - 1]) { i -= 1 }
        return i < wordEnd - 1 && i >= 7 && line[i - 1] == UInt8(ascii: ":") && line.hasPrefix(".swift", at: i - 7)
    }

    /// True when `line` opens with the Objective-C runtime's tag and the process id (`objc[32088]: `).
    static func opensWithRuntimeTag(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.hasPrefix("objc["), let end = ByteScan.digits(line, at: 5), end > 5 else { return false }
        return line.hasPrefix("]: ", at: end)
    }

    /// True when `line` opens with a qualified name: letters, digits and `_` joined by `.` or `::`, at least
    /// two parts (`Database.SQLiteDatabase.Error.failedToOpenDatabase`, `realm::IncorrectThreadException`),
    /// the part before the first blank or `(`; not a logger's `Tag:` before a blank.
    static func startsWithQualifiedToken(_ line: UnsafeRawBufferPointer) -> Bool {
        var parts = 1, partLength = 0, i = 0
        while i < line.count {
            let byte = line[i]
            if (byte | 0x20) >= 97 && (byte | 0x20) <= 122 || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "_") {
                partLength += 1
            } else if byte == UInt8(ascii: "."), partLength > 0, i + 1 < line.count, line[i + 1] != 32 {
                parts += 1
                partLength = 0
            } else if byte == UInt8(ascii: ":"), partLength > 0, i + 2 < line.count, line[i + 1] == UInt8(ascii: ":") {
                parts += 1
                partLength = 0
                i += 1
            } else {
                break
            }
            i += 1
        }
        guard parts >= 2, partLength > 0 else { return false }
        return i == line.count || line[i] == 32 || line[i] == UInt8(ascii: "(") || (line[i] == UInt8(ascii: ":") && (i + 1 == line.count || line[i + 1] == 32))
    }

    /// True when the last line of `message` opens a quoted reason and does not close it: `… reason: '***`
    /// (an uncaught exception's reason, broken by a page inside its quotes) or `Thread 1: "Illegal attempt …`
    /// (the debugger's quoted message). A quote closes where the same quote character ends a word (before
    /// a blank, `,`, `)`, `.` or the line's end); an apostrophe inside a word (`can't`) does not.
    static func endsInsideQuote(_ message: UnsafeRawBufferPointer) -> Bool {
        let end = message.count
        guard end > 0, let raw = message.baseAddress else { return false }
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        // A line that ends in a closing quote or bracket closed what it opened: most log lines, read no further.
        switch bytes[end - 1] {
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"),
             UInt8(ascii: ">"), UInt8(ascii: "{"), UInt8(ascii: ";"): return false
        default: break
        }
        // Asked of every bare line: only a line as short as a page breaks them is read (at most 80
        // characters, at most `pageLineBytes` bytes), so a long log line costs a bounded look back, not a scan.
        // No quote in the bytes a page line can hold (two memchr calls), nothing opened one.
        let window = max(0, end - pageLineBytes)
        guard message.firstIndex(of: UInt8(ascii: "'"), from: window, to: end) != nil
                || message.firstIndex(of: UInt8(ascii: "\""), from: window, to: end) != nil,
              let start = pageLineStart(message, end: end), start < end else { return false }
        var open = -1
        if bytes[start] == UInt8(ascii: "T"), message.hasPrefix("Thread ", at: start) {
            var i = start + 7
            while i < end, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
            if i > start + 7, message.hasPrefix(": \"", at: i) { open = i + 2 }
        }
        if open < 0 {
            // `reason: '` or `reason: "`: each colon of the line (memchr) is looked at, not each byte.
            var from = start + 6
            while from < end - 2, let colon = message.firstIndex(of: 0x3A, from: from, to: end - 2) {
                if bytes[colon + 1] == 32, bytes[colon + 2] == 39 || bytes[colon + 2] == 34,
                   message.hasPrefix("reason", at: colon - 6) {
                    open = colon + 2
                    break
                }
                from = colon + 1
            }
        }
        guard open >= 0 else { return false }
        let quote = bytes[open]
        var j = open + 1
        while j < end {
            if bytes[j] == quote {
                let next = j + 1 < end ? bytes[j + 1] : 32
                if next == 32 || next == 9 || next == UInt8(ascii: ",") || next == UInt8(ascii: ")") || next == UInt8(ascii: ".") || next == 13 { return false }
            }
            j += 1
        }
        return true
    }

    /// True when the open message, an uncaught exception's termination (`*** Terminating app due to uncaught
    /// …`) or its reason, holds a reason whose quote has not closed (`reason: '…`, `reason: "…`) and `line` is no
    /// message of its own: the reason goes on. Quotes of the same character
    /// inside the reason nest (`relationship 'owner' between`): one that starts a word opens, one that ends a
    /// word closes, an apostrophe inside a word (`can't`) does neither. The message is read on from where the
    /// last line's test stopped, and only for 40 lines of a message of at most 16 KiB: a reason a page cut
    /// before its closing quote does not swallow the rest of the text.
    static func staysInsideQuotedReason(_ line: UnsafeRawBufferPointer, after entry: inout RawEntry) -> Bool {
        let message = entry.message.bytes
        guard message.count <= 16 << 10, entry.endLine - entry.line < 40, entry.quoteRead < message.count || entry.quote != 0
        else { return false }
        // Asked of every bare line: only a message that opens as an uncaught exception's termination (or with
        // the reason itself) is read at all; any other is marked read for good on its first line.
        if entry.quoteRead == 0, !(message.hasPrefix("*** Terminating app due to uncaught") || message.hasPrefix("Terminating app due to uncaught")
                                    || message.hasPrefix("reason: ")) {
            entry.quoteRead = Int.max
            return false
        }
        var i = entry.quoteRead
        while i < message.count {
            if entry.quote == 0 {
                // `reason: '`: each quote of the bytes not read yet (memchr, for `'` and for `"`) is looked at,
                // not each byte; most lines hold none.
                var single = message.firstIndex(of: 39, from: i, to: message.count)
                var double = message.firstIndex(of: 34, from: i, to: message.count)
                var opening: Int?
                while opening == nil, single != nil || double != nil {
                    let at = min(single ?? .max, double ?? .max)
                    if at >= 8, message.hasPrefix("reason: ", at: at - 8) { opening = at }
                    else if at == single { single = message.firstIndex(of: 39, from: at + 1, to: message.count) }
                    else { double = message.firstIndex(of: 34, from: at + 1, to: message.count) }
                }
                guard let at = opening else { break }
                entry.quote = message[at]
                entry.quoteDepth = 1
                i = at + 1
            } else {
                guard let at = message.firstIndex(of: entry.quote, from: i, to: message.count) else { break }
                let before = at > 0 ? message[at - 1] : 32
                let after = at + 1 < message.count ? message[at + 1] : 10
                let startsWord = before == 32 || before == 9 || before == 10 || before == UInt8(ascii: "(") || before == UInt8(ascii: "=")
                    || before == UInt8(ascii: "[") || before == UInt8(ascii: "{")
                let endsWord = after == 32 || after == 9 || after == 10 || after == 13 || after == UInt8(ascii: ",")
                    || after == UInt8(ascii: ")") || after == UInt8(ascii: ".") || after == UInt8(ascii: ";") || after == UInt8(ascii: ":")
                    || after == UInt8(ascii: "]") || after == UInt8(ascii: "}")
                if startsWord, !endsWord {
                    entry.quoteDepth += 1
                } else if endsWord, !startsWord {
                    entry.quoteDepth -= 1
                    if entry.quoteDepth == 0 { entry.quote = 0 }
                }
                i = at + 1
            }
        }
        entry.quoteRead = message.count
        guard entry.quote != 0, let first = line.first, first != 32, first != 9 else { return false }
        return !opensMessageAnywhere(line)
    }

    /// The most bytes a line a page broke at 80 columns is read for: 80 characters, some of them two or three
    /// bytes of UTF-8.
    static let pageLineBytes = 120

    /// Where the line of `message` that ends at `end` starts, when it is no longer than `pageLineBytes`;
    /// nil for a longer one (no page broke it). Reads eight bytes at a time: it is asked of every bare line.
    static func pageLineStart(_ message: UnsafeRawBufferPointer, end: Int) -> Int? {
        guard let raw = message.baseAddress else { return nil }
        let limit = max(0, end - pageLineBytes)
        var i = end
        while i - 8 >= limit {
            // The bytes of the word equal to a newline, exactly (no borrow between bytes).
            let word = (raw + i - 8).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let zero = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word | 0x7F7F_7F7F_7F7F_7F7F)
            if zero != 0 { return i - 8 + (63 - zero.leadingZeroBitCount) / 8 + 1 }
            i -= 8
        }
        while i > limit {
            if raw.load(fromByteOffset: i - 1, as: UInt8.self) == 0x0A { return i }
            i -= 1
        }
        // The line may start right at the limit.
        if i == 0 || raw.load(fromByteOffset: i - 1, as: UInt8.self) == 0x0A { return i }
        return nil
    }

    /// True when `line` opens with what a message goes on with but never opens with: `<` (an object's
    /// description), `(` (not the debugger's `(lldb)`), a quote, a path's `/`, or a reverse-DNS name.
    static func opensWrappedValue(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first else { return false }
        switch first {
        case UInt8(ascii: "<"), UInt8(ascii: "\""), UInt8(ascii: "'"): return line.count > 1 && line[1] != 32
        case UInt8(ascii: "("):
            // Not a debugger's or a REPL's prompt (`(lldb)`, `(main)> `).
            guard line.count > 1, line[1] != 32, let close = line.firstIndex(of: UInt8(ascii: ")")) else { return false }
            return !line.hasPrefix("(lldb)") && !(close + 1 < line.count && line[close + 1] == UInt8(ascii: ">"))
        // Not a compiler's diagnostic at its source file (`/x/AppDelegate.h:1:9: fatal error: …`): a message of its own.
        case UInt8(ascii: "/"): return line.count > 1 && line[1] != 32 && line[1] != UInt8(ascii: "/") && !isCompilerDiagnostic(line)
        // An Objective-C selector (`-controllerDidChangeContent:`), not a list's dash nor a method's log line
        // (`-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](760): …` opens a message of its own).
        case UInt8(ascii: "-"): return line.count > 1 && line[1] >= 97 && line[1] <= 122
        default: return startsWithDottedName(line)
        }
    }

    /// True when `line` opens with a reverse-DNS name (`com.apple.developer.icloud-container-identifiers`,
    /// `group.com.example`): lower-case words joined by dots, at least three of them.
    static func startsWithDottedName(_ line: UnsafeRawBufferPointer) -> Bool {
        var dots = 0, i = 0, wordLength = 0
        while i < line.count, line[i] != 32 {
            let byte = line[i]
            if byte == UInt8(ascii: ".") {
                guard wordLength > 0 else { return false }
                dots += 1
                wordLength = 0
            } else if (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "-") || (wordLength > 0 && byte >= 65 && byte <= 90) {
                wordLength += 1
            } else {
                break
            }
            i += 1
        }
        return dots >= 2 && line.first.map { $0 >= 97 && $0 <= 122 } == true
    }

    /// The printed width of the line of `message` that ends at `end`: its prefix counts where it is the
    /// message's first line.
    static func printedWidth(_ message: UnsafeRawBufferPointer, end: Int, prefixWidth: Int) -> Int {
        let start = lineStart(in: message, before: end)
        return characters(message, start, end) + (start == 0 ? prefixWidth : 0)
    }

    /// The characters of `message[start..<end]` as a page counts them: UTF-8 bytes that start a character
    /// (`„default.store“` is 15 wide, not 19).
    @inline(__always) static func characters(_ message: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int {
        var count = 0
        for index in start..<end where message[index] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// The printed widths at which a line that ends in a word and a next line that opens with one read as one
    /// sentence a page or a mail client broke: they break at 72 to 80 columns, so the line before the break
    /// is up to a long word shorter; a longer line was not broken there, and a log line often ends in a word.
    static let wrappedLineWidths = 56...80

    /// True when `line` opens with a type's name in Apple's style, two or three capitals (a prefix such as `NS`,
    /// `CK`, `UI`) and a capitalised word (`NSManagedObjectContext`, `CKRecord`), that ends the sentence: the
    /// line's end, or a `.` or `,` at the end of the line or before a blank.
    static func startsWithTypeName(_ line: UnsafeRawBufferPointer) -> Bool {
        var capitals = 0
        while capitals < line.count, line[capitals] >= 65, line[capitals] <= 90 { capitals += 1 }
        guard capitals >= 3, capitals <= 4 else { return false }
        var i = capitals
        guard i < line.count, line[i] >= 97, line[i] <= 122 else { return false }
        while i < line.count, (line[i] | 0x20) >= 97 && (line[i] | 0x20) <= 122 || (line[i] >= 48 && line[i] <= 57) { i += 1 }
        // The sentence's end (`NSManagedObjectContext.`), not a message that opens with a type's name
        // (`CFNetwork SSLHandshake completed`).
        if i == line.count { return true }
        guard line[i] == UInt8(ascii: ".") || line[i] == UInt8(ascii: ",") else { return false }
        return i + 1 == line.count || line[i + 1] == 32
    }

    /// True when `message[..<end]` ends in a whole word (after a blank or at a line's start, not the tail of
    /// `EA0A` or `a/b`) that no sentence ends with (`unfinishedWords`). Reads at most five bytes and
    /// allocates nothing: it is asked of every bare line.
    static func endsInUnfinishedWord(_ message: UnsafeRawBufferPointer, end: Int) -> Bool {
        var wordStart = end
        var code: UInt32 = 0
        while wordStart > 0, end - wordStart <= 4, (message[wordStart - 1] | 0x20) >= 97, (message[wordStart - 1] | 0x20) <= 122 {
            wordStart -= 1
            code = code << 8 | UInt32(message[wordStart] | 0x20)
        }
        guard wordStart < end, end - wordStart <= 4,
              wordStart == 0 || ByteClass.isBlank(message[wordStart - 1]) || message[wordStart - 1] == 0x0A else { return false }
        return unfinishedWords.contains(code)
    }

    /// True when `line` opens with a type's member (`ModelContext.reset`, `NSManagedObjectContext.save`): an
    /// upper-case letter, letters and digits, a dot and a lower-case letter, before any space or colon.
    static func startsWithQualifiedName(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first, first >= 65, first <= 90 else { return false }
        var i = 1
        while i < line.count, (line[i] | 0x20) >= 97 && (line[i] | 0x20) <= 122 || (line[i] >= 48 && line[i] <= 57) { i += 1 }
        return i + 1 < line.count && line[i] == UInt8(ascii: ".") && line[i + 1] >= 97 && line[i + 1] <= 122
    }

    /// True when the last line of `message`, no longer than a page breaks them, holds a Swift trap
    /// (`Fatal error: `) and ends mid-sentence.
    static func endsTrapMidSentence(_ message: UnsafeRawBufferPointer) -> Bool {
        var end = message.count
        while end > 0, message[end - 1] == 32 || message[end - 1] == 9 { end -= 1 }
        guard end > 0, !endsSentence(message[end - 1]), message[end - 1] != UInt8(ascii: ":"),
              let start = pageLineStart(message, end: end) else { return false }
        // Each `F` of the line (memchr), not each byte.
        var from = start
        while let found = message.firstIndex(of: UInt8(ascii: "F"), from: from, to: end) {
            if message.hasPrefix("Fatal error: ", at: found) { return true }
            from = found + 1
        }
        return false
    }

    /// True for a byte a finished sentence or quotation ends with: `.` `!` `?` `)` `"` `'` `]` `}`.
    @inline(__always) static func endsSentence(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ")"), UInt8(ascii: "\""),
             UInt8(ascii: "'"), UInt8(ascii: "]"), UInt8(ascii: "}"): return true
        default: return false
        }
    }

    /// True when the last line of `message` is only a Swift source location (`SwiftData/BackingData.swift:1039:`,
    /// `App/Store.swift:52:`): what a trap prints before `Fatal error:`, which a page moved to the next line.
    static func endsWithSourceLocation(_ message: UnsafeRawBufferPointer) -> Bool {
        var end = message.count
        while end > 0, message[end - 1] == 32 || message[end - 1] == 9 { end -= 1 }
        guard end > 0, message[end - 1] == UInt8(ascii: ":") else { return false }
        var i = end - 1
        let digitsEnd = i
        while i > 0, message[i - 1] >= 48, message[i - 1] <= 57 { i -= 1 }
        guard i < digitsEnd, i > 7, message[i - 1] == UInt8(ascii: ":") else { return false }
        let suffix = Array(".swift".utf8)
        guard i - 1 >= suffix.count, message[(i - 1 - suffix.count)..<(i - 1)].elementsEqual(suffix) else { return false }
        var start = i - 1
        while start > 0, message[start - 1] != 0x0A, message[start - 1] != 32 { start -= 1 }
        return start == 0 || message[start - 1] == 0x0A
    }

    /// True when `line` goes on a Swift trap printed as Swift 2 to 5.0 did, `fatal error: <message>: file
    /// <path>, line <n>` (or `assertion failed:`, `precondition failed:`), that a page broke: after the trap's
    /// line alone when that line is 60 characters or more (its message broken mid-sentence; `error: …` may open
    /// the rest), after `file` (the path), after a line ending in `,` (`line <n>`), and the whole location
    /// (`file <path>, line <n>`) after a line ending in `:`. Reads the open message's first bytes and last
    /// line only, and stops at one comparison for a message that is no trap.
    static func continuesOldSwiftTrap(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard let opening = message.first, opening | 0x20 == UInt8(ascii: "f") || opening | 0x20 == UInt8(ascii: "a")
                || opening | 0x20 == UInt8(ascii: "p"),
              let first = line.first, first != 32, first != 9 else { return false }
        let fatal = message.hasPrefix("fatal error: ") || message.hasPrefix("Fatal error: ")
        guard fatal || message.hasPrefix("assertion failed: ") || message.hasPrefix("precondition failed: ") else { return false }
        let end = textEnd(of: message)
        // The trap's location on a line of its own after the message's last `:` (`… NSUnderlyingError=…}):` /
        // `file /x/CoreDataModel.swift, line 136`).
        if message[end - 1] == UInt8(ascii: ":"), line.hasPrefix("file /"), isOldTrapLocation(line) { return true }
        // The rest is read after `fatal error:` only: other processes log `assertion failed:` lines of their own.
        guard fatal else { return false }
        if lineStart(in: message, before: end) == 0 {
            // Not a trap that printed its location already (`…: file /x/Item.swift, line 12`).
            var digits = end
            while digits > 0, ByteScan.isDigit(message[digits - 1]) { digits -= 1 }
            guard characters(message, 0, end) >= 60, digits == end || !message.hasPrefix(", line ", at: digits - 7) else { return false }
            return line.hasPrefix("error: ") || !opensMessageAnywhere(line)
        }
        if message[end - 1] == UInt8(ascii: ",") { return line.hasPrefix("line ") }
        return message.hasPrefix("file", at: end - 4) && first == UInt8(ascii: "/")
    }

    /// True when `line` is an old Swift trap's location and nothing more: `file /path/Name.swift, line 136`.
    static func isOldTrapLocation(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, ByteClass.isBlankOrCR(line[end - 1]) { end -= 1 }
        var digits = end
        while digits > 0, ByteScan.isDigit(line[digits - 1]) { digits -= 1 }
        return digits < end && digits >= 7 && line.hasPrefix(", line ", at: digits - 7)
    }

    /// True when `message` ends with `Fatal error:` or ` reason:` and nothing after it: the words a trap
    /// or an error prints just before its text.
    static func endsAnnouncingText(_ message: UnsafeRawBufferPointer) -> Bool {
        // Asked of every bare line: the last byte first.
        let end = textEnd(of: message)
        guard end > 0, message[end - 1] == UInt8(ascii: ":") else { return false }
        return message.hasPrefix("Fatal error:", at: end - 12) || message.hasPrefix(" reason:", at: end - 8)
            || endsWithFrameworkTag(message, end: end)
    }

    /// True when the open message's last line ends with Core Data's tag and nothing after it (`… [error]
    /// CoreData:`, `CoreData: warning:`, `CoreData+CloudKit:`): a page broke the line after the tag, and the
    /// next line (`warning: Multiple NSEntityDescriptions claim …`) is the tag's text.
    static func endsWithFrameworkTag(_ message: UnsafeRawBufferPointer, end: Int) -> Bool {
        guard let at = frameworkTagStart(message, end: end) else { return false }
        return at == 0 || message[at - 1] == 32 || message[at - 1] == 9 || message[at - 1] == 0x0A
    }

    /// Where Core Data's tag that ends `message[..<end]` starts (`CoreData:`, `CoreData: error:`,
    /// `CoreData+CloudKit:`), or nil.
    static func frameworkTagStart(_ message: UnsafeRawBufferPointer, end: Int) -> Int? {
        // The level word Core Data prints after its tag, if any.
        var tagEnd = end
        for level in frameworkTagLevels where message.hasPrefix(level, at: end - level.utf8CodeUnitCount) {
            tagEnd = end - level.utf8CodeUnitCount + 1
            break
        }
        if message.hasPrefix("CoreData:", at: tagEnd - 9) { return tagEnd - 9 }
        if tagEnd == end, message.hasPrefix("CoreData+CloudKit:", at: end - 18) { return end - 18 }
        return nil
    }

    static let frameworkTagLevels: [StaticString] = [": error:", ": warning:", ": annotation:", ": fault:"]

    /// True when the last line of `message` is at least `wrapWidth` bytes and ends in a space: a line a page
    /// or a mail client broke.
    static func endsInWrapSpace(_ message: UnsafeRawBufferPointer) -> Bool {
        guard let last = message.last, last == 32 else { return false }
        let start = lineStart(in: message, before: message.count)
        return message.count - start >= wrapWidth
    }

    /// True when `line` opens with a time of day to the fraction of a second and then `|` or ` [` (Couchbase
    /// Lite's `12:08:15.750| WARNING*** : …`, `15:33:11.946680| [REST]: …`, a logger's `10:31:02.118 [DB] …`).
    static func opensWithLoggerTime(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first, ByteScan.isDigit(first), let end = TimestampedFormat.timeOfDay(line, at: 0),
              end + 1 < line.count else { return false }
        // The fraction of a second: a bare `12:08:15` may be a time a message prints.
        guard line[..<end].contains(UInt8(ascii: ".")) || line[..<end].contains(UInt8(ascii: ",")) else { return false }
        return line[end] == UInt8(ascii: "|") || (line[end] == 32 && line[end + 1] == UInt8(ascii: "["))
    }

    /// True when `line` is a labelled detail of the error the entry ends with (`XcodeConsoleFormat.opensWithErrorDetailLabel`):
    /// the entry's last line reports an error (`error`, `Error`, `failed`) or is a detail under another label. A line
    /// with the same label as the one above it (`Reason: …` twice) is a message of its own.
    static func continuesErrorDetails(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard XcodeConsoleFormat.opensWithErrorDetailLabel(line) else { return false }
        let last = lastTextLine(of: message)
        if XcodeConsoleFormat.opensWithErrorDetailLabel(last) {
            // Another label than this line's.
            guard let colon = line.firstIndex(of: UInt8(ascii: ":"), from: 0) else { return false }
            return last.count <= colon || !UnsafeRawBufferPointer(rebasing: last[0...colon]).elementsEqual(UnsafeRawBufferPointer(rebasing: line[0...colon]))
        }
        return last.contains(sequence: "error") || last.contains(sequence: "Error") || last.contains(sequence: "failed")
    }

    /// True when `line`'s first two bytes and its length allow a line `continuesPrintedDetail` reads: `[` and a digit,
    /// `(U`, `- `, `#0` or `#1`, or a short line opening with `S` or `B`. The test every bare line pays, so it reads no
    /// further (a bracketed tag, `[UIKitCore] …`, is common).
    @inline(__always) static func mayBePrintedDetail(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count > 2 else { return false }
        let second = line[1]
        switch line[0] {
        case UInt8(ascii: "["): return second >= 48 && second <= 57
        case UInt8(ascii: "("): return second == UInt8(ascii: "U")
        case UInt8(ascii: "-"): return second == 32
        case UInt8(ascii: "#"): return second == UInt8(ascii: "0") || second == UInt8(ascii: "1")
        case UInt8(ascii: "S"), UInt8(ascii: "B"): return line.count <= 16
        default: return false
        }
    }

    /// True when `line` is a detail a tool prints under the open message: a stack's heading or its first frame
    /// (`continuesStackHeading`), a list's item (`continuesListUnderHeading`), a statement or a hint
    /// (`continuesStatementTrace`).
    static func continuesPrintedDetail(_ line: UnsafeRawBufferPointer, after entry: inout RawEntry) -> Bool {
        switch line[0] {
        case UInt8(ascii: "-"): return continuesListUnderHeading(line, after: entry.message.bytes)
        case UInt8(ascii: "("), UInt8(ascii: "["): return continuesStatementTrace(line, after: &entry)
        default: return continuesStackHeading(line, after: entry.message.bytes)
        }
    }

    /// True when `line` is a stack's heading alone (`Stack trace:`, `Stacktrace:`, `Backtrace:`) under a message, or the
    /// first numbered frame (`#0 …`, or `#1 …` where the stack counts from one) under such a heading.
    static func continuesStackHeading(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first else { return false }
        if first == UInt8(ascii: "S") || first == UInt8(ascii: "B") { return isStackHeading(line) }
        guard first == UInt8(ascii: "#"), line.count > 3, line[1] == UInt8(ascii: "0") || line[1] == UInt8(ascii: "1"),
              line[2] == 32 else { return false }
        return isStackHeading(lastTextLine(of: message))
    }

    /// True when `line` is nothing but `Stack trace:`, `Stack Trace:`, `Stacktrace:` or `Backtrace:` (blanks after it
    /// allowed).
    static func isStackHeading(_ line: UnsafeRawBufferPointer) -> Bool {
        let end = textEnd(of: line)
        guard end >= 10, end <= 12 else { return false }
        let text = UnsafeRawBufferPointer(rebasing: line[0..<end])
        return text.elementsEqual("Stack trace:".utf8) || text.elementsEqual("Stack Trace:".utf8)
            || text.elementsEqual("Stacktrace:".utf8) || text.elementsEqual("Backtrace:".utf8)
    }

    /// True when `line` is a `- ` item and the open message opened with a line that ends with a colon (not itself an
    /// item), the heading alone or with a `- ` item as its last line.
    static func continuesListUnderHeading(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard line.count > 2, line[0] == UInt8(ascii: "-"), line[1] == 32, message.count > 2,
              !(message[0] == UInt8(ascii: "-") && message[1] == 32) else { return false }
        let heading = firstLine(of: message)
        guard endsWithColon(heading) else { return false }
        if heading.count == message.count { return true }
        let last = lastTextLine(of: message)
        return last.count > 2 && last[0] == UInt8(ascii: "-") && last[1] == 32
    }

    /// True when `line` is the statement GORM prints under the location of the statement that failed (`[141.428ms]
    /// [rows:623] SELECT …`), or its first version's message under a location alone (`(/…/database.go:370)`), or Node's
    /// hint under a warning (`(Use `node --trace-warnings ...` …)`).
    static func continuesStatementTrace(_ line: UnsafeRawBufferPointer, after entry: inout RawEntry) -> Bool {
        guard let first = line.first else { return false }
        if first == UInt8(ascii: "(") { return line.hasPrefix("(Use `node --trace-") && entry.message.bytes.contains(sequence: "Warning") }
        guard first == UInt8(ascii: "[") else { return false }
        if entry.endLine == entry.line, entry.message.bytes.first == UInt8(ascii: "("), isLoneLocation(entry.message.bytes) { return true }
        // `[`, a duration in milliseconds, `ms] [rows:`.
        guard let end = ByteScan.digits(line, at: 1), end < line.count else { return false }
        var i = end
        if line[i] == UInt8(ascii: ".") { i = ByteScan.digits(line, at: i + 1) ?? i }
        return line.hasPrefix("ms] [rows:", at: i)
    }

    /// True when `line` opens (after blanks) with a bullet, `•` or `⨯`, outside any bracket the open message left open,
    /// and the open message opened with a bullet too, or neither its first line nor its last is a heading (ends with a
    /// colon).
    static func opensSiblingBullet(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        let start = ByteScan.spaces(line, at: 0)
        guard start < line.count, line[start] == 0xE2, opensWithBullet(line, at: start), depth(of: message) <= 0 else { return false }
        if opensWithBullet(message, at: ByteScan.spaces(message, at: 0)) { return true }
        return !endsWithColon(firstLine(of: message)) && !endsWithColon(lastTextLine(of: message))
    }

    /// `message` up to its first line break.
    static func firstLine(of message: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: message[0..<(message.firstIndex(of: 0x0A) ?? message.count)])
    }

    /// True when `text` ends with a colon, blanks after it allowed: a heading over what follows it.
    static func endsWithColon(_ text: UnsafeRawBufferPointer) -> Bool {
        let end = textEnd(of: text)
        return end > 0 && text[end - 1] == UInt8(ascii: ":")
    }

    /// `• ` (U+2022) or `⨯ ` (U+2A2F) at `i`.
    static func opensWithBullet(_ text: UnsafeRawBufferPointer, at i: Int) -> Bool {
        guard i + 3 < text.count, text[i] == 0xE2, text[i + 3] == 32 else { return false }
        return (text[i + 1] == 0x80 && text[i + 2] == 0xA2) || (text[i + 1] == 0xA8 && text[i + 2] == 0xAF)
    }

    /// True when `line` is nothing but a lower-case name, a colon and an opening brace or parenthesis (`storeOptions: {`,
    /// `userInfo: {`): the name of a dictionary or list a message prints under it.
    static func opensNamedDump(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first, first >= 97, first <= 122 else { return false }
        var i = 1
        while i < line.count, isNameByte(line[i]), line[i] != 46 { i += 1 }
        guard i + 2 < line.count, line[i] == UInt8(ascii: ":"), line[i + 1] == 32,
              line[i + 2] == UInt8(ascii: "{") || line[i + 2] == UInt8(ascii: "(") else { return false }
        return textEnd(of: line) == i + 3
    }

    /// True when `line` is one of the lines Node's loader prints under `The module '….node'` when a native module was
    /// built for another Node ABI (`was compiled against a different Node.js version using`, `NODE_MODULE_VERSION 57.
    /// This version of Node.js requires`, `the module (for instance, using `npm rebuild` …`) and the open message
    /// holds that first line.
    static func continuesNodeModuleError(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first, first == UInt8(ascii: "w") || first == UInt8(ascii: "N") || first == UInt8(ascii: "t") else { return false }
        guard isNodeModuleErrorLine(line) else { return false }
        return message.contains(sequence: "The module ")
    }

    static func isNodeModuleErrorLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.hasPrefix("was compiled against a different Node.js version") || line.hasPrefix("NODE_MODULE_VERSION ")
            || line.hasPrefix("the module (for instance, using `npm rebuild`")
    }

    /// True when `line` is the `Process: com.example, PID: 7036` line under the Android runtime's crash heading
    /// `message` opens with (`FATAL EXCEPTION: main`, `RawEntry.androidCrash`), or the exception's line under that one.
    static func continuesAndroidCrash(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        if !message.contains(byte: 0x0A, before: message.count) { return line.hasPrefix("Process: ") }
        let last = lastTextLine(of: message)
        return last.hasPrefix("Process: ") && last.contains(sequence: ", PID: ")
    }

    /// True when the open message is a Rust panic's line (`thread 'main' panicked at src/lib.rs:4:9:`) and `line`
    /// is its message, or `line` is the `note: run with `RUST_BACKTRACE=1`` hint under the panic.
    static func continuesRustPanic(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard message.hasPrefix("thread '"), message.contains(sequence: "' panicked at ") else { return false }
        if line.hasPrefix("note: run with `RUST_BACKTRACE=") { return true }
        return !message.contains(byte: 0x0A, before: message.count) && message.last == UInt8(ascii: ":")
    }

    /// True when the open message is the Dart VM's fatal error at a source file of its runtime (`../../../flutter/
    /// third_party/dart/runtime/vm/runtime_entry.cc: 5095: error: …`) and `line` is one of the lines the VM prints
    /// with its stack: `version=`, `pid=`, `os=`, `isolate_instructions=`, `fp=` above its frames, `-- End of
    /// DumpStackTrace` and `=== Crash occurred when compiling …` under them, or its note that it will not dump a
    /// second stack (`Aborting reentrant request for stack trace.`).
    static func continuesDartVMDump(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        // Cheapest first: this runs on every bare line that opens a message.
        guard let first = line.first, first == UInt8(ascii: "v") || first == UInt8(ascii: "p") || first == UInt8(ascii: "o")
            || first == UInt8(ascii: "i") || first == UInt8(ascii: "f") || first == UInt8(ascii: "A") || first == UInt8(ascii: "-")
            || first == UInt8(ascii: "=") else { return false }
        guard line.hasPrefix("version=") || line.hasPrefix("pid=") || line.hasPrefix("os=") || line.hasPrefix("isolate_instructions=")
            || line.hasPrefix("fp=") || line.hasPrefix("Aborting reentrant request for stack trace.")
            || line.hasPrefix("-- End of DumpStackTrace") || line.hasPrefix("=== Crash occurred when compiling ") else { return false }
        let opening = firstLine(of: message)
        return opening.contains(sequence: "runtime/") && opening.contains(sequence: ".cc: ") && opening.contains(sequence: ": error: ")
    }

    /// True when `message` is one line of two to eight words in capitals (letters, digits, `_`, `.`, `+`) ending
    /// in a colon: a framework's banner before its message (`BUG IN CLIENT OF CLOUDKIT:`, `BUG IN CLIENT OF
    /// LIBDISPATCH:`), set on a line of its own. One word (`ERROR:`) is a level a logger prints anywhere.
    static func isCapitalBanner(_ message: UnsafeRawBufferPointer) -> Bool {
        let end = textEnd(of: message)
        guard end >= 4, end <= 64, message[end - 1] == UInt8(ascii: ":") else { return false }
        var words = 1, letters = 0
        for byte in message[0..<(end - 1)] {
            switch byte {
            case 65...90: letters += 1
            case 32: words += 1
            case 48...57, UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"): break
            default: return false
            }
        }
        return words >= 2 && words <= 8 && letters >= 6
    }

    /// True when `message` is only a crash reporter's header block (Crashlytics' `Crashed: queue` and its
    /// `EXC_…` line, or the `#### in -[Class method]` heading its GitHub integration filed issues with): the
    /// thread's frames, the trap's message or the crash counts follow it after a blank line.
    static func isCrashHeaderBlock(_ message: UnsafeRawBufferPointer) -> Bool {
        // A crashed thread's heading ends the block (`Thread 0 [Crashed]:`): its frames follow after a blank line.
        let end = textEnd(of: message)
        if message.count < 2048, end > 0, message[end - 1] == UInt8(ascii: ":"), isCrashedThreadHeading(lastTextLine(of: message)) { return true }
        guard message.count < 512 else { return false }
        let lines = message.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if message.hasPrefix("Crashed: ") || message.hasPrefix("crashed: ") || message.hasPrefix("#### in ") { return lines < 3 }
        // A crash service's issue heading (Instabug's `# Cause: …` / `# Reported at: …`, an exception's name
        // alone with the blamed frame and the reason under it) or a crashed thread's heading: the crashed
        // thread, or its frames, follow after a blank line.
        guard lines < 4 else { return false }
        return message.hasPrefix("# Cause: ") || message.hasPrefix("Fatal Exception: ") || startsWithExceptionNameLine(message)
    }

    /// True when `message`'s first line is only an exception's name (`NSInvalidArgumentException`,
    /// `RLMException`), as a crash service heads an issue with it.
    static func startsWithExceptionNameLine(_ message: UnsafeRawBufferPointer) -> Bool {
        let end = message.firstIndex(of: 0x0A, from: 0) ?? message.count
        var stop = end
        while stop > 0, ByteClass.isBlankOrCR(message[stop - 1]) { stop -= 1 }
        guard stop >= 9, stop <= 80, message.hasPrefix("Exception", at: stop - 9), (65...90).contains(message[0]) else { return false }
        return message[0..<stop].allSatisfy {
            (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
    }

    /// True when the open message, two lines (the caller counts them), is an exception's name alone on its
    /// line and one frame under it: the reason follows, as a crash service heads an issue.
    static func continuesIssueHeading(after message: UnsafeRawBufferPointer) -> Bool {
        // Cheapest first: a capitalised first byte, and a first line that can end in `Exception`.
        guard message.count < 400, message.count > 12, let head = message.first, head >= 65, head <= 90,
              let first = message.firstIndex(of: 0x0A, from: 0), first >= 9,
              message[first - 1] == UInt8(ascii: "n") || message[first - 1] == 13 || message[first - 1] == 32,
              startsWithExceptionNameLine(message) else { return false }
        let last = lastTextLine(of: message)
        if StackLines.isFrame(last) { return true }
        // `specialized Store.delete(in:) + 75`: a symbol and its offset.
        var i = last.count
        while i > 0, (48...57).contains(last[i - 1]) { i -= 1 }
        return i < last.count && i >= 4 && last.hasPrefix(" + ", at: i - 3)
    }

    /// True when `line` heads a crashed thread the way crash services print it: `Thread 0 [Crashed]:`,
    /// `Thread 1 Queue 202: NSManagedObjectContext 0x2815c23c0: … (serial) [Crashed]:`, `Thread 0 Crashed:`,
    /// `#16. Crashed: DefaultFileSource`, `Crashed: com.apple.main-thread`.
    static func isCrashedThreadHeading(_ line: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < line.count, ByteClass.isBlank(line[i]) { i += 1 }
        let rest = UnsafeRawBufferPointer(rebasing: line[i...])
        guard rest.count < 240 else { return false }
        if rest.hasPrefix("Crashed: ") { return true }
        if rest.hasPrefix("#"), let dot = rest.firstIndex(of: UInt8(ascii: "."), from: 1, to: 8),
           rest[1..<dot].allSatisfy({ (48...57).contains($0) }), rest.hasPrefix(" Crashed: ", at: dot + 1) { return true }
        guard rest.hasPrefix("Thread ") else { return false }
        var end = rest.count
        while end > 0, ByteClass.isBlankOrCR(rest[end - 1]) { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: rest[0..<end])
        return (end >= 11 && text.hasPrefix("[Crashed]:", at: end - 10)) || (end >= 9 && text.hasPrefix(" Crashed:", at: end - 9))
            || (end >= 10 && text.hasPrefix(" Crashed::", at: end - 10))
    }

    /// What may follow a crash reporter's header block after a blank line: the crashed thread again, a
    /// thread's name, the trap's message, the crash counts under a Crashlytics issue heading.
    static func continuesCrashHeaderBlock(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        if line.hasPrefix("Crashed: ") || line.hasPrefix("Thread : Crashed:") || line.hasPrefix("* Number of crashes: ")
            || line.hasPrefix("- Number of crashes: ") || startsTrapMessage(line) || isCrashedThreadHeading(line) { return true }
        // The crashed thread's frames under its heading.
        return isCrashedThreadHeading(lastTextLine(of: message)) && StackLines.isFrame(line)
    }

    /// True when `line` opens with the trap's message a crash reporter prints under its heading: `Fatal error: …`,
    /// `Fatal Exception: …`, or Crashlytics' `crash_info_entry_N` key (the message a Swift runtime left in the
    /// crash info; a page may glue the key to the message or set a backtick before it).
    static func startsTrapMessage(_ line: UnsafeRawBufferPointer) -> Bool {
        if line.hasPrefix("Fatal error: ") || line.hasPrefix("Fatal Exception: ") { return true }
        let start = line.first == UInt8(ascii: "`") ? 1 : 0
        return UnsafeRawBufferPointer(rebasing: line[start...]).hasPrefix("crash_info_entry_")
    }

    /// True when the open message is only Crashlytics' `Crashed: queue` line and `line` is the trap's message
    /// printed under it (`Fatal error: …`, `Fatal Exception: …`, the `crash_info_entry_0` key): one crash.
    static func continuesCrashHeading(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard message.hasPrefix("Crashed: ") || message.hasPrefix("Thread : Crashed: "), !message.contains(byte: 0x0A, before: message.count) else { return false }
        return startsTrapMessage(line)
    }

    /// True when the open message is XCTest's failure line ended after its test (`error: -[AppTests testSave] :`)
    /// and `line` is the rest, or `line` is only an exception's name in parentheses (`(NSInternalInconsistencyException)`)
    /// under such a failure.
    static func continuesTestFailure(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        let end = textEnd(of: message)
        // Cheapest first: the open message ends with ` :` / `] :`, or `line` is a name in parentheses.
        guard end >= 2, message.count <= 16 << 10, let base = message.baseAddress else { return false }
        let endsWithLabel = message[end - 1] == UInt8(ascii: ":") && (message[end - 2] == 32 || message[end - 2] == UInt8(ascii: "]"))
        if !endsWithLabel {
            // `(NSInternalInconsistencyException)` alone.
            var from = 0, to = line.count
            while from < to, ByteClass.isBlank(line[from]) { from += 1 }
            while to > from, ByteClass.isBlank(line[to - 1]) { to -= 1 }
            guard to - from > 11, line[from] == UInt8(ascii: "("), line[to - 1] == UInt8(ascii: ")") else { return false }
            let name = UnsafeRawBufferPointer(rebasing: line[(from + 1)..<(to - 1)])
            guard name.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "_") }) else { return false }
            guard name.hasPrefix("Exception", at: name.count - 9) || name.hasPrefix("Error", at: name.count - 5) else { return false }
        }
        let marker: StaticString = "error: -["
        return cscan_find(base, end, marker.utf8Start, marker.utf8CodeUnitCount) >= 0
    }

    /// True when `line` is a line of the dynamic loader's message (`Library not loaded:`, `Symbol not found:`,
    /// `Referenced from:`, `Expected in:`, `Reason:`) and the open message's last line is one too, or the
    /// report's `Termination Reason: DYLD …` line it explains.
    static func continuesLoaderMessage(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        let start = ByteScan.spaces(line, at: 0)
        // Cheapest first: this runs on every bare line that opens a message.
        guard start < line.count, line[start] == UInt8(ascii: "R") || line[start] == UInt8(ascii: "L")
                || line[start] == UInt8(ascii: "S") || line[start] == UInt8(ascii: "E") else { return false }
        func isLoaderLine(_ text: UnsafeRawBufferPointer, at i: Int) -> Bool {
            text.hasPrefix("Library not loaded: ", at: i) || text.hasPrefix("Symbol not found: ", at: i)
                || text.hasPrefix("Referenced from: ", at: i) || text.hasPrefix("Expected in: ", at: i) || text.hasPrefix("Reason: ", at: i)
        }
        guard isLoaderLine(line, at: start) else { return false }
        let end = textEnd(of: message)
        let last = UnsafeRawBufferPointer(rebasing: message[lineStart(in: message, before: end)..<end])
        var i = ByteScan.spaces(last, at: 0)
        if last.hasPrefix("dyld", at: i), let colon = (i..<min(last.count, i + 16)).first(where: { last[$0] == UInt8(ascii: ":") }) {
            i = ByteScan.spaces(last, at: colon + 1)
        }
        guard isLoaderLine(last, at: i) || last.hasPrefix("Termination Reason: DYLD", at: i) else { return false }
        // `Reason:` and `Expected in:` lines are dyld's only under its head line (`Library not loaded:`, `Symbol
        // not found:`, `Termination Reason: DYLD`): two `Reason: …` lines of another program stay apart.
        guard message.count <= 16 << 10, let base = message.baseAddress else { return false }
        let heads: [StaticString] = ["Library not loaded: ", "Symbol not found: ", "Termination Reason: DYLD"]
        return heads.contains { cscan_find(base, end, $0.utf8Start, $0.utf8CodeUnitCount) >= 0 }
    }

    /// True when the open message is the heading of a thread as Xcode's debug navigator copies it (`Thread 1`
    /// alone, `Thread 1 Queue : …` or `Thread 1Queue : …`, then maybe a `Queue : …` line) and `line` is its
    /// `Queue : …` line or a frame. A crash report's headings (`Thread 4:`, `Thread 4 Crashed:`) are read by
    /// the crash report rules, not here.
    static func continuesThreadListing(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard message.hasPrefix("Thread "), let digitsEnd = ByteScan.digits(message, at: 7) else { return false }
        let end = textEnd(of: message)
        // The heading's first line: the number alone, or the queue on the same line.
        var firstEnd = digitsEnd
        while firstEnd < end, message[firstEnd] != 0x0A { firstEnd += 1 }
        let afterNumber = ByteScan.spaces(message, at: digitsEnd)
        let queueOnFirst = message.hasPrefix("Queue :", at: afterNumber) || message.hasPrefix("Queue:", at: afterNumber)
        guard afterNumber >= firstEnd || queueOnFirst else { return false }
        let lineIsQueue = line.hasPrefix("Queue :") || line.hasPrefix("Queue:")
        if firstEnd >= end {
            // One heading line so far: its queue line or its first frame may follow.
            return (lineIsQueue && !queueOnFirst) || StackLines.isFrame(line)
        }
        // Two lines: `Thread 1` over `Queue : …`, and nothing more; a frame follows.
        let second = UnsafeRawBufferPointer(rebasing: message[(firstEnd + 1)..<end])
        guard !queueOnFirst, second.hasPrefix("Queue :") || second.hasPrefix("Queue:"), !second.contains(byte: 0x0A, before: second.count) else {
            return false
        }
        return StackLines.isFrame(line)
    }

    /// Words a sentence does not end with: a line that ends in one was broken by a wrapper.
    /// Each word's lower-case bytes read from its last to its first, packed into one number
    /// (`endsInUnfinishedWord` builds the same number as it reads a message backwards).
    static let unfinishedWords: Set<UInt32> = Set(["a", "an", "the", "to", "of", "for", "in", "on", "at", "by", "with",
                                                   "from", "and", "or", "is", "are", "was", "be", "not", "that", "its",
                                                   "this", "as", "into"].map { word in
        word.utf8.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    })

    /// True when the open message's last line ends with a colon (`Fatal error: Cannot initialize X: `) and
    /// `line` is the error it announces: a type name ending in `Error` or `Exception` followed by `(`, `:`
    /// or `.` (`SwiftDataError(_error: …)`, `NSInternalInconsistencyException: …`), or a Cocoa error, either
    /// inside Swift's `Optional(…)` (`Optional(Error Domain=NSCocoaErrorDomain Code=513 …`).
    static func announcesError(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        let end = textEnd(of: message)
        guard end > 0, message[end - 1] == UInt8(ascii: ":"), let first = line.first, first >= 65, first <= 90 else { return false }
        let opening = line.hasPrefix("Optional(") ? 9 : 0
        if line.hasPrefix("Error Domain=", at: opening) { return true }
        var i = opening
        while i < line.count, i < 80, (line[i] | 0x20) >= 97 && (line[i] | 0x20) <= 122 || line[i] == UInt8(ascii: "_")
            || line[i] == UInt8(ascii: ".") || (line[i] >= 48 && line[i] <= 57) { i += 1 }
        guard i < line.count, line[i] == UInt8(ascii: "(") || line[i] == UInt8(ascii: ":") || line[i] == UInt8(ascii: ".") else { return false }
        func endsName(with suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            guard i >= count else { return false }
            return (0..<count).allSatisfy { line[i - count + $0] == suffix.utf8Start[$0] }
        }
        return endsName(with: "Error") || endsName(with: "Exception")
    }

    /// True when the open message's last line opens more brackets (`{`, `(`, `[`) than it closes and `line`,
    /// which starts with no entry word, closes more than it opens: the rest of a structure printed over two
    /// lines.
    static func closesOpenBracket(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard !XcodeConsoleFormat.startsEntryWord(line, at: 0), depth(of: line) < 0 else { return false }
        var start = message.count
        while start > 0, message[start - 1] != 10 { start -= 1 }
        return depth(of: UnsafeRawBufferPointer(rebasing: message[start...])) > 0
    }

    /// True when the open message (up to its first 16 KiB) has opened more brackets than it closed, and
    /// `line` is a field of a structure, not a sentence: `Name: value` or `name = value` (a word of letters,
    /// digits, `_` and `.` first), such as the `Entity: attribute` list inside a userInfo's reason. A
    /// sentence after a cut line with an open bracket stays a message of its own. A quoted key or item of a
    /// dictionary's or array's description (`"_NSAutoVacuumLevel" = 2;`, `""`, `"a",`) is a field too: a page
    /// that dropped the description's indentation left them at the margin.
    static func staysInsideOpenBracket(_ line: UnsafeRawBufferPointer, after entry: inout RawEntry) -> Bool {
        guard entry.message.count <= 16 << 10, let first = line.first else { return false }
        // The message's depth, read on from where the last line's test stopped (the message only grows).
        func openDepth(_ entry: inout RawEntry) -> Int {
            let message = entry.message.bytes
            if entry.depthRead < message.count {
                entry.depth += depth(of: UnsafeRawBufferPointer(rebasing: message[entry.depthRead...]))
                entry.depthRead = message.count
            }
            return entry.depth
        }
        if first == UInt8(ascii: "\""), let last = line.last {
            let closes = last == UInt8(ascii: "\"") || last == UInt8(ascii: ";") || last == UInt8(ascii: ",")
            return line.count >= 2 && closes && openDepth(&entry) > 0
        }
        // An item of a CKError's `partial errors: {` list, keyed by a record name that may open with a digit
        // (`02B8D370-…:(Zone:__defaultOwner__) = <CKError 0x…: "Server Record Changed" (14/2004); …>`), under the list's
        // opening line or the item before it (the message ends with `{`, `>`, `;` or `,`: the byte test keeps the
        // search off most lines of bare text).
        if let closing = entry.message.bytes.last(where: { !ByteClass.isBlankOrCR($0) }),
           closing == UInt8(ascii: "{") || closing == UInt8(ascii: ">") || closing == UInt8(ascii: ";") || closing == UInt8(ascii: ","),
           isPartialErrorItem(line) {
            return openDepth(&entry) > 0
        }
        guard (first | 0x20) >= 97, (first | 0x20) <= 122, !XcodeConsoleFormat.startsEntryWord(line, at: 0) else { return false }
        var i = 1
        while i < line.count, i < 64, isNameByte(line[i]) { i += 1 }
        guard i < line.count else { return false }
        let isField = (line[i] == UInt8(ascii: ":") && i + 1 < line.count && line[i + 1] == 32)
            || line.hasPrefix(" = ", at: i)
        return isField && openDepth(&entry) > 0
    }

    /// True when `line` is an item of a CKError's `partial errors: {` list (`<record or zone> = <CKError 0x…: …>`).
    static func isPartialErrorItem(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count < 4096 && line.contains(sequence: " = <CKError 0x")
    }

    /// True when `line` holds only `{` or `(` (blanks around it): a dictionary or list opening under its message.
    static func isLoneOpeningBracket(_ line: UnsafeRawBufferPointer) -> Bool {
        var start = 0, end = line.count
        while start < end, ByteClass.isBlank(line[start]) { start += 1 }
        while end > start, ByteClass.isBlank(line[end - 1]) { end -= 1 }
        return end - start == 1 && (line[start] == UInt8(ascii: "{") || line[start] == UInt8(ascii: "("))
    }

    /// True when the open message ends with a `;` and holds a `<CKError …` description that a page broke over
    /// lines after its `; ` separators (`"Failed to modify some records"; ` / `partial errors: {`) and has not closed yet (more
    /// `<` than `>` from it on, within 16 KiB), and `line` does not open an entry of its own (a timestamp, a
    /// console entry word).
    static func continuesOpenCKError(_ line: UnsafeRawBufferPointer, after entry: inout RawEntry) -> Bool {
        let message = entry.message.bytes
        // The break is after a `; ` separator: checked first, from the end, so that other lines cost no search.
        var end = message.count
        while end > 0, message[end - 1] == 32 || message[end - 1] == 9 { end -= 1 }
        guard end > 0, message[end - 1] == UInt8(ascii: ";"), message.count <= 16 << 10, ByteScan.timestamp(line, at: 0) == nil,
              !XcodeConsoleFormat.startsEntryWord(line, at: 0), let base = message.baseAddress else { return false }
        // Read on from where the last line's test stopped (the message only grows): first the marker, then
        // the balance of `<` and `>` from it.
        let marker: StaticString = "<CKError"
        if !entry.ckFound {
            let from = max(0, entry.ckRead - (marker.utf8CodeUnitCount - 1))
            let found = cscan_find(base + from, message.count - from, marker.utf8Start, marker.utf8CodeUnitCount)
            guard found >= 0 else {
                entry.ckRead = message.count
                return false
            }
            entry.ckFound = true
            entry.ckRead = from + Int(found)
        }
        for byte in message[entry.ckRead...] {
            if byte == UInt8(ascii: "<") { entry.ckBalance += 1 } else if byte == UInt8(ascii: ">") { entry.ckBalance -= 1 }
        }
        entry.ckRead = message.count
        return entry.ckBalance > 0
    }

    @inline(__always) private static func isNameByte(_ b: UInt8) -> Bool {
        ((b | 0x20) >= 97 && (b | 0x20) <= 122) || (b >= 48 && b <= 57) || b == 95 || b == 46
    }

    /// True when `line`, bare, opens a paragraph of its own: a capitalised word followed by a lower-case
    /// letter, not the `Error Domain=` / `UserInfo=` / `Underlying` parts of an error printed over lines.
    static func startsParagraph(_ line: UnsafeRawBufferPointer, orTypeName: Bool = false) -> Bool {
        // A capitalised word (`The operation…`), or, after a blank line, a type's name too
        // (`RBQFetchedResultsTVC caught exception…`).
        line.count >= 2 && line[0] >= 65 && line[0] <= 90
            && ((line[1] >= 97 && line[1] <= 122) || (orTypeName && line[1] >= 65 && line[1] <= 90))
            && !line.hasPrefix("Error Domain=") && !line.hasPrefix("UserInfo=") && !line.hasPrefix("Underlying")
    }

    /// Brackets opened minus brackets closed in `text`.
    private static func depth(of text: UnsafeRawBufferPointer) -> Int {
        // A table of each byte's step, read without a branch: this runs over every bare line (twice, with the line
        // above), where a test per bracket cost twice as much.
        bracketSteps.withUnsafeBufferPointer { steps in
            var depth = 0
            for byte in text { depth &+= Int(steps[Int(byte)]) }
            return depth
        }
    }

    /// `depth(of:)`'s step for each byte: +1 for `{`, `(`, `[`, -1 for `}`, `)`, `]`, 0 for the rest.
    private static let bracketSteps: [Int8] = {
        var steps = [Int8](repeating: 0, count: 256)
        for opening in "{([".utf8 { steps[Int(opening)] = 1 }
        for closing in "})]".utf8 { steps[Int(closing)] = -1 }
        return steps
    }()

    /// The shortest line a wrapped one is taken for: pages and mail clients wrap at 60–80 columns.
    static let wrapWidth = 50

    /// True when `line`, unprefixed in a prefixed capture, starts a message of its own: a capitalised
    /// word at the start of the line after an entry whose text ended a sentence or a structure
    /// (`.`, `)`, `]`, `}`, `!`, a quote). `Error Domain=…` (the error a header line announced), indented
    /// lines, frames, `{`/`(` dumps and lines after an entry that ends with `:`, `,`, `=` or mid-sentence
    /// stay continuations. The debugger's `(lldb)` prompt always starts a message.
    static func startsBareMessage(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        // The debugger's prompt (`(lldb) bt`) is never part of what the app printed before it, and the
        // Swift runtime prints a trap on a line of its own.
        if line.hasPrefix("(lldb)") || line.hasPrefix("Fatal error: ") || line.hasPrefix("fatal error: ") || isShellDeath(line)
            || isShellPrompt(line) { return true }
        // So does a trap or a test's failure at its Swift source location (`Runner/MainFlutterWindow.swift:64: Fatal error:
        // 'try!' …` under SQLite's `os_unix.c:46847: (0) open(…) - Undefined error: 0`, XCTest's `File.swift:53: error: …`),
        // whatever the line above ended with.
        if opensWithTrapLocation(line, wordEnd: firstWordEnd(of: line)) { return true }
        // The lines of a report that goes on (Xcode's `DVTAssertions:` block) are none.
        if continuesCheckerReport(line, after: message) { return false }
        // The C++ runtime ending the process after the exception's report (`libc++abi.dylib: terminating with
        // uncaught exception of type NSException`, `libc++abi: terminating due to uncaught exception …`).
        if line.hasPrefix("libc++abi") || line.hasPrefix("terminating with uncaught exception") { return true }
        // A line an app's print opens with an emoji (`🔧 [FocusLiveView] createRepository…`, `✅ Saved`): every
        // such line of the development pastes opens a message. A compiler's or linker's diagnostic with no source
        // file (`<unknown>:0: error: link command failed`), and Realm Sync's logger (`Sync: Connection[1]: …`).
        if opensWithEmoji(line) || line.hasPrefix("<unknown>:0: ") || line.hasPrefix("Sync: Connection[") { return true }
        // xcodebuild's own lines: its result banners (`** TEST SUCCEEDED **`, `** BUILD FAILED **`) and its test runner's
        // (`Test suite 'CoreUITests' started on …`, `Test case 'X.testY()' passed on …`, XCTest's `Test Case '-[…]' started.`).
        if line.first == UInt8(ascii: "*"), line.hasPrefix("** ") {
            let end = textEnd(of: line)
            if end > 6, line.hasPrefix(" **", at: end - 3) { return true }
        }
        if line.first == UInt8(ascii: "T"), line.hasPrefix("Test suite '") || line.hasPrefix("Test case '") || line.hasPrefix("Test Suite '")
            || line.hasPrefix("Test Case '") { return true }
        // A line stamped with a date and time in another logger's style (`2019-11-28 18:12:32:176 App[…]`,
        // `2021-03-17T21:30:40.435Z error: …`) is another message, whatever the capture's own prefix.
        if ByteScan.timestamp(line, at: 0) != nil { return true }
        // A logger's tag (`SR-Info:`, `[Sync]`) that opened the entry before opens this line too, or
        // bracketed tags open both (`[SQLITERK_OK]`, then `[SQLITERK_DAMAGED]`): the logger printed another message.
        if let tag = loggerTag(line) {
            if let open = loggerTag(message), tag.elementsEqual(open) || (tag.first == UInt8(ascii: "[") && open.first == UInt8(ascii: "[")) { return true }
            // An app's own bracketed tag and its text (`[Aespa] File is added to album`) under a prefixed line with
            // text of its own: the app printed it, the capture's prefix did not (every such line of the development
            // pastes opens an entry). Under a prefix a page left alone on its line, it is that prefix's message.
            if tag.first == UInt8(ascii: "["), line.count > tag.count + 1, line[tag.count] == 32, line[tag.count + 1] != 32,
               textEnd(of: message) > 0 { return true }
            // `callservicesd: [Default] …`: a process and a bracketed level, as a log stream relays a line.
            if tag.last == UInt8(ascii: ":"), line.hasPrefix(" [", at: tag.count), startsLevelTag(line, at: tag.count + 1) { return true }
        }
        // The same statement printed again (`Found loop plugin at file:///…` twice): a line that opens with
        // the open message's first three words is another print, whatever the first one ended with.
        if repeatsOpening(line, of: message) { return true }
        // Another logger's time of day and bar (Couchbase Lite 1.x's `14:55:23.222‖ WARNING: …` among NSLog's
        // dated lines), and a logging macro's method name opening the line (`-[RefreshManager nqRequestFinished:]-
        // RefreshManager.m:110 - Removed queue: 4`, `__PRETTY_FUNCTION__` before the text): another message.
        // (Not where the message above ends as an announcement or a list goes on: a console copy breaks
        // `CoreData+CloudKit: ` / `-[NSCloudKitMirroringDelegate executeMirroringRequest:error:](969): ` over lines.)
        if opensWithTimeOfDayBar(line) || opensWithTestFailure(line) { return true }
        if opensWithMethodName(line) {
            let end = textEnd(of: message)
            if end > 0, !":,=({[-".utf8.contains(message[end - 1]) { return true }
        }
        // An app's print of a whole quoted string (Swift's `debugPrint`, `"FetchFromCommander UPC list []"`) under a
        // message that ended a sentence or a structure: another message (round 97's XW-P05).
        let quoted = line.first == UInt8(ascii: "\"") && isQuotedLine(line)
        guard quoted || startsParagraph(line) || startsWithAcronymWord(line) else { return false }
        var end = message.count
        while end > 0, message[end - 1] == 32 || message[end - 1] == 9 || message[end - 1] == 13 { end -= 1 }
        guard end > 0 else { return false }
        switch message[end - 1] {
        case UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "!"),
             UInt8(ascii: "\""), UInt8(ascii: "'"): return true
        default: return false
        }
    }

    /// True when `line` opens with a time of day to the millisecond and a bar (`14:55:23.222| `, `14:55:23.222‖ `), the
    /// prefix Couchbase Lite 1.x's logger prints, or a blank and a process with its ids (`12:56:41.060 xcodebuild[82141:2896900] `),
    /// as xcodebuild and XCTest print their own lines in a test log.
    static func opensWithTimeOfDayBar(_ line: UnsafeRawBufferPointer) -> Bool {
        // `HH:MM:SS.mmm` exactly, then the bar or a blank.
        guard line.count > 13, line[2] == UInt8(ascii: ":"), line[8] == UInt8(ascii: "."),
              TimestampedFormat.timeOfDay(line, at: 0) == 12 else { return false }
        if line[12] == UInt8(ascii: "|") || (line.count > 15 && line[12] == 0xE2 && line[13] == 0x80 && line[14] == 0x96) { return true }
        guard line[12] == 32, let open = line.firstIndex(of: UInt8(ascii: "["), from: 14, to: min(line.count, 80)),
              (13..<open).allSatisfy({ line[$0] != 32 }),
              let ids = TimestampedFormat.pidAndThread(line, at: open) else { return false }
        return ids.end < line.count && line[ids.end] == 32
    }

    /// True when `line` is a test's failure as XCTest prints it, its source file's path first
    /// (`/Users/me/App/AppTests/ListTests.swift:33: error: -[AppTests.ListTests testFetch] : XCTAssertEqual failed: …`).
    static func opensWithTestFailure(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.first == UInt8(ascii: "/") else { return false }
        var colon = 0, from = 1
        while let at = line.firstIndex(of: UInt8(ascii: ":"), from: from, to: min(line.count, 600)) {
            if line.hasPrefix(": error: ", at: at) { colon = at; break }
            from = at + 1
        }
        guard colon > 0 else { return false }
        var i = colon
        while i > 0, ByteScan.isDigit(line[i - 1]) { i -= 1 }
        guard i < colon, i > 2, line[i - 1] == UInt8(ascii: ":") else { return false }
        var k = i - 2
        while k > 0, isNameByte(line[k]), line[k] != UInt8(ascii: ".") { k -= 1 }
        return line[k] == UInt8(ascii: ".") && k + 1 < i - 1
    }

    /// True when `line` opens with an Objective-C method's name and text follows it (`-[Class selector:]- …`,
    /// `+[Class method] …`): a class name with a capital, a blank, a selector, `]`, within the first 160 bytes.
    static func opensWithMethodName(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count > 6, line[0] == UInt8(ascii: "-") || line[0] == UInt8(ascii: "+"), line[1] == UInt8(ascii: "["),
              (line[2] >= 65 && line[2] <= 90) || line[2] == 95 else { return false }
        var i = 3
        while i < line.count, isNameByte(line[i]) { i += 1 }
        guard i < line.count, line[i] == 32, i + 1 < line.count, (line[i + 1] | 0x20) >= 97, (line[i + 1] | 0x20) <= 122 else { return false }
        guard let close = line.firstIndex(of: UInt8(ascii: "]"), from: i, to: min(line.count, 160)) else { return false }
        return close + 2 < line.count
    }

    /// True when `line` is one quoted string and nothing else (`"updatePriceToCommanderItems Live query executed "`):
    /// a quote at each end and none between.
    static func isQuotedLine(_ line: UnsafeRawBufferPointer) -> Bool {
        let end = textEnd(of: line)
        guard end >= 3, line[end - 1] == UInt8(ascii: "\"") else { return false }
        return line.firstIndex(of: UInt8(ascii: "\""), from: 1, to: end - 1) == nil
    }

    /// True when `line`, unprefixed in a prefixed capture whose lines no page broke at a width, is a short
    /// print of its own after a one-line message that ends in a word (`… client sent invalid parameters` /
    /// `Current file index 0`): a capitalised line under 40 bytes with no colon (a `key: value` line such as
    /// Core Data's `Using local storage: 1` goes on with its message), the message's brackets balanced and its
    /// last word no exception's or error's name.
    static func startsShortPrint(_ line: UnsafeRawBufferPointer, after message: UnsafeRawBufferPointer) -> Bool {
        guard line.count < 40, startsParagraph(line), !line.contains(UInt8(ascii: ":")) else { return false }
        var end = message.count
        while end > 0, ByteClass.isBlankOrCR(message[end - 1]) { end -= 1 }
        guard end > 0 else { return false }
        let last = message[end - 1]
        let endsInWord = ((last | 0x20) >= 97 && (last | 0x20) <= 122) || (last >= 48 && last <= 57)
        let text = UnsafeRawBufferPointer(rebasing: message[0..<end])
        // Not an exception's or error's name whose reason a crash reporter prints under it
        // (`Fatal Exception: NSInvalidArgumentException` / `Fetch must have an entity`).
        let namesAType = (end >= 9 && text.hasPrefix("Exception", at: end - 9)) || (end >= 5 && text.hasPrefix("Error", at: end - 5))
        return endsInWord && !namesAType && !text.contains(10) && depth(of: text) == 0
    }

    /// True when `line` opens with an acronym as a word and a lower-case word after it (`WS closed with
    /// error: …`, `TCP connection failed`): capitals and digits only, then a blank. Not a logger's tag
    /// (`SR-Info:`).
    static func startsWithAcronymWord(_ line: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < line.count, (line[i] >= 65 && line[i] <= 90) || (i > 0 && line[i] >= 48 && line[i] <= 57) { i += 1 }
        return i >= 2 && i + 1 < line.count && line[i] == 32 && line[i + 1] >= 97 && line[i + 1] <= 122
    }

    /// True when `line` opens with the same first three words as `message` (at least 12 bytes, the third
    /// word whole): the same statement printed again.
    static func repeatsOpening(_ line: UnsafeRawBufferPointer, of message: UnsafeRawBufferPointer) -> Bool {
        var blanks = 0, i = 0
        while i < line.count, i < message.count, line[i] == message[i] {
            if line[i] == 32 {
                blanks += 1
                if blanks == 3 { return i >= 12 }
            }
            i += 1
        }
        return false
    }

    /// True when `line` opens with an emoji or a pictographic symbol and a blank (`🔧 `, `✅ `, `⚠️ `, `❌ `): the
    /// Supplementary Symbols and Pictographs (U+1F300–U+1FAFF), Miscellaneous Symbols and Dingbats
    /// (U+2600–U+27BF), the arrows and stars of U+2B00–U+2BFF and U+23E9–U+23FA, the geometric shapes
    /// U+25A0–U+25FF and the SF Symbols of U+100000–U+10FFFD (Swift Testing's `◇`/`✔`/`✘`/`􀟈` event lines), each
    /// with an optional variation selector.
    static func opensWithEmoji(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count >= 4, let first = line.first, first == 0xF0 || first == 0xE2 || first == 0xF4 else { return false }
        var i: Int
        if first == 0xF0 {
            // U+1F300–U+1FAFF: F0 9F 8C 80 … F0 9F AB BF.
            guard line.count >= 5, line[1] == 0x9F, line[2] >= 0x8C, line[2] <= 0xAB else { return false }
            i = 4
        } else if first == 0xF4 {
            // An SF Symbol (Supplementary Private Use Area-B, U+100000–U+10FFFD: F4 80 80 80 … F4 8F BF BD), as Swift
            // Testing opens its lines in Xcode (`􀟈 Test "Saves a task" started.`).
            guard line.count >= 5, line[1] >= 0x80, line[1] <= 0x8F else { return false }
            i = 4
        } else {
            // U+2600–U+27BF: E2 98 80 … E2 9E BF; U+2B00–U+2BFF: E2 AC 80 … E2 AF BF; U+23E9–U+23FA: E2 8F A9 … E2 8F BA;
            // the geometric shapes U+25A0–U+25FF (E2 96 A0 … E2 97 BF), as Swift Testing opens its lines in a terminal
            // (`◇ Test "Saves a task" started.`, beside `✔ …` and `✘ …`) and xcpretty its steps (`▸ Running script`).
            let second = line[1], third = line[2]
            guard (second >= 0x98 && second <= 0x9E) || (second >= 0xAC && second <= 0xAF) || (second == 0x8F && third >= 0xA9 && third <= 0xBA)
                    || (second == 0x96 && third >= 0xA0) || second == 0x97
            else { return false }
            i = 3
        }
        // U+FE0F, the emoji presentation selector: EF B8 8F.
        if i + 2 < line.count, line[i] == 0xEF, line[i + 1] == 0xB8, line[i + 2] == 0x8F { i += 3 }
        return i < line.count && (line[i] == 32 || line[i] == 9)
    }

    /// A shell's prompt: `bash-3.2$ `, `sh-5.1# ` (the shell's name and version), or `$ ` before a command.
    static func isShellPrompt(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first else { return false }
        if first == UInt8(ascii: "$") { return line.count > 2 && line[1] == 32 && !ByteClass.isBlank(line[2]) }
        var i: Int
        if line.hasPrefix("bash-") { i = 5 } else if line.hasPrefix("zsh-") { i = 4 } else if line.hasPrefix("sh-") { i = 3 } else { return false }
        guard let major = ByteScan.digits(line, at: i) else { return false }
        i = major
        if i < line.count, line[i] == UInt8(ascii: "."), let minor = ByteScan.digits(line, at: i + 1) { i = minor }
        guard i < line.count, line[i] == UInt8(ascii: "$") || line[i] == UInt8(ascii: "#") else { return false }
        return i + 1 == line.count || line[i + 1] == 32
    }

    /// A shell's line saying the process it ran died on a signal (`Abort trap: 6`, `Segmentation fault: 11`).
    static func isShellDeath(_ line: UnsafeRawBufferPointer) -> Bool {
        shellDeaths.contains { line.hasPrefix($0) }
    }

    static let shellDeaths: [StaticString] = ["Abort trap: 6", "Segmentation fault: 11", "Bus error: 10", "Illegal instruction: 4",
                                              "Trace/BPT trap: 5", "Killed: 9"]

    /// The tag a logger opens its lines with: `Name:` followed by a space, or `[Name]`, 2 to 32 bytes of
    /// letters, digits, `-`, `_` and `.` with a letter first; nil when `text` opens otherwise.
    static func loggerTag(_ text: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer.SubSequence? {
        guard let first = text.first else { return nil }
        let bracketed = first == UInt8(ascii: "[")
        var i = bracketed ? 1 : 0
        guard i < text.count, (text[i] | 0x20) >= 97, (text[i] | 0x20) <= 122 else { return nil }
        while i < text.count, i <= 33 {
            let b = text[i]
            let isName = (b | 0x20) >= 97 && (b | 0x20) <= 122 || (b >= 48 && b <= 57) || b == 45 || b == 95 || b == 46
            // A bracketed tag of several words (`[CloudKit Sync]`, `[Type Declaration Issues]`): one blank between
            // two words.
            let innerBlank = bracketed && b == 32 && i + 1 < text.count && text[i - 1] != 32 && (text[i + 1] | 0x20) >= 97 && (text[i + 1] | 0x20) <= 122
            if !isName && !innerBlank { break }
            i += 1
        }
        let nameLength = i - (bracketed ? 1 : 0)
        guard nameLength >= 2, nameLength <= 32, i < text.count else { return nil }
        if bracketed {
            return text[i] == UInt8(ascii: "]") ? text[0...i] : nil
        }
        guard text[i] == UInt8(ascii: ":"), i + 1 < text.count, text[i + 1] == 32 else { return nil }
        return text[0...i]
    }

    /// `[Default] `, `[Error] ` and the other levels a relayed log line carries, at `start`.
    static func startsLevelTag(_ line: UnsafeRawBufferPointer, at start: Int) -> Bool {
        levelTags.contains { line.hasPrefix($0, at: start) }
    }

    static let levelTags: [StaticString] = ["[Default] ", "[Error] ", "[Fault] ", "[Info] ", "[Debug] ", "[Notice] ", "[Warning] "]

    /// Emits the open entry, if any, and forgets pending blank lines.
    @inline(__always)
    private static func flush(_ open: inout Bool, _ pendingBlankLines: inout Int, _ entry: inout RawEntry,
                              _ emit: (inout RawEntry) throws -> Void) throws {
        if open { try emit(&entry) }
        open = false
        pendingBlankLines = 0
    }

    /// Emits the entries of a pasted crash report collected in `report` (starting at `startLine`), or
    /// its text as one ordinary entry when it cannot be read as a report; empties `report`.
    private static func finishReport(_ report: inout [UInt8], startLine: Int, format: InputFormat, source: String,
                                     into entry: inout RawEntry, _ emit: (inout RawEntry) throws -> Void) throws {
        while report.last == 0x0A { report.removeLast() }
        let shift = startLine - 1
        if let entries = try? CrashReportReader.entries(fromDocument: report, source: source), !entries.isEmpty {
            for var prepared in entries {
                prepared.line += shift
                prepared.endLine += shift
                entry.reset(line: prepared.line, format: .crashReport)
                entry.endLine = prepared.endLine
                entry.prepared = prepared
                try emit(&entry)
            }
        } else {
            // Not readable as a report after all: keep its text as one ordinary entry.
            entry.reset(line: startLine, format: format)
            report.withUnsafeBytes { entry.appendMessage($0) }
            entry.endLine = startLine + report.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            try emit(&entry)
        }
        report.removeAll(keepingCapacity: false)
    }

    /// A cheap test before the exact one (`CrashReportReader.isPastedReportStart`): pasted reports start with
    /// `Incident Identifier:`, Xcode's `Translated Report` header or a macOS report's `Process:` line, possibly indented.
    static func mayStartPastedReport(_ line: UnsafeRawBufferPointer) -> Bool {
        let start = ByteScan.spaces(line, at: 0)
        guard start < line.count, line[start] == UInt8(ascii: "I") || line[start] == UInt8(ascii: "T")
            || line[start] == UInt8(ascii: "P") else { return false }
        return line.hasPrefix("Incident Identifier:", at: start) || line.hasPrefix("Translated Report", at: start)
            || line.hasPrefix("Process:", at: start)
    }

    private func splitJSONEvents(into entry: inout RawEntry, _ emit: (inout RawEntry) throws -> Void) throws {
        var splitter = JSONEventSplitter()
        let format = self.format
        let reader = self.reader
        let count = EventCount()
        // Static helpers taking what they change as inout, not local functions: those capture `entry`
        // and `emit` in boxes, and every line then copied (retained and released) them several times.
        while try reader.nextLine({ line, _ in
            let lineNumber = reader.lineNumber
            if count.objects == 0, !count.textBeforeObjects, line.contains(where: { !ByteClass.isBlankOrCR($0) }) {
                count.textBeforeObjects = true
            }
            // ndjson's usual line, one whole object, is read in one pass: the member scan also finds the
            // object's end, which the splitter would otherwise find in a pass of its own. Any other line
            // (odd bytes, an object spread over lines, several objects) goes through the splitter.
            if splitter.isAtTopLevel, let object = EntrySplitter.objectLine(line) {
                let (end, message) = EntrySplitter.readObject(object, truncated: false, lines: lineNumber...lineNumber,
                                                              format: format, into: &entry)
                if end.splitterAgrees, end.afterObject == object.count {
                    try EntrySplitter.finishObject(object, message: message, into: &entry, count: count, emit)
                    return
                }
            }
            try splitter.feed(line, lineNumber: lineNumber) { object, truncated, startLine in
                try EntrySplitter.emitObject(object, truncated: truncated, lines: startLine...max(startLine, lineNumber),
                                             format: format, into: &entry, count: count, emit)
            }
        }) {}
        let lastLine = reader.lineNumber
        try splitter.finish { object, truncated, startLine in
            try EntrySplitter.emitObject(object, truncated: truncated, lines: startLine...max(startLine, lastLine),
                                         format: format, into: &entry, count: count, emit)
        }
        if count.objects == 0 && count.textBeforeObjects {
            // Text with no JSON object in it (a plain capture read with `--input-format log-json`): refused,
            // never read as zero entries.
            throw ToolFailure("\(reader.sourceName): no JSON object in it: not a `log show --style json/ndjson` export (leave out --input-format to detect the format)")
        }
        if count.objects > 0 && count.messages == 0 {
            throw ToolFailure("\(reader.sourceName): \(count.objects) JSON object\(count.objects == 1 ? "" : "s") and none with a message "
                              + "(`eventMessage` of `log show --style json/ndjson`, `message` of unifiedlog_iterator's jsonl, `msg`): not a log export cdlog reads")
        }
    }

    /// Resets `entry` to the event `object` (spanning `lines`) and reads its header members into it;
    /// returns how the member scan ended and the message's range (nil for events without one).
    private static func readObject(_ object: UnsafeBufferPointer<UInt8>, truncated: Bool, lines: ClosedRange<Int>,
                                   format: InputFormat, into entry: inout RawEntry) -> (FlatJSONObject.End, Range<Int>?) {
        entry.reset(line: lines.lowerBound, format: format)
        entry.endLine = lines.upperBound
        entry.truncated = truncated
        var message: Range<Int>? = nil
        // Header values are unescaped into `entry.prefix` and referenced by range, as for line formats;
        // the header is built in a local and stored once.
        let prefix = entry.prefix
        var header = LineHeader(messageStart: 0)
        var explicitProcess = false
        // mandiant's `unifiedlog_iterator --format jsonl` names the members `message`, `log_type`, `pid` and
        // `thread_id`; other JSON loggers `message` or `msg`. `eventMessage` wins where it is present; an
        // empty message (a loss record) is none.
        var aliasMessage: Range<Int>? = nil
        var members = FlatJSONObject.Members(of: object)
        while let (key, value, isString) = members.next() {
            switch key.count {
            case 12 where FlatJSONObject.key(key, is: "eventMessage"): message = value
            case 7 where FlatJSONObject.key(key, is: "message"): if isString, !value.isEmpty { aliasMessage = value }
            case 8 where FlatJSONObject.key(key, is: "log_type"): header.level = keep(object, value, isString, in: prefix)
            case 3 where FlatJSONObject.key(key, is: "pid"): header.pid = keep(object, value, isString, in: prefix)
            // JSON loggers of other stacks (pino, bunyan, Electron apps): `msg`.
            case 3 where FlatJSONObject.key(key, is: "msg"): if isString, !value.isEmpty, aliasMessage == nil { aliasMessage = value }
            case 9 where FlatJSONObject.key(key, is: "thread_id"): header.thread = keep(object, value, isString, in: prefix)
            case 9 where FlatJSONObject.key(key, is: "timestamp"): header.timestamp = keep(object, value, isString, in: prefix)
            case 16 where FlatJSONObject.key(key, is: "processImagePath"):
                guard !explicitProcess else { break }
                let path = keep(object, value, isString, in: prefix)
                let slash = prefix[path].lastIndex(of: UInt8(ascii: "/")).map { path.lowerBound + $0 + 1 } ?? path.lowerBound
                header.process = slash..<path.upperBound
            case 7 where FlatJSONObject.key(key, is: "process"):
                // A name, or (unifiedlog_iterator) the executable's path: its last component.
                let process = keep(object, value, isString, in: prefix)
                let slash = prefix[process].lastIndex(of: UInt8(ascii: "/")).map { process.lowerBound + $0 + 1 } ?? process.lowerBound
                header.process = slash..<process.upperBound
                explicitProcess = true
            case 9 where FlatJSONObject.key(key, is: "processID"): header.pid = keep(object, value, isString, in: prefix)
            case 8 where FlatJSONObject.key(key, is: "threadID"): header.thread = keep(object, value, isString, in: prefix)
            case 9 where FlatJSONObject.key(key, is: "subsystem"):
                if !value.isEmpty { header.subsystem = keep(object, value, isString, in: prefix) }
            case 8 where FlatJSONObject.key(key, is: "category"):
                if !value.isEmpty { header.logCategory = keep(object, value, isString, in: prefix) }
            case 11 where FlatJSONObject.key(key, is: "messageType"): header.level = keep(object, value, isString, in: prefix)
            default: break
            }
        }
        entry.header = header
        return (members.end, message ?? aliasMessage)
    }

    /// How many event objects a JSON source held, and how many of them had a message: a source whose
    /// objects all lack one is not a log export cdlog knows (a class: the per-line closure binds one reference).
    final class EventCount {
        // Used by the splitter's thread only: no run-time exclusivity checks (two per object otherwise).
        @exclusivity(unchecked) var objects = 0
        @exclusivity(unchecked) var messages = 0
        /// A line with more than white space was read before any object.
        @exclusivity(unchecked) var textBeforeObjects = false
    }

    /// Unescapes the message of the object `readObject` read into `entry` and emits the entry (events
    /// without a message, activities and signposts, are dropped).
    private static func finishObject(_ object: UnsafeBufferPointer<UInt8>, message: Range<Int>?, into entry: inout RawEntry,
                                     count: EventCount, _ emit: (inout RawEntry) throws -> Void) throws {
        count.objects += 1
        guard let message else { return }
        count.messages += 1
        let before = entry.message.count
        FlatJSONObject.unescape(object, message, into: entry.message, limit: EntryLimits.maxMessageBytes)
        if entry.message.count >= EntryLimits.maxMessageBytes, message.count > entry.message.count - before { entry.truncated = true }
        try emit(&entry)
    }

    private static func emitObject(_ object: UnsafeBufferPointer<UInt8>, truncated: Bool, lines: ClosedRange<Int>, format: InputFormat,
                                   into entry: inout RawEntry, count: EventCount, _ emit: (inout RawEntry) throws -> Void) throws {
        let (_, message) = readObject(object, truncated: truncated, lines: lines, format: format, into: &entry)
        try finishObject(object, message: message, into: &entry, count: count, emit)
    }

    /// Copies a header value of `object` to the end of `prefix` (strings unescaped, at most 4 KiB; bare
    /// values at most 64 bytes) and returns its range there.
    private static func keep(_ object: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, _ isString: Bool, in prefix: ByteStore) -> Range<Int> {
        let start = prefix.count
        if isString { FlatJSONObject.unescape(object, value, into: prefix, limit: start + 4096) } else {
            prefix.append(object[value.lowerBound..<min(value.upperBound, value.lowerBound + 64)])
        }
        return start..<prefix.count
    }

    /// The line's bytes from its first `{` to its last `}` when only white space surrounds them and the
    /// object is short enough to be kept whole (`EntryLimits.maxMessageBytes`); nil otherwise.
    static func objectLine(_ line: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8>? {
        var first = 0, last = line.count - 1
        while first <= last, ByteClass.isBlankOrCR(line[first]) { first += 1 }
        while last >= first, ByteClass.isBlankOrCR(line[last]) { last -= 1 }
        guard first < last, line[first] == UInt8(ascii: "{"), line[last] == UInt8(ascii: "}"),
              last - first < EntryLimits.maxMessageBytes else { return nil }
        return UnsafeBufferPointer(rebasing: line.assumingMemoryBound(to: UInt8.self)[first...last])
    }

    /// For formats that can be cut into independent blocks: a test for lines that start an entry and
    /// may begin a block (echo pairs cut apart are folded again when the blocks are merged). Nil for
    /// formats read as a whole (crash reports, `log show` JSON arrays).
    public static func cutPointTest(for format: InputFormat) -> CutPointTest? {
        switch format {
        case .crashReport, .logJSON: return nil
        case .logNDJSON: return { line, _ in line.first == UInt8(ascii: "{") }
        default:
            let lineFormat = FormatDetector.lineFormat(for: format)
            let bare = format == .xcode
            return { line, previous in
                guard let header = lineFormat.header(of: line), !lineFormat.isBoilerplate(line),
                      EntrySplitter.resumesLog(line, header: header, bare: bare) else { return false }
                if let previous, EntrySplitter.mayContinue(previous, with: line, header: header, lineFormat: lineFormat, bare: bare) {
                    return false
                }
                return true
            }
        }
    }

    /// True when the splitter might join `line` (which opens an entry by itself, with `header`) to the entry
    /// whose last line is `previous`, by one of the joins that read the open entry (`splitLines`): a field
    /// of iOS 14's per-line `addPersistentStore` error, AppKit's and Mono's exception reports over lines
    /// of a prefixed capture; in bare text an exception's name before its reason, a reason broken inside
    /// its quotes, a wrapped sentence, a numbered frame. It errs towards true: a block cut one line
    /// earlier costs nothing, a cut inside an entry splits it where one pass would not.
    static func mayContinue(_ previous: UnsafeRawBufferPointer, with line: UnsafeRawBufferPointer, header: LineHeader,
                            lineFormat: any LineFormat, bare: Bool) -> Bool {
        if isFieldLine(line, messageStart: header.messageStart) { return true }
        let previousStart = lineFormat.header(of: previous)?.messageStart ?? 0
        let last = UnsafeRawBufferPointer(rebasing: previous[min(previousStart, previous.count)...])
        let text = UnsafeRawBufferPointer(rebasing: line[min(header.messageStart, line.count)...])
        if !bare {
            // AppKit's `(` opening the backtrace, the reason after `An uncaught exception was raised`, Mono's
            // `critical:` lines.
            if text.first == UInt8(ascii: "("), text.dropFirst().allSatisfy(ByteClass.isBlank) { return true }
            return announcesUncaughtException(last) || text.hasPrefix("critical:")
        }
        if last.allSatisfy(ByteClass.isBlank) { return continuesCrashHeaderBlock(line, after: last) || StackLines.isFrame(line) }
        if isPartialErrorItem(text) || opensNamedDump(line) { return true }
        return continuesException(last) || announcesUncaughtException(last) || isSectionHeading(last)
            || continuesWrappedSentence(line, after: last) || continuesNumberedFrames(line, after: last)
            || continuesProcessStop(line, after: last) || line.hasPrefix("PID: ") || holdsAlone("Backtrace", line)
            || (isBinaryImageLine(line) && isBinaryImageLine(last))
            // A compiler diagnostic's source line and caret line, and the diagnostic an include chain leads to
            // (`continuesCompilerDiagnostic`, which reads the whole open message; here only the line before it).
            || isCaretLine(line) || isCompilerDiagnostic(last) || last.hasPrefix("In file included from ")
            // Node's message for a native module built for another ABI (`continuesNodeModuleError`).
            || isNodeModuleErrorLine(line)
    }

    /// True when `line` is one of a crash report's loaded images as its `Binary Images:` section lists them
    /// (`0x1b06b7000 - 0x1b09d8fff CoreData arm64  <0e99b0…> /System/…`, macOS's indented `0x7fff25f12000 -
    /// 0x7fff260d1fff  libsqlite3.dylib (321.1) <D7017429-…> /usr/lib/libsqlite3.dylib`): an address range first.
    static func isBinaryImageLine(_ line: UnsafeRawBufferPointer) -> Bool {
        var i = ByteScan.spaces(line, at: 0)
        func address() -> Bool {
            guard line.hasPrefix("0x", at: i) else { return false }
            let start = i + 2
            i = start
            while i < line.count, ByteScan.isHexDigit(line[i]) { i += 1 }
            return i - start >= 4 && i - start <= 16
        }
        guard address() else { return false }
        i = ByteScan.spaces(line, at: i)
        guard i < line.count, line[i] == UInt8(ascii: "-") else { return false }
        i = ByteScan.spaces(line, at: i + 1)
        if line.hasPrefix("???", at: i) { return true }
        return address() && i < line.count && ByteClass.isBlank(line[i])
    }

    /// The console types Xcode's metadata line names, and the fields after its type (each with its `: `).
    static let metadataTypes: [StaticString] = ["Debug", "Info", "Default", "Notice", "Error", "Fault", "Activity", "stdio"]
    static let metadataFields: [StaticString] = ["Timestamp: ", "Process: ", "Library: ", "Subsystem: ", "Category: ", "TID: "]

    /// True when `line` up to `end` ends with `field` without its last byte (the field's name and its colon).
    private static func endsWith(_ line: UnsafeRawBufferPointer, end: Int, field: StaticString) -> Bool {
        let count = field.utf8CodeUnitCount - 1
        guard end >= count else { return false }
        let name = UnsafeRawBufferPointer(start: field.utf8Start, count: count)
        return UnsafeRawBufferPointer(rebasing: line[(end - count)..<end]).elementsEqual(name)
    }

    /// Where the type word of Xcode's metadata line ends (`Type: Error | Timestamp: … | Process: … | Library: … |
    /// Subsystem: … | Category: … | TID: …`, or `Type: stdio` alone under the app's standard output), or nil when
    /// `line` is none: `Type: ` and one of the console's types, then the line's end or ` | `.
    static func metadataTrailerEnd(_ line: UnsafeRawBufferPointer) -> Int? {
        guard line.count >= 10, line.hasPrefix("Type: ") else { return nil }
        var end = 6
        while end < line.count, (line[end] >= 65 && line[end] <= 90) || (line[end] >= 97 && line[end] <= 122) { end += 1 }
        let word = UnsafeRawBufferPointer(rebasing: line[6..<end])
        guard metadataTypes.contains(where: { word.count == $0.utf8CodeUnitCount && word.hasPrefix($0) }) else { return nil }
        var rest = end
        while rest < line.count, ByteClass.isBlankOrCR(line[rest]) { rest += 1 }
        return rest == line.count || line.hasPrefix(" | ", at: end) ? end : nil
    }

    /// True when `line` is the rest of Xcode's metadata line broken by a page or a mail client: it opens with one of
    /// the line's field names (`Process: `, `Library: `, `Subsystem: `, `Category: `, `TID: `, `Timestamp: `) or holds
    /// ` | ` and one of them.
    static func continuesMetadataTrailer(_ line: UnsafeRawBufferPointer) -> Bool {
        if metadataFields.contains(where: { line.hasPrefix($0) }) { return true }
        guard line.count < 400 else { return false }
        var index = 0
        while index + 3 <= line.count {
            if line[index] == UInt8(ascii: "|"), index > 0, line[index - 1] == 0x20, line[index + 1] == 0x20,
               metadataFields.contains(where: { line.hasPrefix($0, at: index + 2) }) { return true }
            index += 1
        }
        return false
    }

    /// True when `line` ends with one of the metadata line's field names and its colon (`… | TID:`): its value is on
    /// the next line, where a page broke the line.
    static func endsWithMetadataField(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, ByteClass.isBlankOrCR(line[end - 1]) { end -= 1 }
        return metadataFields.contains { EntrySplitter.endsWith(line, end: end, field: $0) }
    }

    /// True when `line` is Xcode's metadata line under a message (`metadataTrailerEnd`).
    static func isMetadataTrailer(_ line: UnsafeRawBufferPointer) -> Bool { metadataTrailerEnd(line) != nil }

    /// True when `line` opens an entry in bare console text whatever comes before it: a console entry word after
    /// the bare reader's header (the lines `cutPointTest` may cut a bare source at).
    static func opensEntryInBareText(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let header = XcodeConsoleFormat().header(of: line) else { return false }
        return XcodeConsoleFormat.startsEntryWord(line, at: header.messageStart)
    }

    /// Whether a line with `header` is sure to open a log entry, ending a pasted crash report: in prefixed
    /// formats every header line; in bare console text only a console entry word at the message start
    /// (its other lines all look like entry starts, report lines too). One test for the splitter and the
    /// block cutter, which must agree: a block cut inside a report would split it.
    @inline(__always)
    static func resumesLog(_ line: UnsafeRawBufferPointer, header: LineHeader, bare: Bool) -> Bool {
        !bare || XcodeConsoleFormat.startsEntryWord(line, at: header.messageStart)
    }

    private func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        for b in line where !ByteClass.isBlank(b) { return false }
        return true
    }
}
