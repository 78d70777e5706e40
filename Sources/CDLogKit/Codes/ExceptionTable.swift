import CDLogCore
import Yams

/// The exception table (Rules/tables/exceptions.yaml): exception names and reasons as data, turned into
/// ordinary rules so they are ranked, prefiltered and tested like every other rule.
///
/// Contract: each `reasons`, `apis` and `names` row becomes two rules, `exception.<id>` at the row's
/// severity (default `fatal`) that does not match an entry saying the exception was caught, and
/// `exception.<id>.caught` at `error` that matches only such an entry. Reason rules rank above the phrase
/// rules (`reasonPriority`); API rules (the Core Data, SwiftData or CloudKit method that raised it: the
/// first frames after the throw machinery) just above the name rules (`apiPriority`), which rank just above
/// the code tables (`namePriority`). A row with
/// `marker: true` requires the table's `marker` pattern. Every rule carries the `exception` extractor and
/// the row's example as a match example. A bad file throws `RuleFileError` pointing into it.
enum ExceptionTable {
    static let reasonPriority = 40
    static let apiPriority = 3
    static let namePriority = 2
    /// The throw machinery's frame, then up to two more system frames (`+[NSException raise:format:]`, a Core Data
    /// helper), then the line of the API that raised: an app's own frame in between means the app raised, and
    /// an API further down only called it.
    static let raisedBy = #"(?:objc_exception_throw|_?_?exceptionPreprocess)[^\n]*(?:\n(?=[^\n]*(?:CoreFoundation|libobjc|CoreData|Foundation|libc\+\+abi|libsystem_|libdispatch|SwiftData|CloudKit))[^\n]*){0,2}?\n[^\n]*?"#

    private static let fileKeys: Set<String> = ["marker", "caught", "reasons", "apis", "names"]
    private static let apiKeys: Set<String> = ["id", "api", "marker", "category", "severity", "title", "meaning", "advice", "example"]
    private static let reasonKeys: Set<String> = ["id", "reason", "require", "marker", "category", "severity", "title",
                                                  "meaning", "advice", "example"]
    private static let nameKeys: Set<String> = ["name", "marker", "category", "severity", "meaning", "advice", "example"]

    /// `example` as Core Data prints an exception it caught while processing changes.
    static func caughtForm(of example: String) -> String {
        "CoreData: error: Serious application error.  Exception was caught during Core Data change processing.  This is usually a bug within an observer of NSManagedObjectContextObjectsDidChangeNotification.  \(example) with userInfo (null)"
    }

    static func isExceptionTable(_ map: [String: Node]) -> Bool { map["reasons"] != nil || map["names"] != nil || map["apis"] != nil }

    enum RowKind { case reason, api, name }

    static func rules(path: String, map: [String: Node], mapping: Node.Mapping, loader: RuleLoader, firstOrder: Int) throws -> [Rule] {
        for (keyNode, _) in mapping where !fileKeys.contains(keyNode.string ?? "") {
            throw loader.failure(at: keyNode, "unknown key `\(keyNode.string ?? "")` (known: \(fileKeys.sorted().joined(separator: ", ")))")
        }
        guard let markerNode = map["marker"], let caughtNode = map["caught"] else {
            throw loader.failure(at: nil, "an exception table needs `marker` and `caught` patterns")
        }
        let marker = try loader.compile(markerNode.string ?? "", at: markerNode)
        let caught = try loader.compile(caughtNode.string ?? "", at: caughtNode)
        let scratch = MatchScratch()
        var rules: [Rule] = []
        var seen = Set<String>()
        var order = firstOrder

        func row(_ node: Node, keys: Set<String>, kind: RowKind) throws {
            let isName = kind == .name
            let row = try TableRow(node, keys: keys, what: "an exception row", loader: loader)
            let text = row.text
            let id: String, title: String, pattern: PCRERegex
            if isName {
                let name = try text("name")
                guard name.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }) else {
                    throw loader.failure(at: row["name"], "an exception name is one identifier")
                }
                id = "exception.name." + name.lowercased()
                title = "Uncaught \(name)"
                pattern = try loader.compile("\\b\(name)\\b", at: row["name"])
            } else {
                let slug = try text("id")
                id = (kind == .api ? "exception.api." : "exception.") + slug
                guard RuleLoader.isDottedID(id) else { throw loader.failure(at: row["id"], "`id` is one lower-case word (a-z, 0-9, -)") }
                title = try text("title")
                pattern = kind == .api ? try loader.compile(raisedBy + "(?:" + (try text("api")) + ")", at: row["api"])
                    : try loader.compile(try text("reason"), at: row["reason"])
            }
            guard seen.insert(id).inserted else { throw loader.failure(at: node, "`\(id)` is listed twice") }
            guard let category = Category(rawValue: try text("category")) else {
                throw loader.failure(at: row["category"], "unknown category (use \(Category.allIds))")
            }
            var severity = Severity.fatal
            if let node = row["severity"] {
                guard let name = node.string, let value = Severity(name: name) else {
                    throw loader.failure(at: node, "unknown severity (use \(Severity.allNames))")
                }
                severity = value
            }
            var required: [PCRERegex] = try row["require"].map { [try loader.compile($0.string ?? "", at: $0)] } ?? []
            if row["marker"]?.bool ?? false { required.append(marker) }
            let advice = try text("meaning") + " " + text("advice")
            let example = try text("example")
            let location = SourceLocation(file: path, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0)
            let exampleLocation = SourceLocation(file: path, line: row["example"]?.mark?.line ?? location.line,
                                                 column: row["example"]?.mark?.column ?? location.column)
            let priority = kind == .name ? namePriority : kind == .api ? apiPriority : reasonPriority
            guard !caught.matches(example, scratch: scratch) else {
                throw loader.failure(at: row["example"], "`example` is the uncaught form (the caught twin is tested on it wrapped as Core Data prints a caught exception)")
            }
            let uncaughtExamples = [RuleExample(text: example, expectedFields: [:], location: exampleLocation)]
            let caughtExamples = [RuleExample(text: ExceptionTable.caughtForm(of: example), expectedFields: [:], location: exampleLocation)]
            rules.append(Rule(id: id, title: title, category: category, severity: severity, priority: priority, input: .log,
                              patterns: [pattern], required: required, excluded: [caught], fieldPatterns: [],
                              extractors: [.exception], advice: advice, references: [],
                              matchExamples: uncaughtExamples, nomatchExamples: caughtExamples, location: location, order: order,
                              severityBeforeTermination: severity == .fatal ? .error : nil))
            rules.append(Rule(id: id + ".caught", title: title + " (caught)", category: category, severity: min(severity, .error),
                              priority: priority, input: .log, patterns: [pattern], required: required + [caught], excluded: [],
                              fieldPatterns: [], extractors: [.exception], advice: advice, references: [],
                              matchExamples: caughtExamples, nomatchExamples: uncaughtExamples, location: location, order: order + 1))
            order += 2
        }
        for node in RuleLoader.items(map, "reasons") { try row(node, keys: reasonKeys, kind: .reason) }
        for node in RuleLoader.items(map, "apis") { try row(node, keys: apiKeys, kind: .api) }
        for node in RuleLoader.items(map, "names") { try row(node, keys: nameKeys, kind: .name) }
        return rules
    }
}
