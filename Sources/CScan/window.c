#include <string.h>
#include <stdint.h>
#include "cscan_window.h"
#include "cscan_private.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
