/// Xcode console / NSLog with the `2021-08-10 15:27:55.123456+0800 App[1234:567890] ` prefix, including
/// the iOS 10–13 form with a `[category]` after the process.
/// Lines without the prefix continue the entry before them.
public struct NSLogFormat: LineFormat {
    public let format = InputFormat.nslog
    public init() {}

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let timestampEnd = ByteScan.timestamp(line, at: 0), timestampEnd < line.count,
              ByteScan.isSpace(line[timestampEnd]) else { return nil }
        let processStart = ByteScan.spaces(line, at: timestampEnd)
        guard let process = ByteScan.processWithPID(line, at: processStart) else { return nil }
        var header = LineHeader(messageStart: ByteScan.spaces(line, at: process.end))
        header.timestamp = 0..<timestampEnd
        header.process = process.process
        header.pid = process.pid
        header.thread = process.tid
        // Optional `[category]` (iOS 10–13) or `[subsystem:category]`.
        let at = header.messageStart
        if at < line.count, line[at] == UInt8(ascii: "["),
           let close = line.firstIndex(of: UInt8(ascii: "]"), from: at + 1, to: min(line.count, at + 120)),
           close > at + 1, !(at + 1..<close).contains(where: { ByteScan.isSpace(line[$0]) }) {
            if let pair = ByteScan.subsystemCategory(line, at: at) {
                header.subsystem = pair.subsystem
                header.logCategory = pair.category
            } else {
                header.logCategory = (at + 1)..<close
            }
            header.messageStart = ByteScan.spaces(line, at: close + 1)
        }
        return header
    }
}
