#ifndef CDLOG_CSCAN_PROCESS_H
#define CDLOG_CSCAN_PROCESS_H
/* Process set-up: malloc tuning and a run-once latch. */

/// Tunes glibc's malloc for a streaming tool: at most `arenas` arenas (`M_ARENA_MAX`) and a fixed
/// 128 KiB mmap threshold (`M_MMAP_THRESHOLD`, which also turns off glibc's raising of that threshold
/// once a large block is freed, after which large blocks pile up in the heap). Does nothing on other
/// C libraries. Returns 1 when the settings were applied.
int cscan_tune_malloc(int arenas);

/// Returns the heap's free memory at its top and in its free pages to the system (glibc's `malloc_trim(0)`):
/// called once after start-up, whose parsing frees most of what it allocated. Does nothing on other C
/// libraries. Returns 1 when memory was released.
int cscan_trim_heap(void);

/// Asks the kernel to drop the resident pages of the process's read-only file mappings (the binary's code and
/// constants, `MADV_PAGEOUT`): start-up reads the embedded rule files and runs code that classification never
/// runs again; the pages classification needs are read back from the file when first touched. Linux only;
/// returns 1 when a mapping was released, 0 where the kernel or the system does not support it.
int cscan_release_file_pages(void);

/// A run-once latch for lazy, thread-safe initialisation (e.g. JIT-compiling a pattern on first use).
/// `cscan_once_enter` returns 1 when the caller must do the work — it then holds the latch's lock and
/// must call `cscan_once_leave` — and 0 when the work is already done (one acquire load on that path).
/// Other threads entering meanwhile wait for the work to finish. The latch is heap-allocated because a
/// mutex must not move.
typedef struct cscan_once cscan_once;
cscan_once *cscan_once_create(void);
void cscan_once_destroy(cscan_once *once);
int cscan_once_enter(cscan_once *once);
void cscan_once_leave(cscan_once *once);

#endif
