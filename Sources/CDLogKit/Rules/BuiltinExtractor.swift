import CDLogCore

/// A built-in field extractor that a rule can ask for (see Rules/README.md).
public enum BuiltinExtractor: String, CaseIterable, Sendable {
    case retryAfter
    case partialErrors
    case errorCode
    case exception
}
