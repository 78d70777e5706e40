import Foundation
import Testing

/// Issue 22: ESC, OSC, BEL, CR and bidi overrides from log content and file names are shown as `\xNN`
/// in every human-readable output, whatever the colour setting; only cdlog's own colours reach the
/// terminal.
@Suite struct TerminalEscapeTests {
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\r\u{202E}"
    static let log = """
    2024-01-01 10:00:01.000000+0000 App[1:2] CoreData: error: Store failed to load. NSSQLiteErrorDomain=11 \(hostile) the end
    2024-01-01 10:00:02.000000+0000 App[1:2] CoreData: debug: CoreData+CloudKit: unclassified note \(hostile) the end

    """

    func run(_ arguments: [String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-escapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "app\u{1B}[31m\u{07}.log"
        try Data(Self.log.utf8).write(to: directory.appendingPathComponent(name))
        let r = try BinaryRunner.cdlog(arguments + [name], directory: directory)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        return r.stdout
    }

    @Test(arguments: [["classify", "--color", "never"], ["classify", "--all", "--color", "never"], ["classify", "--all", "--format", "markdown"],
                      ["classify", "--all", "--threads", "2", "--color", "never"], ["report"], ["report", "--format", "html"]])
    func noControlCharacterReachesTheTerminal(_ arguments: [String]) throws {
        let out = try run(arguments)
        #expect(!out.isEmpty)
        for scalar in out.unicodeScalars {
            let v = scalar.value
            let hidden = (v < 0x20 && v != 0x0A && v != 0x09) || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
            #expect(!hidden, "\(arguments): U+\(String(v, radix: 16)) in the output")
            if hidden { break }
        }
        #expect(out.contains("\\x1B"), "\(arguments): the bytes are shown, escaped")
    }

    @Test func onlyCdlogsOwnColoursWithColourOn() throws {
        let out = try run(["classify", "--all", "--color", "always"])
        #expect(out.contains("\u{1B}[1;31m"), "colour is on")
        #expect(!out.contains("\u{1B}]") && !out.contains("\u{1B}[2J") && !out.contains("\u{07}") && !out.contains("\r"))
    }
}
