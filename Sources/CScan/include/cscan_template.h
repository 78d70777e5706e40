#ifndef CDLOG_CSCAN_TEMPLATE_H
#define CDLOG_CSCAN_TEMPLATE_H
/* Message templates: the masked form of a line, hashed without building it. */
#include <stddef.h>
#include <stdint.h>

/// Masks `text` as `TemplateMasker`'s byte scanner does (UUIDs, 0x addresses, long hex runs, numbers and paths
/// become `<uuid>`, `<addr>`, `<hex>`, `<n>`, `<path>`) and stores the `TemplateHash` of the first `limit`
/// bytes of the masked text in `*hash`; returns 1. Returns 0, storing nothing, when `text` holds `@`, `://`
/// or `Name=` (which only the reference regex masks). Reads at most `length` bytes; never allocates.
int cscan_template_hash(const uint8_t *text, size_t length, size_t limit, uint64_t *hash);
#endif
