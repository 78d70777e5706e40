/// SQLite's WAL checksum (wal.c `walChecksumBytes`): two wrapping u32 accumulators over pairs of
/// 32-bit words, in big-endian word order when `bigEndianWords`, else little-endian.
///
/// Contract: processes `floor(count / 8)` word pairs; a trailing partial pair is ignored (SQLite's
/// inputs are always multiples of 8). Never traps: all arithmetic wraps.
public struct WALChecksum: Sendable, Equatable {
    public var a: UInt32
    public var b: UInt32
    public init(_ a: UInt32 = 0, _ b: UInt32 = 0) { self.a = a; self.b = b }

    public mutating func add(_ buffer: UnsafeRawBufferPointer, bigEndianWords: Bool) {
        guard let base = buffer.baseAddress else { return }
        let pairs = buffer.count / 8
        var a = self.a, b = self.b
        let swap = bigEndianWords != (UInt32(1).bigEndian == 1)
        if swap {
            for i in 0..<pairs {
                let w0 = base.loadUnaligned(fromByteOffset: i &* 8, as: UInt32.self).byteSwapped
                let w1 = base.loadUnaligned(fromByteOffset: i &* 8 &+ 4, as: UInt32.self).byteSwapped
                a = a &+ w0 &+ b
                b = b &+ w1 &+ a
            }
        } else {
            for i in 0..<pairs {
                let w0 = base.loadUnaligned(fromByteOffset: i &* 8, as: UInt32.self)
                let w1 = base.loadUnaligned(fromByteOffset: i &* 8 &+ 4, as: UInt32.self)
                a = a &+ w0 &+ b
                b = b &+ w1 &+ a
            }
        }
        self.a = a
        self.b = b
    }

    public mutating func add(_ bytes: [UInt8], bigEndianWords: Bool) {
        bytes.withUnsafeBytes { add($0, bigEndianWords: bigEndianWords) }
    }
}
