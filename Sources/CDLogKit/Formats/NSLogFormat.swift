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
        // Optional `[category]` (iOS 10–13) or `[subsystem:category]`: up to the first `]` within 120
        // bytes, no space or tab inside, not empty; a `:` splits subsystem from category. One pass.
        let at = header.messageStart
        if at < line.count, line[at] == UInt8(ascii: "[") {
            let stop = min(line.count, at + 120)
            var i = at + 1
            var colon = -1
            while i < stop {
                let b = line[i]
                if b == UInt8(ascii: "]") || ByteScan.isSpace(b) { break }
                if b == UInt8(ascii: ":"), colon < 0 { colon = i }
                i += 1
            }
            if i < stop, line[i] == UInt8(ascii: "]"), i > at + 1 {
                if colon >= 0 {
                    header.subsystem = (at + 1)..<colon
                    header.logCategory = (colon + 1)..<i
                } else {
                    header.logCategory = (at + 1)..<i
                }
                header.messageStart = ByteScan.spaces(line, at: i + 1)
            }
        }
        return header
    }
}
