#!/usr/bin/env bash
# Installs what is missing, builds cdlog and classifies a bundled sample console session.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
bin="$(scripts/build-release.sh cdlog)"
sample="${1:-Samples/logs/migration-failure.log}"
exec "$bin/cdlog" classify "$sample"
