#!/usr/bin/env bash
# Benchmark walcheck against SQLite's own WAL recovery on a large WAL.
#
#   scripts/bench-walcheck.sh [SIZE_MB]      (default 1024)
#
# 1. Builds walcheck in release mode.
# 2. Makes bench-data/big/bench.sqlite with a SIZE_MB WAL using the sqlite3 CLI: journal_mode=WAL,
#    wal_autocheckpoint=0, ~4 MB transactions; the sqlite3 process is then killed with SIGKILL, so no
#    close-time checkpoint runs and the -wal and -shm stay exactly as a killed app leaves them.
#    (Reused on later runs when present; delete bench-data/ to rebuild.)
# 3. Times walcheck (summary, full checksum verification, with SQL on a private copy) and SQLite's
#    recovery (a read-only open of a copy without -shm) and a TRUNCATE checkpoint on another copy.
# Generated data lives in bench-data/ (git-ignored). Timings are this machine's, with a warm page cache.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB="${1:-1024}"
DATA="bench-data/big"
DB="$DATA/bench.sqlite"
command -v sqlite3 >/dev/null || { echo "bench: the sqlite3 CLI is required" >&2; exit 2; }

swift build -c release --product walcheck >/dev/null
BIN="$(swift build -c release --show-bin-path)/walcheck"

if [ ! -f "$DB-wal" ] || [ "$(stat -c %s "$DB-wal" 2>/dev/null || stat -f %z "$DB-wal")" -lt $((SIZE_MB * 1000000)) ]; then
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
now() { if [ -n "${EPOCHREALTIME:-}" ]; then echo "$EPOCHREALTIME"; else perl -MTime::HiRes=time -e 'printf "%.6f\n", time'; fi; }
elapsed() { echo "$2 - $1" | bc; }
WAL_BYTES="$(size "$DB-wal")"
echo "store: $DB  database $(size "$DB") bytes, WAL $WAL_BYTES bytes, -shm $(size "$DB-shm") bytes"
cat "$DB" "$DB-wal" "$DB-shm" > /dev/null   # warm the page cache for every contender alike

t0=$(now); "$BIN" "$DB" --no-sql --format json > "$DATA/summary.json"; t1=$(now)
echo "walcheck summary (frame headers; checksums after the wal-index anchor): $(elapsed "$t0" "$t1") s"
t0=$(now); "$BIN" "$DB" --no-sql --verify-checksums --format json > "$DATA/full.json"; t1=$(now)
echo "walcheck --verify-checksums (streams the WAL once):                  $(elapsed "$t0" "$t1") s"
t0=$(now); "$BIN" "$DB" --format json > "$DATA/sql.json"; t1=$(now)
echo "walcheck with SQL (private copy + SQLite recovery + row counts):     $(elapsed "$t0" "$t1") s"

COPY="$DATA/copy"
rm -rf "$COPY"; mkdir -p "$COPY"; cp "$DB" "$DB-wal" "$COPY/"
t0=$(now); sqlite3 -readonly "$COPY/bench.sqlite" "SELECT count(*) FROM sqlite_master;" >/dev/null; t1=$(now)
echo "sqlite3 recovery (read-only open of a copy without -shm):            $(elapsed "$t0" "$t1") s"
rm -rf "$COPY"; mkdir -p "$COPY"; cp "$DB" "$DB-wal" "$COPY/"
t0=$(now); sqlite3 "$COPY/bench.sqlite" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null; t1=$(now)
echo "sqlite3 recovery + TRUNCATE checkpoint on a copy:                    $(elapsed "$t0" "$t1") s"
rm -rf "$COPY"

"$BIN" "$DB" --no-sql --measure-checkpoint --format text | sed -n '/^Checkpoint/,/^$/p'
python3 - "$DATA/summary.json" "$DATA/full.json" <<'PY' 2>/dev/null || true
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for k in ("frames", "commits", "validFrames", "distinctPages"):
    print(f"  wal.{k}: summary {a['wal'][k]}, verified {b['wal'][k]}")
print(f"  walIndex.state: {a['walIndex']['state']}, pendingFrames {a['checkpoint']['pendingFrames']}")
PY
