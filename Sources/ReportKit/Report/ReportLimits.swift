/// Limits that keep a report's memory bounded whatever the input size.
public struct ReportLimits: Sendable {
    /// Timeline rows (distinct events); later new events are counted in "N more".
    public var timelineRows = 200
    /// Appendix templates; later new templates are counted in "N more".
    public var templates = 200
    /// Crash reports kept in full.
    public var crashes = 20
    /// Chart points kept per sample (warnings and worse; the rest), thinned beyond this.
    public var chartPoints = 20_000
    /// Citations kept per diagnosis condition.
    public var citationsPerCondition = 5
    public init() {}
}
