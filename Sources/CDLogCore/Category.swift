/// The stable category ids of docs/domain.md, "Categories". They are part of the output contract: never rename.
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

    /// Orders categories as docs/domain.md lists them, so summaries are stable.
    public static func < (lhs: Category, rhs: Category) -> Bool {
        lhs.ordinal < rhs.ordinal
    }

    /// The category's position in `allCases` (declaration order), without comparing raw-value strings.
    public var ordinal: Int {
        switch self {
        case .initialization: return 0
        case .migration: return 1
        case .mergeConflict: return 2
        case .account: return 3
        case .watchdog: return 4
        case .sync: return 5
        case .history: return 6
        case .cloudkit: return 7
        case .network: return 8
        case .store: return 9
        case .model: return 10
        case .concurrency: return 11
        case .crash: return 12
        }
    }

    /// All ids, for messages: "init, migration, …".
    public static let allIds = Category.allCases.map(\.id).joined(separator: ", ")
}
