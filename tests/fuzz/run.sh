#!/bin/sh
# run.sh SECONDS [HARNESS...]: run the libFuzzer harnesses build/fuzz/fuzz_* for SECONDS each.
# Seeds: the shipped and test files each reader reads, plus tests/fuzz/regress/<harness>/ (inputs
# that once crashed: kept as regression tests); the corpus grows in build/fuzz/corpus/<harness>/.
# A crash, leak or UBSan report stops the harness; its input is left in build/fuzz/ as crash-*.
# Prints per harness: executions, coverage (libFuzzer "cov"), and a closing "N passed, N failed".
# FUZZ_RUNS=N stops each harness after N inputs (SECONDS stays the cap) and FUZZ_SEED=N fixes
# libFuzzer's random seed: together they make runs draw from one sequence (nearly input for
# input; the smoke test in `make test` does this, so a fresh machine tries what this one tried).
cd "$(dirname "$0")/../.." || exit 2
secs=${1:-60}
shift
list=${*:-scenario structure aero polar settings vsm_settings sweep_grid wind_box wind_npz h5_inputs lin_model}
pass=0
fail=0
seeds() {
  case $1 in
    scenario) ls scenarios/*.yaml scenarios/tests/*.yaml tests/data/bad/*/scen.yaml ;;
    structure) ls models/*/*structure.yaml tests/models/*.yaml tests/models/*/*.yaml \
                  tests/data/sam/columns.yaml tests/data/sam/pulley_eff.yaml \
                  tests/data/sam/2plate_mapping.yaml tests/data/sam/old_spellings.yaml \
                  tests/data/sam/2plate_variables.yaml tests/fuzz/seeds_structure/*.yml ;;
    aero) ls models/*/aero_geometry.yaml tests/data/polar/rect_inviscid.yaml ;;
    polar) ls models/*/polars/*.csv ;;
    settings) ls models/*/settings.yaml ;;
    vsm_settings) ls models/*/vsm_settings.yaml tests/data/polar/vsm*.yaml ;;
    sweep_grid) ls tests/fuzz/seeds_sweep_grid/*.yaml ;;
    wind_box) ls tests/fuzz/seeds_wind_box/*.bts ;;
    wind_npz) ls tests/fuzz/seeds_wind_npz/*.npz ;;
    h5_inputs) ls tests/fuzz/seeds_h5_inputs/*.bin ;;
    lin_model) ls tests/fuzz/seeds_lin_model/*.lin ;;
  esac 2>/dev/null
}
for h in $list; do
  bin=build/fuzz/fuzz_$h
  [ -x "$bin" ] || { echo "fuzz_$h: not built"; fail=$((fail + 1)); continue; }
  corp=build/fuzz/corpus/$h
  # a repeatable run starts from the seeds alone, not from what earlier runs added
  [ -n "${FUZZ_SEED:-}" ] && rm -rf "$corp"
  mkdir -p "$corp"
  for f in $(seeds "$h") tests/fuzz/regress/"$h"/*; do
    [ -f "$f" ] && cp "$f" "$corp/seed_$(echo "$f" | tr '/' '_')"
  done
  log=build/fuzz/fuzz_$h.log
  # fuzz_h5_inputs (1 MiB) and fuzz_lin_model (16 MiB) set a memory budget (AWESIM_MAX_MEMORY): any
  # allocation past 64 MiB means a reader allocated before checking, and fails
  case $h in h5_inputs | lin_model) mlim=64 ;; *) mlim=2048 ;; esac
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$bin" -max_total_time="$secs" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
    -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=$mlim -max_len=65536 \
    -dict=tests/fuzz/yaml.dict -artifact_prefix=build/fuzz/ -print_final_stats=1 \
    "$corp" >"$log" 2>&1
  rc=$?
  runs=$(grep -aE '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  cov=$(grep -aE '#[0-9]+.*cov:' "$log" | tail -1 | sed -E 's/.*cov: ([0-9]+).*ft: ([0-9]+).*/cov \1 ft \2/')
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1))
    echo "fuzz_$h: ${runs:-?} executions, ${cov:-cov ?}, ok"
  else
    fail=$((fail + 1))
    echo "fuzz_$h: FAILED (exit $rc) after ${runs:-?} executions; see $log"
    grep -aE 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /'
  fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
