import CDLogCore
import StoreInspection

/// The figures of one inspected store that correlation rules can test, by name (see `figureNames`).
/// Built from a walcheck `StoreReport`, or directly (diagnosis examples, tests).
public struct StoreFacts: Sendable {
    /// The database path (the citation for store evidence).
    public var path: String
    /// The `-wal` path when present.
    public var walPath: String?
    public var figures: [String: Double]
    /// walcheck finding ids → severity.
    public var findings: [(id: String, severity: Severity, title: String)]
    /// The full walcheck report when the facts come from a real store.
    public var report: StoreReport?

    /// Every figure name rules may use. Byte figures end in `Bytes`.
    public static let figureNames: [String] = [
        "databaseBytes", "walBytes", "walFrames", "walCommits", "pendingFrames", "pendingBytes", "pendingPages",
        "checkpointWriteBytes", "recoveryBytes", "launchBytes", "walToDatabaseRatio", "pendingExports",
        "failedCloudKitEvents", "historyTransactions", "frameworkVersion",
    ]

    public init(path: String, walPath: String? = nil, figures: [String: Double],
                findings: [(id: String, severity: Severity, title: String)] = []) {
        self.path = path
        self.walPath = walPath
        self.figures = figures
        self.findings = findings
    }

    public init(report r: StoreReport) {
        var f: [String: Double] = [:]
        f["databaseBytes"] = Double(r.database.bytes)
        f["walBytes"] = Double(r.wal.bytes)
        f["walFrames"] = Double(r.wal.scan?.mxFrame ?? 0)
        f["walCommits"] = Double(r.wal.scan?.commits ?? 0)
        f["pendingFrames"] = Double(r.checkpoint.pendingFrames)
        f["pendingBytes"] = Double(r.checkpoint.pendingBytes)
        f["pendingPages"] = Double(r.checkpoint.pendingPages)
        f["checkpointWriteBytes"] = Double(r.checkpoint.checkpointWriteBytes)
        f["recoveryBytes"] = Double(r.checkpoint.recoveryBytes)
        f["launchBytes"] = Double(r.checkpoint.recoveryBytes + r.checkpoint.checkpointWriteBytes)
        if let ratio = r.checkpoint.walToDatabaseRatio { f["walToDatabaseRatio"] = ratio }
        if let cd = r.sql?.coreData {
            if let v = cd.frameworkVersion { f["frameworkVersion"] = Double(v) }
            if let v = cd.cloudKit?.pendingExports { f["pendingExports"] = Double(v) }
            if let v = cd.cloudKit?.failedEvents { f["failedCloudKitEvents"] = Double(v) }
            if let v = cd.history?.transactions { f["historyTransactions"] = Double(v) }
        }
        self.init(path: r.database.path, walPath: r.wal.path, figures: f,
                  findings: r.findings.map { ($0.id, $0.severity, $0.title) })
        report = r
    }

    /// A figure as text: sizes in binary units, counts grouped, ratios with one decimal.
    public func formatted(_ name: String) -> String? {
        guard let v = figures[name] else { return nil }
        if name.hasSuffix("Bytes") { return Format.bytes(v) }
        if name == "walToDatabaseRatio" { return Format.decimal(v, places: 1) + "×" }
        if name == "frameworkVersion" { return String(Int64(v)) }
        return Format.number(v)
    }
}
