import CScan

/// A multi-literal searcher that finds, in one pass over an entry, which of the prefilter's literals it
/// contains.
///
/// Contract: `scan` reports every literal that occurs in the subject, each at least once; literals
/// marked caseless match regardless of ASCII case, the others exactly. No allocation per scan.
/// Immutable after `init`; safe to share between threads. The `sample` it was built with changes only
/// the speed, never what is found.
///
/// How: every literal has *anchors*, four-byte windows of it. A table keyed by a hash of the
/// (case-folded) window says where some anchor might start; the scan hashes every second window of the
/// subject, eight per branch (`cscan_window_scan`), and at a flagged position compares the literals
/// anchored there. Positions do not depend on each other, so unlike an automaton's one dependent load
/// per byte the loop runs at the processor's throughput. As only every second window is looked at, a
/// literal is anchored on two adjacent windows of its own, so one of them starts at a looked-at
/// position whatever the parity of the literal's start (a three- or four-byte literal: on the windows it
/// begins and those beginning a byte before it, with any byte there). The cost is the number of flagged
/// positions, so the two windows are those least likely to occur in the text: the rarest in a sample of
/// the input when one is given (a log repeats its own app name, subsystems and error texts), else those
/// whose bytes are rarest in console logs (`byteRank`). One- and two-byte literals are searched for
/// one by one.
public final class LiteralScanner: Sendable {
    /// What the scan reads, as plain pointers (no reference counting when threads share it).
    public struct Tables: @unchecked Sendable {
        let window: UnsafePointer<cscan_window_tables>
        /// The largest number of anchors sharing a hash value: the least output room a scan call needs.
        let largestBucket: Int
        /// Literals of one or two bytes: searched for with `cscan_find` / `cscan_find_caseless`.
        let shortLiterals: UnsafeBufferPointer<Int32>
        let literalStart: UnsafePointer<UInt32>
        let literalBytes: UnsafePointer<UInt8>
        let caseless: UnsafePointer<UInt8>
    }

    public let tables: Tables
    private let storage: FrozenStorage
    public let literalCount: Int
    /// Literals found through anchor windows; the others (one or two bytes) are searched for alone.
    public let anchoredCount: Int

    /// Builds the scanner; literal ids are their indices in `literals`. Empty literals are never found.
    /// With a `sample` of the text to be scanned, each literal is anchored on its pair of adjacent
    /// windows that occurs least often in the sample (a hash per sample byte).
    public init(literals: [(bytes: [UInt8], caseless: Bool)], sample: UnsafeRawBufferPointer? = nil) {
        let window = Int(CSCAN_WINDOW_BYTES)
        let tableSize = 1 << Int(CSCAN_WINDOW_HASH_BITS)
        // Stored bytes: caseless literals lower-cased (what the C comparison expects).
        let stored = literals.map { literal in literal.caseless ? literal.bytes.map(RequiredLiterals.asciiLowercased) : literal.bytes }
        var sampleCounts: [UInt32] = []
        if let sample, sample.count >= window {
            sampleCounts = [UInt32](repeating: 0, count: tableSize)
            for start in 0...(sample.count - window) {
                let hash = cscan_window_hash(sample.loadUnaligned(fromByteOffset: start, as: UInt32.self))
                sampleCounts[Int(hash)] &+= 1
            }
        }
        // Anchors with their hashes, then sorted into buckets by hash (a counting sort: building a table
        // of 65 536 arrays cost more than the rest of the start-up).
        var placed: [(hash: UInt32, anchor: cscan_anchor)] = []
        var short: [Int32] = []
        for (id, bytes) in stored.enumerated() where !bytes.isEmpty {
            let anchor = LiteralScanner.anchor(id: id, bytes: bytes, caseless: literals[id].caseless)
            func add(_ hashes: Set<UInt32>, offset: Int) {
                var moved = anchor
                moved.offset = Int32(offset)
                for hash in hashes.sorted() { placed.append((hash, moved)) }
            }
            // The scan looks at every second window start, so every literal has anchors of both parities
            // (`CSCAN_WINDOW_STRIDE`).
            switch bytes.count {
            case (window + 1)...:
                let (offset, first, second) = LiteralScanner.bestWindowPair(of: bytes, sampleCounts: sampleCounts)
                add([first], offset: offset)
                add([second], offset: offset + 1)
            case window:
                add([LiteralScanner.hash(bytes[0], bytes[1], bytes[2], bytes[3])], offset: 0)
                add(Set((0...255).map { LiteralScanner.hash(UInt8($0), bytes[0], bytes[1], bytes[2]) }), offset: -1)
            case window - 1:
                add(Set((0...255).map { LiteralScanner.hash(bytes[0], bytes[1], bytes[2], UInt8($0)) }), offset: 0)
                add(Set((0...255).map { LiteralScanner.hash(UInt8($0), bytes[0], bytes[1], bytes[2]) }), offset: -1)
            default:
                short.append(Int32(id))
            }
        }
        var bucketStart = [UInt32](repeating: 0, count: tableSize + 1)
        for entry in placed { bucketStart[Int(entry.hash) + 1] += 1 }
        var largestBucket: UInt32 = 1
        var filter = [UInt8](repeating: 0, count: tableSize)
        for hash in 0..<tableSize {
            let size = bucketStart[hash + 1]
            if size > 0 { filter[hash] = 1 }
            largestBucket = max(largestBucket, size)
            bucketStart[hash + 1] = bucketStart[hash] + size
        }
        var next = bucketStart
        var anchors = [cscan_anchor](repeating: cscan_anchor(), count: placed.count)
        for entry in placed {
            anchors[Int(next[Int(entry.hash)])] = entry.anchor
            next[Int(entry.hash)] += 1
        }
        var literalStart: [UInt32] = [0]
        for bytes in stored { literalStart.append(literalStart.last! + UInt32(bytes.count)) }
        let storage = FrozenStorage()
        let literalStartPointer = storage.freeze(literalStart)
        let literalBytesPointer = storage.freeze(stored.flatMap { $0 })
        let caselessPointer = storage.freeze(literals.map { $0.caseless ? UInt8(1) : 0 })
        let windowTables = cscan_window_tables(
            filter: storage.freeze(filter), bucket_start: storage.freeze(bucketStart),
            anchors: storage.freeze(anchors), literal_start: literalStartPointer,
            literal_bytes: literalBytesPointer, caseless: caselessPointer)
        tables = Tables(window: storage.freeze([windowTables]), largestBucket: Int(largestBucket),
                        shortLiterals: UnsafeBufferPointer(start: storage.freeze(short), count: short.count),
                        literalStart: literalStartPointer, literalBytes: literalBytesPointer, caseless: caselessPointer)
        self.storage = storage
        literalCount = literals.count
        anchoredCount = stored.filter { $0.count >= window - 1 }.count
    }

    /// Calls `found(id)` for each literal occurrence in `subject` (ids may repeat).
    public func scan(_ subject: UnsafeRawBufferPointer, _ found: (Int) -> Void) {
        tables.scan(subject, found)
    }

    /// The filter hash of the window `b0 b1 b2 b3` (as `cscan_window_hash` gets it from a native-endian load).
    private static func hash(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> UInt32 {
        let littleEndianLoad = UInt32(b0) | UInt32(b1) << 8 | UInt32(b2) << 16 | UInt32(b3) << 24
        return cscan_window_hash(UInt32(littleEndian: littleEndianLoad))
    }

    /// The two adjacent windows of `bytes` (the first one's offset, both filter hashes) least likely to
    /// occur in text: fewest occurrences in the sample, else the lowest product of their bytes'
    /// `byteRank`s, summed over the two; the earliest of equals.
    private static func bestWindowPair(of bytes: [UInt8], sampleCounts: [UInt32]) -> (Int, UInt32, UInt32) {
        let window = Int(CSCAN_WINDOW_BYTES)
        let scored = (0...(bytes.count - window)).map { offset -> (hash: UInt32, score: Double) in
            let hash = hash(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
            var score = sampleCounts.isEmpty ? 1 : Double(sampleCounts[Int(hash)]) + 1
            for byte in bytes[offset..<(offset + window)] { score *= Double(byteRank(byte)) }
            return (hash, score)
        }
        var best = 0
        for offset in 1..<(scored.count - 1) where scored[offset].score + scored[offset + 1].score < scored[best].score + scored[best + 1].score {
            best = offset
        }
        return (best, scored[best].hash, scored[best + 1].hash)
    }

    /// The anchor of literal `id` (stored bytes), its window at the literal's start.
    private static func anchor(id: Int, bytes: [UInt8], caseless: Bool) -> cscan_anchor {
        var head = [UInt8](repeating: 0, count: 8), fold = head, mask = head
        for k in 0..<min(8, bytes.count) {
            head[k] = bytes[k]
            mask[k] = 0xFF
            if caseless, bytes[k] >= UInt8(ascii: "a"), bytes[k] <= UInt8(ascii: "z") { fold[k] = 0x20 }
        }
        // Loaded as the C code loads the subject's bytes (native byte order).
        func word(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }
        return cscan_anchor(literal: Int32(id), offset: 0, head: word(head), head_fold: word(fold), head_mask: word(mask))
    }

    /// How common a byte is in console-log text (`cscan_byte_rank`, shared with the caseless search).
    static func byteRank(_ byte: UInt8) -> Int { Int(cscan_byte_rank(byte)) }
}

extension LiteralScanner.Tables {
    /// Calls `body` with the C scanner's tables and room (on the stack) for the ids one
    /// `cscan_window_scan` call may write, and that room's capacity.
    @inline(__always)
    func withScanRoom<R>(_ body: (UnsafePointer<cscan_window_tables>, UnsafeMutablePointer<Int32>, Int) -> R) -> R {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(largestBucket, 32)) { body(window, $0.baseAddress!, $0.count) }
    }

    /// Calls `found(id)` for each literal occurrence in `subject` (ids may repeat).
    @inline(__always)
    public func scan(_ subject: UnsafeRawBufferPointer, _ found: (Int) -> Void) {
        guard let base = subject.baseAddress?.assumingMemoryBound(to: UInt8.self), !subject.isEmpty else { return }
        let length = subject.count
        if length >= Int(CSCAN_WINDOW_BYTES) - 1 {
            withScanRoom { window, ids, capacity in
                var position = 0
                repeat {
                    let count = cscan_window_scan(window, base, length, length, &position, ids, capacity)
                    for k in 0..<count { found(Int(ids[k])) }
                } while position < length
            }
        }
        for id in shortLiterals {
            let bytes = UnsafeRawPointer(literalBytes + Int(literalStart[Int(id)]))
            let count = Int(literalStart[Int(id) + 1] - literalStart[Int(id)])
            let at = caseless[Int(id)] != 0 ? cscan_find_caseless(base, length, bytes, count) : cscan_find(base, length, bytes, count)
            if at >= 0 { found(Int(id)) }
        }
    }
}
