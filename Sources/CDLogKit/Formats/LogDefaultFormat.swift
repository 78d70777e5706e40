/// `log show`/`log stream` default style:
/// `2021-08-10 15:27:55.123456+0800 0x2b4c1    Default     0x0    1234   0    App: (CoreData) [sub:cat] msg`.
public struct LogDefaultFormat: LineFormat {
    public let format = InputFormat.logDefault
    public init() {}

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let timestampEnd = ByteScan.timestamp(line, at: 0) else { return nil }
        var i = ByteScan.spaces(line, at: timestampEnd)
        guard i > timestampEnd, let threadEnd = ByteScan.hexNumber(line, at: i) else { return nil }
        var header = LineHeader(messageStart: 0)
        header.timestamp = 0..<timestampEnd
        header.thread = i..<threadEnd
        i = ByteScan.spaces(line, at: threadEnd)
        guard let typeEnd = ByteScan.word(line, at: i) else { return nil }
        header.level = i..<typeEnd
        i = ByteScan.spaces(line, at: typeEnd)
        guard let activityEnd = ByteScan.hexNumber(line, at: i) else { return nil }
        i = ByteScan.spaces(line, at: activityEnd)
        // A page that broke the line at its width may have broken it inside the prefix, after the activity:
        // the process id and the rest go on on the next line.
        if i == line.count || (i < line.count && line[i] == 13 && i + 1 == line.count) {
            header.messageStart = line.count
            return header
        }
        guard let pidEnd = ByteScan.digits(line, at: i) else { return nil }
        header.pid = i..<pidEnd
        i = ByteScan.spaces(line, at: pidEnd)
        if let ttlEnd = ByteScan.digits(line, at: i) { i = ByteScan.spaces(line, at: ttlEnd) }
        // `Process: (Library) [subsystem:category] message`; library and subsystem are optional.
        guard let colon = line.firstIndex(of: UInt8(ascii: ":"), from: i, to: min(line.count, i + 256)) else {
            header.messageStart = i
            return header
        }
        header.process = i..<colon
        i = ByteScan.spaces(line, at: colon + 1)
        LogShowPrefix.libraryAndSubsystem(line, from: &i, into: &header)
        header.messageStart = i
        return header
    }
}
