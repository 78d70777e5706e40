/// Immutable bytes in a `FrozenStorage`, valid while it lives; read without reference counting.
struct FrozenBytes: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>
}
