#!/bin/sh
# toolkit_sweep.sh: tools/awesim-sweep end to end on the aerostat model (scenarios/aerostat.yaml)
# (tests/data/sweep/): a 6-point wind grid through GNU parallel (6 HDF5 logs, a merged CSV in
# grid order whose tether force grows with the wind), a list with one failing point (reported,
# the others complete), the Slurm job-array script (bash -n, one array task per point), dry
# run, --merge, --resume (only failed or missing points run again), the exit code counting
# failed runs, plan.tsv, and grid-file errors (file:line:col).
set -u
cd "$(dirname "$0")/.." || exit 2
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
SWEEP=tools/awesim-sweep
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() {  # check NAME COMMAND...: the command must succeed
  name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}
no_sanitizer() {  # no ASan/UBSan report in the files given
  ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$@" 2>/dev/null
}

if ! command -v parallel >/dev/null 2>&1; then
  echo "FAIL GNU parallel is not installed (tools/install-deps installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi

# ---- a grid of six wind speeds through GNU parallel -------------------------------------------
D=$T/wind
"$SWEEP" --awesim "$AWESIM" -j 2 -o "$D" tests/data/sweep/wind.yaml >"$T/out" 2>"$T/err"
rc=$?
check "wind sweep exit $rc (0 expected): $(cat "$T/err")" [ "$rc" -eq 0 ]
n=$(find "$D" -name 'run_*.h5' | wc -l)
check "wind sweep: $n HDF5 files, 6 expected" [ "$n" -eq 6 ]
check "wind sweep: GNU parallel job log with 6 jobs" \
  [ "$(tail -n +2 "$D/joblog.tsv" 2>/dev/null | wc -l)" -eq 6 ]
check "wind sweep: sanitizer report in a run log" no_sanitizer "$D"/run_*.log
csv=$D/summary.csv
check "wind sweep: summary.csv with a header and 6 rows" [ "$(wc -l <"$csv")" -eq 7 ]
check "wind sweep: header" grep -q \
  '^point,settings.environment.v_wind,status,exit_code,force_mean\[N\],force_max\[N\],power_mean\[W\],elevation_final\[deg\],' "$csv"
# rows in grid order, all complete, force growing with wind, elevation falling
awk -F, 'NR > 1 {
  if ($1 != NR - 1) { print "row " NR ": point " $1 ", expected " NR - 1; bad = 1 }
  if ($2 != 2 * (NR - 1)) { print "row " NR ": v_wind " $2 ", expected " 2 * (NR - 1); bad = 1 }
  if ($3 != "complete" || $4 != 0) { print "row " NR ": status " $3 " exit " $4; bad = 1 }
  if ($5 == "" || (NR > 2 && $5 + 0 <= f + 0)) { print "row " NR ": force_mean " $5 " after " f; bad = 1 }
  if ($8 == "" || (NR > 2 && $8 + 0 >= e + 0)) { print "row " NR ": elevation " $8 " after " e; bad = 1 }
  f = $5; e = $8 }
  END { exit bad }' "$csv" >"$T/awk" 2>&1
check "wind sweep: rows in order, complete, force up and elevation down with wind: $(cat "$T/awk")" \
  [ ! -s "$T/awk" ]
# physics: at 12 m/s the drag (0.5*1.225*144 = 88 N) and the net lift (40 N minus the line's
# weight) give a tether force of about 94 N once settled; after 10 s it is still rising
f6=$(awk -F, 'NR == 7 {print $5}' "$csv")
check "wind sweep: force_mean at 12 m/s = $f6 N, expected 50..100" \
  awk -v f="$f6" 'BEGIN { exit !(f > 50 && f < 100) }'
check "wind sweep: per-run summary JSON with the overrides" \
  grep -q '"settings.environment.v_wind=6"' "$D/run_003.json"
check "wind sweep: per-run summary JSON status" grep -q '"status": "complete"' "$D/run_003.json"
check "wind sweep: scenario name and relative log in summary.csv" \
  grep -q '^3,6,complete,0,.*,aerostat,run_003.h5,$' "$csv"
check "wind sweep: plan.tsv lists the points" grep -q "^3	003	6$" "$D/plan.tsv"
check "wind sweep: sweep.sh jobs is a GNU parallel job list of 6 lines" \
  [ "$(sh "$D/sweep.sh" jobs | grep -c "^sh '$D/sweep.sh' [1-6]\$")" -eq 6 ]
check "wind sweep: sweep.sh runs single-threaded" grep -q '^export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1' "$D/sweep.sh"
check "wind sweep: plan.tsv names the scenario" grep -q "^# scenario	/.*/aerostat.yaml$" "$D/plan.tsv"
check "wind sweep: summary on stderr" grep -q '6 of 6 runs complete' "$T/err"

# --merge rebuilds the same CSV (to stdout)
"$SWEEP" --merge "$D" -o - >"$T/merged.csv" 2>"$T/err"
rc=$?
check "merge exit $rc" [ "$rc" -eq 0 ]
check "merge reproduces summary.csv" cmp -s "$T/merged.csv" "$csv"

# ---- one failing point is reported, the others complete ----------------------------------------
D=$T/fail
"$SWEEP" --awesim "$AWESIM" -o "$D" tests/data/sweep/wind_fail.yaml >"$T/out" 2>"$T/err"
rc=$?
check "failing sweep exit $rc (1 expected)" [ "$rc" -eq 1 ]
check "failing sweep: the failed run is listed: $(cat "$T/err")" \
  grep -qE 'run 004 \(settings.environment.v_wind=7, run.abs_tol=-1\): failed, exit 65: .*abs_tol' "$T/err"
check "failing sweep: 6 of 7 complete" grep -q '6 of 7 runs complete' "$T/err"
n=$(find "$D" -name 'run_*.h5' | wc -l)
check "failing sweep: $n HDF5 files, 6 expected" [ "$n" -eq 6 ]
check "failing sweep: row 4 failed with exit 65" grep -q '^4,7,-1,,failed,65,' "$D/summary.csv"
check "failing sweep: the other rows complete" \
  [ "$(grep -c ',complete,0,' "$D/summary.csv")" -eq 6 ]
check "failing sweep: row 4 has the last line of its log" \
  grep -qE '^4,7,-1,,failed,65,.*,aerostat,,.*abs_tol' "$D/summary.csv"
check "failing sweep: sanitizer report in a run log" no_sanitizer "$D"/run_*.log
# --resume runs only the failed point again: the joblog has one job, the complete runs keep
# their logs (same bytes), and the exit code still counts the one failure
cp "$D/run_002.h5" "$T/keep.h5"
"$SWEEP" --awesim "$AWESIM" --resume -o "$D" tests/data/sweep/wind_fail.yaml >"$T/out" 2>"$T/err"
rc=$?
check "resume exit $rc (1 expected)" [ "$rc" -eq 1 ]
check "resume: one job ran" [ "$(tail -n +2 "$D/joblog.tsv" 2>/dev/null | wc -l)" -eq 1 ]
check "resume: 1 of 7 to run" grep -q '1 of 7 runs' "$T/err"
check "resume: complete runs untouched" cmp -s "$D/run_002.h5" "$T/keep.h5"
check "resume: summary still has 6 complete rows" \
  [ "$(grep -c ',complete,0,' "$D/summary.csv")" -eq 6 ]
# two failures: the exit code counts them
printf 'scenario: %s\nset: {run.duration: 1}\nlist:\n  - {run.abs_tol: -1}\n  - {run.dt: -2}\n  - {run.dt: 0.1}\n' \
  "$(pwd)/scenarios/aerostat.yaml" >"$T/two.yaml"
"$SWEEP" --awesim "$AWESIM" -q -o "$T/two" "$T/two.yaml" >"$T/out" 2>"$T/err"
rc=$?
check "two failures: exit $rc (2 expected)" [ "$rc" -eq 2 ]
check "two failures listed" [ "$(grep -c ': failed, exit ' "$T/err")" -eq 2 ]

# ---- Slurm job-array script ----------------------------------------------------------------------
D=$T/slurm
"$SWEEP" --awesim "$AWESIM" -o "$D" --slurm "$T/job.sh" --sbatch --time=00:05:00 \
  tests/data/sweep/wind_fail.yaml >"$T/out" 2>"$T/err"
rc=$?
check "slurm exit $rc" [ "$rc" -eq 0 ]
check "slurm script passes bash -n" bash -n "$T/job.sh"
check "slurm: one array task per point" grep -q '^#SBATCH --array=1-7$' "$T/job.sh"
check "slurm: points.tsv holds one line per point" [ "$(grep -c "^[1-7]	" "$D/points.tsv")" -eq 7 ]
check "slurm: extra #SBATCH option" grep -q '^#SBATCH --time=00:05:00$' "$T/job.sh"
check "slurm: same script as the local runner" cmp -s "$T/job.sh" "$D/sweep.sh"
check "slurm: nothing ran" [ -z "$(ls "$D"/run_* 2>/dev/null)" ]
if command -v shellcheck >/dev/null 2>&1; then
  check "slurm script is shellcheck-clean" shellcheck "$T/job.sh"
fi
# one array task by hand, then a merge lists the six that did not run
SLURM_ARRAY_TASK_ID=2 bash "$T/job.sh"
check "slurm task 2 ran" [ "$(cat "$D/run_002.rc" 2>/dev/null)" = 0 ]
"$SWEEP" --merge "$D" >"$T/out" 2>"$T/err"
rc=$?
check "merge of a partial sweep exit $rc (6 not complete expected)" [ "$rc" -eq 6 ]
check "merge: missing runs listed" grep -q 'run 001 (settings.environment.v_wind=2): missing' "$T/err"
check "merge: run 2 complete" grep -q '^2,4,,,complete,0,' "$D/summary.csv"

# ---- dry run ----------------------------------------------------------------------------------------
"$SWEEP" --awesim "$AWESIM" --dry-run -o "$T/dry" tests/data/sweep/wind.yaml >"$T/out" 2>"$T/err"
rc=$?
check "dry run exit $rc" [ "$rc" -eq 0 ]
check "dry run: 6 commands" [ "$(grep -c " simulate .* --set 'settings.environment.v_wind=" "$T/out")" -eq 6 ]
check "dry run: wrote nothing" [ ! -e "$T/dry" ]

# ---- grid-file errors ---------------------------------------------------------------------------------
expect() {  # expect NAME RC PATTERN GRID-TEXT (printf format)
  name=$1
  want=$2
  pat=$3
  # shellcheck disable=SC2059
  printf "$4" "$S" >"$T/g.yaml"
  "$SWEEP" --awesim "$AWESIM" --dry-run "$T/g.yaml" >"$T/out" 2>"$T/err"
  got=$?
  if [ "$got" -eq "$want" ] && grep -qE -- "$pat" "$T/err"; then ok
  else bad "grid error $name: exit $got (want $want): $(cat "$T/err")"; fi
}
S=$(pwd)/scenarios/aerostat.yaml
expect typo 65 "g.yaml:2:1: grid file: unknown key 'gird' \(did you mean 'grid'\?\)" 'scenario: %s\ngird:\n  a: [1]\n'
expect empty 65 "g.yaml:3:6: grid 'a': the list of values is empty" 'scenario: %s\ngrid:\n  a: []\n'
expect unclosed 65 "g.yaml:4:1: invalid YAML: did not find expected" 'scenario: %s\ngrid:\n  a: [1, 2\n'
expect neither 65 "either 'grid'" 'scenario: %s\n'
expect no_scenario 66 'nope.yaml: cannot open' 'scenario: nope.yaml\ngrid:\n  a: [1]\n'
expect no_scenario_key 65 "'scenario' is missing" 'grid:\n  a: [1]\n'
expect empty_file 65 'g.yaml: the grid file is empty' ''
expect not_a_key 65 "g.yaml:3:3: grid: 'a b' is not a key path" 'scenario: %s\ngrid:\n  a b: [1]\n'
expect range 65 "g.yaml:3:6: grid 'a': step 1 does not lead from 2 to 1" \
  'scenario: %s\ngrid:\n  a: {from: 2, to: 1, step: 1}\n'
rm -f "$T/g.yaml"
"$SWEEP" --dry-run "$T/g.yaml" >/dev/null 2>"$T/err"
check "missing grid file: exit 66" [ $? -eq 66 ]
"$SWEEP" --jobs 0 tests/data/sweep/wind.yaml >/dev/null 2>"$T/err"
check "bad -j: exit 2" [ $? -eq 2 ]
"$SWEEP" --bogus >/dev/null 2>"$T/err"
check "unknown option: exit 2" [ $? -eq 2 ]
check "help" sh -c "'$SWEEP' --help | grep -q 'Exit status'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
