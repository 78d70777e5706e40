import CDLogCore
import CScan

/// The frame lines of a stack pasted into a console entry, told apart from the words of its message: a
/// crash reporter's `N  image  0x… symbol + 20`, the address-less `N | symbol (file.c:12)`, gdb's and lldb's
/// `#N 0x… in symbol` (`#N (null) in symbol` where gdb read no address), Dart's `#N symbol (package:…)`,
/// lldb's `frame #N: 0x…`, Xcode's copy of a stopped thread (`Thread 1#0\t0x… in symbol ()`, its first frame
/// glued to the thread's name), under the indentation, quote marks (`> `) and `at ` that pages and runtimes
/// (Kotlin/Native, .NET) put before them; and the frames printed without a number (`isSymbolFrame`).
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
        case UInt8(ascii: "T"): return opensWithThreadsFrame(rest) || isSymbolFrame(rest)
        default: return isSymbolFrame(rest)
        }
    }

    /// True when `message` holds a frame in a crash report's own columns: the frame number, the image, and a
    /// tab before the address (`6   libsqlite3.dylib              \t0x00000001c33d5c04 sqlite3BtreeMovetoUnpacked + 1076`,
    /// the address right-aligned after the tab in newer reports). A console, lldb and Crashlytics print spaces
    /// there. Eval/COLLECTING.md: such a part of a report, pasted without its header, is still the report form.
    static func hasReportColumns(_ message: UnsafeRawBufferPointer) -> Bool {
        var from = 0
        while from < message.count, let tab = message.firstIndex(of: 9, from: from) {
            from = tab + 1
            var i = tab + 1
            while i < message.count, message[i] == 32 { i += 1 }
            guard i + 1 < message.count, message[i] == UInt8(ascii: "0"), message[i + 1] == UInt8(ascii: "x") else { continue }
            // The line before the tab: blanks, one to three digits, blanks, the image (no blank in it), blanks.
            var start = tab
            while start > 0, message[start - 1] != 10 { start -= 1 }
            var j = ByteScan.spaces(message, at: start)
            let digits = j
            while j < tab, message[j] >= 48, message[j] <= 57 { j += 1 }
            guard j > digits, j - digits <= 3, j < tab, message[j] == 32 else { continue }
            j = ByteScan.spaces(message, at: j)
            let image = j
            while j < tab, message[j] != 32 { j += 1 }
            guard j > image, (j..<tab).allSatisfy({ message[$0] == 32 }) else { continue }
            return true
        }
        return false
    }

    /// True when `message` is a crash service's issue as its GitHub integration filed it: Crashlytics' (Fabric's)
    /// `#### in -[Class method]` over `* Number of crashes: 1`. Like a report pasted without its header, it is a
    /// crash report's summary, not console text: Eval/COLLECTING.md keeps it `crash` whatever its one frame names
    /// (25 development records: 24 `crash`).
    static func isCrashServiceStub(_ message: UnsafeRawBufferPointer) -> Bool {
        message.contains(sequence: "Number of crashes: ")
    }

    /// A frame printed without a frame number, one token and then what only a frame has after it:
    /// - `symbol (in Image) file.c:12`, `symbol (in Image) + 8`: `sample`, spindump, Instruments and a
    ///   report's `crashThreadSymbolList` (a page may have glued the frame number to it: `0symbol (in …)`);
    /// - `image +0x17e98 symbol file.c:12`: Sentry's and other symbolicators' image-relative form;
    /// - `symbol 0x000000011fa5a9f5` and nothing after: a frame copied from Xcode's debug navigator.
    ///
    /// Reads the first token and the bytes after it only (`cscan_symbol_frame`), so asking it of a message
    /// line costs its first word.
    static func isSymbolFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let base = line.baseAddress else { return false }
        return cscan_symbol_frame(base.assumingMemoryBound(to: UInt8.self), line.count) != 0
    }

    /// True when the first line of `message` with text is a frame and another line follows it, or when it
    /// is a crash report's thread heading (`Thread 4:: Dispatch queue: NSPersistentStoreCoordinator 0x…`,
    /// `Thread 2 name: …`) or Xcode's copied thread (`Thread 1#0\t0x… in …`) and the line under it a frame. Asked of every entry no rule named, so the first
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
        // Most entries no rule named are one line: the search for a line break (SIMD) ends them before any
        // token is read.
        let newline = withUnsafeBytes(of: UInt8(0x0A)) { cscan_find(base + start, message.count - start, $0.baseAddress, 1) }
        guard newline >= 0 else { return false }
        let line = UnsafeRawBufferPointer(rebasing: message[start..<(start + newline)])
        if !numbered, !isSymbolFrame(line) { return false }
        let next = start + newline + 1
        var end = next
        while end < message.count, message[end] != 0x0A { end += 1 }
        let second = UnsafeRawBufferPointer(rebasing: message[next..<end])
        if first == UInt8(ascii: "T"), message.hasPrefix("Thread ", at: start) {
            return (isThreadHeading(line) || opensWithThreadsFrame(line)) && isFrame(second)
        }
        guard isFrame(line) else { return false }
        return isSymbolFrame(line) ? isFrame(second) : true
    }

    /// `Thread 4:: Dispatch queue: …`, `Thread 4:`, `Thread 2 name: …`: a crash report's heading over a
    /// thread's frames; `Thread 1 Queue : com.apple.main-thread (serial)`: Xcode's debug navigator's copy of a
    /// stopped thread.
    static func isThreadHeading(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.hasPrefix("Thread "), let digitsEnd = ByteScan.digits(line, at: 7) else { return false }
        return line.hasPrefix(":", at: digitsEnd) || line.hasPrefix(" name:", at: digitsEnd)
            || line.hasPrefix(" Queue : ", at: digitsEnd)
    }

    /// The Dart VM's line naming the thread and isolate its fatal error happened on (`pid=17833, thread=5019,
    /// isolate_group=main(0x…), isolate=Drift isolate worker for /Users/…/app.sqlite`): like a frame, where the
    /// VM ran, not what failed (a database worker's isolate is named after its file). `withoutFrames` drops it with
    /// the frames, for the fallback's words and for every rule's joined reading.
    static func isVMThreadLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.first == UInt8(ascii: "p") && line.hasPrefix("pid=") && line.contains(sequence: ", isolate_group=")
    }

    /// True when `line` is Xcode's copy of a stopped thread, its name glued to its first frame (`Thread 1#0\t0x000000018274231c
    /// in sqlite3MutexMisuseAssert ()`): the debug navigator's Copy writes the thread, then its frames, gdb's way.
    static func opensWithThreadsFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.hasPrefix("Thread "), let digitsEnd = ByteScan.digits(line, at: 7), line.hasPrefix("#", at: digitsEnd) else { return false }
        return XcodeConsoleFormat.isDebuggerFrameLine(UnsafeRawBufferPointer(rebasing: line[digitsEnd...]))
    }

    /// `message` without its frame lines and the Dart VM's thread line (`isVMThreadLine`), the lines kept in order,
    /// each with its line break; nil when it holds neither.
    static func withoutFrames(_ message: UnsafeRawBufferPointer) -> [UInt8]? {
        var kept: [UInt8] = []
        var sawFrame = false
        var start = 0
        while start < message.count {
            var end = start
            while end < message.count, message[end] != 0x0A { end += 1 }
            let line = UnsafeRawBufferPointer(rebasing: message[start..<end])
            if isFrame(line) || isVMThreadLine(line) {
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

    /// `message` without the source locations a Swift trap prints, or nil when it has none: `file
    /// /Users/me/App/Database/Store.swift, line 42` (Swift 5.2 and earlier) and `App/Database/Store.swift:42:`
    /// (later), each replaced by one space. Only `.swift` paths followed by a line number count.
    static func withoutSourceLocations(_ message: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let base = message.baseAddress else { return nil }
        var out: [UInt8]? = nil
        var copied = 0
        var from = 0
        while from < message.count {
            let found = ".swift".withCString { cscan_find(base + from, message.count - from, $0, 6) }
            guard found >= 0 else { break }
            let dot = from + found
            var end = dot + 6
            from = end
            // `:42` (and the colon after it) or `, line 42`.
            if end + 1 < message.count, message[end] == UInt8(ascii: ":"), let digitsEnd = ByteScan.digits(message, at: end + 1) {
                end = digitsEnd
                if end < message.count, message[end] == UInt8(ascii: ":") { end += 1 }
            } else if message.hasPrefix(", line ", at: end), let digitsEnd = ByteScan.digits(message, at: end + 7) {
                end = digitsEnd
            } else {
                continue
            }
            var start = dot
            while start > copied, !ByteClass.isBlankOrLineBreak(message[start - 1]) { start -= 1 }
            if start >= 5, start - 5 >= copied, message.hasPrefix("file ", at: start - 5) { start -= 5 }
            if out == nil { out = []; out!.reserveCapacity(message.count) }
            out!.append(contentsOf: UnsafeRawBufferPointer(rebasing: message[copied..<start]))
            out!.append(32)
            copied = end
            from = end
        }
        guard var kept = out else { return nil }
        kept.append(contentsOf: UnsafeRawBufferPointer(rebasing: message[copied...]))
        return kept
    }
}
