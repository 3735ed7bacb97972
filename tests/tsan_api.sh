#!/bin/sh
# tsan_api.sh: the C API's threaded test built with ThreadSanitizer (build/tsan-tests, made by
# `make test`): awesim_request_stop from another thread, a second thread's call on a busy
# handle (AWESIM_EBUSY) and awesim_close during a run must show no data race. The same test
# programs run in the optimised and ASan passes as C tests; this adds the race detector.
cd "$(dirname "$0")/.." || exit 2
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
pass=0
fail=0
for t in build/tsan-tests/test_api_safety; do
  if [ ! -x "$t" ]; then
    echo "FAIL $t: not built (make test builds it)"
    fail=$((fail + 1))
    continue
  fi
  out=$("$t" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] && ! printf '%s\n' "$out" | grep -q 'ThreadSanitizer'; then
    pass=$((pass + 1))
  else
    echo "FAIL $t (exit $rc):"
    printf '%s\n' "$out" | tail -30
    fail=$((fail + 1))
  fi
done
echo "tsan_api: $pass passed, $fail failed"
[ $fail -eq 0 ]
