#define _GNU_SOURCE
#include <string.h>
#include <stdint.h>
#include "cscan_bytes.h"
#include "cscan_private.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

static int cscan_symbol_byte(unsigned char b) {
    return ((unsigned)((b | 0x20) - 'a') < 26u) || ((unsigned)(b - '0') < 10u) || b == '_' || b == '.' || b == '$';
}

static int cscan_hex_digit(unsigned char b) {
    return ((unsigned)(b - '0') < 10u) || ((unsigned)((b | 0x20) - 'a') < 6u);
}

int cscan_symbol_frame(const unsigned char *p, size_t n) {
    size_t i = 0;
    while (i < n && cscan_symbol_byte(p[i])) i++;
    if (i < 2 || i + 4 >= n || p[i] != ' ') return 0;
    size_t j;
    switch (p[i + 1]) {
    case '(':
        if (p[i + 2] != 'i' || p[i + 3] != 'n' || p[i + 4] != ' ') return 0;
        j = i + 5;
        while (j < n && p[j] != ')' && p[j] != ' ' && p[j] != '\t' && p[j] != '\n' && p[j] != '\r') j++;
        if (j >= n || p[j] != ')' || j <= i + 5) return 0;
        j++;
        if (j >= n || p[j] == '\n' || p[j] == '\r') return 1;
        if (p[j] != ' ' || j + 1 >= n) return 0;
        if (p[j + 1] == '+' || p[j + 1] == '(' || p[j + 1] == '[') return 1;
        {
            size_t k = j + 1;
            while (k < n && cscan_symbol_byte(p[k])) k++;
            return k > j + 1 && k + 1 < n && p[k] == ':' && (unsigned)(p[k + 1] - '0') < 10u;
        }
    case '+': {
        if (p[i + 2] != '0' || (p[i + 3] | 0x20) != 'x') return 0;
        j = i + 4;
        while (j < n && cscan_hex_digit(p[j])) j++;
        if (j - (i + 4) < 4 || j + 1 >= n || p[j] != ' ') return 0;
        unsigned char next = p[j + 1];
        return cscan_symbol_byte(next) || next == '-' || next == '+' || next == '[';
    }
    case '0': {
        if ((p[i + 2] | 0x20) != 'x') return 0;
        j = i + 3;
        while (j < n && cscan_hex_digit(p[j])) j++;
        if (j - (i + 3) < 8) return 0;
        while (j < n && (p[j] == ' ' || p[j] == '\t')) j++;
        return j == n || p[j] == '\r' || p[j] == '\n';
    }
    default:
        return 0;
    }
}

int cscan_column_frame(const unsigned char *p, size_t n) {
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
    size_t image = i;
    while (i < n && cscan_symbol_byte(p[i])) i++;
    if (i == image || i - image > 64 || i + 12 >= n || p[i] != ' ' || (p[i + 1] != ' ' && p[i + 1] != '\t')) return 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
    if (i + 10 >= n || p[i] != '0' || p[i + 1] != 'x') return 0;
    size_t j = i + 2;
    while (j < n && cscan_hex_digit(p[j])) j++;
    if (j - (i + 2) < 8 || j >= n || (p[j] != ' ' && p[j] != '\t')) return 0;
    while (j < n && (p[j] == ' ' || p[j] == '\t')) j++;
    return j < n && p[j] != '\n' && p[j] != '\r';
}
