#ifndef CDLOG_CSCAN_H
#define CDLOG_CSCAN_H
#include <stddef.h>

/// Returns the offset of the first occurrence of `needle` in `haystack`, or -1.
/// A thin wrapper over the C library's memmem (a GNU/BSD extension Swift does not import on Linux).
long cscan_find(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len);

#endif

/// Runs a byte-class DFA over `subject[from..<length]` starting in `*state`. Stops at the first
/// position whose new state is accepting (`accepting[state] != 0`) and returns that position; returns
/// `length` when the end is reached. `*state` holds the state after the returned position.
/// `transitions` has `width` entries per state; `classes` maps each byte to its class.
size_t cscan_dfa_next_accept(const unsigned char *classes, const unsigned short *transitions, size_t width,
                             const unsigned char *accepting, const unsigned char *subject, size_t from,
                             size_t length, unsigned int *state);
