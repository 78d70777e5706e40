#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite (unit, rule examples, end-to-end).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build --parallel
