import CDLogCore
import Yams

/// One code table file: a domain, the names consoles print for it, its rows and ranges.
///
/// Contract: `init` parses and checks the YAML; a bad file throws `RuleFileError` pointing into it (an
/// unknown key, category or severity, a duplicate code, a missing field). Immutable after loading.
public struct CodeTable: Sendable {
    public let path: String
    public let domain: String
    public let key: String
    public let aliases: [String]
    public let entries: [CodeEntry]
    public let ranges: [CodeEntry]
    /// Internal code → public code (CKInternalErrorDomain → CKErrorDomain), for the pairs public text shows.
    public let internalCodes: [Int: Int]
    /// The domain the internal codes are printed with (`CKInternalErrorDomain`), when the table has any.
    public let internalDomain: String?
    /// Internal code → the name the framework gives it (`2036` → `ZoneNotFound`), mapped to a public code or not.
    public let internalNames: [Int: String]
    /// What an entry must contain for a `context: true` row to count.
    public let context: PCRERegex?

    private static let fileKeys: Set<String> = ["domain", "key", "aliases", "codes", "ranges", "internal", "context"]
    private static let rowKeys: Set<String> = ["code", "from", "to", "name", "printed", "category", "severity",
                                               "generic", "context", "success", "meaning", "advice", "messages", "server"]

    public init(path: String, text: String, firstOrder: Int) throws {
        self.path = path
        let loader = RuleLoader(path: path, text: text)
        let root: Node
        do {
            // `.basic`: every scalar a plain string; the accessors (`.int`, `.bool`) read it. The default resolver compiles
            // and runs its regular expressions for each scalar, a measurable part of start-up.
            guard let node = try Yams.compose(yaml: text, .basic) else { throw loader.failure(at: nil, "empty code table") }
            root = node
        } catch let error as YamlError {
            throw loader.failure(at: nil, "not valid YAML: \(error)")
        }
        guard let mapping = root.mapping else { throw loader.failure(at: root, "a code table is a mapping (domain, key, codes)") }
        let map = RuleLoader.keyed(mapping)
        for (keyNode, _) in mapping where !CodeTable.fileKeys.contains(keyNode.string ?? "") {
            throw loader.failure(at: keyNode, "unknown key `\(keyNode.string ?? "")` (known: \(CodeTable.fileKeys.sorted().joined(separator: ", ")))")
        }
        guard let domain = map["domain"]?.string, !domain.isEmpty else { throw loader.failure(at: root, "a code table needs `domain`") }
        guard let key = map["key"]?.string, RuleLoader.isDottedID("code." + key) else {
            throw loader.failure(at: map["key"] ?? root, "a code table needs `key`: one lower-case word")
        }
        self.domain = domain
        self.key = key
        aliases = map["aliases"]?.sequence?.compactMap(\.string) ?? []
        var internalCodes: [Int: Int] = [:]
        var internalNames: [Int: String] = [:]
        var internalDomain: String?
        if let node = map["internal"] {
            guard let internalMapping = node.mapping else {
                throw loader.failure(at: node, "`internal` is a mapping: `domain` and `codes`")
            }
            let internalMap = RuleLoader.keyed(internalMapping)
            for (keyNode, _) in internalMapping where !["domain", "codes"].contains(keyNode.string ?? "") {
                throw loader.failure(at: keyNode, "unknown key `\(keyNode.string ?? "")` in `internal` (known: codes, domain)")
            }
            guard let name = internalMap["domain"]?.string, !name.isEmpty else {
                throw loader.failure(at: node, "`internal` needs `domain`: the domain its codes are printed with")
            }
            guard name != domain, !aliases.contains(name) else {
                throw loader.failure(at: node, "`internal.domain` must differ from the table's domain and aliases")
            }
            internalDomain = name
            // One code a line, `2036 ZoneNotFound -> 26` (the public code only where public text pairs them): a
            // block of text, not a list of mappings, because the table is read at every start and a line costs
            // far less to read than a mapping.
            guard let codesNode = internalMap["codes"], let block = codesNode.string else {
                throw loader.failure(at: node, "`internal` needs `codes`: a block, one `CODE Name` or `CODE Name -> PUBLIC` a line")
            }
            for raw in block.split(separator: "\n", omittingEmptySubsequences: true) {
                let words = raw.split(separator: " ", omittingEmptySubsequences: true)
                guard words.count == 2 || (words.count == 4 && words[2] == "->"), let code = Int(words[0]),
                      words[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    throw loader.failure(at: codesNode, "internal code line `\(raw)` is not `CODE Name` or `CODE Name -> PUBLIC`")
                }
                guard internalNames[code] == nil else { throw loader.failure(at: codesNode, "internal code \(code) is listed twice") }
                internalNames[code] = String(words[1])
                if words.count == 4 {
                    guard let publicCode = Int(words[3]) else { throw loader.failure(at: codesNode, "internal code \(code): `\(words[3])` is not a code") }
                    internalCodes[code] = publicCode
                }
            }
        }
        self.internalCodes = internalCodes
        self.internalNames = internalNames
        self.internalDomain = internalDomain
        context = try map["context"].map { node in try loader.compile(node.string ?? "", at: node) }
        var order = firstOrder
        func entry(_ node: Node, isRange: Bool) throws -> CodeEntry {
            guard let rowMapping = node.mapping else { throw loader.failure(at: node, "a code row is a mapping") }
            let row = RuleLoader.keyed(rowMapping)
            for (keyNode, _) in rowMapping where !CodeTable.rowKeys.contains(keyNode.string ?? "") {
                throw loader.failure(at: keyNode, "unknown key `\(keyNode.string ?? "")` in a code row")
            }
            let first: Int, last: Int
            if isRange {
                guard let from = row["from"]?.int, let to = row["to"]?.int, from <= to else {
                    throw loader.failure(at: node, "a range needs `from` and `to` (from ≤ to)")
                }
                (first, last) = (from, to)
            } else {
                guard let code = row["code"]?.int else { throw loader.failure(at: node, "a code row needs `code`: a whole number") }
                (first, last) = (code, code)
            }
            func text(_ key: String) throws -> String {
                guard let value = row[key]?.string, !value.isEmpty else { throw loader.failure(at: node, "code \(first) needs `\(key)`") }
                return value
            }
            let name = try text("name"), meaning = try text("meaning"), advice = try text("advice")
            guard let category = Category(rawValue: try text("category")) else {
                throw loader.failure(at: row["category"], "unknown category (use \(Category.allCases.map(\.id).joined(separator: ", ")))")
            }
            guard let severity = Severity(name: try text("severity")) else {
                throw loader.failure(at: row["severity"], "unknown severity (use \(Severity.allNames))")
            }
            let generic = row["generic"]?.bool ?? false
            let id = "code.\(key)." + (isRange ? "\(first)-\(last)" : "\(first)")
            let title = isRange ? "\(name) (\(domain) \(first)–\(last))" : "\(name) (\(domain) \(first))"
            let location = SourceLocation(file: path, line: node.mark.map { $0.line } ?? 0, column: node.mark.map { $0.column } ?? 0)
            let rule = Rule(id: id, title: title, category: category, severity: severity, priority: 0, input: .any,
                            patterns: [], required: [], excluded: [], fieldPatterns: [], extractors: [],
                            advice: meaning + " " + advice, references: [], matchExamples: [], nomatchExamples: [],
                            location: location, order: order)
            order += 1
            var messages: [String] = []
            if let node = row["messages"] {
                guard let list = node.sequence, let strings = Optional(list.compactMap(\.string)), strings.count == list.count,
                      !strings.contains(where: \.isEmpty) else {
                    throw loader.failure(at: node, "messages is a list of non-empty sentences")
                }
                messages = strings
            }
            var server: [String] = []
            if let node = row["server"] {
                let names = node.sequence.map { $0.compactMap(\.string) } ?? node.string.map { [$0] } ?? []
                // `^[A-Z][A-Z_]*[A-Z]$`, checked by hand: Foundation compiles a regular expression per call, a
                // measurable part of start-up.
                func isServerName(_ name: String) -> Bool {
                    let bytes = Array(name.utf8)
                    func isCapital(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
                    guard bytes.count >= 2, let first = bytes.first, let last = bytes.last, isCapital(first), isCapital(last) else { return false }
                    return bytes.allSatisfy { isCapital($0) || $0 == UInt8(ascii: "_") }
                }
                guard !names.isEmpty, names.allSatisfy(isServerName) else {
                    throw loader.failure(at: node, "server is a name or a list of names in capitals (ZONE_NOT_FOUND)")
                }
                server = names
            }
            return CodeEntry(domain: domain, code: first, last: last, name: name, printed: row["printed"]?.string, messages: messages,
                             server: server, category: category, severity: severity, generic: generic,
                             needsContext: row["context"]?.bool ?? false, success: row["success"]?.bool ?? false, meaning: meaning, advice: advice, rule: rule)
        }
        var seen = Set<Int>()
        var entries: [CodeEntry] = []
        for node in RuleLoader.items(map, "codes") {
            let row = try entry(node, isRange: false)
            guard seen.insert(row.code).inserted else { throw loader.failure(at: node, "code \(row.code) is listed twice") }
            entries.append(row)
        }
        self.entries = entries
        if let (internalCode, publicCode) = internalCodes.first(where: { !seen.contains($0.value) }) {
            throw loader.failure(at: map["internal"], "internal code \(internalCode) names public code \(publicCode), which `codes` does not list")
        }
        ranges = try RuleLoader.items(map, "ranges").map { try entry($0, isRange: true) }
    }
}
