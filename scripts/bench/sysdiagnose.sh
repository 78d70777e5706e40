#!/usr/bin/env bash
# Times `cdlog report` and `cdlog classify` on a 200 MB sysdiagnose-shaped archive (issue 27): the archive is
# built once by scripts/make-sysdiagnose.py (sample reports, the real layout, 200 MB of incompressible tracev3
# filler, so the whole archive is decompressed and walked). Prints the median wall time and the peak RSS of
# five runs each, and the archive's size.
#
# usage: scripts/bench/sysdiagnose.sh [CDLOG] [WORKDIR]   (defaults: the release build, /tmp/cdlog-bench-sysdiagnose)
set -euo pipefail
cd "$(dirname "$0")/../.."
cdlog="${1:-.build/x86_64-unknown-linux-gnu/release/cdlog}"
work="${2:-/tmp/cdlog-bench-sysdiagnose}"
archive="$work/sysdiagnose_2024.07.02_08-20-11+0800_iPhone-OS_iPhone_21F90.tar.gz"
[ -f "$archive" ] || python3 scripts/make-sysdiagnose.py "$work" --filler-mb 200 >/dev/null
echo "archive: $(stat -c %s "$archive") bytes"
for command in "report $archive --app NotingPro" "report $archive --app com.example.notingpro" "classify $archive --app NotingPro"; do
    for _ in 1 2 3 4 5; do
        /usr/bin/time -f "%e %M" "$cdlog" $command 2>&1 >/dev/null | tail -1
    done | sort -n | awk -v c="${command/$archive/ARCHIVE}" '{t[NR]=$1; if ($2>m) m=$2} END {printf "cdlog %-45s median %.2f s (min %.2f, max %.2f), peak RSS %.1f MiB\n", c, t[3], t[1], t[5], m/1024}'
done
