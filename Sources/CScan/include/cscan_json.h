#ifndef CDLOG_CSCAN_JSON_H
#define CDLOG_CSCAN_JSON_H
/* JSON: the plain prefix a string holds unescaped, and a scan of an object's top-level members. */
#include <stddef.h>

/// Length of the longest prefix of `bytes` that a JSON string can hold unescaped: the index of the first
/// byte below 0x20, `"`, `\\` or 0x7F, or `length` when there is none. Eight bytes per step.
size_t cscan_json_plain_prefix(const unsigned char *bytes, size_t length);

/// Where `cscan_json_next_member` is in an object. Start with all fields 0 except `after_object` = -1
/// and `splitter_agrees` = 1.
typedef struct {
    size_t position;
    int started;
    /// The index after the object's closing `}` once the scan reached it; -1 while it has not (or
    /// never will: malformed or cut-off input).
    long after_object;
    /// Cleared when a bare value (number, `true`, junk) holds a quote or a bracket.
    int splitter_agrees;
} cscan_json_cursor;

/// One top-level member: the key's raw bytes and the value's range, inside the quotes for strings
/// (still escaped), the text for bare values. Nested objects and arrays are skipped, not reported.
typedef struct {
    long key_start, key_end, value_start, value_end;
    int is_string;
} cscan_json_member;

/// Reads the next top-level member of the JSON object in `bytes[0..<length]` (leading white space
/// allowed). Returns 1 and fills `member`, or 0 when there are no more: at the object's `}` (then
/// `after_object` is set) or where the input stops making sense (an unterminated string value is still
/// reported, cut at the end). Strings are skipped sixteen bytes a step; nesting is tracked with a
/// counter; never reads outside the buffer.
int cscan_json_next_member(const unsigned char *bytes, size_t length, cscan_json_cursor *cursor, cscan_json_member *member);

#endif
