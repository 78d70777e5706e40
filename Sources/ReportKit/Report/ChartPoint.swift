import CDLogCore

/// A classified entry's place on the chart.
struct ChartPoint: Sendable {
    /// Seconds since 1970 (UTC when the timestamp printed an offset, else the clock as printed).
    var time: Double?
    /// Seconds east of UTC the timestamp printed, nil when it printed none.
    var offset: Int?
    var ordinal: Int
    var category: Category
    var severity: Severity
    /// How many classified entries this point stands for (more than 1 once the sample was thinned).
    var weight: Int = 1
}
