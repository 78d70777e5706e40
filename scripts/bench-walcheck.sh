#!/usr/bin/env bash
# Benchmark walcheck against SQLite's own WAL recovery on a large WAL.
#
#   scripts/bench-walcheck.sh [SIZE_MB [RUNS]]      (defaults 4096 and 3; scripts/bench/bench.py runs it too)
#
# 1. Builds walcheck in release mode — or uses $WALCHECK_BIN when set (bench.py sets it to the walcheck it
#    built).
# 2. Makes bench-data/wal-<SIZE_MB>mb/bench.sqlite with a SIZE_MB WAL using the sqlite3 CLI: journal_mode=WAL,
#    wal_autocheckpoint=0, ~4 MB transactions; the sqlite3 process is then killed with SIGKILL, so no
#    close-time checkpoint runs and the -wal and -shm stay exactly as a killed app leaves them.
#    (Reused on later runs when present; delete bench-data/ to rebuild.)
# 3. Times walcheck (summary and full checksum verification: median of RUNS runs; with SQL on a private
#    copy: once) and SQLite's recovery (a read-only open of a copy without -shm) and a TRUNCATE checkpoint
#    on another copy (once each), and prints each one's peak RSS (GNU time's %M when available, else
#    wait4) and, for --verify-checksums, the WAL's MB/s.
# Generated data lives in bench-data/ (git-ignored). Timings are this machine's, with a warm page cache.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB="${1:-4096}"
RUNS="${2:-3}"
DATA="bench-data/wal-${SIZE_MB}mb"
DB="$DATA/bench.sqlite"
command -v sqlite3 >/dev/null || { echo "bench: the sqlite3 CLI is required" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench: python3 is required" >&2; exit 2; }

if [ -n "${WALCHECK_BIN:-}" ]; then
    BIN="$WALCHECK_BIN"
else
    BIN="$(scripts/build-release.sh walcheck 2>/dev/null)/walcheck"
fi

if [ ! -f "$DB-wal" ] || [ "$(stat -c %s "$DB-wal" 2>/dev/null || stat -f %z "$DB-wal")" -lt $((SIZE_MB * 1000000)) ]; then
    echo "generating $DB with a ${SIZE_MB} MB WAL (takes a while; reused on later runs) …"
    rm -rf "$DATA"; mkdir -p "$DATA"
    ROWS=1000; BLOB=3500                          # one transaction ≈ 1000 × (3.5 KB row → ~1 page) ≈ 4 MB of WAL
    TXNS=$(( SIZE_MB * 1048576 / (ROWS * 4120) + 1 ))
    MARK="$DATA/.done"
    mkfifo "$DATA/.fifo"
    sqlite3 "$DB" < "$DATA/.fifo" > /dev/null &
    SQLITE_PID=$!
    exec 3> "$DATA/.fifo"                      # our write end keeps sqlite3 reading (and alive)
    {
        echo "PRAGMA journal_mode=WAL;"
        echo "PRAGMA wal_autocheckpoint=0;"
        echo "CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB);"
        for _ in $(seq 1 "$TXNS"); do
            echo "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < $ROWS) INSERT INTO t(v) SELECT randomblob($BLOB) FROM n;"
        done
        echo ".shell touch $MARK"
    } >&3
    while [ ! -f "$MARK" ]; do sleep 1; done
    kill -9 "$SQLITE_PID"                     # like iOS killing the app: no close-time checkpoint
    wait "$SQLITE_PID" 2>/dev/null || true
    exec 3>&-
    rm -f "$MARK" "$DATA/.fifo"
fi

size() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }
# measure RUNS OUT CMD…: runs CMD RUNS times with stdout to OUT and prints "SECONDS PEAK_MIB": the median wall
# time and the largest peak RSS. The peak comes from GNU time (-f %M) when /usr/bin/time is GNU's, else from
# wait4 in the Python launcher — then it is at least the launcher's own (~10 MiB): Linux carries the
# high-water mark over exec. Fails when CMD fails.
GNU_TIME=""
if /usr/bin/time -f %M true >/dev/null 2>&1; then GNU_TIME=/usr/bin/time; fi
measure() {
    python3 -c '
import os, statistics, subprocess, sys, tempfile, time
runs, out, gnu_time, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
rss = tempfile.NamedTemporaryFile(prefix="bench-rss-", delete=False)
rss.close()
if gnu_time:
    argv = [gnu_time, "-f", "%M", "-o", rss.name] + argv
times, peaks = [], []
for _ in range(runs):
    with open(out, "wb") as f:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=f)
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - start)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(proc.returncode)
    if gnu_time:
        peaks.append(int(open(rss.name).read().split()[-1]))
    else:
        peaks.append(usage.ru_maxrss // (1024 if sys.platform == "darwin" else 1))
os.unlink(rss.name)
print(f"{statistics.median(times):.3f} {max(peaks) / 1024:.1f}")
' "$1" "$2" "$GNU_TIME" "${@:3}"
}
# report LABEL RUNS OUT CMD…: measures CMD and prints LABEL, seconds and peak RSS (and the WAL's MB/s with MBPS=1).
report() {
    local label="$1" result seconds rss rate=""
    shift
    [ "$1" -gt 1 ] && label="$label, median of $1"
    result="$(measure "$@")"
    read -r seconds rss <<< "$result"
    if [ "${MBPS:-0}" = 1 ]; then
        rate="$(python3 -c "import sys; print(f'{int(sys.argv[1]) / 1e6 / float(sys.argv[2]):.0f}')" "$WAL_BYTES" "$seconds") MB/s of WAL, "
    fi
    printf '%-82s %8s s, %speak RSS %s MiB\n' "$label:" "$seconds" "$rate" "$rss"
}
WAL_BYTES="$(size "$DB-wal")"
echo "store: $DB  database $(size "$DB") bytes, WAL $WAL_BYTES bytes, -shm $(size "$DB-shm") bytes"
cat "$DB" "$DB-wal" "$DB-shm" > /dev/null   # warm the page cache for every contender alike
if [ -n "$GNU_TIME" ]; then echo "peak RSS: from GNU time (%M)"; else echo "peak RSS: from wait4 (no GNU time): at least the Python launcher's own"; fi

report "walcheck summary (default: whole chain at rest, after the wal-index anchor in use)" "$RUNS" \
    "$DATA/summary.json" "$BIN" "$DB" --no-sql --format json
MBPS=1 report "walcheck --verify-checksums (streams the WAL once)" "$RUNS" \
    "$DATA/full.json" "$BIN" "$DB" --no-sql --verify-checksums --format json
report "walcheck with SQL (private copy + SQLite recovery + row counts)" 1 \
    "$DATA/sql.json" "$BIN" "$DB" --format json

COPY="$DATA/copy"
rm -rf "$COPY"; mkdir -p "$COPY"; cp "$DB" "$DB-wal" "$COPY/"
report "sqlite3 recovery (read-only open of a copy without -shm)" 1 \
    /dev/null sqlite3 -readonly "$COPY/bench.sqlite" "SELECT count(*) FROM sqlite_master;"
rm -rf "$COPY"; mkdir -p "$COPY"; cp "$DB" "$DB-wal" "$COPY/"
report "sqlite3 recovery + TRUNCATE checkpoint on a copy" 1 \
    /dev/null sqlite3 "$COPY/bench.sqlite" "PRAGMA wal_checkpoint(TRUNCATE);"
rm -rf "$COPY"

"$BIN" "$DB" --no-sql --measure-checkpoint --format text | sed -n '/^Checkpoint/,/^$/p'
python3 - "$DATA/summary.json" "$DATA/full.json" <<'PY' 2>/dev/null || true
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for k in ("frames", "commits", "validFrames", "distinctPages"):
    print(f"  wal.{k}: summary {a['wal'][k]}, verified {b['wal'][k]}")
print(f"  walIndex.state: {a['walIndex']['state']}, pendingFrames {a['checkpoint']['pendingFrames']}")
PY
