import CPCRE2

/// Per-thread match state: PCRE2 match data, a match context with limits, and a JIT stack.
/// Not thread-safe; create one per thread and reuse it for every match.
public final class MatchScratch {
    /// Backtracking budget per match: generous for real patterns, small enough that a pathological
    /// pattern on a 1 MiB entry ends in milliseconds instead of hanging.
    public static let matchLimit: UInt32 = 2_000_000
    public static let depthLimit: UInt32 = 100_000

    /// Limits for guarded patterns (user rules, matched by the interpreter): about 2 ms per match on
    /// this project's machines whatever the subject's length, and at most 16 MiB of backtracking heap.
    public static let guardedMatchLimit: UInt32 = 100_000
    public static let guardedDepthLimit: UInt32 = 10_000
    public static let guardedHeapLimitKiB: UInt32 = 16 << 10

    let matchContext: OpaquePointer
    let guardedContext: OpaquePointer
    /// Set when a guarded pattern hit its limit in the current entry: the entry's other guarded
    /// patterns are skipped (the per-entry budget). `Classifier.classify` clears it per entry.
    public var guardedLimitHitInEntry = false
    private let jitStack: OpaquePointer?
    private var data: OpaquePointer
    private var dataCaptures: Int
    let emptySubject: UnsafeMutablePointer<UInt8>
    /// Set when a match hit a PCRE2 limit (reported by `rules test`); callers may reset it.
    public var exceededLimit = false

    public init() {
        matchContext = pcre2_match_context_create_8(nil)!
        pcre2_set_match_limit_8(matchContext, MatchScratch.matchLimit)
        pcre2_set_depth_limit_8(matchContext, MatchScratch.depthLimit)
        guardedContext = pcre2_match_context_create_8(nil)!
        pcre2_set_match_limit_8(guardedContext, MatchScratch.guardedMatchLimit)
        pcre2_set_depth_limit_8(guardedContext, MatchScratch.guardedDepthLimit)
        pcre2_set_heap_limit_8(guardedContext, MatchScratch.guardedHeapLimitKiB)
        jitStack = pcre2_jit_stack_create_8(32 * 1024, 1024 * 1024, nil)
        if let jitStack { pcre2_jit_stack_assign_8(matchContext, nil, UnsafeMutableRawPointer(jitStack)) }
        dataCaptures = 16
        data = pcre2_match_data_create_8(UInt32(dataCaptures + 1), nil)!
        emptySubject = .allocate(capacity: 1)
        emptySubject.initialize(to: 0)
    }

    deinit {
        pcre2_match_data_free_8(data)
        pcre2_match_context_free_8(matchContext)
        pcre2_match_context_free_8(guardedContext)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
        emptySubject.deallocate()
    }

    func matchData(forCaptures count: Int) -> OpaquePointer {
        if count > dataCaptures {
            pcre2_match_data_free_8(data)
            dataCaptures = count
            data = pcre2_match_data_create_8(UInt32(count + 1), nil)!
        }
        return data
    }
}
