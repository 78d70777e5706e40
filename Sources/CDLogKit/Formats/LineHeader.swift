import CDLogCore
/// What a format's prefix says about an entry, as byte ranges into the entry's first line.
///
/// Ranges keep the hot path free of allocations: strings are made only for entries that are reported.
public struct LineHeader: Sendable {
    /// Where the message text starts in the line.
    public var messageStart: Int
    public var timestamp: Range<Int>? { get { spans.0.range } set { spans.0.range = newValue } }
    public var process: Range<Int>? { get { spans.1.range } set { spans.1.range = newValue } }
    public var pid: Range<Int>? { get { spans.2.range } set { spans.2.range = newValue } }
    public var thread: Range<Int>? { get { spans.3.range } set { spans.3.range = newValue } }
    public var subsystem: Range<Int>? { get { spans.4.range } set { spans.4.range = newValue } }
    public var logCategory: Range<Int>? { get { spans.5.range } set { spans.5.range = newValue } }
    public var level: Range<Int>? { get { spans.6.range } set { spans.6.range = newValue } }

    /// The ranges, 8 bytes each: a header is made for every line, and as seven `Range<Int>?` it was
    /// 176 bytes, copied several times per line.
    private var spans = (Span(), Span(), Span(), Span(), Span(), Span(), Span())

    public init(messageStart: Int) { self.messageStart = messageStart }
    /// This header moved `offset` bytes to the right: the header of a line that holds this one's line after
    /// `offset` bytes of indentation.
    func shifted(by offset: Int) -> LineHeader {
        var moved = self
        moved.messageStart += offset
        func shift(_ range: Range<Int>?) -> Range<Int>? { range.map { ($0.lowerBound + offset)..<($0.upperBound + offset) } }
        moved.timestamp = shift(timestamp)
        moved.process = shift(process)
        moved.pid = shift(pid)
        moved.thread = shift(thread)
        moved.subsystem = shift(subsystem)
        moved.logCategory = shift(logCategory)
        moved.level = shift(level)
        return moved
    }

    /// The header a C parser finds: `parse` writes `CSCAN_HEADER_SPANS` (lower, upper) pairs in `spans`
    /// order ((-1, 0) for an absent span) and returns where the message starts, or a negative number
    /// when the line has no header (then nil).
    @inline(__always)
    init?(parsedBy parse: (UnsafeMutablePointer<Int32>) -> Int) {
        var raw: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)
            = (-1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0)
        let start = withUnsafeMutableBytes(of: &raw) { parse($0.baseAddress!.assumingMemoryBound(to: Int32.self)) }
        guard start >= 0 else { return nil }
        messageStart = start
        spans = (Span(raw.0, raw.1), Span(raw.2, raw.3), Span(raw.4, raw.5), Span(raw.6, raw.7), Span(raw.8, raw.9),
                 Span(raw.10, raw.11), Span(raw.12, raw.13))
    }

    /// An optional range of byte offsets within a line or an entry's prefix (both far below 2 GiB).
    struct Span: Sendable {
        private var lower: Int32 = -1
        private var upper: Int32 = 0

        init() {}
        /// A span as a C parser writes it: `lower` -1 for none.
        @inline(__always) init(_ lower: Int32, _ upper: Int32) {
            if lower < 0 || upper < lower { self.lower = -1; self.upper = 0 } else { self.lower = lower; self.upper = upper }
        }

        var range: Range<Int>? {
            @inline(__always) get { lower < 0 ? nil : Int(lower)..<Int(upper) }
            @inline(__always) set {
                if let newValue, newValue.lowerBound >= 0, newValue.upperBound <= Int(Int32.max) {
                    lower = Int32(newValue.lowerBound)
                    upper = Int32(newValue.upperBound)
                } else {
                    lower = -1
                    upper = 0
                }
            }
        }
    }
}
