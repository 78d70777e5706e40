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
