# Shell functions shared by scripts/setup.sh, scripts/test.sh,
# scripts/test-sanitized.sh and bench/run.sh. Source it; it defines
# functions only.

# install_missing_packages PACKAGE...: installs, with apt-get (through sudo
# when not root), those of the Debian packages that are not installed yet;
# `$1` of the log line names the caller. Returns apt-get's status.
install_missing_packages() {
  local who=$1
  shift
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "$who: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
}

# install_python_path PYTHON DIR: makes the packages in DIR importable by
# the interpreter PYTHON with no variable set, through a file matc.pth in
# its site-packages directory: the system one (/usr/local/lib/python3.X/
# dist-packages on Debian) as root, else the user's. Writes only when the
# file is missing or names another directory, then checks the import.
# Returns 1 (with a message) when PYTHON is missing, the file cannot be
# written or the import fails.
install_python_path() {
  local python=$1 dir=$2 site
  if [ ! -x "$python" ]; then
    echo "setup: no $python: the matc Python package is not installed" >&2
    return 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    site=$("$python" -c 'import site; print(site.getsitepackages()[0])')
  else
    site=$("$python" -m site --user-site)
  fi || return 1
  local previous
  # Missing on a new machine: not an error (under set -e, a failing
  # command substitution would end the caller).
  previous=$(cat "$site/matc.pth" 2>/dev/null || true)
  if [ "$previous" != "$dir" ]; then
    mkdir -p "$site" && printf '%s\n' "$dir" > "$site/matc.pth" || {
      echo "setup: cannot write $site/matc.pth" >&2
      return 1
    }
    echo "setup: $python imports matc from $dir ($site/matc.pth)" >&2
    if [ -n "$previous" ]; then
      echo "setup: note: it imported matc from $previous before; run" \
           "scripts/setup.sh there to switch back" >&2
    fi
  fi
  if ! (cd / && env -u PYTHONPATH "$python" -c 'import matc') >&2; then
    echo "setup: $python cannot import matc from $dir" >&2
    return 1
  fi
}

# run_lit BUILD_DIR [LIT ARGUMENTS...]: runs lit on BUILD_DIR/test, then
# prints one line "N passed, N failed" (PASS and XFAIL pass; FAIL, XPASS,
# UNRESOLVED and TIMEOUT fail; a lit that fails without a failed test, e.g.
# on a bad configuration, counts as one failure). Returns 0 iff none failed.
run_lit() {
  local build=$1
  shift
  local log status passed failed
  log=$(mktemp)
  /usr/lib/llvm-22/bin/lit -v "$build/test" "$@" | tee "$log"
  status=${PIPESTATUS[0]}
  # Only lit's result lines ("FAIL: matc :: dir/test (3 of 103)"), not a
  # failing test's output that lit echoes.
  passed=$(grep -cE '^(PASS|XFAIL): .* \([0-9]+ of [0-9]+\)$' "$log")
  failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): .* \([0-9]+ of [0-9]+\)$' "$log")
  rm -f "$log"
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
  fi
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
