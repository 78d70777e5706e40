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
public struct LiteralAutomaton: Sendable {
    private let classOf: [UInt8]          // byte → equivalence class (ASCII case folded)
    private let classCount: Int
    /// Premultiplied: entry `row + class` holds the next state's row offset (state × classCount).
    private let transitions: [UInt32]
    /// Rows at or beyond this offset belong to accepting states (they are numbered last).
    private let acceptFrom: UInt32
    private let outputStart: [Int32]      // per state number: range into `outputs`
    private let outputs: [Int32]          // key ids ending at a state (failure chain included)
    private let keyLiteralStart: [Int32]  // per key id: range into `keyLiterals`
    private let keyLiterals: [Int32]      // literal ids sharing a key
    private let keyLengths: [Int32]       // per key id: its length in bytes
    private let longestKey: Int
    private let states: Int
    private let literals: [[UInt8]]
    private let caseless: [Bool]

    public var literalCount: Int { literals.count }
    public var stateCount: Int { states }
    public var byteClassCount: Int { classCount }

    /// Bytes of each literal the automaton itself is built on.
    public static let defaultKeyLength = 12

    /// Builds the automaton; literal ids are their indices in `literals`. Empty literals are ignored.
    public init(literals: [(bytes: [UInt8], caseless: Bool)], keyLength: Int = LiteralAutomaton.defaultKeyLength) {
        self.literals = literals.map(\.bytes)
        self.caseless = literals.map(\.caseless)
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
        // Renumber: non-accepting states first (the root keeps 0), accepting ones last.
        let isAccepting = stateOutputs.map { !$0.isEmpty }
        var order = (0..<stateCount).filter { !isAccepting[$0] }
        let firstAccepting = order.count
        order += (0..<stateCount).filter { isAccepting[$0] }
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
        self.acceptFrom = UInt32(firstAccepting * classCount)
        self.states = stateCount
        self.classOf = classOf
        self.classCount = classCount
        self.transitions = transitions
        self.outputStart = outputStart
        self.outputs = outputs
        var keyLiteralStart: [Int32] = [0]
        for group in literalsOfKey { keyLiteralStart.append(keyLiteralStart.last! + Int32(group.count)) }
        self.keyLiteralStart = keyLiteralStart
        self.keyLiterals = literalsOfKey.flatMap { $0 }
        self.keyLengths = keys.map { Int32($0.count) }
        self.longestKey = keys.map(\.count).max() ?? 0
    }

    /// Calls `found(id)` for each literal occurrence in `subject` (ids may repeat).
    @inline(__always)
    public func scan(_ subject: UnsafeRawBufferPointer, _ found: (Int) -> Void) {
        guard !subject.isEmpty, !keyLengths.isEmpty else { return }
        // The byte loop runs in C (one dependent table load per byte); hits come back here. A subject of
        // some length is scanned as two halves at once (see `cscan_dfa2_next_accept`); the first half
        // runs `longestKey - 1` bytes into the second so a key across the middle is still found whole.
        classOf.withUnsafeBufferPointer { classOf in
            transitions.withUnsafeBufferPointer { transitions in
                let bytes = subject.bindMemory(to: UInt8.self)
                let count = bytes.count
                func report(endingAt index: Int, state: UInt32) {
                    let number = Int(state) / classCount
                    for k in Int(outputStart[number])..<Int(outputStart[number + 1]) {
                        let key = Int(outputs[k])
                        let literalStart = index - Int(keyLengths[key]) + 1
                        for j in Int(keyLiteralStart[key])..<Int(keyLiteralStart[key + 1]) {
                            let id = Int(keyLiterals[j])
                            if matches(id, at: literalStart, keyLength: Int(keyLengths[key]), in: bytes) { found(id) }
                        }
                    }
                }
                if count >= LiteralAutomaton.twoWayScanMinimum {
                    let middle = count / 2
                    var positionA = 0, positionB = middle
                    let endA = min(count, middle + longestKey - 1)
                    var stateA: UInt32 = 0, stateB: UInt32 = 0
                    while true {
                        let hits = cscan_dfa2_next_accept(classOf.baseAddress!, transitions.baseAddress!, acceptFrom, bytes.baseAddress!,
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
                    index = cscan_dfa_next_accept(classOf.baseAddress!, transitions.baseAddress!, acceptFrom,
                                                  bytes.baseAddress!, index, count, &state)
                    guard index < count else { break }
                    report(endingAt: index, state: state)
                    index += 1
                }
            }
        }
    }

    /// Subjects at least this long are scanned as two interleaved halves.
    static let twoWayScanMinimum = 64

    /// Whether literal `id` occurs at `start`, where its key (its first `keyLength` bytes, compared
    /// caselessly) is already known to occur.
    private func matches(_ id: Int, at start: Int, keyLength: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let literal = literals[id]
        guard start >= 0, start + literal.count <= bytes.count else { return false }
        if caseless[id] {
            for offset in keyLength..<literal.count
            where RequiredLiterals.asciiLowercased(bytes[start + offset]) != RequiredLiterals.asciiLowercased(literal[offset]) {
                return false
            }
        } else {
            for offset in 0..<literal.count where bytes[start + offset] != literal[offset] { return false }
        }
        return true
    }
}
