#!/usr/bin/env bash
# The MPI benchmark in one command: builds matc (scripts/setup.sh, which
# installs MPICH), compiles bench/mpi/*.mat for one process and for
# `--ranks N` (1 thread per rank), runs them interleaved under mpiexec and
# writes bench/results/mpi.md (time and peak memory per rank).
#
# Usage: bench/mpi.sh                 2 ranks, 5 rounds (about 2 min)
#        bench/mpi.sh [mpi.py options]  (see bench/mpi.py --help)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
build=${MATC_BUILD_DIR:-build}
exec /usr/bin/python3 bench/mpi.py --matc "$build/bin/matc" "$@"
