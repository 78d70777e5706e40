/// One row of `Z_PRIMARYKEY` with its row count.
public struct EntityInfo: Sendable, Equatable {
    public var name: String
    public var entityNumber: Int
    public var superEntity: Int
    public var maxPrimaryKey: Int?
    /// Rows with this `Z_ENT` in the root entity's table, as SQLite sees them with the WAL applied
    /// (nil when the table is missing).
    public var rows: Int?
    public var table: String
    /// "user", "history" (Z_ENT 16000…16999) or "cloudkit" (17000…).
    public var kind: String
}
