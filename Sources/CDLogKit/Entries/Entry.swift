import CDLogCore

/// One log entry (or one crash report) as it was read from a source, before classification.
///
/// Contract: `line`/`endLine` are 1-based line numbers of the source that the entry spans (inclusive);
/// `message` is the text rules match: the entry's text without the format's prefix columns, with
/// continuation lines joined by "\n", decoded as UTF-8 with invalid bytes replaced by U+FFFD, and at most
/// `EntryLimits.maxMessageBytes` long (`truncated` says the cap was hit).
public struct Entry: Sendable {
    /// The source's name as given on the command line (`-` for stdin).
    public var source: String
    public var line: Int
    public var endLine: Int
    public var message: String
    /// ISO 8601 timestamp, normalised (`2021-08-10T15:27:55.123456+08:00`), when the format carries one.
    public var timestamp: String?
    public var process: String?
    public var pid: Int?
    public var threadID: String?
    public var subsystem: String?
    /// The os_log category (`cloudkit`), not a cdlog category.
    public var logCategory: String?
    /// The level word the format printed (`Default`, `Error`, `<Error>`, `error`), lower-cased; informative only.
    public var level: String?
    /// True when the message was cut at `EntryLimits.maxMessageBytes`.
    public var truncated: Bool = false
    /// Fields already known before any rule runs (crash reports fill these from their parsed structure).
    public var presetFields: [(name: String, value: String)] = []
    /// The input format the entry was read in.
    public var format: InputFormat
    /// For a crash report: what its findings' fingerprint is made of instead of the message (`Fingerprint`).
    public var fingerprintBasis: String?

    public init(source: String, line: Int, endLine: Int, message: String, format: InputFormat) {
        self.source = source
        self.line = line
        self.endLine = endLine
        self.message = message
        self.format = format
    }
}
