import CDLogCore

/// One diagnosis, with a stable id (see `FindingRules`).
public struct Finding: Sendable, Equatable {
    public var id: String
    public var severity: Severity
    public var title: String
    public var detail: String
    public var advice: String
}
