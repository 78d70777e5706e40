#ifndef CDLOG_CSCAN_QUIET_H
#define CDLOG_CSCAN_QUIET_H
/* Quiet entries: whether a message's literals admit some rule, and the walk that counts one-line entries none admits. */
#include <stddef.h>
#include <stdint.h>
#include "cscan_window.h"
#include "cscan_headers.h"

/// The prefilter's rule index (`Prefilter.Tables`) as C reads it, to tell whether a message's literals
/// admit some rule: one of the literals of one of its patterns occurs, and for each of its `require`
/// clauses one of that clause's literals. Built once, then read-only (threads may share it).
typedef struct {
    const cscan_window_tables *window;
    size_t literal_count;
    const int32_t *literal_rule_start;   /* per literal id: its rules are literal_rules[literal_rule_start[id] ..< [id + 1]] */
    const int32_t *literal_rules;
    const unsigned char *literal_admits_alone;  /* per literal id: 1 when one of its rules has no clause */
    const int32_t *rule_clause_start;    /* per rule: its clauses are rule_clause_start[r] ..< [r + 1] */
    const int32_t *clause_literal_start; /* per clause: its literals are clause_literal_ids[clause_literal_start[c] ..< [c + 1]] */
    const int32_t *clause_literal_ids;
    /* Short `require` literals that no pattern needs are not scanned but searched for when a clause
       needs them: per literal id, 1 for those, whose bytes (lower-cased when caseless) are
       on_demand_bytes[on_demand_start[id] ..< [id + 1]]. */
    const unsigned char *on_demand;
    const uint32_t *on_demand_start;
    const unsigned char *on_demand_bytes;
    const unsigned char *caseless;        /* per literal id: 1 when ASCII case is ignored */
} cscan_rule_gate;

/// Whether every `require` clause of rule `rule` has one of its literals in `subject[0..<length]`: one
/// marked found (`seen[id] == generation`, per literal id), or, for a literal searched on demand, found
/// now by a search. The prefilter's check of a candidate rule, and the quiet walk's.
int cscan_rule_clauses_hold(const cscan_rule_gate *gate, const uint32_t *seen, uint32_t generation, int32_t rule,
                            const unsigned char *subject, size_t length);

/// One thread's marks of the literals found in the message being gated (`cscan_gate_admits`).
typedef struct cscan_gate_marks cscan_gate_marks;
/// Marks for a gate of `literal_count` literals; aborts when out of memory.
cscan_gate_marks *cscan_gate_marks_create(size_t literal_count);
void cscan_gate_marks_destroy(cscan_gate_marks *marks);

/// Whether some rule of `gate` may match `subject[0..<length]`, judged by its literals: 1 at the first
/// literal of a rule without clauses; otherwise, once the whole subject is scanned, 1 when some rule of
/// a literal found has every clause held, else 0. Every scanned literal of the gate must be anchored (none
/// of one or two bytes; on-demand ones may be any length). `marks` hold at least the gate's literal count;
/// `scratch` holds `capacity` ids, at least the largest bucket's anchor count. `readable` as for
/// `cscan_window_scan`.
int cscan_gate_admits(const cscan_rule_gate *gate, cscan_gate_marks *marks, const unsigned char *subject, size_t length,
                      size_t readable, int32_t *scratch, size_t capacity);

/// Quiet entries: one header line whose message admits no rule of `gate` (`cscan_gate_admits`).
/// `message` is the message of the entry whose header line was handed out last, with `message_readable`
/// bytes readable from it (its buffer going on to the end of `rest`, say); `rest` holds
/// the complete lines after it, as read (`\n`-terminated, `\r\n` accepted; a line without its `\n` is
/// not looked at). The entry is quiet when its message admits no rule and the
/// next line is a header line (which ends it). Returns -1 when it is not quiet or that is not known from
/// `rest`; otherwise how many of the following lines are quiet entries too, each confirmed by the header
/// line after it, and sets `*consumed_bytes` to their length (the bytes to skip). A line longer than
/// `max_line` stops the walk. A message is gated only once the header line after it is seen, so the
/// first line of a multi-line entry is not. `*stopped_at_loud` is set to 1 when the walk stopped at a
/// one-line entry (the line after the consumed ones) whose message admits a rule, else 0.
/// `header` must accept only lines that start an entry in any state (never blank, boilerplate or a
/// pasted crash report's first line): a digit-led timestamp prefix, for one.
long cscan_skip_quiet_lines(const cscan_rule_gate *gate, cscan_gate_marks *marks, int32_t *scratch, size_t capacity,
                            cscan_header_parser header, const unsigned char *message, size_t message_length,
                            size_t message_readable, const unsigned char *rest, size_t rest_length, size_t max_line,
                            size_t *consumed_bytes, int *stopped_at_loud);

#endif
