#define _GNU_SOURCE
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "cscan.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif


static inline unsigned char cscan_upper(unsigned char lower) {
    return (lower >= 'a' && lower <= 'z') ? (unsigned char)(lower - 0x20) : lower;
}

int cscan_byte_rank(unsigned char b) {
    static const char lower[] = "etaoinsrhldcumfpgwybvkxjqz";
    static const char upper[] = "ESTACIRNODLMPUFBGHWKVYXJQZ";
    if (b == ' ') return 255;
    if (b >= '0' && b <= '9') return 235;
    if (b >= 'a' && b <= 'z') { for (int k = 0; lower[k]; k++) if ((unsigned char)lower[k] == b) return 245 - 4 * k; }
    if (b >= 'A' && b <= 'Z') { for (int k = 0; upper[k]; k++) if ((unsigned char)upper[k] == b) return 170 - 3 * k; }
    switch (b) {
    case '.': case ':': case '-': return 200;
    case '/': case '=': case ',': case '_': return 180;
    default: break;
    }
    if (b >= 0x80) return 160;
    switch (b) {
    case '(': case ')': case '[': case ']': case '"': case '\'': case '<': case '>': case '{': case '}': case ';':
    case 0x0A: case 0x09: return 150;
    default: break;
    }
    if (b >= 0x21 && b <= 0x7E) return 90;
    return 20;
}

long cscan_find(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len) {
    if (needle_len == 0) return 0;
    const void *found = memmem(haystack, haystack_len, needle, needle_len);
    return found ? (long)((const char *)found - (const char *)haystack) : -1;
}

static inline unsigned char cscan_lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c | 0x20) : c;
}

/* Candidates hold the needle's rarest pair of adjacent bytes (either case) at its offset, sixteen start
   positions at a time (SSE2); each is then compared whole. (The same scan for exact needles measured
   slower than glibc's memmem, a hash of byte pairs with a shift table, so `cscan_find` keeps memmem.) */
long cscan_find_caseless(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len) {
    const unsigned char *hay = haystack, *lower = needle;
    if (needle_len == 0) return 0;
    if (needle_len > haystack_len) return -1;
    size_t last_start = haystack_len - needle_len, i = 0;
#if defined(__SSE2__)
    if (needle_len >= 2) {
        size_t pair = 0;
        int best = 1000;
        for (size_t k = 0; k + 1 < needle_len; k++) {
            int score = cscan_byte_rank(lower[k]) + cscan_byte_rank(lower[k + 1]);
            if (score < best) { best = score; pair = k; }
        }
        unsigned char p0 = lower[pair], p1 = lower[pair + 1];
        const __m128i a = _mm_set1_epi8((char)p0), a2 = _mm_set1_epi8((char)cscan_upper(p0));
        const __m128i b = _mm_set1_epi8((char)p1), b2 = _mm_set1_epi8((char)cscan_upper(p1));
        for (; i <= last_start && last_start - i >= 15; i += 16) {
            __m128i v0 = _mm_loadu_si128((const __m128i *)(hay + i + pair));
            __m128i v1 = _mm_loadu_si128((const __m128i *)(hay + i + pair + 1));
            __m128i first = _mm_or_si128(_mm_cmpeq_epi8(v0, a), _mm_cmpeq_epi8(v0, a2));
            __m128i second = _mm_or_si128(_mm_cmpeq_epi8(v1, b), _mm_cmpeq_epi8(v1, b2));
            unsigned int mask = (unsigned int)_mm_movemask_epi8(_mm_and_si128(first, second));
            while (mask) {
                size_t at = i + (size_t)__builtin_ctz(mask);
                mask &= mask - 1;
                size_t k = 0;
                while (k < needle_len && cscan_lower(hay[at + k]) == lower[k]) k++;
                if (k == needle_len) return (long)at;
            }
        }
    }
#endif
    for (; i <= last_start; i++) {
        size_t k = 0;
        while (k < needle_len && cscan_lower(hay[i + k]) == lower[k]) k++;
        if (k == needle_len) return (long)i;
    }
    return -1;
}

/* Whether the literal of `anchor` occurs in `subject` with its window at `at`. */
static inline int cscan_anchor_matches(const cscan_window_tables *t, const cscan_anchor *anchor,
                                       const unsigned char *subject, size_t length, size_t at) {
    if ((long)at < (long)anchor->offset) return 0;
    size_t start = (size_t)((long)at - (long)anchor->offset);
    int32_t id = anchor->literal;
    size_t n = (size_t)(t->literal_start[id + 1] - t->literal_start[id]);
    if (start > length || n > length - start) return 0;
    if (length - start >= 8) {
        uint64_t word;
        memcpy(&word, subject + start, 8);
        if (((word | anchor->head_fold) & anchor->head_mask) != anchor->head) return 0;
        if (n <= 8) return 1;
    }
    const unsigned char *literal = t->literal_bytes + t->literal_start[id];
    if (!t->caseless[id]) return memcmp(subject + start, literal, n) == 0;
    for (size_t k = 0; k < n; k++) if (cscan_lower(subject[start + k]) != literal[k]) return 0;
    return 1;
}

/* Whether any of the eight window starts `bytes`, `bytes + 2`, … `bytes + 14` is flagged (`bytes` holds
   at least 20 readable bytes): four 8-byte loads, two windows from each, case-folded a word at a time. */
static inline unsigned cscan_window_step_flagged(const unsigned char *filter, const unsigned char *bytes) {
    const uint64_t fold = 0x2020202020202020ull;
    uint64_t w0, w1, w2, w3;
    memcpy(&w0, bytes, 8);
    memcpy(&w1, bytes + 4, 8);
    memcpy(&w2, bytes + 8, 8);
    memcpy(&w3, bytes + 12, 8);
    w0 |= fold; w1 |= fold; w2 |= fold; w3 |= fold;
#define CSCAN_FLAG(word, byte) filter[cscan_folded_window_hash((uint32_t)((word) >> (8 * (byte))))]
    return CSCAN_FLAG(w0, 0) | CSCAN_FLAG(w0, 2) | CSCAN_FLAG(w1, 0) | CSCAN_FLAG(w1, 2)
         | CSCAN_FLAG(w2, 0) | CSCAN_FLAG(w2, 2) | CSCAN_FLAG(w3, 0) | CSCAN_FLAG(w3, 2);
#undef CSCAN_FLAG
}

/* The first step of sixteen bytes at or after `i` with a flagged window start, or the first `i` with
   fewer than twenty bytes left. Two steps per branch. Out of line, so that this loop, where a scan spends
   its time, keeps all it needs in registers (inlined into the scan, its values were spilled to the
   stack around the rarely taken comparisons). */
__attribute__((noinline))
static size_t cscan_first_flagged_step(const unsigned char *filter, const unsigned char *subject, size_t i, size_t length) {
    for (; i + 36 <= length; i += 32) {
        unsigned first = cscan_window_step_flagged(filter, subject + i);
        if (first | cscan_window_step_flagged(filter, subject + i + 16)) return first ? i : i + 16;
    }
    for (; i + 20 <= length; i += 16) {
        if (cscan_window_step_flagged(filter, subject + i)) return i;
    }
    return i;
}

/* Compares the literals anchored at window start `at` of the subject, whose window hash `h` is flagged.
   Returns 0, leaving `*count` as it was, when they might not fit in `capacity`. */
static inline int cscan_window_anchors(const cscan_window_tables *t, const unsigned char *subject, size_t length,
                                       size_t at, uint32_t h, int32_t *found, size_t *count, size_t capacity) {
    uint32_t first = t->bucket_start[h], last = t->bucket_start[h + 1];
    if (capacity - *count < last - first) return 0;
    for (uint32_t a = first; a < last; a++) {
        if (cscan_anchor_matches(t, &t->anchors[a], subject, length, at)) found[(*count)++] = t->anchors[a].literal;
    }
    return 1;
}

/* Bit j set: the window starting at `bytes + 2j` (j = 0 … 7) is flagged; `bytes` holds at least 20
   readable bytes. The same lookups as `cscan_window_step_flagged`, kept apart by position. */
static inline unsigned cscan_window_step_mask(const unsigned char *filter, const unsigned char *bytes) {
    const uint64_t fold = 0x2020202020202020ull;
    unsigned mask = 0;
    for (int word = 0; word < 4; word++) {
        uint64_t w;
        memcpy(&w, bytes + 4 * word, 8);
        w |= fold;
        mask |= (unsigned)filter[cscan_folded_window_hash((uint32_t)w)] << (2 * word)
              | (unsigned)filter[cscan_folded_window_hash((uint32_t)(w >> 16))] << (2 * word + 1);
    }
    return mask;
}

size_t cscan_window_scan(const cscan_window_tables *t, const unsigned char *subject, size_t length, size_t readable,
                         size_t *position, int32_t *found, size_t capacity) {
    const unsigned char *filter = t->filter;
    size_t count = 0, i = *position;
    if (length < CSCAN_WINDOW_BYTES - 1) { *position = length; return 0; }
    if (readable < length) readable = length;
    const size_t last = length - (CSCAN_WINDOW_BYTES - 1);   /* no window starts after this */
    /* Steps run while they have a window start up to `last` and their twenty bytes are readable: with
       seventeen readable bytes after the subject, to its end. */
    const size_t steps_end = readable < last + 20 ? readable : last + 20;
    /* Eight window starts (every second byte) per step of sixteen bytes, one branch for all eight: most
       steps find nothing. A step with a hit takes its flagged positions from a mask, in order, so that
       the filter's verdicts, hard to predict, cost no branch each. */
    for (;; i += 16) {
        i = cscan_first_flagged_step(filter, subject, i, steps_end);
        if (i + 20 > steps_end) break;
        unsigned mask = cscan_window_step_mask(filter, subject + i);
        /* Window starts after `last` (past the subject's end) hold no literal. */
        if (last - i < 14) mask &= (2u << ((last - i) / 2)) - 1;
        for (; mask; mask &= mask - 1) {
            size_t k = i + CSCAN_WINDOW_STRIDE * (size_t)__builtin_ctz(mask);
            uint32_t window;
            memcpy(&window, subject + k, 4);
            if (!cscan_window_anchors(t, subject, length, k, cscan_window_hash(window), found, &count, capacity)) {
                *position = k;
                return count;
            }
        }
    }
    /* The last positions (fewer than twenty bytes left, so at most nine) into a mask the same way, with
       no copy: windows that fit are loaded whole; the one starting three bytes before the end reads a
       zero past it, as the contract says. (A window starting later can hold no literal: the shortest
       anchored ones have three bytes.) */
    if (i <= last) {
        uint32_t hashes[10];
        unsigned mask = 0, n = 0;
        for (size_t k = i; k <= last; k += CSCAN_WINDOW_STRIDE, n++) {
            uint32_t window = 0;
            if (length - k >= 4) memcpy(&window, subject + k, 4); else memcpy(&window, subject + k, 3);
            hashes[n] = cscan_window_hash(window);
            mask |= (unsigned)filter[hashes[n]] << n;
        }
        for (; mask; mask &= mask - 1) {
            unsigned j = (unsigned)__builtin_ctz(mask);
            size_t k = i + CSCAN_WINDOW_STRIDE * (size_t)j;
            if (!cscan_window_anchors(t, subject, length, k, hashes[j], found, &count, capacity)) { *position = k; return count; }
        }
    }
    *position = length;
    return count;
}

static inline int cscan_json_needs_escape(unsigned char b) {
    return b < 0x20 || b == '"' || b == '\\' || b == 0x7F;
}

size_t cscan_json_plain_prefix(const unsigned char *bytes, size_t length) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    size_t i = 0;
#if defined(__SSE2__)
    /* Sixteen bytes a step: a byte needs escaping when it is at most 0x1F (unsigned), a quote, a
       backslash or DEL; the first such byte is the lowest set bit of the mask. */
    const __m128i control_max = _mm_set1_epi8(0x1F), quote = _mm_set1_epi8('"'),
                  backslash = _mm_set1_epi8('\\'), del = _mm_set1_epi8(0x7F);
    for (; i + 16 <= length; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + i));
        __m128i flagged = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, control_max), v),
                                                    _mm_cmpeq_epi8(v, quote)),
                                       _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, del)));
        unsigned int mask = (unsigned int)_mm_movemask_epi8(flagged);
        if (mask) return i + (size_t)__builtin_ctz(mask);
    }
#endif
    for (; i + 8 <= length; i += 8) {
        uint64_t x;
        memcpy(&x, bytes + i, 8);
        uint64_t quote = x ^ (ones * '"'), backslash = x ^ (ones * '\\'), del = x ^ (ones * 0x7F);
        uint64_t flagged = ((x - ones * 0x20) & ~x)              /* a byte below 0x20 */
                         | ((quote - ones) & ~quote)
                         | ((backslash - ones) & ~backslash)
                         | ((del - ones) & ~del);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* The lowest flagged byte is exact (borrows only ever flag bytes above a true hit). */
        if (flagged & highs) return i + (size_t)(__builtin_ctzll(flagged & highs) >> 3);
#else
        if (flagged & highs) break;
#endif
    }
    for (; i < length; i++) {
        if (cscan_json_needs_escape(bytes[i])) return i;
    }
    return length;
}

size_t cscan_count_byte(const void *bytes, size_t length, unsigned char byte) {
    const unsigned char *p = bytes;
    size_t count = 0, i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    /* Thirty-two bytes a step in two vectors: each lane counts its matches (subtracting the all-ones of a
       match), at most 255 steps before the lanes are summed. The cutting thread counts a block's lines
       while the others wait for their turn at the input. */
    const __m128i target = _mm_set1_epi8((char)byte), zero = _mm_setzero_si128();
    while (length - i >= 32) {
        size_t steps = (length - i) / 32;
        if (steps > 255) steps = 255;
        __m128i lanes0 = zero, lanes1 = zero;
        for (size_t step = 0; step < steps; step++, i += 32) {
            lanes0 = _mm_sub_epi8(lanes0, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), target));
            lanes1 = _mm_sub_epi8(lanes1, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 16)), target));
        }
        __m128i sums = _mm_add_epi64(_mm_sad_epu8(lanes0, zero), _mm_sad_epu8(lanes1, zero));
        count += (size_t)_mm_cvtsi128_si64(sums) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
    }
#endif
    for (; i < length; i++) count += p[i] == byte;
    return count;
}

int cscan_tune_malloc(int arenas) {
#ifdef __GLIBC__
    return mallopt(M_ARENA_MAX, arenas) && mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#else
    (void)arenas;
    return 0;
#endif
}

struct cscan_once {
    atomic_int done;
    pthread_mutex_t mutex;
};

cscan_once *cscan_once_create(void) {
    cscan_once *once = malloc(sizeof *once);
    if (!once) abort();
    atomic_init(&once->done, 0);
    pthread_mutex_init(&once->mutex, NULL);
    return once;
}

void cscan_once_destroy(cscan_once *once) {
    pthread_mutex_destroy(&once->mutex);
    free(once);
}

int cscan_once_enter(cscan_once *once) {
    if (atomic_load_explicit(&once->done, memory_order_acquire)) return 0;
    pthread_mutex_lock(&once->mutex);
    if (atomic_load_explicit(&once->done, memory_order_relaxed)) {
        pthread_mutex_unlock(&once->mutex);
        return 0;
    }
    return 1;
}

void cscan_once_leave(cscan_once *once) {
    atomic_store_explicit(&once->done, 1, memory_order_release);
    pthread_mutex_unlock(&once->mutex);
}

static inline int cscan_json_space(unsigned char b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r'; }

/* Index of the closing quote of the string whose opening quote is at `from`, or -1. Only quotes and
   backslashes matter here, so the skip tests two bytes sixteen at a time (not the four that decide
   escaping for output). */
static inline long cscan_json_string_end(const unsigned char *b, size_t n, size_t from) {
    size_t j = from + 1;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
#endif
    while (j < n) {
#if defined(__SSE2__)
        while (n - j >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(b + j));
            unsigned int mask = (unsigned int)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
            if (mask) { j += (size_t)__builtin_ctz(mask); goto special; }
            j += 16;
        }
#endif
        while (j < n && b[j] != '"' && b[j] != '\\') j++;
        if (j >= n) return -1;
#if defined(__SSE2__)
    special:
#endif
        if (b[j] == '"') return (long)j;
        j += 2;  /* a backslash and the byte it escapes */
    }
    return -1;
}

/* Index after the object or array starting at `from`, tracking depth with a counter (no recursion). */
static size_t cscan_json_skip_nested(const unsigned char *b, size_t n, size_t from) {
    long depth = 0;
    int in_string = 0;
    size_t i = from;
    while (i < n) {
        unsigned char c = b[i];
        if (in_string) {
            if (c == '\\') { i += 2; continue; }
            if (c == '"') in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
            if (depth == 0) return i + 1;
        }
        i++;
    }
    return n;
}

int cscan_json_next_member(const unsigned char *b, size_t n, cscan_json_cursor *cursor, cscan_json_member *member) {
    size_t i = cursor->position;
    if (!cursor->started) {
        cursor->started = 1;
        while (i < n && cscan_json_space(b[i])) i++;
        if (i >= n || b[i] != '{') { cursor->position = n; return 0; }
        i++;
    }
    while (i < n) {
        while (i < n && cscan_json_space(b[i])) i++;
        if (i >= n) break;
        if (b[i] == '}') { cursor->after_object = (long)(i + 1); break; }
        if (b[i] == ',') { i++; continue; }
        if (b[i] != '"') break;
        long key_end = cscan_json_string_end(b, n, i);
        if (key_end < 0) break;
        member->key_start = (long)(i + 1);
        member->key_end = key_end;
        i = (size_t)key_end + 1;
        while (i < n && cscan_json_space(b[i])) i++;
        if (i >= n || b[i] != ':') break;
        i++;
        while (i < n && cscan_json_space(b[i])) i++;
        if (i >= n) break;
        unsigned char c = b[i];
        if (c == '"') {
            long end = cscan_json_string_end(b, n, i);
            member->value_start = (long)(i + 1);
            member->is_string = 1;
            if (end < 0) {  /* cut off: what there is, and nothing after it */
                member->value_end = (long)n;
                cursor->position = n;
                return 1;
            }
            member->value_end = end;
            cursor->position = (size_t)end + 1;
            return 1;
        }
        if (c == '{' || c == '[') { i = cscan_json_skip_nested(b, n, i); continue; }
        size_t start = i;
        while (i < n && b[i] != ',' && b[i] != '}' && b[i] > 32) {
            unsigned char v = b[i];
            if (v == '"' || v == '[' || v == ']' || v == '{') cursor->splitter_agrees = 0;
            i++;
        }
        member->value_start = (long)start;
        member->value_end = (long)i;
        member->is_string = 0;
        cursor->position = i;
        return 1;
    }
    cursor->position = n;
    return 0;
}

/* ---- Line headers ------------------------------------------------------------------------------- */

static inline int cscan_is_digit(unsigned char b) { return (unsigned char)(b - '0') < 10; }
static inline int cscan_is_hex_digit(unsigned char b) {
    return cscan_is_digit(b) || (unsigned char)((b | 0x20) - 'a') < 6;
}
static inline int cscan_is_blank(unsigned char b) { return b == ' ' || b == '\t'; }

/* Eight bytes as a little-endian word: byte 0 is the lowest. */
static inline uint64_t cscan_load_le64(const unsigned char *p) {
    uint64_t word;
    memcpy(&word, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word;
}

/* The index after the run of decimal digits at `i` (`i` itself when there is none): eight bytes a step.
   A byte is a digit when its high nibble is 3 and its low nibble plus 6 stays below 0x10. */
static inline size_t cscan_digit_run(const unsigned char *p, size_t i, size_t n) {
    while (n - i >= 8) {
        uint64_t word = cscan_load_le64(p + i);
        uint64_t not_digit = ((word & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull)
                           | (((word & 0x0F0F0F0F0F0F0F0Full) + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull);
        if (not_digit) return i + (size_t)(__builtin_ctzll(not_digit) >> 3);
        i += 8;
    }
    while (i < n && cscan_is_digit(p[i])) i++;
    return i;
}


/* Eight bytes tested against a fixed shape in a few word operations: decimal digits at some positions,
   exact bytes at others, anything at the rest. Byte 0 is the lowest byte. A digit is a byte whose high
   nibble is 3 and which stays below 0x40 after adding 6 (0x30…0x39); after the first test every digit
   byte is 0x30…0x3F, so adding 6 carries into no other byte. `mask`/`pattern`: the high nibbles (digits)
   or whole bytes (exact bytes) kept for the first test and what they must equal; `add`: 6 at digit
   positions, whose high nibbles (`digit_mask`) must then still be 3 (`digit_pattern`). */
typedef struct { uint64_t mask, pattern, add, digit_mask, digit_pattern; } cscan_word_shape;

static inline int cscan_shape_matches(const cscan_word_shape *s, const unsigned char *at) {
    uint64_t word = cscan_load_le64(at);
    return (word & s->mask) == s->pattern && ((word + s->add) & s->digit_mask) == s->digit_pattern;
}

/* `dddd-dd-` */
static const cscan_word_shape cscan_shape_date = {
    0xFFF0F0FFF0F0F0F0ull, 0x2D30302D30303030ull, 0x0006060006060606ull, 0x00F0F000F0F0F0F0ull, 0x0030300030303030ull };
/* `dd??????` */
static const cscan_word_shape cscan_shape_day = { 0xF0F0ull, 0x3030ull, 0x0606ull, 0xF0F0ull, 0x3030ull };
/* `dd:dd:dd` */
static const cscan_word_shape cscan_shape_time = {
    0xF0F0FFF0F0FFF0F0ull, 0x30303A30303A3030ull, 0x0606000606000606ull, 0xF0F000F0F000F0F0ull, 0x3030003030003030ull };
/* `dddddd??` */
static const cscan_word_shape cscan_shape_six_digits = {
    0xF0F0F0F0F0F0ull, 0x303030303030ull, 0x060606060606ull, 0xF0F0F0F0F0F0ull, 0x303030303030ull };

long cscan_timestamp(const unsigned char *p, size_t n, size_t start) {
    if (start > n || n - start < 19) return -1;
    const unsigned char *b = p + start;
    if (!cscan_shape_matches(&cscan_shape_date, b) || !cscan_shape_matches(&cscan_shape_day, b + 8)
        || (b[10] != ' ' && b[10] != 'T') || !cscan_shape_matches(&cscan_shape_time, b + 11)) return -1;
    size_t pos = start + 19;
    if (pos < n && p[pos] == '.') {
        pos++;
        size_t digits_start = pos;
        /* Microseconds, the usual precision: six digits in one test. */
        if (n - pos >= 8 && cscan_shape_matches(&cscan_shape_six_digits, p + pos)) pos += 6;
        while (pos < n && cscan_is_digit(p[pos])) pos++;
        if (pos == digits_start) return -1;
    }
    if (pos >= n) return (long)pos;
    unsigned char sign = p[pos];
    if (sign == '+' || sign == '-') {
        /* `±HHMM`, the common form, tested straight; otherwise four digits with colons after the second. */
        if (n - pos >= 5 && cscan_is_digit(p[pos + 1]) && cscan_is_digit(p[pos + 2]) && cscan_is_digit(p[pos + 3])
            && cscan_is_digit(p[pos + 4])) return (long)(pos + 5);
        size_t q = pos + 1;
        int digits = 0;
        while (q < n && digits < 4 && (cscan_is_digit(p[q]) || (digits == 2 && p[q] == ':'))) {
            if (cscan_is_digit(p[q])) digits++;
            q++;
        }
        if (digits == 4) pos = q;
    } else if (sign == 'Z') {
        pos++;
    }
    return (long)pos;
}

long cscan_process_with_pid(const unsigned char *p, size_t n, size_t start, size_t limit, int32_t ranges[6]) {
    size_t stop = start > n ? n : (n - start < limit ? n : start + limit);
    size_t i = start;
    while (i < stop) {
        /* Jump to the next `[` instead of testing every byte of the process name. */
        const unsigned char *bracket = memchr(p + i, '[', stop - i);
        if (!bracket) return -1;
        i = (size_t)(bracket - p);
        if (i > start) {
            size_t pid_end = cscan_digit_run(p, i + 1, n);
            if (pid_end == i + 1) { i++; continue; }
            size_t close = pid_end;
            long tid_start = -1, tid_end = -1;
            if (close < n && p[close] == ':') {
                size_t h = close + 1;
                if (n - h >= 2 && p[h] == '0' && (p[h + 1] | 0x20) == 'x') h += 2;
                size_t hex_start = h;
                h = cscan_digit_run(p, h, n);  /* thread ids are mostly decimal */
                while (h < n && cscan_is_hex_digit(p[h])) h++;
                if (h == hex_start) { i++; continue; }
                tid_start = (long)(close + 1);
                tid_end = (long)h;
                close = h;
            }
            if (close >= n || p[close] != ']') { i++; continue; }
            ranges[0] = (int32_t)start; ranges[1] = (int32_t)i;
            ranges[2] = (int32_t)(i + 1); ranges[3] = (int32_t)pid_end;
            ranges[4] = (int32_t)tid_start; ranges[5] = (int32_t)(tid_start < 0 ? 0 : tid_end);
            return (long)(close + 1);
        }
        i++;
    }
    return -1;
}

static inline size_t cscan_skip_blanks(const unsigned char *p, size_t n, size_t i) {
    while (i < n && cscan_is_blank(p[i])) i++;
    return i;
}

#if defined(__SSE2__)
/* Whether `p` (at least 32 readable bytes) starts with the usual timestamp and the blank after it,
   `YYYY-MM-DD HH:MM:SS.ffffff±HHMM ` (microseconds, a four-digit offset, a space): 32 bytes tested in
   two sixteen-byte steps, digits by range and the other bytes exactly. */
static inline int cscan_usual_timestamp(const unsigned char *p) {
    const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    const __m128i low_fixed = _mm_setr_epi8(0, 0, 0, 0, '-', 0, 0, '-', 0, 0, ' ', 0, 0, ':', 0, 0);
    const __m128i high_fixed = _mm_setr_epi8(':', 0, 0, '.', 0, 0, 0, 0, 0, 0, '+', 0, 0, 0, 0, ' ');
    const __m128i minus = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '-', 0, 0, 0, 0, 0);
    /* Bit k: byte k must be a digit / must equal the fixed byte (the offset's sign: `+` or `-`). */
    const uint32_t digit_positions = 0x7BF6DB6Fu, fixed_positions = 0x84092490u;
    __m128i low = _mm_loadu_si128((const __m128i *)p), high = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i low_value = _mm_sub_epi8(low, zero), high_value = _mm_sub_epi8(high, zero);
    uint32_t digits = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(low_value, nine), low_value))
                    | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(high_value, nine), high_value)) << 16;
    uint32_t high_sign_minus = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(high, minus)) & (1u << 10);
    uint32_t fixed = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(low, low_fixed))
                   | ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(high, high_fixed)) | high_sign_minus) << 16;
    return (digits & digit_positions) == digit_positions && (fixed & fixed_positions) == fixed_positions;
}

/* The usual start of a header line, `<usual timestamp> Name[pid:tid]` with a name of 1–15 bytes and
   decimal ids, found the way the general parsers would find it: returns the index after the `]` and
   writes the timestamp's end and the process ranges (`cscan_process_with_pid`), or returns -1 when the
   line is anything else (the general parsers decide then). */
static inline long cscan_usual_prefix(const unsigned char *p, size_t n, long *timestamp_end, int32_t process[6]) {
    if (n < 64 || !cscan_usual_timestamp(p) || cscan_is_blank(p[32])) return -1;
    /* The process name starts at 32; its `[` is the first one after that byte (as the general search
       skips a `[` at the name's start). */
    unsigned brackets = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), _mm_set1_epi8('[')));
    brackets &= ~1u;
    if (!brackets) return -1;
    size_t open = 32 + (size_t)__builtin_ctz(brackets);
    /* `pid:tid]` within the sixteen bytes after the `[` (open <= 47, n >= 64), from a mask of their
       digits: the pid is the run of digits at bit 0, the tid the run after the colon. */
    __m128i ids = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(p + open + 1)), _mm_set1_epi8('0'));
    unsigned other = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(ids, _mm_set1_epi8(9)), ids)) & 0xFFFFu;
    unsigned pid_length = (unsigned)__builtin_ctz(other | 0x10000u);
    if (pid_length == 0 || pid_length >= 14 || p[open + 1 + pid_length] != ':') return -1;
    unsigned tid_offset = pid_length + 1;
    unsigned tid_length = (unsigned)__builtin_ctz((other >> tid_offset) | (0x10000u >> tid_offset));
    if (tid_length == 0 || tid_offset + tid_length >= 16 || p[open + 1 + tid_offset + tid_length] != ']') return -1;
    size_t pid_end = open + 1 + pid_length, i = pid_end + 1 + tid_length;
    *timestamp_end = 31;
    process[0] = 32; process[1] = (int32_t)open;
    process[2] = (int32_t)(open + 1); process[3] = (int32_t)pid_end;
    process[4] = (int32_t)(pid_end + 1); process[5] = (int32_t)i;
    return (long)(i + 1);
}
#endif

long cscan_nslog_header(const unsigned char *p, size_t n, int32_t spans[CSCAN_HEADER_SPANS * 2]) {
    if (n > INT32_MAX) n = INT32_MAX;
    long timestamp_end = -1, process_end = -1;
    int32_t process[6];
#if defined(__SSE2__)
    process_end = cscan_usual_prefix(p, n, &timestamp_end, process);
#endif
    if (process_end < 0) {
        timestamp_end = cscan_timestamp(p, n, 0);
        if (timestamp_end < 0 || (size_t)timestamp_end >= n || !cscan_is_blank(p[timestamp_end])) return -1;
        size_t process_start = cscan_skip_blanks(p, n, (size_t)timestamp_end);
        process_end = cscan_process_with_pid(p, n, process_start, 256, process);
        if (process_end < 0) return -1;
    }
    for (int k = 0; k < CSCAN_HEADER_SPANS * 2; k += 2) { spans[k] = -1; spans[k + 1] = 0; }
    spans[0] = 0; spans[1] = (int32_t)timestamp_end;
    for (int k = 0; k < 6; k++) spans[2 + k] = process[k];
    size_t at = cscan_skip_blanks(p, n, (size_t)process_end);
    /* Optional `[category]` (iOS 10–13) or `[subsystem:category]`: up to the first `]` within 120 bytes,
       no space or tab inside, not empty; a `:` splits subsystem from category. One pass. */
    if (at < n && p[at] == '[') {
        size_t stop = n - at < 120 ? n : at + 120;
        size_t i = at + 1;
        long colon = -1;
#if defined(__SSE2__)
        /* Sixteen bytes a step up to the first `]` or blank, noting the first `:` before it. */
        const __m128i close = _mm_set1_epi8(']'), space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'),
                      colon_byte = _mm_set1_epi8(':');
        while (stop - i >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            unsigned ends = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, close),
                                                         _mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab))));
            unsigned colons = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, colon_byte));
            if (ends) {
                unsigned before = colons & (((ends & (0u - ends))) - 1u);  /* colons before the first end */
                if (colon < 0 && before) colon = (long)(i + (size_t)__builtin_ctz(before));
                i += (size_t)__builtin_ctz(ends);
                goto found_end;
            }
            if (colon < 0 && colons) colon = (long)(i + (size_t)__builtin_ctz(colons));
            i += 16;
        }
#endif
        while (i < stop) {
            unsigned char c = p[i];
            if (c == ']' || cscan_is_blank(c)) break;
            if (c == ':' && colon < 0) colon = (long)i;
            i++;
        }
#if defined(__SSE2__)
    found_end:
#endif
        if (i < stop && p[i] == ']' && i > at + 1) {
            if (colon >= 0) {
                spans[8] = (int32_t)(at + 1); spans[9] = (int32_t)colon;
                spans[10] = (int32_t)(colon + 1); spans[11] = (int32_t)i;
            } else {
                spans[10] = (int32_t)(at + 1); spans[11] = (int32_t)i;
            }
            at = cscan_skip_blanks(p, n, i + 1);
        }
    }
    return (long)at;
}


/* ---- Quiet entries ------------------------------------------------------------------------------ */

struct cscan_gate_marks {
    uint32_t generation;  /* of the message being gated */
    uint32_t *seen;       /* per literal id: the generation that last found it */
    int32_t *found;       /* the distinct literals found in this generation, in the order found */
    size_t literal_count;
};

cscan_gate_marks *cscan_gate_marks_create(size_t literal_count) {
    cscan_gate_marks *marks = malloc(sizeof *marks);
    size_t slots = literal_count ? literal_count : 1;
    if (!marks) abort();
    marks->seen = calloc(slots, sizeof *marks->seen);
    marks->found = malloc(slots * sizeof *marks->found);
    if (!marks->seen || !marks->found) abort();
    marks->generation = 0;
    marks->literal_count = literal_count;
    return marks;
}

void cscan_gate_marks_destroy(cscan_gate_marks *marks) {
    if (!marks) return;
    free(marks->seen);
    free(marks->found);
    free(marks);
}

/* Whether literal `id` is in `subject`: marked found by the scan (`seen[id] == generation`), or found
   now when searched on demand. */
static inline int cscan_gate_literal_present(const cscan_rule_gate *g, const uint32_t *seen, uint32_t generation, int32_t id,
                                             const unsigned char *subject, size_t length) {
    if (seen[id] == generation) return 1;
    if (!g->on_demand[id]) return 0;
    const unsigned char *needle = g->on_demand_bytes + g->on_demand_start[id];
    size_t n = (size_t)(g->on_demand_start[id + 1] - g->on_demand_start[id]);
    return (g->caseless[id] ? cscan_find_caseless(subject, length, needle, n) : cscan_find(subject, length, needle, n)) >= 0;
}

int cscan_rule_clauses_hold(const cscan_rule_gate *g, const uint32_t *seen, uint32_t generation, int32_t rule,
                            const unsigned char *subject, size_t length) {
    for (int32_t c = g->rule_clause_start[rule]; c < g->rule_clause_start[rule + 1]; c++) {
        int held = 0;
        for (int32_t k = g->clause_literal_start[c]; k < g->clause_literal_start[c + 1] && !held; k++) {
            held = cscan_gate_literal_present(g, seen, generation, g->clause_literal_ids[k], subject, length);
        }
        if (!held) return 0;
    }
    return 1;
}

/* Whether a rule whose pattern needs `literal` has its clauses held in `subject`. */
static inline int cscan_gate_literal_admits(const cscan_rule_gate *g, const cscan_gate_marks *marks, int32_t literal,
                                            const unsigned char *subject, size_t length) {
    for (int32_t k = g->literal_rule_start[literal]; k < g->literal_rule_start[literal + 1]; k++) {
        if (cscan_rule_clauses_hold(g, marks->seen, marks->generation, g->literal_rules[k], subject, length)) return 1;
    }
    return 0;
}

int cscan_gate_admits(const cscan_rule_gate *g, cscan_gate_marks *marks, const unsigned char *subject, size_t length,
                      size_t readable, int32_t *scratch, size_t capacity) {
    size_t position = 0, found = 0;
    int started = 0;
    while (position < length) {
        size_t count = cscan_window_scan(g->window, subject, length, readable, &position, scratch, capacity);
        if (count == 0) continue;
        if (!started) {
            /* A new generation only for a message with some literal: most have none. */
            started = 1;
            if (++marks->generation == 0) {
                memset(marks->seen, 0, (marks->literal_count ? marks->literal_count : 1) * sizeof *marks->seen);
                marks->generation = 1;
            }
        }
        for (size_t k = 0; k < count; k++) {
            int32_t id = scratch[k];
            if (marks->seen[id] == marks->generation) continue;
            marks->seen[id] = marks->generation;
            marks->found[found++] = id;
            /* Most rules have no clause: a literal of one of them decides at once. */
            if (g->literal_admits_alone[id]) return 1;
        }
    }
    /* Rules with clauses, once the whole message's literals are known (a clause literal may come after
       the pattern literal). */
    for (size_t k = 0; k < found; k++) {
        if (cscan_gate_literal_admits(g, marks, marks->found[k], subject, length)) return 1;
    }
    return 0;
}

long cscan_skip_quiet_lines(const cscan_rule_gate *gate, cscan_gate_marks *marks, int32_t *scratch, size_t capacity,
                            cscan_header_parser header, const unsigned char *message, size_t message_length,
                            size_t message_readable, const unsigned char *rest, size_t rest_length, size_t max_line,
                            size_t *consumed_bytes, int *stopped_at_loud) {
    *consumed_bytes = 0;
    *stopped_at_loud = 0;
    /* The candidate is the entry before `pos`: first the one of `message`, then the last line looked at.
       The header line at `pos` ends it; only then is its message scanned (a multi-line entry's first line
       is not: it goes back to the caller unscanned, to be built and classified whole). */
    const unsigned char *candidate = message;
    size_t candidate_length = message_length, candidate_readable = message_readable;
    int first = 1;
    long lines = 0;
    size_t pos = 0, consumed = 0;
    int32_t spans[CSCAN_HEADER_SPANS * 2];
    while (pos < rest_length) {
        const unsigned char *newline = memchr(rest + pos, '\n', rest_length - pos);
        if (!newline) break;
        size_t next = (size_t)(newline - rest) + 1, end = next - 1;
        if (end > pos && rest[end - 1] == '\r') end--;
        if (end - pos > max_line) break;
        long message_start = header(rest + pos, end - pos, spans);
        if (message_start < 0) break;
        if (cscan_gate_admits(gate, marks, candidate, candidate_length, candidate_readable, scratch, capacity)) {
            *stopped_at_loud = !first;
            break;
        }
        if (first) first = 0; else { lines++; consumed = pos; }
        size_t m = (size_t)message_start < end - pos ? (size_t)message_start : end - pos;
        candidate = rest + pos + m;
        candidate_length = end - pos - m;
        candidate_readable = rest_length - pos - m;
        pos = next;
    }
    if (first) return -1;
    *consumed_bytes = consumed;
    return lines;
}
