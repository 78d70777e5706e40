/// A bounded sample of chart points. Warnings and worse are kept in a sample of their own, so chatter
/// never pushes a fatal event out; each sample keeps every point until it holds `limit`, then merges
/// neighbouring pairs (the survivor carries both weights) and keeps every second point from then on.
/// Deterministic: the same entries give the same sample.
struct ChartSample: Sendable {
    private(set) var notable: [ChartPoint] = []
    private(set) var chatter: [ChartPoint] = []
    private var notableThin = Thinning()
    private var chatterThin = Thinning()
    let limit: Int

    init(limit: Int) { self.limit = max(2, limit) }

    /// True once either sample had to be thinned: counts are then estimates.
    var isThinned: Bool { notableThin.stride > 1 || chatterThin.stride > 1 }
    var points: [ChartPoint] { notable + chatter }

    mutating func add(_ point: ChartPoint) {
        if point.severity >= .warning { notableThin.add(point, to: &notable, limit: limit) } else { chatterThin.add(point, to: &chatter, limit: limit) }
    }

    private struct Thinning: Sendable {
        var stride = 1
        var seen = 0
        var pending = 0

        mutating func add(_ point: ChartPoint, to points: inout [ChartPoint], limit: Int) {
            seen += 1
            pending += point.weight
            guard seen % stride == 0 else { return }
            var kept = point
            kept.weight = pending
            pending = 0
            points.append(kept)
            guard points.count >= limit else { return }
            var merged: [ChartPoint] = []
            merged.reserveCapacity(points.count / 2 + 1)
            var index = 0
            while index + 1 < points.count {
                var survivor = points[index + 1]
                survivor.weight += points[index].weight
                merged.append(survivor)
                index += 2
            }
            if index < points.count { pending += points[index].weight }
            points = merged
            stride *= 2
        }
    }
}
