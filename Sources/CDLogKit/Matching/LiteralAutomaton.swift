import CScan

/// A multi-literal searcher (Aho–Corasick compiled to a DFA) that finds, in one pass over an entry,
/// which of the prefilter's literals it contains.
///
/// Contract: `scan` reports every literal that occurs in the subject, each at least once; literals
/// marked caseless match regardless of ASCII case, the others exactly. One table lookup per byte,
/// no allocation per scan. Immutable after `init`; safe to share between threads.
///
/// The automaton is built over each literal's first `keyLength` bytes (case-folded) only; a key hit
/// is confirmed by comparing the whole literal at that position. Prefilter literals are long (error
/// messages), so this keeps the table several times smaller at the cost of a rare short compare.
public final class LiteralAutomaton: Sendable {
    /// The automaton's tables as plain pointers: what the scan loop reads. Copying `Tables` costs no
    /// reference counting, so threads sharing one automaton never write to a shared cache line (with
    /// Swift arrays, every scan retained and released the same buffers from every thread: 40 % of a
    /// two-thread run went to that contention).
    public struct Tables: @unchecked Sendable {
        let classOf: UnsafePointer<UInt8>          // byte → equivalence class (ASCII case folded)
        let classCount: Int
        /// Premultiplied: entry `row + class` holds the next state's row offset (state × classCount).
        let transitions: UnsafePointer<UInt32>
        /// Rows at or beyond this offset belong to accepting states (they are numbered last).
        let acceptFrom: UInt32
        let outputStart: UnsafePointer<Int32>      // per state number: range into `outputs`
        let outputs: UnsafePointer<Int32>          // key ids ending at a state (failure chain included)
        let keyLiteralStart: UnsafePointer<Int32>  // per key id: range into `keyLiterals`
        let keyLiterals: UnsafePointer<Int32>      // literal ids sharing a key
        let keyLengths: UnsafePointer<Int32>       // per key id: its length in bytes
        let keyCount: Int
        let longestKey: Int
        let literalStart: UnsafePointer<Int32>     // per literal id: range into `literalBytes`
        let literalBytes: UnsafePointer<UInt8>
        let caseless: UnsafePointer<Bool>
    }

    public let tables: Tables
    private let storage: FrozenStorage
    public let literalCount: Int
    public let stateCount: Int
    public var byteClassCount: Int { tables.classCount }

    /// Bytes of each literal the automaton itself is built on.
    public static let defaultKeyLength = 12

    /// Builds the automaton; literal ids are their indices in `literals`. Empty literals are ignored.
    public init(literals: [(bytes: [UInt8], caseless: Bool)], keyLength: Int = LiteralAutomaton.defaultKeyLength) {
        // Keys: each literal's case-folded first `keyLength` bytes; literals with the same key share it.
        var keyIndex: [[UInt8]: Int] = [:]
        var keys: [[UInt8]] = []
        var literalsOfKey: [[Int32]] = []
        for (id, literal) in literals.enumerated() where !literal.bytes.isEmpty {
            let key = literal.bytes.prefix(max(1, keyLength)).map(RequiredLiterals.asciiLowercased)
            if let existing = keyIndex[key] {
                literalsOfKey[existing].append(Int32(id))
            } else {
                keyIndex[key] = keys.count
                keys.append(key)
                literalsOfKey.append([Int32(id)])
            }
        }
        // Byte classes: every byte that occurs (case-folded) in some key gets its own class; all
        // others share class 0. With more distinct bytes than classes, every byte is its own class.
        var usedBytes = Set<UInt8>()
        for key in keys { usedBytes.formUnion(key) }
        var classOf = [UInt8](repeating: 0, count: 256)
        let classCount: Int
        if usedBytes.count < 255 {
            var next: UInt8 = 1
            for key in keys {
                for folded in key where classOf[Int(folded)] == 0 {
                    classOf[Int(folded)] = next
                    next += 1
                }
            }
            classCount = Int(next)
        } else {
            for byte in 0...255 { classOf[byte] = UInt8(byte) }
            classCount = 256
        }
        for upper in UInt8(ascii: "A")...UInt8(ascii: "Z") { classOf[Int(upper)] = classOf[Int(upper | 0x20)] }

        // Trie over folded bytes, in one flat table (state * classCount + class; -1 = no edge) so that
        // building a catalog-sized automaton does not allocate one array per state.
        var goto = [Int32](repeating: -1, count: classCount)
        var stateCount = 1
        var stateOutputs: [[Int32]] = [[]]
        for (id, key) in keys.enumerated() {
            var state = 0
            for b in key {
                let c = Int(classOf[Int(b)])
                if goto[state * classCount + c] < 0 {
                    goto[state * classCount + c] = Int32(stateCount)
                    goto.append(contentsOf: repeatElement(-1, count: classCount))
                    stateOutputs.append([])
                    stateCount += 1
                }
                state = Int(goto[state * classCount + c])
            }
            stateOutputs[state].append(Int32(id))
        }
        // Breadth-first failure links, resolved into a full DFA.
        var fail = [Int](repeating: 0, count: stateCount)
        var queue: [Int] = []
        queue.reserveCapacity(stateCount)
        for c in 0..<classCount {
            if goto[c] < 0 { goto[c] = 0 } else { fail[Int(goto[c])] = 0; queue.append(Int(goto[c])) }
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            if !stateOutputs[fail[state]].isEmpty { stateOutputs[state].append(contentsOf: stateOutputs[fail[state]]) }
            for c in 0..<classCount {
                let target = Int(goto[state * classCount + c])
                if target < 0 {
                    goto[state * classCount + c] = goto[fail[state] * classCount + c]
                } else {
                    fail[target] = Int(goto[fail[state] * classCount + c])
                    queue.append(target)
                }
            }
        }
        // Renumber: non-accepting states first (the root keeps 0), accepting ones last, each group in
        // breadth-first order, so the shallow states that ordinary text keeps revisiting share cache lines.
        let isAccepting = stateOutputs.map { !$0.isEmpty }
        let breadthFirst = [0] + queue
        var order = breadthFirst.filter { !isAccepting[$0] }
        let firstAccepting = order.count
        order += breadthFirst.filter { isAccepting[$0] }
        var newNumber = [Int](repeating: 0, count: stateCount)
        for (number, old) in order.enumerated() { newNumber[old] = number }
        precondition(stateCount * classCount < Int(UInt32.max), "too many prefilter states")
        var transitions = [UInt32]()
        transitions.reserveCapacity(stateCount * classCount)
        var outputStart: [Int32] = [0]
        var outputs: [Int32] = []
        for old in order {
            for c in 0..<classCount { transitions.append(UInt32(newNumber[Int(goto[old * classCount + c])] * classCount)) }
            outputs.append(contentsOf: Set(stateOutputs[old]).sorted())
            outputStart.append(Int32(outputs.count))
        }
        goto = []
        var keyLiteralStart: [Int32] = [0]
        for group in literalsOfKey { keyLiteralStart.append(keyLiteralStart.last! + Int32(group.count)) }
        var literalStart: [Int32] = [0]
        for literal in literals { literalStart.append(literalStart.last! + Int32(literal.bytes.count)) }
        let storage = FrozenStorage()
        tables = Tables(classOf: storage.freeze(classOf), classCount: classCount, transitions: storage.freeze(transitions),
                        acceptFrom: UInt32(firstAccepting * classCount), outputStart: storage.freeze(outputStart),
                        outputs: storage.freeze(outputs), keyLiteralStart: storage.freeze(keyLiteralStart),
                        keyLiterals: storage.freeze(literalsOfKey.flatMap { $0 }), keyLengths: storage.freeze(keys.map { Int32($0.count) }),
                        keyCount: keys.count, longestKey: keys.map(\.count).max() ?? 0,
                        literalStart: storage.freeze(literalStart), literalBytes: storage.freeze(literals.flatMap(\.bytes)),
                        caseless: storage.freeze(literals.map(\.caseless)))
        self.storage = storage
        self.literalCount = literals.count
        self.stateCount = stateCount
    }

    /// Calls `found(id)` for each literal occurrence in `subject` (ids may repeat).
    public func scan(_ subject: UnsafeRawBufferPointer, _ found: (Int) -> Void) {
        tables.scan(subject, found)
    }

    /// Subjects at least this long are scanned as two interleaved halves.
    static let twoWayScanMinimum = 64
}

extension LiteralAutomaton.Tables {
    /// Calls `found(id)` for each literal occurrence in `subject` (ids may repeat).
    @inline(__always)
    public func scan(_ subject: UnsafeRawBufferPointer, _ found: (Int) -> Void) {
        guard !subject.isEmpty, keyCount > 0 else { return }
        // The byte loop runs in C (one dependent table load per byte); hits come back here. A subject of
        // some length is scanned as two halves at once (see `cscan_dfa2_next_accept`); the first half
        // runs `longestKey - 1` bytes into the second so a key across the middle is still found whole.
        let bytes = subject.bindMemory(to: UInt8.self)
        let base = bytes.baseAddress!
        let count = bytes.count
        func report(endingAt index: Int, state: UInt32) {
            let number = Int(state) / classCount
            for k in Int(outputStart[number])..<Int(outputStart[number + 1]) {
                let key = Int(outputs[k])
                let keyLength = Int(keyLengths[key])
                for j in Int(keyLiteralStart[key])..<Int(keyLiteralStart[key + 1]) {
                    let id = Int(keyLiterals[j])
                    if matches(id, at: index - keyLength + 1, keyLength: keyLength, in: bytes) { found(id) }
                }
            }
        }
        if count >= LiteralAutomaton.twoWayScanMinimum {
            let middle = count / 2
            var positionA = 0, positionB = middle
            let endA = min(count, middle + longestKey - 1)
            var stateA: UInt32 = 0, stateB: UInt32 = 0
            while true {
                let hits = cscan_dfa2_next_accept(classOf, transitions, acceptFrom, base,
                                                  &positionA, endA, &stateA, &positionB, count, &stateB)
                if hits == 0 { break }
                if hits & 1 != 0 { report(endingAt: positionA, state: stateA); positionA += 1 }
                if hits & 2 != 0 { report(endingAt: positionB, state: stateB); positionB += 1 }
            }
            return
        }
        var state: UInt32 = 0
        var index = 0
        while index < count {
            index = cscan_dfa_next_accept(classOf, transitions, acceptFrom, base, index, count, &state)
            guard index < count else { break }
            report(endingAt: index, state: state)
            index += 1
        }
    }

    /// Whether literal `id` occurs at `start`, where its key (its first `keyLength` bytes, compared
    /// caselessly) is already known to occur.
    @inline(__always)
    private func matches(_ id: Int, at start: Int, keyLength: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let literal = literalBytes + Int(literalStart[id])
        let length = Int(literalStart[id + 1] - literalStart[id])
        guard start >= 0, start + length <= bytes.count else { return false }
        let text = bytes.baseAddress! + start
        if caseless[id] {
            // The key (first `keyLength` bytes) already matched caselessly; compare the rest.
            var offset = keyLength
            while offset < length {
                if RequiredLiterals.asciiLowercased(text[offset]) != RequiredLiterals.asciiLowercased(literal[offset]) { return false }
                offset &+= 1
            }
            return true
        }
        // memcmp: a byte loop here was the hottest part of the classifier on Core Data entries.
        return memcmp(text, literal, length) == 0
    }
}

/// Immutable copies of arrays in memory of their own, freed with this object: read through plain
/// pointers, they cost no reference counting (see `LiteralAutomaton.Tables`). Trivial element types only.
final class FrozenStorage: @unchecked Sendable {
    private var allocations: [UnsafeMutableRawPointer] = []

    /// Tables start and end on cache-line boundaries (128 bytes: adjacent-line prefetch pairs lines), so
    /// no object that threads write to (a reference count, allocator state) shares a line with them:
    /// such a write would take the line from every other core reading the table.
    static let isolation = 128

    func freeze<T: BitwiseCopyable>(_ array: [T]) -> UnsafePointer<T> {
        let bytes = max(1, array.count) * MemoryLayout<T>.stride
        let rounded = (bytes + FrozenStorage.isolation - 1) / FrozenStorage.isolation * FrozenStorage.isolation
        let raw = UnsafeMutableRawPointer.allocate(byteCount: rounded, alignment: FrozenStorage.isolation)
        let pointer = raw.bindMemory(to: T.self, capacity: max(1, array.count))
        array.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { pointer.initialize(from: base, count: source.count) }
        }
        allocations.append(raw)
        return UnsafePointer(pointer)
    }

    deinit { for allocation in allocations { allocation.deallocate() } }

    /// `bytes` frozen, with their count.
    func freeze(bytes: [UInt8]) -> FrozenBytes {
        FrozenBytes(buffer: UnsafeBufferPointer(start: freeze(bytes), count: bytes.count))
    }
}

/// Immutable bytes in a `FrozenStorage`, valid while it lives; read without reference counting.
struct FrozenBytes: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>
}

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
