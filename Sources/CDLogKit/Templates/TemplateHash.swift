/// A 64-bit hash of a masked text's bytes, the same for the same bytes on every run and machine, however
/// they are split between `keep` and `placeholder` calls (the scanner and the regex path must agree). Two
/// templates share a hash with a chance of about n²/2⁶⁵ among n templates (1 in 10¹¹ for 10 000).
///
/// The bytes are taken eight at a time (little-endian words, the last one padded with zeros): each word
/// is mixed in by xor and a multiplication, and the length and an avalanche step finish it.
public struct TemplateHash: MaskSink {
    private var state: UInt64 = 0xCBF2_9CE4_8422_2325
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length: UInt64 = 0

    public init() {}

    public init(_ text: String) {
        var text = text
        text.withUTF8 { keep($0) }
    }

    /// The hash of the bytes so far.
    public var value: UInt64 {
        var h = state
        if pendingCount > 0 { h = Self.mix(h, pending) }
        h ^= length
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }

    @inline(__always) static func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let x = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
        return x ^ (x >> 29)
    }

    @inline(__always) public mutating func add(_ byte: UInt8) {
        pending |= UInt64(byte) << UInt64(pendingCount * 8)
        pendingCount += 1
        length += 1
        if pendingCount == 8 {
            state = Self.mix(state, pending)
            pending = 0
            pendingCount = 0
        }
    }

    public mutating func keep(_ part: UnsafeBufferPointer<UInt8>) {
        guard let base = part.baseAddress else { return }
        let n = part.count
        var i = 0
        while pendingCount != 0 && i < n { add(base[i]); i += 1 }
        let raw = UnsafeRawPointer(base)
        let wordsStart = i
        while n - i >= 8 {
            state = Self.mix(state, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        length += UInt64(i - wordsStart)
        while i < n { add(base[i]); i += 1 }
    }

    public mutating func placeholder(_ kind: StaticString) {
        keep(UnsafeBufferPointer(start: kind.utf8Start, count: kind.utf8CodeUnitCount))
    }
}
