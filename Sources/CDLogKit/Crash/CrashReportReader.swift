import CDLogCore

// Placeholder until the crash-report issue lands; the real reader replaces this file.
public enum CrashReportReader {
    public static func looksLikeCrashReport(_ prefix: ArraySlice<UInt8>) -> Bool { false }
    public static func entries(fromDocument bytes: [UInt8], source: String) throws -> [Entry] { [] }
    public static func isPastedReportStart(_ line: Substring) -> Bool { false }
}
