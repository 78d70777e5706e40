/// What a Core Data store's bookkeeping tables say.
public struct CoreDataInfo: Sendable, Equatable {
    public var storeUUID: String?
    public var metadataReadable = false
    public var storeType: String?
    public var frameworkVersion: Int?
    public var maximumFrameworkVersion: Int?
    public var modelVersionHashesVersion: Int?
    public var modelVersionIdentifiers: [String] = []
    /// entity → hex of the 32-byte version hash, sorted by entity name.
    public var modelVersionHashes: [(entity: String, hash: String)] = []
    public var modelVersionChecksum: String?
    public var autoVacuumLevel: String?
    public var entities: [EntityInfo] = []
    public var history: HistoryInfo?
    public var cloudKit: CloudKitInfo?

    public static func == (l: CoreDataInfo, r: CoreDataInfo) -> Bool {
        l.storeUUID == r.storeUUID && l.frameworkVersion == r.frameworkVersion && l.entities == r.entities
            && l.history == r.history && l.cloudKit == r.cloudKit
            && l.modelVersionHashes.map(\.entity) == r.modelVersionHashes.map(\.entity)
    }
}
