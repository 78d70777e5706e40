import CDLogCore
import CScan

/// The frame lines of a stack pasted into a console entry, told apart from the words of its message: a
/// crash reporter's `N  image  0x… symbol + 20`, the address-less `N | symbol (file.c:12)`, gdb's and lldb's
/// `#N 0x… in symbol`, lldb's `frame #N: 0x…`, under the indentation, quote marks (`> `) and `at ` that
/// pages and runtimes (Kotlin/Native, .NET) put before them; and the frames printed without a number
/// (`isSymbolFrame`).
enum StackLines {
    /// True when `line` (without its line break) is one frame of a stack.
    static func isFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < line.count, ByteClass.isBlank(line[i]) || line[i] == UInt8(ascii: ">") { i += 1 }
        if line.hasPrefix("at ", at: i) { i = ByteScan.spaces(line, at: i + 3) }
        guard i < line.count else { return false }
        let rest = UnsafeRawBufferPointer(rebasing: line[i...])
        switch rest[0] {
        case 48...57: return XcodeConsoleFormat.isFrameLine(rest) || isSymbolFrame(rest)
        case UInt8(ascii: "#"): return XcodeConsoleFormat.isDebuggerFrameLine(rest)
        case UInt8(ascii: "f"): return rest.hasPrefix("frame #") || isSymbolFrame(rest)
        default: return isSymbolFrame(rest)
        }
    }

    /// A frame printed without a frame number, one token and then what only a frame has after it:
    /// - `symbol (in Image) file.c:12`, `symbol (in Image) + 8`: `sample`, spindump, Instruments and a
    ///   report's `crashThreadSymbolList` (a page may have glued the frame number to it: `0symbol (in …)`);
    /// - `image +0x17e98 symbol file.c:12`: Sentry's and other symbolicators' image-relative form;
    /// - `symbol 0x000000011fa5a9f5` and nothing after: a frame copied from Xcode's debug navigator.
    ///
    /// Reads the first token and the bytes after it only, so asking it of a message line costs a few bytes.
    static func isSymbolFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < line.count, isSymbolByte(line[i]) { i += 1 }
        guard i >= 2, i + 4 < line.count, line[i] == 32 else { return false }
        switch line[i + 1] {
        case UInt8(ascii: "("):
            // ` (in Image)` (an image name has no blank), then the line's end, ` + 8`, ` (file.m:12)`,
            // ` file.c:910` or ` [0x…]`.
            guard line.hasPrefix("(in ", at: i + 1) else { return false }
            var j = i + 5
            while j < line.count, line[j] != UInt8(ascii: ")"), !ByteClass.isBlankOrLineBreak(line[j]) { j += 1 }
            guard j < line.count, line[j] == UInt8(ascii: ")"), j > i + 5 else { return false }
            j += 1
            guard j < line.count, line[j] != 0x0A, line[j] != 13 else { return true }
            guard line[j] == 32, j + 1 < line.count else { return false }
            let next = line[j + 1]
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "(") || next == UInt8(ascii: "[") { return true }
            // `file.c:910`: a word with a colon and digits after it.
            var k = j + 1
            while k < line.count, isSymbolByte(line[k]) { k += 1 }
            return k > j + 1 && k + 1 < line.count && line[k] == UInt8(ascii: ":") && ByteScan.isDigit(line[k + 1])
        case UInt8(ascii: "+"):
            // ` +0x17e98 symbol`: an offset of four hex digits or more.
            guard line.hasPrefix("+0x", at: i + 1), let end = ByteScan.hexNumber(line, at: i + 2), end - (i + 4) >= 4,
                  end + 1 < line.count, line[end] == 32 else { return false }
            return isSymbolByte(line[end + 1]) || line[end + 1] == UInt8(ascii: "-") || line[end + 1] == UInt8(ascii: "+")
                || line[end + 1] == UInt8(ascii: "[")
        case UInt8(ascii: "0"):
            // ` 0x000000011fa5a9f5` closing the line: a full 64-bit or 32-bit address.
            guard line[i + 2] == UInt8(ascii: "x"), let end = ByteScan.hexNumber(line, at: i + 1), end - (i + 3) >= 8 else {
                return false
            }
            let after = ByteScan.spaces(line, at: end)
            return after == line.count || line[after] == 13 || line[after] == 0x0A
        default:
            return false
        }
    }

    /// A byte of a symbol or image name as the numberless frame forms print it (`sqlite3VdbeExec`,
    /// `libsqlite3.dylib`, `Foo.bar(_:)` stops at the parenthesis, `$s4Main…`).
    @inline(__always) private static func isSymbolByte(_ b: UInt8) -> Bool {
        (b | 0x20) &- 97 < 26 || b &- 48 < 10 || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "$")
    }

    /// True when the first line of `message` with text is a frame and another line follows it, or when it
    /// is a crash report's thread heading (`Thread 4:: Dispatch queue: NSPersistentStoreCoordinator 0x…`,
    /// `Thread 2 name: …`) and the line under it a frame. Asked of every entry no rule named, so the first
    /// bytes decide most: a digit, `#`, `f`, `a` (`at `) or `T` may open a numbered stack, and any other
    /// first line only when its first token ends in what a numberless frame has after it
    /// (`isSymbolFrame`); a message of one line is no stack. A numberless first frame needs a second frame
    /// under it: one such line alone can be a message that prints an address.
    static func opensWithFrame(_ message: UnsafeRawBufferPointer) -> Bool {
        var start = 0
        while start < message.count, message[start] == 0x0A || ByteClass.isBlank(message[start]) || message[start] == UInt8(ascii: ">") {
            start += 1
        }
        guard start < message.count, let base = message.baseAddress else { return false }
        let first = message[start]
        let numbered = (first >= 48 && first <= 57) || first == UInt8(ascii: "#") || first == UInt8(ascii: "f") || first == UInt8(ascii: "a")
            || (first == UInt8(ascii: "T") && message.hasPrefix("Thread ", at: start))
        if !numbered, !isSymbolFrame(UnsafeRawBufferPointer(rebasing: message[start...])) { return false }
        let newline = withUnsafeBytes(of: UInt8(0x0A)) { cscan_find(base + start, message.count - start, $0.baseAddress, 1) }
        guard newline >= 0 else { return false }
        let line = UnsafeRawBufferPointer(rebasing: message[start..<(start + newline)])
        let next = start + newline + 1
        var end = next
        while end < message.count, message[end] != 0x0A { end += 1 }
        let second = UnsafeRawBufferPointer(rebasing: message[next..<end])
        if first == UInt8(ascii: "T"), message.hasPrefix("Thread ", at: start) {
            return isThreadHeading(line) && isFrame(second)
        }
        guard isFrame(line) else { return false }
        return isSymbolFrame(line) ? isFrame(second) : true
    }

    /// `Thread 4:: Dispatch queue: …`, `Thread 4:`, `Thread 2 name: …`: a crash report's heading over a
    /// thread's frames.
    static func isThreadHeading(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.hasPrefix("Thread "), let digitsEnd = ByteScan.digits(line, at: 7) else { return false }
        return line.hasPrefix(":", at: digitsEnd) || line.hasPrefix(" name:", at: digitsEnd)
    }

    /// `message` without its frame lines (the lines kept in order, each with its line break), or nil when
    /// no line of it is a frame.
    static func withoutFrames(_ message: UnsafeRawBufferPointer) -> [UInt8]? {
        var kept: [UInt8] = []
        var sawFrame = false
        var start = 0
        while start < message.count {
            var end = start
            while end < message.count, message[end] != 0x0A { end += 1 }
            let line = UnsafeRawBufferPointer(rebasing: message[start..<end])
            if isFrame(line) {
                if !sawFrame {
                    sawFrame = true
                    kept.reserveCapacity(message.count)
                    kept.append(contentsOf: UnsafeRawBufferPointer(rebasing: message[0..<start]))
                }
            } else if sawFrame {
                kept.append(contentsOf: line)
                kept.append(0x0A)
            }
            start = end + 1
        }
        return sawFrame ? kept : nil
    }
}
