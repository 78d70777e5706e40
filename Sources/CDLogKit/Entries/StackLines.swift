import CDLogCore
import CScan

/// The frame lines of a stack pasted into a console entry, told apart from the words of its message: a
/// crash reporter's `N  image  0x… symbol + 20`, the address-less `N | symbol (file.c:12)`, gdb's and lldb's
/// `#N 0x… in symbol`, lldb's `frame #N: 0x…`, under the indentation, quote marks (`> `) and `at ` that
/// pages and runtimes (Kotlin/Native, .NET) put before them.
enum StackLines {
    /// True when `line` (without its line break) is one frame of a stack.
    static func isFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < line.count, ByteClass.isBlank(line[i]) || line[i] == UInt8(ascii: ">") { i += 1 }
        if line.hasPrefix("at ", at: i) { i = ByteScan.spaces(line, at: i + 3) }
        guard i < line.count else { return false }
        let rest = UnsafeRawBufferPointer(rebasing: line[i...])
        switch rest[0] {
        case 48...57: return XcodeConsoleFormat.isFrameLine(rest)
        case UInt8(ascii: "#"): return XcodeConsoleFormat.isDebuggerFrameLine(rest)
        case UInt8(ascii: "f"): return rest.hasPrefix("frame #")
        default: return false
        }
    }

    /// True when the first line of `message` with text is a frame and another line follows it, or when it
    /// is a crash report's thread heading (`Thread 4:: Dispatch queue: NSPersistentStoreCoordinator 0x…`,
    /// `Thread 2 name: …`) and the line under it a frame. Asked of every entry no rule named, so the first
    /// byte decides most: only a digit, `#`, `f`, `a` (`at `) or `T` may open a stack, and a message of one
    /// line is no stack.
    static func opensWithFrame(_ message: UnsafeRawBufferPointer) -> Bool {
        var start = 0
        while start < message.count, message[start] == 0x0A || ByteClass.isBlank(message[start]) || message[start] == UInt8(ascii: ">") {
            start += 1
        }
        guard start < message.count else { return false }
        let first = message[start]
        guard (first >= 48 && first <= 57) || first == UInt8(ascii: "#") || first == UInt8(ascii: "f") || first == UInt8(ascii: "a")
                || (first == UInt8(ascii: "T") && message.hasPrefix("Thread ", at: start)),
              let base = message.baseAddress else { return false }
        let newline = withUnsafeBytes(of: UInt8(0x0A)) { cscan_find(base + start, message.count - start, $0.baseAddress, 1) }
        guard newline >= 0 else { return false }
        let line = UnsafeRawBufferPointer(rebasing: message[start..<(start + newline)])
        guard first == UInt8(ascii: "T") else { return isFrame(line) }
        guard isThreadHeading(line) else { return false }
        let next = start + newline + 1
        var end = next
        while end < message.count, message[end] != 0x0A { end += 1 }
        return isFrame(UnsafeRawBufferPointer(rebasing: message[next..<end]))
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
