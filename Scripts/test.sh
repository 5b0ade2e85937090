#!/usr/bin/env bash
# Builds everything (library, CLI, stress worker, benchmark) and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build
