/* The template hash: TemplateMasker's byte scanner and TemplateHash, in C (see cscan_template.h). The Swift
   scanner is the reference; TemplateMaskerTests hold this to it. */
#include "cscan_template.h"
#include <string.h>

enum { WORD = 1, HEX = 2, DIGIT = 4, SEGMENT_STOP = 8 };

/* Byte classes (ASCII only: a byte of a multi-byte character is in none): WORD [A-Za-z0-9_], HEX
   [0-9A-Fa-f], DIGIT [0-9], SEGMENT_STOP what ends a path segment: \t-\r / " ' < > , ; : ) } ] (a space is
   handled apart). The same table as MaskByteClass in Swift. */
static const uint8_t byte_classes[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 8, 0, 0, 0, 0, 8, 0, 8, 0, 0, 8, 0, 0, 8, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 0, 8, 0,
    0, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 8, 0, 1,
    0, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 8, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* TemplateHash: little-endian words, xor-multiply mixing, length and an avalanche at the end. */
typedef struct { uint64_t state, pending, length; int count; } template_hash;

static inline uint64_t mix(uint64_t h, uint64_t word) {
    uint64_t x = (h ^ word) * 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29);
}

static inline uint64_t load_le64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static void keep(template_hash *h, const uint8_t *p, size_t n) {
    h->length += n;
    /* Top up a part-filled word with as many bytes as it lacks (a whole 8-byte load when that many are
       left), then whole words, then the rest into the next word. */
    if (h->count != 0) {
        size_t take = 8 - (size_t)h->count;
        if (take > n) take = n;
        uint64_t chunk;
        if (n >= 8) {
            chunk = load_le64(p);
            if (take < 8) chunk &= (1ULL << (take * 8)) - 1;
        } else {
            chunk = 0;
            for (size_t i = 0; i < take; i++) chunk |= (uint64_t)p[i] << (i * 8);
        }
        h->pending |= chunk << (h->count * 8);
        h->count += (int)take;
        p += take;
        n -= take;
        if (h->count < 8) return;
        h->state = mix(h->state, h->pending);
        h->pending = 0;
        h->count = 0;
    }
    while (n >= 8) { h->state = mix(h->state, load_le64(p)); p += 8; n -= 8; }
    for (size_t i = 0; i < n; i++) h->pending |= (uint64_t)p[i] << (i * 8);
    h->count = (int)n;
}

/* `keep`, taking no byte past `*room` (what is left of the output's limit) and counting them off. */
static inline void keep_capped(template_hash *h, const uint8_t *p, size_t n, size_t *room) {
    if (n > *room) n = *room;
    keep(h, p, n);
    *room -= n;
}

static uint64_t value(const template_hash *h) {
    uint64_t x = h->state;
    if (h->count > 0) x = mix(x, h->pending);
    x ^= h->length;
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDULL;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ULL;
    x ^= x >> 33;
    return x;
}

int cscan_template_hash(const uint8_t *u, size_t n, size_t limit, uint64_t *hash) {
    size_t room = limit;
    template_hash h = { 0xCBF29CE484222325ULL, 0, 0, 0 };
    if (n == 0) { *hash = value(&h); return 1; }
    if (memchr(u, '@', n)) return 0;
    for (const uint8_t *p = u; (p = memchr(p, ':', n - (size_t)(p - u))) != NULL; p++) {
        size_t at = (size_t)(p - u);
        if (at + 2 < n && u[at + 1] == '/' && u[at + 2] == '/') return 0;
        if (at + 1 >= n) break;
    }
    for (const uint8_t *p = u; (p = memchr(p, '=', n - (size_t)(p - u))) != NULL; p++) {
        size_t at = (size_t)(p - u);
        if (at >= 4 && u[at - 4] == 'N' && u[at - 3] == 'a' && u[at - 2] == 'm' && u[at - 1] == 'e') return 0;
        if (at + 1 >= n) break;
    }
    const uint8_t *table = byte_classes;
#define HAS(j, bit) (table[u[(j)]] & (bit))
#define BOUNDARY(at) ((at) >= n || !HAS((at), WORD))
    size_t copied = 0, i = 0;
    int word_before = 0;
    while (i < n) {
        size_t end = 0;
        const char *kind = NULL;
        if (!word_before) {
            uint8_t b = u[i];
            if (HAS(i, HEX)) {
                /* A UUID: 8-4-4-4-12 hex digits, then a boundary. */
                if (i + 36 <= n && u[i + 8] == '-' && u[i + 13] == '-' && u[i + 18] == '-' && u[i + 23] == '-') {
                    int ok = 1;
                    for (size_t j = i; j < i + 36 && ok; j++) {
                        if (j == i + 8 || j == i + 13 || j == i + 18 || j == i + 23) continue;
                        if (!HAS(j, HEX)) ok = 0;
                    }
                    if (ok && BOUNDARY(i + 36)) { end = i + 36; kind = "<uuid>"; }
                }
                if (!kind && b == '0' && i + 1 < n && u[i + 1] == 'x') {
                    size_t j = i + 2;
                    while (j < n && HAS(j, HEX)) j++;
                    if (j > i + 2 && BOUNDARY(j)) { end = j; kind = "<addr>"; }
                }
                if (!kind) {
                    size_t j = i;
                    while (j < n && HAS(j, HEX)) j++;
                    if (j - i >= 16 && BOUNDARY(j)) { end = j; kind = "<hex>"; }
                }
                if (!kind && HAS(i, DIGIT)) {
                    size_t j = i + 1;
                    while (j < n && HAS(j, DIGIT)) j++;
                    if (j + 1 < n && u[j] == '.' && HAS(j + 1, DIGIT)) {
                        j += 2;
                        while (j < n && HAS(j, DIGIT)) j++;
                    }
                    end = j;
                    kind = "<n>";
                }
            } else if (b == '/' && (i == 0 || u[i - 1] != '.')) {
                /* A path: a segment, then at least one more slash. A space continues a segment only
                   before `Support/`. */
#define SEGMENT_BYTE(j) (u[(j)] == ' ' ? ((j) + 8 < n && memcmp(u + (j) + 1, "Support/", 8) == 0) : !HAS((j), SEGMENT_STOP))
                size_t j = i + 1;
                while (j < n && SEGMENT_BYTE(j)) j++;
                if (j > i + 1 && j < n && u[j] == '/') {
                    while (j < n && u[j] == '/') {
                        j++;
                        while (j < n && SEGMENT_BYTE(j)) j++;
                    }
                    end = j;
                    kind = "<path>";
                }
#undef SEGMENT_BYTE
            }
        }
        if (kind) {
            keep_capped(&h, u + copied, i - copied, &room);
            keep_capped(&h, (const uint8_t *)kind, strlen(kind), &room);
            if (room == 0) { *hash = value(&h); return 1; }
            copied = end;
            i = end;
            word_before = HAS(end - 1, WORD) != 0;
        } else if (HAS(i, WORD)) {
            i++;
            while (i < n && HAS(i, WORD)) i++;
            word_before = 1;
        } else {
            i++;
            word_before = 0;
        }
        if (i - copied >= room) break;  /* what is kept from here on is past the limit */
    }
#undef HAS
#undef BOUNDARY
    keep_capped(&h, u + copied, n - copied, &room);
    *hash = value(&h);
    return 1;
}
