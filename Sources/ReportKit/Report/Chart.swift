import CDLogCore

/// Classified events over time (or input order) by severity, bucketed for the HTML chart and the JSON
/// report. Long quiet stretches between bursts are collapsed into gaps, so a log and a crash report
/// hours apart still show their events; bucket widths and ticks fall on round clock values in the zone
/// the timestamps printed.
public struct Chart: Sendable {
    public enum Axis: String, Sendable { case time, input }

    /// One stretch of the axis without a collapsed gap.
    public struct Segment: Sendable {
        /// The first bucket's start (seconds, or entry number on the input axis).
        public var start: Double
        /// The width of one bucket (seconds, or entries).
        public var bucketWidth: Double
        public var buckets: Int
        /// The index of this segment's first bucket among all buckets.
        public var firstBucket: Int
        public var end: Double { start + bucketWidth * Double(buckets) }
    }

    public var axis: Axis
    /// Seconds east of UTC that the time labels are in: the offset most timestamps printed. Nil when none
    /// printed one (the labels are then the clock as printed).
    public var zoneOffset: Int?
    public var segments: [Segment]
    /// Severity → count per bucket (all segments' buckets in order), most severe first, only severities present.
    public var lanes: [(Severity, [Int])]
    /// Per bucket and severity, the categories and their counts, most frequent first.
    public var categories: [[Severity: [(Category, Int)]]]
    /// True when the counts were estimated from a thinned sample.
    public var estimated: Bool
    /// The first and last event on the axis.
    public var first: Double
    public var last: Double

    public var isEmpty: Bool { lanes.isEmpty }
    public var bucketCount: Int { segments.last.map { $0.firstBucket + $0.buckets } ?? 0 }
    public var eventCount: Int { lanes.reduce(0) { $0 + $1.1.reduce(0, +) } }

    /// About this many buckets across all segments.
    static let targetBuckets = 60
    /// At most this many gaps are collapsed.
    static let maximumGaps = 4
    static let niceSeconds: [Double] = [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
                                        7200, 10800, 21600, 43200, 86400, 172_800, 604_800, 2_592_000, 31_536_000]

    static let niceCounts: [Double] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100_000,
                                       200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000]

    static let empty = Chart(axis: .input, zoneOffset: nil, segments: [], lanes: [], categories: [], estimated: false, first: 0, last: 0)

    static func make(_ sample: ChartSample) -> Chart {
        let points = sample.points
        guard !points.isEmpty else { return empty }
        let timed = points.filter { $0.time != nil }
        let useTime = timed.count * 2 >= points.count && timed.count >= 2
        let used = useTime ? timed : points
        let xs = used.map { useTime ? $0.time! : Double($0.ordinal) }
        let zone = useTime ? mostCommonOffset(used) : nil
        let segments = useTime ? timeSegments(xs.sorted(), zone: zone ?? 0) : inputSegments(lo: xs.min()!, hi: xs.max()!)
        let bucketCount = segments.last.map { $0.firstBucket + $0.buckets } ?? 0
        var counts: [Severity: [Int]] = [:]
        var categoryCounts = [[Severity: [Category: Int]]](repeating: [:], count: bucketCount)
        for (point, x) in zip(used, xs) {
            let bucket = bucketIndex(x, segments)
            counts[point.severity, default: [Int](repeating: 0, count: bucketCount)][bucket] += point.weight
            categoryCounts[bucket][point.severity, default: [:]][point.category, default: 0] += point.weight
        }
        let lanes = Severity.allCases.reversed().compactMap { severity in counts[severity].map { (severity, $0) } }
        let categories = categoryCounts.map { bySeverity in
            bySeverity.mapValues { table in
                Category.allCases.compactMap { c in table[c].map { (c, $0) } }.sorted { $0.1 > $1.1 }
            }
        }
        return Chart(axis: useTime ? .time : .input, zoneOffset: zone, segments: segments, lanes: lanes, categories: categories,
                     estimated: sample.isThinned, first: xs.min()!, last: xs.max()!)
    }

    /// The offset most timed points printed (ties: the smaller offset), nil when none printed one.
    static func mostCommonOffset(_ points: [ChartPoint]) -> Int? {
        var tally: [Int: Int] = [:]
        for point in points { if let offset = point.offset { tally[offset, default: 0] += point.weight } }
        return tally.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
    }

    /// Splits sorted times at the largest gaps, then gives each stretch buckets in proportion to its length, of a round width aligned in `zone`.
    static func timeSegments(_ sorted: [Double], zone: Int) -> [Segment] {
        let span = sorted.last! - sorted.first!
        // The largest gaps first, each collapsed while it is longer than a minute and than 15 % of the
        // span that is left once the gaps collapsed before it are taken out.
        var cuts: [Int] = []
        if sorted.count > 1 {
            var left = span
            var gaps: [(index: Int, length: Double)] = []
            for index in 0..<(sorted.count - 1) { gaps.append((index, sorted[index + 1] - sorted[index])) }
            gaps.sort { $0.length != $1.length ? $0.length > $1.length : $0.index < $1.index }
            for (index, gap) in gaps {
                guard cuts.count < maximumGaps, gap > max(0.15 * left, 60) else { break }
                cuts.append(index)
                left -= gap
            }
            cuts.sort()
        }
        var stretches: [(Double, Double)] = []
        var from = 0
        for cut in cuts + [sorted.count - 1] {
            stretches.append((sorted[from], sorted[cut]))
            from = cut + 1
        }
        let covered = stretches.reduce(0) { $0 + ($1.1 - $1.0) }
        let smallest = niceSeconds.first { $0 >= max(span, 1e-9) / Double(targetBuckets) } ?? niceSeconds.last!
        var segments: [Segment] = []
        var next = 0
        for (lo, hi) in stretches {
            let length = hi - lo
            let share = covered > 0 ? max(4, Double(targetBuckets) * length / covered) : Double(targetBuckets)
            var width = length > 0 ? (niceSeconds.first { $0 >= length / share } ?? niceSeconds.last!) : min(smallest, 1)
            // Spans beyond the largest round width (timestamps centuries apart) still get a bounded number of bars.
            if length / width > Double(targetBuckets) { width = (length / Double(targetBuckets)).rounded(.up) }
            let shifted = lo + Double(zone)
            let start = (shifted / width).rounded(.down) * width - Double(zone)
            let buckets = max(stretches.count > 1 ? 3 : 1, Int(((hi - start) / width).rounded(.down)) + 1)
            segments.append(Segment(start: start, bucketWidth: width, buckets: buckets, firstBucket: next))
            next += buckets
        }
        return segments
    }

    static func inputSegments(lo: Double, hi: Double) -> [Segment] {
        let span = hi - lo
        let width = niceCounts.first { span / $0 <= Double(targetBuckets) } ?? (span / Double(targetBuckets)).rounded(.up)
        let start = (lo / width).rounded(.down) * width
        return [Segment(start: start, bucketWidth: width, buckets: Int(((hi - start) / width).rounded(.down)) + 1, firstBucket: 0)]
    }

    static func bucketIndex(_ x: Double, _ segments: [Segment]) -> Int {
        var chosen = segments[0]
        for segment in segments where x >= segment.start { chosen = segment }
        let offset = Int(((x - chosen.start) / chosen.bucketWidth).rounded(.down))
        return chosen.firstBucket + min(max(offset, 0), chosen.buckets - 1)
    }

    /// A point of the axis as a label: the clock in the chart's zone, to the minute, second or fraction
    /// that `step` needs, with the date when `withDate` (only the date for steps of a day or more);
    /// "entry N" on the input axis.
    public func label(_ x: Double, step: Double, withDate: Bool) -> String {
        guard axis == .time else { return "entry \(Int(x.rounded()))" }
        let local = x + Double(zoneOffset ?? 0)
        let full = Chart.clock(local, zone: nil)  // "2024-07-02 00:13:43"
        let date = String(full.prefix(10)), time = String(full.dropFirst(11))
        var clock = step >= 60 && step.truncatingRemainder(dividingBy: 60) == 0 ? String(time.prefix(5)) : time
        if step < 1 {
            let digits = step < 0.1 ? 2 : 1
            let scale = digits == 2 ? 100.0 : 10.0
            let fraction = min(Int(((local - local.rounded(.down)) * scale).rounded()), Int(scale) - 1)
            clock += "." + (digits == 2 && fraction < 10 ? "0" : "") + "\(fraction)"
        }
        if step >= 86400 { return date }
        return withDate ? date + " " + clock : clock
    }

    /// The zone as "UTC−07:00" (or "UTC"), nil when the timestamps printed none.
    public var zoneName: String? {
        guard let offset = zoneOffset else { return nil }
        if offset == 0 { return "UTC" }
        let minutes = abs(offset) / 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "UTC" + (offset < 0 ? "\u{2212}" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }

    /// Round tick positions inside a segment: about six, on multiples of the bucket width.
    public func ticks(_ segment: Segment) -> (step: Double, values: [Double]) {
        let width = segment.bucketWidth
        let candidates = axis == .time ? Chart.niceSeconds : Chart.niceCounts
        let least = max(width, (segment.end - segment.start) / 6)
        let step = candidates.first { $0 >= least && ($0 / width).rounded() * width == $0 } ?? least
        let shift = axis == .time ? Double(zoneOffset ?? 0) : 0
        var value = ((segment.start + shift) / step).rounded(.up) * step - shift
        var values: [Double] = []
        while value <= segment.end + 1e-9 && values.count < 64 {
            values.append(value)
            value += step
        }
        return (step, values)
    }

    /// Seconds since 1970 → "2024-07-02 00:13:43" plus `zone` ("Z", or nothing when nil).
    public static func clock(_ t: Double, zone: String? = "Z") -> String {
        let seconds = Int(t.rounded(.down))
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        // Civil from days (Howard Hinnant).
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d)) \(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))" + (zone ?? "")
    }

    public static func duration(_ s: Double) -> String {
        if s < 120 { return Format.decimal(s, places: 1) + " s" }
        if s < 7200 { return Format.decimal(s / 60, places: 1) + " min" }
        if s < 172_800 { return Format.decimal(s / 3600, places: 1) + " h" }
        return Format.decimal(s / 86400, places: 1) + " days"
    }
}
