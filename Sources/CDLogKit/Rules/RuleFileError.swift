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

    public var headline: String { "\(file):\(line):\(column): error: \(message)" }

    public var description: String {
        guard let sourceLine else { return headline }
        let caretPad = String(repeating: " ", count: max(0, column - 1))
        return "\(headline)\n\(sourceLine)\n\(caretPad)^"
    }
}
