#ifndef CDLOG_CSCAN_WINDOW_H
#define CDLOG_CSCAN_WINDOW_H
/* The literal scanner: anchored four-byte windows hashed into a filter, every literal occurrence in one pass. */
#include <stddef.h>
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

#endif
