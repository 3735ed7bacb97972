#!/bin/sh
# bad_corpus.sh: walk the bad-input corpus tests/data/bad/*/ (mutations of the shipped scenarios
# and models, made by tests/data/bad/gen.py) and require of each: rejected by `awesim check` with
# an input exit code (65 invalid, 66 cannot open), no crash or sanitizer report, and a message
# that names the place: file:LINE:col. Under the ASan build every third case is run (time).
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
step=1
case $AWESIM in *asan*) step=3 ;; esac
pass=0
fail=0
tried=0
noline=0
i=0
for d in tests/data/bad/*/; do
  i=$((i + 1))
  [ $((i % step)) -eq 0 ] || [ "$step" -eq 1 ] || continue
  tried=$((tried + 1))
  out=$(cd "$d" && timeout 20 "$AWESIM" check scen.yaml 2>&1 >/dev/null)
  rc=$?
  why=""
  case $rc in 65|66) ;; *) why="exit $rc" ;; esac
  if echo "$out" | grep -qE 'AddressSanitizer|LeakSanitizer|runtime error|Segmentation'; then
    why="$why; sanitizer report"
  fi
  if ! echo "$out" | grep -E 'error:' | grep -qE ':[0-9]+:'; then
    noline=$((noline + 1))
    why="$why; no :LINE: in the message"
  fi
  if [ -z "$why" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $d: $why"
    echo "$out" | tail -3 | sed 's/^/    /'
  fi
done
echo "bad_corpus: $tried bad inputs tried, $noline messages without a line"
echo "bad_corpus: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$tried" -gt 0 ]
