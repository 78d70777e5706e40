import CDLogCore

/// What `cdlog classify` does, without the command line: reads sources in order, splits them into
/// entries, classifies, folds echoes and hands the results to a reporter.
///
/// Contract: entries reach the reporter in input order, sources in the order given. Throws
/// `ToolFailure` for an unreadable source (after reporting what was read before it) and
/// `OutputClosed` when the reader of the output went away. Memory is bounded by one read block, one
/// entry and, for document reporters, the findings.
public struct ClassifyRun {
    public struct Options {
        public var forcedFormat: InputFormat?
        public var includeUnclassified = false
        public var minimumSeverity: Severity = .debug
        public init() {}
    }

    public let classifier: Classifier
    public let options: Options

    public init(classifier: Classifier, options: Options) {
        self.classifier = classifier
        self.options = options
    }

    /// Classifies every source; returns the summary (also passed to `reporter.finish`).
    @discardableResult
    public func run(sources: [any ByteSource], reporter: any Reporter) throws -> ClassifySummary {
        var summary = ClassifySummary()
        let scratch = classifier.makeScratch()
        for source in sources {
            summary.sources.append(source.name)
            let reader = LineReader(source: source)
            let splitter = try EntrySplitter(reader: reader, forcedFormat: options.forcedFormat)
            var folder = EchoFolder()
            var index = 0
            try splitter.forEachEntry { raw in
                index += 1
                let classification: Classification?
                if let prepared = raw.prepared {
                    var bytes = Array(prepared.message.utf8)
                    classification = bytes.withUnsafeMutableBytes {
                        classifier.classify(message: UnsafeRawBufferPointer($0), preset: prepared.presetFields, scratch: scratch)
                    }
                } else {
                    classification = raw.message.withUnsafeBytes { classifier.classify(message: $0, scratch: scratch) }
                }
                summary.count(classification)
                if raw.truncated { summary.truncatedEntries += 1 }
                let wanted = classification.map { $0.severity >= options.minimumSeverity } ?? options.includeUnclassified
                guard wanted else { return }
                let reported = ReportedEntry(entry: raw.makeEntry(source: source.name), classification: classification, count: 1)
                if let finished = folder.offer(reported, index: index) {
                    summary.findings += 1
                    try reporter.report(finished)
                }
            }
            if let last = folder.finish() {
                summary.findings += 1
                try reporter.report(last)
            }
        }
        try reporter.finish(summary: summary)
        return summary
    }
}
