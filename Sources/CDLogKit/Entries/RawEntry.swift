/// An entry as the splitters build it: raw bytes and byte ranges, reused from entry to entry so the hot
/// path does not allocate. `Entry` (strings) is made from it only for entries that are reported.
public struct RawEntry {
    /// The message bytes (prefix removed, continuation lines joined by `\n`), at most
    /// `EntryLimits.maxMessageBytes`.
    public var message: [UInt8] = []
    /// The first line's prefix bytes; `header`'s ranges point into it.
    public var prefix: [UInt8] = []
    public var header = LineHeader(messageStart: 0)
    /// Header values that arrive as strings (JSON styles); they win over `header` ranges.
    public var strings = HeaderStrings()
    public var line = 0
    public var endLine = 0
    public var truncated = false
    public var format = InputFormat.xcode
    /// Set for crash reports, which arrive as finished entries.
    public var prepared: Entry?

    public init() {
        message.reserveCapacity(4096)
        prefix.reserveCapacity(256)
    }

    /// Header values for formats whose fields are strings already (ndjson/json).
    public struct HeaderStrings {
        public var timestamp: String?
        public var process: String?
        public var pid: Int?
        public var thread: String?
        public var subsystem: String?
        public var logCategory: String?
        public var level: String?
    }

    mutating func reset(line: Int, format: InputFormat) {
        message.removeAll(keepingCapacity: true)
        prefix.removeAll(keepingCapacity: true)
        header = LineHeader(messageStart: 0)
        strings = HeaderStrings()
        self.line = line
        endLine = line
        truncated = false
        self.format = format
        prepared = nil
    }

    /// Appends bytes to the message, respecting the cap.
    mutating func appendMessage(_ bytes: UnsafeRawBufferPointer) {
        let room = EntryLimits.maxMessageBytes - message.count
        if bytes.count <= room {
            message.append(contentsOf: bytes)
        } else {
            if room > 0 { message.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<room])) }
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
                          message: String(decoding: message, as: UTF8.self), format: format)
        func text(_ range: Range<Int>?) -> String? {
            guard let range, range.lowerBound >= 0, range.upperBound <= prefix.count, !range.isEmpty else { return nil }
            return String(decoding: prefix[range], as: UTF8.self)
        }
        entry.timestamp = strings.timestamp.map(Timestamps.iso8601) ?? text(header.timestamp).map(Timestamps.iso8601)
        entry.process = strings.process ?? text(header.process)
        entry.pid = strings.pid ?? text(header.pid).flatMap { Int($0) }
        entry.threadID = strings.thread ?? text(header.thread)
        entry.subsystem = strings.subsystem ?? text(header.subsystem)
        entry.logCategory = strings.logCategory ?? text(header.logCategory)
        entry.level = (strings.level ?? text(header.level))?.lowercased()
        entry.truncated = truncated
        return entry
    }
}
