/// Old device syslog (Xcode Devices window, idevicesyslog):
/// `Jul  8 12:00:01 iPhone App[123] <Error>: message` (also `App(CoreData)[123]`, `Jul 8 …` as a page
/// that collapsed the padding prints it, and an empty host column as a Mac's copy prints it).
public struct DeviceSyslogFormat: LineFormat {
    public let format = InputFormat.deviceSyslog
    public init() {}

    static let months: [StaticString] = ["Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ", "Dec "]

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard line.count > 20, DeviceSyslogFormat.months.contains(where: { line.hasPrefix($0) }) else { return nil }
        // "Jul  8 12:00:01" is 15 bytes; a page that collapsed the padding prints "Jul 8 12:00:01" (14).
        var dayStart = 4
        if line[dayStart] == UInt8(ascii: " ") { dayStart += 1 }
        guard let dayEnd = ByteScan.digits(line, at: dayStart), dayEnd - dayStart <= 2, dayEnd + 10 < line.count,
              line[dayEnd] == UInt8(ascii: " "), ByteScan.isDigit(line[dayEnd + 1]), ByteScan.isDigit(line[dayEnd + 2]),
              line[dayEnd + 3] == UInt8(ascii: ":"), line[dayEnd + 6] == UInt8(ascii: ":"), ByteScan.isDigit(line[dayEnd + 8]),
              line[dayEnd + 9] == UInt8(ascii: " ") else { return nil }
        let stampEnd = dayEnd + 9
        let hostStart = stampEnd + 1
        // A copy that leaves the host out keeps its column empty (`Sep 20 16:23:31  DB Browser for SQLite[16536]
        // <Error>: …`): the process follows the second space, its name may hold spaces.
        let processStart: Int
        if hostStart < line.count, line[hostStart] == UInt8(ascii: " ") {
            processStart = ByteScan.spaces(line, at: hostStart)
        } else {
            guard let hostEnd = ByteScan.word(line, at: hostStart) else { return nil }
            processStart = ByteScan.spaces(line, at: hostEnd)
        }
        guard let process = ByteScan.processWithPID(line, at: processStart) else { return nil }
        var header = LineHeader(messageStart: 0)
        header.timestamp = 0..<stampEnd
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
