#ifndef CDLOG_CSCAN_HEADERS_H
#define CDLOG_CSCAN_HEADERS_H
/* Line headers: timestamps, `Process[pid:tid]`, the Xcode console / NSLog prefix. */
#include <stddef.h>
#include <stdint.h>

/// Spans in a line header (`LineHeader`): timestamp, process, pid, thread, subsystem, category, level.
#define CSCAN_HEADER_SPANS 7

/// `YYYY-MM-DD HH:MM:SS` (`T` accepted at 10) at `start`, with optional `.fraction` and optional `±HHMM`,
/// `±HH:MM` or `Z`: returns the index after it, or -1. The fixed part is tested eight bytes at a time, so
/// continuation lines fail at the first word. Reads only `p[0..<n]`.
long cscan_timestamp(const unsigned char *p, size_t n, size_t start);

/// `Process[pid]` or `Process[pid:tid]` (tid decimal or hex, optional `0x`) at `start`, its `[` within
/// `limit` bytes; the process name may hold spaces and parentheses (`App(CoreData)[12]`). Returns the
/// index after the `]` and writes the process, pid and tid ranges (lower, upper; tid -1, 0 when absent)
/// to `ranges`, or returns -1.
long cscan_process_with_pid(const unsigned char *p, size_t n, size_t start, size_t limit, int32_t ranges[6]);

/// The Xcode console / NSLog prefix `2021-08-10 15:27:55.123456+0800 App[1234:567890] `, with an optional
/// `[category]` or `[subsystem:category]` after it (no blank inside, closed within 120 bytes): returns
/// where the message starts, or -1 for a line without the prefix (a continuation line). Writes the
/// `CSCAN_HEADER_SPANS` spans as (lower, upper) pairs, (-1, 0) for an absent one. Lines are cut at
/// `INT32_MAX` bytes, so every index fits a span.
/// The usual prefix (`YYYY-MM-DD HH:MM:SS.ffffff±HHMM Name[pid:tid]`, a short name, decimal ids) is
/// tested on a fast path, 32 bytes of timestamp in two SIMD steps; any other line takes the general one.
long cscan_nslog_header(const unsigned char *p, size_t n, int32_t spans[CSCAN_HEADER_SPANS * 2]);

/// A line format's header parser as `cscan_nslog_header`: returns where the message starts, or -1 for
/// a line that does not start an entry.
typedef long (*cscan_header_parser)(const unsigned char *line, size_t length, int32_t *spans);

#endif
