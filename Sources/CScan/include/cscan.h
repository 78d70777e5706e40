#ifndef CDLOG_CSCAN_H
#define CDLOG_CSCAN_H
#include <stddef.h>

/// Returns the offset of the first occurrence of `needle` in `haystack`, or -1.
/// A thin wrapper over the C library's memmem (a GNU/BSD extension Swift does not import on Linux).
long cscan_find(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len);

#endif
