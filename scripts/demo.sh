#!/usr/bin/env bash
# Installs what is missing, builds cdlog and classifies a bundled sample console session.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product cdlog >&2
sample="${1:-Samples/logs/migration-failure.log}"
exec .build/release/cdlog classify "$sample"
