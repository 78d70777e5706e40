#ifndef CDLOG_CSCAN_H
#define CDLOG_CSCAN_H
#include <stddef.h>

/// How common a byte is in console-log text, 20 (rare) to 255 (very common): space, digits and lower-case
/// letters (by English frequency) most, then the punctuation of timestamps, paths and key=value pairs,
/// upper-case letters (they start identifiers such as `NSPersistent…`), non-ASCII bytes, other
/// punctuation, control bytes. The one table for the literal scanner's anchors and the caseless search.
int cscan_byte_rank(unsigned char b);

/// Returns the offset of the first occurrence of `needle` in `haystack`, or -1.
/// A thin wrapper over the C library's memmem (a GNU/BSD extension Swift does not import on Linux).
long cscan_find(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len);

/// `cscan_find` regardless of ASCII case: `needle` must be lower-case (ASCII letters); a haystack byte
/// matches its lower-case form. Candidates are found sixteen positions at a time by the needle's rarest
/// pair of adjacent bytes (either case), then compared whole.
long cscan_find_caseless(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len);

#include <stdint.h>

/// Bytes in the window every anchored literal is found by.
#define CSCAN_WINDOW_BYTES 4

/// The scan looks at every second window start only (offsets 0, 2, 4, … of the subject), so a literal
/// needs an anchor of each parity: one of five bytes or more is anchored on two adjacent windows of its
/// own; a shorter one also on the windows that begin one byte before it (offset -1, any byte there) and,
/// for three bytes, that run one byte past it (any byte, or a zero past the subject's end: the last
/// window starts read zeros beyond the subject). Literals of one or two bytes are searched for alone.
/// (The scan loop is written for this stride: two windows from each 8-byte load.)
#define CSCAN_WINDOW_STRIDE 2

/// Bits of the filter's hash: a 64 KiB table, so about 1 % of random windows share a hash value with
/// one of a catalog's ~800 anchors.
#define CSCAN_WINDOW_HASH_BITS 16

/// The filter's hash of a window: its four bytes as a native-endian 32-bit load, every byte OR-ed with
/// 0x20 (a lossy case fold: it maps 'A' to 'a', and also some punctuation and control bytes onto others,
/// which only lets more positions through), times a constant, top `CSCAN_WINDOW_HASH_BITS` bits.
static inline uint32_t cscan_folded_window_hash(uint32_t folded_window);
static inline uint32_t cscan_window_hash(uint32_t window) {
    return cscan_folded_window_hash(window | 0x20202020u);
}

/// `cscan_window_hash` of a window whose bytes are already OR-ed with 0x20 (the scan folds eight bytes
/// at a time).
static inline uint32_t cscan_folded_window_hash(uint32_t folded_window) {
    return (folded_window * 0x9E3779B1u) >> (32 - CSCAN_WINDOW_HASH_BITS);
}

/// One literal as found by one of its anchor windows: `offset` is where the window starts relative to
/// the literal's start (-1: one byte before it).
/// `head` holds the literal's first bytes (up to eight, lower-cased where caseless) as a native-endian
/// load of them would; a subject's eight bytes `w` at the literal's start agree when
/// `((w | head_fold) & head_mask) == head` (`head_fold` has 0x20 on a caseless literal's letters).
typedef struct {
    int32_t literal;
    int32_t offset;
    uint64_t head;
    uint64_t head_fold;
    uint64_t head_mask;
} cscan_anchor;

/// What `cscan_window_scan` reads; built once, then read-only (threads may share it).
typedef struct {
    const unsigned char *filter;         /* per hash value (1 << CSCAN_WINDOW_HASH_BITS): 1 when some anchor has it */
    const uint32_t *bucket_start;        /* per hash value h: its anchors are [bucket_start[h], bucket_start[h + 1]) */
    const cscan_anchor *anchors;
    const uint32_t *literal_start;       /* per literal id: its bytes are literal_bytes[literal_start[id] ..< literal_start[id + 1]] */
    const unsigned char *literal_bytes;  /* caseless literals lower-cased */
    const unsigned char *caseless;       /* per literal id: 1 when ASCII case is ignored */
} cscan_window_tables;

/// Finds the literals (of at least `CSCAN_WINDOW_BYTES - 1` bytes) that occur in `subject[0..<length]`,
/// looking at the window starts `*position`, `*position + CSCAN_WINDOW_STRIDE`, … (start at 0). Writes
/// the id of each occurrence found to `found` (an id repeats when the literal occurs again) and returns
/// how many it wrote. It stops early, before
/// a position whose anchors might not fit in what is left of `capacity`, and then `*position` is where
/// to resume; otherwise `*position` becomes `length`. `capacity` must be at least the largest bucket's
/// anchor count, so that every call makes progress. Reads only `subject[0..<readable]` (`readable` below
/// `length` counts as `length`): a caller whose subject is followed by more bytes of its buffer says so,
/// and the last window starts are then looked at in whole steps (with seventeen bytes to spare) instead
/// of one by one. What is found never depends on `readable`.
size_t cscan_window_scan(const cscan_window_tables *tables, const unsigned char *subject, size_t length, size_t readable,
                         size_t *position, int32_t *found, size_t capacity);

/// Length of the longest prefix of `bytes` that a JSON string can hold unescaped: the index of the first
/// byte below 0x20, `"`, `\\` or 0x7F, or `length` when there is none. Eight bytes per step.
size_t cscan_json_plain_prefix(const unsigned char *bytes, size_t length);

/// How many of the `length` bytes at `bytes` equal `byte` (thirty-two a step where SSE2 is available).
size_t cscan_count_byte(const void *bytes, size_t length, unsigned char byte);

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

/// Spans in a line header (`LineHeader`): timestamp, process, pid, thread, subsystem, category, level.
#define CSCAN_HEADER_SPANS 7

/// `YYYY-MM-DD HH:MM:SS` (`T` accepted at 10) at `start`, with optional `.fraction` and optional `±HHMM`,
/// `±HH:MM` or `Z`: returns the index after it, or -1. The fixed part is tested eight bytes at a time, so
/// continuation lines fail at the first word. Reads only `p[0..<n]`.
long cscan_timestamp(const unsigned char *p, size_t n, size_t start);

/// `Process[pid]` or `Process[pid:tid]` (tid decimal or hex, optional `0x`) at `start`, its `[` within
/// `limit` bytes; the process name may hold spaces and parentheses (`App(CoreData)[12]`). Returns the
/// index after the `]` and writes the process, pid and tid ranges (lower, upper; tid -1, 0 when absent)
/// to `ranges`, or returns -1.
long cscan_process_with_pid(const unsigned char *p, size_t n, size_t start, size_t limit, int32_t ranges[6]);

/// The Xcode console / NSLog prefix `2021-08-10 15:27:55.123456+0800 App[1234:567890] `, with an optional
/// `[category]` or `[subsystem:category]` after it (no blank inside, closed within 120 bytes): returns
/// where the message starts, or -1 for a line without the prefix (a continuation line). Writes the
/// `CSCAN_HEADER_SPANS` spans as (lower, upper) pairs, (-1, 0) for an absent one. Lines are cut at
/// `INT32_MAX` bytes, so every index fits a span.
/// The usual prefix (`YYYY-MM-DD HH:MM:SS.ffffff±HHMM Name[pid:tid]`, a short name, decimal ids) is
/// tested on a fast path, 32 bytes of timestamp in two SIMD steps; any other line takes the general one.
long cscan_nslog_header(const unsigned char *p, size_t n, int32_t spans[CSCAN_HEADER_SPANS * 2]);

/// The prefilter's rule index (`Prefilter.Tables`) as C reads it, to tell whether a message's literals
/// admit some rule: one of the literals of one of its patterns occurs, and for each of its `require`
/// clauses one of that clause's literals. Built once, then read-only (threads may share it).
typedef struct {
    const cscan_window_tables *window;
    size_t literal_count;
    const int32_t *literal_rule_start;   /* per literal id: its rules are literal_rules[literal_rule_start[id] ..< [id + 1]] */
    const int32_t *literal_rules;
    const unsigned char *literal_admits_alone;  /* per literal id: 1 when one of its rules has no clause */
    const int32_t *rule_clause_start;    /* per rule: its clauses are rule_clause_start[r] ..< [r + 1] */
    const int32_t *clause_literal_start; /* per clause: its literals are clause_literal_ids[clause_literal_start[c] ..< [c + 1]] */
    const int32_t *clause_literal_ids;
    /* Short `require` literals that no pattern needs are not scanned but searched for when a clause
       needs them: per literal id, 1 for those, whose bytes (lower-cased when caseless) are
       on_demand_bytes[on_demand_start[id] ..< [id + 1]]. */
    const unsigned char *on_demand;
    const uint32_t *on_demand_start;
    const unsigned char *on_demand_bytes;
    const unsigned char *caseless;        /* per literal id: 1 when ASCII case is ignored */
} cscan_rule_gate;

/// Whether every `require` clause of rule `rule` has one of its literals in `subject[0..<length]`: one
/// marked found (`seen[id] == generation`, per literal id), or, for a literal searched on demand, found
/// now by a search. The prefilter's check of a candidate rule, and the quiet walk's.
int cscan_rule_clauses_hold(const cscan_rule_gate *gate, const uint32_t *seen, uint32_t generation, int32_t rule,
                            const unsigned char *subject, size_t length);

/// One thread's marks of the literals found in the message being gated (`cscan_gate_admits`).
typedef struct cscan_gate_marks cscan_gate_marks;
/// Marks for a gate of `literal_count` literals; aborts when out of memory.
cscan_gate_marks *cscan_gate_marks_create(size_t literal_count);
void cscan_gate_marks_destroy(cscan_gate_marks *marks);

/// Whether some rule of `gate` may match `subject[0..<length]`, judged by its literals: 1 at the first
/// literal of a rule without clauses; otherwise, once the whole subject is scanned, 1 when some rule of
/// a literal found has every clause held, else 0. Every scanned literal of the gate must be anchored (none
/// of one or two bytes; on-demand ones may be any length). `marks` hold at least the gate's literal count;
/// `scratch` holds `capacity` ids, at least the largest bucket's anchor count. `readable` as for
/// `cscan_window_scan`.
int cscan_gate_admits(const cscan_rule_gate *gate, cscan_gate_marks *marks, const unsigned char *subject, size_t length,
                      size_t readable, int32_t *scratch, size_t capacity);

/// A line format's header parser as `cscan_nslog_header`: returns where the message starts, or -1 for
/// a line that does not start an entry.
typedef long (*cscan_header_parser)(const unsigned char *line, size_t length, int32_t *spans);

/// Quiet entries: one header line whose message admits no rule of `gate` (`cscan_gate_admits`).
/// `message` is the message of the entry whose header line was handed out last, with `message_readable`
/// bytes readable from it (its buffer going on to the end of `rest`, say); `rest` holds
/// the complete lines after it, as read (`\n`-terminated, `\r\n` accepted; a line without its `\n` is
/// not looked at). The entry is quiet when its message admits no rule and the
/// next line is a header line (which ends it). Returns -1 when it is not quiet or that is not known from
/// `rest`; otherwise how many of the following lines are quiet entries too, each confirmed by the header
/// line after it, and sets `*consumed_bytes` to their length (the bytes to skip). A line longer than
/// `max_line` stops the walk. A message is gated only once the header line after it is seen, so the
/// first line of a multi-line entry is not. `*stopped_at_loud` is set to 1 when the walk stopped at a
/// one-line entry (the line after the consumed ones) whose message admits a rule, else 0.
/// `header` must accept only lines that start an entry in any state (never blank, boilerplate or a
/// pasted crash report's first line): a digit-led timestamp prefix, for one.
long cscan_skip_quiet_lines(const cscan_rule_gate *gate, cscan_gate_marks *marks, int32_t *scratch, size_t capacity,
                            cscan_header_parser header, const unsigned char *message, size_t message_length,
                            size_t message_readable, const unsigned char *rest, size_t rest_length, size_t max_line,
                            size_t *consumed_bytes, int *stopped_at_loud);

#endif
