import CDLogCore
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Whether a line may begin a block when the input is cut into parts (`LineReader.forEachPart`): the line,
/// and the line before it where the reader has it (nil at a span's boundary). The splitter joins some
/// lines that open an entry to the one before them by context, so the test looks at both.
public typealias CutPointTest = (_ line: UnsafeRawBufferPointer, _ previous: UnsafeRawBufferPointer?) -> Bool

/// Splits a byte stream into lines, reading large blocks and never holding more than one block plus
/// one (capped) line in memory.
///
/// Contract: lines are handed out without their `\n` (and without a `\r` before it); the last line
/// need not end with `\n`. A line longer than `maxLineBytes` is handed out cut to that length with
/// `truncated == true`, and the rest of it is skipped without being stored. `lineNumber` is the 1-based
/// number of the line last handed out. Results never depend on how the source splits its reads.
///
/// Not for sharing between threads (each thread reads its own block through its own reader), so the
/// per-line state is exempt from run-time exclusivity checks: as class properties they were otherwise
/// checked on every line (two calls into the runtime per line).
public final class LineReader {
    @exclusivity(unchecked) public private(set) var lineNumber = 0
    public let sourceName: String
    private var source: any ByteSource
    /// The memory read into: `bufferOwner`'s (the reader's own `ReadBuffer`, one lent by
    /// `forNextPart(readingInto:)`, or a block's). Unread bytes are `buffer[start..<end]`.
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawBufferPointer
    /// Keeps `buffer` alive.
    private var bufferOwner: AnyObject
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEOF = false
    private let blockSize: Int
    private let maxLineBytes: Int
    /// Bytes consumed before `buffer[start]` (for byte offsets in messages).
    @exclusivity(unchecked) public private(set) var consumedBytes = 0

    public init(source: any ByteSource, blockSize: Int = 1 << 20, maxLineBytes: Int = EntryLimits.maxMessageBytes) {
        self.source = source
        self.sourceName = source.name
        self.blockSize = max(blockSize, 4096)
        self.maxLineBytes = max(1, maxLineBytes)
        let own = ReadBuffer(byteCount: self.blockSize + self.maxLineBytes + 1)
        buffer = own.bytes
        bufferOwner = own
    }

    /// A reader over a block cut by `forNextPart`: it reads the block where it was cut, no copy.
    public init(block: ByteBlock, name: String, maxLineBytes: Int = EntryLimits.maxMessageBytes) {
        self.source = MemoryByteSource(name: name, bytes: [])
        self.sourceName = name
        self.blockSize = max(block.count, 1)
        self.maxLineBytes = max(1, maxLineBytes)
        bufferOwner = block
        buffer = block.storage
        end = block.count
        atEOF = true
    }

    /// Memory for `forNextPart(readingInto:)`: the size of this reader's own buffer.
    public func makeReadBuffer() -> ReadBuffer {
        ReadBuffer(byteCount: blockSize + maxLineBytes + 1)
    }

    /// Reads until at least `count` bytes are buffered (or the end of input) and returns them, without
    /// consuming anything. Used for format detection.
    public func peek(_ count: Int) throws -> ArraySlice<UInt8> {
        // One byte short of the buffer, so that `fill` always has room; a block's reader has all it reads.
        let wanted = min(count, atEOF ? end - start : buffer.count - 1)
        while end - start < wanted, !atEOF {
            // A live stream that pauses is detected on what it has sent (once it has sent something);
            // the pause is reported to the next reader call that runs out of lines, as nothing was consumed.
            if try !fill(mayPause: true), end > start {
                pauseReported = false
                pauseSeenByPeek = true
                break
            }
        }
        let available = min(wanted, end - start)
        return ArraySlice(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + available)]))
    }

    /// Calls `body` with the next line; returns false at the end of input (or of a span, `beginSpan`).
    /// The buffer passed to `body` is only valid during the call.
    @discardableResult
    public func nextLine(_ body: (UnsafeRawBufferPointer, _ truncated: Bool) throws -> Void) throws -> Bool {
        while true {
            if let newline = findNewline() {
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                // A line longer than the cap is cut here too, not only when its end is not buffered yet:
                // otherwise the result would depend on where reads ended (found by Fuzz/FuzzLogs).
                let cut = lineEnd - start > maxLineBytes
                let line = UnsafeRawBufferPointer(rebasing: buffer[start..<(cut ? start + maxLineBytes : lineEnd)])
                if endsSpan(line) { return false }
                lineNumber += 1
                let next = newline + 1
                consumedBytes += next - start
                start = next
                try body(line, cut)
                return true
            }
            // Without its newline the line's length is known only to be at least the bytes buffered
            // (minus a trailing \r that a \n may follow); cut only when that is already over the cap.
            if end > start, end - start - (buffer[end - 1] == 0x0D ? 1 : 0) > maxLineBytes {
                // An overlong line: hand out the first maxLineBytes, then drop the rest unread.
                let line = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + maxLineBytes)])
                if endsSpan(line) { return false }
                lineNumber += 1
                try body(line, true)
                try skipRestOfLine()
                return true
            }
            if atEOF {
                guard end > start else { return false }
                var lineEnd = end
                if buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let cut = lineEnd - start > maxLineBytes
                let line = UnsafeRawBufferPointer(rebasing: buffer[start..<(cut ? start + maxLineBytes : lineEnd)])
                if endsSpan(line) { return false }
                lineNumber += 1
                consumedBytes += end - start
                start = end
                try body(line, cut)
                return true
            }
            if try !fill(mayPause: true) {
                stoppedAtPause = true
                return false
            }
        }
    }

    /// Calls `body` with the bytes buffered after the line last handed out (complete lines, then maybe
    /// the start of one); `body` returns how many whole lines of them to skip and their length in bytes,
    /// which are then consumed as if handed out (`lineNumber` counts them). Does nothing, without calling
    /// `body`, while a span is read (its end must be seen by `nextLine`). For skipping quiet entries
    /// (an `EntrySkipper`) from inside a `nextLine` body.
    @inline(__always)
    func skipBufferedLines(_ body: (UnsafeRawBufferPointer, _ maxLineBytes: Int) -> (lines: Int, bytes: Int)) {
        guard spanBoundary == nil else { return }
        let (lines, bytes) = body(UnsafeRawBufferPointer(rebasing: buffer[start..<end]), maxLineBytes)
        guard lines > 0, bytes > 0, bytes <= end - start else { return }
        start += bytes
        consumedBytes += bytes
        lineNumber += lines
    }

    /// What `nextBlock` found next.
    private enum BlockStep {
        /// Whole lines, ending just before a cut point (or at the end of input).
        case block(ByteBlock)
        /// No cut point follows within a block's length: the entry at the read position is longer than
        /// a block. The caller reads it line by line (`beginSpan`) up to the next cut point.
        case longEntry
        /// The input paused (`pauseMilliseconds`) with no whole line unread; `stoppedAtPause` is set.
        case paused
    }

    /// The next part for `forEachPart`: a block, `.longEntry` when no cut point follows the first line
    /// within `blockSize` bytes, `.paused`, or nil at the end of input.
    private func nextBlock(isCutPoint: CutPointTest) throws -> BlockStep? {
        while end - start < blockSize, !atEOF {
            if try !fill(mayPause: true) {
                // The input paused: what it sent so far is a block of its own.
                stoppedAtPause = true
                guard let newline = lastNewline(from: start, to: end) else { return .paused }
                return .block(takeBlock(upTo: newline + 1))
            }
        }
        guard end > start else { return nil }
        if atEOF && end - start <= blockSize {
            return .block(takeBlock(upTo: end))
        }
        // Walk back over line starts until one is a cut point.
        var position = min(end, start + blockSize) - 1
        while position > start {
            guard let found = lastNewline(from: start, to: position) else { break }
            let lineStart = found + 1
            if lineStart < end, isCutPoint(lineAsHandedOut(from: lineStart), previousLine(before: found)) {
                return .block(takeBlock(upTo: lineStart))
            }
            position = found
        }
        return .longEntry
    }

    /// A part of the input as `forEachPart` cuts it; each part splits into entries on its own.
    public enum Part {
        /// Whole lines, in the `ReadBuffer` they were read into: read them with `LineReader(block:name:)`,
        /// on any thread, until the next part is cut into that buffer.
        case block(ByteBlock)
        /// An entry longer than a block: the cutting reader itself, up to the entry's end (its
        /// `lineNumber` counts the span's lines). Only valid during the call, on the calling thread.
        case span(LineReader)

        /// A reader over the part: a new one for a block, the span's reader for a span.
        public func reader(name: String, maxLineBytes: Int = EntryLimits.maxMessageBytes) -> LineReader {
            switch self {
            case .block(let block): return LineReader(block: block, name: name, maxLineBytes: maxLineBytes)
            case .span(let reader): return reader
            }
        }
    }

    /// Cuts the rest of the input into parts at entry boundaries (`isCutPoint`: a line that starts an
    /// entry) and calls `body` with each, in order: blocks of about `blockSize` bytes ending just before a
    /// cut point, and, for an entry longer than a block, a span read line by line up to the next cut point,
    /// so it stays whole. `isCutPoint` sees lines as `nextLine` hands them out (no `\r\n`, cut at the line
    /// cap). When the input pauses (`pauseMilliseconds`), what came before is a part of its own, then
    /// `onPause` is called. Lines handed out in blocks are not counted in `lineNumber`. A part is only
    /// valid during the call.
    /// This is how `ClassifyRun` cuts a source for its threads; the tests and fuzzers run it on one
    /// thread and check it gives the entries one pass gives. It reads into two buffers in turn, as two
    /// threads do (`forNextPart(readingInto:)`), so that unread bytes move from one to the other.
    public func forEachPart(isCutPoint: @escaping CutPointTest, onPause: () throws -> Void = {},
                            _ body: (Part) throws -> Void) throws {
        let buffers = [makeReadBuffer(), makeReadBuffer()]
        var turn = 0
        while try forNextPart(readingInto: buffers[turn % 2], isCutPoint: isCutPoint, onPause: onPause, body) { turn += 1 }
    }

    /// One step of `forEachPart`: cuts the next part and calls `body` with it, then `onPause` when the
    /// input paused there (a pause with nothing unread calls only `onPause`). Returns false, calling
    /// neither, at the end of input. For callers that cut parts one at a time (`ClassifyRun`'s threads
    /// take turns at it).
    ///
    /// The part is read into `readingInto` (from `makeReadBuffer`), which the reader keeps reading into
    /// until the next call: the unread bytes move there first, then the input is read after them, and a
    /// block is handed out where it was read. Each thread lends the buffer of its own that it classifies
    /// its blocks in, so a block is never copied, and its bytes stay in the cache of the core that reads
    /// them (a shared buffer copied into each block made both copies move between the cores).
    /// Precondition: no block cut into `readingInto` earlier is still being read.
    public func forNextPart(readingInto lent: ReadBuffer, isCutPoint: @escaping CutPointTest,
                            onPause: () throws -> Void = {}, _ body: (Part) throws -> Void) throws -> Bool {
        readInto(lent)
        guard let step = try nextBlock(isCutPoint: isCutPoint) else { return false }
        switch step {
        case .block(let block): try body(.block(block))
        case .longEntry:
            beginSpan(boundary: isCutPoint)
            defer { endSpan() }
            try body(.span(self))
        case .paused: break
        }
        if stoppedAtPause {
            resumeAfterPause()
            try onPause()
        }
        return true
    }

    /// Moves the unread bytes to the start of `lent` and reads into it from now on.
    private func readInto(_ lent: ReadBuffer) {
        precondition(lent.bytes.count == buffer.count && bufferOwner is ReadBuffer, "a read buffer from another reader")
        guard lent.bytes.baseAddress != buffer.baseAddress else { return }
        let pending = end - start
        if pending > 0 { lent.bytes.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending) }
        buffer = lent.bytes
        bufferOwner = lent
        start = 0
        end = pending
    }

    /// Consumes `buffer[start..<blockEnd]` as a block, where it is.
    private func takeBlock(upTo blockEnd: Int) -> ByteBlock {
        let block = ByteBlock(UnsafeMutableRawBufferPointer(rebasing: buffer[start..<blockEnd]), owner: bufferOwner)
        consumedBytes += blockEnd - start
        start = blockEnd
        return block
    }

    /// The line that ends at the newline `newline` (not before `start`), as `nextLine` hands it out.
    private func previousLine(before newline: Int) -> UnsafeRawBufferPointer {
        handedOut(from: lastNewline(from: start, to: newline).map { $0 + 1 } ?? start, to: newline)
    }

    /// The line starting at `lineStart` as `nextLine` would hand it out, as far as it is buffered.
    private func lineAsHandedOut(from lineStart: Int) -> UnsafeRawBufferPointer {
        handedOut(from: lineStart, to: findNewline(from: lineStart) ?? end)
    }

    /// `buffer[lineStart..<stop]` as `nextLine` hands a line out: without a `\r` before `stop`, cut at
    /// `maxLineBytes`.
    private func handedOut(from lineStart: Int, to stop: Int) -> UnsafeRawBufferPointer {
        var lineEnd = stop
        if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        return UnsafeRawBufferPointer(rebasing: buffer[lineStart..<min(lineEnd, lineStart + maxLineBytes)])
    }

    /// Starts a span for `nextLine`: `lineNumber` restarts at 0, and `nextLine` returns false (as at
    /// the end of input, without consuming it) before a line after the first for which `boundary` is
    /// true. `endSpan` goes back to reading to the end.
    private func beginSpan(boundary: @escaping CutPointTest) {
        lineNumber = 0
        spanBoundary = boundary
    }

    private func endSpan() { spanBoundary = nil }

    /// When set, a source that sends nothing for this long (a live `log stream` going quiet) makes
    /// `nextLine` return false and `nextBlock` return what it has, with `stoppedAtPause` set, so the
    /// caller can finish its entries and flush its output. Files and memory never pause.
    public var pauseMilliseconds: Int32?
    /// True after `nextLine` or `nextBlock` stopped because the input paused; see `resumeAfterPause`.
    public private(set) var stoppedAtPause = false
    @exclusivity(unchecked) private var pauseReported = false
    /// `peek` stopped at a pause and nothing was read since: the next `fill` reports it without waiting.
    @exclusivity(unchecked) private var pauseSeenByPeek = false

    /// Clears `stoppedAtPause`; reading goes on, waiting for input.
    public func resumeAfterPause() { stoppedAtPause = false }

    /// Set by `beginSpan`.
    @exclusivity(unchecked) private var spanBoundary: CutPointTest?

    /// True when a span is being read and `line` (not the span's first) ends it.
    @inline(__always)
    private func endsSpan(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let spanBoundary else { return false }
        defer { keepSpanLine(line) }
        guard lineNumber > 0 else { return false }
        // The line before, as the block cutter sees it; a long one is not kept, and the span goes on past a
        // line after it (a later cut costs nothing, a cut inside an entry would split it).
        guard spanPreviousKept else { return false }
        return spanPrevious.withUnsafeBytes { spanBoundary(line, $0) }
    }

    /// Keeps a copy of `line` (up to `spanLineBytes`) for the next line's `endsSpan`.
    private func keepSpanLine(_ line: UnsafeRawBufferPointer) {
        spanPrevious.removeAll(keepingCapacity: true)
        spanPreviousKept = line.count <= LineReader.spanLineBytes
        if spanPreviousKept { spanPrevious.append(contentsOf: line) }
    }

    /// The longest line before a span's boundary that the boundary test reads.
    static let spanLineBytes = 16 << 10
    @exclusivity(unchecked) private var spanPrevious: [UInt8] = []
    @exclusivity(unchecked) private var spanPreviousKept = false

    /// Index of the last `\n` in `buffer[from..<to]`.
    private func lastNewline(from: Int, to: Int) -> Int? {
        var i = to - 1
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        while i >= from {
            if base[i] == 0x0A { return i }
            i -= 1
        }
        return nil
    }

    private func findNewline(from: Int) -> Int? {
        guard end > from else { return nil }
        guard let found = memchr(buffer.baseAddress! + from, 0x0A, end - from) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(buffer.baseAddress!)
    }

    /// Reads everything that is left, up to `limit` bytes; throws `ToolFailure` when there is more.
    public func readRest(limit: Int) throws -> [UInt8] {
        var result = Array(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
        start = end
        var chunk = [UInt8](repeating: 0, count: blockSize)
        while !atEOF {
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { atEOF = true; break }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limit {
                throw ToolFailure("\(sourceName): document larger than \(limit >> 20) MiB")
            }
        }
        return result
    }

    private func findNewline() -> Int? {
        guard end > start else { return nil }
        guard let found = memchr(buffer.baseAddress! + start, 0x0A, end - start) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(buffer.baseAddress!)
    }

    /// Moves the unread bytes to the front and reads one more block after them. With `mayPause`, when
    /// `pauseMilliseconds` is set and the source sends nothing for that long, reads nothing and returns
    /// false, once per pause (the next call waits for input as long as it takes).
    @discardableResult
    private func fill(mayPause: Bool = false) throws -> Bool {
        if mayPause, let pauseMilliseconds, !pauseReported,
           try pauseSeenByPeek || !source.waitForInput(milliseconds: pauseMilliseconds) {
            pauseReported = true
            pauseSeenByPeek = false
            return false
        }
        if start > 0 {
            let pending = end - start
            if pending > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + start, pending) }
            start = 0
            end = pending
        }
        let room = min(blockSize, buffer.count - end)
        guard room > 0 else { return true }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end..<(end + room)]))
        if count == 0 { atEOF = true } else { end += count }
        pauseReported = false
        pauseSeenByPeek = false
        return true
    }

    private func skipRestOfLine() throws {
        start += maxLineBytes
        consumedBytes += maxLineBytes
        while true {
            if let newline = findNewline() {
                consumedBytes += newline + 1 - start
                start = newline + 1
                return
            }
            consumedBytes += end - start
            start = end
            if atEOF { return }
            try fill()
        }
    }
}
