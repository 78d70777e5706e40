/// Limits that keep memory bounded whatever the input.
public enum EntryLimits {
    /// An entry's message is cut after this many bytes (a 20 MB line cannot exhaust memory).
    public static let maxMessageBytes = 1 << 20
    /// A crash report or JSON document is read whole up to this size; larger ones are an error.
    public static let maxDocumentBytes = 64 << 20
}
