/// The `FindingWriter` a raw input is classified into for `Aggregator`: each finding goes to the groups.
final class AggregatingWriter: FindingWriter {
    private let aggregator: Aggregator

    init(aggregator: Aggregator) { self.aggregator = aggregator }

    func report(_ entry: ClassifiedEntry) throws { aggregator.add(entry) }

    func finish(summary: ClassifySummary) throws {}
}
