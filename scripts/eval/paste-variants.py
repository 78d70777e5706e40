#!/usr/bin/env python3
"""Scores the splitter on the same labelled pastes printed in other forms: do a paste's entry boundaries
survive the way a page, a quote or a paste tool shows the text?

Each whole paste of the corpus (`"kind": "paste"`) is rewritten in the forms below; its expected entries
move with their lines (a line broken in two or followed by a blank line keeps its entry). Both the
original and the rewritten pastes are scored with `cdlog rules eval --verbose`, and a form prints the
boundaries it finds against the original's and how many expected entries only the form lost. The forms
are `variants.py`'s that keep a paste's lines apart: `quote`, `indent4`, `indent1`, `fence`, `crlf`,
`smart`, `wrap80`, `wrap72`, `spaced`, `flush` (see that script).

    scripts/eval/paste-variants.py [--cdlog .build/debug/cdlog] [--verbose] Eval/dev

Exit status: 0, or 2 when a corpus path cannot be read.
"""
import re
import subprocess
import sys
import tempfile

from formscheck import smart, start, wrap, write

def forms(lines):
    """(form, new lines, where each original line starts and ends in them) for a paste's `lines`."""
    one = [(i, i) for i in range(len(lines))]
    yield "quote", ["> " + line for line in lines], one
    yield "indent4", ["    " + line for line in lines], one
    yield "indent1", [" " + line for line in lines], one
    yield "fence", ["```"] + lines + ["```"], [(i + 1, i + 1) for i in range(len(lines))]
    yield "crlf", [line + "\r" for line in lines], one
    yield "smart", [smart(line) for line in lines], one
    for width in (80, 72):
        if any(len(line) > width for line in lines):
            out, where = [], []
            for line in lines:
                pieces = wrap(line, width)
                where.append((len(out), len(out) + len(pieces) - 1))
                out.extend(pieces)
            yield "wrap%d" % width, out, where
    out = []
    for line in lines:
        out += [line, ""]
    yield "spaced", out[:-1], [(2 * i, 2 * i) for i in range(len(lines))]
    if any(line[:1] in (" ", "\t") for line in lines):
        yield "flush", [line.lstrip(" \t") for line in lines], one


def boundaries(cdlog, path):
    """(found, expected, the `id@first` of each expected entry missed) from `cdlog rules eval --verbose`."""
    output = subprocess.run([cdlog, "rules", "eval", "--verbose", path], capture_output=True, text=True, check=True).stdout
    total = re.search(r"^paste boundaries: (\d+) of (\d+)", output, re.M)
    missed = set(re.findall(r"^\s+boundary (\S+?@\d+)-\d+: found", output, re.M))
    return int(total.group(1)), int(total.group(2)), missed


def main(argv):
    started = start(argv, __doc__, "paste-variants.py", lambda record: record.get("kind") == "paste")
    if started is None:
        return 2
    cdlog, verbose, records = started
    with tempfile.TemporaryDirectory() as folder:
        files, originals = {}, {}
        for record in records:
            lines = record["text"].split("\n")
            for form, new, where in forms(lines):
                entries = []
                for entry in record["entries"]:
                    first, last = entry["first"], min(entry["last"], len(lines))
                    entries.append(dict(entry, first=where[first - 1][0] + 1, last=where[last - 1][1] + 1))
                files.setdefault(form, []).append(dict(record, text="\n".join(new), entries=entries))
                # The original, with each entry known by its first line in the form, so misses compare.
                originals.setdefault(form, []).append((record, {e["first"]: n["first"] for e, n in zip(record["entries"], entries)}))

        print("%-10s %7s %10s %10s %8s" % ("form", "pastes", "found", "original", "lost"))
        for form, rows in files.items():
            found, expected, missed = boundaries(cdlog, write(folder, form, rows))
            before, _, missed_before = boundaries(cdlog, write(folder, form + "-original", [r for r, _ in originals[form]]))
            moved = set()
            for record, first_in_form in originals[form]:
                for first, new_first in first_in_form.items():
                    if "%s@%d" % (record["id"], first) in missed_before:
                        moved.add("%s@%d" % (record["id"], new_first))
            lost = sorted(missed - moved)
            print("%-10s %7d %5d/%-4d %5d/%-4d %8d" % (form, len(rows), found, expected, before, expected, len(lost)))
            if verbose and lost:
                print("          lost: " + ", ".join(lost))
    return 0


sys.exit(main(sys.argv[1:]))
