#define _GNU_SOURCE
#include <string.h>
#include "cscan.h"

long cscan_find(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len) {
    if (needle_len == 0) return 0;
    const void *found = memmem(haystack, haystack_len, needle, needle_len);
    return found ? (long)((const char *)found - (const char *)haystack) : -1;
}

size_t cscan_dfa_next_accept(const unsigned char *classes, const unsigned int *transitions,
                             unsigned int accept_from, const unsigned char *subject, size_t from,
                             size_t length, unsigned int *state) {
    unsigned int s = *state;
    for (size_t i = from; i < length; i++) {
        s = transitions[s + classes[subject[i]]];
        if (s >= accept_from) {
            *state = s;
            return i;
        }
    }
    *state = s;
    return length;
}
