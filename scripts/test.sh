#!/usr/bin/env bash
# Quick start, step 2: build (if needed) and run the whole test suite with
# lit. Ends with one line "N passed, N failed".
#
# Usage: scripts/test.sh [lit arguments, e.g. a test path or --filter=REGEX]
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
build=${MATC_BUILD_DIR:-build}

if ! scripts/setup.sh >/dev/null; then
  echo "test: setup or build failed" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

run_lit "$build" "$@"
