/// Small byte-level scanners shared by the line formats. Each takes a position and returns the position
/// after what it recognised, or nil; none reads outside the buffer.
enum ByteScan {
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }
    @inline(__always) static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20) &- 97 < 6
    }
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 }

    /// `YYYY-MM-DD HH:MM:SS` with optional `.fraction` and optional `±HHMM` / `±HH:MM` / `Z`.
    /// Runs once per line of every line format, so the fixed part is tested with straight-line compares,
    /// separators first (continuation lines fail there).
    static func timestamp(_ p: UnsafeRawBufferPointer, at start: Int) -> Int? {
        // Fixed part: 19 bytes, `T` accepted as the ISO separator at 10.
        guard start >= 0, p.count - start >= 19, let base = p.baseAddress else { return nil }
        let b = base.assumingMemoryBound(to: UInt8.self) + start
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              b[10] == UInt8(ascii: " ") || b[10] == UInt8(ascii: "T"),
              isDigit(b[0]), isDigit(b[1]), isDigit(b[2]), isDigit(b[3]), isDigit(b[5]), isDigit(b[6]),
              isDigit(b[8]), isDigit(b[9]), isDigit(b[11]), isDigit(b[12]), isDigit(b[14]), isDigit(b[15]),
              isDigit(b[17]), isDigit(b[18]) else { return nil }
        let end = p.count
        let line = base.assumingMemoryBound(to: UInt8.self)
        var pos = start + 19
        if pos < end, line[pos] == UInt8(ascii: ".") {
            pos += 1
            let digitsStart = pos
            while pos < end, isDigit(line[pos]) { pos += 1 }
            if pos == digitsStart { return nil }
        }
        guard pos < end else { return pos }
        let sign = line[pos]
        if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            // `±HHMM`, the common form, tested straight; otherwise four digits with colons after the
            // second (`±HH:MM`).
            if end - pos >= 5, isDigit(line[pos + 1]), isDigit(line[pos + 2]), isDigit(line[pos + 3]), isDigit(line[pos + 4]) {
                return pos + 5
            }
            var q = pos + 1
            var digits = 0
            while q < end, digits < 4, isDigit(line[q]) || (digits == 2 && line[q] == UInt8(ascii: ":")) {
                if isDigit(line[q]) { digits += 1 }
                q += 1
            }
            if digits == 4 { pos = q }
        } else if sign == UInt8(ascii: "Z") {
            pos += 1
        }
        return pos
    }

    /// Skips spaces and tabs.
    @inline(__always) static func spaces(_ p: UnsafeRawBufferPointer, at start: Int) -> Int {
        var i = start
        while i < p.count, isSpace(p[i]) { i += 1 }
        return i
    }

    /// One or more digits.
    @inline(__always) static func digits(_ p: UnsafeRawBufferPointer, at start: Int) -> Int? {
        var i = start
        while i < p.count, isDigit(p[i]) { i += 1 }
        return i > start ? i : nil
    }

    /// One or more hex digits, optionally after `0x`.
    @inline(__always) static func hexNumber(_ p: UnsafeRawBufferPointer, at start: Int) -> Int? {
        var i = start
        if p.count - i >= 2, p[i] == UInt8(ascii: "0"), p[i + 1] | 0x20 == UInt8(ascii: "x") { i += 2 }
        let digitsStart = i
        while i < p.count, isHexDigit(p[i]) { i += 1 }
        return i > digitsStart ? i : nil
    }

    /// A run of non-space bytes.
    static func word(_ p: UnsafeRawBufferPointer, at start: Int) -> Int? {
        var i = start
        while i < p.count, !isSpace(p[i]) { i += 1 }
        return i > start ? i : nil
    }

    /// `Process[pid]` or `Process[pid:tid]` ending at a `]`; the process name may contain spaces and
    /// parentheses (`App(CoreData)[12]`). Returns (process range, pid range, tid range, end).
    static func processWithPID(_ p: UnsafeRawBufferPointer, at start: Int, limit: Int = 256)
        -> (process: Range<Int>, pid: Range<Int>, tid: Range<Int>?, end: Int)? {
        let stop = min(p.count, start + limit)
        var i = start
        while i < stop {
            // Jump to the next `[` (memchr) instead of testing every byte of the process name.
            guard let bracket = p.firstIndex(of: UInt8(ascii: "["), from: i, to: stop) else { return nil }
            i = bracket
            if i > start {
                guard let pidEnd = digits(p, at: i + 1) else { i += 1; continue }
                var tid: Range<Int>? = nil
                var close = pidEnd
                if close < p.count, p[close] == UInt8(ascii: ":") {
                    guard let tidEnd = hexNumber(p, at: close + 1) else { i += 1; continue }
                    tid = (close + 1)..<tidEnd
                    close = tidEnd
                }
                guard close < p.count, p[close] == UInt8(ascii: "]") else { i += 1; continue }
                return (start..<i, (i + 1)..<pidEnd, tid, close + 1)
            }
            i += 1
        }
        return nil
    }

    /// `[subsystem:category]` at `start`. Returns the two ranges and the position after `]`.
    static func subsystemCategory(_ p: UnsafeRawBufferPointer, at start: Int)
        -> (subsystem: Range<Int>, category: Range<Int>, end: Int)? {
        guard start < p.count, p[start] == UInt8(ascii: "[") else { return nil }
        guard let close = p.firstIndex(of: UInt8(ascii: "]"), from: start + 1, to: min(p.count, start + 200)),
              let colon = p.firstIndex(of: UInt8(ascii: ":"), from: start + 1, to: close) else { return nil }
        for i in (start + 1)..<close where isSpace(p[i]) { return nil }
        return ((start + 1)..<colon, (colon + 1)..<close, close + 1)
    }
}
