#!/usr/bin/env bash
# Starts `MPIEXEC -n 2 EXE`, kills one of its two ranks (SIGKILL) once both
# run, and reports how the run ended: "the run ended with status N", or
# "HANG" if it still runs after GUARD seconds (then everything is killed).
#
# Usage: kill-one-rank.sh MPIEXEC EXE GUARD
set -u
mpiexec=$1 exe=$2 guard=$3
"$mpiexec" -n 2 "$exe" > "$exe.out" 2>&1 &
launcher=$!

# The ranks are the processes running EXE (a path of this test's own).
ranks=()
for _ in $(seq 100); do
  mapfile -t ranks < <(pgrep -f -x "$exe")
  [ "${#ranks[@]}" -ge 2 ] && break
  sleep 0.1
done
if [ "${#ranks[@]}" -lt 2 ]; then
  echo "FAIL: the ranks did not start"
  kill "$launcher" 2> /dev/null
  exit 1
fi
sleep 0.5
kill -KILL "${ranks[0]}"

for _ in $(seq $((guard * 10))); do
  if ! kill -0 "$launcher" 2> /dev/null; then
    wait "$launcher"
    echo "the run ended with status $?"
    exit 0
  fi
  sleep 0.1
done
echo "HANG: the run still goes on after $guard s"
kill -KILL "${ranks[@]}" "$launcher" 2> /dev/null
exit 1
