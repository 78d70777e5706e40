/// A problem in a rule file, pointing at the offending line and column.
///
/// `description` is the compiler-style first line (`Rules/x.yaml:42:17: error: …`) followed, when the
/// source line is known, by that line and a caret under the column.
public struct RuleFileError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String
    public let sourceLine: String?

    public init(file: String, line: Int, column: Int, message: String, sourceLine: String?) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.sourceLine = sourceLine
    }

    public var headline: String { "\(file):\(line):\(column): error: \(message)" }

    public var description: String {
        guard let excerpt else { return headline }
        return "\(headline)\n\(excerpt)"
    }

    /// Line `number` (1-based) of `text`, without its line break; nil when there is no such line. For
    /// the loaders of rule, code-table and diagnosis files.
    public static func line(_ number: Int, of text: String) -> String? {
        guard number >= 1 else { return nil }
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard number <= lines.count else { return nil }
        var bytes = Array(lines[number - 1])
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The widest source line shown: a longer one is cut to a window around the column, with `…`
    /// marking the cuts, so a huge line never goes to stderr whole.
    @_spi(Testing) public static let excerptWidth = 120

    /// The source line (or its window around `column`) and a caret under the column; control characters
    /// shown as `?`. Nil when the line is unknown.
    public var excerpt: String? {
        guard let sourceLine else { return nil }
        let characters = Array(sourceLine.unicodeScalars)
        let target = max(0, column - 1)
        var start = 0, end = characters.count
        if characters.count > RuleFileError.excerptWidth {
            start = max(0, min(target - RuleFileError.excerptWidth / 2, characters.count - RuleFileError.excerptWidth))
            end = min(characters.count, start + RuleFileError.excerptWidth)
        }
        var shown = start > 0 ? "…" : ""
        for scalar in characters[start..<end] {
            shown.unicodeScalars.append(scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F ? "?" : scalar)
        }
        if end < characters.count { shown += "…" }
        let caret = String(repeating: " ", count: max(0, target - start + (start > 0 ? 1 : 0))) + "^"
        return shown + "\n" + caret
    }
}
