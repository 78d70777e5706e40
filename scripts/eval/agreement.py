#!/usr/bin/env python3
"""How far two labellers agree, and how cdlog scores against each and against what both say.

A second labeller labels a sample of corpus records blind (text only, the labelling guide in
Eval/COLLECTING.md, no source page, no first label, no cdlog output). This script compares the two:

    scripts/eval/agreement.py [--cdlog .build/debug/cdlog] SECOND.jsonl CORPUS_FOLDER…

SECOND.jsonl holds one {"id", "category", "severity"} per line; each id names an entry or noise record of
the corpus folders, or an expected entry of a paste (`ID@k`, its k-th entry), with the first labeller's
labels. Noise (`none`) counts in the labellers' agreement; cdlog's figures are on entries. Printed: the labellers' agreement on category and severity, cdlog's
category and severity agreement with each labeller, and cdlog's on the entries both labellers put in the
same category (and, for severity, gave the same severity). The figures come from `cdlog rules eval` on
temporary copies of the sample. Exit status: 0, or 2 when a file cannot be read or an id is unknown.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter


def load(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def corpus(paths):
    records = {}
    for path in paths:
        names = [os.path.join(path, n) for n in sorted(os.listdir(path)) if n.endswith(".jsonl")] \
            if os.path.isdir(path) else [path]
        for name in names:
            for record in load(name):
                records[record["id"]] = record
                if record.get("kind") == "paste":
                    # Each expected entry of a paste is an entry record of its own: `ID@k`.
                    lines = record["text"].split("\n")
                    for k, entry in enumerate(record.get("entries", []), 1):
                        records[f"{record['id']}@{k}"] = {
                            "id": f"{record['id']}@{k}", "source": record["source"],
                            "category": entry["category"], "severity": entry.get("severity"),
                            "text": "\n".join(lines[entry["first"] - 1:entry["last"]])}
    return records


def score(cdlog, records):
    """cdlog's category and severity agreement on `records` (their own labels), by `cdlog rules eval`."""
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "sample.jsonl"), "w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record) + "\n")
        output = subprocess.run([cdlog, "rules", "eval", folder], capture_output=True, text=True).stdout
    match = re.search(r"all \(not noise\)\s+(\d+)\s+([\d.]+)%\s+([\d.]+)%", output)
    if not match:
        sys.exit(f"agreement.py: cdlog rules eval printed no total:\n{output}")
    return int(match.group(1)), float(match.group(2)), float(match.group(3))


def main(arguments):
    cdlog = ".build/debug/cdlog"
    if len(arguments) > 1 and arguments[0] == "--cdlog":
        cdlog, arguments = arguments[1], arguments[2:]
    if len(arguments) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        second = load(arguments[0])
        records = corpus(arguments[1:])
    except (OSError, ValueError) as error:
        print(f"agreement.py: {error}", file=sys.stderr)
        return 2
    first, relabelled, both_category, both = [], [], [], []
    for label in second:
        record = records.get(label["id"])
        if record is None or record.get("kind") == "paste":
            print(f"agreement.py: {label['id']} is not an entry record of the corpus", file=sys.stderr)
            return 2
        first.append(record)
        relabelled.append(dict(record, category=label["category"], severity=label["severity"]))
        if label["category"] == record["category"]:
            both_category.append(record)
            if label["severity"] == record.get("severity"):
                both.append(record)
    n = len(first)
    same_category = len(both_category)
    same_severity = sum(1 for a, b in zip(first, relabelled) if a.get("severity") == b["severity"])
    print(f"sample: {n} entries")
    print(f"labellers agree: category {same_category}/{n} ({100 * same_category / n:.1f} %), "
          f"severity {same_severity}/{n} ({100 * same_severity / n:.1f} %)")
    for name, sample in (("first labeller", first), ("second labeller", relabelled)):
        _, category, severity = score(cdlog, sample)
        print(f"cdlog against the {name}: category {category:.1f} %, severity {severity:.1f} %")
    count, category, _ = score(cdlog, both_category)
    print(f"cdlog where both labellers give the same category ({count}): category {category:.1f} %")
    if both:
        count, _, severity = score(cdlog, both)
        print(f"cdlog where both give the same category and severity ({count}): severity {severity:.1f} %")
    pairs = Counter((a["category"], b["category"]) for a, b in zip(first, relabelled) if a["category"] != b["category"])
    if pairs:
        print("category disagreements (first → second): " +
              ", ".join(f"{a} → {b} {k}" for (a, b), k in pairs.most_common(8)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
