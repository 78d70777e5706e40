import CDLogCore

/// Other time-stamped console prefixes, each seen in real pastes:
/// - OS X 10.7–10.11 Console.app and `system.log` copies, the date in the Mac's locale:
///   `8/4/15 11:54:15.460 AM App[123]: …` (US), `27.02.12 19:19:49,064 App[123]: …` (German, Russian…),
///   `04/08/2015 11:54:15 App[123] …`; the process may print no pid (`27.02.12 19:19:49,064 CodeKit: …`).
/// - An NSLog prefix without the process name, as Xamarin/Mono, Unity and some loggers print it:
///   `2018-03-17 01:42:36.743[7344:32574382] critical: …`, `2017-01-24 15:54:00.649652 [1578:314845] …`,
///   and with the time of day alone: `11:43:58.831 [1859:2672475] critical: …`.
/// Lines without the prefix continue the entry before them, as in the other prefixed formats.
public struct TimestampedFormat: LineFormat {
    public let format = InputFormat.timestamped
    public init() {}

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let first = line.first, ByteScan.isDigit(first) else { return nil }
        if let stamp = TimestampedFormat.localeDateTime(line) {
            return processHeader(line, stamp: 0..<stamp)
        }
        // A date and time NSLog prints, or a time of day, then `[pid:tid]` with no process name.
        let stampEnd = ByteScan.timestamp(line, at: 0) ?? TimestampedFormat.timeOfDay(line, at: 0)
        guard let stampEnd else { return nil }
        var i = stampEnd
        if i < line.count, line[i] == 32 { i += 1 }
        guard let ids = TimestampedFormat.pidAndThread(line, at: i) else { return nil }
        var header = LineHeader(messageStart: 0)
        header.timestamp = 0..<stampEnd
        header.pid = ids.pid
        header.thread = ids.thread
        i = ByteScan.spaces(line, at: ids.end)
        // NSLog's iOS 10–13 `[category]` after the ids (`[error] error: …`).
        if i < line.count, line[i] == UInt8(ascii: "["),
           let close = line.firstIndex(of: UInt8(ascii: "]"), from: i + 1, to: min(line.count, i + 42)), close > i + 1,
           !line[(i + 1)..<close].contains(where: ByteClass.isBlank) {
            header.logCategory = (i + 1)..<close
            i = ByteScan.spaces(line, at: close + 1)
        }
        header.messageStart = i
        return header
    }

    /// After an old Console.app stamp: `Process[pid]` (then `:` or a blank; the name holds no `: `), or a
    /// process name without blanks ended by `: ` (a process that printed no pid, or a launchd job
    /// `com.apple.launchd.peruser.501: (job[340]) …` whose message names another process).
    private func processHeader(_ line: UnsafeRawBufferPointer, stamp: Range<Int>) -> LineHeader? {
        let processStart = ByteScan.spaces(line, at: stamp.upperBound)
        var header = LineHeader(messageStart: 0)
        header.timestamp = stamp
        // The stamp alone, a page having broken the line after it: its process and message are on the next line.
        if processStart == line.count {
            header.messageStart = line.count
            return header
        }
        guard processStart > stamp.upperBound else { return nil }
        if let process = ByteScan.processWithPID(line, at: processStart, limit: 96),
           !UnsafeRawBufferPointer(rebasing: line[process.process]).contains(sequence: ": ") {
            var i = process.end
            if i < line.count, line[i] == UInt8(ascii: ":") { i += 1 }
            if i == line.count || ByteClass.isBlank(line[i]) {
                header.process = process.process
                header.pid = process.pid
                header.thread = process.tid
                header.messageStart = ByteScan.spaces(line, at: i)
                return header
            }
        }
        // A name without blanks (`com.apple.iPhoneSimulator:com.apple.itunescloudd`, `launchd.peruser.501`),
        // ended by `: `, or by `:` ending the line (a page that wrapped the message onto the next line).
        var i = processStart
        while i < line.count, i - processStart < 96, !ByteClass.isBlank(line[i]) {
            if line[i] == UInt8(ascii: ":"), i + 1 == line.count || line[i + 1] == 32 { break }
            i += 1
        }
        guard i > processStart, i < line.count, line[i] == UInt8(ascii: ":"), i + 1 == line.count || line[i + 1] == 32 else { return nil }
        header.process = processStart..<i
        header.messageStart = ByteScan.spaces(line, at: i + 1)
        return header
    }

    /// `M/D/YY`, `D.M.YY` or `D/M/YYYY` (one or two digits for day and month, two or four for the year),
    /// a blank, a time of day (`timeOfDay`), and an optional ` AM`/` PM`: the index after it, or nil.
    static func localeDateTime(_ line: UnsafeRawBufferPointer) -> Int? {
        guard let monthEnd = ByteScan.digits(line, at: 0), monthEnd <= 2, monthEnd < line.count else { return nil }
        let separator = line[monthEnd]
        guard separator == UInt8(ascii: "/") || separator == UInt8(ascii: "."),
              let dayEnd = ByteScan.digits(line, at: monthEnd + 1), dayEnd - monthEnd - 1 <= 2,
              dayEnd < line.count, line[dayEnd] == separator,
              let yearEnd = ByteScan.digits(line, at: dayEnd + 1), yearEnd - dayEnd - 1 == 2 || yearEnd - dayEnd - 1 == 4,
              yearEnd < line.count, line[yearEnd] == 32 else { return nil }
        var i = yearEnd + 1
        if i < line.count, line[i] == 32 { i += 1 }
        guard let timeEnd = timeOfDay(line, at: i) else { return nil }
        i = timeEnd
        if i + 3 <= line.count, line[i] == 32, line[i + 1] | 0x20 == UInt8(ascii: "a") || line[i + 1] | 0x20 == UInt8(ascii: "p"),
           line[i + 2] | 0x20 == UInt8(ascii: "m"), i + 3 == line.count || ByteClass.isBlank(line[i + 3]) {
            i += 3
        }
        return i
    }

    /// `H:MM:SS` or `HH:MM:SS`, with an optional `.fff` or `,fff` fraction: the index after it, or nil.
    static func timeOfDay(_ line: UnsafeRawBufferPointer, at start: Int) -> Int? {
        guard let hourEnd = ByteScan.digits(line, at: start), hourEnd - start <= 2, hourEnd + 5 < line.count,
              line[hourEnd] == UInt8(ascii: ":"), ByteScan.isDigit(line[hourEnd + 1]), ByteScan.isDigit(line[hourEnd + 2]),
              line[hourEnd + 3] == UInt8(ascii: ":"), ByteScan.isDigit(line[hourEnd + 4]), ByteScan.isDigit(line[hourEnd + 5])
        else { return nil }
        var i = hourEnd + 6
        if i + 1 < line.count, line[i] == UInt8(ascii: ".") || line[i] == UInt8(ascii: ","), ByteScan.isDigit(line[i + 1]) {
            i = ByteScan.digits(line, at: i + 1)!
        }
        return i
    }

    /// `[pid:tid]` (the thread decimal or hex): the ranges and the index after `]`, or nil.
    static func pidAndThread(_ line: UnsafeRawBufferPointer, at start: Int) -> (pid: Range<Int>, thread: Range<Int>, end: Int)? {
        guard start < line.count, line[start] == UInt8(ascii: "["), let pidEnd = ByteScan.digits(line, at: start + 1),
              pidEnd < line.count, line[pidEnd] == UInt8(ascii: ":"),
              let threadEnd = ByteScan.hexNumber(line, at: pidEnd + 1), threadEnd < line.count,
              line[threadEnd] == UInt8(ascii: "]") else { return nil }
        return ((start + 1)..<pidEnd, (pidEnd + 1)..<threadEnd, threadEnd + 1)
    }
}
