import CDLogCore
/// Xcode's console without a prefix (iOS 14+ default), bare `Error Domain=…`/`<CKError …>` text, and the
/// fallback for anything unrecognised.
///
/// A line starts a new entry unless it is a continuation: it begins with whitespace (and is not a
/// leading-space `CoreData:`/`error:` line or a sentence after one space), `}`, `)`, `Error Domain=` or `<CKError`, FMDB's
/// `DB Query:` / `DB Path:` lines (docs/classify.md, "Input formats"), or
/// it is a backtrace line (`3  CoreData  0x… symbol`, `*** First throw call stack:`), the rest of
/// lldb's stop report (`->  0x…`, `image`symbol:`, `Target 0: (App) stopped.`), or the wrapped rest of an
/// exception line (`reason: '…'`, a line opening with `'` or `:`).
public struct XcodeConsoleFormat: LineFormat {
    public let format = InputFormat.xcode
    public init() {}

    /// True when `line` opens with a label an error dump sets before one of its details (`Reason: `, `Server Error
    /// Code: `, `Raw Response: `, `Underlying error: `, `Error Code: `, `Failure Reason: `, `Recovery Suggestion: `,
    /// `Debug Description: `, `Details: `).
    /// Asked of many lines: decided on the first byte before any prefix is compared, with no array of labels
    /// (an array literal of `StaticString` built per call costs the runtime's conformance lookups).
    static func opensWithErrorDetailLabel(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first else { return false }
        switch first {
        case UInt8(ascii: "R"):
            // Amplify's errors spell it `Recovery suggestion:`, Xcode's alerts `Recovery Suggestion:`.
            return line.hasPrefix("Reason: ") || line.hasPrefix("Raw Response: ") || line.hasPrefix("Recovery Suggestion: ")
                || line.hasPrefix("Recovery suggestion: ")
        case UInt8(ascii: "S"): return line.hasPrefix("Server Error Code: ")
        case UInt8(ascii: "U"): return line.hasPrefix("Underlying error: ") || line.hasPrefix("Underlying Error: ")
        case UInt8(ascii: "E"): return line.hasPrefix("Error Code: ")
        case UInt8(ascii: "F"): return line.hasPrefix("Failure Reason: ") || line.hasPrefix("Failure reason: ")
        case UInt8(ascii: "D"): return line.hasPrefix("Debug Description: ") || line.hasPrefix("Details: ")
        default: return false
        }
    }

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let first = line.first else { return nil }
        if ByteClass.isBlank(first) {
            // Xcode sometimes prints entries with a leading space; keep those as entries. So is a sentence
            // after exactly one space (a paste's artefact): continuations are indented by a tab or more spaces.
            let start = ByteScan.spaces(line, at: 0)
            if start <= 2, XcodeConsoleFormat.startsEntryWord(line, at: start) {
                return LineHeader(messageStart: start)
            }
            if start == 1, first == 32, line.count > 2, line[1] >= 65, line[1] <= 90, line[2] >= 97, line[2] <= 122 {
                return LineHeader(messageStart: 1)
            }
            // Apple's C++ frameworks (CoreAudio, AVFAudio, CoreMedia) log indented by their own margin, their
            // source file and line first (`         AVAudioBuffer.mm:281   mBuffers[0]… should be non-zero`):
            // a message of its own, not the rest of the one above.
            if XcodeConsoleFormat.opensWithSourceLocation(line, at: start) { return LineHeader(messageStart: start) }
            // Python's rich log handler blanks a time it already printed, so its next lines open with the level
            // under the time's column (`         INFO     [mvt.ios.cli] …`), and a tool's step counter opens a
            // line of its own under the heading it reports to (`  [2/4] Caching chatrooms...`).
            if XcodeConsoleFormat.opensWithPaddedLevel(line, at: start) || XcodeConsoleFormat.opensWithStepCounter(line, at: start) {
                return LineHeader(messageStart: start)
            }
            // A logger's time of day and bar indented by the paste (Couchbase Lite 1.x's `    03:41:17.971‖ Sync: …`
            // copied into an issue's block under its unindented first line): a message of its own, as at the margin.
            if start <= 8, start < line.count, line[start] >= 48, line[start] <= 57,
               EntrySplitter.opensWithTimeOfDayBar(UnsafeRawBufferPointer(rebasing: line[start...])) {
                return LineHeader(messageStart: start)
            }
            // An app's print that opens with an emoji, indented under the heading it reports to (`   ✅ Fetched 95
            // articles`, `  🔍 Calling modifyRecords()`): a message of its own, as such a print is at the margin.
            if start <= 8, start < line.count, line[start] == 0xF0 || line[start] == 0xE2,
               EntrySplitter.opensWithEmoji(UnsafeRawBufferPointer(rebasing: line[start...])) {
                return LineHeader(messageStart: start)
            }
            return nil
        }
        // FMDB prints the statement and the database of a failed call on lines of their own after the error.
        if line.hasPrefix("DB Query: ") || line.hasPrefix("DB Path: ") { return nil }
        if first == UInt8(ascii: "}") || first == UInt8(ascii: ")") { return nil }
        // `(` alone opens the frame list NSException's description prints under its reason.
        if first == UInt8(ascii: "("), line.dropFirst().allSatisfy(ByteClass.isBlank) { return nil }
        // The inner and bottom lines of a box a logger draws around one message (`║ …`, `╚═══`, `│`, `└`):
        // box-drawing characters (U+2500–U+257F) other than a top-left corner continue the box.
        if first == 0xE2, line.count >= 3, line[1] == 0x94 || line[1] == 0x95, !XcodeConsoleFormat.opensBox(line[1], line[2]) { return nil }
        // CoreStore's arrow (`↪︎ Failed to save …`) opens the lines of the log it printed above, indented or not.
        if first == 0xE2, line.count >= 3, line[1] == 0x86, line[2] == 0xAA { return nil }
        if line.hasPrefix("Error Domain=") || line.hasPrefix("<CKError") { return nil }
        // An error's cause under it: Java's and Kotlin's `Caused by: java.io.IOException: …`, and the `Caused by:` that
        // Amplify's errors and Rust's anyhow print alone over each cause of their chain (round 135); drift's and the sqlite3
        // package's `Causing statement: ALTER TABLE …` under a SqliteException (round 138).
        if first == UInt8(ascii: "C"), line.hasPrefix("Caused by:") || line.hasPrefix("Causing statement:") { return nil }
        // Expo's modules print the cause of a native call that failed under an arrow (`Calling the 'prepareAsync' function
        // has failed` / `→ Caused by: Error code 1: no such table: kv`; round 137).
        if first == 0xE2, line.hasPrefix("→ Caused by:") { return nil }
        // Core Data's mirroring delegate prints a failed recovery over two lines (`… Failed to recover from error:
        // NSCocoaErrorDomain:134400` / `Recovery encountered the following error: (null):0`).
        if first == UInt8(ascii: "R"), line.hasPrefix("Recovery encountered the following error: ") { return nil }
        // The rest of an NSError a poster or a page broke after its domain (`Error Domain=NSCocoaErrorDomain`
        // / `Code=134081 "(null)"` / `UserInfo={…}`): one error.
        if first == UInt8(ascii: "C"), line.count > 5, line.hasPrefix("Code="), line[5] == UInt8(ascii: "-") || (line[5] >= 48 && line[5] <= 57) { return nil }
        if first == UInt8(ascii: "U"), line.hasPrefix("UserInfo=") { return nil }
        // An exception's backtrace printed one frame per line (lldb, Crashlytics, `First throw call
        // stack`) stays with the exception above it.
        if first >= 48, first <= 57, XcodeConsoleFormat.isFrameLine(line) { return nil }
        // Kotlin/Native's frames put `at ` before the number (`at 0   App.debug.dylib   0x1049ef2a3 kfun:…`).
        if first == UInt8(ascii: "a"), line.count > 4, line[1] == UInt8(ascii: "t"), line[2] == 32, line[3] >= 48, line[3] <= 57,
           XcodeConsoleFormat.isFrameLine(UnsafeRawBufferPointer(rebasing: line[3...])) { return nil }
        // gdb's and lldb's `bt` (`#1 0x97a016af in pthread_mutex_lock ()`).
        if first == UInt8(ascii: "#"), XcodeConsoleFormat.isDebuggerFrameLine(line) { return nil }
        // A poster's elision alone on a line (`...`, `…`, `[...]`) between the lines of one block (frames cut
        // from a backtrace): the block goes on.
        if line.count <= 16, XcodeConsoleFormat.isElision(line) { return nil }
        // Dart's `<asynchronous suspension>` between the frames of a Flutter app's unhandled exception.
        if first == UInt8(ascii: "<"), line.hasPrefix("<asynchronous suspension>") { return nil }
        // Flutter's engine tags every line an app prints on iOS, a caught exception's stack too (`flutter: Error while
        // fetching …` / `flutter: #0      _Utf8Decoder.convertSingle (dart:convert-patch/convert_patch.dart:1760:7)`):
        // a frame, or the suspension between two, under the tag goes on with the message above (round 129's AAH-P01).
        if first == UInt8(ascii: "f"), line.hasPrefix("flutter: "), XcodeConsoleFormat.isTaggedDartFrame(line, at: 9) { return nil }
        // JavaScriptCore's stack, as a web view (Capacitor, Cordova, Ionic) prints an error's `stack` under it.
        if XcodeConsoleFormat.isJavaScriptCoreFrame(line) { return nil }
        // Frames printed without a number (`symbol (in Image) + 8`, `image +0x… symbol`, `symbol 0x…`).
        if StackLines.isSymbolFrame(line) { return nil }
        // The header lines of a Crashlytics / PLCrashReporter block after its first line (`crashed: queue`,
        // `Fatal Exception: …`, `EXC_BAD_ACCESS …`): the trap and the crashed thread's name stay with it.
        if XcodeConsoleFormat.isCrashBlockLine(line) { return nil }
        // The rest of lldb's stop report under `* thread #N, stop reason = …`: the disassembly's label
        // (`libsystem_platform.dylib`_platform_memset:`), its instructions (`->  0x1c9401934 <+36>: …`) and
        // `Target 0: (Runner) stopped.`
        if XcodeConsoleFormat.continuesDebuggerStop(line) { return nil }
        // The C++ runtime's `libc++abi.dylib: terminating with uncaught exception of type NSException` under
        // the backtrace is a line of its own: the process ending, printed after the exception's report.
        // Swift 3–5's runtime prints `Current stack trace:` and the frames under its `fatal error:` line.
        if line.hasPrefix("*** First throw call stack") || line.hasPrefix("*** Call stack at first throw")
            || line.hasPrefix("Current stack trace:") { return nil }
        // An exception line wrapped by the poster or a page: the reason, the quoted name or the rest of a
        // selector (`: the entity … is not key value coding-compliant`) on a line of its own.
        if line.hasPrefix("reason: ") || line.hasPrefix("reason:'") || first == UInt8(ascii: "'")
            || first == UInt8(ascii: ":") || line.hasPrefix("(0x") { return nil }
        return LineHeader(messageStart: 0)
    }

    /// True when `line` is a frame of JavaScriptCore's stack as an error's `stack` prints it: `function@url:line:column`
    /// (`verifyPrimaryLease@capacitor://localhost/main.js:1:167072`), an anonymous function's bare `url:line:column`,
    /// or a built-in's `objectStore@[native code]`; one token, no blank. Asked of every bare line: the last byte (a
    /// digit or `]`) turns most lines away before any other is read.
    static func isJavaScriptCoreFrame(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, ByteClass.isBlankOrCR(line[end - 1]) { end -= 1 }
        guard end > 8, end <= 512 else { return false }
        let last = line[end - 1]
        guard ByteScan.isDigit(last) || last == UInt8(ascii: "]") else { return false }
        // A built-in's or WebAssembly's frame: `objectStore@[native code]`, or the place alone when the function has no name.
        if last == UInt8(ascii: "]") { return isJavaScriptCoreBuiltin(line, end: end) }
        // The function's name (none for an anonymous one; `global code`, `module code` and `eval code` for a script's own
        // body), up to `@` or the URL's scheme.
        var i = 0
        for body: StaticString in ["global code@", "module code@", "eval code@"] where line.hasPrefix(body) { i = body.utf8CodeUnitCount - 1 }
        while i < end, line[i] != UInt8(ascii: "@"), line[i] != UInt8(ascii: ":"), !ByteClass.isBlank(line[i]) { i += 1 }
        guard i < end, !ByteClass.isBlank(line[i]) else { return false }
        var urlStart = 0
        if line[i] == UInt8(ascii: "@") {
            urlStart = i + 1
            i = urlStart
            while i < end, line[i] != UInt8(ascii: ":"), !ByteClass.isBlank(line[i]) { i += 1 }
            guard i < end, line[i] == UInt8(ascii: ":") else { return false }
        }
        // `scheme://`: a letter, then letters, digits, `+`, `-` and `.` (`capacitor`, `webpack-internal`).
        guard i > urlStart, ByteScan.isLetter(line[urlStart]),
              (urlStart..<i).allSatisfy({ ByteScan.isLetter(line[$0]) || ByteScan.isDigit(line[$0]) || line[$0] == 0x2B || line[$0] == 0x2D || line[$0] == 0x2E }),
              line.hasPrefix("://", at: i) else { return false }
        // No blank in the URL, and `:line:column` closing it after a file's name (not a time of day: `?t=10:15:30`).
        var j = end
        while j > i, ByteScan.isDigit(line[j - 1]) { j -= 1 }
        guard j < end, j > i, line[j - 1] == UInt8(ascii: ":") else { return false }
        var k = j - 1
        while k > i, ByteScan.isDigit(line[k - 1]) { k -= 1 }
        guard k < j - 1, k >= 2, line[k - 1] == UInt8(ascii: ":"), !endsInTimeOfDay(line, hour: k - 1, minute: j - 1, end: end) else { return false }
        return !(i..<end).contains { ByteClass.isBlank(line[$0]) }
    }

    /// True when the `:NN:NN` closing `line` (its colons at `hour` and `minute`) ends a time of day (`?since=2024-05-01T10:15:30`,
    /// `t=12:30:45`): one or two digits after a `T`, `=`, blank or the line's start, then two two-digit numbers up to 59.
    /// A frame's line and column follow a file's name, or a cache-busting number (`main.ts?t=1702899183625:41:9`).
    private static func endsInTimeOfDay(_ line: UnsafeRawBufferPointer, hour: Int, minute: Int, end: Int) -> Bool {
        guard minute - hour == 3, end - minute == 3 else { return false }
        var start = hour
        while start > 0, ByteScan.isDigit(line[start - 1]) { start -= 1 }
        guard (1...2).contains(hour - start) else { return false }
        if start > 0 {
            let before = line[start - 1]
            guard before == UInt8(ascii: "T") || before == UInt8(ascii: "=") || ByteClass.isBlank(before) else { return false }
        }
        let minutes = Int(line[hour + 1] - 48) * 10 + Int(line[hour + 2] - 48)
        let seconds = Int(line[minute + 1] - 48) * 10 + Int(line[minute + 2] - 48)
        return minutes <= 59 && seconds <= 59
    }

    /// `[native code]` or `[wasm code]` alone on its line, or after a function's name and `@` (`objectStore@[native code]`).
    private static func isJavaScriptCoreBuiltin(_ line: UnsafeRawBufferPointer, end: Int) -> Bool {
        for place: StaticString in ["[native code]", "[wasm code]"] {
            let count = place.utf8CodeUnitCount
            guard end >= count, line.hasPrefix(place, at: end - count) else { continue }
            if end == count { return true }
            let at = end - count - 1
            return at > 0 && line[at] == UInt8(ascii: "@") && !(0..<at).contains { ByteClass.isBlank(line[$0]) }
        }
        return false
    }

    /// True when `line` at `start` (after a logger's tag) holds a Dart frame (`#0      main (package:app/main.dart:10:3)`,
    /// blanks first allowed) or Dart's `<asynchronous suspension>`.
    static func isTaggedDartFrame(_ line: UnsafeRawBufferPointer, at start: Int) -> Bool {
        let i = ByteScan.spaces(line, at: start)
        guard i < line.count else { return false }
        let rest = UnsafeRawBufferPointer(rebasing: line[i...])
        return rest.hasPrefix("<asynchronous suspension>") || (rest[0] == UInt8(ascii: "#") && isDebuggerFrameLine(rest))
    }

    /// True when `line` at `start` holds a source file and line, then two blanks or more and text:
    /// `AVAudioBuffer.mm:281   mBuffers[0]…`, `HALC_ProxyIOContext.cpp:1623  HALC_ProxyIOContext::IOWorkLoop: …`.
    /// The file's extension is a C, C++ or Objective-C one. Asked of every indented line: most fail at their
    /// first or second byte.
    static func opensWithSourceLocation(_ line: UnsafeRawBufferPointer, at start: Int) -> Bool {
        var i = start
        // The file's name: a letter, then letters, digits, `_`, `+` or `-`, within 64 bytes.
        guard i < line.count, ByteScan.isLetter(line[i]) else { return false }
        let nameLimit = min(line.count, start + 64)
        while i < nameLimit, ByteScan.isLetter(line[i]) || ByteScan.isDigit(line[i]) || line[i] == 0x5F || line[i] == 0x2B || line[i] == 0x2D { i += 1 }
        guard i < line.count, line[i] == UInt8(ascii: ".") else { return false }
        let extensionStart = i + 1
        i = extensionStart
        while i < line.count, i - extensionStart < 4, ByteScan.isLetter(line[i]) { i += 1 }
        let ext = UnsafeRawBufferPointer(rebasing: line[extensionStart..<i])
        guard ext.elementsEqual("mm".utf8) || ext.elementsEqual("cpp".utf8) || ext.elementsEqual("cc".utf8) || ext.elementsEqual("c".utf8)
                || ext.elementsEqual("m".utf8) || ext.elementsEqual("h".utf8) || ext.elementsEqual("hpp".utf8),
              i < line.count, line[i] == UInt8(ascii: ":"), let digitsEnd = ByteScan.digits(line, at: i + 1),
              digitsEnd + 2 < line.count, ByteClass.isBlank(line[digitsEnd]), ByteClass.isBlank(line[digitsEnd + 1]) else { return false }
        let text = ByteScan.spaces(line, at: digitsEnd)
        return text < line.count
    }

    /// `->  0x…` (the instruction lldb stopped at), `image`symbol:` alone (a disassembly's label) or
    /// `Target N: (Name) stopped.`: lines of the debugger's stop report, never a message of their own.
    /// Asked of every bare line: the common case (a line that is none of these) costs two byte tests.
    @inline(__always)
    static func continuesDebuggerStop(_ line: UnsafeRawBufferPointer) -> Bool {
        let count = line.count
        guard count > 2 else { return false }
        let first = line[0]
        if first == UInt8(ascii: "-") { return line.hasPrefix("->  0x") }
        if first == UInt8(ascii: "T") { return endsTargetStop(line) }
        // `image`symbol:` with no blank: the label lldb prints above the disassembly.
        guard line[count - 1] == UInt8(ascii: ":") else { return false }
        return isDisassemblyLabel(line)
    }

    static func endsTargetStop(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.hasPrefix("Target "), let close = line.firstIndex(of: UInt8(ascii: ")"), from: 7, to: min(line.count, 200)) else { return false }
        return line.hasPrefix(") stopped.", at: close)
    }

    static func isDisassemblyLabel(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count < 400, let tick = line.firstIndex(of: 0x60, from: 1, to: line.count - 1), tick > 0 else { return false }
        return !line.contains(where: ByteClass.isBlank)
    }

    /// A top-left box corner (`┌` `┍` `┎` `┏` `╒` `╓` `╔` `╭`) or a horizontal line (`─` `━` `═`) opening a
    /// box, given the second and third bytes of its UTF-8 encoding.
    static func opensBox(_ second: UInt8, _ third: UInt8) -> Bool {
        second == 0x94 ? (0x8C...0x8F).contains(third) || third == 0x80 || third == 0x81
                       : (0x92...0x94).contains(third) || third == 0x90 || third == 0xAD
    }

    /// `Thread : Crashed: queue`, `Thread 3 Crashed:`, or a trap with its detail (`EXC_BAD_ACCESS
    /// KERN_INVALID_ADDRESS at 0x10`, `EXC_BREAKPOINT UNKNOWN at 0x…`, `EXC_CRASH (SIGABRT)`).
    static func isCrashBlockLine(_ line: UnsafeRawBufferPointer) -> Bool {
        if line.hasPrefix("Thread : Crashed:") { return true }
        // A crash reporter's signal and its code on lines of their own (`SIGSEGV`, `SEGV_ACCERR`,
        // `KERN_INVALID_ADDRESS at 0x10`).
        if isSignalLine(line) { return true }
        if line.hasPrefix("Thread ") {
            var i = 7
            let digits = i
            while i < line.count, line[i] >= 48, line[i] <= 57 { i += 1 }
            return i > digits && line.hasPrefix(" Crashed:", at: i)
        }
        guard line.hasPrefix("EXC_") else { return false }
        var i = 4
        while i < line.count, (line[i] >= 65 && line[i] <= 90) || line[i] == 95 { i += 1 }
        guard i > 4, i < line.count, line[i] == 32 else { return false }
        return line.hasPrefix(" KERN_", at: i) || line.hasPrefix(" UNKNOWN", at: i) || line.hasPrefix(" at 0x", at: i)
            || line.hasPrefix(" (SIG", at: i) || line.hasPrefix(" (code=", at: i) || line.hasPrefix(" 0x", at: i)
    }

    /// `SIGSEGV`, `SIGABRT (code 0)`, `SEGV_ACCERR`, `BUS_ADRALN at 0x…`, `KERN_INVALID_ADDRESS …`: an
    /// upper-case signal name or code opening the line, alone or before ` (`, ` at` or an address.
    static func isSignalLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first, first == UInt8(ascii: "S") || first == UInt8(ascii: "B") || first == UInt8(ascii: "K"),
              signalWords.contains(where: { line.hasPrefix($0) }) else { return false }
        var i = 0
        while i < line.count, (line[i] >= 65 && line[i] <= 90) || line[i] == 95 { i += 1 }
        var end = line.count
        while end > i, ByteClass.isBlank(line[end - 1]) { end -= 1 }
        // Crashlytics' signal, code and address (`SIGABRT ABORT 0x000000018fffa014`, `SIGSEGV SEGV_ACCERR 0x…`).
        if i < end, line[i] == 32 {
            var j = i + 1
            while j < end, (line[j] >= 65 && line[j] <= 90) || line[j] == 95 { j += 1 }
            if j > i + 1, j < end, line.hasPrefix(" 0x", at: j) { return true }
        }
        return i == end || line.hasPrefix(" (", at: i) || line.hasPrefix(" at ", at: i) || line.hasPrefix(" 0x", at: i)
    }

    /// The words a signal line opens with (`isSignalLine`), built once: it is asked of every bare line.
    static let signalWords: [StaticString] = ["SIGSEGV", "SIGABRT", "SIGBUS", "SIGILL", "SIGTRAP", "SIGKILL", "SEGV_", "BUS_", "KERN_"]

    /// `N  Image  0x… symbol`: a frame number, white space, an image name (which may hold spaces: `The
    /// Blue Alliance`, `Google Maps`), white space, an address. Crash reporters that print no address are
    /// frames too: `N | symbol (file.c:12)` (Bugly), and `N  image  symbol + 20` or `N  image  symbol
    /// (File.m:12)` with at least two words after the number.
    static func isFrameLine(_ line: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < line.count, i < 4, line[i] >= 48, line[i] <= 57 { i += 1 }
        guard i > 0, i < 4, i < line.count, ByteClass.isBlank(line[i]) else { return false }
        i = ByteScan.spaces(line, at: i)
        let imageStart = i
        // A pipe after the number (`3 | sqlite3WalCheckpoint (wal.c:3285)`), unless a time follows it: a logger's
        // table row (`0 | Thu Apr 21 2022 00:58:52 | DEBUG | …`).
        if i + 1 < line.count, line[i] == UInt8(ascii: "|"), ByteClass.isBlank(line[i + 1]) {
            let text = ByteScan.spaces(line, at: i + 1)
            return !EntrySplitter.opensWithDateOrWeekday(UnsafeRawBufferPointer(rebasing: line[text...]))
        }
        if endsLikeAddresslessFrame(line, from: imageStart) || isBareSymbol(line, from: imageStart) { return true }
        // The image name ends at the first white space followed by `0x` and a hex digit, within the width
        // a crash report gives image names.
        let limit = min(line.count - 3, imageStart + 64)
        while i < limit {
            if ByteClass.isBlank(line[i]), line[i + 1] == UInt8(ascii: "0"), line[i + 2] == UInt8(ascii: "x"),
               ByteScan.isHexDigit(line[i + 3]) {
                return i > imageStart
            }
            i += 1
        }
        return false
    }

    /// A line that only says lines were left out: `...`, `…`, `[...]`, `[…]`, `(...)`, white space around.
    static func isElision(_ line: UnsafeRawBufferPointer) -> Bool {
        var start = 0, end = line.count
        while start < end, ByteClass.isBlank(line[start]) { start += 1 }
        while end > start, ByteClass.isBlankOrCR(line[end - 1]) { end -= 1 }
        guard end - start >= 3, end - start <= 7 else { return false }
        var text = UnsafeRawBufferPointer(rebasing: line[start..<end])
        if (text.first == UInt8(ascii: "[") && text.last == UInt8(ascii: "]"))
            || (text.first == UInt8(ascii: "(") && text.last == UInt8(ascii: ")")) {
            text = UnsafeRawBufferPointer(rebasing: text[(text.startIndex + 1)..<(text.endIndex - 1)])
        }
        if text.count == 3, text.allSatisfy({ $0 == UInt8(ascii: ".") }) { return true }
        return text.count == 3 && text[text.startIndex] == 0xE2 && text[text.startIndex + 1] == 0x80 && text[text.startIndex + 2] == 0xA6
    }

    /// `#N 0x… in symbol`: a frame of gdb's or lldb's `bt`.
    static func isDebuggerFrameLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let digitsEnd = ByteScan.digits(line, at: 1), digitsEnd <= 4 else { return false }
        let addressStart = ByteScan.spaces(line, at: digitsEnd)
        guard addressStart > digitsEnd else { return false }
        // gdb's frame whose address it could not read: `#1  (null) in -[NSPersistentHistoryChangeRequest …] ()`.
        if line.hasPrefix("(null) in ", at: addressStart) { return true }
        guard line.hasPrefix("0x", at: addressStart) else { return isDartFrame(line, symbolStart: addressStart) }
        guard let addressEnd = ByteScan.hexNumber(line, at: addressStart) else { return false }
        return line.hasPrefix(" in ", at: addressEnd)
    }

    /// Dart's frame after its `#N` and blanks: a symbol, then its location in parentheses closing the line
    /// (`#0  SqfliteDatabaseMixin.openDatabase (package:sqflite_common/src/database_mixin.dart:971:16)`,
    /// `(dart:async/zone.dart:1234)`, `(file:///…)`).
    static func isDartFrame(_ line: UnsafeRawBufferPointer, symbolStart: Int) -> Bool {
        var end = line.count
        while end > symbolStart, ByteClass.isBlankOrCR(line[end - 1]) { end -= 1 }
        guard end - symbolStart > 8, line[end - 1] == UInt8(ascii: ")"),
              let open = line.firstIndex(of: UInt8(ascii: "("), from: symbolStart + 1, to: end) else { return false }
        guard line.hasPrefix("package:", at: open + 1) || line.hasPrefix("dart:", at: open + 1) || line.hasPrefix("file:", at: open + 1) else {
            return false
        }
        // The location is one token ending in its line (`…/database_mixin.dart:971:16)`, `…/exception.dart:101)`): not a
        // numbered print that ends in a parenthesis (`#1 Purchase done (package: premium)`).
        // (The VM leaves the position out when it has none: `#1      _CustomZone.run (dart:async/zone.dart)`.)
        var digits = end - 1
        while digits > open, line[digits - 1] >= 48, line[digits - 1] <= 57 { digits -= 1 }
        guard (digits < end - 1 && line[digits - 1] == UInt8(ascii: ":")) || line.hasPrefix(".dart)", at: end - 6) else { return false }
        return !(open + 1..<end - 1).contains { ByteClass.isBlank(line[$0]) }
    }

    /// The symbol alone after the frame number, as a page or a note trims a crashed thread to its symbols
    /// (`0 _dispatch_assert_queue_fail`, `4 swift_task_isCurrentExecutorWithFlagsImpl`, `5 _checkExpectedExecutor(…)
    /// [inlined]`, `6 @objc Controller.process(_:)   (<compiler-generated>:103)`, `12 -[NSPersistentStoreCoordinator
    /// _postStoreRemoteChangeNotificationsForStore:andState:]`): a method in brackets, `@objc`, a mangled name, or
    /// one token that only a symbol is (an underscore with a digit, a dot or a capital inside a word, or a call's
    /// parentheses) with at most `[inlined]` or a location in parentheses after it. Words after a number (`3 rows
    /// deleted`, `2 items_total`) are no symbol.
    static func isBareSymbol(_ line: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var end = line.count
        while end > start, ByteClass.isBlankOrCR(line[end - 1]) { end -= 1 }
        guard end - start >= 4 else { return false }
        let first = line[start]
        if (first == UInt8(ascii: "-") || first == UInt8(ascii: "+")), line[start + 1] == UInt8(ascii: "["),
           let close = (start + 2..<end).first(where: { line[$0] == UInt8(ascii: "]") }), close > start + 4 {
            return (start + 2..<close).contains { ByteClass.isBlank(line[$0]) }
        }
        if line.hasPrefix("@objc ", at: start) || line.hasPrefix("$s", at: start) { return true }
        // One token: letters, digits, `_`, `.`, `$`, with a call's parentheses at its end.
        var i = start
        var underscore = false, parenthesis = false, codeLike = line[start] == UInt8(ascii: "_")
        while i < end, !ByteClass.isBlank(line[i]) {
            let byte = line[i]
            // A digit, a dot or a lower-case letter before a capital (`sqlite3_step`, `objc_msgSend`) says code,
            // where `items_total` may be a word.
            if (byte >= 48 && byte <= 57) || byte == UInt8(ascii: ".") { codeLike = true }
            if byte >= 65, byte <= 90, i > start, line[i - 1] >= 97, line[i - 1] <= 122 { codeLike = true }
            if byte == UInt8(ascii: "(") {
                guard i > start, let close = (i..<end).first(where: { line[$0] == UInt8(ascii: ")") }) else { return false }
                parenthesis = true
                i = close + 1
                break
            }
            let wordByte = (byte >= 48 && byte <= 57) || (byte | 0x20 >= 97 && byte | 0x20 <= 122) || byte == UInt8(ascii: "_")
            guard wordByte || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "$") else { return false }
            if byte == UInt8(ascii: "_") { underscore = true }
            i += 1
        }
        guard (underscore && codeLike) || parenthesis, i - start >= 6 else { return false }
        // What may follow the symbol: nothing, `[inlined]`, or a location in parentheses.
        let rest = ByteScan.spaces(line, at: i)
        if rest >= end { return true }
        if line.hasPrefix("[inlined]", at: rest) { return rest + 9 >= end }
        return line[rest] == UInt8(ascii: "(") && line[end - 1] == UInt8(ascii: ")")
    }

    /// True when `line[from...]` is two words or more ending in a symbol offset (` + 20`) or a source
    /// location in parentheses (`(sqlite3.c:46418)`, `(FMDatabase.m:761)`).
    static func endsLikeAddresslessFrame(_ line: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var end = line.count
        while end > start, ByteClass.isBlank(line[end - 1]) { end -= 1 }
        guard end - start >= 8, let firstBlank = (start..<end).first(where: { ByteClass.isBlank(line[$0]) }),
              firstBlank > start else { return false }
        // ` + 20`: digits after a plus between spaces.
        var j = end
        while j > firstBlank, line[j - 1] >= 48, line[j - 1] <= 57 { j -= 1 }
        if j < end, j - 3 >= firstBlank, line[j - 1] == 32, line[j - 2] == UInt8(ascii: "+"), line[j - 3] == 32 { return true }
        // `File.ext:123` after a blank, as some crash reporters print the location (`16 App -[FMDatabase
        // executeQuery:] FMDatabase.m:895`): three words or more.
        if line[end - 1] != UInt8(ascii: ")") { return endsWithBareLocation(line, from: firstBlank, end: end) }
        // `(File.ext:123)`: a dotted file name and a line number closing the line.
        guard let location = fileLocation(line, after: firstBlank, end: end - 1, stopAtParenthesis: true) else { return false }
        return location.nameStart > firstBlank && line[location.nameStart - 1] == UInt8(ascii: "(")
    }

    /// `Name.ext:123` ending `line[..<end]`, the name dotted and after `lower`: where the name starts and
    /// where its colon is. The name ends at a blank (or at `(` when `stopAtParenthesis`).
    static func fileLocation(_ line: UnsafeRawBufferPointer, after lower: Int, end: Int, stopAtParenthesis: Bool)
        -> (nameStart: Int, colon: Int)? {
        var j = end
        while j > lower, line[j - 1] >= 48, line[j - 1] <= 57 { j -= 1 }
        guard j < end, j - 1 > lower, line[j - 1] == UInt8(ascii: ":") else { return nil }
        var k = j - 1
        var sawDot = false
        while k > lower, !ByteClass.isBlank(line[k - 1]), !(stopAtParenthesis && line[k - 1] == UInt8(ascii: "(")) {
            if line[k - 1] == UInt8(ascii: ".") { sawDot = true }
            k -= 1
        }
        return sawDot ? (k, j - 1) : nil
    }

    /// True when `line[..<end]` ends in a blank and `Name.ext:123`, with a symbol between `start` (the
    /// blank after the frame's image) and it.
    static func endsWithBareLocation(_ line: UnsafeRawBufferPointer, from start: Int, end: Int) -> Bool {
        guard let location = fileLocation(line, after: start, end: end, stopAtParenthesis: false),
              location.nameStart > start + 1, location.nameStart < location.colon - 1 else { return false }
        let k = location.nameStart
        // A symbol between the image and the location, with the punctuation symbols have (`-[A b:]`,
        // `A.b()`, `___23-[…]_block_invoke`), so a sentence (`12 tests failed in Suite.swift:40`) is none.
        let symbolStart = ByteScan.spaces(line, at: start)
        guard symbolStart < k - 1 else { return false }
        return (symbolStart..<(k - 1)).contains { b in
            let byte = line[b]
            return byte == UInt8(ascii: "[") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    /// Words that open a console entry: `CoreData:`, level words, `CoreData+CloudKit:`, `SwiftData/`.
    /// True when `line` holds, at `i`, a level in capitals that a column pads with two blanks or more (`INFO     `,
    /// `ERROR    `, `WARNING  `), as Python's rich handler prints it, then a bracket or a letter.
    static func opensWithPaddedLevel(_ line: UnsafeRawBufferPointer, at i: Int) -> Bool {
        guard i < line.count, line[i] >= 65, line[i] <= 90 else { return false }
        for level in paddedLevels where line.hasPrefix(level, at: i) {
            let end = i + level.utf8CodeUnitCount
            guard end + 2 < line.count, line[end] == 32, line[end + 1] == 32 else { return false }
            let text = ByteScan.spaces(line, at: end)
            return text < line.count && (line[text] == UInt8(ascii: "[") || (line[text] | 0x20) >= 97 && (line[text] | 0x20) <= 122)
        }
        return false
    }

    static let paddedLevels: [StaticString] = ["INFO", "ERROR", "WARNING", "DEBUG", "CRITICAL"]

    /// True when `line` holds, at `i` (four blanks in at most), a step counter in brackets (`[1/4] `) or a progress
    /// bar (`[####……]`, `[=====>   ]`, an elapsed time before one: `[0s] [####]`).
    static func opensWithStepCounter(_ line: UnsafeRawBufferPointer, at i: Int) -> Bool {
        guard i <= 4, i + 2 < line.count, line[i] == UInt8(ascii: "[") else { return false }
        if line[i + 1] == UInt8(ascii: "#") || (line[i + 1] == UInt8(ascii: "=") && line[i + 2] == UInt8(ascii: "=")) { return true }
        guard let number = ByteScan.digits(line, at: i + 1), number + 2 < line.count else { return false }
        switch line[number] {
        case UInt8(ascii: "s"), UInt8(ascii: "m"), UInt8(ascii: "h"):
            return line[number + 1] == UInt8(ascii: "]") && line[number + 2] == 32
        case UInt8(ascii: "/"):
            guard let close = ByteScan.digits(line, at: number + 1) else { return false }
            return close + 1 < line.count && line[close] == UInt8(ascii: "]") && line[close + 1] == 32
        default:
            return false
        }
    }

    static func startsEntryWord(_ line: UnsafeRawBufferPointer, at i: Int) -> Bool {
        line.hasPrefix("CoreData", at: i) || line.hasPrefix("error: ", at: i) || line.hasPrefix("warning: ", at: i)
            || line.hasPrefix("debug: ", at: i) || line.hasPrefix("fault: ", at: i) || line.hasPrefix("info: ", at: i)
            || line.hasPrefix("annotation: ", at: i) || line.hasPrefix("SwiftData/", at: i)
            // A library's or a framework's own level word in capitals (Qt's `WARNING: QApplication was not created
            // in the main() thread.`, a wrapper's `ERROR: …`): a message of its own, never the rest of another.
            || line.hasPrefix("WARNING: ", at: i) || line.hasPrefix("ERROR: ", at: i) || line.hasPrefix("FATAL: ", at: i)
    }
}
