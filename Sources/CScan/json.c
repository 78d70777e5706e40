#include <string.h>
#include <stdint.h>
#include "cscan_json.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
