#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Things that are costly to make and free, kept for reuse across threads: block storage (a fresh
/// 256 KiB allocation is an mmap whose pages all fault in) and classifier scratches (PCRE2 match data
/// and a JIT stack, whose munmap interrupts the other cores for a TLB flush).
///
/// Contract: `take` returns a kept element or makes one; `give` keeps an element while fewer than
/// `keep` are kept and otherwise hands it back (for the caller to free). Thread-safe.
final class ReusePool<Element>: @unchecked Sendable {
    private let keep: Int
    private let make: () -> Element
    private var kept: [Element] = []
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(keep: Int = .max, make: @escaping () -> Element) {
        self.keep = keep
        self.make = make
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Elements still kept (for an owner that must free them).
    func drain() -> [Element] {
        pthread_mutex_lock(mutex)
        defer { kept = []; pthread_mutex_unlock(mutex) }
        return kept
    }

    func take() -> Element {
        pthread_mutex_lock(mutex)
        let reused = kept.popLast()
        pthread_mutex_unlock(mutex)
        return reused ?? make()
    }

    /// Keeps `element`, or returns it when the pool is full.
    @discardableResult
    func give(_ element: Element) -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard kept.count < keep else { return element }
        kept.append(element)
        return nil
    }
}
