#!/usr/bin/env bash
# Re-records the expected JSON Lines for every sample in Samples/logs and Samples/crash (run on purpose, then
# review the diff).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product cdlog >&2
mkdir -p Tests/EndToEndTests/Expected
for sample in Samples/logs/*; do
    name=$(basename "$sample")
    .build/debug/cdlog classify --format jsonl "Samples/logs/$name" > "Tests/EndToEndTests/Expected/$name.jsonl"
    echo "recorded $name" >&2
done
mkdir -p Tests/EndToEndTests/Expected/crash
for sample in Samples/crash/*; do
    name=$(basename "$sample")
    [ "$name" = README.md ] && continue
    .build/debug/cdlog classify --format jsonl "Samples/crash/$name" > "Tests/EndToEndTests/Expected/crash/$name.jsonl"
    echo "recorded crash/$name" >&2
done
