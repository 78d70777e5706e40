import CDLogCore

/// Where something came from in a rule file (1-based line and column).
public struct SourceLocation: Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public var description: String { "\(file):\(line):\(column)" }
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
}
