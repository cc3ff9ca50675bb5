#!/usr/bin/env bash
# Quick start, step 1: install what is missing (Debian 12 packages of
# LLVM/MLIR 22), configure with CMake + Ninja, build matc and matc-opt, and
# run matc on a bundled example.
#
# Usage: scripts/setup.sh            (re-running only rebuilds what changed)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh

# libclang-rt-22-dev: the sanitizer and libFuzzer runtimes
# (scripts/test-sanitized.sh, scripts/fuzz.sh); valgrind: the leak checks of
# generated code (test/matc/valgrind.test); libomp-22-dev: the OpenMP
# runtime that optimized code (-O1 and up) runs its outer tiles on;
# python3-venv: `pip install ./python` in a venv (test/python/pip-install.test);
# mpich libmpich-dev: MPI for the programs of `matc --ranks` (mpiexec,
# libmpich) and their tests; libzstd-dev zlib1g-dev: the compression
# libraries of LLVM's static libraries, which matc links (CMakeLists.txt);
# libjemalloc-dev: the allocator matc and matc-opt link (matc/CMakeLists.txt).
packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
          cmake ninja-build python3-numpy libclang-rt-22-dev valgrind
          libomp-22-dev python3-venv mpich libmpich-dev libzstd-dev zlib1g-dev libjemalloc-dev)
install_missing_packages setup "${packages[@]}"

build=${MATC_BUILD_DIR:-build}
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >&2
fi
ninja -C "$build" matc matc-opt >&2

# `import matc` for the system python3, with no variable set: a .pth file
# naming python/ of this checkout, in the system site-packages directory
# (root) or the user's (~/.local/...). Re-running rewrites it, so the last
# checkout set up is the one imported; the tests never rely on it.
install_python_path /usr/bin/python3 "$PWD/python" >&2

echo "setup: running $build/bin/matc examples/markov.mat --run" >&2
"$build/bin/matc" examples/markov.mat --run
