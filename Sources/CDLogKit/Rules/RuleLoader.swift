import CDLogCore
import Foundation
import Yams

/// Parses and compiles one rule file (YAML, schema in Rules/README.md).
///
/// Contract: returns every rule of the file, compiled, or throws `RuleFileError` for the first problem
/// found (YAML syntax, a missing or mistyped key, an unknown category/severity/extractor, a pattern
/// PCRE2 rejects), with the line and column inside the file. Never traps on any file content.
public struct RuleLoader {
    public let path: String
    private let text: String
    /// A user rule file: its patterns are guarded (`PCRERegex.budget`) and checked for constructs that
    /// backtrack catastrophically (`PatternHazard`).
    @_spi(Testing) public let guarded: Bool
    /// A file built into the binary (`RuleSet.embedded()`): a test holds it far below the nesting limit, so
    /// it is not read for its nesting before it is parsed. Every other file is.
    let embedded: Bool

    public init(path: String, text: String, guarded: Bool = false) {
        self.init(path: path, text: text, guarded: guarded, embedded: false)
    }

    init(path: String, text: String, guarded: Bool, embedded: Bool) {
        self.path = path
        self.text = text
        self.guarded = guarded
        self.embedded = embedded
    }

    /// Deeper YAML than this is refused before parsing: the parser recurses once per level, and 5 000
    /// levels overflowed the stack. A rule file needs about six.
    public static let maximumNesting = 64

    /// Loads the rules; `firstOrder` numbers them globally for the tie-break order.
    public func load(firstOrder: Int) throws -> [Rule] {
        // Every file is checked before it is parsed but the built-in ones, which a test (HostileRuleTests)
        // holds far below the limit: start-up does not read them twice (about 2 % of it).
        if !embedded, let (line, column, depth) = RuleLoader.excessiveNesting(text, limit: RuleLoader.maximumNesting) {
            throw RuleFileError(file: path, line: line, column: column,
                                message: "YAML nests \(depth) levels deep here (at most \(RuleLoader.maximumNesting))", sourceLine: sourceLine(line))
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .basic)  // plain strings: no regex-based tag resolution
        } catch let error as YamlError {
            throw yamlFailure(error)
        } catch {
            throw failure(at: nil, "cannot parse YAML: \(error)")
        }
        guard let root else { return [] }
        guard let topMapping = root.mapping else { throw failure(at: root, "a rule file is a mapping with a `rules:` list") }
        let top = RuleLoader.keyed(topMapping)
        let defaultCategory = try top["category"].map { try category(from: $0) }
        guard let rulesNode = top["rules"] else { throw failure(at: root, "missing `rules:` list") }
        guard let sequence = rulesNode.sequence else { throw failure(at: rulesNode, "`rules` must be a list") }
        var rules: [Rule] = []
        for (index, node) in sequence.enumerated() {
            rules.append(try rule(from: node, defaultCategory: defaultCategory, order: firstOrder + index))
        }
        return rules
    }

    private static let ruleKeys: Set<String> = [
        "id", "title", "category", "severity", "priority", "patterns", "require", "exclude", "fields",
        "extractors", "advice", "references", "examples", "description", "input", "resolve", "before-termination",
    ]

    private func rule(from node: Node, defaultCategory: Category?, order: Int) throws -> Rule {
        guard let mapping = node.mapping else { throw failure(at: node, "each rule must be a mapping") }
        let map = RuleLoader.keyed(mapping)
        for (key, _) in mapping {
            guard let name = key.string, RuleLoader.ruleKeys.contains(name) else {
                throw failure(at: key, "unknown key `\(key.string ?? "?")` in rule")
            }
        }
        let id = try requiredString(map, "id", in: node)
        guard RuleLoader.isDottedID(id) else {
            throw failure(at: map["id"], "rule id `\(id)` must be dotted lower-case words, e.g. `cloudkit.quota-exceeded`")
        }
        let title = try requiredString(map, "title", in: node)
        let category: Category
        if let categoryNode = map["category"] {
            category = try self.category(from: categoryNode)
        } else if let defaultCategory {
            category = defaultCategory
        } else {
            throw failure(at: node, "rule `\(id)` has no `category` (and the file sets none)")
        }
        let severityNode = map["severity"]
        guard let severityName = severityNode?.string, let severity = Severity(name: severityName) else {
            throw failure(at: severityNode ?? node, "rule `\(id)` needs `severity`: one of \(Severity.allNames)")
        }
        var priority = 0
        if let priorityNode = map["priority"] {
            guard let value = priorityNode.string.flatMap({ Int($0) }) else {
                throw failure(at: priorityNode, "`priority` must be a whole number")
            }
            priority = value
        }
        var input = RuleInput.log
        if let inputNode = map["input"] {
            guard let name = inputNode.string, let value = RuleInput(rawValue: name) else {
                throw failure(at: inputNode, "`input` must be one of: " + RuleInput.allCases.map(\.rawValue).joined(separator: ", "))
            }
            input = value
        }
        let patterns = try regexList(map["patterns"], key: "patterns", rule: id)
        guard !patterns.isEmpty else { throw failure(at: map["patterns"] ?? node, "rule `\(id)` needs at least one pattern") }
        let required = try regexList(map["require"], key: "require", rule: id)
        let excluded = try regexList(map["exclude"], key: "exclude", rule: id)
        var fieldPatterns: [(name: String, regex: PCRERegex)] = []
        if let fieldsNode = map["fields"] {
            guard let fieldsMap = fieldsNode.mapping else { throw failure(at: fieldsNode, "`fields` must map names to patterns") }
            for (key, value) in fieldsMap {
                guard let name = key.string, !name.isEmpty else { throw failure(at: key, "field name must be a string") }
                fieldPatterns.append((name, try regex(value, label: "rule \(id), fields.\(name)")))
            }
        }
        var extractors: [BuiltinExtractor] = []
        if let node = map["extractors"] {
            for item in try stringList(node, key: "extractors") {
                guard let extractor = BuiltinExtractor(rawValue: item.value) else {
                    let known = BuiltinExtractor.allCases.map(\.rawValue).joined(separator: ", ")
                    throw failure(at: item.node, "unknown extractor `\(item.value)` (known: \(known))")
                }
                extractors.append(extractor)
            }
        }
        let advice = map["advice"]?.string.map { $0.trimmingSpaces() }
        let references = try map["references"].map { try stringList($0, key: "references").map(\.value) } ?? []
        var matchExamples: [RuleExample] = []
        var nomatchExamples: [RuleExample] = []
        if let examplesNode = map["examples"] {
            guard let examples = examplesNode.mapping else {
                throw failure(at: examplesNode, "`examples` must have `match:` and/or `nomatch:` lists")
            }
            for (key, value) in examples {
                switch key.string {
                case "match": matchExamples = try exampleList(value, expectations: true)
                case "nomatch": nomatchExamples = try exampleList(value, expectations: false)
                default: throw failure(at: key, "unknown key `\(key.string ?? "?")` in examples (use match, nomatch)")
                }
            }
        }
        var resolution: RuleResolution?
        if let resolveNode = map["resolve"] {
            guard let name = resolveNode.string, let value = RuleResolution(rawValue: name) else {
                throw failure(at: resolveNode, "`resolve` must be one of: " + RuleResolution.allCases.map(\.rawValue).joined(separator: ", "))
            }
            resolution = value
        }
        var beforeTermination: Severity?
        if let node = map["before-termination"] {
            guard let name = node.string, let value = Severity(name: name), value < severity else {
                throw failure(at: node, "`before-termination` must be a severity below the rule's `\(severity.name)`")
            }
            beforeTermination = value
        }
        return Rule(id: id, title: title, category: category, severity: severity, priority: priority, input: input,
                    patterns: patterns, required: required, excluded: excluded, fieldPatterns: fieldPatterns,
                    extractors: extractors, advice: advice, references: references,
                    matchExamples: matchExamples, nomatchExamples: nomatchExamples,
                    location: location(of: node), order: order, resolution: resolution,
                    severityBeforeTermination: beforeTermination)
    }

    /// `word(.word)+` with lower-case letters, digits, `_` and `-`, each word starting with a letter or digit.
    static func isDottedID(_ id: String) -> Bool {
        let words = id.split(separator: ".", omittingEmptySubsequences: false)
        guard words.count >= 2 else { return false }
        return words.allSatisfy { word in
            guard let first = word.utf8.first, (first >= 97 && first <= 122) || (first >= 48 && first <= 57) else { return false }
            return word.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 || $0 == 45 }
        }
    }

    // MARK: - Typed accessors

    private func category(from node: Node) throws -> Category {
        guard let name = node.string, let category = Category(rawValue: name) else {
            throw failure(at: node, "unknown category `\(node.string ?? "?")` (known: \(Category.allIds))")
        }
        return category
    }

    /// A mapping's entries by string key (looking keys up through `Node.Mapping`'s subscript would
    /// resolve tags with regular expressions on every lookup).
    static func keyed(_ mapping: Node.Mapping) -> [String: Node] {
        var result: [String: Node] = [:]
        for (key, value) in mapping { if let name = key.scalar?.string, result[name] == nil { result[name] = value } }
        return result
    }

    /// The items of `map[key]`'s sequence, none when it has none. An array, never an empty `Node.Sequence`
    /// literal: that one's default tag builds Yams' default resolver, which compiles regular expressions at start-up.
    static func items(_ map: [String: Node], _ key: String) -> [Node] {
        map[key]?.sequence.map(Array.init) ?? []
    }

    private func requiredString(_ map: [String: Node], _ key: String, in parent: Node) throws -> String {
        guard let node = map[key] else { throw failure(at: parent, "rule is missing `\(key)`") }
        guard let value = node.string, !value.isEmpty else { throw failure(at: node, "`\(key)` must be a non-empty string") }
        return value
    }

    private func stringList(_ node: Node, key: String) throws -> [(value: String, node: Node)] {
        if let single = node.string, node.scalar != nil { return [(single, node)] }
        guard let sequence = node.sequence else { throw failure(at: node, "`\(key)` must be a list of strings") }
        return try sequence.map { item in
            guard item.scalar != nil, let value = item.string else { throw failure(at: item, "`\(key)` entries must be strings") }
            return (value, item)
        }
    }

    private func regexList(_ node: Node?, key: String, rule id: String) throws -> [PCRERegex] {
        guard let node else { return [] }
        return try stringList(node, key: key).enumerated().map { index, item in
            try regex(item.node, label: "rule \(id), \(key)[\(index)]")
        }
    }

    /// Compiles a table's pattern; an error points at `node`.
    func compile(_ pattern: String, at node: Node?) throws -> PCRERegex {
        do { return try PCRERegex(pattern) } catch { throw failure(at: node, "pattern does not compile: \(error)") }
    }

    private func regex(_ node: Node, label: String) throws -> PCRERegex {
        guard let scalar = node.scalar else { throw failure(at: node, "a pattern must be a string") }
        if guarded, let hazard = PatternHazard.find(in: scalar.string) {
            throw failure(at: node, "pattern can backtrack catastrophically: \(hazard.message)", patternOffset: hazard.offset)
        }
        do {
            return try PCRERegex(scalar.string, guardedAs: guarded ? label : nil)
        } catch let error as PCRERegex.PatternError {
            throw failure(at: node, "pattern does not compile: \(error.message)", patternOffset: error.offset)
        }
    }

    /// `expectations`: a `match` list, whose mapping items may say what the classification must give (`fields:`,
    /// `category:`); a `nomatch` item is its `text:` alone (an expectation there could never be checked).
    private func exampleList(_ node: Node, expectations: Bool) throws -> [RuleExample] {
        guard let sequence = node.sequence else { throw failure(at: node, "examples must be a list") }
        return try sequence.map { item in
            if item.scalar != nil, let text = item.string {
                return RuleExample(text: text, expectedFields: [:], location: location(of: item))
            }
            guard let mapping = item.mapping, case let map = RuleLoader.keyed(mapping), let text = map["text"]?.string else {
                throw failure(at: item, "an example is a string or a mapping with `text:` (and optional `fields:`, `category:`)")
            }
            let known = expectations ? ["text", "fields", "category"] : ["text"]
            if let unknown = map.keys.sorted().first(where: { !known.contains($0) }) {
                throw failure(at: item, expectations
                    ? "unknown example key `\(unknown)` (known: text, fields, category)"
                    : "a nomatch example takes `text:` only, not `\(unknown)`: nothing is classified to check it against")
            }
            var fields: [String: String] = [:]
            if let fieldsNode = map["fields"] {
                guard let fieldsMap = fieldsNode.mapping else { throw failure(at: fieldsNode, "`fields` must be a mapping") }
                for (key, value) in fieldsMap {
                    guard let name = key.string, let expected = value.string else {
                        throw failure(at: key, "example fields map names to strings")
                    }
                    fields[name] = expected
                }
            }
            let expectedCategory = try map["category"].map { try category(from: $0) }
            return RuleExample(text: text, expectedFields: fields, expectedCategory: expectedCategory, location: location(of: item))
        }
    }

    // MARK: - Locations and errors

    private func location(of node: Node) -> SourceLocation {
        SourceLocation(file: path, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    /// The first line where `text` nests deeper than `limit` (block indentation levels, `- ` items opened
    /// on one line, and open `[`/`{` outside quotes counted together), with that depth; nil when it never
    /// does. An over-estimate for odd but legal layouts is fine: real rule files stay near six.
    static func excessiveNesting(_ text: String, limit: Int) -> (line: Int, column: Int, depth: Int)? {
        // Read over the contiguous UTF-8 bytes with integer indices: the string's views cost about a tenth of
        // start-up when every embedded rule file was checked before it was parsed.
        var copy = text
        return copy.withUTF8 { bytes in excessiveNesting(bytes, limit: limit) }
    }

    private static func excessiveNesting(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> (line: Int, column: Int, depth: Int)? {
        var indents: [Int] = []
        var flow = 0
        var lineNumber = 0
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            lineNumber += 1
            var index = lineStart
            var indent = 0
            while index < lineEnd, bytes[index] == UInt8(ascii: " ") { indent += 1; index += 1 }
            guard index < lineEnd, bytes[index] != UInt8(ascii: "#"), bytes[index] != UInt8(ascii: "\r") else { continue }
            if flow == 0 {
                while let last = indents.last, last >= indent { indents.removeLast() }
                indents.append(indent)
            }
            // `- - - x` opens one sequence per dash.
            var dashes = 0
            while index < lineEnd, bytes[index] == UInt8(ascii: "-") {
                let next = index + 1
                guard next < lineEnd, bytes[next] == UInt8(ascii: " ") else { break }
                dashes += 1
                index = next + 1
                while index < lineEnd, bytes[index] == UInt8(ascii: " ") { index += 1 }
            }
            var quote: UInt8 = 0
            var deepest = flow
            while index < lineEnd {
                let byte = bytes[index]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    quote = byte
                } else if byte == UInt8(ascii: "#") {
                    break
                } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                    flow += 1
                    deepest = max(deepest, flow)
                } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                    flow = max(0, flow - 1)
                }
                index += 1
            }
            let depth = indents.count + dashes + deepest
            if depth > limit { return (lineNumber, indent + 1, depth) }
        }
        return nil
    }

    /// Line `line` of the file, for error messages. Split on the UTF-8 bytes, only when an error needs
    /// it: start-up never splits a file into `Character`s, and a `\r\n` (one `Character`) still ends a
    /// line.
    private func sourceLine(_ line: Int) -> String? { RuleFileError.line(line, of: text) }

    /// An error at `node`; for a pattern error, the column moves to PCRE2's offset inside a one-line
    /// quoted or plain scalar (block scalars keep the scalar's own position).
    func failure(at node: Node?, _ message: String, patternOffset: Int? = nil) -> RuleFileError {
        var line = node?.mark?.line ?? 1
        var column = node?.mark?.column ?? 1
        if let patternOffset, let scalar = node?.scalar {
            switch scalar.style {
            case .singleQuoted, .doubleQuoted: column += 1 + patternOffset
            case .plain, .any: column += patternOffset
            default: line += 1
            }
        }
        return RuleFileError(file: path, line: line, column: column, message: message, sourceLine: sourceLine(line))
    }

    private func yamlFailure(_ error: YamlError) -> RuleFileError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return RuleFileError(file: path, line: mark.line, column: mark.column, message: "invalid YAML: \(problem)",
                                 sourceLine: sourceLine(mark.line))
        case let .reader(problem, _, _, _):
            return RuleFileError(file: path, line: 1, column: 1, message: "invalid YAML: \(problem)", sourceLine: nil)
        default:
            return RuleFileError(file: path, line: 1, column: 1, message: "invalid YAML: \(error)", sourceLine: nil)
        }
    }
}
