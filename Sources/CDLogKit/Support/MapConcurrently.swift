import Dispatch

/// `transform(0) … transform(count - 1)` run on every core at once (`DispatchQueue.concurrentPerform`);
/// returns the results in index order. `transform` must be safe to call from several threads at once.
func mapConcurrently<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
    guard count > 1 else { return (0..<count).map(transform) }
    let slots = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
    slots.initialize(repeating: nil)
    defer {
        slots.deinitialize()
        slots.deallocate()
    }
    // Each iteration writes its own slot only.
    nonisolated(unsafe) let results = slots
    withoutActuallyEscaping(transform) { transform in
        nonisolated(unsafe) let transform = transform
        DispatchQueue.concurrentPerform(iterations: count) { index in results[index] = transform(index) }
    }
    return slots.map { $0! }
}
