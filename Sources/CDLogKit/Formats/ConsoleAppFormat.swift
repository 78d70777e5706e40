/// A copy from Console.app: `type<TAB>time<TAB>process<TAB>message` (extra columns such as subsystem
/// and category, when shown, come before the message).
public struct ConsoleAppFormat: LineFormat {
    public let format = InputFormat.consoleApp
    public init() {}

    static let types: [StaticString] = ["default\t", "info\t", "debug\t", "error\t", "fault\t", "notice\t", "activity\t"]

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let typeEnd = line.firstIndex(of: 9, from: 0, to: min(line.count, 10)),
              ConsoleAppFormat.types.contains(where: { line.hasPrefix($0) }) else { return nil }
        let timeStart = typeEnd + 1
        guard timeStart + 8 <= line.count, ByteScan.isDigit(line[timeStart]),
              let timeEnd = line.firstIndex(of: 9, from: timeStart, to: min(line.count, timeStart + 40)),
              let processEnd = line.firstIndex(of: 9, from: timeEnd + 1) else { return nil }
        var header = LineHeader(messageStart: processEnd + 1)
        header.level = 0..<typeEnd
        header.timestamp = timeStart..<timeEnd
        header.process = (timeEnd + 1)..<processEnd
        return header
    }
}

/// Old device syslog (Xcode Devices window, idevicesyslog):
/// `Jul  8 12:00:01 iPhone App[123] <Error>: message` (also `App(CoreData)[123]`).
public struct DeviceSyslogFormat: LineFormat {
    public let format = InputFormat.deviceSyslog
    public init() {}

    static let months: [StaticString] = ["Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ", "Dec "]

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard line.count > 20, DeviceSyslogFormat.months.contains(where: { line.hasPrefix($0) }) else { return nil }
        // "Jul  8 12:00:01" is 15 bytes.
        guard ByteScan.isDigit(line[5]), ByteScan.isDigit(line[7]), line[9] == UInt8(ascii: ":"),
              line[12] == UInt8(ascii: ":"), line[15] == UInt8(ascii: " ") else { return nil }
        let hostStart = 16
        guard let hostEnd = ByteScan.word(line, at: hostStart) else { return nil }
        let processStart = ByteScan.spaces(line, at: hostEnd)
        guard let process = ByteScan.processWithPID(line, at: processStart) else { return nil }
        var header = LineHeader(messageStart: 0)
        header.timestamp = 0..<15
        header.process = process.process
        header.pid = process.pid
        var i = ByteScan.spaces(line, at: process.end)
        if i < line.count, line[i] == UInt8(ascii: "<"),
           let close = line.firstIndex(of: UInt8(ascii: ">"), from: i + 1, to: min(line.count, i + 16)) {
            header.level = (i + 1)..<close
            i = close + 1
            if i < line.count, line[i] == UInt8(ascii: ":") { i += 1 }
        }
        header.messageStart = ByteScan.spaces(line, at: i)
        return header
    }
}
