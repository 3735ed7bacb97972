#!/bin/sh
# fuzz_smoke.sh: a short run of every libFuzzer harness (tests/fuzz/, built by `make test-only`
# when clang is installed): FUZZ_SMOKE_SECONDS (5) each, seeded with the shipped and test files
# and the regression inputs in tests/fuzz/regress/. A crash, leak or UBSan report fails.
# The harnesses are ASan+UBSan builds already, so the second (ASan) pass of run.sh skips them.
# `make fuzz` runs them longer (FUZZ_SECONDS, default 60).
case ${AWESIM:-} in *asan*) echo "fuzz_smoke: the harnesses carry their own sanitizers (skipped"\
  "in the ASan pass)"; echo "fuzz_smoke: 0 passed, 0 failed"; exit 0 ;; esac
if ! ls build/fuzz/fuzz_* >/dev/null 2>&1; then
  echo "fuzz_smoke: skipped (no clang: the harnesses were not built)"
  echo "fuzz_smoke: 0 passed, 0 failed"
  exit 0
fi
tests/fuzz/run.sh "${FUZZ_SMOKE_SECONDS:-5}"
