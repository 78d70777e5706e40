#!/usr/bin/env python3
"""Writes the second labeller's input for a holdout: every entry record, noise record and expected paste entry
(`ID@k`) of the corpus folder, text only (no source, no label, no note), in a shuffled order, one JSON object a
line. The labeller labels it blind by Eval/prompts/second-labeller.md; scripts/eval/agreement.py compares.

    scripts/eval/second-input.py [--seed N] OUT.jsonl [FOLDER]    (FOLDER defaults to Eval/holdout)

Prints the number of lines written (`--help` prints this text). Exit status: 0, or 2 when the arguments are wrong
(an unknown option included) or a file cannot be read.
"""
import glob
import json
import os
import random
import sys


def main(argv):
    seed = 0
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if argv[:1] == ["--seed"] and len(argv) >= 2 and argv[1].isdigit():
        seed, argv = int(argv[1]), argv[2:]
    if not 1 <= len(argv) <= 2 or argv[0].startswith("-"):
        print("usage: second-input.py [--seed N] OUT.jsonl [FOLDER]", file=sys.stderr)
        return 2
    folder = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Eval", "holdout")
    items = []
    try:
        for name in sorted(glob.glob(os.path.join(folder, "*.jsonl"))):
            with open(name, encoding="utf-8") as handle:
                for line in handle:
                    if not line.strip():
                        continue
                    record = json.loads(line)
                    if record.get("kind") == "paste":
                        lines = record["text"].split("\n")
                        for k, entry in enumerate(record["entries"], 1):
                            items.append({"id": "%s@%d" % (record["id"], k),
                                          "text": "\n".join(lines[entry["first"] - 1:entry["last"]])})
                    else:
                        items.append({"id": record["id"], "text": record["text"]})
        random.Random(seed).shuffle(items)
        with open(argv[0], "w", encoding="utf-8") as out:
            for item in items:
                out.write(json.dumps(item, ensure_ascii=False) + "\n")
    except (OSError, ValueError, KeyError) as error:
        print("second-input.py: %s" % error, file=sys.stderr)
        return 2
    print(len(items))
    return 0


sys.exit(main(sys.argv[1:]))
