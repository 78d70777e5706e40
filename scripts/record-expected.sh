#!/usr/bin/env bash
# Re-records the expected JSON Lines for every sample in Samples/logs (run on purpose, then review the diff).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product cdlog >&2
mkdir -p Tests/EndToEndTests/Expected
for sample in Samples/logs/*; do
    name=$(basename "$sample")
    .build/debug/cdlog classify --format jsonl "Samples/logs/$name" > "Tests/EndToEndTests/Expected/$name.jsonl"
    echo "recorded $name" >&2
done
