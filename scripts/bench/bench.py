#!/usr/bin/env python3
"""cdlog's speed benchmark: classify a large realistic console log and compare with general tools.

usage: scripts/bench/bench.py [--size-mb N] [--runs N] [--styles xcode,ndjson] [--skip-grep] [--timeout S]

1. Builds cdlog in release mode and generates bench-data/bench-<N>mb.<style> with generate-log.py
   (deterministic; reused when present).
2. Exports the catalog's PCRE2 patterns (`cdlog rules list --format json`) and runs, interleaved, each
   several times: `cdlog classify --format jsonl` on 1 thread and on all cores, `rg -c` (its default
   engine; patterns it cannot compile — lookarounds — are left out), `rg -P -c`, and `grep -E -c`
   (patterns translated to ERE where possible). Each tool counts lines matching any rule pattern;
   cdlog does more (entries, classification, fields, JSON output).
3. Prints median seconds, MB/s, the ratio to the fastest general tool, every tool's peak RSS (from
   wait4), the cost of loading and JIT-compiling the rules, and the time for a 10-line input.
A general tool that runs longer than --timeout seconds (default 120) is stopped and shown as
"> S s" (ripgrep's default engine collapses on `\b` next to non-ASCII text).
Timings are of this machine with a warm page cache.
"""
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "bench-data")


def build_release(product):
    """Builds `product` in release mode and returns the path of its executable.

    The only place the build command is set: to build differently (e.g. add "--static-swift-stdlib", or
    "--scratch-path", ".build-bench" to keep the benchmark's build apart), change `command` here."""
    command = ["swift", "build", "-c", "release"]
    subprocess.run(command + ["--product", product], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(command + ["--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout.strip()
    return os.path.join(bin_path, product)


def peak_mib(usage):
    """Peak RSS from a struct rusage, in MiB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    return usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)


def run_timed(argv, timeout=None, stdout_path=None):
    """Runs argv (stdin and stderr /dev/null, stdout to stdout_path or /dev/null) and waits for it with wait4,
    so that the time and the peak RSS are this process's own.

    Returns (seconds, peak RSS in MiB, exit code). A run longer than `timeout` seconds is killed and its
    time is `inf`."""
    with open(stdout_path or os.devnull, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.DEVNULL)
        lock, state = threading.Lock(), {"exited": False, "killed": False}

        def stop():
            with lock:
                if not state["exited"]:
                    os.kill(proc.pid, signal.SIGKILL)
                    state["killed"] = True

        timer = threading.Timer(timeout, stop) if timeout else None
        if timer:
            timer.start()
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: the pid stays ours
        elapsed = time.perf_counter() - start
        with lock:
            state["exited"] = True
        if timer:
            timer.cancel()
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return (float("inf") if state["killed"] else elapsed), peak_mib(usage), proc.returncode


def ere(pattern):
    """Translates a PCRE2 pattern to a GNU ERE that matches the same lines, or returns None when it cannot.

    Translated: `(?:` → `(`, named groups → `(`, lazy quantifiers → greedy (same lines match), `\\d` →
    `[0-9]`, `\\'` → `'`, and inside a bracket expression (where ERE has no escapes) `\\d`, `\\w`, `\\s`,
    `\\n` (dropped: a line holds no newline) and escaped punctuation. Left out (None): lookarounds, atomic
    and possessive groups, inline flags — so caseless patterns too, to keep the ERE set case-sensitive —,
    back-references, Unicode properties and `\\n` outside a bracket expression."""
    pattern = anonymous_groups(pattern)
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            e = pattern[i + 1:i + 2]
            if e == "d":
                out.append("[0-9]")
            elif e == "D":
                out.append("[^0-9]")
            elif e in ("'", '"', "/", "-", ":", "<", ">", "=", "@", "#", "%", "&", ",", ";", "_", "~", "`"):
                out.append(e)  # escaped punctuation that is a literal in ERE (and `\\'` an anchor in GNU's)
            elif e in ("]", "}"):
                out.append(e)
            elif e and e in "bBwWsS.()[{\\+*?|^$":
                out.append("\\" + e)
            else:
                return None
            i += 2
        elif c == "[":
            j, negated, body = i + 1, False, []
            if pattern[j:j + 1] == "^":
                negated, j = True, j + 1
            if pattern[j:j + 1] == "]":
                body.append("]")
                j += 1
            while j < n and pattern[j] != "]":
                if pattern[j] == "\\":
                    e = pattern[j + 1:j + 2]
                    if e == "n":
                        pass
                    elif e in ("d", "w", "s"):
                        body.append({"d": "0-9", "w": "[:alnum:]_", "s": "[:space:]"}[e])
                    elif e and e in "'\"/.\\":
                        body.append(e)
                    else:
                        return None
                    j += 2
                elif pattern[j] == "[":
                    return None
                else:
                    body.append(pattern[j])
                    j += 1
            text = "".join(body)
            if j >= n or (text.startswith("^") and not negated):
                return None
            if not text:  # `[^\n]`: any character of the line; `[\n]`: none
                if not negated:
                    return None
                out.append(".")
            else:
                out.append("[" + ("^" if negated else "") + text + "]")
            i = j + 1
        elif c == "(":
            if pattern[i + 1:i + 2] == "?":
                if pattern[i + 2:i + 3] != ":":
                    return None
                i += 3
            else:
                i += 1
            out.append("(")
        elif c in "*+?" or (c == "{" and re.match(r"\{\d+(,\d*)?\}", pattern[i:])):
            quantifier = re.match(r"\{\d+(,\d*)?\}", pattern[i:]).group(0) if c == "{" else c
            out.append(quantifier)
            i += len(quantifier)
            if pattern[i:i + 1] == "?":
                i += 1
            elif pattern[i:i + 1] == "+":
                return None
        elif c in "{}":
            out.append("\\" + c)
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def anonymous_groups(pattern):
    """Combined into one pattern set, the same group name may not appear twice: make groups anonymous."""
    return re.sub(r"\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>", "(?:", pattern)


def main():
    size_mb, runs, styles, skip_grep, timeout = 1024, 3, ["xcode", "ndjson"], False, 120.0
    args = sys.argv[1:]
    while args:
        if args[0] == "--size-mb":
            size_mb = int(args[1]); args = args[2:]
        elif args[0] == "--runs":
            runs = int(args[1]); args = args[2:]
        elif args[0] == "--styles":
            styles = args[1].split(","); args = args[2:]
        elif args[0] == "--timeout":
            timeout = float(args[1]); args = args[2:]
        elif args[0] == "--skip-grep":
            skip_grep = True; args = args[1:]
        else:
            sys.exit(__doc__)
    os.makedirs(DATA, exist_ok=True)
    cdlog = build_release("cdlog")
    cores = os.cpu_count() or 1

    rules = json.loads(subprocess.run([cdlog, "rules", "list", "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)["rules"]
    patterns = [anonymous_groups(p) for rule in rules for p in rule["patterns"]]
    tmp = tempfile.mkdtemp(prefix="cdlog-bench-")
    pcre_file = os.path.join(tmp, "pcre.txt")
    with open(pcre_file, "w") as f:
        f.write("\n".join(patterns) + "\n")
    rust_ok = []
    for p in patterns:
        check = subprocess.run(["rg", "-q", "-e", p, "/dev/null"], capture_output=True)
        if check.returncode in (0, 1):
            rust_ok.append(p)
    rust_file = os.path.join(tmp, "rust.txt")
    with open(rust_file, "w") as f:
        f.write("\n".join(rust_ok) + "\n")
    ere_ok = [e for e in (ere(p) for p in patterns) if e is not None]
    ere_file = os.path.join(tmp, "ere.txt")
    with open(ere_file, "w") as f:
        f.write("\n".join(ere_ok) + "\n")
    print(f"rules: {len(rules)}, patterns: {len(patterns)} (rg default engine: {len(rust_ok)}, grep -E: {len(ere_ok)})")

    # Start-up costs.
    ten = os.path.join(tmp, "ten.log")
    with open(ten, "w") as f:
        for i in range(10):
            f.write(f"2024-03-01 10:00:0{i}.000000+0100 MyApp[1:2] CoreData: debug: CoreData+CloudKit: line {i}\n")
    load = statistics.median(run_timed([cdlog, "rules", "list"])[0] for _ in range(7))
    small = statistics.median(run_timed([cdlog, "classify", "--format", "jsonl", ten])[0] for _ in range(7))
    print(f"loading and JIT-compiling the rules (cdlog rules list): {load * 1000:.0f} ms; a 10-line input: {small * 1000:.0f} ms\n")

    for style in styles:
        path = os.path.join(DATA, f"bench-{size_mb}mb.{'log' if style == 'xcode' else 'ndjson'}")
        if not os.path.exists(path):
            print(f"generating {path} …", flush=True)
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/generate-log.py"), str(size_mb), path,
                            "--style", style], check=True)
        mb = os.path.getsize(path) / 1e6
        tools = [
            (f"cdlog classify --format jsonl (1 thread)", [cdlog, "classify", "--threads", "1", "--format", "jsonl", path], True),
            (f"cdlog classify --format jsonl ({cores} threads)", [cdlog, "classify", "--threads", str(cores), "--format", "jsonl", path], True),
            ("rg -c", ["rg", "-c", "-f", rust_file, path], False),
            ("rg -P -c", ["rg", "-P", "-c", "-f", pcre_file, path], False),
        ]
        if not skip_grep:
            tools.append(("grep -E -c", ["grep", "-E", "-c", "-f", ere_file, path], False))
        times = {name: [] for name, _, _ in tools}
        rss = {}
        counts = {}
        for _ in range(runs):
            for name, argv, is_cdlog in tools:
                out_path = None if is_cdlog else os.path.join(tmp, "count.txt")
                seconds, peak, code = run_timed(argv, timeout=None if is_cdlog else timeout, stdout_path=out_path)
                if out_path and seconds != float("inf"):
                    counts[name] = open(out_path).read().strip() or "0"
                if code not in (0, 1) and seconds != float("inf"):
                    print(f"  {name} exited {code}", file=sys.stderr)
                times[name].append(seconds)
                rss[name] = max(rss.get(name, 0), peak)
        medians = {name: statistics.median(v) for name, v in times.items()}
        fastest_other = min(v for name, v in medians.items() if not name.startswith("cdlog"))
        print(f"{style} style, {mb:.0f} MB, median of {runs} interleaved runs")
        print(f"| tool | median s | MB/s | speed vs fastest general tool | peak RSS |")
        print(f"|---|---:|---:|---:|---:|")
        for name, _, _ in tools:
            m = medians[name]
            if m == float("inf"):
                print(f"| {name} | > {timeout:.0f} (stopped) | < {mb / timeout:.1f} | – | |")
                continue
            peak = f"{rss[name]:.1f} MiB"
            ratio_text = f"> {timeout / m:.1f}×" if fastest_other == float("inf") else f"{fastest_other / m:.2f}×"
            matched = f" ({counts[name]} lines matched)" if name in counts else ""
            print(f"| {name}{matched} | {m:.2f} | {mb / m:.0f} | {ratio_text} | {peak} |")
        print()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
