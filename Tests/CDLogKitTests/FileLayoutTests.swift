import Foundation
import Testing

/// One primary type per file (docs/architecture.md, "Layers", the paragraph "Files"). Every Swift file under Sources
/// (`main.swift` aside):
/// 1. is named after a type it declares or extends at the top level: `Type.swift`, or `Type+Topic.swift`
///    (the part before `+` is the type). A file that declares and extends no type holds free functions
///    and is named after one of them, capitalised (`Counted.swift` holds `counted`);
/// 2. declares no other top-level type (struct, class, enum, protocol, actor) longer than
///    `maxSecondaryLines` lines from its declaration to its closing brace: anything bigger has a file of
///    its own. Small helpers used only by the primary type (an error, a private row type) may stay.
///
/// Like `LayeringTests`, the check reads the sources line by line, with comments and one-line string
/// literals removed (`LayeringTests.code`): a top-level declaration is one on a line that is not indented,
/// and it ends at the next unindented `}` (or on its own line when its braces balance there).
@Suite struct FileLayoutTests {
    /// The longest a type other than the file's primary one may be.
    static let maxSecondaryLines = 40


    struct Declaration: Equatable {
        /// `struct`, `class`, `enum`, `protocol`, `actor`, `extension` or `func`.
        var kind: String
        var name: String
        /// Lines from the declaration to its closing brace, both included (0 for a `func`).
        var lines: Int
    }

    @Test func everyFileIsNamedAfterItsTypeAndHoldsNoOtherLargeType() throws {
        let root = LayeringTests.sources.resolvingSymlinksInPath().path + "/"
        var checked = 0
        var problems: [String] = []
        for file in try LayeringTests.swiftFiles(in: LayeringTests.sources) where file.lastPathComponent != "main.swift" {
            let path = file.resolvingSymlinksInPath().path
            #expect(path.hasPrefix(root), "\(path) is not under \(root)")
            let relative = String(path.dropFirst(root.count))
            let text = try String(contentsOf: file, encoding: .utf8)
            problems += Self.problems(fileName: file.lastPathComponent, text: text).map { "\(relative): \($0)" }
            checked += 1
        }
        #expect(checked > 100, "too few files checked: \(checked)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theCheckFindsViolations() {
        let small = (1...38).map { "    var v\($0) = 0" }.joined(separator: "\n")
        let large = (1...39).map { "    var v\($0) = 0" }.joined(separator: "\n")
        let primary = "import CDLogCore\n\n/// Docs.\npublic struct Parser {\n    struct Nested {\n    }\n}\n"

        // Named after its type, with a 40-line helper, a one-line one, a nested type and commented-out code.
        let good = primary + "\n/// Helper.\nstruct Helper {\n\(small)\n}\n\nenum Mode { case a, b }\n// class Fake {\n"
        #expect(Self.problems(fileName: "Parser.swift", text: good) == [])
        #expect(Self.declarations(in: LayeringTests.code(good)) == [
            Declaration(kind: "struct", name: "Parser", lines: 4), Declaration(kind: "struct", name: "Helper", lines: 40),
            Declaration(kind: "enum", name: "Mode", lines: 1),
        ])
        // A 41-line helper must move to a file of its own.
        let big = primary + "\nfinal class Helper: Sendable {\n\(large)\n}\n"
        #expect(Self.problems(fileName: "Parser.swift", text: big) == ["class Helper is 41 lines (at most 40 beside the file's primary type Parser): give it a file of its own"])
        // A file named after nothing it declares; the name in a string or a comment does not count.
        let misnamed = "// Tools\nlet s = \"struct Tools\"\nenum Format {}\nextension String {}\n"
        #expect(Self.problems(fileName: "Tools.swift", text: misnamed) == ["named Tools, which is no type it declares or extends (Format, String)"])
        // Type+Topic for a file that extends the type; a file of free functions named after one of them.
        #expect(Self.problems(fileName: "String+Lines.swift", text: "extension String {\n    var x: Int { 0 }\n}\n") == [])
        #expect(Self.problems(fileName: "Counted.swift", text: "/// Doc.\npublic func counted(_ n: Int) -> String {\n    \"\"\n}\n") == [])
        #expect(Self.problems(fileName: "Helpers.swift", text: "func counted(_ n: Int) -> String { \"\" }\n") == ["named Helpers, which is no type it declares or extends and no function it holds (counted)"])
    }

    // MARK: - The check

    /// What is wrong with the layout of the file `fileName` holding `text` (empty: nothing).
    static func problems(fileName: String, text: String) -> [String] {
        let stem = fileName.hasSuffix(".swift") ? String(fileName.dropLast(".swift".count)) : fileName
        let base = String(stem.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let declarations = declarations(in: LayeringTests.code(text))
        let types = declarations.filter { $0.kind != "func" }
        var problems: [String] = []
        if types.isEmpty {
            let functions = declarations.map(\.name)
            if !functions.contains(where: { $0.prefix(1).uppercased() + $0.dropFirst() == base }) {
                problems.append("named \(base), which is no type it declares or extends and no function it holds (\(functions.joined(separator: ", ")))")
            }
            return problems
        }
        if !types.contains(where: { $0.name == base }) {
            var names: [String] = []
            for type in types where !names.contains(type.name) { names.append(type.name) }
            problems.append("named \(base), which is no type it declares or extends (\(names.joined(separator: ", ")))")
        }
        for type in types where type.kind != "extension" && type.name != base && type.lines > maxSecondaryLines {
            problems.append("\(type.kind) \(type.name) is \(type.lines) lines (at most \(maxSecondaryLines) beside the file's primary type \(base)): give it a file of its own")
        }
        return problems
    }

    /// The top-level types, extensions and functions of `code` (comments and strings already removed), in
    /// order. An extension of `A.B` counts as one of `A`.
    static func declarations(in code: String) -> [Declaration] {
        let keywords: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "extension", "func"]
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [Declaration] = []
        for (index, line) in lines.enumerated() where !(line.first?.isWhitespace ?? true) && line.first != "}" {
            let words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
            guard !words.contains("import"), let at = words.firstIndex(where: { keywords.contains($0) }), at + 1 < words.count else { continue }
            let kind = String(words[at]), name = String(words[at + 1])
            if kind == "func" {
                found.append(Declaration(kind: kind, name: name, lines: 0))
                continue
            }
            guard name.first?.isUppercase == true else { continue }
            let opened = line.filter { $0 == "{" }.count, closed = line.filter { $0 == "}" }.count
            var end = index
            if opened == 0 || opened != closed {
                end = lines[(index + 1)...].firstIndex { $0.first == "}" } ?? lines.count - 1
            }
            found.append(Declaration(kind: kind, name: name, lines: end - index + 1))
        }
        return found
    }
}
