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
