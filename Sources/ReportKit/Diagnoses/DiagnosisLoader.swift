import CDLogCore
import CDLogKit
import Foundation
import Yams

/// Parses one diagnosis file (YAML; schema in `Rules/diagnoses/README.md`).
///
/// Contract: returns every diagnosis of the file or throws `ToolFailure` whose message starts with
/// `FILE:LINE:COLUMN: error:` for the first problem (YAML syntax, unknown keys, bad patterns, figures,
/// comparisons, placeholders that name no condition). Never traps on any file content.
public struct DiagnosisLoader {
    public let path: String
    private let text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    static let diagnosisKeys: Set<String> = [
        "id", "title", "severity", "priority", "when", "at-least", "statement", "advice", "references", "examples", "description",
    ]
    static let conditionKeys: Set<String> = ["name", "label", "optional", "log", "crash", "store"]
    static let entryKeys: Set<String> = ["rule", "category", "severity", "message", "fields", "count"]
    static let exampleKeys: Set<String> = ["log", "crash", "store", "findings", "statement"]

    public func load(firstOrder: Int) throws -> [DiagnosisRule] {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            switch error {
            case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
                throw ToolFailure("\(path):\(mark.line):\(mark.column): error: invalid YAML: \(problem)")
            default:
                throw ToolFailure("\(path):1:1: error: invalid YAML: \(error)")
            }
        } catch {
            throw ToolFailure("\(path):1:1: error: cannot parse YAML: \(error)")
        }
        guard let root else { return [] }
        guard let top = root.mapping, let list = top["diagnoses"] else {
            throw failure(root, "a diagnosis file is a mapping with a `diagnoses:` list")
        }
        guard let sequence = list.sequence else { throw failure(list, "`diagnoses` must be a list") }
        return try sequence.enumerated().map { try diagnosis($0.element, order: firstOrder + $0.offset) }
    }

    private func diagnosis(_ node: Node, order: Int) throws -> DiagnosisRule {
        guard let map = node.mapping else { throw failure(node, "each diagnosis must be a mapping") }
        try checkKeys(map, Self.diagnosisKeys, "diagnosis")
        let id = try string(map, "id", node)
        guard id.range(of: #"^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$"#, options: .regularExpression) != nil else {
            throw failure(map["id"], "diagnosis id `\(id)` must be dotted lower-case words, e.g. `launch.watchdog.checkpoint`")
        }
        let title = try string(map, "title", node)
        guard let severityName = map["severity"]?.string, let severity = Severity(name: severityName) else {
            throw failure(map["severity"] ?? node, "diagnosis `\(id)` needs `severity`: one of \(Severity.allNames)")
        }
        let priority = try int(map["priority"]) ?? 0
        guard let whenNode = map["when"], let whenList = whenNode.sequence, !whenList.isEmpty else {
            throw failure(map["when"] ?? node, "diagnosis `\(id)` needs a non-empty `when:` list of conditions")
        }
        var conditions: [Condition] = []
        for item in whenList {
            let condition = try self.condition(item)
            if conditions.contains(where: { $0.name == condition.name }) {
                throw failure(item, "duplicate condition name `\(condition.name)`")
            }
            conditions.append(condition)
        }
        if !conditions.contains(where: { !$0.optional }) {
            throw failure(whenNode, "at least one condition must be required (not `optional: true`)")
        }
        let atLeast = try int(map["at-least"]) ?? 0
        let optionalCount = conditions.filter(\.optional).count
        if atLeast > optionalCount {
            throw failure(map["at-least"], "`at-least: \(atLeast)` but only \(optionalCount) optional conditions")
        }
        let statements = try strings(map["statement"], "statement")
        if statements.isEmpty { throw failure(map["statement"] ?? node, "diagnosis `\(id)` needs `statement:` (one sentence, or a list of alternatives)") }
        for statement in statements {
            for placeholder in Placeholders.names(in: statement) {
                let condition = placeholder.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
                guard conditions.contains(where: { $0.name == condition }), placeholder.contains(".") else {
                    throw failure(map["statement"], "placeholder `{\(placeholder)}` must be `{condition.key}` naming a condition of this diagnosis")
                }
            }
        }
        let advice = try strings(map["advice"], "advice")
        if advice.isEmpty { throw failure(map["advice"] ?? node, "diagnosis `\(id)` needs `advice:` (a list of steps)") }
        let references = try strings(map["references"], "references")
        var match: [DiagnosisExample] = [], nomatch: [DiagnosisExample] = []
        if let examples = map["examples"] {
            guard let em = examples.mapping else { throw failure(examples, "`examples` must be a mapping with `match`/`nomatch`") }
            try checkKeys(em, ["match", "nomatch"], "examples")
            match = try exampleList(em["match"])
            nomatch = try exampleList(em["nomatch"])
        }
        if match.isEmpty { throw failure(map["examples"] ?? node, "diagnosis `\(id)` needs at least one `examples: match:` example") }
        return DiagnosisRule(id: id, title: title, severity: severity, priority: priority, conditions: conditions,
                             atLeast: atLeast, statements: statements, advice: advice, references: references,
                             matchExamples: match, nomatchExamples: nomatch, location: location(node), order: order)
    }

    private func condition(_ node: Node) throws -> Condition {
        guard let map = node.mapping else { throw failure(node, "each condition must be a mapping") }
        try checkKeys(map, Self.conditionKeys, "condition")
        let name = try string(map, "name", node)
        guard name.range(of: #"^[A-Za-z][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
            throw failure(map["name"], "condition name `\(name)` must be a word (letters, digits, _)")
        }
        let optional = try bool(map["optional"]) ?? false
        let kinds = [Condition.Kind.log, .crash, .store].filter { map[$0.rawValue] != nil }
        guard kinds.count == 1, let kind = kinds.first, let body = map[kind.rawValue] else {
            throw failure(node, "condition `\(name)` needs exactly one of `log:`, `crash:`, `store:`")
        }
        let label = try map["label"].map { try scalar($0, "label") } ?? name
        switch kind {
        case .log, .crash:
            return Condition(name: name, kind: kind, label: label, optional: optional, entry: try entryMatcher(body), store: nil)
        case .store:
            return Condition(name: name, kind: kind, label: label, optional: optional, entry: nil, store: try storeMatcher(body))
        }
    }

    private func entryMatcher(_ node: Node) throws -> EntryMatcher {
        guard let map = node.mapping else { throw failure(node, "an entry condition is a mapping (rule, category, severity, message, fields, count)") }
        try checkKeys(map, Self.entryKeys, "entry condition")
        let rule = try map["rule"].map { try regex($0) }
        var categories: [Category] = []
        for text in try strings(map["category"], "category") {
            guard let category = Category(rawValue: text) else {
                throw failure(map["category"], "unknown category `\(text)` (use \(Category.allIds))")
            }
            categories.append(category)
        }
        var minimum: Severity?
        if let node = map["severity"] {
            let text = try scalar(node, "severity").replacingOccurrences(of: ">=", with: "").trimmingCharacters(in: .whitespaces)
            guard let s = Severity(name: text) else { throw failure(node, "`severity` is a minimum: one of \(Severity.allNames)") }
            minimum = s
        }
        let message = try map["message"].map { try regex($0) }
        var fields: [(String, PCRERegex)] = []
        if let node = map["fields"] {
            guard let fm = node.mapping else { throw failure(node, "`fields` maps field names to patterns") }
            for (key, value) in fm {
                guard let name = key.string else { throw failure(key, "field names are strings") }
                fields.append((name, try regex(value)))
            }
        }
        var count = Comparison(.ge, 1)
        if let node = map["count"] {
            guard let c = Comparison.parse(try scalar(node, "count")) else { throw failure(node, "`count` is a comparison such as `>= 3`") }
            count = c
        }
        if rule == nil && categories.isEmpty && minimum == nil && message == nil && fields.isEmpty {
            throw failure(node, "an entry condition needs at least one of rule, category, severity, message, fields")
        }
        return EntryMatcher(rule: rule, categories: categories, minimumSeverity: minimum, message: message, fields: fields, count: count)
    }

    private func storeMatcher(_ node: Node) throws -> StoreMatcher {
        guard let map = node.mapping else { throw failure(node, "a store condition maps figures to comparisons (walBytes: '>= 16 MiB')") }
        var figures: [(String, Comparison)] = []
        var findings: [String] = []
        for (key, value) in map {
            guard let name = key.string else { throw failure(key, "figure names are strings") }
            if name == "findings" {
                findings = try strings(value, "findings")
                continue
            }
            guard StoreFacts.figureNames.contains(name) else {
                throw failure(key, "unknown store figure `\(name)` (use \(StoreFacts.figureNames.joined(separator: ", ")), findings)")
            }
            guard let comparison = Comparison.parse(try scalar(value, name)) else {
                throw failure(value, "`\(name)` needs a comparison such as `>= 16 MiB`")
            }
            figures.append((name, comparison))
        }
        if figures.isEmpty && findings.isEmpty { throw failure(node, "a store condition needs at least one figure or `findings`") }
        return StoreMatcher(figures: figures, findings: findings)
    }

    private func exampleList(_ node: Node?) throws -> [DiagnosisExample] {
        guard let node else { return [] }
        guard let list = node.sequence else { throw failure(node, "examples are a list") }
        return try list.map { item in
            guard let map = item.mapping else { throw failure(item, "an example is a mapping (log, crash, store, findings, statement)") }
            try checkKeys(map, Self.exampleKeys, "example")
            var crash: [(name: String, value: String)]?
            if let node = map["crash"] {
                guard let cm = node.mapping else { throw failure(node, "`crash` maps crash fields to values") }
                crash = try cm.map { key, value in (try scalar(key, "field"), try scalar(value, "field value")) }
            }
            var store: [String: Double]?
            if let node = map["store"] {
                guard let sm = node.mapping else { throw failure(node, "`store` maps figures to numbers") }
                var figures: [String: Double] = [:]
                for (key, value) in sm {
                    let name = try scalar(key, "figure")
                    guard StoreFacts.figureNames.contains(name) else { throw failure(key, "unknown store figure `\(name)`") }
                    guard let number = Comparison.parse(try scalar(value, name)), number.op == .ge else {
                        throw failure(value, "`\(name)` needs a number (units allowed: 40 MiB)")
                    }
                    figures[name] = number.value
                }
                store = figures
            }
            let findings = try strings(map["findings"], "findings")
            if map["log"] == nil && crash == nil && store == nil && findings.isEmpty {
                throw failure(item, "an example needs `log`, `crash` or `store`")
            }
            return DiagnosisExample(log: try map["log"].map { try scalar($0, "log") }, crash: crash,
                                    store: store ?? (findings.isEmpty ? nil : [:]), storeFindings: findings,
                                    statementContains: try map["statement"].map { try scalar($0, "statement") },
                                    location: location(item))
        }
    }

    // MARK: - Helpers

    private func checkKeys(_ map: Node.Mapping, _ allowed: Set<String>, _ what: String) throws {
        for (key, _) in map {
            guard let name = key.string, allowed.contains(name) else {
                throw failure(key, "unknown key `\(key.string ?? "?")` in \(what) (allowed: \(allowed.sorted().joined(separator: ", ")))")
            }
        }
    }

    private func scalar(_ node: Node, _ what: String) throws -> String {
        guard let s = node.scalar?.string else { throw failure(node, "`\(what)` must be a string") }
        return s
    }

    private func string(_ map: Node.Mapping, _ key: String, _ parent: Node) throws -> String {
        guard let node = map[key] else { throw failure(parent, "missing `\(key)`") }
        let s = try scalar(node, key)
        if s.isEmpty { throw failure(node, "`\(key)` must not be empty") }
        return s
    }

    private func strings(_ node: Node?, _ what: String) throws -> [String] {
        guard let node else { return [] }
        if let list = node.sequence { return try list.map { try scalar($0, what) } }
        return [try scalar(node, what)]
    }

    private func int(_ node: Node?) throws -> Int? {
        guard let node else { return nil }
        guard let value = node.scalar.flatMap({ Int($0.string) }) else { throw failure(node, "expected a whole number") }
        return value
    }

    private func bool(_ node: Node?) throws -> Bool? {
        guard let node else { return nil }
        switch node.scalar?.string {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw failure(node, "expected true or false")
        }
    }

    private func regex(_ node: Node) throws -> PCRERegex {
        let pattern = try scalar(node, "pattern")
        do { return try PCRERegex(pattern) } catch let error as PCRERegex.PatternError {
            throw failure(node, "pattern does not compile: \(error.message)")
        }
    }

    private func location(_ node: Node) -> SourceLocation {
        SourceLocation(file: path, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    /// `path:line:column: error: message`, with the source line and a caret under the column as the
    /// detail, as rule files report theirs (`RuleFileError`).
    private func failure(_ node: Node?, _ message: String) -> ToolFailure {
        let line = node?.mark?.line ?? 1
        let error = RuleFileError(file: path, line: line, column: node?.mark?.column ?? 1, message: message,
                                  sourceLine: RuleFileError.line(line, of: text))
        return ToolFailure(error.headline, detail: error.excerpt)
    }
}
