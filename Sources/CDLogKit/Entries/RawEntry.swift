/// An entry as the splitters build it: raw bytes and byte ranges, reused from entry to entry so the hot
/// path does not allocate. `Entry` (strings) is made from it only for entries that are reported.
public struct RawEntry {
    /// The message bytes (prefix removed, continuation lines joined by `\n`), at most
    /// `EntryLimits.maxMessageBytes`.
    public let message = ByteStore(capacity: 4096)
    /// The first line's prefix bytes (for JSON styles: the unescaped header values); `header`'s ranges
    /// point into it.
    public let prefix = ByteStore(capacity: 256)
    public var header = LineHeader(messageStart: 0)
    public var line = 0
    public var endLine = 0
    public var truncated = false
    /// Set when the splitter joined a line a page or a mail client broke off (`continuesWrappedSentence`):
    /// the classifier reads such an entry with its lines joined too, since the break may fall inside a phrase.
    public var wrapped = false
    /// Whether the message's first line says `… returned error …` (0 not read yet, 1 yes, 2 no): read once
    /// per entry, not once per field line (`EntrySplitter.continuesFieldList`).
    var returnsError: UInt8 = 0
    /// Brackets opened minus closed in `message[0..<depthRead]`, kept as the message grows so that a line
    /// after an open bracket costs its own bytes, not the message's (`EntrySplitter.staysInsideOpenBracket`).
    var depth = 0
    var depthRead = 0
    /// `<` minus `>` from the message's first `<CKError` to `ckRead` (`ckFound` once it is found), kept as the
    /// message grows (`EntrySplitter.continuesOpenCKError`).
    var ckFound = false
    var ckBalance = 0
    var ckRead = 0
    /// The quote character of an exception's reason (`reason: '…`) still open in `message[0..<quoteRead]`
    /// (0 when none is), and how many quotes of it are open inside it (`'owner'` within the reason), kept as
    /// the message grows (`EntrySplitter.staysInsideQuotedReason`).
    var quote: UInt8 = 0
    var quoteDepth = 0
    var quoteRead = 0
    /// Set when the splitter kept a Go panic's goroutine heading with it: the goroutine's frames follow
    /// (`EntrySplitter.continuesGoroutineStack`).
    var goroutineStack = false
    /// Set when the message is a Python traceback (its first line holds the head, or the splitter kept the head
    /// under a logger's line) and when it opens with the Android runtime's `FATAL EXCEPTION:` heading: read from
    /// the first line once per entry (`EntrySplitter.readOpening`).
    var tracebackHead = false
    var androidCrash = false
    public var format = InputFormat.xcode
    /// Set for crash reports, which arrive as finished entries.
    public var prepared: Entry?

    public init() {}

    mutating func reset(line: Int, format: InputFormat) {
        message.removeAll()
        prefix.removeAll()
        header = LineHeader(messageStart: 0)
        self.line = line
        endLine = line
        truncated = false
        wrapped = false
        returnsError = 0
        depth = 0
        depthRead = 0
        ckFound = false
        ckBalance = 0
        ckRead = 0
        quote = 0
        quoteDepth = 0
        quoteRead = 0
        goroutineStack = false
        tracebackHead = false
        androidCrash = false
        self.format = format
        if prepared != nil { prepared = nil }
    }

    /// Appends bytes to the message, respecting the cap.
    mutating func appendMessage(_ bytes: UnsafeRawBufferPointer) {
        let room = EntryLimits.maxMessageBytes - message.count
        if bytes.count <= room {
            message.append(bytes)
        } else {
            if room > 0 { message.append(UnsafeRawBufferPointer(rebasing: bytes[0..<room])) }
            truncated = true
        }
    }

    mutating func appendNewline() {
        if message.count < EntryLimits.maxMessageBytes { message.append(0x0A) } else { truncated = true }
    }

    /// Makes the string form used by classification results and reporters.
    public func makeEntry(source: String) -> Entry {
        if var prepared {
            prepared.source = source
            return prepared
        }
        var entry = Entry(source: source, line: line, endLine: endLine,
                          message: String(decoding: message.bytes, as: UTF8.self), format: format)
        func text(_ range: Range<Int>?) -> String? {
            guard let range, range.lowerBound >= 0, range.upperBound <= prefix.count, !range.isEmpty else { return nil }
            return String(decoding: prefix[range], as: UTF8.self)
        }
        if let range = header.timestamp, range.lowerBound >= 0, range.upperBound <= prefix.count, !range.isEmpty {
            entry.timestamp = Timestamps.iso8601(bytes: prefix[range])
        }
        entry.process = text(header.process)
        entry.pid = text(header.pid).flatMap { Int($0) }
        entry.threadID = text(header.thread)
        entry.subsystem = text(header.subsystem)
        entry.logCategory = text(header.logCategory)
        entry.level = text(header.level)?.lowercased()
        entry.truncated = truncated
        return entry
    }
}
