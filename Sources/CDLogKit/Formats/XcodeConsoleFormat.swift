/// Xcode's console without a prefix (iOS 14+ default), bare `Error Domain=…`/`<CKError …>` text, and the
/// fallback for anything unrecognised.
///
/// A line starts a new entry unless it is a continuation: it begins with whitespace (and is not a
/// leading-space `CoreData:`/`error:` line), `}`, `)`, `Error Domain=` or `<CKError` (DOMAIN.md §4).
public struct XcodeConsoleFormat: LineFormat {
    public let format = InputFormat.xcode
    public init() {}

    public func header(of line: UnsafeRawBufferPointer) -> LineHeader? {
        guard let first = line.first else { return nil }
        if ByteScan.isSpace(first) {
            // Xcode sometimes prints entries with a leading space; keep those as entries.
            let start = ByteScan.spaces(line, at: 0)
            if start <= 2, XcodeConsoleFormat.startsEntryWord(line, at: start) {
                return LineHeader(messageStart: start)
            }
            return nil
        }
        if first == UInt8(ascii: "}") || first == UInt8(ascii: ")") { return nil }
        if line.hasPrefix("Error Domain=") || line.hasPrefix("<CKError") { return nil }
        return LineHeader(messageStart: 0)
    }

    /// Words that open a console entry: `CoreData:`, level words, `CoreData+CloudKit:`, `SwiftData/`.
    static func startsEntryWord(_ line: UnsafeRawBufferPointer, at i: Int) -> Bool {
        line.hasPrefix("CoreData", at: i) || line.hasPrefix("error: ", at: i) || line.hasPrefix("warning: ", at: i)
            || line.hasPrefix("debug: ", at: i) || line.hasPrefix("fault: ", at: i) || line.hasPrefix("info: ", at: i)
            || line.hasPrefix("annotation: ", at: i) || line.hasPrefix("SwiftData", at: i)
    }
}
