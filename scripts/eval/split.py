#!/usr/bin/env python3
"""Splits collected corpus records (Eval/collected/*.jsonl) into Eval/dev/ and Eval/holdout/ by source.

The part is a function of the source alone (SHA-256 of the `source` string: 35 of every 100 values go to
the holdout), so every record of one page lands in the same part, the split never depends on the text or
on what cdlog says about it, and records collected later from a new source get a part of their own.
Records whose text repeats an earlier record's are dropped. Appends to existing part files.

    scripts/eval/split.py Eval/collected/A.jsonl …
    scripts/eval/split.py --holdout-only Eval/collected/F.jsonl …

--holdout-only sends every record to the holdout part: for a fresh holdout made of sources collected after
the previous one was scored. A record whose source already appears in the development part is dropped, so
the fresh holdout holds no page the rules could have been written from; so is a record whose text the
development part already holds under another address (a fork's copy of a file, a mirror of a Q&A page): at
least 60 % of its 40-character pieces, taken every 20 characters, inside one development record's text.

Exit status: 0, or 2 when no file is given, an option is unknown or a file cannot be found.
"""
import hashlib
import json
import os
import sys

HOLDOUT_PERCENT = 35
# A text counts as one the development part holds when this share of its pieces is inside one record's text.
KNOWN_TEXT_SHARE = 0.6
PIECE, STEP = 40, 20
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Eval")


def part(source):
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    return "holdout" if int(digest[:8], 16) % 100 < HOLDOUT_PERCENT else "dev"


def pieces(text):
    return [text[i:i + PIECE] for i in range(0, max(1, len(text) - PIECE), STEP)]


def known_text(text, dev_texts):
    """True when at least KNOWN_TEXT_SHARE of `text`'s pieces are inside one of `dev_texts`."""
    parts = pieces(text)
    need = KNOWN_TEXT_SHARE * len(parts)
    return any(sum(1 for piece in parts if piece in other) >= need for other in dev_texts)


def main(arguments):
    if not arguments or "-h" in arguments or "--help" in arguments:
        print(__doc__.strip())
        return 0 if arguments else 2
    holdout_only = "--holdout-only" in arguments
    paths = [argument for argument in arguments if argument != "--holdout-only"]
    for path in paths:
        if path.startswith("-") or not os.path.isfile(path):
            print("split.py: %s: %s" % (path, "unknown option" if path.startswith("-") else "no such file"), file=sys.stderr)
            return 2
    seen = set()
    dev_sources = set()
    dev_texts = []
    for name in ("dev", "holdout"):
        folder = os.path.join(ROOT, name)
        os.makedirs(folder, exist_ok=True)
        for existing in os.listdir(folder):
            if existing.endswith(".jsonl"):
                for line in open(os.path.join(folder, existing), encoding="utf-8"):
                    if line.strip():
                        record = json.loads(line)
                        seen.add(record["text"])
                        if name == "dev":
                            dev_sources.add(record["source"])
                            dev_texts.append(record["text"])
    counts = {"dev": 0, "holdout": 0, "duplicate": 0, "known source": 0, "known text": 0}
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
            if holdout_only and record["source"] in dev_sources:
                counts["known source"] += 1
                continue
            if holdout_only and known_text(record["text"], dev_texts):
                counts["known text"] += 1
                print("  %s: its text is a development record's" % record["id"])
                continue
            name = "holdout" if holdout_only else part(record["source"])
            counts[name] += 1
            if name not in outputs:
                outputs[name] = open(os.path.join(ROOT, name, os.path.basename(path)), "a", encoding="utf-8")
            outputs[name].write(json.dumps(record, ensure_ascii=False) + "\n")
        for handle in outputs.values():
            handle.close()
    print("dev %(dev)d, holdout %(holdout)d, duplicates dropped %(duplicate)d, "
          "records from a development source dropped %(known source)d, "
          "records whose text the development part holds dropped %(known text)d" % counts)


sys.exit(main(sys.argv[1:]))
