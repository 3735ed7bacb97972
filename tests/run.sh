#!/bin/sh
# run.sh: run every test twice — the optimised build, then the ASan+UBSan build.
#   C tests:   build/tests/test_*   and build/asan-tests/test_*
#   CLI tests: tests/*.sh (except this file), run with AWESIM=./awesim and AWESIM=build/awesim-asan
# Each prints a closing line "[LABEL: ]N passed, N failed"; a program without one counts as one
# failure (whatever its exit status), as does a non-zero exit with 0 failed. Ends with the total
# "N passed, N failed".
# Each pass runs TEST_JOBS (default: the number of cores) test files at a time and reports
# them in the usual order once they are all done.
cd "$(dirname "$0")/.." || exit 2
TEST_JOBS=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
total_pass=0
total_fail=0
failed_list=""
log=$(mktemp)
par=$(mktemp -d)
trap 'rm -rf "$log" "$par"' EXIT

tally() {  # label, exit code, seconds; the output is in $log
  label=$1
  rc=$2
  secs=$3
  line=$(grep -E '^([A-Za-z0-9_-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  p=$(echo "$line" | sed -E 's/^([A-Za-z0-9_-]+: )?([0-9]+) passed.*/\2/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
  # no closing line is a failure even with exit 0: the test did not say what it checked
  [ -z "$line" ] && { p=0; f=1; echo "    (no closing \"N passed, N failed\" line)" >>"$log"; }
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
  if [ "$f" -ne 0 ]; then
    failed_list="$failed_list $label"
    echo "FAIL $label ($p passed, $f failed, exit $rc, ${secs}s)"
    sed 's/^/    /' "$log" | tail -40
  else
    echo "ok   $label ($p passed, ${secs}s)"
  fi
}

# a list of jobs run TEST_JOBS at a time, each leaving its output in $par/N.log and "exit seconds"
# in $par/N.rc; reported in list order once all are done. Two phases, the optimised build and then
# the ASan build, so that a test never runs beside its own twin (some share scratch names within
# a phase's tests only). Timings are not what these tests check (make bench measures speed), so
# the optimised pass runs in parallel too: it was a third of CI's time run one at a time.
# Workers take the next unclaimed job (mkdir is atomic), the slowest first: with jobs dealt
# round-robin one worker idled while the other ran 677 s against 316 s (CI took 1349 s).
slow="docs_blocks fuzz_smoke cycles_cli output_guard sam_data sweep_safety toolkit_plot replay
  linearize_cli v3_2019 sweep_cycles toolkit_completion check_errors bad_corpus trim_cli ground_cli"
n=0
add_job() {  # label, command
  n=$((n + 1))
  echo "$1|$2" >"$par/$n.job"
}
claim_order() {  # job numbers, those named in $slow first (in $slow's order)
  for name in $slow; do
    i=1
    while [ "$i" -le "$n" ]; do
      label=$(cut -d'|' -f1 "$par/$i.job")
      [ "${label#asan:}" = "$name.sh" ] && echo "$i"
      i=$((i + 1))
    done
  done >"$par/order"
  i=1
  while [ "$i" -le "$n" ]; do
    grep -qx "$i" "$par/order" || echo "$i" >>"$par/order"
    i=$((i + 1))
  done
}
run_jobs() {
  claim_order
  k=1
  while [ "$k" -le "$TEST_JOBS" ]; do
    (
      for i in $(cat "$par/order"); do
        mkdir "$par/$i.claim" 2>/dev/null || continue
        cmd=$(cut -d'|' -f2- "$par/$i.job")
        start=$(date +%s)
        $cmd >"$par/$i.log" 2>&1
        echo "$? $(( $(date +%s) - start ))" >"$par/$i.rc"
      done
    ) &
    k=$((k + 1))
  done
  wait
  i=1
  while [ "$i" -le "$n" ]; do
    cp "$par/$i.log" "$log"
    read -r rc secs <"$par/$i.rc"
    tally "$(cut -d'|' -f1 "$par/$i.job")" "$rc" "$secs"
    i=$((i + 1))
  done
  rm -rf "${par:?}"/*
  n=0
}
for t in build/tests/test_*; do
  [ -x "$t" ] && add_job "$(basename "$t")" "$t"
done
for s in tests/*.sh; do
  [ "$(basename "$s")" = run.sh ] && continue
  add_job "$(basename "$s")" "env AWESIM=./awesim sh $s"
done
run_jobs
for t in build/asan-tests/test_*; do
  [ -x "$t" ] && add_job "asan:$(basename "$t")" "$t"
done
# once is enough for the checks of files rather than of the binary (the docs' blocks, the man
# pages, the include graph, the Python package's install, the plots of shipped files; the
# TSan test has its own sanitizer): under ASan they only cost CI time (258 s for docs_blocks)
once="docs_blocks.sh man_pages.sh check_includes.sh python_install.sh power_curve_compare.sh tsan_api.sh"
for s in tests/*.sh; do
  [ "$(basename "$s")" = run.sh ] && continue
  case " $once " in *" $(basename "$s") "*) continue ;; esac
  add_job "asan:$(basename "$s")" "env AWESIM=build/awesim-asan sh $s"
done
run_jobs
[ -n "$failed_list" ] && echo "failed:$failed_list"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
