/// Bounds-checked big/little-endian reads from a byte array. Out-of-range reads return 0 and never trap;
/// callers check lengths first and treat a short buffer as "could not read".
struct Bytes {
    let data: [UInt8]
    init(_ data: [UInt8]) { self.data = data }
    var count: Int { data.count }

    func u8(_ offset: Int) -> UInt8 { offset >= 0 && offset < data.count ? data[offset] : 0 }
    func be16(_ o: Int) -> UInt16 { UInt16(u8(o)) << 8 | UInt16(u8(o + 1)) }
    func le16(_ o: Int) -> UInt16 { UInt16(u8(o + 1)) << 8 | UInt16(u8(o)) }
    func be32(_ o: Int) -> UInt32 {
        UInt32(u8(o)) << 24 | UInt32(u8(o + 1)) << 16 | UInt32(u8(o + 2)) << 8 | UInt32(u8(o + 3))
    }
    func le32(_ o: Int) -> UInt32 {
        UInt32(u8(o + 3)) << 24 | UInt32(u8(o + 2)) << 16 | UInt32(u8(o + 1)) << 8 | UInt32(u8(o))
    }
    func slice(_ o: Int, _ n: Int) -> [UInt8] {
        guard o >= 0, n >= 0, o <= data.count else { return [] }
        return Array(data[o..<min(data.count, o + n)])
    }
}

/// Big-endian u32 from a raw buffer at `offset`; 0 when out of range (never traps).
@inline(__always)
func be32(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
    guard offset >= 0, offset + 4 <= buffer.count else { return 0 }
    return UInt32(buffer[offset]) << 24 | UInt32(buffer[offset + 1]) << 16
        | UInt32(buffer[offset + 2]) << 8 | UInt32(buffer[offset + 3])
}
