import CDLogCore
import CScan
import Foundation
import Yams

/// Every code table, and the recogniser that finds (domain, code) pairs in a message in any printed form.
///
/// Contract: `recognise` returns the pairs of a message in text order (at most `maxMentions`), each
/// resolved to its table row when a table knows it; `decide` picks the row that decides the entry: the
/// last non-generic known code, else the last known one. Domains are matched by their canonical name or
/// any alias, case-sensitively. Immutable and thread-safe to share; matching uses the caller's scratch.
public final class CodeCatalog: Sendable {
    public let tables: [CodeTable]
    /// Text that says the app terminated around an error (Rules/tables/fatal.yaml).
    public let wrappers: [Wrapper]
    /// Text that says the exception or trap was caught and the app went on (a test runner's `failed: caught
    /// "NSInvalidArgumentException"`): a fatal finding in such an entry is lowered to `error`.
    public let catchers: [Wrapper]
    /// The fallback's markers, in the order they are tried (Rules/tables/fallback.yaml).
    public let markers: [Marker]
    /// The activity markers, in the order they are tried (`activity` in Rules/tables/fallback.yaml).
    public let activityMarkers: [Marker]
    /// The level word a library or Core Data printed in the message itself (`- [debug] …`, `DEBUG|…`, `level:
    /// LogLevel.trace`, `CoreData: debug:`): an `info` finding in an entry that carries one is reported at
    /// `debug` (`debugLevel` in Rules/tables/fallback.yaml; the classifier reads the first `debugLevelWindow` bytes).
    public let debugLevel: PCRERegex?
    /// Log categories that name a persistence library or an app's persistence layer (`tags` in
    /// Rules/tables/fallback.yaml): exact names, or stems where the row ends with `*`.
    let persistenceTags: [(name: [UInt8], isStem: Bool, readAs: [UInt8]?)]
    /// The rows' first bytes, one bit each: most categories are turned away by one load.
    private let persistenceTagFirstBytes: (UInt64, UInt64, UInt64, UInt64)
    /// How many bytes of an entry's message `debugLevel` reads: a logger prints its level near the start of
    /// the line, and a userInfo dump may follow for kilobytes.
    public static let debugLevelWindow = 160
    /// The rules the exception table (Rules/tables/exceptions.yaml) becomes; `RuleSet` ranks them with
    /// the rule files' rules.
    public let exceptionRules: [Rule]
    /// The area rows, in file order (Rules/tables/areas.yaml): what moves a generic finding to the area
    /// its entry names.
    public let areas: [Area]
    /// Every wrapper's literal in one pattern: a finding is checked against the wrappers only where it
    /// holds one (one scan of the message instead of one per wrapper).
    private let wrapperLiterals: PCRERegex?
    private let byDomain: [String: Int]
    /// A table's internal domain (`CKInternalErrorDomain`) → the table's index: its codes are read through the
    /// table's internal rows only, never as public codes.
    private let internalDomains: [String: Int]
    /// An internal code's own name (lower-cased) → its table, internal code and the public code it maps to.
    private let internalPrintedNames: [String: (table: Int, internalCode: Int, publicCode: Int)]
    /// Each table's rows by code.
    private let rowsByCode: [[Int: CodeEntry]]
    private let printedNames: [String: (table: Int, code: Int)]
    /// Codes by their own name as the tables give it (`zoneNotFound`, `NSMigrationMissingSourceModelError`).
    private let codeNames: [String: (table: Int, code: Int)]
    private let forms: [Form]

    static let maxMentions = 64

    /// A fatal wrapper: its name (the finding's `fatal` field) and pattern.
    public struct Wrapper: @unchecked Sendable {
        public let name: String
        public let regex: PCRERegex
        public let example: String
        /// A substring every match contains, searched for before the pattern runs.
        public let literal: [UInt8]

        /// True when the wrapper is in `message` (a byte search first, the pattern only where it may match).
        public func matches(_ message: UnsafeRawBufferPointer, scratch: MatchScratch) -> Bool {
            let found = literal.withUnsafeBytes { needle in
                cscan_find(message.baseAddress, message.count, needle.baseAddress, needle.count)
            }
            return found >= 0 && regex.matches(message, scratch: scratch)
        }
    }

    /// One pattern that finds any of `literals`, the literals that open with the same byte gathered behind it
    /// (`a(?:tal error: |talException)|u(?:ncaught exception)`, duplicates dropped): the scan tries one
    /// alternative per opening byte at each position, however many literals share it.
    static func literalAlternation(_ literals: [[UInt8]]) -> String {
        // A literal opening with a byte outside ASCII (part of a longer character) stays whole.
        var byFirst: [UInt8: Set<[UInt8]>] = [:]
        var whole: Set<[UInt8]> = []
        for literal in literals where !literal.isEmpty {
            if literal[0] < 0x80 { byFirst[literal[0], default: []].insert(Array(literal.dropFirst())) } else { whole.insert(literal) }
        }
        let escape = { (bytes: [UInt8]) in NSRegularExpression.escapedPattern(for: String(decoding: bytes, as: UTF8.self)) }
        let grouped = byFirst.keys.sorted().map { first -> String in
            let rests = byFirst[first]!.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
            let head = escape([first])
            if rests.count == 1 { return head + escape(rests[0]) }
            return head + "(?:" + rests.map(escape).joined(separator: "|") + ")"
        }
        return (grouped + whole.sorted { $0.lexicographicallyPrecedes($1) }.map(escape)).joined(separator: "|")
    }

    /// A fallback marker: a pattern and the rule (category, title) of the entries it is the first to mark;
    /// for an error marker, also the rule's twin at `warning` (an entry printed at warning level).
    public struct Marker: @unchecked Sendable {
        public let regex: PCRERegex
        public let rule: Rule
        public var warning: Rule? = nil
    }

    /// A (domain, code) pair found in a message.
    public struct Mention: Sendable {
        public var domain: String
        public var code: Int
        public var offset: Int
        public var entry: CodeEntry?
    }

    /// One printed form: a pattern with groups `d` (domain), `c` (code), `p` (a printed CloudKit name), `k`
    /// (a code's own name: `zoneNotFound`, `NSMigrationMissingSourceModelError`), `i` (an internal code);
    /// `domain` is the form's fixed domain when the pattern names none.
    private struct Form: @unchecked Sendable {
        let regex: PCRERegex
        let domain: String?
        let groups: [String: Int]
        /// A quoted name counts only when a table knows it (a quoted sentence before a number is common).
        let needsKnownName: Bool
        /// A code's printed sentence rather than its number; the tables' message forms come last.
        var isMessage = false
        /// A code's own name (`zoneNotFound`): read by the names' own rule, and there only where no number
        /// of the entry was (the number says the same or more).
        var isName = false
        /// A match counts only where this also matches the match's line (before it or after it): read only
        /// after the form matched, so the form's own search stays anchored on what it reads.
        var lineContext: PCRERegex? = nil
    }

    public init(tables: [CodeTable], wrappers: [Wrapper] = [], catchers: [Wrapper] = [], markers: [Marker] = [],
                activityMarkers: [Marker] = [], debugLevel: PCRERegex? = nil, persistenceTags: [(tag: String, readAs: String?)] = [],
                exceptionRules: [Rule] = [], areas: [Area] = []) throws {
        self.tables = tables
        self.debugLevel = debugLevel
        self.persistenceTags = persistenceTags.map { row in
            (Array((row.tag.hasSuffix("*") ? String(row.tag.dropLast()) : row.tag).utf8), row.tag.hasSuffix("*"), row.readAs.map { Array($0.utf8) })
        }
        var firstBytes: [UInt64] = [0, 0, 0, 0]
        for row in self.persistenceTags { firstBytes[Int(row.name[0] >> 6)] |= 1 << UInt64(row.name[0] & 63) }
        persistenceTagFirstBytes = (firstBytes[0], firstBytes[1], firstBytes[2], firstBytes[3])
        self.catchers = catchers
        self.exceptionRules = exceptionRules
        self.areas = areas
        self.wrappers = wrappers
        self.markers = markers
        self.activityMarkers = activityMarkers
        wrapperLiterals = wrappers.isEmpty ? nil : try PCRERegex(CodeCatalog.literalAlternation(wrappers.map(\.literal)))
        var byDomain: [String: Int] = [:]
        var printedNames: [String: (table: Int, code: Int)] = [:]
        var codeNames: [String: (table: Int, code: Int)] = [:]
        var internalDomains: [String: Int] = [:]
        var internalPrintedNames: [String: (table: Int, internalCode: Int, publicCode: Int)] = [:]
        for (index, table) in tables.enumerated() {
            for name in [table.domain] + table.aliases { byDomain[name] = index }
            if let internalDomain = table.internalDomain {
                // Two tables claiming one internal domain, or an internal domain another table publishes, would
                // shadow lookups: the tables are written that way never, and the loader says so if they are.
                guard internalDomains[internalDomain] == nil, byDomain[internalDomain] == nil else {
                    throw RuleFileError(file: table.path, line: 0, column: 0, message: "internal domain \(internalDomain) is claimed twice", sourceLine: nil)
                }
                internalDomains[internalDomain] = index
            }
            // An internal name printed in quotes (`<CKUnderlyingError 0x…: "ZoneNotFound" (2036)>`) names the
            // public code its row maps to, but only beside its own internal number: the names are plain words
            // (`Forbidden`, `ServerBusy`) that other services print in quotes too. An internal code with no known
            // public code decides nothing.
            for (code, name) in table.internalNames {
                if let publicCode = table.internalCodes[code] {
                    internalPrintedNames[name.lowercased()] = (index, code, publicCode)
                }
            }
            for entry in table.entries {
                if let printed = entry.printed { printedNames[printed.lowercased()] = (index, entry.code) }
                for message in entry.messages { printedNames[message.lowercased()] = (index, entry.code) }
                if !entry.isRange, codeNames[entry.name] == nil { codeNames[entry.name] = (index, entry.code) }
                for name in entry.server where !entry.isRange {
                    codeNames[name] = (index, entry.code)
                    printedNames[name.lowercased()] = (index, entry.code)
                }
            }
        }
        self.byDomain = byDomain
        self.internalDomains = internalDomains
        self.internalPrintedNames = internalPrintedNames
        self.printedNames = printedNames
        self.codeNames = codeNames
        rowsByCode = tables.map { table in Dictionary(table.entries.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first }) }
        let ck = tables.first { $0.key == "ckerror" }?.domain
        let sqlite = tables.first { $0.key == "sqlite" }?.domain
        let cocoa = tables.first { $0.key == "cocoa" }?.domain
        // Printed CloudKit names followed by ':' (a localizedDescription re-printed without its wrapper);
        // generic names ("Internal Error") are too common in other text to count alone.
        func namePatterns(generic: Bool) -> [String] {
            tables.flatMap { table in table.entries.filter { $0.generic == generic }.compactMap(\.printed) }
                .map { NSRegularExpression.escapedPattern(for: $0) }.sorted { $0.count > $1.count }
        }
        let specificNames = namePatterns(generic: false)
        var sources: [(String, String?)] = [
            (#"Error\s?Domain=(?<d>[A-Za-z][\w.]*)\s+Code=(?<c>-?\d+)"#, nil),
            // CloudKit's quotes as printed, or curly as a blog or a word processor turned them (`“Server Rejected Request”`).
            (#"<CKError\s0x[0-9a-fA-F]+:\s(?:\\*"|“)(?<n>[^"\\“”]{1,60})(?:\\*"|”)\s\((?<c>\d+)(?:/(?<i>-?\d+))?\)"#, ck),
            (#"(?:\\*"|“)(?<p>[A-Z][A-Za-z0-9 ]{2,40})(?:\\*"|”)\s\((?<c>\d+)(?:/(?<i>-?\d+))?\)"#, ck),
            (#"\b(?<d>[A-Z][A-Za-z]*ErrorDomain|Cocoa|CKError|io\.realm)(?:\s*/\s*(?i:code)\s*[:=]?\s*|\s*[:=/]\s*|\s*\(\s*|\s+(?:error|Error|Code=|code)\s*#?|-(?:Fehler|error)\s+)(?<c>-?\d+)\b"#, nil),
            // A table's domain and its code with nothing between but a space (`NSCocoaErrorDomain 134060 ... requires
            // that all relationships have an inverse`, `CKErrorDomain 3 (networkUnavailable)`): a note's or an app's
            // shorthand. Only the tables' own domains: another domain's number after a space may be anything. A date
            // or a version after the domain (`CKErrorDomain 2024-05-01`, `3.41.2`) is no code.
            (#"\b(?<d>NSCocoaErrorDomain|CKErrorDomain|NSSQLiteErrorDomain|CKInternalErrorDomain)[ \t]+(?<c>-?\d+)\b(?![.,:/-]\d)"#, nil),
            (#"\((?:[^()\d\n]{0,24}?)\b(?<d>Cocoa|CKErrorDomain|NSCocoaErrorDomain|NSSQLiteErrorDomain|CKInternalErrorDomain|io\.realm)(?:[^()\d\n]{0,24}?)(?<c>-?\d+)\s*(?:\.|。)?\s*\)"#, nil),
            (#"(?i:domain)\s*[:=]\s*\\*"?(?<d>[A-Za-z][\w.]*?)\\*"?\s*[;,]?\s*[-;,]?\s*\.?(?i:code)\s*[:=]\s*(?<c>-?\d+)"#, nil),
            (#"(?i)\bsqlite3?\s+(?:error\s+)?(?:code\s*[:=]?\s*|error\s+)(?<c>\d{1,5})\b"#, sqlite),
            (#"CoreData:\s+(?:error|fault|warning):\s+\((?<c>\d{1,5})\)\s"#, sqlite),
            // A SQLite layer's own print of the result code before SQLite's message (Telegram's Postbox:
            // `SQL error 1: table t10 already exists on SQL`).
            (#"\bSQL error (?<c>\d{1,5}): "#, sqlite),
            (#"\bCocoa\s+error\s+(?<c>\d+)"#, cocoa),
            // Swift's description of a bare code value (`CKError(rawValue: 3)`, `CKError.Code(rawValue: 9)`).
            (#"\bCKError(?:\.Code|Code)?\(rawValue: (?<c>\d+)\)"#, ck),
            // An app's own wording around a Core Data error's code (`Core Data save error: Unknown error
            // (code 1570).`): the Core Data words on the same line name the domain.
            (#"Core ?Data\b[^\n]{0,200}?\((?:error )?code:? (?<c>\d{3,6})\)"#, cocoa),
            // A code in Core Data's own range (133000–134999) after `Error code` or `Code=`, its domain on another
            // line or not printed at all (`Error code: 134060`, `Code=134110`): no other domain uses those numbers.
            // The same spellings as `code.table`'s patterns in Rules/codes.yaml, which admit the entry.
            (#"(?:\b(?:Error code|error code|Error Code|ERROR CODE):? ?|\bCode=)(?<c>13[34]\d{3})\b"#, cocoa),
        ]
        if !specificNames.isEmpty {
            sources.append(("(?:^|[\\s\"'(>])(?<p>" + specificNames.joined(separator: "|") + "):\\s", ck))
        }
        // The generic names ("Partial Failure") count followed by ':' only after CloudKit's own name on the
        // same line, no colon between (`CloudKit Syncing Error – Partial Failure: some items failed`).
        let genericNames = namePatterns(generic: true)
        if !genericNames.isEmpty {
            sources.append(("\\b(?:CloudKit|CKError|iCloud)\\b[^\\n:]*[\\s\"'(>](?<p>" + genericNames.joined(separator: "|") + "):\\s", ck))
        }
        // A printed name without its quotes before its code and CloudKit's internal code (`pushFailed("backing(…Service
        // Unavailable (6/2009)…)")`, an app's description of the CKError it wraps): the internal code after a slash is
        // CloudKit's own, so any name counts there.
        let allPrinted = (specificNames + genericNames).sorted { $0.count > $1.count }.joined(separator: "|")
        if !allPrinted.isEmpty {
            sources.append(("(?<![\\w\"“])(?<p>" + allPrinted + ")\\s\\((?<c>\\d+)/(?<i>-?\\d+)\\)", ck))
        }
        // A printed name an app re-printed as an error's whole description, after a label and at the end of the
        // line or before a separator (`❌ SAVE FAILED: UserProfile to privateDB | Error: Permission Failure |
        // Duration: 0.78s`): any name counts there, but only with a CloudKit word, a CK type or one of CloudKit's
        // three databases on the same line, before it or after it.
        let printedAloneIndex = sources.count
        if !allPrinted.isEmpty {
            sources.append(("[:=][ \\t]*[\"“]?(?<p>" + allPrinted + ")[\"”]?(?=[ \\t]*(?:$|\\n|[|,.;)]))", ck))
        }
        // A code's own name as code and logs spell it: CloudKit's Swift case names (`Sync failed:
        // quotaExceeded`, `.zoneNotFound`), Core Data's error constants (`NSMigrationMissingSourceModelError`).
        // A case name of three words or more is CloudKit's alone; a shorter one (`notAuthenticated`,
        // `partialFailure`) is a common identifier elsewhere and counts after CloudKit or sync words on its line.
        func caseNames(of key: String, where keep: (String) -> Bool) -> [String] {
            tables.filter { $0.key == key }.flatMap { $0.entries.filter { !$0.isRange }.map(\.name) }
                .filter { $0.first?.isLowercase == true && keep($0) }.sorted { $0.count > $1.count }
        }
        let humps = { (name: String) in name.filter(\.isUppercase).count }
        let longNames = caseNames(of: "ckerror") { humps($0) >= 2 }
        let allNames = caseNames(of: "ckerror") { _ in true }
        if !longNames.isEmpty {
            sources.append(("\\b(?<k>" + longNames.joined(separator: "|") + ")\\b", ck))
        }
        if !allNames.isEmpty {
            sources.append(("(?:(?i:cloudkit|icloud|\\bsync\\w*|\\bzones?\\b)|CKError|\\bCK[A-Z]\\w*)[^\\n]{0,160}?(?<![\\w])\\.?(?<k>"
                            + allNames.joined(separator: "|") + ")\\b", ck))
        }
        // CloudKit's web-service names (`"serverErrorCode" : "ZONE_NOT_FOUND"`, CloudKit JS's `_ckErrorCode:
        // "BAD_REQUEST"`, a CLI's `Server Error Code: AUTHENTICATION_FAILED`, a downloader's `… your iCloud service
        // (ZONE_NOT_FOUND)`): HTTP-style words that other
        // services use too, so they count only after a CloudKit or iCloud word, a CloudKit JS key or one of
        // CloudKit's three databases (`private db access disabled for this account … (ACCESS_DENIED)`) on their line,
        // or doubled as an iCloud client's response exception prints a reason the server left empty
        // (`INTERNAL_ERROR (INTERNAL_ERROR)`).
        let serverNames = tables.flatMap { $0.entries.flatMap(\.server) }.sorted { $0.count > $1.count }
        if !serverNames.isEmpty {
            let names = serverNames.joined(separator: "|")
            sources.append(("(?:serverErrorCode|(?i:\\bserver[ _]error[ _]code\\b)|ckErrorCode|\\bCKError|\\bCloudKit|(?i:icloud|\\b(?:private|shared|public) (?:db|database)\\b))[^\\n]{0,160}?(?<![\\w])(?<k>"
                            + names + ")\\b", ck))
            sources.append(("(?<![\\w])(?<k>" + names + ") \\(\\k<k>\\)", ck))
        }
        let constants = tables.flatMap { $0.entries.filter { !$0.isRange }.map(\.name) }
            .filter { $0.hasPrefix("NS") && $0.hasSuffix("Error") && $0.count > 9 }.sorted { $0.count > $1.count }
        if !constants.isEmpty {
            sources.append(("\\b(?<k>" + constants.joined(separator: "|") + ")\\b", nil))
        }
        // A code's printed sentence (`database is locked`, `UNIQUE constraint failed`), as the library
        // prints it (case-sensitive), longest first so a sentence inside another (`constraint failed`)
        // does not win.
        var messageSources: [(String, String?)] = []
        for table in tables {
            let messages = table.entries.flatMap(\.messages).sorted { $0.count > $1.count }
            guard !messages.isEmpty else { continue }
            let alternatives = messages.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
            messageSources.append(("\\b(?<p>" + alternatives + ")\\b", table.domain))
        }
        forms = try (sources + messageSources).enumerated().map { index, source in
            let regex = try PCRERegex(source.0)
            let groups = Dictionary(regex.groupNames.map { ($0.name, $0.number) }, uniquingKeysWith: { a, _ in a })
            var form = Form(regex: regex, domain: source.1, groups: groups, needsKnownName: groups["p"] != nil || groups["k"] != nil)
            form.isMessage = index >= sources.count
            form.isName = groups["k"] != nil
            if index == printedAloneIndex, !allPrinted.isEmpty {
                form.lineContext = try PCRERegex(#"\bCloudKit|\bCKError|\bCK[A-Z][a-z]\w*|(?i:\bicloud|\b(?:private|shared|public) ?(?:db|database)\b)"#)
            }
            return form
        }
    }

    /// The tables embedded at build time (Rules/tables/*.yaml).
    public static func embedded() throws -> CodeCatalog {
        let files = EmbeddedCodeTables.files.map { file in
            (path: file.path, text: file.text)
        }
        return try load(files: files)
    }

    /// Loads table files: a file with `domain` is a code table, one with `wrappers` the fatal wrappers (its
    /// `caught` rows the catchers), one with `markers` the fallback's markers, one with `reasons`/`names` the
    /// exception table, one with `areas` the area table. Throws `RuleFileError` pointing into a bad file.
    public static func load(files: [(path: String, text: String)]) throws -> CodeCatalog {
        var tables: [CodeTable] = [], wrappers: [Wrapper] = [], catchers: [Wrapper] = [], markers: [Marker] = []
        var activityMarkers: [Marker] = []
        var debugLevel: PCRERegex? = nil
        var persistenceTags: [(tag: String, readAs: String?)] = []
        var exceptionRules: [Rule] = [], areas: [Area] = []
        var order = 1 << 62
        for file in files {
            let loader = RuleLoader(path: file.path, text: file.text)
            let root: Node?
            do { root = try Yams.compose(yaml: file.text, .basic) } catch { throw loader.failure(at: nil, "not valid YAML: \(error)") }
            guard let root, let mapping = root.mapping else { throw loader.failure(at: root, "a table file is a mapping") }
            let map = RuleLoader.keyed(mapping)
            if AreaTable.isAreaTable(map) {
                areas += try AreaTable.areas(path: file.path, mapping: mapping, loader: loader)
            } else if ExceptionTable.isExceptionTable(map) {
                exceptionRules += try ExceptionTable.rules(path: file.path, map: map, mapping: mapping, loader: loader, firstOrder: order)
            } else if map["domain"] != nil {
                tables.append(try CodeTable(path: file.path, text: file.text, firstOrder: order))
            } else if let list = map["wrappers"]?.sequence {
                func rows(_ list: [Node]) throws -> [Wrapper] {
                    try list.map { item in
                        let row = RuleLoader.keyed(item.mapping ?? Node.Mapping([]))
                        guard let name = row["name"]?.string, let pattern = row["pattern"]?.string, let example = row["example"]?.string,
                              let literal = row["literal"]?.string, !literal.isEmpty else {
                            throw loader.failure(at: item, "a wrapper needs `name`, `literal`, `pattern` and `example`")
                        }
                        guard example.contains(literal) else { throw loader.failure(at: row["literal"], "the wrapper's example does not contain its literal") }
                        return Wrapper(name: name, regex: try loader.compile(pattern, at: row["pattern"]), example: example,
                                       literal: Array(literal.utf8))
                    }
                }
                wrappers += try rows(Array(list))
                catchers += try rows(RuleLoader.items(map, "caught"))
            } else if let list = map["markers"]?.sequence {
                markers += try markerRows(Array(list), activity: false, loader: loader, path: file.path, order: order)
                activityMarkers += try markerRows(RuleLoader.items(map, "activity"), activity: true, loader: loader,
                                                  path: file.path, order: order + list.count + 1)
                if let node = map["debugLevel"] {
                    guard let pattern = node.string else { throw loader.failure(at: node, "`debugLevel` is one pattern") }
                    debugLevel = try loader.compile(pattern, at: node)
                }
                for node in RuleLoader.items(map, "tags") {
                    let row = node.mapping.map(RuleLoader.keyed)
                    let tag = row?["tag"]?.string ?? node.string
                    let readAs = row?["as"]?.string
                    guard let tag, tag.utf8.count >= (tag.hasSuffix("*") ? 4 : 2), !tag.dropLast().contains("*"),
                          !tag.contains(where: { $0 == "]" || $0 == " " || $0 == "\t" }), readAs.map({ !$0.isEmpty }) ?? true else {
                        throw loader.failure(at: node, "a tag row is a log category's name (a stem of three or more characters when it ends with `*`), or `{tag: …, as: …}`")
                    }
                    persistenceTags.append((tag, readAs))
                }
            } else {
                throw loader.failure(at: root, "a table file has `domain` (a code table), `wrappers`, `markers`, `areas` or exception rows")
            }
            order += 1 << 16
        }
        return try CodeCatalog(tables: tables, wrappers: wrappers, catchers: catchers, markers: markers, activityMarkers: activityMarkers,
                               debugLevel: debugLevel, persistenceTags: persistenceTags,
                               exceptionRules: exceptionRules, areas: areas)
    }

    /// The rows of `markers` (the error fallback: one `fallback.<category>` rule per category, at `error`)
    /// or of `activity` (one `activity.<category>` rule per category at the rows' own severity, `debug` or
    /// `info`, shared by the rows of one category) in the fallback file. The rows of one category share
    /// one title (and, for activity, one severity): they make one rule.
    private static func markerRows(_ list: [Node], activity: Bool, loader: RuleLoader, path: String, order: Int) throws -> [Marker] {
        var byCategory: [Category: Rule] = [:]
        var warnings: [Category: Rule] = [:]
        var markers: [Marker] = []
        for item in list {
            let row = RuleLoader.keyed(item.mapping ?? Node.Mapping([]))
            guard let pattern = row["pattern"]?.string, let title = row["title"]?.string,
                  let category = row["category"]?.string.flatMap(Category.init(rawValue:)) else {
                throw loader.failure(at: item, "a marker needs `pattern`, `category` (a category id) and `title`"
                                     + (activity ? ", and an activity marker a `severity`" : ""))
            }
            var severity = Severity.error
            if activity {
                guard let given = row["severity"]?.string.flatMap(Severity.init(name:)) else {
                    throw loader.failure(at: item, "an activity marker needs a `severity` (`debug` or `info`)")
                }
                guard given <= .info else { throw loader.failure(at: row["severity"], "an activity marker reports at `debug` or `info`") }
                if let earlier = byCategory[category], earlier.severity != given {
                    throw loader.failure(at: row["severity"], "the activity markers of `\(category.id)` share one severity (`\(earlier.severity)` above)")
                }
                severity = given
            }
            // One rule per category: its rows share the title a finding shows, whichever row found it.
            if let earlier = byCategory[category], earlier.title != title {
                throw loader.failure(at: row["title"], "the markers of `\(category.id)` share one title (“\(earlier.title)” above)")
            }
            // A marker's rule is a catch-all (negative priority, as the rules that resolve to it): the joined
            // reading of a wrapped message never prefers it to a rule that matched the message as printed.
            let rule = byCategory[category] ?? Rule(
                id: (activity ? "activity." : "fallback.") + category.id, title: title, category: category, severity: severity,
                priority: activity ? -150 : -100, input: .log, patterns: [], required: [], excluded: [], fieldPatterns: [], extractors: [],
                advice: activity
                    ? "Routine activity of the persistence stack or a library built on it, reported no failure; it is context for the entries around it."
                    : "No rule or code table knows this message yet. Read the whole entry; the framework and the words it carries point at the area. Please report it so a rule can be written.",
                references: [], matchExamples: [], nomatchExamples: [],
                location: SourceLocation(file: path, line: (item.mark?.line ?? 0), column: (item.mark?.column ?? 0)),
                order: order + markers.count)
            byCategory[category] = rule
            var marker = Marker(regex: try loader.compile(pattern, at: row["pattern"]), rule: rule)
            if !activity {
                let warning = warnings[category] ?? Rule(
                    id: rule.id, title: rule.title.hasSuffix(" error") ? String(rule.title.dropLast(6)) + " warning" : rule.title,
                    category: category, severity: .warning, priority: rule.priority, input: rule.input, patterns: [], required: [],
                    excluded: [], fieldPatterns: [], extractors: [],
                    advice: "The entry was printed as a warning and no rule or code table knows it yet. Read the whole entry; the framework and the words it carries point at the area. Please report it so a rule can be written.",
                    references: [], matchExamples: [], nomatchExamples: [], location: rule.location, order: rule.order)
                warnings[category] = warning
                marker.warning = warning
            }
            markers.append(marker)
        }
        return markers
    }

    /// What an entry whose log category is `tag` is read with, in brackets before its message: the tag itself, or
    /// the name its row gives (`as`); nil when no row of `persistenceTags` names the tag or a stem it opens with.
    /// Asked of every entry with a category that nothing recognised: the rows' first bytes turn most away.
    func persistenceTagReading(_ tag: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let first = tag.first else { return nil }
        let word: UInt64
        switch first >> 6 {
        case 0: word = persistenceTagFirstBytes.0
        case 1: word = persistenceTagFirstBytes.1
        case 2: word = persistenceTagFirstBytes.2
        default: word = persistenceTagFirstBytes.3
        }
        guard word & (1 << UInt64(first & 63)) != 0 else { return nil }
        for (name, isStem, readAs) in persistenceTags where name[0] == first && (isStem ? tag.count >= name.count : tag.count == name.count) {
            var same = true
            for i in 1..<name.count where tag[i] != name[i] { same = false; break }
            if same { return readAs ?? Array(tag) }
        }
        return nil
    }

    /// The first fatal wrapper in `message`, if any.
    public func fatalWrapper(in message: UnsafeRawBufferPointer, scratch: MatchScratch) -> Wrapper? {
        guard let wrapperLiterals, wrapperLiterals.matches(message, scratch: scratch) else { return nil }
        return wrappers.first { $0.matches(message, scratch: scratch) }
    }

    /// The first catcher (`caught:` in Rules/tables/fatal.yaml) in `message`: the exception was caught.
    public func catcher(in message: UnsafeRawBufferPointer, scratch: MatchScratch) -> Wrapper? {
        catchers.first { $0.matches(message, scratch: scratch) }
    }

    /// The area among `candidates` (indices into `areas`) whose match starts first in `ranges` of
    /// `message`, searched range by range in the order given; ties go to the earlier row.
    func nearestArea(_ candidates: [(area: Int, twin: Rule)], in message: UnsafeRawBufferPointer, ranges: [Range<Int>],
                     scratch: MatchScratch) -> (area: Int, twin: Rule)? {
        for range in ranges {
            var best: (start: Int, rank: Int, candidate: (area: Int, twin: Rule))? = nil
            for candidate in candidates {
                let area = areas[candidate.area]
                // A row that yields is not even run once a row of a lower rank has matched.
                if let best, best.rank < area.yieldRank { continue }
                guard let start = area.firstMatch(in: message, range: range, scratch: scratch) else { continue }
                // Here a lower rank beats a higher one, and rows of one rank compare their starts.
                if best == nil || area.yieldRank < best!.rank || start < best!.start {
                    best = (start, area.yieldRank, candidate)
                }
            }
            if let best { return best.candidate }
        }
        return nil
    }

    /// Every rule a data-resolved finding can carry: one per code row and range, one per fallback category.
    public var resolvedRules: [Rule] {
        var seen = Set<ObjectIdentifier>()
        return (entries.map(\.rule) + markers.map(\.rule) + markers.compactMap(\.warning) + activityMarkers.map(\.rule)).filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// The rule that `resolution` gives `message`, adding its fields through `add`; nil when the data has
    /// no verdict (no known code; no marker).
    /// `severity` is the resolving rule's: a fallback rule below `error` gives the marker's warning twin.
    func resolve(_ resolution: RuleResolution, severity: Severity = .error, message: UnsafeRawBufferPointer, scratch: MatchScratch,
                 add: (String, String) -> Void) -> Rule? {
        var mentions = recognise(message, scratch: scratch, sentences: resolution == .messages, names: resolution == .names)
        // A code common outside persistence counts only where the entry names a store.
        for index in mentions.indices {
            guard let entry = mentions[index].entry, entry.needsContext else { continue }
            let context = tables.first { $0.domain == entry.domain }?.context
            if !(context?.matches(message, scratch: scratch) ?? false) { mentions[index].entry = nil }
        }
        switch resolution {
        case .codes, .messages, .names:
            guard let decided = decide(mentions), let entry = decided.entry else { return nil }
            // `failed with sqlite code 0`: success printed for a failure says nothing of its cause; the
            // fallback reads the entry instead.
            if entry.success, CodeCatalog.failureWords.matches(message, scratch: scratch) { return nil }
            add("domain", decided.domain)
            add("code", String(decided.code))
            add("name", entry.name)
            if mentions.count > 1 { add("chain", CodeCatalog.chain(mentions)) }
            return entry.rule
        case .fallback, .activity:
            let list = resolution == .fallback ? markers : activityMarkers
            guard let marker = list.first(where: { $0.regex.matches(message, scratch: scratch) }) else { return nil }
            if !mentions.isEmpty { add("chain", CodeCatalog.chain(mentions)) }
            return severity < .error ? (marker.warning ?? marker.rule) : marker.rule
        }
    }

    /// Every code row and range row.
    public var entries: [CodeEntry] { tables.flatMap { $0.entries + $0.ranges } }

    /// The row for `code` in `domain` (canonical or alias): the code's own row, else its range's.
    public func entry(domain: String, code: Int) -> CodeEntry? {
        if let index = internalDomains[domain] {
            return tables[index].internalCodes[code].flatMap { rowsByCode[index][$0] }
        }
        guard let index = byDomain[domain] else { return nil }
        let table = tables[index]
        if let row = rowsByCode[index][code] { return row }
        if let publicCode = table.internalCodes[code], let row = rowsByCode[index][publicCode] { return row }
        return table.ranges.first { (code...code).overlaps($0.code...$0.last) }
    }

    /// What the tables know of an internal code (`CKInternalErrorDomain 2036`, or `2036` printed beside
    /// `domain`'s public code): its name and the public code it maps to, when public text showed the pair.
    public func internalCode(domain: String, code: Int) -> (domain: String, name: String, publicCode: Int?)? {
        guard let index = internalDomains[domain] ?? byDomain[domain], let internalDomain = tables[index].internalDomain,
              let name = tables[index].internalNames[code], rowsByCode[index][code] == nil else { return nil }
        return (internalDomain, name, tables[index].internalCodes[code])
    }

    /// True when `domain` is a table's internal domain (`CKInternalErrorDomain`).
    public func isInternalDomain(_ domain: String) -> Bool { internalDomains[domain] != nil }

    /// The row a printed name (`Partial Failure`, `partialFailure`, `NSMigrationError`, `SQLITE_BUSY`) names.
    public func entry(named name: String) -> CodeEntry? {
        let lowered = name.lowercased()
        if let found = printedNames[lowered] { return tables[found.table].entries.first { $0.code == found.code } }
        return entries.first { $0.name.lowercased() == lowered && !$0.isRange }
    }

    /// Every (domain, code) pair in `message`, in text order.
    /// `sentences`: also the tables' printed sentences (`database is locked`); `names`: also the codes' own
    /// names (`zoneNotFound`). Both are off for the code rule that runs on every entry naming a domain, where
    /// the search would cost more than it finds; each has a rule of its own.
    public func recognise(_ message: UnsafeRawBufferPointer, scratch: MatchScratch, sentences: Bool = true, names: Bool = true) -> [Mention] {
        var mentions: [Mention] = []
        var taken: [Range<Int>] = []
        for form in forms where (sentences || !form.isMessage) && (names || !form.isName) {
            if form.isName, !mentions.isEmpty { continue }
            var start = 0
            while start < message.count, mentions.count < CodeCatalog.maxMentions,
                  let found = form.regex.firstMatch(in: message, from: start, scratch: scratch), let whole = found[0] {
                start = max(whole.upperBound, whole.lowerBound + 1)
                // A stretch another form already read (an `Error Domain=` inside a `<CKError …>`) counts once.
                if taken.contains(where: { $0.overlaps(whole) }) { continue }
                if let context = form.lineContext {
                    let lineStart = message[..<whole.lowerBound].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                    let lineEnd = message.firstIndex(of: 0x0A, from: whole.upperBound) ?? message.count
                    let line = UnsafeRawBufferPointer(rebasing: message[lineStart..<lineEnd])
                    guard context.firstMatch(in: line, from: 0, scratch: scratch) != nil else { continue }
                }
                func group(_ name: String) -> String? {
                    guard let number = form.groups[name], number < found.count, let range = found[number] else { return nil }
                    return message.trimmedText(range)
                }
                var domain = group("d").map { byDomain[$0].map { tables[$0].domain } ?? $0 } ?? form.domain
                var code = group("c").flatMap { Int($0) }
                // A printed name a table knows decides (`"Server Rejected Request" (2001)` carries only the
                // internal code); a quoted sentence that is no known name is not a code at all.
                if let name = group("k") {
                    guard let named = codeNames[name] else { continue }
                    domain = tables[named.table].domain
                    code = named.code
                } else if let printed = group("p") ?? group("n") {
                    if let named = printedNames[printed.lowercased()] {
                        domain = tables[named.table].domain
                        code = named.code
                    } else if let named = internalPrintedNames[printed.lowercased()],
                              code == named.internalCode || group("i").flatMap({ Int($0) }) == named.internalCode {
                        domain = tables[named.table].domain
                        code = named.publicCode
                    } else if form.needsKnownName {
                        continue
                    }
                }
                guard let domain, let code else { continue }
                // A printed sentence says less than a number of its domain (`(6922) … 'disk I/O error'`).
                if form.isMessage, mentions.contains(where: { $0.domain == domain }) { continue }
                taken.append(whole)
                mentions.append(Mention(domain: domain, code: code, offset: whole.lowerBound, entry: entry(domain: domain, code: code)))
            }
        }
        return mentions.sorted { $0.offset < $1.offset }
    }

    /// The mention that decides an entry: the last known non-generic code, else the last known code.
    /// Words that say an operation failed, for a success row (`success: true`) printed inside a failure.
    static let failureWords = try! PCRERegex(#"(?i)\bfail|\bunable\b|\bcould ?n(?:o|')t\b|\bcannot\b"#)

    public func decide(_ mentions: [Mention]) -> Mention? {
        mentions.last { $0.entry.map { !$0.generic } ?? false } ?? mentions.last { $0.entry != nil }
    }

    /// `NSCocoaErrorDomain 134110 → NSSQLiteErrorDomain 13`: the chain as printed, repeats removed.
    public static func chain(_ mentions: [Mention]) -> String {
        var seen = Set<String>()
        return mentions.compactMap { mention in
            let text = "\(mention.domain) \(mention.code)"
            return seen.insert(text).inserted ? text : nil
        }.joined(separator: " → ")
    }
}
