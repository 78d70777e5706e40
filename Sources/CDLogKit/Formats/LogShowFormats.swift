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

/// `log show --style syslog`: `2021-08-10 15:27:55.123456+0800  localhost App[1234]: (Lib) [sub:cat] msg`.
public struct LogSyslogFormat: LineFormat {
    public let format = InputFormat.logSyslog
    public init() {}

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let timestampEnd = ByteScan.timestamp(line, at: 0) else { return nil }
        let hostStart = ByteScan.spaces(line, at: timestampEnd)
        guard hostStart > timestampEnd, let hostEnd = ByteScan.word(line, at: hostStart) else { return nil }
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

enum LogShowPrefix {
    /// Skips an optional `(Library) ` and reads an optional `[subsystem:category] `.
    static func libraryAndSubsystem(_ line: UnsafeRawBufferPointer, from i: inout Int, into header: inout LineHeader) {
        if i < line.count, line[i] == UInt8(ascii: "("),
           let close = line.firstIndex(of: UInt8(ascii: ")"), from: i + 1, to: min(line.count, i + 128)),
           close + 1 < line.count, line[close + 1] == UInt8(ascii: " ") {
            i = ByteScan.spaces(line, at: close + 1)
        }
        if let pair = ByteScan.subsystemCategory(line, at: i) {
            header.subsystem = pair.subsystem
            header.logCategory = pair.category
            i = ByteScan.spaces(line, at: pair.end)
        }
    }
}
