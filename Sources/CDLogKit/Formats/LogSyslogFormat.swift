/// `log show --style syslog`: `2021-08-10 15:27:55.123456+0800  localhost App[1234]: (Lib) [sub:cat] msg`.
public struct LogSyslogFormat: LineFormat {
    public let format = InputFormat.logSyslog
    public init() {}

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let timestampEnd = ByteScan.timestamp(line, at: 0) else { return nil }
        let hostStart = ByteScan.spaces(line, at: timestampEnd)
        guard hostStart > timestampEnd, let hostEnd = ByteScan.word(line, at: hostStart) else { return nil }
        // A host name has no `[`: a word with one is NSLog's `App[pid:tid]`, and a line such as `… App[12:34]
        // Sync: Connection[1]: Sending …` is NSLog's, not a host `App[12:34]` and a process `Sync: Connection`.
        if line.firstIndex(of: UInt8(ascii: "["), from: hostStart, to: hostEnd) != nil { return nil }
        let processStart = ByteScan.spaces(line, at: hostEnd)
        guard let process = ByteScan.processWithPID(line, at: processStart), process.tid == nil,
              process.end < line.count, line[process.end] == UInt8(ascii: ":") else { return nil }
        var header = LineHeader(messageStart: 0)
        header.timestamp = 0..<timestampEnd
        header.process = process.process
        header.pid = process.pid
        var i = ByteScan.spaces(line, at: process.end + 1)
        LogShowPrefix.libraryAndSubsystem(line, from: &i, into: &header)
        header.messageStart = i
        return header
    }
}
