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
  passed=$(grep -cE '^(PASS|XFAIL): ' "$log")
  failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$log")
  rm -f "$log"
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
  fi
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
