#!/bin/sh
# fuzz_smoke.sh: a short run of every libFuzzer harness (tests/fuzz/, built by `make test-only`
# when clang is installed): FUZZ_SMOKE_RUNS (30000) inputs each, at most FUZZ_SMOKE_SECONDS (20),
# seeded with the shipped and test files and the regression inputs in tests/fuzz/regress/.
# A crash, leak or UBSan report fails. libFuzzer's seed is fixed (FUZZ_SMOKE_SEED, 1) and the
# count of inputs too, so every machine draws from the same sequence rather than from as many
# inputs as its speed allows (not bit for bit: two runs reached 1205 and 1229 features of
# fuzz_aero). A red CI should mean a change, not a lucky draw; finding new crashes is `make
# fuzz`'s job (random seeds, FUZZ_SECONDS each).
# The harnesses are ASan+UBSan builds already, so the second (ASan) pass of run.sh skips them.
# `make fuzz` runs them longer (FUZZ_SECONDS, default 60).
case ${AWESIM:-} in *asan*) echo "fuzz_smoke: the harnesses carry their own sanitizers (skipped"\
  "in the ASan pass)"; echo "fuzz_smoke: 0 passed, 0 failed"; exit 0 ;; esac
if ! ls build/fuzz/fuzz_* >/dev/null 2>&1; then
  echo "fuzz_smoke: skipped (no clang: the harnesses were not built)"
  echo "fuzz_smoke: 0 passed, 0 failed"
  exit 0
fi
FUZZ_RUNS=${FUZZ_SMOKE_RUNS:-30000} FUZZ_SEED=${FUZZ_SMOKE_SEED:-1} \
  tests/fuzz/run.sh "${FUZZ_SMOKE_SECONDS:-20}"
