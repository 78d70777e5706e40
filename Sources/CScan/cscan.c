#define _GNU_SOURCE
#include <string.h>
#include "cscan.h"

long cscan_find(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len) {
    if (needle_len == 0) return 0;
    const void *found = memmem(haystack, haystack_len, needle, needle_len);
    return found ? (long)((const char *)found - (const char *)haystack) : -1;
}

size_t cscan_dfa_next_accept(const unsigned char *classes, const unsigned short *transitions, size_t width,
                             const unsigned char *accepting, const unsigned char *subject, size_t from,
                             size_t length, unsigned int *state) {
    size_t s = *state;
    for (size_t i = from; i < length; i++) {
        s = transitions[s * width + classes[subject[i]]];
        if (accepting[s]) {
            *state = (unsigned int)s;
            return i;
        }
    }
    *state = (unsigned int)s;
    return length;
}
