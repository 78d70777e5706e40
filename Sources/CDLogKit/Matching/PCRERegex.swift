import CDLogCore
import CPCRE2
import CScan

/// A compiled PCRE2 pattern (8-bit, UTF with `MATCH_INVALID_UTF`), JIT-compiled on its first match when
/// the platform allows: a catalog has hundreds of patterns and a run typically uses a few dozen, so
/// lazy JIT keeps start-up fast and the JIT's executable memory small.
///
/// Contract: `init` throws `PatternError` with PCRE2's message and the byte offset of the problem.
/// `firstMatch` never traps on any input bytes: invalid UTF-8 simply cannot match across the bad bytes,
/// and a match that exceeds the match/depth limits (catastrophic backtracking) is reported as no match
/// with `exceededLimit` set on the scratch space. Instances are immutable and may be shared between
/// threads; each thread needs its own `MatchScratch`.
public final class PCRERegex: @unchecked Sendable {
    /// A pattern that does not compile: PCRE2's message and the byte offset into the pattern.
    public struct PatternError: Error, Sendable {
        public let message: String
        public let offset: Int
    }

    public let pattern: String
    /// Named capture groups: name → group number.
    public let groupNames: [(name: String, number: Int)]
    /// Number of capture groups (not counting group 0).
    public let captureCount: Int
    fileprivate let code: OpaquePointer
    /// Latch for the lazy JIT compile (`pcre2_jit_compile` mutates `code`, so it must not race a match).
    private let jitOnce: OpaquePointer
    /// Set for patterns from user rule files: matched by the interpreter (no JIT: the JIT's match limit
    /// bounds steps, not time, and a `.*` step costs the whole subject) under the tighter limits of
    /// `MatchScratch.guarded…`, at most one limit hit per entry, and cut off for the rest of the run after
    /// `MatchBudget.hitsBeforeCutOff` hits.
    public let budget: MatchBudget?

    private static let compileOptions: UInt32 = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF

    /// `guardedAs`: the label (rule id and key) of a pattern from a user rule file; see `budget`.
    public init(_ pattern: String, guardedAs label: String? = nil) throws {
        self.pattern = pattern
        budget = label.map { MatchBudget(label: $0, pattern: pattern) }
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let compiled: OpaquePointer? = pattern.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: buffer.count) { bytes in
                pcre2_compile_8(bytes, buffer.count - 1, PCRERegex.compileOptions, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            throw PatternError(message: PCRERegex.errorMessage(errorCode), offset: errorOffset)
        }
        code = compiled
        jitOnce = cscan_once_create()

        var captures: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        captureCount = Int(captures)

        var nameCount: UInt32 = 0
        var entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>? = nil
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_NAMECOUNT), &nameCount)
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize)
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_NAMETABLE), &table)
        var names: [(String, Int)] = []
        if let table, nameCount > 0 {
            for index in 0..<Int(nameCount) {
                let entry = table + index * Int(entrySize)
                let number = Int(entry[0]) << 8 | Int(entry[1])
                names.append((String(cString: entry + 2), number))
            }
        }
        groupNames = names.sorted { $0.1 < $1.1 }
    }

    deinit {
        pcre2_code_free_8(code)
        cscan_once_destroy(jitOnce)
    }

    /// JIT-compiles the pattern the first time any thread matches with it. JIT is an optimisation:
    /// when it is unavailable the interpreter gives the same results.
    @inline(__always) private func prepareForMatching() {
        if budget != nil { return }
        if cscan_once_enter(jitOnce) != 0 {
            _ = pcre2_jit_compile_8(code, PCRE2_JIT_COMPLETE)
            cscan_once_leave(jitOnce)
        }
    }

    static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
        guard length > 0 else { return "PCRE2 error \(code)" }
        return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
    }

    /// Finds the first match in `subject`. Returns the ranges (byte offsets) of group 0 and of every
    /// capture group (`nil` for unset groups), or nil when there is no match.
    public func firstMatch(in subject: UnsafeRawBufferPointer, from start: Int = 0, scratch: MatchScratch) -> [Range<Int>?]? {
        guard start <= subject.count else { return nil }
        let data = scratch.matchData(forCaptures: captureCount)
        let rc = run(subject, from: start, data: data, scratch: scratch)
        if rc < 0 { return nil }
        let ovector = pcre2_get_ovector_pointer_8(data)!
        var ranges: [Range<Int>?] = []
        ranges.reserveCapacity(captureCount + 1)
        for group in 0...captureCount {
            let start = ovector[2 * group], end = ovector[2 * group + 1]
            // PCRE2_UNSET is ~(size_t)0, which reads as -1 here.
            if group >= Int(rc) || start < 0 || end < 0 || start > end || end > subject.count {
                ranges.append(nil)
            } else {
                ranges.append(start..<end)
            }
        }
        return ranges
    }

    /// True when the pattern matches anywhere in `subject`.
    public func matches(_ subject: UnsafeRawBufferPointer, scratch: MatchScratch) -> Bool {
        run(subject, from: 0, data: scratch.matchData(forCaptures: 0), scratch: scratch) >= 0
    }

    /// One `pcre2_match`; a negative result is no match (a limit hit is recorded on the scratch, and for
    /// a guarded pattern on its budget).
    @inline(__always)
    private func run(_ subject: UnsafeRawBufferPointer, from start: Int, data: OpaquePointer, scratch: MatchScratch) -> Int32 {
        let base = subject.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(scratch.emptySubject)
        guard let budget else {
            prepareForMatching()
            let rc = pcre2_match_8(code, base, subject.count, start, 0, data, scratch.matchContext)
            if rc < 0, rc != PCRE2_ERROR_NOMATCH { scratch.exceededLimit = true }
            return rc
        }
        // One limit hit per entry across all guarded patterns, and none after the pattern was cut off.
        if scratch.guardedLimitHitInEntry || budget.isCutOff { return PCRE2_ERROR_NOMATCH }
        let rc = pcre2_match_8(code, base, subject.count, start, 0, data, scratch.guardedContext)
        if rc < 0, rc != PCRE2_ERROR_NOMATCH {
            scratch.exceededLimit = true
            scratch.guardedLimitHitInEntry = true
            budget.recordLimitHit()
        }
        return rc
    }

    /// True when the pattern matches anywhere in `text` (for rare callers: the hot path passes bytes).
    public func matches(_ text: String, scratch: MatchScratch) -> Bool {
        var copy = text
        return copy.withUTF8 { matches(UnsafeRawBufferPointer($0), scratch: scratch) }
    }
}

/// The run-wide budget of one guarded pattern: after `hitsBeforeCutOff` matches that ran into PCRE2's
/// limits, the pattern is cut off (never matches again in this process), so a catastrophically
/// backtracking user pattern costs a few milliseconds in all, not minutes. Thread-safe.
public final class MatchBudget: @unchecked Sendable {
    @_spi(Testing) public static let hitsBeforeCutOff = 5
    /// "rule user.slow, patterns[0]".
    public let label: String
    public let pattern: String
    private let lock = Monitor()
    private var hits = 0
    // Read without the lock on every match: a stale `false` costs one more bounded match at most.
    private var cutOff = false

    init(label: String, pattern: String) {
        self.label = label
        self.pattern = pattern
    }

    var isCutOff: Bool { cutOff }

    /// Matches that ran into a limit so far.
    @_spi(Testing) public var limitHits: Int { lock.withLock { hits } }

    func recordLimitHit() {
        lock.withLock {
            hits += 1
            if hits >= MatchBudget.hitsBeforeCutOff { cutOff = true }
        }
    }

    /// One line for stderr, or nil when the pattern never ran into a limit.
    public var warning: String? {
        let count = limitHits
        guard count > 0 else { return nil }
        let excerpt = pattern.count > 60 ? String(pattern.prefix(57)) + "..." : pattern
        let outcome = count >= MatchBudget.hitsBeforeCutOff ? "it was cut off for the rest of the run" : "those entries count as no match"
        return "\(label): pattern '\(excerpt)' ran into PCRE2's backtracking limit on \(count) entr\(count == 1 ? "y" : "ies"); \(outcome), so its findings may be missing (rewrite it without nested or overlapping repetition)"
    }
}
