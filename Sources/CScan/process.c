#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "cscan_process.h"

int cscan_tune_malloc(int arenas) {
#ifdef __GLIBC__
    return mallopt(M_ARENA_MAX, arenas) && mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#else
    (void)arenas;
    return 0;
#endif
}

int cscan_trim_heap(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
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
