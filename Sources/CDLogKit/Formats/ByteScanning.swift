/// Small byte-level scanners shared by the line formats. Each takes a position and returns the position
/// after what it recognised, or nil; none reads outside the buffer.
enum ByteScan {
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }
    @inline(__always) static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20) &- 97 < 6
    }
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 }

    /// `YYYY-MM-DD HH:MM:SS` with optional `.fraction` and optional `±HHMM` / `±HH:MM` / `Z`.
    /// Runs once per line of every line format, so the fixed part is tested eight bytes at a time
    /// (`WordShape`); continuation lines fail at the first word.
    static func timestamp(_ p: UnsafeRawBufferPointer, at start: Int) -> Int? {
        // Fixed part: 19 bytes, `T` accepted as the ISO separator at 10.
        guard start >= 0, p.count - start >= 19, let base = p.baseAddress else { return nil }
        let b = base + start
        guard WordShape.date.matches(b), WordShape.dayDigits.matches(b + 8),
              b.load(fromByteOffset: 10, as: UInt8.self) == UInt8(ascii: " ") || b.load(fromByteOffset: 10, as: UInt8.self) == UInt8(ascii: "T"),
              WordShape.time.matches(b + 11) else { return nil }
        let end = p.count
        let line = base.assumingMemoryBound(to: UInt8.self)
        var pos = start + 19
        if pos < end, line[pos] == UInt8(ascii: ".") {
            pos += 1
            let digitsStart = pos
            // Microseconds, the usual precision: six digits in one test.
            if end - pos >= 8, WordShape.sixDigits.matches(UnsafeRawPointer(line + pos)) { pos += 6 }
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

/// Eight bytes tested against a fixed shape in a few word operations: decimal digits at some positions,
/// exact bytes at others, anything at the rest.
///
/// A digit is a byte whose high nibble is 3 and which stays below 0x40 after adding 6 (0x30…0x39);
/// after the first test every digit byte is 0x30…0x3F, so adding 6 carries into no other byte.
struct WordShape {
    /// High nibble (digits) or whole byte (exact bytes) kept for the first test, and what it must equal.
    let mask: UInt64, pattern: UInt64
    /// 6 at digit positions; the high nibbles kept after adding it must be 3.
    let add: UInt64, digitMask: UInt64, digitPattern: UInt64

    @inline(__always) func matches(_ at: UnsafeRawPointer) -> Bool {
        let word = UInt64(littleEndian: at.loadUnaligned(as: UInt64.self))
        return word & mask == pattern && (word &+ add) & digitMask == digitPattern
    }

    // Byte 0 is the lowest byte. Derived from the shapes in the comments (d: digit, ?: any); checked
    // against a byte-by-byte reading in ByteScanReferenceTests.
    /// `dddd-dd-`
    static var date: WordShape {
        WordShape(mask: 0xFFF0_F0FF_F0F0_F0F0, pattern: 0x2D30_302D_3030_3030, add: 0x0006_0600_0606_0606,
                  digitMask: 0x00F0_F000_F0F0_F0F0, digitPattern: 0x0030_3000_3030_3030)
    }
    /// `dd??????`
    static var dayDigits: WordShape {
        WordShape(mask: 0xF0F0, pattern: 0x3030, add: 0x0606, digitMask: 0xF0F0, digitPattern: 0x3030)
    }
    /// `dd:dd:dd`
    static var time: WordShape {
        WordShape(mask: 0xF0F0_FFF0_F0FF_F0F0, pattern: 0x3030_3A30_303A_3030, add: 0x0606_0006_0600_0606,
                  digitMask: 0xF0F0_00F0_F000_F0F0, digitPattern: 0x3030_0030_3000_3030)
    }
    /// `dddddd??`
    static var sixDigits: WordShape {
        WordShape(mask: 0xF0_F0F0_F0F0_F0, pattern: 0x30_3030_3030_30, add: 0x06_0606_0606_06,
                  digitMask: 0xF0_F0F0_F0F0_F0, digitPattern: 0x30_3030_3030_30)
    }
}
