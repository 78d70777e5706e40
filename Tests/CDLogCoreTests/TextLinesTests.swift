import CDLogCore
import Testing

/// `textLines`: Swift reads `\r\n` as one Character, so `split(separator: "\n")` leaves a Windows text whole.
@Suite struct TextLinesTests {
    @Test func windowsAndUnixLineEndsSplitAlike() {
        #expect("a\r\nb\r\n\r\nc".textLines() == ["a", "b", "", "c"])
        #expect("a\nb\n\nc".textLines() == ["a", "b", "", "c"])
        #expect("a\r\nb".split(separator: "\n").count == 1, "the Character split this replaces")
    }

    @Test func emptyLinesAndEndsAsSplitDoes() {
        #expect("".textLines() == [""])
        #expect("a\n".textLines() == ["a", ""])
        #expect("".textLines(omittingEmpty: true).isEmpty)
        #expect("\r\na\r\n\r\n".textLines(omittingEmpty: true) == ["a"])
        // A carriage return inside a line stays; only the one before a line feed goes.
        #expect("a\rb\r\nc".textLines() == ["a\rb", "c"])
        #expect("é\r\n🙂".textLines() == ["é", "🙂"])
    }
}
