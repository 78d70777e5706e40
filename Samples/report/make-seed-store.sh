#!/usr/bin/env bash
# Builds the store of the launch-watchdog story (docs/domain.md) with the sqlite3 CLI: a Core Data-shaped store in
# WAL mode whose WAL was never checkpointed (wal_autocheckpoint=0, the PASSIVE-only app of the seed),
# frozen the way an iOS kill leaves it: the files are copied while SQLite still holds them open.
#
#   Samples/report/make-seed-store.sh [OUTPUT_DIR] [WAL_MB]     (defaults: $TMPDIR/cdlog-seed-store, 40)
#
# Result: OUTPUT_DIR/NotingPro.sqlite, -wal (about WAL_MB MiB, every frame pending) and -shm.
# Try:    cdlog report Samples/report/notingpro-launch.log Samples/crash/notingpro-launch-watchdog.ips \
#             --store OUTPUT_DIR/NotingPro.sqlite
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"  # the schema: notingpro-schema.sql, shared with the report tests
OUT="${1:-${TMPDIR:-/tmp}/cdlog-seed-store}"
MB="${2:-40}"
command -v sqlite3 >/dev/null || { echo "make-seed-store: the sqlite3 CLI is required" >&2; exit 2; }
rm -rf "$OUT" "$OUT.live"; mkdir -p "$OUT" "$OUT.live"
LIVE="$OUT.live/NotingPro.sqlite"
# Z_METADATA.Z_PLIST: binary plist with NSStoreType SQLite, NSPersistenceFrameworkVersion 1345 (as in
# Samples/stores/make-stores.sh).
PLIST=62706c6973743030d601020304050607080d0e10115f101d4e5350657273697374656e63654672616d65776f726b56657273696f6e5f10194e5353746f72654d6f64656c56657273696f6e4861736865735f10204e5353746f72654d6f64656c56657273696f6e48617368657356657273696f6e5f101e4e5353746f72654d6f64656c56657273696f6e4964656e746966696572735b4e5353746f7265547970655f10125f4e534175746f56616375756d4c6576656c110541d2090a0b0c56466f6c646572544974656d4f102001010101010101010101010101010101010101010101010101010101010101014f1020abababababababababababababababababababababababababababababababab1003a10f55312e302e305653514c697465513200080015003500510074009500a100b600b900be00c500ca00ed011001120114011a01210000000000000201000000000000001200000000000000000000000000000123
# One 4 KiB page per note body: MB MiB of WAL is about MB*256 frames.
ROWS=$(( MB * 250 ))
sqlite3 "$LIVE" > /dev/null <<SQL
PRAGMA page_size=4096; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;
$(cat "$HERE/notingpro-schema.sql")
INSERT INTO Z_PRIMARYKEY VALUES (1,'Note',0,0);
INSERT INTO Z_METADATA VALUES (1, '7D1E4C2A-5B3F-4A60-9C8D-1E2F3A4B5C6D', X'$PLIST');
PRAGMA wal_checkpoint(TRUNCATE);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < $ROWS)
  INSERT INTO ZNOTE (Z_ENT, Z_OPT, ZTITLE, ZBODY) SELECT 1, 1, 'note ' || i, printf('%.3900c', 'x') FROM n;
UPDATE Z_PRIMARYKEY SET Z_MAX = $ROWS WHERE Z_ENT = 1;
.shell cp "$LIVE" "$LIVE-wal" "$LIVE-shm" "$OUT/"
SQL
rm -rf "$OUT.live"
ls -l "$OUT"
