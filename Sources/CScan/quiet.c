#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include "cscan_quiet.h"
#include "cscan_bytes.h"
#include "cscan_private.h"

struct cscan_gate_marks {
    uint32_t generation;  /* of the message being gated */
    uint32_t *seen;       /* per literal id: the generation that last found it */
    int32_t *found;       /* the distinct literals found in this generation, in the order found */
    size_t literal_count;
};

cscan_gate_marks *cscan_gate_marks_create(size_t literal_count) {
    cscan_gate_marks *marks = malloc(sizeof *marks);
    size_t slots = literal_count ? literal_count : 1;
    if (!marks) abort();
    marks->seen = calloc(slots, sizeof *marks->seen);
    marks->found = malloc(slots * sizeof *marks->found);
    if (!marks->seen || !marks->found) abort();
    marks->generation = 0;
    marks->literal_count = literal_count;
    return marks;
}

void cscan_gate_marks_destroy(cscan_gate_marks *marks) {
    if (!marks) return;
    free(marks->seen);
    free(marks->found);
    free(marks);
}

/* Whether literal `id` is in `subject`: marked found by the scan (`seen[id] == generation`), or found
   now when searched on demand. */
static inline int cscan_gate_literal_present(const cscan_rule_gate *g, const uint32_t *seen, uint32_t generation, int32_t id,
                                             const unsigned char *subject, size_t length) {
    if (seen[id] == generation) return 1;
    if (!g->on_demand[id]) return 0;
    const unsigned char *needle = g->on_demand_bytes + g->on_demand_start[id];
    size_t n = (size_t)(g->on_demand_start[id + 1] - g->on_demand_start[id]);
    return (g->caseless[id] ? cscan_find_caseless(subject, length, needle, n) : cscan_find(subject, length, needle, n)) >= 0;
}

int cscan_rule_clauses_hold(const cscan_rule_gate *g, const uint32_t *seen, uint32_t generation, int32_t rule,
                            const unsigned char *subject, size_t length) {
    for (int32_t c = g->rule_clause_start[rule]; c < g->rule_clause_start[rule + 1]; c++) {
        int held = 0;
        for (int32_t k = g->clause_literal_start[c]; k < g->clause_literal_start[c + 1] && !held; k++) {
            held = cscan_gate_literal_present(g, seen, generation, g->clause_literal_ids[k], subject, length);
        }
        if (!held) return 0;
    }
    return 1;
}

/* Whether a rule whose pattern needs `literal` has its clauses held in `subject`. */
static inline int cscan_gate_literal_admits(const cscan_rule_gate *g, const cscan_gate_marks *marks, int32_t literal,
                                            const unsigned char *subject, size_t length) {
    for (int32_t k = g->literal_rule_start[literal]; k < g->literal_rule_start[literal + 1]; k++) {
        if (cscan_rule_clauses_hold(g, marks->seen, marks->generation, g->literal_rules[k], subject, length)) return 1;
    }
    return 0;
}

int cscan_gate_admits(const cscan_rule_gate *g, cscan_gate_marks *marks, const unsigned char *subject, size_t length,
                      size_t readable, int32_t *scratch, size_t capacity) {
    size_t position = 0, found = 0;
    int started = 0;
    while (position < length) {
        size_t count = cscan_window_scan(g->window, subject, length, readable, &position, scratch, capacity);
        if (count == 0) continue;
        if (!started) {
            /* A new generation only for a message with some literal: most have none. */
            started = 1;
            if (++marks->generation == 0) {
                memset(marks->seen, 0, (marks->literal_count ? marks->literal_count : 1) * sizeof *marks->seen);
                marks->generation = 1;
            }
        }
        for (size_t k = 0; k < count; k++) {
            int32_t id = scratch[k];
            if (marks->seen[id] == marks->generation) continue;
            marks->seen[id] = marks->generation;
            marks->found[found++] = id;
            /* Most rules have no clause: a literal of one of them decides at once. */
            if (g->literal_admits_alone[id]) return 1;
        }
    }
    /* Rules with clauses, once the whole message's literals are known (a clause literal may come after
       the pattern literal). */
    for (size_t k = 0; k < found; k++) {
        if (cscan_gate_literal_admits(g, marks, marks->found[k], subject, length)) return 1;
    }
    return 0;
}

long cscan_skip_quiet_lines(const cscan_rule_gate *gate, cscan_gate_marks *marks, int32_t *scratch, size_t capacity,
                            cscan_header_parser header, const unsigned char *message, size_t message_length,
                            size_t message_readable, const unsigned char *rest, size_t rest_length, size_t max_line,
                            size_t *consumed_bytes, int *stopped_at_loud) {
    *consumed_bytes = 0;
    *stopped_at_loud = 0;
    /* The candidate is the entry before `pos`: first the one of `message`, then the last line looked at.
       The header line at `pos` ends it; only then is its message scanned (a multi-line entry's first line
       is not: it goes back to the caller unscanned, to be built and classified whole). */
    const unsigned char *candidate = message;
    size_t candidate_length = message_length, candidate_readable = message_readable;
    int first = 1;
    long lines = 0;
    size_t pos = 0, consumed = 0;
    int32_t spans[CSCAN_HEADER_SPANS * 2];
    while (pos < rest_length) {
        const unsigned char *newline = memchr(rest + pos, '\n', rest_length - pos);
        if (!newline) break;
        size_t next = (size_t)(newline - rest) + 1, end = next - 1;
        if (end > pos && rest[end - 1] == '\r') end--;
        if (end - pos > max_line) break;
        long message_start = header(rest + pos, end - pos, spans);
        if (message_start < 0) break;
        if (cscan_gate_admits(gate, marks, candidate, candidate_length, candidate_readable, scratch, capacity)) {
            *stopped_at_loud = !first;
            break;
        }
        if (first) first = 0; else { lines++; consumed = pos; }
        size_t m = (size_t)message_start < end - pos ? (size_t)message_start : end - pos;
        candidate = rest + pos + m;
        candidate_length = end - pos - m;
        candidate_readable = rest_length - pos - m;
        pos = next;
    }
    if (first) return -1;
    *consumed_bytes = consumed;
    return lines;
}
