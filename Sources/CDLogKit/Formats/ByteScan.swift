import CDLogCore
import CScan

/// Small byte-level scanners shared by the line formats. Each takes a position and returns the position
/// after what it recognised, or nil; none reads outside the buffer.
enum ByteScan {
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }
    @inline(__always) static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20) &- 97 < 6
    }
    /// An ASCII letter.
    @inline(__always) static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- 97 < 26 }

    /// `YYYY-MM-DD HH:MM:SS` with optional `.fraction` and optional `±HHMM` / `±HH:MM` / `Z`
    /// (`cscan_timestamp`: runs once per line of every line format).
    @inline(__always) static func timestamp(_ p: UnsafeRawBufferPointer, at start: Int) -> Int? {
        guard start >= 0, let base = p.baseAddress else { return nil }
        let end = cscan_timestamp(base.assumingMemoryBound(to: UInt8.self), p.count, start)
        return end < 0 ? nil : end
    }

    /// Skips spaces and tabs.
    @inline(__always) static func spaces(_ p: UnsafeRawBufferPointer, at start: Int) -> Int {
        var i = start
        while i < p.count, ByteClass.isBlank(p[i]) { i += 1 }
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
        while i < p.count, !ByteClass.isBlank(p[i]) { i += 1 }
        return i > start ? i : nil
    }

    /// `Process[pid]` or `Process[pid:tid]` ending at a `]`; the process name may contain spaces and
    /// parentheses (`App(CoreData)[12]`). Returns (process range, pid range, tid range, end)
    /// (`cscan_process_with_pid`, whose ranges are 32-bit: nil for a buffer over 2 GiB; lines are capped
    /// far below that).
    static func processWithPID(_ p: UnsafeRawBufferPointer, at start: Int, limit: Int = 256)
        -> (process: Range<Int>, pid: Range<Int>, tid: Range<Int>?, end: Int)? {
        guard start >= 0, limit >= 0, let base = p.baseAddress, p.count <= Int(Int32.max) else { return nil }
        var r: (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0)
        let end = withUnsafeMutableBytes(of: &r) {
            cscan_process_with_pid(base.assumingMemoryBound(to: UInt8.self), p.count, start, limit,
                                   $0.baseAddress!.assumingMemoryBound(to: Int32.self))
        }
        guard end >= 0 else { return nil }
        return (Int(r.0)..<Int(r.1), Int(r.2)..<Int(r.3), r.4 < 0 ? nil : Int(r.4)..<Int(r.5), end)
    }

    /// `[subsystem:category]` at `start`. Returns the two ranges and the position after `]`.
    static func subsystemCategory(_ p: UnsafeRawBufferPointer, at start: Int)
        -> (subsystem: Range<Int>, category: Range<Int>, end: Int)? {
        guard start < p.count, p[start] == UInt8(ascii: "[") else { return nil }
        guard let close = p.firstIndex(of: UInt8(ascii: "]"), from: start + 1, to: min(p.count, start + 200)),
              let colon = p.firstIndex(of: UInt8(ascii: ":"), from: start + 1, to: close) else { return nil }
        for i in (start + 1)..<close where ByteClass.isBlank(p[i]) { return nil }
        return ((start + 1)..<colon, (colon + 1)..<close, close + 1)
    }
}
