#!/usr/bin/env bash
# Builds the libFuzzer target fuzz/mat-fuzz (lexer, parser, MLIRGen and the
# verifier, with ASan + UBSan) in build-fuzz/ and fuzzes it, seeded with
# every .mat file of examples/ and test/ and 40 programs of
# test/tools/matgen.py. The corpus grows in
# build-fuzz/fuzz-corpus/; crashes, leaks and timeouts are written to
# build-fuzz/fuzz-artifacts/ (reproduce: build-fuzz/bin/mat-fuzz FILE).
#
# Usage: scripts/fuzz.sh [SECONDS (default 600)] [libFuzzer options...]
#   e.g. scripts/fuzz.sh 3600 -jobs=2 -workers=2
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
build=${MATC_FUZZ_BUILD_DIR:-build-fuzz}

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMATC_ENABLE_FUZZER=ON \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >&2
fi
ninja -C "$build" mat-fuzz >&2

# libFuzzer reads seed directories, not lists: copy the seeds into one.
seeds="$build/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build/fuzz-corpus" "$build/fuzz-artifacts"
find examples test -name '*.mat' -print0 |
  while IFS= read -r -d '' f; do
    cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"
  done
# And well-typed random programs (test/tools/matgen.py), which reach deep
# into MLIRGen: functions, '?' dimensions, f32 and f64.
for seed in $(seq 0 39); do
  /usr/bin/python3 test/tools/matgen.py --seed "$seed" --size small \
    > "$seeds/matgen-$seed.mat" 2>/dev/null || rm -f "$seeds/matgen-$seed.mat"
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
exec "$build/bin/mat-fuzz" "$build/fuzz-corpus" "$seeds" \
  -dict=fuzz/mat.dict -max_len=4096 -timeout=5 -rss_limit_mb=4096 \
  -max_total_time="$seconds" -print_final_stats=1 \
  -artifact_prefix="$build/fuzz-artifacts/" "$@"
