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
}
