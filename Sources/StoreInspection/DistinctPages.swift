/// Counts the distinct page numbers of committed WAL frames — all of them, and those in frames after
/// `splitFrame` (what a checkpoint from nBackfill = `splitFrame` must copy) — in memory bounded by the
/// range of page numbers, not by the WAL's length.
///
/// Page numbers are kept in bitmaps, one 32,768-page chunk (4 KiB per set) at a time, allocated when a
/// page of the chunk is first seen: a database of N pages needs at most N / 8 bytes per set, and a WAL
/// that rewrites the same pages a million times needs no more than one that writes them once. Each chunk
/// has four sets: committed, committed after `splitFrame`, and the same two for the open transaction;
/// `commit()` merges the open transaction's words (those it touched) into the committed sets.
///
/// Bounded for hostile input too: at most `maxChunks` chunks are allocated (page numbers come from frame
/// headers; a crafted WAL can scatter them over the whole 32-bit range). Pages of chunks beyond the budget
/// are not counted during the scan: their chunks are marked deferred, and `countDeferred` counts them
/// afterwards from re-reads of the committed frames' headers into a fixed sort buffer (a pass per
/// 256 K distinct such pages), so the figures stay exact whatever the input. A real database reaches
/// that only with more than `maxChunks` × 32,768 pages written in one WAL.
///
/// Contract: never traps for any page number (0…UInt32.max); memory ≤ `maxChunks` × 16 KiB plus a
/// directory of ≤ 512 KiB (sized by the largest page number seen), plus, only when chunks were deferred,
/// a 16 KiB deferred-chunk map and the 4 MiB sort buffer.
struct DistinctPages {
    static let chunkShift = 15
    static let chunkPages = 1 << chunkShift
    static let chunkCount = 1 << (32 - chunkShift)
    static let setWords = chunkPages / 64
    static let slotWords = 4 * setWords
    // Offsets of the four sets within a slot.
    static let committed = 0, committedAfter = setWords, open = 2 * setWords, openAfter = 3 * setWords

    /// Frames after this one count in `pagesAfterSplit` (≤ 0: every frame).
    let splitFrame: Int
    let maxChunks: Int
    /// Distinct pages among committed frames.
    private(set) var pages = 0
    /// Distinct pages among committed frames after `splitFrame`.
    private(set) var pagesAfterSplit = 0

    /// chunk → slot + 1 (0: no slot); as long as the largest chunk seen + 1.
    private var directory: [UInt32] = []
    /// Slots of `slotWords` words each.
    private var words: [UInt64] = []
    private var slots = 0
    /// Word offsets (within the committed set of a slot) whose open-transaction word became non-zero.
    private var touched: [Int32] = []
    /// Chunks seen while the budget was full: one bit per chunk (allocated on the first such chunk).
    private var deferred: [UInt64] = []

    init(splitFrame: Int, maxChunks: Int) {
        self.splitFrame = splitFrame
        self.maxChunks = max(1, min(maxChunks, DistinctPages.chunkCount))
    }

    /// Adds `page`, written by `frame`, to the open transaction.
    @inline(__always)
    mutating func add(page: UInt32, frame: Int) {
        let chunk = Int(page >> UInt32(DistinctPages.chunkShift))
        var slot = chunk < directory.count ? Int(directory[chunk]) - 1 : -1
        if slot < 0 {
            slot = allocate(chunk)
            if slot < 0 { return }
        }
        let bit = Int(page) & (DistinctPages.chunkPages - 1)
        let word = slot &* DistinctPages.slotWords &+ (bit >> 6)
        let mask = UInt64(1) << UInt64(bit & 63)
        let after = frame > splitFrame
        let committedAfter = word + DistinctPages.committedAfter
        if words[word] & mask != 0 && (!after || words[committedAfter] & mask != 0) { return }
        let open = word + DistinctPages.open
        if words[open] == 0 { touched.append(Int32(truncatingIfNeeded: word)) } // openAfter ⊆ open
        words[open] |= mask
        if after { words[word + DistinctPages.openAfter] |= mask }
    }

    /// Distinct committed pages numbered above `limit` (all, and after the split), from the bitmaps: the
    /// pages a checkpoint skips when the last commit shrank the database to `limit` pages. Pages of
    /// deferred chunks are not included (they are counted, uncapped, by `countDeferred`).
    func pagesAbove(_ limit: UInt32) -> (all: Int, afterSplit: Int) {
        var all = 0, after = 0
        for chunk in directory.indices where directory[chunk] != 0 {
            let firstPage = UInt64(chunk) << UInt64(DistinctPages.chunkShift)
            guard firstPage + UInt64(DistinctPages.chunkPages) - 1 > UInt64(limit) else { continue }
            let slot = Int(directory[chunk]) - 1
            for w in 0..<DistinctPages.setWords {
                let base = firstPage + UInt64(w) * 64
                let mask: UInt64
                if base > UInt64(limit) { mask = ~0 }
                else if base + 63 > UInt64(limit) { mask = ~0 << (UInt64(limit) - base + 1) }
                else { continue }
                let word = slot * DistinctPages.slotWords + w
                all += (words[word] & mask).nonzeroBitCount
                after += (words[word + DistinctPages.committedAfter] & mask).nonzeroBitCount
            }
        }
        return (all, after)
    }

    /// The open transaction committed: its pages join the committed sets.
    mutating func commit() {
        guard !touched.isEmpty else { return }
        for t in touched {
            let word = Int(t)
            let open = words[word + DistinctPages.open], openAfter = words[word + DistinctPages.openAfter]
            pages += (open & ~words[word]).nonzeroBitCount
            pagesAfterSplit += (openAfter & ~words[word + DistinctPages.committedAfter]).nonzeroBitCount
            words[word] |= open
            words[word + DistinctPages.committedAfter] |= openAfter
            words[word + DistinctPages.open] = 0
            words[word + DistinctPages.openAfter] = 0
        }
        touched.removeAll(keepingCapacity: true)
    }

    /// A slot for `chunk`, or -1 when the budget is spent (the chunk is then deferred).
    private mutating func allocate(_ chunk: Int) -> Int {
        guard slots < maxChunks else {
            if deferred.isEmpty { deferred = [UInt64](repeating: 0, count: DistinctPages.chunkCount / 64) }
            deferred[chunk >> 6] |= UInt64(1) << UInt64(chunk & 63)
            return -1
        }
        if chunk >= directory.count {
            // Grow geometrically, but never past the number of chunks there are.
            let wanted = min(DistinctPages.chunkCount, max(chunk + 1, 2 * directory.count))
            directory += [UInt32](repeating: 0, count: wanted - directory.count)
        }
        words += [UInt64](repeating: 0, count: DistinctPages.slotWords)
        directory[chunk] = UInt32(slots + 1)
        slots += 1
        return slots - 1
    }

    /// Counts the pages of the deferred chunks among committed frames: `frames` must call its argument
    /// with each committed frame's (page, frame), in any order; it is called once per pass. A pass
    /// collects the pages of deferred chunks from `lo` up into a buffer of `passEntries` (page, after-split)
    /// entries, sorted and merged when full; when more than half of it holds distinct pages, the pass keeps
    /// the lower half and lowers its upper bound, so each pass but the last counts at least
    /// `passEntries / 2` distinct pages exactly and the next one starts where it stopped.
    /// Memory: `passEntries` × 8 bytes (4 MiB), only when chunks were deferred.
    mutating func countDeferred(passEntries: Int = 1 << 19, frames: (_ visit: (UInt32, Int) -> Void) throws -> Void) rethrows {
        guard !deferred.isEmpty else { return }
        let capacity = max(2, passEntries)
        let deferred = self.deferred
        let split = splitFrame
        var buffer: [UInt64] = []
        buffer.reserveCapacity(capacity)
        /// Sorts and merges entries of the same page (OR-ing their after-split bit).
        func merge() {
            buffer.sort()
            var out = 0
            for i in buffer.indices {
                let entry = buffer[i]
                if out > 0 && buffer[out - 1] >> 1 == entry >> 1 { buffer[out - 1] |= entry & 1 } else { buffer[out] = entry; out += 1 }
            }
            buffer.removeLast(buffer.count - out)
        }
        var lo: UInt64 = 0
        while lo <= UInt64(UInt32.max) {
            var hi: UInt64 = UInt64(UInt32.max) + 1
            buffer.removeAll(keepingCapacity: true)
            try frames { page, frame in
                let p = UInt64(page)
                guard p >= lo, p < hi else { return }
                let chunk = Int(page >> UInt32(DistinctPages.chunkShift))
                guard deferred[chunk >> 6] & (UInt64(1) << UInt64(chunk & 63)) != 0 else { return }
                buffer.append(p << 1 | (frame > split ? 1 : 0))
                if buffer.count == capacity {
                    merge()
                    if buffer.count > capacity / 2 {
                        hi = buffer[capacity / 2] >> 1
                        buffer.removeLast(buffer.count - capacity / 2)
                    }
                }
            }
            merge()
            pages += buffer.count
            pagesAfterSplit += buffer.reduce(0) { $0 + Int($1 & 1) }
            lo = hi
        }
        self.deferred = []
    }
}
