#!/usr/bin/env bash
# The whole test suite against matc and matc-opt built with AddressSanitizer
# and UndefinedBehaviorSanitizer (-DMATC_SANITIZE=ON) in build-asan/. Any
# sanitizer report makes the test that triggered it fail. Tests marked
# `UNSUPPORTED: sanitized` (the 200-program differential run) are skipped;
# test/difftest/seeds-smoke.test runs instead. Ends with one line
# "N passed, N failed", as scripts/test.sh does.
#
# Usage: scripts/test-sanitized.sh [lit arguments]
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
build=${MATC_ASAN_BUILD_DIR:-build-asan}

# Packages: only when something is missing, let setup.sh install them
# (it also builds build/, as scripts/test.sh does first in CI anyway).
if ! command -v clang++-22 >/dev/null ||
   [ ! -f /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.asan-x86_64.a ] ||
   [ ! -f /usr/include/zstd.h ] || [ ! -f /usr/include/zlib.h ] ||
   ! command -v valgrind >/dev/null ||
   ! command -v mpiexec >/dev/null ||
   ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  if ! scripts/setup.sh >/dev/null; then
    echo "test-sanitized: setup failed" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build" \
    -DCMAKE_BUILD_TYPE=Release -DMATC_SANITIZE=ON \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >&2 || {
    echo "test-sanitized: cmake failed" >&2
    echo "0 passed, 1 failed"
    exit 1
  }
fi
if ! ninja -C "$build" matc matc-opt >&2; then
  echo "test-sanitized: build failed" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

run_lit "$build" "$@"
