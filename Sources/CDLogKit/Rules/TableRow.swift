import CDLogCore
import Foundation
import Yams

/// One row of a table file (an area row, an exception row): its keys checked against the known ones, its
/// values read by key; errors point at the row.
struct TableRow {
    let node: Node
    let values: [String: Node]
    private let loader: RuleLoader
    private let what: String

    subscript(key: String) -> Node? { values[key] }

    /// The non-empty string value of `key`; throws "… needs `key`" when it is missing or empty.
    func text(_ key: String) throws -> String {
        guard let value = values[key]?.string, !value.isEmpty else { throw loader.failure(at: node, "\(what) needs `\(key)`") }
        return value
    }

    /// `node` as a row whose keys are all in `keys` (`what` names it in errors: "an area row").
    init(_ node: Node, keys: Set<String>, what: String, loader: RuleLoader) throws {
        guard let mapping = node.mapping else { throw loader.failure(at: node, "\(what) is a mapping") }
        for (keyNode, _) in mapping where !keys.contains(keyNode.string ?? "") {
            throw loader.failure(at: keyNode, "unknown key `\(keyNode.string ?? "")` in \(what)")
        }
        self.node = node
        self.values = RuleLoader.keyed(mapping)
        self.loader = loader
        self.what = what
    }
}
