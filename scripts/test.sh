#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite (unit, rule examples, end-to-end),
# then checks the HTML report in headless Chromium (skipped with a message when Chromium is not installed), then
# the fleet path: cdlog OTLP loaded into the OTel Collector's ClickHouse table in chDB, queried, and checked
# against `cdlog aggregate` (skipped with a message without the Python packages chdb and opentelemetry-proto).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build --parallel
scripts/check-report-html.sh
scripts/fleet/test-clickhouse.sh
