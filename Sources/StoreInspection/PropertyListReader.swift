/// A bounded reader for binary property lists (`bplist00`), as stored in Core Data's `Z_METADATA.Z_PLIST`.
///
/// Contract: returns nil for anything that is not a well-formed binary plist within the limits —
/// never traps, never loops: every offset is bounds-checked, nesting depth is capped at `maxDepth`
/// (which also stops reference cycles), and at most `maxObjects` objects are decoded in total.
public struct PropertyListReader {
    public var maxDepth = 32
    public var maxObjects = 100_000
    public var maxInputBytes = 16 << 20

    public init() {}

    public func parse(_ bytes: [UInt8]) -> PlistValue? {
        guard bytes.count >= 40, bytes.count <= maxInputBytes,
              Array(bytes.prefix(8)) == Array("bplist00".utf8) else { return nil }
        let t = bytes.count - 32
        let offsetSize = Int(bytes[t + 6]), refSize = Int(bytes[t + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else { return nil }
        guard let count = uint(bytes, t + 8, 8), let top = uint(bytes, t + 16, 8),
              let tableOffset = uint(bytes, t + 24, 8) else { return nil }
        guard count > 0, count <= UInt64(maxObjects), top < count, tableOffset >= 8,
              tableOffset < UInt64(t) else { return nil }
        let (tableBytes, o1) = count.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard !o1, tableOffset + tableBytes <= UInt64(t) else { return nil }
        var state = State(bytes: bytes, offsetSize: offsetSize, refSize: refSize, count: Int(count),
                          tableOffset: Int(tableOffset), budget: maxObjects, maxDepth: maxDepth)
        return state.object(Int(top), depth: 0)
    }

    fileprivate func uint(_ b: [UInt8], _ at: Int, _ n: Int) -> UInt64? { readUInt(b, at, n) }

    private struct State {
        let bytes: [UInt8]
        let offsetSize: Int, refSize: Int, count: Int, tableOffset: Int
        var budget: Int
        let maxDepth: Int

        mutating func object(_ ref: Int, depth: Int) -> PlistValue? {
            guard ref >= 0, ref < count, depth <= maxDepth, budget > 0 else { return nil }
            budget -= 1
            guard let off64 = readUInt(bytes, tableOffset + ref * offsetSize, offsetSize),
                  off64 >= 8, off64 < UInt64(tableOffset) else { return nil }
            let off = Int(off64)
            let marker = bytes[off]
            let high = marker >> 4, low = Int(marker & 0x0F)
            switch high {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: return nil
                }
            case 0x1:
                let n = 1 << low
                guard low <= 4, let v = readUInt(bytes, off + 1, min(n, 8)) else { return nil }
                return .int(Int64(bitPattern: v))
            case 0x2:
                if low == 2, let v = readUInt(bytes, off + 1, 4) { return .real(Double(Float(bitPattern: UInt32(v)))) }
                if low == 3, let v = readUInt(bytes, off + 1, 8) { return .real(Double(bitPattern: v)) }
                return nil
            case 0x3:
                guard marker == 0x33, let v = readUInt(bytes, off + 1, 8) else { return nil }
                return .date(Double(bitPattern: v))
            case 0x4, 0x5, 0x6, 0xA, 0xD:
                guard let (length, start) = lengthAndStart(off, low) else { return nil }
                switch high {
                case 0x4:
                    guard let end = end(start, length, 1) else { return nil }
                    return .data(Array(bytes[start..<end]))
                case 0x5:
                    guard let end = end(start, length, 1) else { return nil }
                    return .string(String(decoding: bytes[start..<end], as: UTF8.self))
                case 0x6:
                    guard let end = end(start, length, 2) else { return nil }
                    var units: [UInt16] = []
                    units.reserveCapacity(length)
                    var i = start
                    while i + 1 < end { units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])); i += 2 }
                    return .string(String(decoding: units, as: UTF16.self))
                case 0xA:
                    guard let _ = end(start, length, refSize), length <= budget else { return nil }
                    var items: [PlistValue] = []
                    for i in 0..<length {
                        guard let r = readUInt(bytes, start + i * refSize, refSize), r < UInt64(count),
                              let v = object(Int(r), depth: depth + 1) else { return nil }
                        items.append(v)
                    }
                    return .array(items)
                default: // 0xD dictionary
                    guard let _ = end(start, length, 2 * refSize), 2 * length <= budget else { return nil }
                    var pairs: [(String, PlistValue)] = []
                    for i in 0..<length {
                        guard let kr = readUInt(bytes, start + i * refSize, refSize),
                              let vr = readUInt(bytes, start + (length + i) * refSize, refSize),
                              kr < UInt64(count), vr < UInt64(count),
                              case .string(let key)? = object(Int(kr), depth: depth + 1),
                              let value = object(Int(vr), depth: depth + 1) else { return nil }
                        pairs.append((key, value))
                    }
                    return .dictionary(pairs)
                }
            case 0x8:
                guard let v = readUInt(bytes, off + 1, low + 1) else { return nil }
                return .uid(v)
            default:
                return nil
            }
        }

        /// The element count and where the elements start (after an optional extended count).
        func lengthAndStart(_ off: Int, _ low: Int) -> (Int, Int)? {
            if low != 0xF { return (low, off + 1) }
            guard off + 1 < bytes.count else { return nil }
            let intMarker = bytes[off + 1]
            guard intMarker >> 4 == 0x1 else { return nil }
            let n = 1 << Int(intMarker & 0x0F)
            guard n <= 8, let v = readUInt(bytes, off + 2, n), v <= UInt64(Int32.max) else { return nil }
            return (Int(v), off + 2 + n)
        }

        /// `start + length * unit` when it stays within the object area.
        func end(_ start: Int, _ length: Int, _ unit: Int) -> Int? {
            let (size, o) = length.multipliedReportingOverflow(by: unit)
            guard !o, start >= 0, start <= tableOffset, size <= tableOffset - start else { return nil }
            return start + size
        }
    }
}

/// Big-endian unsigned integer of `n` (1…8) bytes at `at`, nil when out of range.
private func readUInt(_ b: [UInt8], _ at: Int, _ n: Int) -> UInt64? {
    guard n >= 1, n <= 8, at >= 0, at <= b.count - n else { return nil }
    var v: UInt64 = 0
    for i in 0..<n { v = v << 8 | UInt64(b[at + i]) }
    return v
}
