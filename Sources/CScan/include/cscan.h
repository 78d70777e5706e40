#ifndef CDLOG_CSCAN_H
#define CDLOG_CSCAN_H
#include <stddef.h>

/// Returns the offset of the first occurrence of `needle` in `haystack`, or -1.
/// A thin wrapper over the C library's memmem (a GNU/BSD extension Swift does not import on Linux).
long cscan_find(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len);

/// `cscan_find` regardless of ASCII case: `needle` must be lower-case (ASCII letters); a haystack byte
/// matches its lower-case form. Candidates are found sixteen positions at a time by the needle's rarest
/// pair of adjacent bytes (either case), then compared whole.
long cscan_find_caseless(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len);

/// Runs a byte-class DFA over `subject[from..<length]` starting in `*state`. States are stored
/// premultiplied (a state's value is its row offset in `transitions`), and accepting states are
/// numbered last, so a state is accepting when its value is `>= accept_from`: one dependent load
/// per byte. Stops at the first position whose new state is accepting and returns that position;
/// returns `length` when the end is reached. `*state` holds the state after the returned position.
size_t cscan_dfa_next_accept(const unsigned char *classes, const unsigned int *transitions,
                             unsigned int accept_from, const unsigned char *subject, size_t from,
                             size_t length, unsigned int *state);

/// Runs the same DFA over two ranges of `subject` at once, `[*pos_a, end_a)` and `[*pos_b, end_b)`,
/// each from its own state: the two dependent load chains overlap, so long subjects scan up to twice
/// as fast. Returns a bit mask: bit 0 when range a reached an accepting state at `*pos_a`, bit 1 when
/// range b did at `*pos_b` (both may be set); 0 when both ranges are exhausted. A range without a hit
/// has its `*pos` set to the next byte to read. Resume after handling a hit at `*pos + 1`.
int cscan_dfa2_next_accept(const unsigned char *classes, const unsigned int *transitions,
                           unsigned int accept_from, const unsigned char *subject,
                           size_t *pos_a, size_t end_a, unsigned int *state_a,
                           size_t *pos_b, size_t end_b, unsigned int *state_b);

/// Length of the longest prefix of `bytes` that a JSON string can hold unescaped: the index of the first
/// byte below 0x20, `"`, `\\` or 0x7F, or `length` when there is none. Eight bytes per step.
size_t cscan_json_plain_prefix(const unsigned char *bytes, size_t length);

/// How many bytes of `bytes[0..<length]` equal `byte` (sixteen bytes a step where SSE2 is available).
size_t cscan_count_byte(const unsigned char *bytes, size_t length, unsigned char byte);

/// Tunes glibc's malloc for a streaming tool: at most `arenas` arenas (`M_ARENA_MAX`) and a fixed
/// 128 KiB mmap threshold (`M_MMAP_THRESHOLD`, which also turns off glibc's raising of that threshold
/// once a large block is freed, after which large blocks pile up in the heap). Does nothing on other
/// C libraries. Returns 1 when the settings were applied.
int cscan_tune_malloc(int arenas);

/// A run-once latch for lazy, thread-safe initialisation (e.g. JIT-compiling a pattern on first use).
/// `cscan_once_enter` returns 1 when the caller must do the work — it then holds the latch's lock and
/// must call `cscan_once_leave` — and 0 when the work is already done (one acquire load on that path).
/// Other threads entering meanwhile wait for the work to finish. The latch is heap-allocated because a
/// mutex must not move.
typedef struct cscan_once cscan_once;
cscan_once *cscan_once_create(void);
void cscan_once_destroy(cscan_once *once);
int cscan_once_enter(cscan_once *once);
void cscan_once_leave(cscan_once *once);

/// Where `cscan_json_next_member` is in an object. Start with all fields 0 except `after_object` = -1
/// and `splitter_agrees` = 1.
typedef struct {
    size_t position;
    int started;
    /// The index after the object's closing `}` once the scan reached it; -1 while it has not (or
    /// never will: malformed or cut-off input).
    long after_object;
    /// Cleared when a bare value (number, `true`, junk) holds a quote or a bracket.
    int splitter_agrees;
} cscan_json_cursor;

/// One top-level member: the key's raw bytes and the value's range, inside the quotes for strings
/// (still escaped), the text for bare values. Nested objects and arrays are skipped, not reported.
typedef struct {
    long key_start, key_end, value_start, value_end;
    int is_string;
} cscan_json_member;

/// Reads the next top-level member of the JSON object in `bytes[0..<length]` (leading white space
/// allowed). Returns 1 and fills `member`, or 0 when there are no more: at the object's `}` (then
/// `after_object` is set) or where the input stops making sense (an unterminated string value is still
/// reported, cut at the end). Strings are skipped sixteen bytes a step; nesting is tracked with a
/// counter; never reads outside the buffer.
int cscan_json_next_member(const unsigned char *bytes, size_t length, cscan_json_cursor *cursor, cscan_json_member *member);

#endif
