#!/usr/bin/env bash
# Builds the `strata` command and runs its demo: a small database written by two processes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh
swift build --product strata
dir="${1:-$(mktemp -d)}"
"$(swift build --show-bin-path)/strata" demo --dir "$dir"
