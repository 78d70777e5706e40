import CScan

/// Xcode console / NSLog with the `2021-08-10 15:27:55.123456+0800 App[1234:567890] ` prefix, including
/// the iOS 10–13 form with a `[category]` (or `[subsystem:category]`) after the process.
/// Lines without the prefix continue the entry before them.
public struct NSLogFormat: LineFormat {
    public let format = InputFormat.nslog
    public init() {}

    /// Parsed in C (`cscan_nslog_header`), so that the quiet-entry walk (`headerParser`) can run without
    /// leaving C.
    @inline(__always)
    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let base = line.baseAddress else { return nil }
        return LineHeader(parsedBy: { spans in cscan_nslog_header(base.assumingMemoryBound(to: UInt8.self), line.count, spans) })
    }

    /// Header lines start with a timestamp's digit: never blank, boilerplate or a pasted report.
    public var headerParser: cscan_header_parser? { cscan_nslog_header }
}
