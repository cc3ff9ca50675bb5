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

packages=(clang-22 gcc g++ libomp-22-dev libopenblas-dev libeigen3-dev
          gnuplot-nox)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bench: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi

scripts/setup.sh >/dev/null
build=${MATC_BUILD_DIR:-build}
exec /usr/bin/python3 bench/bench.py --matc "$build/bin/matc" "$@"
