/// Options for `StoreInspector.inspect`.
public struct InspectionOptions: Sendable {
    public var checksums: ChecksumPolicy = .auto
    /// Copy the store to a private folder and run SQL (row counts, Core Data metadata).
    public var runSQL = true
    /// Time SQLite's recovery and a TRUNCATE checkpoint on another private copy.
    public var measureCheckpoint = false
    public init(checksums: ChecksumPolicy = .auto, runSQL: Bool = true, measureCheckpoint: Bool = false) {
        self.checksums = checksums
        self.runSQL = runSQL
        self.measureCheckpoint = measureCheckpoint
    }
}
