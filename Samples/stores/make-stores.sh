#!/usr/bin/env bash
# Builds small sample stores for trying walcheck, with the sqlite3 CLI only.
#
#   Samples/stores/make-stores.sh [OUTPUT_DIR]     (default: $TMPDIR/walcheck-samples)
#
# Each sub-folder is one store in a state walcheck reports on:
#   coredata/      Core Data-shaped store (Z_METADATA with a binary plist, Z_PRIMARYKEY, persistent history,
#                  CloudKit mirroring tables with pending exports and a failed export event). Its newest rows
#                  live only in the WAL: sqlite3 is killed before it can checkpoint, like iOS kills an app.
#   no-shm/        the same store copied without its -shm (wal-index missing).
#   no-wal/        the same store copied without its -wal (committed data lost).
#   rollback/      a rollback-journal database (journal_mode=DELETE), no WAL.
# Try:  walcheck OUTPUT_DIR/coredata/Model.sqlite --format markdown
# Nothing generated here is committed; rerun the script to rebuild.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"  # the schema: coredata-schema.sql, shared with the walcheck tests
OUT="${1:-${TMPDIR:-/tmp}/walcheck-samples}"
command -v sqlite3 >/dev/null || { echo "make-stores: the sqlite3 CLI is required" >&2; exit 2; }
rm -rf "$OUT"; mkdir -p "$OUT/coredata" "$OUT/no-shm" "$OUT/no-wal" "$OUT/rollback"

# Z_METADATA.Z_PLIST: NSStoreType SQLite, NSPersistenceFrameworkVersion 1345, model hashes for Item/Folder,
# identifiers ["1.0.0"], _NSAutoVacuumLevel "2" (binary plist, made once with Python's plistlib).
PLIST=62706c6973743030d601020304050607080d0e10115f101d4e5350657273697374656e63654672616d65776f726b56657273696f6e5f10194e5353746f72654d6f64656c56657273696f6e4861736865735f10204e5353746f72654d6f64656c56657273696f6e48617368657356657273696f6e5f101e4e5353746f72654d6f64656c56657273696f6e4964656e746966696572735b4e5353746f7265547970655f10125f4e534175746f56616375756d4c6576656c110541d2090a0b0c56466f6c646572544974656d4f102001010101010101010101010101010101010101010101010101010101010101014f1020abababababababababababababababababababababababababababababababab1003a10f55312e302e305653514c697465513200080015003500510074009500a100b600b900be00c500ca00ed011001120114011a01210000000000000201000000000000001200000000000000000000000000000123

DB="$OUT/coredata/Model.sqlite"
MARK="$OUT/.done"
mkfifo "$OUT/.fifo"
sqlite3 "$DB" < "$OUT/.fifo" > /dev/null &
SQLITE_PID=$!
exec 3> "$OUT/.fifo"
cat >&3 <<SQL
PRAGMA page_size=4096; PRAGMA auto_vacuum=2; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;
$(cat "$HERE/coredata-schema.sql")
INSERT INTO Z_PRIMARYKEY VALUES (1,'Item',0,0),(2,'Folder',0,0),(16001,'CHANGE',0,0),(16002,'TRANSACTION',0,0),(16003,'TRANSACTIONSTRING',0,0),(17003,'NSCKEvent',0,0),(17012,'NSCKRecordMetadata',0,0);
INSERT INTO Z_METADATA VALUES (1, '5A3F1C2E-0000-4000-8000-00000000CAFE', X'$PLIST');
INSERT INTO ZITEM (Z_ENT, Z_OPT, ZNAME) VALUES (1,1,'checkpointed item');
PRAGMA wal_checkpoint(TRUNCATE);
INSERT INTO ZITEM (Z_ENT, Z_OPT, ZNAME) VALUES (1,1,'in the WAL only'),(1,1,'also WAL only');
INSERT INTO ZFOLDER (Z_ENT, Z_OPT, ZTITLE) VALUES (2,1,'Inbox');
INSERT INTO ATRANSACTIONSTRING (Z_ENT, Z_OPT, ZNAME) VALUES (16003,1,'com.example.app'),(16003,1,'App');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 400)
  INSERT INTO ATRANSACTION (Z_ENT, Z_OPT, ZBUNDLEIDTS, ZPROCESSIDTS, ZTIMESTAMP) SELECT 16002, 1, 1, 2, 694224000.0 + i * 86400.0 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 1200)
  INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) SELECT 16001, 1, i % 3, 1, i, 1 + i / 3 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 40)
  INSERT INTO ANSCKRECORDMETADATA (Z_ENT, Z_OPT, ZENTITYID, ZENTITYPK, ZNEEDSUPLOAD, ZNEEDSCLOUDDELETE, ZNEEDSLOCALDELETE, ZCKRECORDNAME)
  SELECT 17012, 1, 1, i, i > 30, 0, 0, 'record-' || i FROM n;
INSERT INTO ANSCKEVENT (Z_ENT, Z_OPT, ZCLOUDKITEVENTTYPE, ZSUCCEEDED, ZERRORCODE, ZSTARTEDAT, ZENDEDAT, ZERRORDOMAIN) VALUES
  (17003,1,0,1,0,728000000,728000002,NULL),(17003,1,1,1,0,728000100,728000105,NULL),
  (17003,1,2,0,2,728000200,728000201,'CKErrorDomain');
.shell touch "$MARK"
SQL
while [ ! -f "$MARK" ]; do sleep 0.2; done
kill -9 "$SQLITE_PID"            # no close-time checkpoint: -wal and -shm stay, as after an iOS kill
wait "$SQLITE_PID" 2>/dev/null || true
exec 3>&-
rm -f "$MARK" "$OUT/.fifo"

cp "$DB" "$DB-wal" "$OUT/no-shm/"
cp "$DB" "$DB-shm" "$OUT/no-wal/"
sqlite3 "$OUT/rollback/plain.db" "PRAGMA journal_mode=DELETE; CREATE TABLE t(x); INSERT INTO t VALUES (1),(2),(3);" > /dev/null

echo "sample stores in $OUT:"
ls -l "$OUT"/*
