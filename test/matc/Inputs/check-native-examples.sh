#!/usr/bin/env bash
# Checks that every examples/NAME.mat prints exactly examples/NAME.expected
# four ways: run by the JIT (--run), as an executable (matc -o), as an
# object linked into a C program that calls matc_main (matc -c, then cc),
# and as a shared library a C program loads with dlopen (matc --shared).
#
# Usage: check-native-examples.sh MATC CC EXAMPLES_DIR WORK_DIR INPUTS_DIR \
#            [LINKER FLAGS for the OpenMP runtime...]
# Prints one line per failure, then "native examples: N checked, N failed";
# exits 1 if any failed. Two examples are checked at a time.
set -u
matc=$1 cc=$2 examples=$3 work=$4 inputs=$5
shift 5
omp=("$@")
mkdir -p "$work"

"$cc" -o "$work/run_program.o" -c "$inputs/run_program.c" || exit 1
"$cc" -o "$work/dlopen_main" "$inputs/dlopen_main.c" -ldl || exit 1

# Checks one example; prints its failures, exits 1 if any.
check() {
  local mat=$1 name dir expected status=0
  name=$(basename "$mat" .mat)
  dir="$work/$name"
  expected="$examples/$name.expected"
  mkdir -p "$dir"
  if [ ! -f "$expected" ]; then
    echo "FAIL $name: no $name.expected"
    return 1
  fi
  # compare WHAT FILE: FILE must equal the expected output.
  compare() {
    if ! cmp -s "$expected" "$2"; then
      echo "FAIL $name: $1 differs from $name.expected"
      diff "$expected" "$2" | head -5
      status=1
    fi
  }
  "$matc" "$mat" --run > "$dir/run.out" || echo "FAIL $name: --run exited $?"
  compare "--run" "$dir/run.out"
  if "$matc" "$mat" -o "$dir/exe" && "$dir/exe" > "$dir/exe.out"; then
    compare "the executable" "$dir/exe.out"
  else
    echo "FAIL $name: building or running the executable"
    status=1
  fi
  if "$matc" "$mat" -c -o "$dir/$name.o" &&
     "$cc" -o "$dir/linked" "$work/run_program.o" "$dir/$name.o" -lm "${omp[@]}" &&
     "$dir/linked" > "$dir/linked.out"; then
    compare "the object linked from C" "$dir/linked.out"
  else
    echo "FAIL $name: building or running the object linked from C"
    status=1
  fi
  if "$matc" "$mat" --shared -o "$dir/lib$name.so" &&
     "$work/dlopen_main" "$dir/lib$name.so" > "$dir/shared.out"; then
    compare "the shared library" "$dir/shared.out"
  else
    echo "FAIL $name: building or running the shared library"
    status=1
  fi
  return $status
}
export -f check
export matc cc examples work
export OMP_FLAGS="${omp[*]}"

count=0
failed=0
for mat in "$examples"/*.mat; do
  count=$((count + 1))
done
# Two at a time (the machine has two cores); each prints its own failures.
results=$(printf '%s\n' "$examples"/*.mat |
  xargs -P 2 -I{} bash -c 'omp=($OMP_FLAGS); check "$1" && echo PASS || echo FAILED' _ {})
echo "$results" | grep -v '^PASS$' | grep -v '^FAILED$'
failed=$(echo "$results" | grep -c '^FAILED$')
echo "native examples: $count checked, $failed failed"
[ "$failed" -eq 0 ]
