#!/usr/bin/env bash
# Quick start, step 2: build (if needed) and run the whole test suite with
# lit. Ends with one line "N passed, N failed".
#
# Usage: scripts/test.sh [lit arguments, e.g. a test path or --filter=REGEX]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${MATC_BUILD_DIR:-build}

if ! scripts/setup.sh >/dev/null; then
  echo "test: setup or build failed" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
/usr/lib/llvm-22/bin/lit -v "$build/test" "$@" | tee "$log"
status=${PIPESTATUS[0]}

# lit prints one "RESULT: suite :: test" line per test.
passed=$(grep -cE '^(PASS|XFAIL): ' "$log")
failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$log")
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # lit itself failed (e.g. a bad configuration)
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
