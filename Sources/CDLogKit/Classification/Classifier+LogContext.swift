import CDLogCore

/// The unified log's own marks on an entry: its subsystem (`com.apple.coredata`), its library column
/// (`(CoreData)`) and its level (`Error`, `Fault`). Core Data, CloudKit and SwiftData often log a message
/// whose text names none of them (`error:   file is not a symbolic link`); the prefix does.
extension Classifier {
    /// Reads again, as its framework's error line, an entry that no rule recognised but whose prefix says it
    /// is Core Data's, CloudKit's or SwiftData's at error or fault level: `CoreData: error: <message>`
    /// (`fault:` for a fault). A rule or the fallback then names it, so that such an entry is never silent.
    /// A prefix that names the subsystem but prints no level (Xcode's console with its metadata: `… App[1:2]
    /// [com.apple.swiftdata:PersistentModel] Illegal attempt …`) is read as `SwiftData: <message>`: the
    /// message's own words must then say it failed. Nil for every other entry: another level (a healthy log's
    /// Default and Info lines stay quiet), no persistence subsystem or library, or a format whose prefix
    /// names no subsystem.
    public func classifyByLogContext(format: InputFormat, header: LineHeader, prefix: ByteStore, message: UnsafeRawBufferPointer,
                                     scratch: Scratch) -> Classification? {
        if let found = classifyByFramework(format: format, header: header, prefix: prefix, message: message, scratch: scratch) {
            return found
        }
        if let found = classifyByTag(header: header, prefix: prefix, message: message, scratch: scratch) { return found }
        // iCloud's own sync daemons (`cloudd`, `bird`, `syncdefaultsd`) print their routine work with no framework
        // word in the text (`[Operation 0x100ece130] Starting operation`): the process in the prefix says whose it
        // is, and the message is read as that process's line (`cloudd: …`) for the rules to name. A failure only
        // the fallback would name stays quiet: the daemons serve every app and the system's own containers, and
        // their complaints about those are not the app's (a Console.app capture's `cloudd` error about a keychain
        // backup container, labelled noise).
        guard let daemon = Self.syncDaemon(header.process, in: prefix) else { return nil }
        return rereadQuietly(Array(daemon.utf8) + Array(": ".utf8), message: message, scratch: scratch)
    }

    /// `message` classified again after `lead` (the name a prefix or a category gave the entry), where a finding only a
    /// catch-all would give above `info` stays quiet: the name says whose line it is, not that its failure is the store's.
    private func rereadQuietly(_ lead: [UInt8], message: UnsafeRawBufferPointer, scratch: Scratch) -> Classification? {
        var bytes = lead
        bytes.append(contentsOf: message)
        let found = bytes.withUnsafeMutableBytes { classify(message: UnsafeRawBufferPointer($0), scratch: scratch) }
        guard let found, !found.rule.isCatchAll || found.severity <= .info else { return nil }
        return found
    }

    /// Reads again, with its log category in brackets before it, an entry that no rule recognised and whose category
    /// names a persistence library or layer (Amplify DataStore's `[RemoteSyncEngine] New state: performingInitialSync`,
    /// an app's `Logger(category: "CloudKit")`): Xcode's console prints the category before the message, and the
    /// message alone often names nothing (`tags` in Rules/tables/fallback.yaml; round 135). Not a category of Apple's
    /// own subsystems (`[com.apple.photos.backend:Database]`: the system's database, not the app's). As for the sync
    /// daemons, a failure only a catch-all would name stays quiet: a category says whose line it is, not that the
    /// failure it reports is the store's (`[Database] Failed to load avatar image: 404`).
    private func classifyByTag(header: LineHeader, prefix: ByteStore, message: UnsafeRawBufferPointer, scratch: Scratch) -> Classification? {
        guard let range = header.logCategory, range.lowerBound >= 0, range.upperBound <= prefix.count, range.count >= 2,
              let reading = persistenceTagReading(prefix[range]) else { return nil }
        if let subsystem = header.subsystem, subsystem.lowerBound >= 0, subsystem.upperBound <= prefix.count,
           prefix[subsystem].hasPrefix("com.apple.") { return nil }
        return rereadQuietly([UInt8(ascii: "[")] + reading + Array("] ".utf8), message: message, scratch: scratch)
    }

    /// `cloudd`, `bird` or `syncdefaultsd` when the entry's process (the name before a `(library)`, a `[pid]`
    /// or its end) is that daemon, else nil. Asked of every entry nothing recognised: one byte is read first.
    @inline(__always)
    static func syncDaemon(_ processRange: Range<Int>?, in prefix: ByteStore) -> String? {
        guard let range = processRange, range.lowerBound >= 0, range.upperBound <= prefix.count, range.count >= 4 else { return nil }
        let first = prefix.bytes[range.lowerBound]
        guard first == UInt8(ascii: "c") || first == UInt8(ascii: "b") || first == UInt8(ascii: "s") else { return nil }
        let process = prefix[range]
        for name in syncDaemons where process.count >= name.utf8CodeUnitCount && process.hasPrefix(name) {
            let end = name.utf8CodeUnitCount
            if end == process.count || process[end] == UInt8(ascii: "(") || process[end] == UInt8(ascii: "[") { return name.description }
        }
        return nil
    }

    /// iCloud's sync daemons, by process name.
    static let syncDaemons: [StaticString] = ["cloudd", "bird", "syncdefaultsd"]

    /// The framework reading of `classifyByLogContext`: an entry whose subsystem or library names Core Data,
    /// CloudKit or SwiftData at error or fault level.
    private func classifyByFramework(format: InputFormat, header: LineHeader, prefix: ByteStore, message: UnsafeRawBufferPointer,
                                     scratch: Scratch) -> Classification? {
        let level: FailureLevel?
        let framework: String?
        if format.prefixNamesSubsystem {
            level = Self.failureLevel(header.level, in: prefix)
            guard level != nil || header.level == nil else { return nil }
            framework = Self.persistenceFramework(header.subsystem, in: prefix)
        } else {
            // Xcode's console names a subsystem now and then, and prints no level: asked of every entry no rule
            // recognised, so the subsystem's first byte is read before anything else.
            guard let range = header.subsystem, range.lowerBound >= 0, range.lowerBound < prefix.count,
                  prefix.bytes[range.lowerBound] | 0x20 == UInt8(ascii: "c") else { return nil }
            level = nil
            framework = Self.subsystemFramework(range, in: prefix)
        }
        guard let framework else { return nil }
        var bytes = Array(framework.utf8)
        switch level {
        case .fault: bytes.append(contentsOf: ": fault: ".utf8)
        case .error: bytes.append(contentsOf: ": error: ".utf8)
        case nil: bytes.append(contentsOf: ": ".utf8)
        }
        bytes.append(contentsOf: message)
        return bytes.withUnsafeMutableBytes { classify(message: UnsafeRawBufferPointer($0), scratch: scratch) }
    }

    /// `.error` or `.fault` when the entry's level says so (`Error`, `Fault`, compact `E`/`F`, Console.app's
    /// `error`/`fault`, syslog's `<Error>`), else nil.
    @inline(__always)
    static func failureLevel(_ level: Range<Int>?, in prefix: ByteStore) -> FailureLevel? {
        // Runs for every entry no rule recognised: compares bytes in place, allocates nothing.
        guard let range = level, range.count == 1 || range.count == 5 || range.count == 7, range.lowerBound >= 0,
              range.upperBound <= prefix.count else { return nil }
        var word = prefix[range]
        if word.count >= 2, word[0] == UInt8(ascii: "<"), word[word.count - 1] == UInt8(ascii: ">") {
            word = UnsafeRawBufferPointer(rebasing: word[1..<(word.count - 1)])
        }
        guard word.count == 1 || word.count == 5 else { return nil }
        func spells(_ text: StaticString) -> Bool {
            let letters = text.utf8Start
            for i in 0..<5 where word[i] | 0x20 != letters[i] { return false }
            return true
        }
        switch word[0] | 0x20 {
        case UInt8(ascii: "e") where word.count == 1 || spells("error"): return .error
        case UInt8(ascii: "f") where word.count == 1 || spells("fault"): return .fault
        default: return nil
        }
    }

    enum FailureLevel { case error, fault }

    /// `CoreData`, `CloudKit` or `SwiftData` when the entry's subsystem is Apple's for it or its library
    /// column names it, else nil.
    static func persistenceFramework(_ subsystemRange: Range<Int>?, in prefix: ByteStore) -> String? {
        if let range = subsystemRange, let framework = subsystemFramework(range, in: prefix) { return framework }
        let bytes = prefix.bytes
        for (token, framework) in libraries where bytes.contains(sequence: token) { return framework }
        return nil
    }

    /// `CoreData`, `CloudKit` or `SwiftData` when the subsystem at `range` of `prefix` is Apple's for it.
    static func subsystemFramework(_ range: Range<Int>, in prefix: ByteStore) -> String? {
        guard range.lowerBound >= 0, range.upperBound <= prefix.count else { return nil }
        let subsystem = prefix[range]
        for (name, framework) in subsystems where subsystem.count >= name.utf8.count
            && zip(subsystem, name.utf8).allSatisfy({ $0 | 0x20 == $1 }) { return framework }
        return nil
    }

    /// Lower-cased subsystem prefixes and the framework each names.
    static let subsystems: [(String, String)] = [("com.apple.coredata", "CoreData"), ("com.apple.cloudkit", "CloudKit"),
                                                 ("com.apple.swiftdata", "SwiftData")]
    /// The library column of `log show` (`App: (CoreData) [sub:cat] …`) and the framework it names.
    static let libraries: [(StaticString, String)] = [("(CoreData) ", "CoreData"), ("(CloudKit) ", "CloudKit"),
                                                      ("(SwiftData) ", "SwiftData")]
}
