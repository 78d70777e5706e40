#!/usr/bin/env bash
# Regenerates the checked-in seed corpora in Fuzz/Seeds/<Target>/ from Samples/, the tests' fixtures,
# Rules/ and (for FuzzStore) small stores made with the sqlite3 CLI. Run it by hand after the inputs
# change; scripts/fuzz.sh only reads the seeds (it never writes into Fuzz/Seeds).
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=Fuzz/Seeds
rm -rf "$SEEDS"; mkdir -p "$SEEDS"/{FuzzLogs,FuzzRules,FuzzCrash,FuzzStore}

# FuzzLogs: byte 0 = options (0: detect the format, 1-byte reads for the invariance check), then text.
for f in Samples/logs/*.log; do
    { printf '\000'; head -c 6000 "$f"; } > "$SEEDS/FuzzLogs/$(basename "$f" .log)"
done
seed() { { printf '\000'; cat; } > "$SEEDS/FuzzLogs/$1"; }
seed nslog <<'T'
2021-08-10 15:27:55.123456+0800 MyApp[1234:567890] CoreData: error: Failed to load persistent stores
2021-08-10 15:27:55.223456+0800 MyApp[1234:567890] [error] error: CoreData+CloudKit: oops
    userInfo = {
        NSUnderlyingError = "Error Domain=NSCocoaErrorDomain Code=134110";
    }
T
seed log-default <<'T'
Filtering the log data using "subsystem == \"com.apple.coredata\""
Timestamp                       Thread     Type        Activity             PID    TTL  
2021-08-10 15:27:55.123456+0800 0x2b4c1    Default     0x0                  1234   0    MyApp: (CoreData) [com.apple.coredata:cloudkit] CoreData+CloudKit: Finished request
--------------------------------------------------------------------------------------------------------------------
Log      - Default:          1, Info:                0, Debug:             0, Error:          0, Fault:          0
T
seed log-compact <<'T'
Timestamp               Ty Process[PID:TID]
2021-08-10 15:27:55.123 Df MyApp[1234:2b4c1] [com.apple.coredata:cloudkit] CoreData+CloudKit: Finished request
T
seed log-syslog <<'T'
Timestamp                       (process)[PID]    
2021-08-10 15:27:55.123456+0800  localhost MyApp[1234]: (CoreData) [com.apple.coredata:cloudkit] CoreData+CloudKit: Finished request
T
seed ndjson <<'T'
{"eventMessage":"CoreData+CloudKit: Finished request \u00e9\ud83d\ude00","subsystem":"com.apple.coredata","category":"cloudkit","threadID":176321,"processImagePath":"\/private\/MyApp.app\/MyApp","timestamp":"2021-08-10 15:27:55.123456+0800","messageType":"Default","processID":1234,"backtrace":{"frames":[{"imageOffset":1}]}}
{"eventMessage":"CoreData: error: Code=134110","processID":1}
T
seed json <<'T'
[{
  "timestamp" : "2021-08-10 15:27:55.123456+0800",
  "messageType" : "Error",
  "eventMessage" : "CoreData+CloudKit: Finished request",
  "processImagePath" : "\/Applications\/MyApp.app\/Contents\/MacOS\/MyApp",
  "processID" : 1234
},{
  "eventMessage" : "second \"quoted\" {not a brace}",
  "processID" : 1234
}]
T
printf '\000error\t15:27:55.123456+0800\tMyApp\tCoreData+CloudKit: Failed to set up CloudKit integration\n' > "$SEEDS/FuzzLogs/console"
seed device-syslog <<'T'
Jul  8 12:00:01 iPhone MyApp(CoreData)[123] <Error>: CoreData: error: Failed to load persistent stores
T
printf '\000CoreData: error: x\r\n\tcontinued\xff\xfe\r\n\r\n<CKError 0x1: "Partial Failure" (2/1011)>\n' > "$SEEDS/FuzzLogs/crlf-invalid-utf8"
printf '\300CoreData: error: forced nslog and 37-byte lines ........................................\n' > "$SEEDS/FuzzLogs/forced-short-lines"

# Issue 22's shapes: bare console text with no entry word (held until the end on several threads),
# UTF-16 with a BOM, gzip, and classic Mac line ends.
{ printf '\000'; for i in $(seq 1 200); do echo "print output of the app, step $i"; done; } > "$SEEDS/FuzzLogs/bare-text"
{ printf '\000'; printf '\377\376'; printf '2021-08-10 15:27:55.123456+0800 MyApp[1:2] CoreData: error: Code=134110\n' | iconv -f UTF-8 -t UTF-16LE; } > "$SEEDS/FuzzLogs/utf16"
{ printf '\000'; printf '2021-08-10 15:27:55.123456+0800 MyApp[1:2] CoreData: error: Code=134110\n' | gzip -c; } > "$SEEDS/FuzzLogs/gzip"
{ printf '\000'; printf '2021-08-10 15:27:55.123456+0800 MyApp[1:2] CoreData: error: Code=134110\r2021-08-10 15:27:56.123456+0800 MyApp[1:2] CoreData: error: Code=134030\r'; } > "$SEEDS/FuzzLogs/bare-cr"

# FuzzRules: the catalog's rule files, plus small files with the errors users make.
cp Rules/*.yaml "$SEEDS/FuzzRules/"
cat > "$SEEDS/FuzzRules/small-valid.yaml" <<'T'
category: store
rules:
  - id: user.disk-full
    title: Disk full
    severity: error
    priority: 3
    input: any
    patterns: ['(?i)database or disk is full (?<code>\d+)']
    require: [disk]
    exclude: "ignore"
    fields: { errno: 'errno=(\d+)' }
    extractors: [cloudkit-partial-errors]
    advice: Free space.
    references: [https://sqlite.org/rescode.html]
    examples:
      match: ['database or disk is full 13', {text: "database or disk is full 13 errno=28", fields: {code: "13"}}]
      nomatch: [all good]
T
printf 'rules:\n  - id: x.y\n    title: t\n    category: store\n    severity: error\n    patterns:\n      - '"'"'Code=(1341'"'"'\n' > "$SEEDS/FuzzRules/pcre-error.yaml"
printf 'rules:\n  - id: x.y\n    title: t\n    category: store\n    severity: error\n    patterns:\n      - |\n        (?<n>a)(?<n>b)\n' > "$SEEDS/FuzzRules/pcre-error-block.yaml"
printf 'rules: [ {id: a.b, title: "t", category: nope, severity: error, patterns: [x]} ]\n' > "$SEEDS/FuzzRules/flow-bad-category.yaml"
printf 'rules:\n  - id: a.b\n\ttitle: tab\n  - [unclosed\n' > "$SEEDS/FuzzRules/yaml-error.yaml"
printf 'a: &x [*x]\nrules: *x\n' > "$SEEDS/FuzzRules/alias.yaml"
# Deep nesting (issue 22: 5 000 levels crashed the YAML parser): flow and block style.
{ printf 'rules: '; printf '[%.0s' $(seq 1 4000); printf ']%.0s' $(seq 1 4000); echo; } > "$SEEDS/FuzzRules/deep-flow.yaml"
{ echo 'rules:'; for i in $(seq 1 90); do printf "%*sa$i:\n" "$i" ''; done; } > "$SEEDS/FuzzRules/deep-block.yaml"

# FuzzCrash: every sample and fixture crash report.
for f in Samples/crash/*.{ips,crash,json} Tests/CDLogKitTests/Fixtures/crash/*.{ips,crash,json}; do
    cp "$f" "$SEEDS/FuzzCrash/$(basename "$f")"
done
head -1 Samples/crash/notingpro-launch-watchdog.ips > "$SEEDS/FuzzCrash/ips-header-only"
head -c 3000 Samples/crash/notingpro-launch-watchdog.ips > "$SEEDS/FuzzCrash/ips-cut"
# A long JSON array (issue 22: appending to it was quadratic): 1 500 frames in one thread.
{ head -1 Samples/crash/notingpro-launch-watchdog.ips
  printf '{"threads":[{"triggered":true,"frames":['
  for i in $(seq 1 1500); do printf '{"imageOffset":%d,"imageIndex":0},' "$i"; done
  printf '{"imageOffset":0}]}],"usedImages":[{"name":"App"}]}\n'; } > "$SEEDS/FuzzCrash/long-frame-array.ips"

# FuzzStore: byte 0 flags, bytes 1-2 -shm length (LE), the -shm, then the -wal (see FuzzStore.swift).
command -v sqlite3 >/dev/null || { echo "make-seeds: sqlite3 is needed for the FuzzStore seeds" >&2; exit 2; }
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
live_store() {  # NAME PAGESIZE COMMITS — copies db, -wal and -shm while sqlite3 still has them open
    local name=$1 page=$2 commits=$3 dir="$TMP/$1"
    mkdir -p "$dir/live" "$dir/frozen"
    {
        echo "PRAGMA page_size=$page; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
        echo "CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB);"
        for _ in $(seq 1 "$commits"); do echo "INSERT INTO t(v) VALUES (randomblob(40));"; done
        echo ".shell cp $dir/live/s.sqlite $dir/live/s.sqlite-wal $dir/live/s.sqlite-shm $dir/frozen/"
    } | sqlite3 "$dir/live/s.sqlite" >/dev/null
    echo "$dir/frozen/s.sqlite"
}
combine() {  # OUT FLAGS SHM_BYTES STORE
    local out=$1 flags=$2 n=$3 store=$4
    { printf "\\$(printf %o "$flags")\\$(printf %o $((n & 255)))\\$(printf %o $((n >> 8)))"
      head -c "$n" "$store-shm"; cat "$store-wal"; } > "$SEEDS/FuzzStore/$out"
}
s512=$(live_store p512 512 4)
frames512=$(( ($(stat -c %s "$s512-wal") - 32) / 536 ))
combine p512-auto 0 $((136 + 4 * frames512)) "$s512"
combine p512-full 1 $((136 + 4 * frames512)) "$s512"
combine p512-none-noshm 6 0 "$s512"
combine p512-dbheader 8 136 "$s512"
s1024=$(live_store p1024 1024 2)
combine p1024-auto 0 $((136 + 4 * 8)) "$s1024"
printf 'bplist00\xd1\x01\x02QaQb\x08\x0b\x0d\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x0f' > "$SEEDS/FuzzStore/bplist"
ls "$SEEDS"/* | wc -l
