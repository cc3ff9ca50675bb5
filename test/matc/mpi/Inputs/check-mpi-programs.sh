#!/usr/bin/env bash
# Checks that every NAME.mat given prints exactly NAME.expected (beside it)
# as an MPI program on 2 ranks: built with `matc --ranks 2` at -O0 and -O2
# with --shard-min-elements 1 (every matrix whose rows divide by 2 is split,
# so that each operation goes through the collectives), and at -O2 with the
# default threshold (these small programs then run replicated), each run
# under `mpiexec -n 2`.
#
# Usage: check-mpi-programs.sh MATC MPIEXEC WORK_DIR FILE.mat...
# Prints one line per failure, then "mpi programs: N checked, N failed";
# exits 1 if any failed.
set -u
matc=$1 mpiexec=$2 work=$3
shift 3
mkdir -p "$work"

checked=0 failed=0
for mat in "$@"; do
  name=$(basename "$mat" .mat)
  expected="${mat%.mat}.expected"
  for variant in "O0 1" "O2 1" "O2 default"; do
    read -r level threshold <<< "$variant"
    exe="$work/$name.$level.$threshold"
    flags=(--ranks 2 "-$level")
    [ "$threshold" = default ] || flags+=(--shard-min-elements "$threshold")
    checked=$((checked + 1))
    if ! "$matc" "$mat" "${flags[@]}" -o "$exe" 2> "$exe.err"; then
      echo "FAIL $name ${flags[*]}: matc failed: $(head -3 "$exe.err")"
      failed=$((failed + 1))
      continue
    fi
    if ! "$mpiexec" -n 2 "$exe" > "$exe.out" 2> "$exe.err"; then
      echo "FAIL $name ${flags[*]}: mpiexec -n 2 exited $?: $(head -3 "$exe.err")"
      failed=$((failed + 1))
    elif [ -s "$exe.err" ]; then
      echo "FAIL $name ${flags[*]}: stderr: $(head -3 "$exe.err")"
      failed=$((failed + 1))
    elif ! cmp -s "$expected" "$exe.out"; then
      echo "FAIL $name ${flags[*]}: output differs from $(basename "$expected")"
      diff "$expected" "$exe.out" | head -5
      failed=$((failed + 1))
    fi
  done
done
echo "mpi programs: $checked checked, $failed failed"
[ "$failed" -eq 0 ]
