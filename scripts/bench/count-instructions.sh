#!/usr/bin/env bash
# Counts the instructions `cdlog classify --threads 1 --format jsonl` executes on each FILE, minus a run on
# an empty file (start-up), with valgrind's callgrind. Unlike wall-clock time on a shared VM, the count is
# the same from run to run, so it shows the effect of a change of a few per cent.
#
# usage: scripts/bench/count-instructions.sh [--binary PATH] FILE...
#   --binary PATH   the cdlog to measure (default: builds it with scripts/build-release.sh)
# Needs valgrind. The binary is measured through a copy without DWARF data (valgrind cannot read the
# toolchain's), symbols kept.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=""
if [[ "${1:-}" == "--binary" ]]; then binary="$2"; shift 2; fi
if [[ $# -eq 0 ]]; then
    echo "usage: scripts/bench/count-instructions.sh [--binary PATH] FILE..." >&2
    exit 2
fi
command -v valgrind >/dev/null || { echo "count-instructions: valgrind is not installed" >&2; exit 2; }
if [[ -z "$binary" ]]; then
    binary="$(scripts/build-release.sh cdlog 2>/dev/null)/cdlog"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/cdlog" "$binary"
: > "$work/empty.log"

count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/cdlog" classify --threads 1 --format jsonl "$1" \
        2>&1 >/dev/null | awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}

startup=$(count "$work/empty.log")
printf '%-40s %12s\n' "input" "instructions"
printf '%-40s %10.1f M\n' "(start-up: empty input)" "$(awk -v s="$startup" 'BEGIN { print s / 1e6 }')"
for file in "$@"; do
    total=$(count "$file")
    printf '%-40s %10.1f M\n' "$(basename "$file")" "$(awk -v t="$total" -v s="$startup" 'BEGIN { print (t - s) / 1e6 }')"
done
