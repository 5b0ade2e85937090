#!/usr/bin/env bash
# Builds everything (library, CLI, stress worker, benchmark) and runs the whole test suite:
# XCTest, then the stress scenarios (`strata-stress all`, on plain and on encrypted files),
# then compiles the examples of the README and docs/ (`check-doc-examples.py`); any of them
# failing fails the script.
# The last line counts the XCTest tests that ran ("N passed, N failed, N skipped").
set -uo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-deps.sh || exit 1
swift build --build-tests || exit 1
swift test --skip-build --disable-swift-testing 2>&1 | tee .build/test-output.txt
status=${PIPESTATUS[0]}
# The stress suite: every strata-stress scenario for 20 s, real processes on one file each;
# then every scenario for 10 s on files encrypted with a test key (inherited by the workers).
stress="$(swift build --show-bin-path)/strata-stress"
"$stress" all --duration 20
stress_status=$?
[ "$stress_status" -eq 0 ] || echo "stress: FAILED (strata-stress all exited with status $stress_status)"
[ "$status" -ne 0 ] || status=$stress_status
STRATA_KEY=$(printf '5a%.0s' $(seq 64)) "$stress" all --duration 10
stress_status=$?
[ "$stress_status" -eq 0 ] || echo "encrypted stress: FAILED (strata-stress all exited with status $stress_status)"
[ "$status" -ne 0 ] || status=$stress_status
# The Swift examples of README.md and docs/ compile in the Swift 6 language mode.
python3 Scripts/check-doc-examples.py --dir .build/doc-examples
examples_status=$?
[ "$examples_status" -eq 0 ] || echo "doc examples: FAILED"
[ "$status" -ne 0 ] || status=$examples_status
summary=$(grep -E "Executed [0-9]+ tests?, with" .build/test-output.txt | tail -1)
if [ -n "$summary" ]; then
    executed=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
    failed=$(sed -E 's/.* ([0-9]+) failures?.*/\1/' <<<"$summary")
    skipped=$(grep -oE "[0-9]+ tests? skipped" <<<"$summary" | grep -oE "^[0-9]+" || echo 0)
    echo "tests: $((executed - failed - skipped)) passed, $failed failed, $skipped skipped"
fi
exit "$status"
