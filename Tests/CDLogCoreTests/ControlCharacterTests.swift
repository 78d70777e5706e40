import CDLogCore
import Testing

/// Issue 22: ESC, BEL, OSC and other control bytes from logs, stores and file names never reach a
/// terminal as they are.
@Suite struct ControlCharacterTests {
    @Test func controlCharactersBecomeVisibleEscapes() {
        #expect(visibleControlCharacters("a\u{1B}[31mred\u{07}") == "a\\x1B[31mred\\x07")
        #expect(visibleControlCharacters("\u{9B}2J\u{7F}") == "\\x9B2J\\x7F")
        #expect(visibleControlCharacters("line one\nline\ttwo") == "line one\nline\ttwo")
        #expect(visibleControlCharacters("plain — ünïcode") == "plain — ünïcode")
        #expect(visibleControlCharacters("\r\0") == "\\x0D\\x00")
    }

    @Test func oneValueOnOneLineAndNoReordering() {
        #expect(visibleControlCharacters("U1\n[fatal] x\t", newlines: true) == "U1\\x0A[fatal] x\\x09")
        #expect(visibleControlCharacters("abc\u{202E}fed\u{2066}") == "abc\\u202Efed\\u2066")
        // Neighbours of the bidi controls in UTF-8 (… ’ ‘) stay as they are.
        #expect(visibleControlCharacters("a… b’s ‘c’ \u{2065}") == "a… b’s ‘c’ \u{2065}")
    }
}

@Suite struct FileSystemPathTests {
    @Test func invalidBytesAreShownAndMappedBack() {
        #expect(FileSystemPath.decode(Array("plain/ünï.log".utf8)) == "plain/ünï.log")
        let raw: [UInt8] = Array("dir".utf8) + [0xFE, UInt8(ascii: "/"), UInt8(ascii: "s"), 0xC3, UInt8(ascii: "x")] + Array(".sqlite".utf8)
        let shown = FileSystemPath.decode(raw)
        #expect(shown == "dir\\xFE/s\\xC3x.sqlite")
        #expect(FileSystemPath.rawBytes(shown) == raw)
        // A companion built by appending, and a temporary file named after the component, keep the bytes.
        #expect(FileSystemPath.rawBytes(shown + "-wal") == raw + Array("-wal".utf8))
        #expect(FileSystemPath.rawBytes("dir\\xFE/.s\\xC3x.sqlite.tmp") == Array("dir".utf8) + [0xFE] + Array("/.s".utf8) + [0xC3] + Array("x.sqlite.tmp".utf8))
        #expect(FileSystemPath.bytes("a\\b").last == 0)
        #expect(FileSystemPath.rawBytes("a\\b") == Array("a\\b".utf8))
    }
}
