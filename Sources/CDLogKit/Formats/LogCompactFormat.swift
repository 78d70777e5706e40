/// `log show --style compact`: `2021-08-10 15:27:55.123 Df App[1234:2b4c1] [sub:cat] msg`.
public struct LogCompactFormat: LineFormat {
    public let format = InputFormat.logCompact
    public init() {}

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let timestampEnd = ByteScan.timestamp(line, at: 0), timestampEnd < line.count,
              line[timestampEnd] == UInt8(ascii: " ") else { return nil }
        let typeStart = timestampEnd + 1
        guard let typeEnd = ByteScan.word(line, at: typeStart), typeEnd - typeStart <= 2 else { return nil }
        let processStart = ByteScan.spaces(line, at: typeEnd)
        guard let process = ByteScan.processWithPID(line, at: processStart) else { return nil }
        var header = LineHeader(messageStart: 0)
        header.timestamp = 0..<timestampEnd
        header.level = typeStart..<typeEnd
        header.process = process.process
        header.pid = process.pid
        header.thread = process.tid
        var i = ByteScan.spaces(line, at: process.end)
        LogShowPrefix.libraryAndSubsystem(line, from: &i, into: &header)
        header.messageStart = i
        return header
    }
}
