import CDLogCore
import Yams

/// Loads the area table file (`movable` groups and `areas` rows).
enum AreaTable {
    private static let fileKeys: Set<String> = ["movable", "areas"]
    private static let rowKeys: Set<String> = ["name", "category", "moves", "literal", "pattern", "advice", "example", "yields"]

    static func isAreaTable(_ map: [String: Node]) -> Bool { map["areas"] != nil }

    static func areas(path: String, mapping: Node.Mapping, loader: RuleLoader) throws -> [Area] {
        let map = RuleLoader.keyed(mapping)
        for (keyNode, _) in mapping where !fileKeys.contains(keyNode.string ?? "") {
            throw loader.failure(at: keyNode, "unknown key `\(keyNode.string ?? "")` (known: \(fileKeys.sorted().joined(separator: ", ")))")
        }
        var groups: [String: [String]] = [:]
        guard let movable = map["movable"]?.mapping else {
            throw loader.failure(at: map["movable"], "an area table needs `movable`: named lists of the rule ids areas may move")
        }
        for (keyNode, valueNode) in movable {
            guard let name = keyNode.string, let list = valueNode.sequence else {
                throw loader.failure(at: keyNode, "a `movable` group is a name and a list of rule ids")
            }
            var ids: [String] = []
            for item in list {
                guard let id = item.string, RuleLoader.isDottedID(id.hasSuffix("*") ? String(id.dropLast()) + "x" : id) else {
                    throw loader.failure(at: item, "a movable rule is a rule id, or a prefix ending in `*`")
                }
                ids.append(id)
            }
            groups[name] = ids
        }
        var areas: [Area] = []
        var names = Set<String>()
        for node in RuleLoader.items(map, "areas") {
            let row = try TableRow(node, keys: rowKeys, what: "an area row", loader: loader)
            let text = row.text
            let name = try text("name")
            guard names.insert(name).inserted else { throw loader.failure(at: row["name"], "area `\(name)` is listed twice") }
            guard let category = Category(rawValue: try text("category")) else {
                throw loader.failure(at: row["category"], "unknown category (use \(Category.allIds))")
            }
            guard let movesNode = row["moves"], let moveGroups = movesNode.sequence, !moveGroups.isEmpty else {
                throw loader.failure(at: node, "an area row needs `moves`: the `movable` groups it may move")
            }
            var moves: [String] = []
            for group in moveGroups {
                guard let groupName = group.string, let ids = groups[groupName] else {
                    throw loader.failure(at: group, "`moves` names a group that `movable` does not define")
                }
                moves += ids
            }
            let example = try text("example")
            var literal: [UInt8]? = nil
            if let given = row["literal"] {
                guard let value = given.string, !value.isEmpty else { throw loader.failure(at: given, "`literal` is a non-empty string") }
                guard example.contains(value) else { throw loader.failure(at: given, "the area's example does not contain its literal") }
                literal = Array(value.utf8)
            }
            var yieldRank = 0
            if let given = row["yields"] {
                if given.string == "last" { yieldRank = 2 } else {
                    guard let value = given.bool else { throw loader.failure(at: given, "`yields` is true, false or last") }
                    yieldRank = value ? 1 : 0
                }
            }
            let regex = try loader.compile(try text("pattern"), at: row["pattern"])
            guard regex.matches(example, scratch: MatchScratch()) else {
                throw loader.failure(at: row["example"], "the area's pattern does not match its example")
            }
            areas.append(Area(name: name, category: category, regex: regex, literal: literal, advice: try text("advice"),
                              example: example, moves: moves, yieldRank: yieldRank,
                              location: SourceLocation(file: path, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0)))
        }
        return areas
    }
}
