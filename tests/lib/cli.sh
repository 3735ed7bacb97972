# tests/lib/cli.sh: what the CLI test scripts share (sourced, not run: tests/run.sh runs
# tests/*.sh only). Sets AWESIM (default ./awesim), pass/fail counters, a temporary folder
# $tmp removed on exit, root (the repository, the folder the tests run from), and:
#   ok / bad NAME          count a pass / a failure (bad prints NAME and the last stderr)
#   sanitizer              whether the last stderr holds an AddressSanitizer or UBSan report
#   check NAME EXIT CMD... run CMD (stdout -> $tmp/out, stderr -> $tmp/err, killed after
#                          CHECK_TIMEOUT s, default 120): pass if it exits EXIT without a
#                          sanitizer report
#   grep_in NAME FILE ERE  pass if FILE matches ERE
#   grep_not NAME FILE ERE pass if FILE does not match ERE
#   num FILE KEY           the first number after "KEY": in FILE (a --summary-json: cycle 1's
#                          field comes before cycle_median's)
#   inside X LO HI         whether LO <= X <= HI (X not empty)
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$(pwd)

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -20; }
sanitizer() { grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$tmp/err"; }

check() {
  name=$1
  want=$2
  shift 2
  timeout "${CHECK_TIMEOUT:-120}" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq "$want" ] && ! sanitizer; then ok; else bad "$name (exit $rc, expected $want)"; fi
}

grep_in() {
  if grep -qE -- "$3" "$2"; then ok; else bad "$1: no /$3/ in $(basename "$2")"; fi
}

grep_not() {
  if grep -qE -- "$3" "$2"; then bad "$1: unexpected /$3/ in $(basename "$2")"; else ok; fi
}

num() { grep -o "\"$2\": *[^,}]*" "$1" | head -1 | sed 's/.*: *//'; }

inside() { awk -v x="$1" -v a="$2" -v b="$3" 'BEGIN { exit !(x != "" && x >= a && x <= b) }'; }
