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

/* How common a (lower-case) byte is in log text, roughly: space and frequent letters high, punctuation
   and upper bytes low. Used to pick the needle's rarest pair of bytes to search for. */
static inline int cscan_commonness(unsigned char b) {
    static const char by_frequency[] = "etaoinsrhldcumfpgwybvkxjqz";
    if (b == ' ') return 40;
    for (int k = 0; by_frequency[k]; k++) if (by_frequency[k] == b) return 30 - k;
    if (b >= '0' && b <= '9') return 10;
    return 2;
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
            int score = cscan_commonness(lower[k]) + cscan_commonness(lower[k + 1]);
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
   at least 20 readable bytes): four 8-byte loads, two windows from each. */
static inline unsigned cscan_window_step_flagged(const unsigned char *filter, const unsigned char *bytes) {
    uint64_t w0, w1, w2, w3;
    memcpy(&w0, bytes, 8);
    memcpy(&w1, bytes + 4, 8);
    memcpy(&w2, bytes + 8, 8);
    memcpy(&w3, bytes + 12, 8);
#define CSCAN_FLAG(word, byte) filter[cscan_window_hash((uint32_t)((word) >> (8 * (byte))))]
    return CSCAN_FLAG(w0, 0) | CSCAN_FLAG(w0, 2) | CSCAN_FLAG(w1, 0) | CSCAN_FLAG(w1, 2)
         | CSCAN_FLAG(w2, 0) | CSCAN_FLAG(w2, 2) | CSCAN_FLAG(w3, 0) | CSCAN_FLAG(w3, 2);
#undef CSCAN_FLAG
}

/* Compares the literals anchored at window start `at` of the subject (the window's bytes are `window`).
   Returns 0, leaving `*count` as it was, when they might not fit in `capacity`. */
static inline int cscan_window_check(const cscan_window_tables *t, const unsigned char *subject, size_t length,
                                     size_t at, uint32_t window, int32_t *found, size_t *count, size_t capacity) {
    uint32_t h = cscan_window_hash(window);
    if (!t->filter[h]) return 1;
    uint32_t first = t->bucket_start[h], last = t->bucket_start[h + 1];
    if (capacity - *count < last - first) return 0;
    for (uint32_t a = first; a < last; a++) {
        if (cscan_anchor_matches(t, &t->anchors[a], subject, length, at)) found[(*count)++] = t->anchors[a].literal;
    }
    return 1;
}

size_t cscan_window_scan(const cscan_window_tables *t, const unsigned char *subject, size_t length,
                         size_t *position, int32_t *found, size_t capacity) {
    const unsigned char *filter = t->filter;
    size_t count = 0, i = *position;
    if (length < CSCAN_WINDOW_BYTES - 1) { *position = length; return 0; }
    const size_t last = length - (CSCAN_WINDOW_BYTES - 1);   /* no window starts after this */
    /* Eight window starts (every second byte) per step of sixteen bytes, one branch for all eight: most
       steps find nothing. A step with a hit looks at its positions one by one. */
    for (; i + 20 <= length; i += 16) {
        if (!cscan_window_step_flagged(filter, subject + i)) continue;
        for (size_t k = i; k < i + 16; k += CSCAN_WINDOW_STRIDE) {
            uint32_t window;
            memcpy(&window, subject + k, 4);
            if (!cscan_window_check(t, subject, length, k, window, found, &count, capacity)) { *position = k; return count; }
        }
    }
    if (i <= last) {
        /* The last positions (fewer than twenty bytes left) in steps over a zero-padded copy: windows
           running past the end read zeros there, as the contract says. */
        unsigned char padded[48] = {0};
        memcpy(padded, subject + i, length - i);
        const size_t origin = i;
        for (; i <= last; i += 16) {
            if (!cscan_window_step_flagged(filter, padded + (i - origin))) continue;
            for (size_t k = i; k < i + 16 && k <= last; k += CSCAN_WINDOW_STRIDE) {
                uint32_t window;
                memcpy(&window, padded + (k - origin), 4);
                if (!cscan_window_check(t, subject, length, k, window, found, &count, capacity)) { *position = k; return count; }
            }
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

size_t cscan_count_byte(const unsigned char *bytes, size_t length, unsigned char byte) {
    size_t count = 0, i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    /* Sixteen bytes a step: each lane counts its matches (subtracting the all-ones of a match), at most
       255 steps before the lanes are summed. */
    const __m128i target = _mm_set1_epi8((char)byte), zero = _mm_setzero_si128();
    while (length - i >= 16) {
        size_t steps = (length - i) / 16;
        if (steps > 255) steps = 255;
        __m128i lanes = zero;
        for (size_t step = 0; step < steps; step++, i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(bytes + i));
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v, target));
        }
        __m128i sums = _mm_sad_epu8(lanes, zero);
        count += (size_t)_mm_cvtsi128_si64(sums) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
    }
#endif
    for (; i < length; i++) count += bytes[i] == byte;
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
