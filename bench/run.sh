#!/usr/bin/env bash
# The matc benchmark in one command: installs what it needs (Debian
# packages), builds matc, compiles the kernels and the baselines, runs the
# sweep and writes bench/results/{summary.md,results.csv,matmul.png}.
#
# Usage: bench/run.sh            full sweep (sizes 64..2048, ~10-15 min)
#        bench/run.sh --quick    sizes 256 and 1024, two rounds (~2 min)
#        bench/run.sh [bench.py options]   (see bench/bench.py --help)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh

packages=(clang-22 gcc g++ libomp-22-dev libopenblas-dev libeigen3-dev
          gnuplot-nox)
install_missing_packages bench "${packages[@]}"

scripts/setup.sh >/dev/null
build=${MATC_BUILD_DIR:-build}
exec /usr/bin/python3 bench/bench.py --matc "$build/bin/matc" "$@"
