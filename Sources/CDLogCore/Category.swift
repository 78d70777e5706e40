/// The stable category ids of DOMAIN.md §3. They are part of the output contract: never rename.
public enum Category: String, CaseIterable, Sendable, Comparable {
    case initialization = "init"
    case migration
    case mergeConflict = "merge-conflict"
    case account
    case watchdog
    case sync
    case history
    case cloudkit
    case network
    case store
    case model
    case concurrency
    case crash

    /// The id as written in rule files and output (`init`, `merge-conflict`, …).
    public var id: String { rawValue }

    /// Orders categories as DOMAIN.md lists them, so summaries are stable.
    public static func < (lhs: Category, rhs: Category) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// All ids, for messages: "init, migration, …".
    public static let allIds = Category.allCases.map(\.id).joined(separator: ", ")
}
