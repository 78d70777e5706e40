#!/usr/bin/env bash
# Renders HTML reports from the samples and checks them in headless Chromium (scripts/check-html.py): the
# seed story (log, watchdog report, store), mixed inputs years apart (collapsed gaps), a log without
# timestamps (input-order axis), a burst within a second (fractional ticks), a sysdiagnose archive (its
# environment, evidence gaps and next commands) and the committed Samples/report/seed-story.html.
#     scripts/check-report-html.sh [--screenshots DIR]
# Skips with a message (exit 0) when Chromium is not installed; exit 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then
    echo "check-report-html: skipped, Chromium is not installed (Debian: apt-get install -y chromium)" >&2
    exit 0
fi
swift build --product cdlog >&2
cdlog=.build/debug/cdlog
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
Samples/report/make-seed-store.sh "$work/store" 40 >/dev/null
$cdlog report Samples/report/notingpro-launch.log Samples/crash/notingpro-launch-watchdog.ips \
    --store "$work/store/NotingPro.sqlite" --format html --output "$work/seed-story.html"
$cdlog report Samples/logs/merge-conflicts.log Samples/logs/no-icloud-account.log Samples/crash/dead10cc-sqlite.crash \
    Samples/crash/jetsam-per-process-limit.ips --format html --output "$work/mixed-inputs.html"
$cdlog report Samples/logs/incompatible-model.log --format html --output "$work/no-timestamps.html"
$cdlog report Samples/logs/migration-failure.log --format html --output "$work/sub-second.html"
archive=$(python3 scripts/make-sysdiagnose.py "$work/sysdiagnose")
$cdlog report "$archive" --app NotingPro --format html --output "$work/sysdiagnose.html" 2>/dev/null
scripts/check-html.py "$@" "$work/seed-story.html" "$work/mixed-inputs.html" "$work/no-timestamps.html" "$work/sub-second.html" \
    "$work/sysdiagnose.html" \
    Samples/report/seed-story.html
