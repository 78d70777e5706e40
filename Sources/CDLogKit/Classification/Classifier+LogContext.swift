import CDLogCore

/// The unified log's own marks on an entry: its subsystem (`com.apple.coredata`), its library column
/// (`(CoreData)`) and its level (`Error`, `Fault`). Core Data, CloudKit and SwiftData often log a message
/// whose text names none of them (`error:   file is not a symbolic link`); the prefix does.
extension Classifier {
    /// Reads again, as its framework's error line, an entry that no rule recognised but whose prefix says it
    /// is Core Data's, CloudKit's or SwiftData's at error or fault level: `CoreData: error: <message>`
    /// (`fault:` for a fault). A rule or the fallback then names it, so that such an entry is never silent.
    /// Nil for every other entry: another level (a healthy log's Default and Info lines stay quiet), no
    /// persistence subsystem or library, or a format whose prefix names no subsystem.
    public func classifyByLogContext(_ raw: RawEntry, scratch: Scratch) -> Classification? {
        guard raw.format.prefixNamesSubsystem, raw.prepared == nil,
              let level = Self.failureLevel(raw), let framework = Self.persistenceFramework(raw) else { return nil }
        var bytes = Array(framework.utf8)
        bytes.append(contentsOf: level == .fault ? Array(": fault: ".utf8) : Array(": error: ".utf8))
        bytes.append(contentsOf: raw.message.bytes)
        return bytes.withUnsafeMutableBytes { classify(message: UnsafeRawBufferPointer($0), scratch: scratch) }
    }

    /// `.error` or `.fault` when the entry's level says so (`Error`, `Fault`, compact `E`/`F`, Console.app's
    /// `error`/`fault`, syslog's `<Error>`), else nil.
    static func failureLevel(_ raw: RawEntry) -> FailureLevel? {
        guard let range = raw.header.level, range.lowerBound >= 0, range.upperBound <= raw.prefix.count else { return nil }
        var word = raw.prefix[range]
        if word.count >= 2, word.first == UInt8(ascii: "<"), word.last == UInt8(ascii: ">") {
            word = UnsafeRawBufferPointer(rebasing: word[(word.startIndex + 1)..<(word.endIndex - 1)])
        }
        guard let first = word.first else { return nil }
        let lower = Array(word).map { $0 | 0x20 }
        switch first | 0x20 {
        case UInt8(ascii: "e") where lower.count == 1 || lower.elementsEqual("error".utf8): return .error
        case UInt8(ascii: "f") where lower.count == 1 || lower.elementsEqual("fault".utf8): return .fault
        default: return nil
        }
    }

    enum FailureLevel { case error, fault }

    /// `CoreData`, `CloudKit` or `SwiftData` when the entry's subsystem is Apple's for it or its library
    /// column names it, else nil.
    static func persistenceFramework(_ raw: RawEntry) -> String? {
        if let range = raw.header.subsystem, range.lowerBound >= 0, range.upperBound <= raw.prefix.count {
            let subsystem = Array(raw.prefix[range]).map { $0 | 0x20 }
            for (name, framework) in subsystems where subsystem.starts(with: name.utf8) { return framework }
        }
        let prefix = raw.prefix.bytes
        for (token, framework) in libraries where prefix.contains(sequence: token) { return framework }
        return nil
    }

    /// Lower-cased subsystem prefixes and the framework each names.
    static let subsystems: [(String, String)] = [("com.apple.coredata", "CoreData"), ("com.apple.cloudkit", "CloudKit"),
                                                 ("com.apple.swiftdata", "SwiftData")]
    /// The library column of `log show` (`App: (CoreData) [sub:cat] …`) and the framework it names.
    static let libraries: [(StaticString, String)] = [("(CoreData) ", "CoreData"), ("(CloudKit) ", "CloudKit"),
                                                      ("(SwiftData) ", "SwiftData")]
}
