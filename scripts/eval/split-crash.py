#!/usr/bin/env python3
"""Splits collected crash reports (Eval/crash/collected: report files and labels.jsonl) into
Eval/crash/dev/ and Eval/crash/holdout/ by source, before any work on them.

The part is a function of the `source` alone (SHA-256: 33 of every 100 values go to the holdout), so every
report of one page lands in the same part and the split never depends on the reports' text or on what
cdlog says about them. Copies each report file and appends its label record to the part's labels.jsonl.

    scripts/eval/split-crash.py Eval/crash/collected
"""
import hashlib
import json
import os
import shutil
import sys

HOLDOUT_PERCENT = 33
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Eval", "crash")


def part(source):
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    return "holdout" if int(digest[:8], 16) % 100 < HOLDOUT_PERCENT else "dev"


def main(arguments):
    if len(arguments) != 1:
        sys.exit(__doc__)
    collected = arguments[0]
    counts = {"dev": 0, "holdout": 0}
    for line in open(os.path.join(collected, "labels.jsonl"), encoding="utf-8"):
        if not line.strip():
            continue
        record = json.loads(line)
        name = part(record["source"])
        folder = os.path.join(ROOT, name)
        os.makedirs(folder, exist_ok=True)
        shutil.copyfile(os.path.join(collected, record["file"]), os.path.join(folder, record["file"]))
        with open(os.path.join(folder, "labels.jsonl"), "a", encoding="utf-8") as labels:
            labels.write(json.dumps(record, ensure_ascii=False) + "\n")
        counts[name] += 1
    print("dev %(dev)d, holdout %(holdout)d" % counts)


main(sys.argv[1:])
