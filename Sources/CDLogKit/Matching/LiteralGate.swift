import CScan

/// A quick test before running a pattern on one subject: the literals every match of the pattern
/// contains (`RequiredLiterals`), searched for directly.
///
/// Contract: conservative — `mayMatch` is false only when none of the literals occurs, and then the
/// pattern cannot match. For patterns run once per finding rather than once per entry (fields,
/// `exclude`, built-in extractors): PCRE2's own start-of-match search tries every position where the
/// pattern's first byte may be, which on long Core Data messages costs far more than searching for the
/// literal first.
///
/// The literals are frozen bytes (`FrozenStorage`, owned by whoever made the gate): threads sharing a gate
/// read them without writing a reference count.
struct LiteralGate: @unchecked Sendable {
    /// Literal `k` is `bytes[starts[k]..<starts[k + 1]]`.
    private let starts: UnsafePointer<Int32>
    private let bytes: UnsafePointer<UInt8>
    let literalCount: Int
    /// Compared regardless of ASCII case (the literals are then lower-case).
    let caseless: Bool

    /// Nil when the pattern has no usable literal (it must always be run). The literals live in `storage`.
    init?(pattern: PCRERegex, storage: FrozenStorage) {
        guard let required = RequiredLiterals.of(pattern: pattern.pattern) else { return nil }
        // Alternatives that share a long enough piece (`retry after`, `CKRetryAfter`…) need one search.
        let literals = LiteralGate.commonPiece(of: required.alternatives).map { [$0] } ?? required.alternatives
        var starts: [Int32] = [0]
        for literal in literals { starts.append(starts.last! + Int32(literal.count)) }
        self.starts = storage.freeze(starts)
        bytes = storage.freeze(literals.flatMap { $0 })
        literalCount = literals.count
        caseless = required.caseless
    }

    /// The longest run of bytes every one of `alternatives` contains, when there are several and it is
    /// at least `RequiredLiterals.minimumLength` long.
    static func commonPiece(of alternatives: [[UInt8]]) -> [UInt8]? {
        guard alternatives.count > 1, let shortest = alternatives.min(by: { $0.count < $1.count }) else { return nil }
        var length = shortest.count
        while length >= RequiredLiterals.minimumLength {
            for start in 0...(shortest.count - length) {
                let piece = Array(shortest[start..<(start + length)])
                if alternatives.allSatisfy({ contains($0, piece) }) { return piece }
            }
            length -= 1
        }
        return nil
    }

    private static func contains(_ bytes: [UInt8], _ piece: [UInt8]) -> Bool {
        guard bytes.count >= piece.count else { return false }
        return (0...(bytes.count - piece.count)).contains { bytes[$0..<($0 + piece.count)].elementsEqual(piece) }
    }

    /// False when `subject` contains none of the literals.
    func mayMatch(_ subject: UnsafeRawBufferPointer) -> Bool {
        guard let base = subject.baseAddress else { return false }
        for k in 0..<literalCount {
            let needle = bytes + Int(starts[k]), length = Int(starts[k + 1] - starts[k])
            let found = caseless ? cscan_find_caseless(base, subject.count, needle, length) : cscan_find(base, subject.count, needle, length)
            if found >= 0 { return true }
        }
        return false
    }
}
