#ifndef CDLOG_CSCAN_BYTES_H
#define CDLOG_CSCAN_BYTES_H
/* Byte search: exact and caseless, byte counts, the byte-frequency table. */
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

/// How many of the `length` bytes at `bytes` equal `byte` (thirty-two a step where SSE2 is available).
size_t cscan_count_byte(const void *bytes, size_t length, unsigned char byte);

/// 1 when the `n` bytes at `p` open with a stack frame printed without a frame number, else 0: one token of
/// symbol bytes (letters, digits, `_`, `.`, `$`; two at least) and a space, then
/// - `(in Image)` (no blank inside), then the end, a line break, ` +`, ` (`, ` [` or ` file.c:12`;
/// - `+0x` and four hex digits or more, a space and a symbol's first byte (Sentry's `image +0x… symbol`);
/// - `0x` and eight hex digits or more, then only blanks to the end or a line break (`symbol 0x…`).
/// Asked of every bare console line, so the common case (a word and a space and a letter) costs the word.
int cscan_symbol_frame(const unsigned char *p, size_t n);

/// 1 when the `n` bytes at `p` are a frame printed in columns without a frame number, else 0: blanks, one token
/// of symbol bytes (an image's name, 64 bytes at most), two blanks or more, `0x` and eight hex digits or more,
/// a blank, then a symbol's first non-blank byte (`libsystem_kernel    0x1decd56c8  mach_msg2_trap`, as Sentry
/// prints an App Hang). Asked of every bare console line that could continue an entry: the common case (a word
/// and one space) costs the word.
int cscan_column_frame(const unsigned char *p, size_t n);

#endif
