#define _GNU_SOURCE
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
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

struct cscan_once {
    atomic_int done;
    pthread_mutex_t mutex;
};

cscan_once *cscan_once_create(void) {
    cscan_once *once = malloc(sizeof *once);
    if (!once) abort();
    atomic_init(&once->done, 0);
    pthread_mutex_init(&once->mutex, NULL);
    return once;
}

void cscan_once_destroy(cscan_once *once) {
    pthread_mutex_destroy(&once->mutex);
    free(once);
}

int cscan_once_enter(cscan_once *once) {
    if (atomic_load_explicit(&once->done, memory_order_acquire)) return 0;
    pthread_mutex_lock(&once->mutex);
    if (atomic_load_explicit(&once->done, memory_order_relaxed)) {
        pthread_mutex_unlock(&once->mutex);
        return 0;
    }
    return 1;
}

void cscan_once_leave(cscan_once *once) {
    atomic_store_explicit(&once->done, 1, memory_order_release);
    pthread_mutex_unlock(&once->mutex);
}
