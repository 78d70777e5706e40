#include <string.h>
#include <stdint.h>
#include "cscan_headers.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
