#!/usr/bin/env python3
"""Make synthetic support tickets for the fleet test (issue 28).

    scripts/fleet/generate-tickets.py --out DIR [--count 1000] [--seed 28] [--users 300]

Each ticket is a folder DIR/tickets/T-NNNN/ holding what a user would attach: one or two console logs cut
from the repository's Samples/logs/*.log (whole entries kept or dropped, in order, each file staying in its
own format) and, for about one ticket in three, a crash report from Samples/crash/. The text is the samples'
own, with the parts that differ from one device or run to the next made different per ticket: UUIDs (in crash
reports only incident ids and container paths: a build's binary image UUIDs are the same everywhere), object
addresses, process and thread ids, counts ("Found 17 objects needing export", "Retry after 12.4 seconds"),
store file names inside paths, and every timestamp (moved to the ticket's date, the spacing kept). A
fingerprint that masks variable parts groups the same message across tickets; one that does not scatters it.

Tickets are spread over app versions 4.0-4.3 (each released three weeks after the previous, users updating
late), iOS versions that move with the date, and --users hashed user ids (a few users file many tickets).
Some scenarios occur only in 4.3 -- the widget's read-only store (readonly-history.log) and the 0xdead10cc
SQLite crash -- so "new in 4.3" has an answer. Everything follows from --seed: the same seed, the same files.

DIR/manifest.jsonl has one line per ticket:
  {"ticket":"T-0001","user":"u-3f9a...","appVersion":"4.2","osName":"iOS","osVersion":"17.5.1",
   "date":"2025-10-14","files":["tickets/T-0001/console.log", ...]}
with paths relative to DIR. About 3% of tickets have no appVersion, 3% an osName without osVersion and 2% no
OS (null): their findings take what the inputs say (a crash report's version and OS) or stay unknown. Only python3's standard library is needed.
"""

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOGS = os.path.join(REPO, "Samples", "logs")
CRASH = os.path.join(REPO, "Samples", "crash")

START = dt.datetime(2025, 9, 1, 0, 0, 0)
DAYS = 84
VERSIONS = [("4.0", 0), ("4.1", 21), ("4.2", 42), ("4.3", 63)]  # version, release day
OS_BY_DAY = [  # (from day, [(os version, weight)])
    (0, [("17.5.1", 3), ("17.6.1", 5), ("18.0", 1)]),
    (21, [("17.6.1", 4), ("18.0", 3), ("18.0.1", 2)]),
    (42, [("17.6.1", 2), ("18.0.1", 3), ("18.1", 4)]),
    (63, [("17.6.1", 1), ("18.1", 3), ("18.2", 5)]),
]
# Console-log scenarios and their weight per app version (0: never in that version).
SCENARIOS = {
    "healthy-first-launch.log": {"4.0": 3, "4.1": 3, "4.2": 3, "4.3": 3},
    "healthy-steady-sync.log": {"4.0": 4, "4.1": 4, "4.2": 4, "4.3": 4},
    "merge-conflicts.log": {"4.0": 3, "4.1": 2, "4.2": 2, "4.3": 2},
    "migration-failure.log": {"4.0": 1, "4.1": 1, "4.2": 5, "4.3": 1},  # a 4.2 regression
    "no-icloud-account.log": {"4.0": 2, "4.1": 2, "4.2": 2, "4.3": 2},
    "partial-failure-schema.log": {"4.0": 2, "4.1": 3, "4.2": 1, "4.3": 1},
    "throttled-export.log": {"4.0": 1, "4.1": 4, "4.2": 2, "4.3": 2},
    "incompatible-model.log": {"4.0": 1, "4.1": 1, "4.2": 1, "4.3": 1},
    "readonly-history.log": {"4.0": 0, "4.1": 0, "4.2": 0, "4.3": 4},  # new in 4.3
}
CRASHES = {
    "cpu-resource-killed.txt": {"4.0": 1, "4.1": 1, "4.2": 1, "4.3": 1},
    "dead10cc-sqlite.crash": {"4.0": 0, "4.1": 0, "4.2": 0, "4.3": 3},  # new in 4.3
    "disk-writes-resource.ips": {"4.0": 1, "4.1": 1, "4.2": 1, "4.3": 1},
    "embedded-in-test-output.log": {"4.0": 1, "4.1": 1, "4.2": 1, "4.3": 0},
    "hang-fetch-on-main.hang": {"4.0": 1, "4.1": 2, "4.2": 1, "4.3": 1},
    "jetsam-per-process-limit.ips": {"4.0": 2, "4.1": 1, "4.2": 1, "4.3": 1},
    "metrickit-payload.json": {"4.0": 1, "4.1": 1, "4.2": 1, "4.3": 1},
    "notingpro-launch-watchdog.ips": {"4.0": 1, "4.1": 1, "4.2": 3, "4.3": 1},
    "plcrashreporter-sigsegv.crash": {"4.0": 1, "4.1": 1, "4.2": 1, "4.3": 1},
    "stackshot-frozen-app.ips": {"4.0": 1, "4.1": 1, "4.2": 1, "4.3": 1},
    "wakeups-resource.ips": {"4.0": 1, "4.1": 1, "4.2": 1, "4.3": 1},
}
CRASH_SHARE = 0.3
SECOND_LOG_SHARE = 0.35
KEEP_ENTRY = 0.8
UNKNOWN_VERSION = 0.03  # tickets without an app version
UNKNOWN_OS_VERSION = 0.03  # tickets with the OS name only
UNKNOWN_OS = 0.02  # tickets without any OS

UUID = re.compile(r"\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b")
# In crash reports only the UUIDs that differ per device or incident vary: the incident id and the app's
# container path. Binary image UUIDs (binaryImages, "uuid", slice_uuid, Shared Cache) name a build, and one
# build's are the same on every device, so they stay.
CRASH_UUID = re.compile(r'(Application\\?/|"incident(?:_id)?"\s*:\s*"|Incident Identifier:\s+|deviceIdentifierForVendor"\s*:\s*")('
                        + UUID.pattern + ")")
ADDRESS = re.compile(r"\b0x[0-9a-f]{9,16}\b")
PID_TID = re.compile(r"\[(\d{2,6}):(\d{3,8})\]")
TIMESTAMP = re.compile(r"\b(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?")
COUNTS = [
    re.compile(r"(?<=Found )\d+(?= objects needing export)"),
    re.compile(r"(?<=Retry after )\d+(?:\.\d+)?(?= seconds)"),
    re.compile(r"(?<=saving )\d+(?= notes)"),
    re.compile(r"(?<=timeline: )\d+(?= entries)"),
    re.compile(r"\d+(?= saved, )"),
]
STORE_NAMES = re.compile(r"(?<=/)(Notes|Recipes)(?=\.sqlite)")
# The first line of an entry in the samples' formats (log show, NSLog, Xcode console, NDJSON); any other
# line continues the entry above it. Lines before the first entry (log show's preamble) are always kept.
ENTRY_START = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d|\{|CoreData: |CoreData\+CloudKit: |error: |warning: |fault: |"
    r"[A-Za-z][\w.]*\[\d+:\d+\] )")


def weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.uniform(0, total)
    for item, w in pairs:
        if x < w:
            return item
        x -= w
    return pairs[-1][0]


class Ticket:
    """The per-ticket substitutions: one consistent replacement for each UUID, address or id."""

    def __init__(self, rng, when):
        self.rng = rng
        self.when = when
        self.uuids = {}
        self.addresses = {}
        self.pids = {}
        self.store = {"Notes": rng.choice(["Notes", "Notes", "NotesShared", "Notes-2"]),
                      "Recipes": rng.choice(["Recipes", "Recipes", "RecipesCloud", "Recipes-v3"])}

    def uuid(self, m):
        old = m.group(0)
        if old not in self.uuids:
            new = "%08X-%04X-4%03X-%04X-%012X" % (
                self.rng.getrandbits(32), self.rng.getrandbits(16), self.rng.getrandbits(12),
                0x8000 | self.rng.getrandbits(14), self.rng.getrandbits(48))
            self.uuids[old] = new if old.isupper() or old.upper() == old else new.lower()
        return self.uuids[old]

    def address(self, m):
        old = m.group(0)
        if old not in self.addresses:
            digits = len(old) - 2
            first = old[2]
            self.addresses[old] = "0x" + first + "".join(self.rng.choice("0123456789abcdef")
                                                         for _ in range(digits - 1))
        return self.addresses[old]

    def pid_tid(self, m):
        key = m.group(0)
        if key not in self.pids:
            self.pids[key] = "[%d:%d]" % (self.rng.randint(200, 9999), self.rng.randint(100000, 9999999))
        return self.pids[key]

    def retime(self, text):
        """Moves every timestamp by one offset so the file's first one falls on the ticket's time."""
        first = TIMESTAMP.search(text)
        if not first:
            return text
        origin = dt.datetime.strptime(first.group(1) + " " + first.group(2), "%Y-%m-%d %H:%M:%S")
        shift = self.when - origin + dt.timedelta(seconds=self.rng.randint(0, 600),
                                                  microseconds=self.rng.randint(0, 999999))

        def move(m):
            t = dt.datetime.strptime(m.group(1) + " " + m.group(2), "%Y-%m-%d %H:%M:%S")
            frac = m.group(3)
            if frac is not None:
                t += dt.timedelta(microseconds=int((frac + "000000")[:6]))
            t += shift
            out = t.strftime("%Y-%m-%d %H:%M:%S")
            if frac is not None:
                micro = "%06d" % t.microsecond
                out += "." + (micro + "0" * len(frac))[:len(frac)]
            return out
        return TIMESTAMP.sub(move, text)

    def vary(self, text, is_log):
        if is_log:
            text = UUID.sub(self.uuid, text)
            text = ADDRESS.sub(self.address, text)
            text = PID_TID.sub(self.pid_tid, text)
            for pattern in COUNTS:
                text = pattern.sub(lambda m: self.count(m.group(0)), text)
            text = STORE_NAMES.sub(lambda m: self.store[m.group(1)], text)
        else:
            text = CRASH_UUID.sub(lambda m: m.group(1) + self.uuid(re.match(".*", m.group(2))), text)
        return self.retime(text)

    def count(self, old):
        if "." in old:
            return "%.1f" % self.rng.uniform(1, 90)
        return str(self.rng.randint(1, 5000))


def canonical(text):
    """text with every part this script varies replaced by a placeholder: two findings whose messages have
    the same canonical text came from the same sample line, so a fingerprint must not tell them apart."""
    text = UUID.sub("<uuid>", text)
    text = ADDRESS.sub("<addr>", text)
    text = PID_TID.sub("[<pid>:<tid>]", text)
    for pattern in COUNTS:
        text = pattern.sub("<n>", text)
    text = re.sub(r"(?<=/)(Notes|NotesShared|Notes-2|Recipes|RecipesCloud|Recipes-v3)(?=\.sqlite)", "<store>", text)
    return TIMESTAMP.sub("<time>", text)


def entries(text):
    """(preamble lines, [entry lines]) of a console log."""
    preamble, out = [], []
    for line in text.splitlines(keepends=True):
        if ENTRY_START.match(line):
            out.append([line])
        elif out:
            out[-1].append(line)
        else:
            preamble.append(line)
    return preamble, out


def cut_log(rng, text):
    preamble, items = entries(text)
    kept = [e for e in items if rng.random() < KEEP_ENTRY]
    if not kept:
        kept = items
    return "".join(preamble) + "".join("".join(e) for e in kept)


def main(argv):
    ap = argparse.ArgumentParser(description="Make synthetic cdlog support tickets.")
    ap.add_argument("--out", required=True, help="folder to write (created; must be empty or absent)")
    ap.add_argument("--count", type=int, default=1000, help="tickets (default 1000)")
    ap.add_argument("--seed", type=int, default=28, help="random seed (default 28)")
    ap.add_argument("--users", type=int, default=300, help="distinct users (default 300)")
    a = ap.parse_args(argv)
    if a.count < 1 or a.users < 1:
        ap.error("--count and --users must be at least 1")
    if os.path.exists(a.out) and os.listdir(a.out):
        ap.error("%s is not empty" % a.out)
    rng = random.Random(a.seed)
    gaps = random.Random(a.seed + 1)  # its own stream: the gaps change nothing else
    logs = {name: open(os.path.join(LOGS, name), encoding="utf-8").read() for name in SCENARIOS}
    crashes = {name: open(os.path.join(CRASH, name), encoding="utf-8").read() for name in CRASHES}
    users = ["u-" + hashlib.sha256(("cdlog-fleet-user-%d-%d" % (a.seed, i)).encode()).hexdigest()[:16]
             for i in range(a.users)]
    # A few users file many tickets: weight 1/rank^0.7.
    user_weights = [(u, 1.0 / (i + 1) ** 0.7) for i, u in enumerate(users)]
    width = max(4, len(str(a.count)))
    os.makedirs(os.path.join(a.out, "tickets"), exist_ok=True)
    with open(os.path.join(a.out, "manifest.jsonl"), "w", encoding="utf-8") as manifest:
        for n in range(1, a.count + 1):
            ticket = "T-%0*d" % (width, n)
            day = rng.randrange(DAYS)
            when = START + dt.timedelta(days=day, seconds=rng.randrange(86400))
            released = [v for v, d in VERSIONS if d <= day]
            # Most users run the newest release; some are one or two behind.
            version = released[-1] if rng.random() < 0.7 or len(released) == 1 else rng.choice(released[:-1])
            os_version = weighted(rng, [p for d, p in OS_BY_DAY if d <= day][-1])
            user = weighted(rng, user_weights)
            t = Ticket(rng, when)
            folder = os.path.join(a.out, "tickets", ticket)
            os.makedirs(folder)
            files = []
            names = [weighted(rng, [(k, w[version]) for k, w in SCENARIOS.items()])]
            if rng.random() < SECOND_LOG_SHARE:
                second = weighted(rng, [(k, w[version]) for k, w in SCENARIOS.items() if k != names[0]])
                names.append(second)
            for i, name in enumerate(names):
                rel = os.path.join("tickets", ticket, "console.log" if i == 0 else "console-%d.log" % (i + 1))
                with open(os.path.join(a.out, rel), "w", encoding="utf-8") as f:
                    f.write(t.vary(cut_log(rng, logs[name]), True))
                files.append(rel)
            if rng.random() < CRASH_SHARE:
                name = weighted(rng, [(k, w[version]) for k, w in CRASHES.items()])
                rel = os.path.join("tickets", ticket, name)
                with open(os.path.join(a.out, rel), "w", encoding="utf-8") as f:
                    f.write(t.vary(crashes[name], False))
                files.append(rel)
            # A few tickets lack what the support system should have recorded (null in the manifest: no
            # --resource for it), so unknown versions and OSes, and crash reports' own, get counted too.
            known_version = version if gaps.random() >= UNKNOWN_VERSION else None
            x = gaps.random()
            os_name, known_os = ("iOS", os_version) if x >= UNKNOWN_OS_VERSION + UNKNOWN_OS else \
                ("iOS", None) if x >= UNKNOWN_OS else (None, None)
            manifest.write(json.dumps({
                "ticket": ticket, "user": user, "appVersion": known_version, "osName": os_name,
                "osVersion": known_os, "date": when.strftime("%Y-%m-%d"), "files": files,
                "scenarios": names}, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
