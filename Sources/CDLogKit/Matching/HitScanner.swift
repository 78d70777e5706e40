import CScan

/// Finds, in a whole block of input, the lines that may hold a literal some rule needs, so that the
/// entries around all other lines are only delimited and counted, never copied or classified (see
/// `EntrySplitter.forEachEntry(hits:)`). Most lines of a real console capture are noise: on the benchmark
/// log 86 % of entries contain no prefilter literal at all.
///
/// Contract: conservative. When an entry's message (as the splitter builds it for `encoding`) contains
/// one of the literals the scanner was built from, or one of its `sentinels`, `scan` reports a line of
/// that entry. A scan key is the longest run of a literal's bytes that the encoding cannot have changed
/// (no line break in line formats; no quote, backslash, slash or control byte in JSON strings, where the
/// `\u` sentinel catches escaped letters), cut to its first `LiteralAutomaton.defaultKeyLength` bytes,
/// compared caselessly: extra lines only cost time. Immutable; safe to share between threads.
public final class HitScanner: Sendable {
    /// How messages are encoded in the raw lines the scanner reads.
    public enum Encoding: Sendable {
        /// Line formats: the message is the line's text (continuation lines joined by `\n`).
        case lines
        /// `log show --style ndjson`: the message is a JSON string inside the line.
        case jsonStrings
    }

    private let automaton: LiteralAutomaton
    private let tables: LiteralAutomaton.Tables

    /// Lines that must always be read whole for `encoding`, whatever the rules: a pasted crash report's
    /// first line (the splitter collects the report and builds entries from it), and in JSON an escape
    /// that may hide a literal's letter.
    static func sentinels(for encoding: Encoding) -> [String] {
        switch encoding {
        case .lines: return ["Incident Identifier:", "Translated Report"]
        case .jsonStrings: return ["\\u"]
        }
    }

    /// Builds the scanner, or returns nil when some literal has no byte that survives `encoding` (every
    /// line would be a hit: not worth scanning).
    public init?(literals: [(bytes: [UInt8], caseless: Bool)], encoding: Encoding) {
        var keys: [(bytes: [UInt8], caseless: Bool)] = []
        for literal in literals {
            guard let run = HitScanner.longestPlainRun(literal.bytes, encoding: encoding) else { return nil }
            keys.append((Array(run.prefix(LiteralAutomaton.defaultKeyLength)), true))
        }
        for sentinel in HitScanner.sentinels(for: encoding) { keys.append((Array(sentinel.utf8), true)) }
        automaton = LiteralAutomaton(literals: keys)
        tables = automaton.tables
    }

    /// The longest run of `bytes` that appears unchanged in the raw line for `encoding`, or nil.
    static func longestPlainRun(_ bytes: [UInt8], encoding: Encoding) -> ArraySlice<UInt8>? {
        func isPlain(_ b: UInt8) -> Bool {
            switch encoding {
            case .lines: return b != 0x0A && b != 0x0D
            case .jsonStrings: return b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b != UInt8(ascii: "/")
            }
        }
        var best: Range<Int>? = nil
        var start = 0
        for i in 0...bytes.count {
            if i == bytes.count || !isPlain(bytes[i]) {
                if i > start, (best?.count ?? 0) < i - start { best = start..<i }
                start = i + 1
            }
        }
        return best.map { bytes[$0] }
    }

    /// Positions (byte offsets into `block`) of the first key byte that completes a key, one per line that
    /// has one, in increasing order, replacing the contents of `hits`.
    public func scan(_ block: UnsafeRawBufferPointer, into hits: inout [UInt32]) {
        hits.removeAll(keepingCapacity: true)
        guard let base = block.baseAddress, block.count > 0 else { return }
        precondition(block.count < Int(UInt32.max), "block too large for 32-bit hit offsets")
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        // Two ranges of whole lines, scanned together: the second starts after the first newline past
        // the middle (or is empty).
        var middle = block.count
        if let newline = memchr(base + block.count / 2, 0x0A, block.count - block.count / 2) {
            middle = UnsafeRawPointer(newline) - base + 1
        }
        var first: [UInt32] = [], second: [UInt32] = []
        var positionA = 0, positionB = middle, stateA: UInt32 = 0, stateB: UInt32 = 0
        var countA = 0, countB = 0
        var capacity = 256
        while true {
            if first.count < capacity { first += repeatElement(0, count: capacity - first.count) }
            if second.count < capacity { second += repeatElement(0, count: capacity - second.count) }
            let done = first.withUnsafeMutableBufferPointer { a in
                second.withUnsafeMutableBufferPointer { b in
                    cscan_dfa2_line_hits(tables.classOf, tables.transitions, tables.acceptFrom, bytes,
                                         &positionA, middle, &stateA, a.baseAddress, a.count, &countA,
                                         &positionB, block.count, &stateB, b.baseAddress, b.count, &countB)
                }
            }
            if done != 0 { break }
            capacity *= 2
        }
        hits.append(contentsOf: first[0..<countA])
        hits.append(contentsOf: second[0..<countB])
    }

    /// "N keys, S states" for diagnostics.
    public var statistics: String { "\(automaton.literalCount) keys, \(automaton.stateCount) automaton states" }
}

/// Walks the lines of one block in order and tells which contain a hit from `HitScanner.scan`.
struct LineHits {
    private let base: UnsafeRawPointer
    private let offsets: [UInt32]
    private var next = 0

    init(_ hits: EntrySplitter.BlockHits) {
        base = UnsafeRawPointer(hits.block.storage.baseAddress!)
        offsets = hits.offsets
    }

    /// True when a hit lies in `line` (a slice of the block). Lines must be asked about in block order.
    @inline(__always)
    mutating func contains(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let start = line.baseAddress.map({ $0 - base }) else { return false }
        while next < offsets.count, Int(offsets[next]) < start { next += 1 }
        return next < offsets.count && Int(offsets[next]) < start + line.count
    }
}

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
