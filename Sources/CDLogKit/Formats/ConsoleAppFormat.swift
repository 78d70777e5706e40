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
