#!/usr/bin/env python3
"""Splits collected corpus records (Eval/collected/*.jsonl) into Eval/dev/ and Eval/holdout/ by source.

The part is a function of the source alone (SHA-256 of the `source` string: 35 of every 100 values go to
the holdout), so every record of one page lands in the same part, the split never depends on the text or
on what cdlog says about it, and records collected later from a new source get a part of their own.
Records whose text repeats an earlier record's are dropped. Appends to existing part files.

    scripts/eval/split.py Eval/collected/A.jsonl …
"""
import hashlib
import json
import os
import sys

HOLDOUT_PERCENT = 35
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Eval")


def part(source):
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    return "holdout" if int(digest[:8], 16) % 100 < HOLDOUT_PERCENT else "dev"


def main(paths):
    seen = set()
    for name in ("dev", "holdout"):
        folder = os.path.join(ROOT, name)
        os.makedirs(folder, exist_ok=True)
        for existing in os.listdir(folder):
            if existing.endswith(".jsonl"):
                for line in open(os.path.join(folder, existing), encoding="utf-8"):
                    if line.strip():
                        seen.add(json.loads(line)["text"])
    counts = {"dev": 0, "holdout": 0, "duplicate": 0}
    for path in paths:
        outputs = {}
        for line in open(path, encoding="utf-8"):
            if not line.strip():
                continue
            record = json.loads(line)
            if record["text"] in seen:
                counts["duplicate"] += 1
                continue
            seen.add(record["text"])
            name = part(record["source"])
            counts[name] += 1
            if name not in outputs:
                outputs[name] = open(os.path.join(ROOT, name, os.path.basename(path)), "a", encoding="utf-8")
            outputs[name].write(json.dumps(record, ensure_ascii=False) + "\n")
        for handle in outputs.values():
            handle.close()
    print("dev %(dev)d, holdout %(holdout)d, duplicates dropped %(duplicate)d" % counts)


main(sys.argv[1:])
