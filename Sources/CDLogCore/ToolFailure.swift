/// An error that ends a command with a one-line message on stderr and `ExitStatus.failure`.
///
/// Library code throws this (or an error conforming to `CustomStringConvertible`) instead of printing;
/// the executables decide how to print it. `message` must be one line and name the offending input.
public struct ToolFailure: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String
    /// Optional lines printed after the message (a source line and a caret under the error).
    public let detail: String?
    public init(_ message: String, detail: String? = nil) {
        self.message = message.textLines().joined(separator: " ")
        self.detail = detail
    }
    public var description: String { message }
}
