#!/usr/bin/env python3
"""Scores the catalog on the same labelled entries printed in other forms: does a verdict survive the way
a page or a console shows the text?

Each entry record of the corpus (pastes and noise are left out: their boundaries depend on the form) is
rewritten in the forms below, with the same expected category and severity, and scored with
`cdlog rules eval`. A form whose figure falls below the original's names a class of text the splitter or
the headers do not read as they should (a quoted paste, a prefix that takes a word of the message).

    scripts/eval/variants.py [--cdlog .build/debug/cdlog] [--verbose] Eval/dev

Forms: `quote` (`> ` before every line, as GitHub quotes), `indent4` (a Markdown code block), `indent1`
(one space, as a source comment), `fence` (```-fenced), `crlf` (Windows line ends), `wrap80` (lines
longer than 80 characters broken between words, as pages and mail clients break them), `wrap72` (the same
at 72, as commit editors and mail break them); and, for records
whose text has no log prefix of its own, `nslog` (an Xcode / NSLog prefix), `logshow` (a `log show`
row at Default level), `compact` and `syslog` (`log show --style compact` and `--style syslog` rows),
`console` (a Console.app copy: level, time, process, tab-separated) and
`oldconsole` (an OS X 10.8–10.11 Console.app copy: `1/10/24 11:14:38.831 AM MyApp[1234]: `).
Forms of every record: `smart` (quotes curled and `...` made `…`, as forum and blog engines print
text), `ndjson` (a `log show --style ndjson` row whose `eventMessage` is the text; not for a crash
report); and for texts of several lines with no crash report or stack frame in them, `oneline` (the lines joined by a space, as a title or a table
cell shows them) and `escaped` (the breaks printed as the two characters `\\n`, as a string printed
inside another). `unified`: a text opening `CoreData: <level>: ` as `log show` prints it (the level as the
row's type and the subsystem's category, `CoreData: ` dropped). For every text of several lines, `spaced` (a blank line between lines, as some pages
copy) and, where a line is indented, `flush` (the indentation dropped, as some pages and paste tools do).
Exit status: 0, or 2 when a corpus path cannot be read.
"""
import json
import re
import subprocess
import sys
import tempfile

from formscheck import smart, start, wrap, write

FRAME = re.compile(r'^\W*(?:\d+\s*\S.*\s0x[0-9a-fA-F]{4,}|#\d+\s|frame #\d|\d+\s+\S+\s+\S.*\(\S+:\d+\)|\s*at\s+\S+\()', re.M)
CORE_DATA_LEVEL = re.compile(r"CoreData: (error|warning|fault|debug|annotation|info|sql): ")
REPORT = re.compile(r'^\s*(?:Incident Identifier:|Process:|Exception Type:|Hardware Model:|\{"app_name"|-{20,}|Thread \d+ Crashed)', re.M)
PREFIXED = re.compile(r"^\s*(?:\d{4}-\d\d-\d\d|\d{1,2}[/.]\d{1,2}[/.]\d\d|\w{3} +\d+ \d\d:|\d\d:\d\d:\d\d|default\t|error\t|fault\t|info\t)")


def forms(text):
    lines = text.split("\n")
    yield "quote", "\n".join("> " + line for line in lines)
    yield "indent4", "\n".join("    " + line for line in lines)
    yield "indent1", "\n".join(" " + line for line in lines)
    yield "fence", "```\n" + text + "\n```"
    yield "crlf", text.replace("\n", "\r\n")
    # A page or a mail client that breaks long lines at 80 columns, between words.
    if any(len(line) > 80 for line in lines):
        yield "wrap80", "\n".join(wrapped for line in lines for wrapped in wrap(line, 80))
    # A commit editor's or a mail client's 72 columns.
    if any(len(line) > 72 for line in lines):
        yield "wrap72", "\n".join(wrapped for line in lines for wrapped in wrap(line, 72))
    # A forum or blog engine's typography: straight quotes curled, three dots made one character.
    yield "smart", smart(text)
    # One line: a title, a table cell or a chat message that lost the line breaks.
    if len(lines) > 1 and not REPORT.search(text) and not FRAME.search(text):
        yield "oneline", " ".join(line.strip() for line in lines if line.strip())
        # The breaks kept as the two characters `\n`, as a string printed inside another string.
        yield "escaped", "\\n".join(lines)
    if len(lines) > 1:
        # A page or a paste tool that dropped each line's leading white space.
        if any(line[:1] in (" ", "\t") for line in lines):
            yield "flush", "\n".join(line.lstrip(" \t") for line in lines)
        # A copy out of a web page that puts a blank line between lines (one paragraph a line).
        yield "spaced", "\n\n".join(lines)
    # A `log show --style ndjson` row: the message is a JSON string, its breaks escaped. Not for a crash
    # report: no log stores one as an event's message.
    if not REPORT.search(text):
        yield "ndjson", json.dumps({"timestamp": "2024-01-10 11:14:38.831786-0800", "messageType": "Default",
                                    "subsystem": "", "category": "", "processImagePath": "/MyApp.app/MyApp",
                                    "processID": 1234, "threadID": 56789, "eventMessage": text}, ensure_ascii=False)
    # The same Core Data line as `log show` prints it: the level in the row's type and the subsystem's
    # category, `CoreData: ` dropped from the message (`[com.apple.coredata:error] error: …`).
    level = CORE_DATA_LEVEL.match(text)
    if level:
        kind = {"error": "Error", "fault": "Fault", "debug": "Debug", "info": "Info"}.get(level.group(1), "Default")
        yield "unified", ("2024-01-10 11:14:38.831786-0800 0x724d65   %-11s 0x0                  18248  14   MyApp: "
                          "(CoreData) [com.apple.coredata:%s] " % (kind, level.group(1))) + text[len("CoreData: "):]
    if not PREFIXED.match(text):
        yield "nslog", "2024-01-10 11:14:38.831786-0800 MyApp[1234:56789] " + text
        yield "logshow", "2024-01-10 11:14:38.831786-0800 0x724d65   Default     0x0                  18248  14   MyApp: " + text
        yield "compact", "2024-01-10 11:14:38.831 Df MyApp[1234:2b4c1] " + text
        yield "syslog", "2024-01-10 11:14:38.831786-0800  localhost MyApp[1234]: " + text
        yield "console", "default\t11:14:38.831786-0800\tMyApp\t" + text
        yield "oldconsole", "1/10/24 11:14:38.831 AM MyApp[1234]: " + text


def score(cdlog, path):
    """(entries, category %, severity %, the ids of the misses) from `cdlog rules eval --verbose`."""
    output = subprocess.run([cdlog, "rules", "eval", "--verbose", path], capture_output=True, text=True, check=True).stdout
    total = re.search(r"^all \(not noise\)\s+(\d+)\s+([\d.]+)%\s+([\d.]+)%", output, re.M)
    misses = set(re.findall(r"^\s+miss (\S+): expected (\S+)/\S+, got (\S+)/", output, re.M))
    wrong = {identifier for identifier, expected, got in misses if expected != got}
    return int(total.group(1)), float(total.group(2)), float(total.group(3)), wrong


def main(argv):
    started = start(argv, __doc__, "variants.py", lambda record: record.get("kind") != "paste" and record.get("category") != "none")
    if started is None:
        return 2
    cdlog, verbose, records = started
    with tempfile.TemporaryDirectory() as folder:
        files = {}
        subsets = {}
        for record in records:
            for form, text in forms(record["text"]):
                variant = dict(record, text=text)
                files.setdefault(form, []).append(variant)
                subsets.setdefault(form, []).append(record)
        print("%-10s %7s %10s %10s %10s %8s" % ("form", "entries", "category", "original", "severity", "changed"))
        for form, rows in files.items():
            entries, category, severity, wrong = score(cdlog, write(folder, form, rows))
            _, original, _, wrong_before = score(cdlog, write(folder, form + "-original", subsets[form]))
            changed = sorted(wrong - wrong_before)
            print("%-10s %7d %9.1f%% %9.1f%% %9.1f%% %8d" % (form, entries, category, original, severity, len(changed)))
            if verbose and changed:
                print("          now wrong: " + ", ".join(changed))
    return 0


sys.exit(main(sys.argv[1:]))
