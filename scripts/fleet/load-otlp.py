#!/usr/bin/env python3
"""Load cdlog OTLP/JSON lines into the OpenTelemetry Collector's `otel_logs` table, in chDB (issue 28).

    scripts/fleet/load-otlp.py [--db DIR] [--batch N] PATH... [--query FILE]... [--param NAME=VALUE]...

PATHs are cdlog `--format otlp` outputs (one OTLP `LogsData` JSON object a line) or folders of them (every
`*.jsonl` / `*.json` file below, in name order). The rows are exactly those the Collector's `clickhouse`
exporter would write for the same lines read by its `otlpjsonfile` receiver, so the queries in
scripts/fleet/queries/ give the same answers here as on a ClickHouse server fed by scripts/fleet/otelcol.yaml.

The mapping follows the exporter's logs INSERT (exporter/clickhouseexporter, logs pipeline with Map columns):
  Timestamp           the record's timeUnixNano, or its observedTimeUnixNano when that is 0
  TraceId / SpanId    lowercase hex, '' when absent or all zeros
  TraceFlags          flags (its low 8 bits, the W3C trace flags)
  SeverityText/Number as given
  ServiceName         the resource's `service.name` ('' when absent)
  Body                the body as a string (pcommon.Value.AsString: strings as is, other values as JSON text)
  ResourceSchemaUrl, ResourceAttributes, ScopeSchemaUrl, ScopeName, ScopeVersion, ScopeAttributes,
  LogAttributes       attributes flattened to a string map with the same AsString rule (intValue 4 -> '4')
  EventName           eventName
The data is read line by line and inserted in batches (--batch rows, default 20000); memory stays bounded by
one batch. The database lives in a chDB persistent session folder: --db DIR, or a new temporary folder that
is printed (and kept, so it can be queried again with --db).

--query FILE runs a query after loading (repeatable) and prints its rows as JSON lines; --param NAME=VALUE
sets a ClickHouse query parameter such as {version:String}. Only python3's standard library and `chdb`
(pip install chdb) are needed. Exit status: 0 success, 2 bad usage or unreadable / invalid input.
"""

import argparse
import base64
import json
import math
import os
import sys
import tempfile
import time
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(HERE, "schema.sql")
TABLE = "otel.otel_logs"

# proto3 JSON allows an enum by name as well as by number.
SEVERITY_NAMES = {"SEVERITY_NUMBER_UNSPECIFIED": 0}
for _i, _n in enumerate(["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"]):
    SEVERITY_NAMES["SEVERITY_NUMBER_" + _n] = 4 * _i + 1
    for _k in range(2, 5):
        SEVERITY_NAMES["SEVERITY_NUMBER_%s%d" % (_n, _k)] = 4 * _i + _k

# The columns the exporter's INSERT names, and the types the rows are read with before conversion.
INPUT_STRUCTURE = ", ".join([
    "ts Int64", "TraceId String", "SpanId String", "TraceFlags UInt8", "SeverityText String",
    "SeverityNumber UInt8", "ServiceName String", "Body String", "ResourceSchemaUrl String",
    "ResourceAttributes Map(String, String)", "ScopeSchemaUrl String", "ScopeName String",
    "ScopeVersion String", "ScopeAttributes Map(String, String)", "LogAttributes Map(String, String)",
    "EventName String",
])
INSERT_HEAD = (
    "INSERT INTO " + TABLE + " (Timestamp, TraceId, SpanId, TraceFlags, SeverityText, SeverityNumber, "
    "ServiceName, Body, ResourceSchemaUrl, ResourceAttributes, ScopeSchemaUrl, ScopeName, ScopeVersion, "
    "ScopeAttributes, LogAttributes, EventName) "
    "SELECT fromUnixTimestamp64Nano(ts, 'UTC'), TraceId, SpanId, TraceFlags, SeverityText, SeverityNumber, "
    "ServiceName, Body, ResourceSchemaUrl, ResourceAttributes, ScopeSchemaUrl, ScopeName, ScopeVersion, "
    "ScopeAttributes, LogAttributes, EventName FROM format(JSONEachRow, '" + INPUT_STRUCTURE + "', "
)


class InputError(Exception):
    pass


def go_float(f):
    """A double as pdata's AsString writes it (ES6 number-to-string, the way Go's encoding/json does)."""
    if math.isinf(f) or math.isnan(f):
        return "json: unsupported value: " + ("NaN" if math.isnan(f) else ("+Inf" if f > 0 else "-Inf"))
    a = abs(f)
    if a != 0 and (a < 1e-6 or a >= 1e21):
        # Shortest digits in exponent form; Go writes e+21, e-7 (Python writes e+21, e-07).
        s = repr(f)
        mant, exp = s.split("e")
        if exp.startswith("-0"):
            exp = "-" + exp[2:]
        return mant + "e" + exp
    return format(Decimal(repr(f)).normalize(), "f")


def raw_value(v):
    """The Go value pdata's AsRaw gives, for JSON marshalling of maps and arrays."""
    if not isinstance(v, dict):
        raise InputError("an AnyValue is not an object")
    if "stringValue" in v:
        return v["stringValue"]
    if "boolValue" in v:
        return bool(v["boolValue"])
    if "intValue" in v:
        return int(v["intValue"])
    if "doubleValue" in v:
        return float(v["doubleValue"])
    if "bytesValue" in v:
        return v["bytesValue"]  # base64 text, as json.Marshal writes []byte
    if "arrayValue" in v:
        return [raw_value(x) for x in (v["arrayValue"] or {}).get("values", []) or []]
    if "kvlistValue" in v:
        return {kv.get("key", ""): raw_value(kv.get("value", {}) or {})
                for kv in (v["kvlistValue"] or {}).get("values", []) or []}
    return None


def go_json(raw):
    """encoding/json's compact text: sorted keys, HTML-safe escaping, ES6 floats."""
    def enc(x):
        if x is None:
            return "null"
        if x is True:
            return "true"
        if x is False:
            return "false"
        if isinstance(x, int):
            return str(x)
        if isinstance(x, float):
            return go_float(x)
        if isinstance(x, str):
            s = json.dumps(x, ensure_ascii=False)
            return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                    .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
        if isinstance(x, list):
            return "[" + ",".join(enc(e) for e in x) + "]"
        return "{" + ",".join(enc(k) + ":" + enc(x[k]) for k in sorted(x)) + "}"
    return enc(raw)


def as_string(v):
    """pcommon.Value.AsString for an OTLP/JSON AnyValue."""
    if not v:
        return ""
    if not isinstance(v, dict):
        raise InputError("an AnyValue is not an object")
    if "stringValue" in v:
        return v["stringValue"] or ""
    if "boolValue" in v:
        return "true" if v["boolValue"] else "false"
    if "intValue" in v:
        return str(int(v["intValue"]))
    if "doubleValue" in v:
        return go_float(float(v["doubleValue"]))
    if "bytesValue" in v:
        # proto3 JSON carries bytes as base64; AsString writes them as standard base64 again.
        return base64.b64encode(base64.b64decode(v["bytesValue"] or "")).decode("ascii")
    if "arrayValue" in v or "kvlistValue" in v:
        return go_json(raw_value(v))
    return ""


def attributes(kvs):
    out = {}
    for kv in kvs or []:
        out[kv.get("key", "")] = as_string(kv.get("value"))
    return out


def hex_id(s, width):
    s = (s or "").lower()
    if not s or set(s) == {"0"}:
        return ""
    if len(s) != width or any(c not in "0123456789abcdef" for c in s):
        raise InputError("bad trace or span id %r" % s)
    return s


def severity_number(v):
    if v is None:
        return 0
    if isinstance(v, str) and not v.lstrip("-").isdigit():
        if v not in SEVERITY_NAMES:
            raise InputError("unknown severityNumber %r" % v)
        return SEVERITY_NAMES[v]
    return int(v) & 0xFF


def rows_of(doc):
    """The otel_logs rows of one LogsData object, in the exporter's order."""
    if not isinstance(doc, dict):
        raise InputError("a line is not a JSON object")
    for rl in doc.get("resourceLogs", []) or []:
        resource = rl.get("resource", {}) or {}
        res_attr = attributes(resource.get("attributes"))
        service = res_attr.get("service.name", "")
        res_url = rl.get("schemaUrl", "") or ""
        for sl in rl.get("scopeLogs", []) or []:
            scope = sl.get("scope", {}) or {}
            scope_attr = attributes(scope.get("attributes"))
            scope_url = sl.get("schemaUrl", "") or ""
            for r in sl.get("logRecords", []) or []:
                ts = int(r.get("timeUnixNano", 0) or 0)
                if ts == 0:
                    ts = int(r.get("observedTimeUnixNano", 0) or 0)
                yield {
                    "ts": ts,
                    "TraceId": hex_id(r.get("traceId"), 32),
                    "SpanId": hex_id(r.get("spanId"), 16),
                    "TraceFlags": int(r.get("flags", 0) or 0) & 0xFF,
                    "SeverityText": r.get("severityText", "") or "",
                    "SeverityNumber": severity_number(r.get("severityNumber")),
                    "ServiceName": service,
                    "Body": as_string(r.get("body")),
                    "ResourceSchemaUrl": res_url,
                    "ResourceAttributes": res_attr,
                    "ScopeSchemaUrl": scope_url,
                    "ScopeName": scope.get("name", "") or "",
                    "ScopeVersion": scope.get("version", "") or "",
                    "ScopeAttributes": scope_attr,
                    "LogAttributes": attributes(r.get("attributes")),
                    "EventName": r.get("eventName", "") or "",
                }


def sql_string(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def input_files(paths):
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for f in files:
                    if f.endswith(".jsonl") or f.endswith(".json"):
                        found.append(os.path.join(root, f))
            yield from sorted(found)
        elif os.path.exists(p):
            yield p
        else:
            raise InputError("%s: no such file or folder" % p)


def open_session(db):
    from chdb import session  # imported here so --help works without chdb
    s = session.Session(db)
    # A batch travels inside the INSERT text; let it be larger than the default 256 KiB query size.
    s.query("SET max_query_size = 1073741824")
    return s


def create_schema(s, schema_path):
    with open(schema_path, encoding="utf-8") as f:
        text = f.read()
    statement = []
    for line in text.splitlines():
        if line.lstrip().startswith("--"):
            continue
        statement.append(line)
        if line.rstrip().endswith(";"):
            sql = "\n".join(statement).strip().rstrip(";")
            if sql:
                s.query(sql)
            statement = []
    if "\n".join(statement).strip():
        s.query("\n".join(statement))


def load(s, paths, batch=20000, log=None):
    """Reads the OTLP lines of paths and inserts their rows; returns (files, lines, rows)."""
    pending = []
    nfiles = nlines = nrows = 0

    def flush():
        if pending:
            s.query(INSERT_HEAD + sql_string("\n".join(pending)) + ")")
            pending.clear()

    for path in input_files(paths):
        nfiles += 1
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                nlines += 1
                try:
                    doc = json.loads(line)
                    for row in rows_of(doc):
                        pending.append(json.dumps(row, ensure_ascii=False))
                        nrows += 1
                except (ValueError, TypeError, AttributeError, InputError) as e:
                    raise InputError("%s:%d: not an OTLP LogsData line (%s)" % (path, number, e))
                if len(pending) >= batch:
                    flush()
    flush()
    return nfiles, nlines, nrows


def run_query(s, path, params):
    with open(path, encoding="utf-8") as f:
        sql = f.read().strip().rstrip(";")
    result = s.query(sql, "JSONEachRow", params=params) if params else s.query(sql, "JSONEachRow")
    return [json.loads(l) for l in str(result).splitlines() if l.strip()]


def main(argv):
    ap = argparse.ArgumentParser(description="Load cdlog OTLP/JSON lines into otel_logs in chDB.")
    ap.add_argument("paths", nargs="*", metavar="PATH", help="OTLP/JSON lines files or folders of them")
    ap.add_argument("--db", help="chDB session folder (default: a new temporary folder, kept)")
    ap.add_argument("--schema", default=DEFAULT_SCHEMA, help="DDL to run first (default: schema.sql here)")
    ap.add_argument("--batch", type=int, default=20000, help="rows per INSERT (default 20000)")
    ap.add_argument("--query", action="append", default=[], metavar="FILE", help="run this query after loading")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="a query parameter")
    ap.add_argument("--quiet", action="store_true", help="no summary line on stderr")
    a = ap.parse_args(argv)
    if a.batch < 1:
        ap.error("--batch must be at least 1")
    params = {}
    for p in a.param:
        if "=" not in p:
            ap.error("--param wants NAME=VALUE, got %r" % p)
        k, v = p.split("=", 1)
        params[k] = v
    try:
        import chdb  # noqa: F401
    except ImportError:
        print("load-otlp: chdb is not installed (pip install chdb)", file=sys.stderr)
        return 2
    missing = [p for p in a.paths if not os.path.exists(p)]
    if missing:
        print("load-otlp: %s: no such file or folder" % missing[0], file=sys.stderr)
        return 2
    db = a.db or tempfile.mkdtemp(prefix="cdlog-otel-")
    s = open_session(db)
    try:
        create_schema(s, a.schema)
        start = time.monotonic()
        nfiles, nlines, nrows = load(s, a.paths, a.batch)
        elapsed = time.monotonic() - start
        if not a.quiet:
            print("load-otlp: %d rows from %d lines in %d files into %s (%.2f s)"
                  % (nrows, nlines, nfiles, db, elapsed), file=sys.stderr)
        for q in a.query:
            start = time.monotonic()
            rows = run_query(s, q, params)
            for r in rows:
                print(json.dumps(r, ensure_ascii=False))
            if not a.quiet:
                print("load-otlp: %s: %d rows (%.3f s)" % (q, len(rows), time.monotonic() - start),
                      file=sys.stderr)
    except BrokenPipeError:
        raise
    except (InputError, OSError, UnicodeDecodeError) as e:
        print("load-otlp: %s" % e, file=sys.stderr)
        return 2
    finally:
        s.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # the reader of stdout went away (| head): end quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
