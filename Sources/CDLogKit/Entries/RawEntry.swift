/// An entry as the splitters build it: raw bytes and byte ranges, reused from entry to entry so the hot
/// path does not allocate. `Entry` (strings) is made from it only for entries that are reported.
public struct RawEntry {
    /// The message bytes (prefix removed, continuation lines joined by `\n`), at most
    /// `EntryLimits.maxMessageBytes`.
    public var message: [UInt8] = []
    /// The first line's prefix bytes (for JSON styles: the unescaped header values); `header`'s ranges
    /// point into it.
    public var prefix: [UInt8] = []
    public var header = LineHeader(messageStart: 0)
    public var line = 0
    public var endLine = 0
    public var truncated = false
    public var format = InputFormat.xcode
    /// Set for crash reports, which arrive as finished entries.
    public var prepared: Entry?

    /// True while the entry is only delimited, not copied: the splitter was given the hits of a block
    /// and none has fallen in the entry yet. `prefix` and `message` stay empty; the pieces that would
    /// make them are remembered as slices of the block, and `truncated` is kept as copying would set it.
    /// The splitter copies an entry that turns out to contain a hit (`materialize`) before emitting it,
    /// so an entry still deferred when emitted cannot match any rule.
    public private(set) var isDeferred = false
    private var deferredPrefix = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Message pieces as block slices; a slice without a base address stands for a newline.
    private var deferredPieces: [UnsafeRawBufferPointer] = []
    /// What `message.count` would be.
    private var deferredLength = 0

    public init() {
        message.reserveCapacity(4096)
        prefix.reserveCapacity(256)
    }

    /// Starts a new entry. With `deferred`, the slices passed to `setPrefix`/`appendMessage` must stay
    /// valid until the entry is emitted (they are slices of an in-memory block).
    mutating func reset(line: Int, format: InputFormat, deferred: Bool = false) {
        message.removeAll(keepingCapacity: true)
        prefix.removeAll(keepingCapacity: true)
        header = LineHeader(messageStart: 0)
        self.line = line
        endLine = line
        truncated = false
        self.format = format
        prepared = nil
        isDeferred = deferred
        if deferred {
            deferredPrefix = UnsafeRawBufferPointer(start: nil, count: 0)
            deferredPieces.removeAll(keepingCapacity: true)
            deferredLength = 0
        }
    }

    /// Sets the first line's prefix bytes (what `header`'s ranges point into).
    mutating func setPrefix(_ bytes: UnsafeRawBufferPointer) {
        if isDeferred { deferredPrefix = bytes } else { prefix.append(contentsOf: bytes) }
    }

    /// Appends bytes to the message, respecting the cap.
    mutating func appendMessage(_ bytes: UnsafeRawBufferPointer) {
        let taken = admit(bytes.count, length: isDeferred ? deferredLength : message.count)
        if isDeferred {
            deferredLength += taken
            if taken > 0 { deferredPieces.append(UnsafeRawBufferPointer(rebasing: bytes[0..<taken])) }
        } else if taken > 0 {
            message.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<taken]))
        }
    }

    mutating func appendNewline() {
        let taken = admit(1, length: isDeferred ? deferredLength : message.count)
        guard taken > 0 else { return }
        if isDeferred {
            deferredLength += 1
            deferredPieces.append(UnsafeRawBufferPointer(start: nil, count: 0))
        } else {
            message.append(0x0A)
        }
    }

    /// How many of `count` more bytes fit under the cap after `length`; sets `truncated` when not all.
    @inline(__always)
    private mutating func admit(_ count: Int, length: Int) -> Int {
        let room = max(0, EntryLimits.maxMessageBytes - length)
        if count <= room { return count }
        truncated = true
        return room
    }

    /// Copies a deferred entry's prefix and message from the block (no-op when not deferred).
    mutating func materialize() {
        guard isDeferred else { return }
        isDeferred = false
        prefix.append(contentsOf: deferredPrefix)
        for piece in deferredPieces {
            if piece.baseAddress == nil { message.append(0x0A) } else { message.append(contentsOf: piece) }
        }
        deferredPieces.removeAll(keepingCapacity: true)
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
        if let range = header.timestamp, range.lowerBound >= 0, range.upperBound <= prefix.count, !range.isEmpty {
            entry.timestamp = prefix.withUnsafeBytes { Timestamps.iso8601(bytes: UnsafeRawBufferPointer(rebasing: $0[range])) }
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
