import CDLogCore
import CrashReports

extension CrashReportReader {
    /// Parses a whole crash-report document into one entry per report, each with the preset fields and
    /// summary text `CrashSummary` gives it. Throws a `ToolFailure` with a one-line message when the
    /// document is larger than `EntryLimits.maxDocumentBytes` or holds no report that can be read.
    public static func entries(fromDocument bytes: [UInt8], source: String) throws -> [Entry] {
        guard bytes.count <= EntryLimits.maxDocumentBytes else {
            throw ToolFailure("\(source): crash report larger than \(EntryLimits.maxDocumentBytes >> 20) MB")
        }
        return try reports(fromDocument: bytes, source: source).map { CrashSummary.entry(for: $0, source: source) }
    }
}
