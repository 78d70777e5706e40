import CDLogCore
import CScan

/// What `cdlog classify` does, without the command line: reads sources in order, splits them into
/// entries, classifies, folds echoes and hands the results to a reporter.
///
/// Contract: entries reach the reporter in input order, sources in the order given, and the output is
/// the same whatever `threads` is. Large line-oriented and ndjson inputs are cut into blocks at entry
/// boundaries and classified on `threads` threads, then merged in order (`ParallelClassification`); for
/// a `RenderingFindingWriter` the classifying threads also fold echoes and render findings, and only each
/// block's first and last finding reach the merge as entries. Throws `ToolFailure` for an unreadable
/// source and `OutputClosed` when the reader of the output went away. Memory is bounded by one read
/// buffer per thread (a block of `blockSize` and a capped line: blocks are classified where they are
/// read), the rendered findings of at most `threads + 1` blocks cut but not merged, one entry per thread
/// and, for document reporters, the findings.
public struct ClassifyRun: Sendable {
    public struct Options: Sendable {
        public var forcedFormat: InputFormat?
        public var includeUnclassified = false
        public var minimumSeverity: Severity = .debug
        /// Worker threads for classification (1 = everything on the calling thread).
        public var threads = 1
        /// Bytes per parallel block.
        @_spi(Testing) public var blockSize = 1 << 18
        /// Entries no rule can match are counted without being built (`QuietEntrySkipper`), when
        /// unclassified entries are not reported. False builds and classifies every entry: the same
        /// output, slower (the reference the tests compare with).
        public var skipsQuietEntries = true
        /// A live input (pipe, terminal) that sends nothing for this long ends the entries begun so far
        /// and the output is flushed, so `log stream | cdlog classify` shows findings as they happen.
        /// Nil: never. Files never pause.
        @_spi(Testing) public var pauseMilliseconds: Int32? = 100
        /// With `includeUnclassified`: only unclassified entries whose prefix or message holds one of these
        /// literals (or that are crash reports) are built and reported; the others are counted. Nil: all.
        /// `cdlog report` wants the Core Data / CloudKit lines no rule knows, not every line of an app's
        /// own output, and building and offering each of those would dominate its run.
        public var unclassifiedLiterals: LiteralScanner?
        /// The classifier's quiet gate admits every entry whose message holds one of
        /// `unclassifiedLiterals` (`Classifier.admitting`): with `includeUnclassified`, entries that
        /// neither can get a verdict nor hold a literal are then skipped unbuilt too, in formats whose
        /// prefix names no subsystem (there the message alone decides what is wanted).
        public var classifierAdmitsUnclassifiedLiterals = false
        public init() {}
    }

    public let classifier: Classifier
    public let options: Options

    public init(classifier: Classifier, options: Options) {
        self.classifier = classifier
        self.options = options
    }

    /// What one block (or a whole sequential source) produced. Line numbers are the source's; entry
    /// numbers count from 1 in the part.
    struct Batch: Sendable {
        /// Without a renderer: the wanted entries, each with its number.
        var reported: [(entry: ClassifiedEntry, index: Int)] = []
        /// With a renderer (`PartContext.renderer`): the part's findings, echoes folded within the part.
        /// The first and the last stay entries (`head`, `tail`: they may fold with the neighbouring
        /// parts'); those between are `rendered`.
        var head: EchoFolder.Folded?
        var rendered = RenderedFindings()
        var tail: EchoFolder.Folded?
        var summary = ClassifySummary()
        var lines = 0
        var entries = 0
    }

    /// How a part's findings are prepared on the thread that classifies it: line numbers made the
    /// source's (`linesBefore`), and, with a renderer, echoes folded and entries rendered there.
    struct PartContext {
        var linesBefore = 0
        var renderer: (any EntryRenderer)?
    }

    /// Classifies every source; returns the summary (also passed to `reporter.finish`).
    @discardableResult
    public func run(sources: [any ByteSource], reporter: any FindingWriter) throws -> ClassifySummary {
        var summary = ClassifySummary()
        for source in sources {
            summary.sources.append(source.name)
            // gzip, UTF-16/32 and bare carriage returns become UTF-8 lines here, streaming.
            let source = try TextDecoding.prepare(source)
            let reader = LineReader(source: source, blockSize: options.blockSize)
            reader.pauseMilliseconds = options.pauseMilliseconds
            let splitter = try EntrySplitter(reader: reader, forcedFormat: options.forcedFormat)
            let isCutPoint = EntrySplitter.cutPointTest(for: splitter.format)
            // A pause is an entry boundary, as a block's end is: only for formats that can be cut.
            if isCutPoint == nil { reader.pauseMilliseconds = nil }
            var merger = Merger(summary: summary, reporter: reporter)
            // The prefilter's literals are anchored on what is rare in this source (its app name, its
            // subsystems and error texts repeat on every line): the same findings, fewer comparisons.
            // The sample is what format detection read (already buffered). Tuning costs about what
            // scanning a few megabytes saves, so a source that fits in its sample is not tuned.
            let sample = try reader.peek(FormatDetector.sampleBytes)
            let run = sample.count < FormatDetector.sampleBytes ? self
                : sample.withUnsafeBytes { ClassifyRun(classifier: classifier.tuned(toSample: $0), options: options) }
            if options.threads > 1, let isCutPoint {
                let parallel = ParallelClassification(run: run, reader: reader, format: splitter.format, layout: splitter.layout,
                                                      sourceName: source.name,
                                                      isCutPoint: isCutPoint, merger: merger)
                defer { merger = parallel.merger }
                try parallel.classifyAll()
            } else {
                let batch = try run.classify(splitter: splitter, sourceName: source.name, streaming: { entry, index in
                    try merger.accept(entry, globalIndex: index)
                }, onPause: { try merger.pause() })
                merger.add(batch)
            }
            try merger.finishSource()
            summary = merger.summary
        }
        try reporter.finish(summary: summary)
        return summary
    }

    /// `classification` at its rule's `before-termination` severity where the entry is a line as a console printed it,
    /// with its time or process prefix (`2015-04-02 11:48:41.689 App[81787:4588378] -[__NSDictionaryM length]:
    /// unrecognized selector …`, an exception's reason AppKit logged): a line of a log that went on. The same line
    /// pasted bare says the app stopped (the development part: 30 `error` and 6 `fatal` labels on the prefixed
    /// unrecognized-selector line, 27 `fatal` and 10 `error` on the bare one). Not where the entry itself says the app
    /// stopped: the termination's own line (`*** Terminating app due to uncaught exception …`), its thrown stack, or a
    /// fatal wrapper that raised the finding (field `fatal`). Decided here, before the entry is counted or filtered by
    /// severity; the line directly before its own termination entry is lowered by the echo folder, which sees both.
    @inline(__always)
    static func asConsoleLine(_ classification: Classification?, header: LineHeader, message: UnsafeRawBufferPointer) -> Classification? {
        guard let classification, let lowered = classification.rule.beforeTerminationTwin,
              header.timestamp != nil || header.process != nil,
              !classification.fields.contains(where: { $0.name == "fatal" }),
              !message.contains(sequence: "uncaught exception"), !message.contains(sequence: "First throw call stack") else {
            return classification
        }
        return Classification(rule: lowered, fields: classification.fields)
    }

    /// Runs one splitter to the end on the calling thread. With `streaming`, wanted entries go there
    /// as they come; otherwise they are collected in the batch.
    /// `onPause` is called when a live input paused (`EntrySplitter.forEachEntry`). Rendered findings go
    /// into `renderedStorage` (`RenderedFindings(reusing:)`).
    func classify(splitter: EntrySplitter, sourceName: String, scratches: ReusePool<Classifier.Scratch>? = nil,
                  context: PartContext = PartContext(), renderedStorage: consuming [UInt8] = [],
                  streaming: ((ClassifiedEntry, Int) throws -> Void)? = nil, onPause: (() throws -> Void)? = nil) throws -> Batch {
        let scratch = scratches?.take() ?? classifier.makeScratch()
        defer { scratches?.give(scratch) }
        let part = PartClassification(classifier: classifier, scratch: scratch, options: options, sourceName: sourceName,
                                      context: context, renderedStorage: renderedStorage, streaming: streaming)
        // The closure captures one reference, not counted: the splitters it is specialised into copy
        // their closure's captures several times per line, and with the part's state captured one by
        // one every line would pay some twenty reference-count operations. `part` lives until this call
        // returns.
        var splitter = splitter
        // Entries that would get no verdict are only counted, unless they are to be reported (`--all`),
        // or some of them are and the gate admits those (`classifierAdmitsUnclassifiedLiterals`).
        let quietCanBeSkipped = !options.includeUnclassified
            || (options.classifierAdmitsUnclassifiedLiterals && options.unclassifiedLiterals != nil && !splitter.format.prefixNamesSubsystem)
        if options.skipsQuietEntries, quietCanBeSkipped, let gate = classifier.quietEntryGate {
            splitter.skipper = QuietEntrySkipper(gate: gate, scratch: scratch) { [unowned(unsafe) part] count in part.countQuiet(count) }
        }
        try splitter.forEachEntry(onPause: onPause) { [unowned(unsafe) part] raw in try part.take(&raw) }
        part.batch.tail = part.folder.finishFolded()
        part.batch.lines = splitter.reader.lineNumber
        return part.batch
    }

    /// What one `classify` call works with and builds, entry by entry. One thread's.
    private final class PartClassification {
        let classifier: Classifier
        let scratch: Classifier.Scratch
        let options: Options
        let sourceName: String
        let context: PartContext
        let streaming: ((ClassifiedEntry, Int) throws -> Void)?
        @exclusivity(unchecked) var batch = Batch()
        @exclusivity(unchecked) var folder = EchoFolder()

        init(classifier: Classifier, scratch: Classifier.Scratch, options: Options, sourceName: String, context: PartContext,
             renderedStorage: consuming [UInt8], streaming: ((ClassifiedEntry, Int) throws -> Void)?) {
            self.classifier = classifier
            self.scratch = scratch
            self.options = options
            // A copy of its own: every reported entry holds the name, and a string shared with the other
            // threads would have its reference count written from each of them.
            self.sourceName = String(decoding: Array(sourceName.utf8), as: UTF8.self)
            batch.rendered = RenderedFindings(reusing: renderedStorage)
            self.context = context
            self.streaming = streaming
        }

        /// An unclassified entry is wanted when no literal filter is set, or its message holds a literal,
        /// or its prefix does in a format whose prefix names the subsystem (not a process name that
        /// happens to hold one, `CoreDataDemo[12:34]`).
        @inline(__always)
        func isWantedUnclassified(_ raw: RawEntry) -> Bool {
            guard let literals = options.unclassifiedLiterals else { return true }
            var found = false
            literals.scan(raw.message.bytes) { _ in found = true }
            if !found, raw.format.prefixNamesSubsystem { literals.scan(raw.prefix.bytes) { _ in found = true } }
            return found
        }

        /// `count` entries the splitter skipped as quiet: they get no verdict and are not wanted.
        @inline(__always)
        func countQuiet(_ count: Int) {
            batch.entries += count
            batch.summary.entries += count
        }

        @inline(__always)
        func take(_ raw: inout RawEntry) throws {
            batch.entries += 1
            let classification: Classification?
            if let prepared = raw.prepared {
                var bytes = Array(prepared.message.utf8)
                classification = bytes.withUnsafeMutableBytes {
                    classifier.classify(message: UnsafeRawBufferPointer($0), preset: prepared.presetFields,
                                        isCrashReport: prepared.format == .crashReport, scratch: scratch)
                }
            } else {
                classification = ClassifyRun.asConsoleLine(
                    classifier.classify(message: raw.message.bytes, wrapped: raw.wrapped, scratch: scratch)
                        ?? classifier.classifyByLogContext(format: raw.format, header: raw.header, prefix: raw.prefix,
                                                           message: raw.message.bytes, scratch: scratch),
                    header: raw.header, message: raw.message.bytes)
            }
            batch.summary.count(classification)
            if raw.truncated { batch.summary.truncatedEntries += 1 }
            let wanted = classification.map { $0.severity >= options.minimumSeverity }
                ?? (options.includeUnclassified && (raw.prepared != nil || isWantedUnclassified(raw)))
            guard wanted else { return }
            var reported = ClassifiedEntry(entry: raw.makeEntry(source: sourceName), classification: classification, count: 1)
            reported.entry.line += context.linesBefore
            reported.entry.endLine += context.linesBefore
            if let streaming {
                try streaming(reported, batch.entries)
            } else if let renderer = context.renderer {
                if let finished = folder.offer(consume reported, first: batch.entries, last: batch.entries) {
                    ClassifyRun.keep(finished, in: &batch, renderer: renderer)
                }
            } else {
                batch.reported.append((reported, batch.entries))
            }
        }
    }

    /// A finding complete within its part: the part's first stays an entry, the others are rendered.
    fileprivate static func keep(_ finished: consuming EchoFolder.Folded, in batch: inout Batch, renderer: any EntryRenderer) {
        if batch.head == nil, batch.rendered.count == 0 {
            batch.head = finished
        } else {
            batch.rendered.append(finished.entry, with: renderer)
        }
    }

    /// Puts batches back in input order: line numbers and entry indices become source-global, echoes
    /// fold across block boundaries, and the reporter sees one ordered stream.
    struct Merger {
        var summary: ClassifySummary
        let reporter: any FindingWriter
        var folder = EchoFolder()

        mutating func accept(_ entry: consuming ClassifiedEntry, globalIndex: Int) throws {
            if let finished = folder.offer(consume entry, index: globalIndex) {
                summary.findings += 1
                try reporter.report(finished)
            }
        }

        /// Adds a batch whose entries were already passed to `accept`.
        mutating func add(_ batch: Batch) { summary.absorb(batch.summary) }

        /// Merges `batch` (its entries are moved out; its rendered findings stay, for reuse of their storage).
        mutating func merge(_ batch: inout Batch, entriesBefore: Int) throws {
            summary.absorb(batch.summary)
            if let head = batch.head {
                try accept(folded: head, entriesBefore: entriesBefore)
            }
            if batch.rendered.count > 0, let reporter = reporter as? RenderingFindingWriter {
                // The head did not fold with the first of these (its part's folder saw them together).
                try finishSource()
                summary.findings += batch.rendered.count
                try reporter.report(rendered: batch.rendered)
            }
            if let tail = batch.tail {
                try accept(folded: tail, entriesBefore: entriesBefore)
            }
            // Moved out one by one (reversed, then popped): iterating would copy every entry, a dozen
            // retains each, on the thread that merges for all workers. The array is swapped out of the
            // batch first so that it is uniquely referenced and reversing moves instead of copying.
            var reported: [(entry: ClassifiedEntry, index: Int)] = []
            swap(&reported, &batch.reported)
            reported.reverse()
            while let (entry, index) = reported.popLast() {
                try accept(entry, globalIndex: entriesBefore + index)
            }
        }

        /// `accept` for an entry folded within its part.
        private mutating func accept(folded: consuming EchoFolder.Folded, entriesBefore: Int) throws {
            if let finished = folder.offer(folded.entry, first: entriesBefore + folded.first, last: entriesBefore + folded.last) {
                summary.findings += 1
                try reporter.report(finished.entry)
            }
        }

        /// A live input paused: the entry held for echo folding goes out, and the output is flushed.
        mutating func pause() throws {
            try finishSource()
            try reporter.flush()
        }

        mutating func finishSource() throws {
            if let last = folder.finish() {
                summary.findings += 1
                try reporter.report(last)
            }
        }
    }
}

