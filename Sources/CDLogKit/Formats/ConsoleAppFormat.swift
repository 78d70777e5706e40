/// A copy from Console.app: `type<TAB>time<TAB>process<TAB>message` (extra columns such as subsystem
/// and category, when shown, come before the message).
public struct ConsoleAppFormat: LineFormat {
    public let format = InputFormat.consoleApp
    public init() {}

    static let types: [StaticString] = ["default\t", "info\t", "debug\t", "error\t", "fault\t", "notice\t", "activity\t"]

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        // Console.app's own tab-separated columns first (every line of a real copy); the technotes' spaced and
        // elided form only when there is no tab where the type ends.
        guard let typeEnd = line.firstIndex(of: 9, from: 0, to: min(line.count, 10)) else {
            return ConsoleAppFormat.elidedHeader(of: line)
        }
        guard ConsoleAppFormat.types.contains(where: { line.hasPrefix($0) }) else { return nil }
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

    static let spacedTypes: [StaticString] = ["default ", "info ", "debug ", "error ", "fault ", "notice "]

    /// The columns as Apple's technotes print them, blanks for tabs and an ellipsis where a column was left
    /// out (TN3163: `default  … 14:14:15.841696 …  YourCoolApp CloudKit: CoreData+CloudKit: `, or with the
    /// ellipses against the time, `…12:21:54.208523…`; the message often on the lines below): type, time of
    /// day, process, then the message.
    static func elidedHeader(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard line.count > 12, let type = spacedTypes.first(where: { line.hasPrefix($0) }),
              case let typeEnd = type.utf8CodeUnitCount - 1,
              let timeStart = skipEllipsis(line, at: ByteScan.spaces(line, at: typeEnd)),
              timeStart + 8 <= line.count, ByteScan.isDigit(line[timeStart]), ByteScan.isDigit(line[timeStart + 1]),
              line[timeStart + 2] == UInt8(ascii: ":"),
              case let timeEnd = timeOfDayEnd(line, at: timeStart),
              let processStart = skipEllipsis(line, at: ByteScan.spaces(line, at: timeEnd)),
              let processEnd = ByteScan.word(line, at: processStart) else { return nil }
        var header = LineHeader(messageStart: ByteScan.spaces(line, at: processEnd))
        header.level = 0..<typeEnd
        header.timestamp = timeStart..<timeEnd
        header.process = processStart..<processEnd
        return header
    }

    /// The end of the time of day at `start` (digits, `:` and `.`): a page may set the ellipsis right after it
    /// (`…12:21:54.208523…`).
    private static func timeOfDayEnd(_ line: UnsafeRawBufferPointer, at start: Int) -> Int {
        var i = start
        while i < line.count, ByteScan.isDigit(line[i]) || line[i] == UInt8(ascii: ":") || line[i] == UInt8(ascii: ".") { i += 1 }
        return i
    }

    /// The position after an ellipsis (`…` or `...`) at `start` and the blanks after it, nil when none is there.
    private static func skipEllipsis(_ line: UnsafeRawBufferPointer, at start: Int) -> Int? {
        if start + 3 <= line.count, line[start] == 0xE2, line[start + 1] == 0x80, line[start + 2] == 0xA6 {
            return ByteScan.spaces(line, at: start + 3)
        }
        if start + 3 <= line.count, line[start] == 0x2E, line[start + 1] == 0x2E, line[start + 2] == 0x2E {
            return ByteScan.spaces(line, at: start + 3)
        }
        return nil
    }
}
