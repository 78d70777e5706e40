#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (AddressSanitizer + coverage) and runs them.
#
#   scripts/fuzz.sh                       every target for 60 s each
#   scripts/fuzz.sh FuzzStore             one target (FuzzLogs, FuzzRules, FuzzCrash, FuzzStore)
#   scripts/fuzz.sh -t 600 FuzzLogs       one target for 10 minutes
#   scripts/fuzz.sh --ci                  what CI runs: the regression inputs, then a fixed number of
#                                         executions per target (about 25 s each here) from the seeds only,
#                                         with a fixed random seed (FUZZ_SEED, default 1; 0 = a new one each
#                                         run), so a commit passes or fails the same way every time; at most
#                                         FUZZ_SECONDS (default 60) per target; fails on a crash
#   scripts/fuzz.sh --replay              only run the seeds and regression inputs through each target
#   scripts/fuzz.sh --build-only          only build
#
# Outside --ci the corpus grows in .build-fuzz/corpus/<Target> (kept between runs, git-ignored) and starts
# from the checked-in seeds in Fuzz/Seeds/<Target>. A crash, hang (> 10 s for one input) or excessive
# memory use (> 2 GiB RSS or one allocation > 1 GiB, ASan's overhead included) stops the target; its input
# is written to .build-fuzz/artifacts/<Target>/ and the script exits 1. Turn each one into a regression:
# copy it to Fuzz/Regressions/<Target>/ and add a test (see docs/robustness.md, "Fuzzing").
#
# Needs Swift on Linux (the toolchain ships libFuzzer), or a swift.org toolchain on macOS (Xcode's has no
# libFuzzer). The build lives in .build-fuzz/ and never touches .build/.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(FuzzLogs FuzzRules FuzzCrash FuzzStore)
SECONDS_PER_TARGET=60
MODE=fuzz
TARGETS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --ci) MODE=ci; SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}" ;;
        --replay) MODE=replay ;;
        --build-only) MODE=build ;;
        -t|--time) SECONDS_PER_TARGET="$2"; shift ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        Fuzz*) TARGETS+=("$1") ;;
        *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL_TARGETS[@]}")

scripts/install-deps.sh
SCRATCH=.build-fuzz
# The compile half of -sanitize=fuzzer for every module (ours, the main package's, Yams'); only the fuzz
# executables link libFuzzer (Fuzz/Package.swift). Leak checks are off: RuleEmbedder runs at build time
# under ASan, and Swift's runtime caches look like leaks.
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
export SWIFT_BACKTRACE="enable=no"   # libFuzzer and ASan print the stack; the Swift backtracer trips ASan
build_start=$(date +%s)
swift build -c debug --package-path Fuzz --scratch-path "$SCRATCH" \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,indirect-calls,inline-8bit-counters,pc-table \
    2>&1 | grep -v -e "Cannot export local symbol" -e "^\[[0-9]*/[0-9]*\] Compiling" >&2 || true
BIN="$SCRATCH/debug"
for t in "${TARGETS[@]}"; do
    [ -x "$BIN/$t" ] || { echo "fuzz.sh: $t was not built (see the build output above)" >&2; exit 2; }
done
echo "fuzz.sh: build took $(( $(date +%s) - build_start )) s" >&2
[ "$MODE" = build ] && exit 0

max_len() {
    case "$1" in
        FuzzLogs) echo 8192 ;;
        FuzzRules) echo 16384 ;;
        FuzzCrash) echo 65536 ;;
        FuzzStore) echo 16384 ;;
    esac
}

# CI's executions per target: about 25 s each of the debug ASan build on the 2-core development VM.
ci_runs() {
    case "$1" in
        FuzzLogs) echo 2500 ;;
        FuzzRules) echo 8000 ;;
        FuzzCrash) echo 1500 ;;
        FuzzStore) echo 15000 ;;
    esac
}

# A private folder for FuzzStore's files, removed at the end whatever happens.
export CDLOG_FUZZ_TMPDIR="$(mktemp -d "${TMPDIR:-/tmp}/cdlog-fuzz.XXXXXX")"
trap 'rm -rf "$CDLOG_FUZZ_TMPDIR"' EXIT

COMMON=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -detect_leaks=0 -print_final_stats=1)
failed=0
summary=()
for t in "${TARGETS[@]}"; do
    # 1. Replay: every seed and regression input once (regressions must stay fixed).
    inputs=()
    for dir in "Fuzz/Seeds/$t" "Fuzz/Regressions/$t"; do
        [ -d "$dir" ] && while IFS= read -r f; do inputs+=("$f"); done < <(find "$dir" -type f ! -name '*.md' | sort)
    done
    if [ ${#inputs[@]} -gt 0 ]; then
        if ! "$BIN/$t" "${COMMON[@]}" "${inputs[@]}" > "$SCRATCH/$t.replay.log" 2>&1; then
            echo "fuzz.sh: $t FAILED on a seed or regression input:" >&2
            grep -E "Running:|ERROR|Fatal error|fuzz invariant|SUMMARY" "$SCRATCH/$t.replay.log" | tail -8 >&2
            failed=1
            summary+=("$t: replay of ${#inputs[@]} inputs FAILED")
            continue
        fi
    fi
    if [ "$MODE" = replay ]; then summary+=("$t: replayed ${#inputs[@]} inputs, ok"); continue; fi

    # 2. Fuzz for the time given.
    if [ "$MODE" = ci ]; then
        corpus="$SCRATCH/ci-corpus/$t"; rm -rf "$corpus"
    else
        corpus="$SCRATCH/corpus/$t"
    fi
    artifacts="$SCRATCH/artifacts/$t/"
    mkdir -p "$corpus" "$artifacts"
    log="$SCRATCH/$t.log"
    seeds=(); [ -d "Fuzz/Seeds/$t" ] && seeds=("Fuzz/Seeds/$t")
    limits=(-max_total_time="$SECONDS_PER_TARGET")
    if [ "$MODE" = ci ]; then
        limits+=(-runs="$(ci_runs "$t")" -seed="${FUZZ_SEED:-1}")
        echo "fuzz.sh: $t for $(ci_runs "$t") executions, seed ${FUZZ_SEED:-1} (at most ${SECONDS_PER_TARGET} s; log: $log)" >&2
    else
        echo "fuzz.sh: $t for ${SECONDS_PER_TARGET} s (log: $log)" >&2
    fi
    status=0
    "$BIN/$t" "${COMMON[@]}" "${limits[@]}" -max_len="$(max_len "$t")" \
        -artifact_prefix="$artifacts" "$corpus" "${seeds[@]}" > "$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | tr -dc 0-9)
    if [ "$status" -ne 0 ]; then
        failed=1
        echo "fuzz.sh: $t FAILED (exit $status):" >&2
        grep -E "ERROR|Fatal error|fuzz invariant|SUMMARY|Test unit written|deadly|timeout|out-of-memory" "$log" | head -12 >&2
        # A broken invariant explains itself over several lines (the two results compared): show them.
        sed -n '/fuzz invariant broken/,/^==[0-9]*==/p' "$log" | head -60 >&2
        # On a CI machine the artifact dies with the machine: print it, so that the run can be replayed
        # (`base64 -d > Fuzz/Regressions/<Target>/name`, then `scripts/fuzz.sh --replay <Target>`).
        for input in $(sed -n 's/.*Test unit written to //p' "$log"); do
            [ -f "$input" ] && [ "$(wc -c < "$input")" -le 65536 ] || continue
            echo "fuzz.sh: $(basename "$input") as base64:" >&2
            base64 -w 76 "$input" >&2
        done
        summary+=("$t: FAILED after ${runs:-?} executions; input in $artifacts")
    else
        summary+=("$t: ${runs:-?} executions (${rate:-?}/s), coverage ${cov:-?} edges, corpus $(ls "$corpus" | wc -l) inputs: ok")
    fi
done

printf '%s\n' "${summary[@]}"
exit "$failed"
