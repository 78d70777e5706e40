/// Things that are costly to make and free, kept for reuse across threads: classifier scratches (PCRE2
/// match data and a JIT stack, whose munmap interrupts the other cores for a TLB flush) and the storage
/// of a block's rendered findings (a fresh array of that size is an mmap whose pages all fault in).
///
/// Contract: `take` returns a kept element or makes one; `give` keeps an element while fewer than
/// `keep` are kept and otherwise hands it back (for the caller to free). Thread-safe.
final class ReusePool<Element>: @unchecked Sendable {
    private let keep: Int
    private let make: () -> Element
    private var kept: [Element] = []
    private let lock = Monitor()

    init(keep: Int = .max, make: @escaping () -> Element) {
        self.keep = keep
        self.make = make
    }


    func take() -> Element {
        let reused = lock.withLock { kept.popLast() }
        return reused ?? make()
    }

    /// Keeps `element`, or returns it when the pool is full.
    @discardableResult
    func give(_ element: Element) -> Element? {
        lock.withLock {
            guard kept.count < keep else { return element }
            kept.append(element)
            return nil
        }
    }
}
