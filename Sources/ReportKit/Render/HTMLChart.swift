import CDLogCore

/// The HTML report's timeline chart: one lane per severity, most severe on top, each lane scaled to its own
/// largest bucket, so one fatal event is as plain as a thousand debug lines. Built from HTML and CSS
/// (flex boxes, percentages): it takes the page's width, its text keeps its size, it prints, and it needs no
/// script. Severity is told by the lane's place and name, never by colour alone (the colours are Paul
/// Tol's colour-blind-safe "vibrant" set); collapsed gaps are marked with their length; a table under the
/// chart holds the same figures for screen readers and for copying.
enum HTMLChart {
    static let laneColor: [Severity: String] = [.fatal: "#882255", .error: "#cc3311", .warning: "#ee7733", .info: "#0077bb", .debug: "#9a9a9a"]

    static let style = """
    .chart{margin:8px 0 4px}.chart figcaption{color:#656d76;font-size:13px;margin-bottom:6px}
    .lane{display:flex;align-items:stretch;height:30px;border-bottom:1px solid #eaeef2}.lane.fatal{height:38px}
    .lane .name{flex:0 0 86px;font-size:12px;line-height:1.2;align-self:center;padding-right:6px;text-align:right}.lane .name b{display:block;font-weight:400;color:#656d76}
    .track{flex:1 1 auto;display:flex;min-width:0}.seg{display:flex;align-items:flex-end;gap:1px;min-width:0;padding:2px 0 0}
    .seg i{flex:1 1 0;min-width:1px;display:block}.seg i.z{height:0}
    .gap{flex:0 0 34px;display:flex;align-items:center;justify-content:center;color:#8c959f;font-size:11px;background:repeating-linear-gradient(135deg,#f6f8fa 0 4px,#fff 4px 8px)}
    .axis{display:flex;height:44px}.axis .name{flex:0 0 86px}.axis .seg{position:relative;display:block;border-top:1px solid #8c959f}
    .axis .tick{position:absolute;top:0;font-size:11px;color:#57606a;white-space:nowrap;transform:translateX(-50%);padding-top:4px}
    .axis .tick::before{content:"";position:absolute;left:50%;top:0;height:4px;border-left:1px solid #8c959f}
    .axis .tick.start{left:0;transform:none;max-width:100%}.axis .tick.start::before{left:0}.axis .tick.start b{display:block;font-weight:400;overflow:hidden;text-overflow:ellipsis}
    .axis .gap{background:none;font-size:10px;align-items:flex-start;padding-top:4px;text-align:center;line-height:1.1}
    @media (max-width:640px){.lane .name,.axis .name{flex-basis:58px}.axis .tick.minor{display:none}.gap{flex-basis:22px}}
    """

    static func render(_ chart: Chart) -> String {
        guard !chart.isEmpty else { return "" }
        let caption = self.caption(chart)
        var o = "<figure class=\"chart\">\n<figcaption id=\"chart-caption\">\(HTMLRenderer.escape(caption))</figcaption>\n"
        o += "<div role=\"img\" aria-labelledby=\"chart-caption\">\n"
        for (severity, counts) in chart.lanes {
            let peak = max(counts.max() ?? 1, 1)
            let total = counts.reduce(0, +)
            o += "<div class=\"lane \(severity.name)\"><div class=\"name\" style=\"color:\(HTMLRenderer.severityColor[severity]!)\">\(severity.name)<b>\(Format.grouped(total))</b></div><div class=\"track\">"
            for (index, segment) in chart.segments.enumerated() {
                if index > 0 { o += "<div class=\"gap\"></div>" }
                o += "<div class=\"seg\" style=\"flex:\(segment.buckets) 1 0\">"
                for bucket in segment.firstBucket..<(segment.firstBucket + segment.buckets) {
                    let n = counts[bucket]
                    if n == 0 { o += "<i class=\"z\"></i>"; continue }
                    // At least a fifth of the lane, so a single event stays visible beside a large peak.
                    let height = max(20.0, Double(n) / Double(peak) * 100)
                    o += "<i style=\"height:\(Format.decimal(height, places: 0))%;background:\(laneColor[severity]!)\" title=\"\(HTMLRenderer.escape(tooltip(chart, bucket, severity, n)))\"></i>"
                }
                o += "</div>"
            }
            o += "</div></div>\n"
        }
        o += "<div class=\"axis\"><div class=\"name\"></div><div class=\"track\">"
        let spansDays = chart.axis == .time && Chart.clock(chart.first + Double(chart.zoneOffset ?? 0)).prefix(10) != Chart.clock(chart.last + Double(chart.zoneOffset ?? 0)).prefix(10)
        for (index, segment) in chart.segments.enumerated() {
            if index > 0 {
                let previous = chart.segments[index - 1]
                o += "<div class=\"gap\" title=\"\(HTMLRenderer.escape(gapText(previous, segment)))\">\(HTMLRenderer.escape(gapLabel(previous, segment)))</div>"
            }
            o += "<div class=\"seg\" style=\"flex:\(segment.buckets) 1 0\">"
            let (step, values) = chart.ticks(segment)
            let span = segment.end - segment.start
            // The segment's start, with its date when the chart spans days; then round ticks, in segments
            // wide enough to hold them, clear of the start label.
            let startLabel = chart.label(segment.start, step: step, withDate: false)
            let date = chart.axis == .time && spansDays && step < 86400 ? String(Chart.clock(segment.start + Double(chart.zoneOffset ?? 0)).prefix(10)) : nil
            o += "<span class=\"tick start\" title=\"\(HTMLRenderer.escape((date.map { $0 + " " } ?? "") + startLabel))\">" + (date.map { "<b>\($0)</b>" } ?? "") + "<b>\(HTMLRenderer.escape(startLabel))</b></span>"
            if segment.buckets * 4 >= chart.bucketCount {
                for (n, value) in values.enumerated() {
                    let left = (value - segment.start) / span * 100
                    guard left >= (date == nil ? 12 : 22), left <= 94 else { continue }
                    o += "<span class=\"tick\(n % 2 == 1 || left < 30 ? " minor" : "")\" style=\"left:\(Format.decimal(left, places: 2))%\">\(HTMLRenderer.escape(chart.label(value, step: step, withDate: false)))</span>"
                }
            }
            o += "</div>"
        }
        o += "</div></div>\n</div>\n"
        o += table(chart)
        o += "</figure>\n"
        return o
    }

    /// What the chart shows, in one sentence: the count, the span, the zone, the gaps, the estimate.
    static func caption(_ chart: Chart) -> String {
        let events = chart.eventCount
        var text = "\(chart.estimated ? "About " : "")\(Format.grouped(events)) classified event\(events == 1 ? "" : "s") by severity, "
        if chart.axis == .time {
            let covered = chart.segments.reduce(0) { $0 + min($1.end, chart.last) - max($1.start, chart.first) }
            text += "from \(chart.label(chart.first, step: 1, withDate: true)) to \(chart.label(chart.last, step: 1, withDate: true))"
            text += chart.segments.count > 1 ? " (\(Chart.duration(max(covered, 0))) with events)" : " (\(Chart.duration(chart.last - chart.first)))"
            text += chart.zoneName.map { "; times in \($0), as the log printed them" } ?? "; times as printed (no time zone in the timestamps)"
            if chart.segments.count > 1 {
                let gaps = chart.segments.count - 1
                text += "; \(gaps) quiet stretch\(gaps == 1 ? "" : "es") collapsed"
            }
        } else {
            text += "in input order, \(chart.label(chart.first, step: 1, withDate: false)) to \(chart.label(chart.last, step: 1, withDate: false)) (the timestamps are missing or too few for a time axis)"
        }
        let width = chart.segments.first?.bucketWidth ?? 1
        if chart.segments.count == 1 {
            text += "; one bar per " + (chart.axis == .time ? Chart.duration(width).replacingOccurrences(of: ".0 ", with: " ") : width == 1 ? "entry" : "\(Int(width)) entries")
        }
        if chart.estimated { text += "; counts estimated from a sample (the input was large)" }
        return text + "."
    }

    static func bucketRange(_ chart: Chart, _ bucket: Int) -> String {
        let segment = chart.segments.last { $0.firstBucket <= bucket }!
        let from = segment.start + Double(bucket - segment.firstBucket) * segment.bucketWidth
        let step = min(segment.bucketWidth, 1)
        if chart.axis == .input {
            let lastEntry = from + segment.bucketWidth - 1
            return lastEntry > from ? "entries \(Int(from))–\(Int(lastEntry))" : "entry \(Int(from))"
        }
        return chart.label(from, step: step, withDate: false) + "–" + chart.label(from + segment.bucketWidth, step: step, withDate: false)
    }

    static func tooltip(_ chart: Chart, _ bucket: Int, _ severity: Severity, _ n: Int) -> String {
        let categories = chart.categories[bucket][severity] ?? []
        return "\(bucketRange(chart, bucket)): \(n) \(severity.name) (" + categories.prefix(4).map { "\($0.0.id) \($0.1)" }.joined(separator: ", ") + (categories.count > 4 ? ", …" : "") + ")"
    }

    static func gapLabel(_ previous: Chart.Segment, _ next: Chart.Segment) -> String {
        let seconds = next.start - previous.end
        if seconds < 7200 { return "\(Int((seconds / 60).rounded())) min" }
        if seconds < 172_800 { return "\(Int((seconds / 3600).rounded())) h" }
        return "\(Int((seconds / 86400).rounded())) d"
    }

    static func gapText(_ previous: Chart.Segment, _ next: Chart.Segment) -> String {
        "No classified event for \(Chart.duration(next.start - previous.end)) (collapsed)"
    }

    /// The same figures as a table: one row per bucket with events, counts per severity with their categories.
    static func table(_ chart: Chart) -> String {
        var o = "<details class=\"chart-data\"><summary>The chart as a table</summary>\n<table><tr><th>\(chart.axis == .time ? "time" : "entries")</th>"
        for (severity, _) in chart.lanes { o += "<th>\(severity.name)</th>" }
        o += "</tr>\n"
        for bucket in 0..<chart.bucketCount where chart.lanes.contains(where: { $0.1[bucket] > 0 }) {
            o += "<tr><td class=\"t\">\(HTMLRenderer.escape(bucketRange(chart, bucket)))</td>"
            for (severity, counts) in chart.lanes {
                let n = counts[bucket]
                let categories = chart.categories[bucket][severity] ?? []
                o += n == 0 ? "<td></td>" : "<td>\(n) <span class=\"muted\">(" + categories.map { "\($0.0.id) \($0.1)" }.joined(separator: ", ") + ")</span></td>"
            }
            o += "</tr>\n"
        }
        return o + "</table></details>\n"
    }
}
