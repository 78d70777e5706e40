"""What the forms checks share (`variants.py`, `paste-variants.py`): how a page or a mail client rewrites
text, the command line, the corpus reading and the scratch files."""
import json
import os
import re
import sys


def smart(text):
    """`text` as a typography engine prints it: `"a"` as `“a”`, `it's` as `it’s`, `...` as `…`."""
    text = re.sub(r'(^|[\s(\[{=:,])"', "\\1\u201c", text)
    text = text.replace('"', "\u201d")
    text = re.sub(r"(^|[\s(\[{=:,])'", "\\1\u2018", text)
    return text.replace("'", "\u2019").replace("...", "\u2026")


def wrap(line, width):
    """`line` broken between words into pieces of at most `width` characters (a longer word stays whole).
    The line's own indentation stays on its first piece, as a wrapper leaves it."""
    if len(line) <= width:
        return [line]
    body = line.lstrip(" ")
    pieces, current = [], line[:len(line) - len(body)]
    for word in body.split(" "):
        if current.strip() and len(current) + 1 + len(word) > width:
            pieces.append(current)
            current = word
        else:
            current = current + word if not current.strip() else current + " " + word
    pieces.append(current)
    return pieces


def start(argv, doc, name, keep):
    """(cdlog, verbose, the corpus records `keep` accepts) from the command line; None after printing the usage
    line of `doc` (no corpus path given) or a one-line error naming `name` (a path that cannot be read)."""
    cdlog = ".build/debug/cdlog"
    verbose = "--verbose" in argv
    paths = []
    rest = iter(argv)
    for argument in rest:
        if argument == "--cdlog":
            cdlog = next(rest)
        elif argument != "--verbose":
            paths.append(argument)
    if not paths:
        print(next(part.strip() for part in doc.split("\n\n") if part.startswith("    scripts/")), file=sys.stderr)
        return None
    try:
        return cdlog, verbose, list(corpus(paths, keep))
    except OSError as error:
        print("%s: %s" % (name, error), file=sys.stderr)
        return None


def corpus(paths, keep):
    """Every record of the `*.jsonl` files under `paths` (folders or files) that `keep` accepts."""
    for path in paths:
        files = [os.path.join(path, name) for name in sorted(os.listdir(path)) if name.endswith(".jsonl")] \
            if os.path.isdir(path) else [path]
        for name in files:
            with open(name, encoding="utf-8") as handle:
                for line in handle:
                    if line.strip():
                        record = json.loads(line)
                        if keep(record):
                            yield record


def write(folder, name, rows):
    """`rows` as `folder/name.jsonl`; its path."""
    path = os.path.join(folder, name + ".jsonl")
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path
