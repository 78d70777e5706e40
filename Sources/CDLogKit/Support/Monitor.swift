#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A mutex with a condition variable, for state that threads share and wait on.
///
/// Contract: `lock`/`unlock` bracket every access to the state it guards; `wait` is called with the
/// lock held, releases it while waiting and holds it again when it returns (spuriously too: wait in a
/// loop on the condition); `broadcast` wakes every waiter. Not reentrant.
final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Runs `body` with the lock held.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
