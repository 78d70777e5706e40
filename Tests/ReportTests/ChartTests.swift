import CDLogCore
@testable import ReportKit
import Testing

/// The report's timeline chart: severity lanes, collapsed gaps, the log's own time zone, bounded samples
/// that never drop a fatal event, and the HTML's text fallback.
@Suite struct ChartTests {
    static let t0 = 1_719_879_222.0 // 2024-07-02 00:13:42Z

    static func point(_ t: Double?, _ severity: Severity, offset: Int? = nil, ordinal: Int = 0, category: Category = .store) -> ChartPoint {
        ChartPoint(time: t, offset: offset, ordinal: ordinal, category: category, severity: severity)
    }

    static func chart(_ points: [ChartPoint], limit: Int = 20_000) -> Chart {
        var sample = ChartSample(limit: limit)
        for p in points { sample.add(p) }
        return Chart.make(sample)
    }

    @Test func timestampsKeepTheOffsetTheyPrint() throws {
        let pacific = try #require(ISOTime.parse("2024-07-01 17:13:42.500-0700"))
        #expect(pacific.seconds == Self.t0 + 0.5)
        #expect(pacific.offset == -25200)
        #expect(ISOTime.parse("2024-07-02T05:43:42+05:30")?.offset == 19800)
        #expect(ISOTime.parse("2024-07-02T05:43:42+05:30")?.seconds == Self.t0)
        #expect(ISOTime.parse("2024-07-02T00:13:42Z")?.offset == 0)
        let bare = try #require(ISOTime.parse("2024-07-02 00:13:42"))
        #expect(bare.offset == nil && bare.seconds == Self.t0)
        #expect(ISOTime.parse("2024-07-02") == nil)
    }

    @Test func labelsAreInTheZoneTheLogPrinted() {
        let points = (0..<10).map { Self.point(Self.t0 + Double($0) * 6, .info, offset: -25200) } + [Self.point(Self.t0 + 60, .error, offset: 0)]
        let chart = Self.chart(points)
        #expect(chart.zoneOffset == -25200)
        #expect(chart.zoneName == "UTC\u{2212}07:00")
        #expect(chart.label(Self.t0, step: 1, withDate: true) == "2024-07-01 17:13:42")
        #expect(chart.label(Self.t0, step: 60, withDate: false) == "17:13")
        #expect(chart.label(Self.t0 + 0.5, step: 0.5, withDate: false) == "17:13:42.5")
        #expect(HTMLChart.caption(chart).contains("times in UTC\u{2212}07:00"))
        // Bucket edges fall on round clock values in that zone.
        let segment = chart.segments[0]
        #expect((segment.start - 25200).truncatingRemainder(dividingBy: segment.bucketWidth) == 0)
    }

    @Test func quietStretchesAreCollapsed() {
        // A 30 s burst, a crash three hours later, and a report from two years before.
        let burst = (0..<30).map { Self.point(Self.t0 + Double($0), .debug, offset: 3600) }
        let crash = Self.point(Self.t0 + 3 * 3600, .fatal, offset: 3600, category: .crash)
        let old = Self.point(Self.t0 - 2 * 365 * 86400, .error, offset: 3600)
        let chart = Self.chart(burst + [crash, old])
        #expect(chart.segments.count == 3)
        #expect(chart.bucketCount <= 70)
        // The burst gets most of the width, one bucket per second or so, not one 40th of two years.
        let burstSegment = chart.segments[1]
        #expect(burstSegment.bucketWidth <= 1)
        #expect(burstSegment.buckets >= 25)
        #expect(chart.lanes.map(\.0) == [.fatal, .error, .debug])
        #expect(chart.lanes[0].1.reduce(0, +) == 1)
        #expect(HTMLChart.caption(chart).contains("2 quiet stretches collapsed"))
        let html = HTMLChart.render(chart)
        #expect(html.contains("class=\"gap\" title=\"No classified event for 3.0 h (collapsed)\">3 h<"))
        #expect(html.contains(">730 d<"))
    }

    @Test func aSteadyLogIsOneSegment() {
        let chart = Self.chart((0..<600).map { Self.point(Self.t0 + Double($0), $0 % 7 == 0 ? .error : .info) })
        #expect(chart.segments.count == 1)
        #expect(chart.segments[0].bucketWidth == 10)
        #expect(chart.zoneOffset == nil)
        #expect(HTMLChart.caption(chart).contains("times as printed (no time zone in the timestamps)"))
        #expect(HTMLChart.caption(chart).contains("one bar per 10 s"))
        #expect(chart.eventCount == 600)
    }

    @Test func chatterNeverPushesOutAFatalEvent() {
        var points = (0..<10_000).map { Self.point(Self.t0 + Double($0) / 100, .debug, ordinal: $0) }
        points.insert(Self.point(Self.t0 + 50, .fatal, category: .crash), at: 5_000)
        points += (0..<10_000).map { Self.point(Self.t0 + 100 + Double($0) / 100, .info, ordinal: $0) }
        var sample = ChartSample(limit: 256)
        for p in points { sample.add(p) }
        #expect(sample.isThinned)
        #expect(sample.notable.count == 1)
        #expect(sample.chatter.count < 256)
        // Weights keep the counts: at most one stride's worth is still pending.
        let kept = sample.chatter.reduce(0) { $0 + $1.weight }
        #expect(kept <= 20_000 && kept > 20_000 - 128)
        let chart = Chart.make(sample)
        #expect(chart.estimated)
        #expect(chart.lanes.first?.0 == .fatal && chart.lanes.first?.1.reduce(0, +) == 1)
        #expect(HTMLChart.caption(chart).hasPrefix("About "))
    }

    @Test func withoutTimestampsTheAxisIsInputOrder() {
        let chart = Self.chart((1...3).map { Self.point(nil, .error, ordinal: $0) })
        #expect(chart.axis == .input)
        #expect(HTMLChart.caption(chart).contains("in input order, entry 1 to entry 3"))
        #expect(HTMLChart.render(chart).contains("<b>entry 1</b>"))
    }

    @Test func theTableFallbackHoldsTheSameFigures() {
        let points = [Self.point(Self.t0, .fatal, category: .watchdog), Self.point(Self.t0 + 1, .error, category: .store),
                      Self.point(Self.t0 + 1.01, .error, category: .migration), Self.point(Self.t0 + 1.02, .error, category: .store)]
        let html = HTMLChart.render(Self.chart(points))
        #expect(html.contains("<div role=\"img\" aria-labelledby=\"chart-caption\">"))
        #expect(html.contains("<details class=\"chart-data\"><summary>The chart as a table</summary>"))
        #expect(html.contains("1 <span class=\"muted\">(watchdog 1)</span>"))
        // One bucket holds the three errors, most frequent category first.
        #expect(html.contains("3 <span class=\"muted\">(store 2, migration 1)</span>"))
        // A lone event in a lane is drawn at a fifth of the lane at least.
        #expect(html.contains("height:100%;background:#882255"))
    }

    /// Hostile timestamps (years 0001 and 9999, evenly spread between) never make an unbounded chart.
    @Test func centuriesApartStayBounded() {
        let first = ISOTime.seconds("0001-01-01 00:00:00")!, last = ISOTime.seconds("9999-12-31 23:59:59")!
        let points = (0...200).map { Self.point(first + (last - first) * Double($0) / 200, .error) }
        let chart = Self.chart(points)
        #expect(chart.bucketCount <= 2 * Chart.targetBuckets)
        #expect(chart.eventCount == 201)
        #expect(!HTMLChart.render(chart).isEmpty)
    }
}
