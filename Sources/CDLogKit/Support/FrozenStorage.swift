/// Immutable copies of arrays in memory of their own, freed with this object: read through plain
/// pointers, they cost no reference counting (see `LiteralScanner.Tables`). Trivial element types only.
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
