import CDLogCore
import Dispatch

/// How `ClassifyRun` classifies one source on several threads.
///
/// Every thread runs the same loop: it takes its turn at the input (cutting the next part with the
/// source's one `LineReader`, numbering it and its lines), classifies that part on its own, then hands
/// the batch in; whoever hands in the batch that is next in input order merges it, and the ones after
/// it that are already in, into the output. There is no reading thread: the part a thread classifies is
/// the one it just read, still in its own core's cache, and no thread waits for another except for its
/// turn at the input or when `window` parts are cut but not yet merged (the memory bound).
///
/// Locks: `input` guards the reader and the numbering (`partsCut`, `linesHandedOut`, `inputEnded`);
/// `results` guards what is merged (`waiting`, `partsMerged`, `entriesBefore`, `merger` and through it
/// the reporter) and `failure`. A thread holding `input` may take `results`; never the other way round.
final class ParallelClassification: @unchecked Sendable {
    let run: ClassifyRun
    let reader: LineReader
    let format: InputFormat
    /// The whole source's `EntrySplitter.layout`, given to every part's splitter.
    let layout: SourceLayout
    let sourceName: String
    let isCutPoint: CutPointTest
    /// Parts cut but not merged, at most.
    let window: Int
    let scratches: ReusePool<Classifier.Scratch>
    /// Storage for blocks' rendered findings, handed back once they are written.
    let renderedStorage: ReusePool<[UInt8]>
    /// The merger's reporter when it renders on the classifying threads.
    let renderingWriter: RenderingFindingWriter?

    private let input = Monitor()
    private var partsCut = 0
    private var linesHandedOut = 0
    private var inputEnded = false

    private let results = Monitor()
    /// Batches handed in ahead of their turn, by part number.
    private var waiting: [Int: Finished] = [:]
    private var partsMerged = 0
    private var entriesBefore = 0
    private(set) var merger: ClassifyRun.Merger
    /// The first failure in input order (a part's, or the output's); no thread cuts or merges after it.
    private(set) var failure: Error?

    /// A part's outcome and whether the input paused after it (then the output is flushed once it is
    /// merged: a live `log stream` shows what came before the pause).
    struct Finished {
        var batch: Result<ClassifyRun.Batch, Error>
        var flushAfter: Bool
    }

    init(run: ClassifyRun, reader: LineReader, format: InputFormat, layout: SourceLayout, sourceName: String,
         isCutPoint: @escaping CutPointTest, merger: ClassifyRun.Merger) {
        self.run = run
        self.reader = reader
        self.format = format
        self.layout = layout
        self.sourceName = sourceName
        self.isCutPoint = isCutPoint
        self.merger = merger
        renderingWriter = merger.reporter as? RenderingFindingWriter
        window = run.options.threads + 1
        renderedStorage = ReusePool(keep: window) { [] }
        // Reused from part to part: PCRE2 match data and a JIT stack are costly to make.
        scratches = ReusePool { [classifier = run.classifier] in classifier.makeScratch() }
    }

    /// Runs `run.options.threads` threads (the calling one among them) until the input ends or fails.
    /// Throws the first failure in input order, after merging every part before it.
    func classifyAll() throws {
        DispatchQueue.concurrentPerform(iterations: run.options.threads) { _ in work() }
        if let failure { throw failure }
        assert(partsMerged == partsCut, "parts were cut but not merged")
    }

    /// What a thread took from the input: a block to classify, or an outcome already known (a span
    /// classified while reading it, a pause with nothing unread, a read error).
    private enum Claim {
        case block(ByteBlock, ClassifyRun.PartContext)
        case done(Result<ClassifyRun.Batch, Error>)
    }

    /// One thread's loop: cut a part, classify it, hand it in; until the input ends or something failed.
    private func work() {
        // A renderer of this thread's own, reused from block to block (`RenderingFindingWriter`).
        let renderer = renderingWriter?.makeRenderer()
        // The memory this thread's blocks are read into and classified in (`forNextPart(readingInto:)`).
        let readBuffer = reader.makeReadBuffer()
        while let (part, claim, flushAfter) = cutNextPart(renderer: renderer, readingInto: readBuffer) {
            let outcome: Result<ClassifyRun.Batch, Error>
            switch claim {
            case .block(let block, let context):
                outcome = Result {
                    let blockReader = LineReader(block: block, name: sourceName)
                    let batch = try run.classify(splitter: try EntrySplitter(reader: blockReader, forcedFormat: format, layout: layout),
                                                 sourceName: sourceName, scratches: scratches, context: context,
                                                 renderedStorage: renderer == nil ? [] : renderedStorage.take())
                    assert(batch.lines == block.lineCount, "a block's lines were miscounted")
                    return batch
                }
            case .done(let known):
                outcome = known
            }
            handIn(part: part, Finished(batch: outcome, flushAfter: flushAfter))
        }
    }

    /// Takes this thread's turn at the input: the next part's number, what to do with it and whether
    /// the input paused after it; nil when the input ended or something failed.
    private func cutNextPart(renderer: (any EntryRenderer)?, readingInto readBuffer: ReadBuffer) -> (Int, Claim, Bool)? {
        input.lock()
        defer { input.unlock() }
        // Room in the window: the batches in memory stay bounded whatever the threads' speeds.
        let stopped: Bool = results.withLock {
            while failure == nil, partsCut - partsMerged >= window { results.wait() }
            return failure != nil
        }
        if stopped || inputEnded { return nil }
        var claim: Claim?
        var paused = false
        do {
            let more = try reader.forNextPart(readingInto: readBuffer, isCutPoint: isCutPoint, onPause: { paused = true }) { part in
                switch part {
                case .block(let block):
                    claim = .block(block, ClassifyRun.PartContext(linesBefore: linesHandedOut, renderer: renderer))
                    linesHandedOut += block.lineCount
                case .span(let spanReader):
                    // A stretch with no cut point (an entry longer than a block, or bare text with no
                    // header, however long), classified here while it is read so it stays whole. Its
                    // findings stream straight into the merger once every part before it is merged:
                    // collected, they would grow with the input.
                    let outcome: Result<ClassifyRun.Batch, Error> = Result {
                        let ready: Bool = results.withLock {
                            while failure == nil, partsMerged < partsCut { results.wait() }
                            return failure == nil
                        }
                        guard ready else { return ClassifyRun.Batch() }
                        let first = results.withLock { entriesBefore }
                        var streamed = try run.classify(
                            splitter: try EntrySplitter(reader: spanReader, forcedFormat: format, layout: layout),
                            sourceName: sourceName, scratches: scratches,
                            context: ClassifyRun.PartContext(linesBefore: linesHandedOut),
                            streaming: { [self] entry, index in
                                try results.withLock { try merger.accept(entry, globalIndex: first + index) }
                            })
                        // What is left to merge in turn: the counts, no entries.
                        var rest = ClassifyRun.Batch()
                        rest.summary = streamed.summary
                        rest.entries = streamed.entries
                        rest.lines = streamed.lines
                        streamed.summary = ClassifySummary()
                        return rest
                    }
                    linesHandedOut += (try? outcome.get().lines) ?? 0
                    claim = .done(outcome)
                }
            }
            if !more { inputEnded = true }
        } catch {
            // Merged in its turn, after the parts before it.
            inputEnded = true
            claim = .done(.failure(error))
        }
        // A pause with nothing unread still flushes what came before it.
        if claim == nil, paused { claim = .done(.success(ClassifyRun.Batch())) }
        guard let claim else { return nil }
        partsCut += 1
        return (partsCut - 1, claim, paused)
    }

    /// Hands in part `part`'s outcome and merges every batch whose turn has come.
    private func handIn(part: Int, _ finished: Finished) {
        results.lock()
        defer { results.unlock() }
        waiting[part] = finished
        while failure == nil, var next = waiting.removeValue(forKey: partsMerged) {
            do {
                // Moved out, not copied: the rendered bytes must have no other owner to be reused.
                var outcome: Result<ClassifyRun.Batch, Error> = .success(ClassifyRun.Batch())
                swap(&outcome, &next.batch)
                var batch = try outcome.get()
                outcome = .success(ClassifyRun.Batch())
                try merger.merge(&batch, entriesBefore: entriesBefore)
                entriesBefore += batch.entries
                renderedStorage.give(batch.rendered.takeStorage())
                if next.flushAfter { try merger.pause() }
            } catch {
                failure = error
            }
            partsMerged += 1
        }
        if failure != nil { waiting.removeAll() }
        results.broadcast()
    }
}
