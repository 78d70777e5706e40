/// A growable byte buffer for scratch that is filled and emptied for every entry (`RawEntry`).
///
/// Contract: holds the bytes appended since the last `removeAll`, in order; grows as needed (callers
/// cap what they append). Not thread-safe; one owner. An append is a capacity test and a `memcpy`
/// (no uniqueness check, no generic `replaceSubrange` per reset, as a Swift array would need).
public final class ByteStore {
    // One owner by contract, so no run-time exclusivity checks (class properties get them otherwise,
    // two runtime calls per access).
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) public private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    public init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// The bytes; valid until the next change.
    @inline(__always) public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    public var isEmpty: Bool { count == 0 }

    public subscript(range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    @inline(__always) public func removeAll() { count = 0 }

    @inline(__always) public func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always) public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if capacity - count < bytes.count { grow(toHold: count + bytes.count) }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    public func append(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes)))
    }

    public func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    private func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        grown.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
