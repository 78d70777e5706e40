import Testing
@testable import CDLogCore

@Suite struct JSONWriterTests {
    @Test func escapesControlCharactersQuotesAndBackslashes() {
        #expect(JSONWriter.quoted("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    }

    @Test func keepsKeyOrderAndCommas() {
        var w = JSONWriter()
        w.beginObject(); w.field("b", 1); w.field("a", "x"); w.key("n"); w.null()
        w.key("list"); w.beginArray(); w.int(1); w.int(2); w.endArray(); w.endObject()
        #expect(w.text == #"{"b":1,"a":"x","n":null,"list":[1,2]}"#)
    }

    @Test func severityOrderAndNames() {
        #expect(Severity.debug < Severity.fatal)
        #expect(Severity(name: "WARNING") == .warning)
        #expect(Severity(name: "bogus") == nil)
    }
}
