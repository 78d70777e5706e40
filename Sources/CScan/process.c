#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#endif
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

int cscan_release_file_pages(void) {
#ifdef __linux__
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return 0;
    char line[512];
    int released = 0;
    while (fgets(line, sizeof line, maps)) {
        /* A line longer than the buffer (a long path): its rest is skipped, never read as a line of its own. */
        if (!strchr(line, '\n')) {
            int c;
            while ((c = fgetc(maps)) != EOF && c != '\n') {}
        }
        unsigned long start, end, offset, inode;
        char perms[5], device[16];
        if (sscanf(line, "%lx-%lx %4s %lx %15s %lu", &start, &end, perms, &offset, device, &inode) != 6) continue;
        /* Read-only, private, file-backed: the binary's code and constant data. A clean page is dropped and read
           again from the file when touched (from the page cache, or from the disk where the kernel evicted it). A
           page the loader wrote (relocations) is anonymous now: it goes to swap where there is swap, or stays, and
           its contents are never lost. Writable and shared mappings are never touched. */
        if (inode == 0 || perms[0] != 'r' || perms[1] != '-' || perms[3] != 'p') continue;
        if (madvise((void *)start, end - start, MADV_PAGEOUT) == 0) released = 1;
    }
    fclose(maps);
    return released;
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
