#!/usr/bin/env python3
"""Scores cdlog on a part of the real crash-report corpus (Eval/crash/dev or Eval/crash/holdout).

Each part holds report files and `labels.jsonl`: one record per report with `expected`, the facts the
report itself states (collected by hand from its text, never from cdlog's output; Eval/crash/README.md).
A report is fully right when every expected fact matches what `cdlog classify --format json` says about it.

    scripts/eval/crash-eval.py Eval/crash/dev [--cdlog PATH] [--verbose]

Prints one line per report that is not fully right (with --verbose, every report), then the totals.
Exit status 0 whatever the score (it measures; EvalCorpus tests hold the floors).
"""
import json
import os
import subprocess
import sys


def cdlog_entries(cdlog, path):
    result = subprocess.run([cdlog, "classify", "--format", "json", "--all", "--input-format", "crash", path],
                            capture_output=True, text=True)
    if result.returncode not in (0, 1):
        return None, result.stderr.strip().splitlines()[-1:] or ["exit %d" % result.returncode]
    try:
        document = json.loads(result.stdout)
    except ValueError:
        return None, ["output is not JSON"]
    return [e for e in document.get("entries", []) if e.get("type") == "entry"], []


def check(record, entries):
    """The expected facts that cdlog got wrong, as `key: expected != got` strings."""
    expected = record.get("expected", {})
    wrong = []
    if not entries:
        return ["no entry for the report"]
    if "diagnostics" in expected and int(expected["diagnostics"]) != len(entries):
        wrong.append("diagnostics: %s != %d entries" % (expected["diagnostics"], len(entries)))
    entry = entries[0]
    fields = entry.get("fields", {})

    def compare(key, got, ok):
        if key in expected and not ok(str(expected[key]), got):
            wrong.append("%s: %r != %r" % (key, expected[key], got))

    compare("appName", fields.get("appName"), lambda e, g: g == e)
    # PLCrashReporter text prints the signal alone as the exception type; cdlog maps it to the Mach
    # exception and keeps the signal.
    compare("exceptionType", (fields.get("exceptionType"), fields.get("signal")), lambda e, g: e in g)
    compare("signal", fields.get("signal"), lambda e, g: g == e)
    compare("terminationCode", fields.get("terminationCode"), lambda e, g: (g or "").lower() == e.lower())
    compare("crashedThread", fields.get("faultingThread"), lambda e, g: g == e)
    compare("exceptionName", fields.get("exceptionName"), lambda e, g: g == e)
    compare("exceptionReasonStart", fields.get("exceptionReason"),
            lambda e, g: g is not None and " ".join(g.split()).startswith(" ".join(e.split())[:30]))
    compare("event", fields.get("resourceEvent"), lambda e, g: g == e)
    # A hang report or a stackshot: `hang`, `stackshot` (MetricKit diagnostics name their own kind).
    compare("diagnosticType", fields.get("diagnosticType"), lambda e, g: g == e)
    compare("category", entry.get("category"), lambda e, g: g == e)
    return wrong


def main(arguments):
    cdlog = ".build/debug/cdlog"
    verbose = "--verbose" in arguments
    if "--cdlog" in arguments:
        cdlog = arguments[arguments.index("--cdlog") + 1]
    parts = [a for a in arguments if not a.startswith("--") and a != cdlog]
    if len(parts) != 1:
        sys.exit(__doc__)
    folder = parts[0]
    records = [json.loads(line) for line in open(os.path.join(folder, "labels.jsonl"), encoding="utf-8") if line.strip()]
    right = 0
    facts = facts_right = 0
    for record in records:
        entries, errors = cdlog_entries(cdlog, os.path.join(folder, record["file"]))
        wrong = errors if entries is None else check(record, entries)
        count = len(record.get("expected", {}))
        facts += count
        facts_right += max(0, count - len(wrong))
        if not wrong:
            right += 1
        if wrong or verbose:
            print("%s %s (%s): %s" % ("ok  " if not wrong else "miss", record["id"], record.get("kind", "?"),
                                       "; ".join(wrong) if wrong else "all facts right"))
    print("%s: %d of %d reports fully right (%.1f %%), %d of %d facts" % (
        folder, right, len(records), 100.0 * right / max(1, len(records)), facts_right, facts))


main(sys.argv[1:])
