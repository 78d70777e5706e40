#!/usr/bin/env python3
"""cdlog's and walcheck's speed and memory benchmark: one command for the figures of issue #7.

usage: scripts/bench/bench.py [--size-mb N] [--runs N] [--styles xcode,ndjson] [--timeout S] [--skip-grep]
                              [--walcheck-mb N] [--skip-walcheck | --only-walcheck]

  --size-mb N       size of the generated console log, per style (default 1024)
  --runs N          runs of every tool (interleaved) and of walcheck's summary and verification;
                    medians are printed (default 3)
  --styles LIST     comma-separated log styles: xcode, ndjson (default xcode,ndjson)
  --timeout S       a general tool (rg, grep) running longer than S seconds is stopped and shown as
                    "> S" (default 30; ripgrep's default engine collapses on `\\b` next to non-ASCII text)
  --skip-grep       leave GNU grep out (rg and rg -P only)
  --walcheck-mb N   size of the WAL for the walcheck part (default 4096)
  --skip-walcheck   run the classify part only
  --only-walcheck   run the walcheck part only

Classify part
1. Builds cdlog in release mode (build_release) and generates, with generate-log.py (deterministic; reused
   when present), bench-data/bench-<N>mb.<log|ndjson>, a 10 MB file of the same style, and a 2 MB sample.
2. Exports the catalog's PCRE2 patterns (`cdlog rules list --format json`; named groups made anonymous) and
   builds two pattern sets for the general tools:
   - full catalog: every pattern; rg's default engine leaves out the patterns it cannot compile
     (lookarounds; with --no-unicode also a non-ASCII class), grep -E those without an ERE translation;
   - typical set: 38 patterns chosen by select_typical() (the bench log's Core Data / CloudKit shapes, then
     common error rules), the same 38 for every tool, written to bench-data/typical-patterns.* .
3. Runs, interleaved, each --runs times: `cdlog classify --format jsonl` on 1 thread and on all cores
   (always with its whole catalog), and `rg -c`, `rg -c --no-unicode`, `rg -P -c`, `grep -E -c` (in this
   environment's locale) and `LC_ALL=C grep -E -c` with each pattern set. A general tool counts lines
   matching any pattern of its set; cdlog does more (entries, classification, fields, JSON output).
   cdlog's patterns have ASCII \\b, \\w and \\d (PCRE2 with UTF, without UCP): rg --no-unicode and grep
   in the C locale have the same semantics; rg's default engine, rg -P and grep in a UTF-8 locale use
   Unicode classes, which cost them much of their speed on this log (Japanese lines).
4. Prints first the cost of loading and JIT-compiling the rules and the time for a 10-line input; then,
   per style, one table per pattern set: median seconds, MB/s, speed relative to the fastest general
   tool on that set (below 1× when slower), peak RSS (GNU time's %M, else wait4); and cdlog's peak RSS on
   the 10 MB file next to the big one's, on 1 thread and on all cores.

Walcheck part
Runs scripts/bench-walcheck.sh N RUNS with the walcheck built here, on a store whose WAL is N MB, left as
a killed app leaves it (bench-data/wal-<N>mb/, generated on the first run: a few minutes for 4 GB). It
prints the median time and the peak RSS of walcheck's summary (frame headers only) and of
--verify-checksums (with the WAL's MB/s), one run with SQL, and SQLite's own recovery and checkpoint on
copies for comparison.

Generated data lives in bench-data/ (git-ignored). Timings are this machine's, with a warm page cache.
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
TYPICAL_COUNT = 38   # the size of the "typical pattern set" measured in issue #7
SAMPLE_MB = 2        # the generated sample the typical set is chosen on
CRASH_REPORT_RULES = ("crash.yaml", "watchdog-crash.yaml")  # rule files for crash reports, not console lines
RSS_SMALL_MB = 10    # cdlog's peak RSS is also measured on a file this size, to show it does not grow


def build_release(product):
    """Builds `product` in release mode and returns the path of its executable.

    Built as users build it (scripts/build-release.sh: on Linux with the Swift runtime linked in).
    bench-walcheck.sh uses the walcheck built here (WALCHECK_BIN) when run from this script."""
    bin_path = subprocess.run(["scripts/build-release.sh", product], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout.strip()
    return os.path.join(bin_path, product)


def gnu_time():
    """/usr/bin/time when it is GNU time (`-f %M`), else None.

    wait4's ru_maxrss is no less than the launching process's own peak RSS: Linux carries the old memory
    map's high-water mark over exec, and Python starts children by vfork or fork. This script's RSS
    (15 MiB and more) would hide anything smaller. GNU time, a small C program, reports its child's peak
    from about 1 MiB up."""
    try:
        probe = subprocess.run(["/usr/bin/time", "-f", "%M", "true"], capture_output=True, text=True)
    except OSError:
        return None
    return "/usr/bin/time" if probe.returncode == 0 and probe.stderr.strip().isdigit() else None


GNU_TIME = gnu_time()


def run_timed(argv, timeout=None, stdout_path=None):
    """Runs argv (stdin and stderr /dev/null, stdout to stdout_path or /dev/null) and waits for it.

    Returns (seconds, peak RSS in MiB, exit code). The peak RSS comes from GNU time when there is one,
    else from wait4 (then it is at least this script's own). A run longer than `timeout` seconds is
    killed, with its process group, and its time is `inf`."""
    rss_file = tempfile.NamedTemporaryFile(prefix="cdlog-bench-rss-", delete=False)
    rss_file.close()
    if GNU_TIME:
        argv = [GNU_TIME, "-f", "%M", "-o", rss_file.name] + argv
    with open(stdout_path or os.devnull, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        lock, state = threading.Lock(), {"exited": False, "killed": False}

        def stop():
            with lock:
                if not state["exited"]:
                    os.killpg(proc.pid, signal.SIGKILL)
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
    peak = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)  # KiB on Linux, bytes on macOS
    if GNU_TIME and not state["killed"]:
        peak = int(open(rss_file.name).read().split()[-1]) / 1024  # the last line: "Command exited …" may precede it
    os.unlink(rss_file.name)
    return (float("inf") if state["killed"] else elapsed), peak, proc.returncode


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


def write_lines(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def ensure_log(size_mb, style):
    """Returns the path of the generated log of this size and style, generating it when absent."""
    path = os.path.join(DATA, f"bench-{size_mb}mb.{'log' if style == 'xcode' else 'ndjson'}")
    if not os.path.exists(path):
        print(f"generating {path} …", flush=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/generate-log.py"), str(size_mb), path,
                        "--style", style], check=True)
    return path


def rg_compiles(flags, pattern):
    """Whether rg, with these flags, accepts the pattern (its default engine rejects lookarounds, for one)."""
    return subprocess.run(["rg", *flags, "-q", "-e", pattern, "/dev/null"], capture_output=True).returncode in (0, 1)


def select_typical(rules, rg_ok, sample):
    """Chooses TYPICAL_COUNT patterns a user would grep a Core Data / CloudKit log for, deterministically.

    Only portable patterns are candidates: rg's default engine compiles them with and without Unicode
    (`rg_ok`) and they have an ERE translation, so every general tool runs exactly the same set. Then:
    1. "in the log": for every rule, its candidate matching the most lines of `sample` (`rg -P -c`; ties:
       the earlier pattern); the rules matching at least one line, most lines first (ties: catalog order);
    2. "common rule", to fill up to TYPICAL_COUNT: rules of severity error or fatal, taking the categories in
       turn (categories in catalog order, rules within a category in catalog order), each rule with its
       first candidate not already taken. Rules written for crash reports (CRASH_REPORT_RULES) are left out: the input is a
       console log.
    A rule, or a pattern text, is taken once. Returns [(rule id, reason, sample lines, pattern, ERE)]."""
    candidates = []  # (rule index, pattern)
    for index, rule in enumerate(rules):
        for p in rule["patterns"]:
            p = anonymous_groups(p)
            if p in rg_ok and ere(p) is not None:
                candidates.append((index, p))
    lines = {}
    for _, p in candidates:
        if p not in lines:
            out = subprocess.run(["rg", "-P", "-c", "-e", p, sample], capture_output=True, text=True).stdout
            lines[p] = int(out.strip() or 0)

    chosen, taken_rules, taken_patterns = [], set(), set()

    def take(index, pattern, reason):
        """Adds the pattern unless its rule or its text is already in; returns whether it was added."""
        if index in taken_rules or pattern in taken_patterns:
            return False
        taken_rules.add(index)
        taken_patterns.add(pattern)
        chosen.append((rules[index]["id"], reason, lines[pattern], pattern, ere(pattern)))
        return True

    best = {}  # rule index → its candidate matching the most sample lines
    for index, p in candidates:
        if lines[p] > 0 and (index not in best or lines[p] > lines[best[index]]):
            best[index] = p
    for index in sorted(best, key=lambda i: (-lines[best[i]], i))[:TYPICAL_COUNT]:
        take(index, best[index], "in the log")

    queues = {}  # category → [(rule index, candidates in order)] of its error/fatal console-log rules
    for index, p in candidates:
        rule = rules[index]
        rule_file = os.path.basename(rule.get("source", "").split(":")[0])
        if rule["severity"] in ("error", "fatal") and rule_file not in CRASH_REPORT_RULES:
            queue = queues.setdefault(rule["category"], [])
            if not queue or queue[-1][0] != index:
                queue.append((index, []))
            queue[-1][1].append(p)
    while len(chosen) < TYPICAL_COUNT and any(queues.values()):
        for category, queue in queues.items():
            while queue and len(chosen) < TYPICAL_COUNT:
                index, ps = queue.pop(0)
                p = next((p for p in ps if p not in taken_patterns), None)
                if p is not None and take(index, p, f"common rule ({category}, {rules[index]['severity']})"):
                    break
    return chosen


def ratio_text(fastest, seconds, timeout):
    """Speed relative to the fastest general tool: above 1× faster, below 1× slower (said in words too)."""
    if fastest == float("inf"):
        return f"> {timeout / seconds:.1f}×"
    ratio = fastest / seconds
    if ratio < 0.995:
        slower = 1 / ratio
        return f"{ratio:.2f}× ({slower:.2f}× slower)" if slower < 10 else f"{ratio:.2f}× ({slower:.0f}× slower)"
    return f"{ratio:.2f}×"


def print_table(caption, names, medians, rss, counts, mb, timeout, failed=None):
    failed = failed or {}
    # A tool that failed (exit status 2: a pattern it rejects, a missing file) measured nothing.
    fastest = min((medians[n] for n in names if not n.startswith("cdlog") and n not in failed), default=float("inf"))
    print(caption)
    print("| tool | median s | MB/s | speed vs fastest general tool | peak RSS |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        m = medians[name]
        if name in failed:
            print(f"| {name} | exited {failed[name]} (not a measurement) | – | – | |")
            continue
        if m == float("inf"):
            print(f"| {name} | > {timeout:.0f} (stopped) | < {mb / timeout:.1f} | – | |")
            continue
        matched = f" ({counts[name]} lines matched)" if name in counts else ""
        print(f"| {name}{matched} | {m:.2f} | {mb / m:.0f} | {ratio_text(fastest, m, timeout)} | {rss[name]:.1f} MiB |")
    print()


def classify_part(size_mb, runs, styles, skip_grep, timeout):
    os.makedirs(DATA, exist_ok=True)
    cdlog = build_release("cdlog")
    cores = os.cpu_count() or 1

    rules = json.loads(subprocess.run([cdlog, "rules", "list", "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)["rules"]
    patterns = [anonymous_groups(p) for rule in rules for p in rule["patterns"]]
    tmp = tempfile.mkdtemp(prefix="cdlog-bench-")
    # rg -P rejects a few of cdlog's PCRE2 patterns (its own flags): those are left out of its set, as the
    # patterns rg's default engine cannot compile are left out of that one.
    pcre_ok = [p for p in patterns if rg_compiles(["-P"], p)]
    full_pcre = os.path.join(tmp, "pcre.txt")
    write_lines(full_pcre, pcre_ok)
    rust_ok = [p for p in patterns if rg_compiles([], p)]
    full_rust = os.path.join(tmp, "rust.txt")
    write_lines(full_rust, rust_ok)
    ascii_ok = [p for p in rust_ok if rg_compiles(["--no-unicode"], p)]
    full_ascii = os.path.join(tmp, "ascii.txt")
    write_lines(full_ascii, ascii_ok)
    ere_ok = [e for e in (ere(p) for p in patterns) if e is not None]
    full_ere = os.path.join(tmp, "ere.txt")
    write_lines(full_ere, ere_ok)
    print(f"rules: {len(rules)}, patterns: {len(patterns)} (rg default engine: {len(rust_ok)}, rg --no-unicode: "
          f"{len(ascii_ok)}, rg -P: {len(pcre_ok)}, grep -E: {len(ere_ok)})")
    locale = next((os.environ[v] for v in ("LC_ALL", "LC_CTYPE", "LANG") if os.environ.get(v)), "C")
    print("cdlog's PCRE2 patterns have ASCII \\b, \\w, \\d (UTF without UCP), as have rg --no-unicode and grep in the "
          f"C locale;\nrg's default engine, rg -P and grep in a UTF-8 locale use Unicode classes (grep -E runs in "
          f"this environment's locale: {locale})")

    sample = ensure_log(SAMPLE_MB, "xcode")
    typical = select_typical(rules, set(ascii_ok), sample)
    typical_pcre = os.path.join(DATA, "typical-patterns.pcre.txt")  # for rg and rg -P
    typical_ere = os.path.join(DATA, "typical-patterns.ere.txt")    # for grep -E
    write_lines(typical_pcre, [t[3] for t in typical])
    write_lines(typical_ere, [t[4] for t in typical])
    with open(os.path.join(DATA, "typical-patterns.tsv"), "w") as f:
        f.write(f"rule\twhy chosen\tlines matched in {os.path.basename(sample)}\tpattern (rg, rg -P)\tpattern (grep -E)\n")
        for row in typical:
            f.write("\t".join(str(x) for x in row) + "\n")
    in_log = sum(1 for t in typical if t[1] == "in the log")
    print(f"typical set: {len(typical)} patterns ({in_log} from rules matching the {SAMPLE_MB} MB sample, "
          f"{len(typical) - in_log} common error rules), see bench-data/typical-patterns.tsv")

    # Start-up costs.
    ten = os.path.join(tmp, "ten.log")
    write_lines(ten, [f"2024-03-01 10:00:0{i}.000000+0100 MyApp[1:2] CoreData: debug: CoreData+CloudKit: line {i}"
                      for i in range(10)])
    load = statistics.median(run_timed([cdlog, "rules", "list"])[0] for _ in range(7))
    small = statistics.median(run_timed([cdlog, "classify", "--format", "jsonl", ten])[0] for _ in range(7))
    print(f"loading and JIT-compiling the rules (cdlog rules list): {load * 1000:.0f} ms; a 10-line input: {small * 1000:.0f} ms\n")

    for style in styles:
        path = ensure_log(size_mb, style)
        small_path = ensure_log(RSS_SMALL_MB, style)
        mb = os.path.getsize(path) / 1e6
        cdlog_runs = [
            ("cdlog classify --format jsonl (1 thread)", "1"),
            (f"cdlog classify --format jsonl ({cores} threads)", str(cores)),
        ]
        tools = [(name, [cdlog, "classify", "--threads", threads, "--format", "jsonl", path], None)
                 for name, threads in cdlog_runs]
        for label, rust_file, ascii_file, pcre_file, ere_file in [
            ("", full_rust, full_ascii, full_pcre, full_ere),
            (f", {len(typical)} typical patterns", typical_pcre, typical_pcre, typical_pcre, typical_ere),
        ]:
            tools.append((f"rg -c{label}", ["rg", "-c", "-f", rust_file, path], "count"))
            tools.append((f"rg -c --no-unicode{label}", ["rg", "-c", "--no-unicode", "-f", ascii_file, path], "count"))
            tools.append((f"rg -P -c{label}", ["rg", "-P", "-c", "-f", pcre_file, path], "count"))
            if not skip_grep:
                tools.append((f"grep -E -c{label}", ["grep", "-E", "-c", "-f", ere_file, path], "count"))
                tools.append((f"LC_ALL=C grep -E -c{label}", ["env", "LC_ALL=C", "grep", "-E", "-c", "-f", ere_file, path],
                              "count"))

        times = {name: [] for name, _, _ in tools}
        rss, counts, failed = {}, {}, {}
        count_path = os.path.join(tmp, "count.txt")
        for _ in range(runs):
            for name, argv, kind in tools:
                out_path = count_path if kind == "count" else None
                seconds, peak, code = run_timed(argv, timeout=timeout if kind == "count" else None, stdout_path=out_path)
                if code not in (0, 1) and seconds != float("inf"):
                    print(f"  {name} exited {code}", file=sys.stderr)
                    failed[name] = code
                if out_path and seconds != float("inf"):
                    counts[name] = open(out_path).read().strip() or "0"
                times[name].append(seconds)
                rss[name] = max(rss.get(name, 0), peak)
        medians = {name: statistics.median(v) for name, v in times.items()}

        cdlog_names = [name for name, _ in cdlog_runs]
        full_names = cdlog_names + [n for n, _, _ in tools if n not in cdlog_names and "typical" not in n]
        typical_names = cdlog_names + [n for n, _, _ in tools if "typical" in n]
        print_table(f"{style} style, {mb:.0f} MB, median of {runs} interleaved runs — full catalog: the general "
                    f"tools count lines matching all {len(patterns)} patterns ({len(rules)} rules)",
                    full_names, medians, rss, counts, mb, timeout, failed)
        print_table(f"{style} style, {mb:.0f} MB, same runs — typical pattern set: the general tools count lines "
                    f"matching {len(typical)} typical patterns (bench-data/typical-patterns.tsv); cdlog still "
                    f"runs its full catalog ({len(rules)} rules, {len(patterns)} patterns) and classifies",
                    typical_names, medians, rss, counts, mb, timeout, failed)

        small_mb = os.path.getsize(small_path) / 1e6
        print(f"cdlog peak RSS by input size ({style} style, max of {runs} runs each; issue #7's target: at most "
              f"32 MB whatever the input size)")
        print(f"| cdlog classify --format jsonl | {small_mb:.0f} MB | {mb:.0f} MB | difference |")
        print("|---|---:|---:|---:|")
        for name, threads in cdlog_runs:
            small_rss = max(run_timed([cdlog, "classify", "--threads", threads, "--format", "jsonl", small_path])[1]
                            for _ in range(runs))
            label = name[len("cdlog classify --format jsonl ("):-1]
            print(f"| {label} | {small_rss:.1f} MiB | {rss[name]:.1f} MiB | {rss[name] - small_rss:+.1f} MiB |")
        print()
    shutil.rmtree(tmp, ignore_errors=True)


def walcheck_part(wal_mb, runs):
    walcheck = build_release("walcheck")
    print(f"walcheck, {wal_mb} MB WAL (scripts/bench-walcheck.sh {wal_mb} {runs})", flush=True)
    subprocess.run(["bash", os.path.join(ROOT, "scripts/bench-walcheck.sh"), str(wal_mb), str(runs)], cwd=ROOT,
                   check=True, env=dict(os.environ, WALCHECK_BIN=walcheck))


def main():
    size_mb, runs, styles, skip_grep, timeout = 1024, 3, ["xcode", "ndjson"], False, 30.0
    wal_mb, classify, walcheck = 4096, True, True
    args = sys.argv[1:]
    try:
        while args:
            flag = args.pop(0)
            if flag == "--size-mb":
                size_mb = int(args.pop(0))
            elif flag == "--runs":
                runs = int(args.pop(0))
            elif flag == "--styles":
                styles = args.pop(0).split(",")
            elif flag == "--timeout":
                timeout = float(args.pop(0))
            elif flag == "--skip-grep":
                skip_grep = True
            elif flag == "--walcheck-mb":
                wal_mb = int(args.pop(0))
            elif flag == "--skip-walcheck":
                walcheck = False
            elif flag == "--only-walcheck":
                classify = False
            else:
                sys.exit(__doc__)
    except (IndexError, ValueError):
        sys.exit(__doc__)
    if not (classify or walcheck) or any(s not in ("xcode", "ndjson") for s in styles):
        sys.exit(__doc__)
    if classify:
        classify_part(size_mb, runs, styles, skip_grep, timeout)
    if walcheck:
        walcheck_part(wal_mb, runs)


if __name__ == "__main__":
    main()
