#!/usr/bin/env python3
"""The checking half of scripts/fleet/test-clickhouse.sh (issue 28); run by it, not on its own.

    scripts/fleet/check-fleet.py --work DIR --cdlog PATH [--classify-seconds S]

DIR holds tickets/manifest.jsonl (generate-tickets.py) and out/*.otlp.jsonl (one `cdlog classify --format
otlp` output per ticket). This script
  1. parses every OTLP line strictly with protobuf's json_format.Parse into opentelemetry-proto's LogsData
     (unknown fields, wrong types and bad enum values fail) and builds, from the parsed messages, an
     independent model of the findings (fingerprint, app version, OS, ticket, user, time);
  2. loads out/ with scripts/fleet/load-otlp.py into a chDB folder and runs every query in
     scripts/fleet/queries/, timing each;
  3. checks the fingerprints query row for row against `cdlog aggregate --format json out/` and against the
     model, and the other three queries against the model and against the aggregate groups;
  4. prints the figures. Exit 0 when everything agrees, 1 on any mismatch.
"""

import argparse
import collections
import datetime as dt
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = os.path.join(HERE, "queries")

def _load(name, path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generator = _load("generate_tickets", os.path.join(HERE, "generate-tickets.py"))

failures = []


def fail(msg):
    failures.append(msg)
    print("test-clickhouse: MISMATCH: " + msg)


def iso_to_ns(s):
    """'2025-10-08T18:31:10.414310Z' (any number of fraction digits, or none) -> Unix nanoseconds."""
    if s is None:
        return None
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)", s)
    if not m:
        raise ValueError("not an ISO 8601 UTC time: %r" % s)
    base = dt.datetime.strptime(m.group(1) + "+0000", "%Y-%m-%dT%H:%M:%S%z")
    if m.group(3) != "Z":
        off = m.group(3).replace(":", "")
        base = dt.datetime.strptime(m.group(1) + off, "%Y-%m-%dT%H:%M:%S%z")
    ns = int(base.timestamp()) * 1_000_000_000
    return ns + int(((m.group(2) or "") + "000000000")[:9])


def ch_to_ns(s):
    """A DateTime64(9) in UTC as ClickHouse's JSON output writes it ('2025-10-08 18:31:10.414310000')."""
    if s is None:
        return None
    m = re.fullmatch(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.(\d{1,9}))?", s)
    if not m:
        raise ValueError("not a ClickHouse DateTime64: %r" % s)
    base = dt.datetime.strptime(m.group(1) + "+0000", "%Y-%m-%d %H:%M:%S%z")
    return int(base.timestamp()) * 1_000_000_000 + int(((m.group(2) or "") + "000000000")[:9])


def version_key(v):
    return [int(p) if p.isdigit() else 0 for p in v.split(".")]


def any_value_str(v):
    kind = v.WhichOneof("value")
    if kind is None:
        return ""
    if kind == "string_value":
        return v.string_value
    if kind == "int_value":
        return str(v.int_value)
    if kind == "bool_value":
        return "true" if v.bool_value else "false"
    return str(getattr(v, kind))


def validate_and_model(out_dir):
    """Strict protobuf parse of every line; returns (lines, records) with records as small dicts."""
    from google.protobuf import json_format
    from opentelemetry.proto.logs.v1.logs_pb2 import LogsData
    lines = 0
    records = []
    for path in sorted(glob.glob(os.path.join(out_dir, "*.otlp.jsonl"))):
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    fail("%s:%d: an empty line" % (path, number))
                    continue
                lines += 1
                msg = LogsData()
                try:
                    json_format.Parse(line, msg)
                except json_format.ParseError as e:
                    fail("%s:%d: not a valid OTLP LogsData: %s" % (path, number, e))
                    continue
                for rl in msg.resource_logs:
                    res = {kv.key: any_value_str(kv.value) for kv in rl.resource.attributes}
                    name, ver = res.get("os.name", ""), res.get("os.version", "")
                    os_ = (name + " " + ver) if name and ver else (name or ver or None)
                    for sl in rl.scope_logs:
                        for r in sl.log_records:
                            attrs = {kv.key: any_value_str(kv.value) for kv in r.attributes}
                            ts = r.time_unix_nano or r.observed_time_unix_nano
                            records.append({
                                "fingerprint": attrs.get("cdlog.fingerprint", ""),
                                "rule": attrs.get("cdlog.rule", ""),
                                "appVersion": res.get("service.version") or None,
                                "os": os_,
                                "ticket": res.get("cdlog.ticket") or "source:" + attrs.get("cdlog.source", ""),
                                "user": res.get("enduser.id", ""),
                                "ts": ts or None,
                                "event": r.event_name,
                                "firstLine": any_value_str(r.body).split("\n", 1)[0],
                            })
    return lines, records


def summarize(recs):
    times = [r["ts"] for r in recs if r["ts"]]
    return {
        "findings": len(recs),
        "tickets": len({r["ticket"] for r in recs}),
        "users": len({r["user"] for r in recs if r["user"]}),
        "firstSeen": min(times) if times else None,
        "lastSeen": max(times) if times else None,
    }


def expected_groups(records):
    groups = collections.defaultdict(list)
    for r in records:
        groups[(r["fingerprint"], r["appVersion"], r["os"])].append(r)
    out = []
    for (fp, ver, os_), recs in groups.items():
        g = {"fingerprint": fp, "rule": recs[0]["rule"], "appVersion": ver, "os": os_}
        g.update(summarize(recs))
        out.append(g)
    out.sort(key=lambda g: (-g["findings"], g["fingerprint"],
                            (g["appVersion"] is not None, g["appVersion"] or ""),
                            (g["os"] is not None, g["os"] or "")))
    return out


GROUP_KEYS = ["fingerprint", "rule", "appVersion", "os", "findings", "tickets", "users", "firstSeen", "lastSeen"]


def normalized(g, parse_time=None):
    """The compared keys of a group, its times as Unix nanoseconds (parse_time reads them when they are text)."""
    out = {k: g.get(k) for k in GROUP_KEYS}
    if parse_time:
        for k in ("firstSeen", "lastSeen"):
            out[k] = parse_time(out[k])
    return out


def compare_lists(what, got, want, limit=5):
    if got == want:
        return True
    fail("%s: %d rows, expected %d" % (what, len(got), len(want)) if len(got) != len(want) else "%s differs" % what)
    shown = 0
    for i in range(max(len(got), len(want))):
        a = got[i] if i < len(got) else None
        b = want[i] if i < len(want) else None
        if a != b:
            print("    row %d: got      %s" % (i, json.dumps(a, sort_keys=True)))
            print("    row %d: expected %s" % (i, json.dumps(b, sort_keys=True)))
            shown += 1
            if shown >= limit:
                break
    return False


def run_query(s, name, params=None):
    with open(os.path.join(QUERIES, name), encoding="utf-8") as f:
        sql = f.read().strip().rstrip(";")
    start = time.monotonic()
    res = s.query(sql, "JSONEachRow", params=params) if params else s.query(sql, "JSONEachRow")
    elapsed = time.monotonic() - start
    return [json.loads(l) for l in str(res).splitlines() if l.strip()], elapsed


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--cdlog", required=True)
    ap.add_argument("--classify-seconds", type=float, default=None)
    a = ap.parse_args(argv)
    out_dir = os.path.join(a.work, "out")
    manifest = [json.loads(l) for l in open(os.path.join(a.work, "tickets", "manifest.jsonl"), encoding="utf-8")]

    # 1. Strict OTLP validation and the independent model.
    start = time.monotonic()
    lines, records = validate_and_model(out_dir)
    validate_seconds = time.monotonic() - start
    findings = [r for r in records if r["fingerprint"]]
    if len(findings) != len(records):
        fail("%d log records without cdlog.fingerprint" % (len(records) - len(findings)))
    bad_fp = [r["fingerprint"] for r in findings if not re.fullmatch(r"[0-9a-f]{16}", r["fingerprint"])]
    if bad_fp:
        fail("fingerprints that are not 16 lowercase hex digits, e.g. %r" % bad_fp[0])
    if any(r["event"] != "cdlog.finding" for r in records):
        fail("log records whose eventName is not cdlog.finding")
    by_ticket = {t["ticket"]: t for t in manifest}
    for r in findings:
        t = by_ticket.get(r["ticket"])
        given_os = " ".join(x for x in (t["osName"], t["osVersion"]) if x) if t and t["osVersion"] else None
        if (t is None or r["user"] != t["user"]
                or (t["appVersion"] is not None and r["appVersion"] != t["appVersion"])
                or (given_os is not None and r["os"] != given_os)):
            fail("ticket %s: resource attributes differ from the --resource values given" % r["ticket"])
            break

    # 2. Load with the loader, as a user would.
    db = os.path.join(a.work, "db")
    start = time.monotonic()
    p = subprocess.run([sys.executable, os.path.join(HERE, "load-otlp.py"), "--db", db, out_dir],
                       capture_output=True, text=True)
    load_wall = time.monotonic() - start
    if p.returncode != 0:
        fail("load-otlp.py exited %d: %s" % (p.returncode, p.stderr.strip()))
        return 1
    m = re.search(r"load-otlp: (\d+) rows from (\d+) lines in (\d+) files into .* \(([\d.]+) s\)", p.stderr)
    loaded_rows, load_seconds = (int(m.group(1)), float(m.group(4))) if m else (None, None)

    from chdb import session
    s = session.Session(db)
    try:
        table_rows = int(str(s.query("SELECT count() FROM otel.otel_logs", "CSV")).strip())
        if table_rows != len(records) or loaded_rows != len(records):
            fail("otel_logs has %d rows (loader said %s), the OTLP lines hold %d log records"
                 % (table_rows, loaded_rows, len(records)))
        newest = max({t["appVersion"] for t in manifest if t["appVersion"]}, key=version_key)
        timings = {}
        a_rows, timings["fingerprints.sql"] = run_query(s, "fingerprints.sql")
        b_rows, timings["new-in-version.sql"] = run_query(s, "new-in-version.sql", {"version": newest})
        c_rows, timings["affected-users.sql"] = run_query(s, "affected-users.sql")
        d_rows, timings["trend-by-day.sql"] = run_query(s, "trend-by-day.sql")
        extra = sorted(set(os.listdir(QUERIES)) - set(timings))
        for name in extra:
            if name.endswith(".sql"):
                _, timings[name] = run_query(s, name, {"version": newest})
    finally:
        s.close()

    # 3a. The fingerprints query against cdlog aggregate, and against the model.
    start = time.monotonic()
    p = subprocess.run([a.cdlog, "aggregate", "--format", "json", out_dir], capture_output=True, text=True)
    aggregate_seconds = time.monotonic() - start
    agg = None
    if p.returncode != 0:
        fail("cdlog aggregate exited %d: %s" % (p.returncode, p.stderr.strip()[:300]))
    else:
        try:
            agg = json.loads(p.stdout)
        except ValueError as e:
            fail("cdlog aggregate --format json printed no JSON document: %s" % e)
    want = [normalized(g) for g in expected_groups(findings)]
    compare_lists("fingerprints.sql vs the OTLP records", [normalized(r, ch_to_ns) for r in a_rows], want)
    if agg is not None:
        if agg.get("findings") != len(findings):
            fail("cdlog aggregate: findings %r, the OTLP lines hold %d" % (agg.get("findings"), len(findings)))
        if agg.get("inputs") != len(glob.glob(os.path.join(out_dir, "*.otlp.jsonl"))):
            fail("cdlog aggregate: inputs %r, out/ holds %d files"
                 % (agg.get("inputs"), len(glob.glob(os.path.join(out_dir, "*.otlp.jsonl")))))
        compare_lists("fingerprints.sql vs cdlog aggregate --format json",
                      [normalized(r, ch_to_ns) for r in a_rows],
                      [normalized(g, iso_to_ns) for g in agg.get("groups", [])])
        groups = agg.get("groups", [])
    else:
        groups = [dict(g, firstSeen=None, lastSeen=None) for g in expected_groups(findings)]

    # 3b. New in the newest version: the model, and the aggregate groups.
    earlier = {r["fingerprint"] for r in findings
               if r["appVersion"] and version_key(r["appVersion"]) < version_key(newest)}
    in_newest = collections.defaultdict(list)
    for r in findings:
        if r["appVersion"] == newest and r["fingerprint"] not in earlier:
            in_newest[r["fingerprint"]].append(r)
    want_b = []
    for fp, recs in in_newest.items():
        sm = summarize(recs)
        want_b.append({"fingerprint": fp, "findings": sm["findings"], "tickets": sm["tickets"],
                       "users": sm["users"], "firstSeen": sm["firstSeen"]})
    want_b.sort(key=lambda x: (-x["findings"], -x["tickets"], x["fingerprint"]))
    want_b = want_b[:50]
    compare_lists("new-in-version.sql (%s) vs the OTLP records" % newest,
                  [dict({k: r[k] for k in ("fingerprint", "findings", "tickets", "users")},
                        firstSeen=ch_to_ns(r["firstSeen"])) for r in b_rows],
                  want_b)
    if not b_rows and len(manifest) >= 500:  # at this size the generated tickets always have some
        fail("new-in-version.sql found nothing new in %s; the tickets have fingerprints only %s has" % (newest, newest))
    agg_earlier = {g["fingerprint"] for g in groups
                   if g.get("appVersion") and version_key(g["appVersion"]) < version_key(newest)}
    agg_new = collections.Counter()
    for g in groups:
        if g.get("appVersion") == newest and g["fingerprint"] not in agg_earlier:
            agg_new[g["fingerprint"]] += g["findings"]
    top = sorted(agg_new.items(), key=lambda kv: -kv[1])
    if len(agg_new) <= 50 and {r["fingerprint"]: r["findings"] for r in b_rows} != dict(agg_new):
        fail("new-in-version.sql: fingerprints or findings differ from the aggregate groups of %s" % newest)
    elif len(agg_new) > 50 and top[49][1] > b_rows[-1]["findings"]:
        fail("new-in-version.sql: its top 50 misses fingerprints the aggregate groups rank higher")

    # 3c. Affected users: the model, and bounds from the aggregate groups.
    per_fp = collections.defaultdict(list)
    for r in findings:
        per_fp[r["fingerprint"]].append(r)
    want_c = []
    for fp, recs in per_fp.items():
        sm = summarize(recs)
        want_c.append({"fingerprint": fp, "users": sm["users"], "tickets": sm["tickets"],
                       "findings": sm["findings"],
                       "versions": sorted({r["appVersion"] for r in recs if r["appVersion"]}),
                       "firstSeen": sm["firstSeen"], "lastSeen": sm["lastSeen"]})
    want_c.sort(key=lambda x: (-x["users"], -x["tickets"], x["fingerprint"]))
    compare_lists("affected-users.sql vs the OTLP records",
                  [dict({k: r[k] for k in want_c[0]}, firstSeen=ch_to_ns(r["firstSeen"]),
                        lastSeen=ch_to_ns(r["lastSeen"])) for r in c_rows] if want_c else c_rows, want_c)
    agg_by_fp = collections.defaultdict(list)
    for g in groups:
        agg_by_fp[g["fingerprint"]].append(g)
    for r in c_rows:
        gs = agg_by_fp.get(r["fingerprint"], [])
        if r["findings"] != sum(g["findings"] for g in gs):
            fail("affected-users.sql: %s has %d findings, the aggregate groups %d"
                 % (r["fingerprint"], r["findings"], sum(g["findings"] for g in gs)))
        elif not (max([g["users"] for g in gs] or [0]) <= r["users"] <= sum(g["users"] for g in gs)):
            fail("affected-users.sql: %s has %d users, outside what its aggregate groups allow"
                 % (r["fingerprint"], r["users"]))

    # 3d. Trend by day: the model, and the aggregate groups' first/last days.
    days = collections.defaultdict(list)
    for r in findings:
        if r["ts"]:
            day = dt.datetime.fromtimestamp(r["ts"] // 1_000_000_000, dt.timezone.utc).strftime("%Y-%m-%d")
            days[(r["fingerprint"], day)].append(r)
    want_d = []
    for (fp, day), recs in sorted(days.items()):
        sm = summarize(recs)
        want_d.append({"fingerprint": fp, "day": day, "findings": sm["findings"],
                       "tickets": sm["tickets"], "users": sm["users"]})
    compare_lists("trend-by-day.sql vs the OTLP records",
                  [{k: r[k] for k in ("fingerprint", "day", "findings", "tickets", "users")} for r in d_rows], want_d)
    if agg is not None:
        span = {}
        for g in groups:
            if g.get("firstSeen"):
                lo, hi = g["firstSeen"][:10], g["lastSeen"][:10]
                old = span.get(g["fingerprint"])
                span[g["fingerprint"]] = (min(lo, old[0]), max(hi, old[1])) if old else (lo, hi)
        seen = collections.defaultdict(list)
        for r in d_rows:
            seen[r["fingerprint"]].append(r["day"])
        if {fp: (min(d), max(d)) for fp, d in seen.items()} != span:
            fail("trend-by-day.sql: first and last days differ from the aggregate groups' firstSeen/lastSeen")
        if sum(r["findings"] for r in d_rows) > sum(g["findings"] for g in groups):
            fail("trend-by-day.sql counts more findings than cdlog aggregate")

    # Masking: a message that differs between tickets only in what generate-tickets.py varies (UUIDs,
    # addresses, ids, counts, store file names in paths, times) must keep one fingerprint.
    spread = collections.defaultdict(set)
    for r in findings:
        spread[(r["rule"], generator.canonical(r["firstLine"]))].add(r["fingerprint"])
    scattered = [(k, fps) for k, fps in spread.items() if len(fps) > 1]
    for (rule, text), fps in sorted(scattered, key=lambda kv: -len(kv[1]))[:3]:
        fail("masking: one message of rule %s has %d fingerprints across the tickets (%s): %.300s"
             % (rule, len(fps), ", ".join(sorted(fps)[:4]), text))
    if len(scattered) > 3:
        fail("masking: %d messages in all have more than one fingerprint" % len(scattered))

    # 4. Figures.
    print("test-clickhouse: %d tickets, %d OTLP lines, %d findings, %d fingerprints, %d groups (fingerprint x version x OS;"
          " %d without a version, %d without an OS)"
          % (len(manifest), lines, len(findings), len({r["fingerprint"] for r in findings}), len(a_rows),
             sum(1 for r in a_rows if r["appVersion"] is None), sum(1 for r in a_rows if r["os"] is None)))
    print("test-clickhouse: machine: %d cores, load average %.2f" % (os.cpu_count() or 0, os.getloadavg()[0]))
    if a.classify_seconds is not None:
        print("test-clickhouse: classify (one cdlog run per ticket, %d at a time): %.1f s"
              % (os.cpu_count() or 1, a.classify_seconds))
    print("test-clickhouse: strict protobuf parse of every line: %.2f s" % validate_seconds)
    print("test-clickhouse: rows loaded: %s in %s s (load-otlp.py in all, with start-up and schema: %.2f s)"
          % (loaded_rows, "%.2f" % load_seconds if load_seconds is not None else "?", load_wall))
    for name in sorted(timings):
        print("test-clickhouse: query %-20s %.3f s" % (name, timings[name]))
    print("test-clickhouse: cdlog aggregate --format json: %.2f s" % aggregate_seconds)
    print("test-clickhouse: new in %s: %d fingerprints (top: %s)"
          % (newest, len(b_rows), ", ".join(r["rule"] for r in b_rows[:3])))
    if failures:
        print("test-clickhouse: FAILED (%d mismatches)" % len(failures))
        return 1
    print("test-clickhouse: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
