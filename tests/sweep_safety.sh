#!/bin/sh
# sweep_safety.sh: sweeps run what they are asked to run and lose nothing.
#   - names, folders and values with line breaks, quotes, spaces, $(...), backquotes, ';', '#',
#     '%' and backslashes run no code through any runner: sh sweep.sh N, the job list through
#     GNU parallel, tools/awesim-sweep (GNU parallel and its xargs fallback), the dry run and
#     the Slurm script's #SBATCH lines (tests/slurm_sweep.sh submits one to a real Slurm);
#   - a folder that is not a sweep folder is refused untouched (the user's files keep their
#     bytes), and a second writer of a sweep folder is refused while the first one runs;
#   - --merge trusts no exit status alone: a log of random bytes, a truncated log and a
#     missing log are "invalid"; an interrupted run is "interrupted" with its row count;
#   - SIGTERM or SIGINT stops tools/awesim-sweep within seconds (exit 143 / 130);
#   - a plan or a merge interrupted while written leaves the folder as it was; --merge rejects
#     a plan cut short with plan.tsv:LINE; merge never writes over a file it reads;
#   - a 1e6-point sweep.sh is a few kB and finds its point in well under a second.
set -u
cd "$(dirname "$0")/.." || exit 2
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
SWEEP=$(pwd)/tools/awesim-sweep
SCEN=$(pwd)/scenarios/aerostat.yaml
T=$(mktemp -d)
bgpid=""
cleanup() {
  [ -n "$bgpid" ] && kill "$bgpid" 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() {  # check NAME COMMAND...: the command must succeed
  name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}
C=$T/canary  # every payload below would create a file in here
mkdir "$C"
no_code() { check "$1: code ran from a name ($(ls "$C" | tr '\n' ' '))" [ -z "$(ls -A "$C")" ]; }
# yaml_sq TEXT: TEXT as a YAML single-quoted scalar
yaml_sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
# status N CSV: the status column of point N
status() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i }
  NR > 1 && $1 == n { print $c }' "$2"; }
# args: a stand-in for awesim that prints its arguments, one a line (for the run's stdout)
printf '#!/bin/sh\nfor a do printf "%%s\\n" "$a"; done >>"${ARGS_OUT:-/dev/null}"\n' >"$T/args"
chmod +x "$T/args"

if ! command -v parallel >/dev/null 2>&1; then
  echo "FAIL GNU parallel is not installed (tools/install-deps installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi

# ---- 1. names and folders run no code -----------------------------------------------------
W="$T/we ird'q\"\$(touch $C/P1)\`touch $C/P2\`;touch $C/P3;#%x\\y"
payload="x
touch $C/P4
"
grid() {  # grid FILE OUTPUT-OR-EMPTY: a 2-point list, a hostile name and a hostile value
  {
    printf 'scenario: %s\nname: "x\\ntouch %s/P4\\n$(touch %s/P5)"\n' "$SCEN" "$C" "$C"
    [ -n "$2" ] && printf 'output: %s\n' "$(yaml_sq "$2")"
    printf 'set: {run.duration: 1}\nlist:\n  - {settings.environment.v_wind: 4}\n'
    printf '  - {settings.environment.v_wind: 6, run.solver: %s}\n' \
      "$(yaml_sq "a'\$(touch $C/P6)\`touch $C/P7\`;b")"
  } >"$1"
}
grid "$T/hostile.yaml" "$W"
"$SWEEP" --awesim "$AWESIM" -q -j 2 "$T/hostile.yaml" >"$T/out" 2>"$T/err"
rc=$?
check "tool, hostile folder: exit $rc (1 expected: point 2's solver is not a solver)" [ "$rc" -eq 1 ]
check "tool, hostile folder: point 1 complete" [ "$(status 1 "$W/summary.csv")" = complete ]
check "tool, hostile folder: point 2 failed on its value, kept whole: $(cat "$T/err")" \
  grep -q "run 002 .*failed, exit 65: .*a'\$(touch $C/P6)\`touch $C/P7\`;b" "$T/err"
check "tool, hostile folder: the name only in the job name, of safe characters" \
  [ "$(grep -c 'P4' "$W/sweep.sh")" -eq 1 ] && grep -q '^#SBATCH --job-name=[A-Za-z0-9_.-]*$' "$W/sweep.sh"
no_code "tool (GNU parallel)"
check "plan.tsv keeps the name on one line, escaped" \
  grep -q '^# name	x\\ntouch .*/P4\\n\$(touch .*/P5)$' "$W/plan.tsv"
check "sweep.sh comments hold no grid text" \
  sh -c '! grep "^# " "$1" | grep -q "touch"' _ "$W/sweep.sh"
# the runner by hand
rm -f "$W"/run_*
(cd / && sh "$W/sweep.sh" 1)
check "sh sweep.sh 1 in a hostile folder: exit status 0" [ "$(cat "$W/run_001.rc" 2>/dev/null)" = 0 ]
no_code "sh sweep.sh N"
# the job list through GNU parallel: each line one command, the folder quoted
n=$(sh "$W/sweep.sh" jobs | wc -l)
check "job list: $n lines, 2 expected" [ "$n" -eq 2 ]
rm -f "$W"/run_*
(cd / && sh "$W/sweep.sh" jobs | parallel --will-cite >/dev/null 2>&1)
check "job list through GNU parallel: both points ran" \
  [ -f "$W/run_001.rc" ] && [ -f "$W/run_002.rc" ]
check "job list through GNU parallel: point 1 complete" [ "$(cat "$W/run_001.rc")" = 0 ]
no_code "sh sweep.sh jobs | parallel"
# the xargs fallback (no GNU parallel on PATH)
mkdir "$T/nopar"
printf '#!/bin/sh\nexit 1\n' >"$T/nopar/parallel"
chmod +x "$T/nopar/parallel"
W2="$W-xargs"
grid "$T/hostile2.yaml" "$W2"
PATH="$T/nopar:$PATH" "$SWEEP" --awesim "$AWESIM" -q -j 2 "$T/hostile2.yaml" >"$T/out" \
  2>"$T/err"
rc=$?
check "tool with xargs: exit $rc (1 expected)" [ "$rc" -eq 1 ]
check "tool with xargs: fallback used" grep -q 'using xargs' "$T/err"
check "tool with xargs: point 1 complete" [ "$(status 1 "$W2/summary.csv")" = complete ]
no_code "tool (xargs)"
# a plain space in -o (once every run failed as 'did not run')
"$SWEEP" --awesim "$AWESIM" -q -o "$T/my sweep" tests/data/sweep/slurm.yaml >/dev/null \
  2>"$T/err"
rc=$?
check "-o 'my sweep': exit $rc (1 failed point expected)" [ "$rc" -eq 1 ]
check "-o 'my sweep': 3 complete" [ "$(grep -c ',complete,0,' "$T/my sweep/summary.csv")" -eq 3 ]
# the dry run: every word comes back from sh as it was meant
"$AWESIM" sweep --awesim "$T/args" --dry-run "$T/hostile.yaml" >"$T/dry" 2>"$T/err"
check "dry run: exit 0" [ $? -eq 0 ]
ARGS_OUT=$T/dry.args sh "$T/dry"
printf '%s\n' simulate "$SCEN" -o "$W/run_001.h5" --summary-json "$W/run_001.json" \
  --set run.duration=1 --set settings.environment.v_wind=4 >"$T/dry.want"
head -n 10 "$T/dry.args" >"$T/dry.got"
check "dry run: the words of point 1 through sh: $(diff "$T/dry.want" "$T/dry.got" | head -3)" \
  cmp -s "$T/dry.want" "$T/dry.got"
check "dry run: point 2's value through sh" \
  grep -qxF "run.solver='a''\$(touch $C/P6)\`touch $C/P7\`;b'" "$T/dry.args"
no_code "dry run through sh"
# the Slurm script: #SBATCH --output escapes the folder for sbatch's own parser
"$SWEEP" --awesim "$AWESIM" -q --slurm "$T/job.sh" "$T/hostile.yaml" >/dev/null 2>&1
check "slurm script: sh -n" sh -n "$T/job.sh"
check "slurm script: job name of safe characters" grep -q '^#SBATCH --job-name=awesim-x_touch_' \
  "$T/job.sh"
check "slurm script, a backslash in the folder: Slurm's output to /dev/null" \
  grep -q '^#SBATCH --output=/dev/null$' "$T/job.sh"
check "slurm script, a backslash in the folder: the script sends its output to the folder" \
  grep -qF 'exec >>"$dir/slurm-${SLURM_ARRAY_JOB_ID}_$point.out" 2>&1' "$T/job.sh"
W3="$T/we ird'q\"\$(touch $C/P1)\`touch $C/P2\`;touch $C/P3;#%x"
"$AWESIM" sweep --awesim "$AWESIM" -o "$W3" "$T/hostile.yaml" >/dev/null 2>&1
check "slurm script: --output in double quotes, \" escaped, % doubled" \
  grep -qxF "#SBATCH --output=\"$T/we ird'q\\\"\$(touch $C/P1)\`touch $C/P2\`;touch $C/P3;#%%x/slurm-%A_%a.out\"" \
  "$W3/sweep.sh"
if command -v shellcheck >/dev/null 2>&1; then
  check "sweep.sh in a hostile folder: no shellcheck warning" shellcheck -s sh -S warning \
    "$W/sweep.sh"
fi
no_code "slurm script"
# values reach awesim as one word each: blanks, globs, backslashes, $VARS, a leading dash
{
  printf 'scenario: %s\nlist:\n' "$SCEN"
  printf '  - {a.b: %s, c.d: "-x", e.f: [1, "x y"]}\n' "$(yaml_sq '  *  a\b $HOME `id` ')"
} >"$T/values.yaml"
"$AWESIM" sweep --awesim "$T/args" -o "$T/values" "$T/values.yaml" >/dev/null 2>"$T/err"
ARGS_OUT=$T/values.args sh "$T/values/sweep.sh" 1
printf '%s\n' "--set" "a.b='  *  a\\b \$HOME \`id\` '" "--set" "c.d='-x'" "--set" \
  "e.f=[1, 'x y']" >"$T/values.want"
tail -n 6 "$T/values.args" >"$T/values.got"
check "values through sweep.sh, one word each: $(diff "$T/values.want" "$T/values.got" | head -4)" \
  cmp -s "$T/values.want" "$T/values.got"
SLURM_ARRAY_TASK_ID="1;touch $C/P8" sh "$T/values/sweep.sh" 2>/dev/null
check "a task id that is not a number: refused" [ $? -eq 2 ]
# a scenario whose path holds a line break and a command: plan.tsv keeps it escaped on one
# line, sweep.sh and the merge find it
S="$T/sc
\$(touch $C/P9);x"
mkdir -p "$S/scenarios"
ln -s "$(pwd)/models" "$S/models"
cp "$SCEN" "$S/scenarios/aero'stat.yaml"
printf 'scenario: "%s"\nset: {run.duration: 1}\nlist:\n  - {settings.environment.v_wind: 4}\n' \
  "$(printf '%s' "$S/scenarios/aero'stat.yaml" | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 }')" \
  >"$T/scen.yaml"
"$SWEEP" --awesim "$AWESIM" -q -o "$T/scen" "$T/scen.yaml" >/dev/null 2>"$T/err"
rc=$?
check "a scenario path with a line break: exit $rc (0 expected): $(cat "$T/err")" [ "$rc" -eq 0 ]
check "a scenario path with a line break: one escaped line in plan.tsv" \
  grep -q '^# scenario	.*/sc\\n\$(touch .*/P9);x/scenarios/aero.stat.yaml$' "$T/scen/plan.tsv"
check "a scenario path with a line break: its name in summary.csv" \
  grep -q ',aerostat,run_001.h5,$' "$T/scen/summary.csv"
# a line break in the folder (here from the name, the default out/NAME) is refused
grid "$T/nl.yaml" ""
(cd "$T" && "$AWESIM" sweep nl.yaml >"$T/nl.out" 2>"$T/err")
rc=$?
check "a line break in the folder: exit $rc (65 expected)" [ "$rc" -eq 65 ]
check "a line break in the folder: message" grep -q 'has a line break in its path' "$T/err"
check "a line break in the folder: nothing created" [ ! -d "$T/out" ]
"$AWESIM" sweep -o "$T/a
b" "$T/nl.yaml" >/dev/null 2>"$T/err"
check "a line break in -o: exit 2" [ $? -eq 2 ]
no_code "line breaks"

# ---- 2. data loss ---------------------------------------------------------------------------
# a folder that is not a sweep folder: refused, every byte kept
U=$T/user
mkdir "$U"
printf 'my,results\n1,2\n' >"$U/summary.csv"
printf 'my joblog\n' >"$U/joblog.tsv"
printf 'my slurm output\n' >"$U/slurm-7_1.out"
printf 'a plan of mine\n' >"$U/plan.tsv"
cp -r "$U" "$T/user.orig"
"$AWESIM" sweep -o "$U" tests/data/sweep/wind.yaml >"$T/out" 2>"$T/err"
rc=$?
check "plan into a user's folder: exit $rc (74 expected)" [ "$rc" -eq 74 ]
check "plan into a user's folder: message" grep -q 'is not a sweep folder' "$T/err"
"$SWEEP" --awesim "$AWESIM" -o "$U" tests/data/sweep/wind.yaml >"$T/out" 2>"$T/err"
check "tool into a user's folder: exit 74" [ $? -eq 74 ]
check "the user's folder is byte for byte as it was: $(diff -r "$T/user.orig" "$U")" \
  diff -r "$T/user.orig" "$U"

# a second writer while a sweep runs: refused; the first sweep completes with its own plan
printf 'scenario: %s\nset: {run.duration: 2500}\ngrid:\n  settings.environment.v_wind: [4, 6, 8]\n' \
  "$SCEN" >"$T/long.yaml"
printf 'scenario: %s\nset: {run.duration: 1}\ngrid:\n  settings.environment.v_wind: [2, 4]\n' \
  "$SCEN" >"$T/short.yaml"
D=$T/shared
"$SWEEP" --awesim "$AWESIM" -j 1 -o "$D" "$T/long.yaml" >/dev/null 2>"$T/first.err" &
bgpid=$!
i=0
while [ ! -f "$D/run_001.log" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
cp "$D/plan.tsv" "$T/plan.first"
"$AWESIM" sweep -o "$D" "$T/short.yaml" >/dev/null 2>"$T/err"
rc=$?
check "second awesim sweep into a running sweep: exit $rc (74 expected)" [ "$rc" -eq 74 ]
check "second writer: message" grep -q 'another awesim sweep is writing this folder' "$T/err"
"$SWEEP" --awesim "$AWESIM" -o "$D" "$T/short.yaml" >/dev/null 2>"$T/err"
check "second tools/awesim-sweep: exit 74" [ $? -eq 74 ]
check "the running sweep's plan kept its bytes" cmp -s "$T/plan.first" "$D/plan.tsv"
wait "$bgpid"
rc=$?
bgpid=""
check "the first sweep: exit $rc, 0 expected" [ "$rc" -eq 0 ]
check "the first sweep: 3 of 3 complete: $(tail -1 "$T/first.err")" \
  grep -q '3 of 3 runs complete' "$T/first.err"
# after it ended, a plan of another grid into its folder would strand (it removed) its results:
# refused, with what to do, and every result kept
nres=$(ls "$D" | grep -c '^run_')
"$AWESIM" sweep -o "$D" "$T/short.yaml" >/dev/null 2>"$T/err"
check "another grid into a folder of results: refused (exit 74)" [ $? -eq 74 ]
check "another grid: says what to do" grep -q 'of an earlier sweep of another grid; nothing was changed or removed. Give a new folder with -o' "$T/err"
check "another grid: the $nres result files kept" [ "$(ls "$D" | grep -c '^run_')" -eq "$nres" ]
check "another grid: the plan kept" cmp -s "$T/plan.first" "$D/plan.tsv"
"$AWESIM" sweep -o "$D" "$T/long.yaml" >/dev/null 2>"$T/err"
check "the same grid again: planned (exit 0), the results kept" \
  [ $? -eq 0 ] && [ "$(ls "$D" | grep -c '^run_')" -eq "$nres" ]
check "the same grid again: says so" grep -q 'result files of this same grid: they are kept' "$T/err"

# the tutorial's steps: a local sweep, then a Slurm job script of the same grid into the same
# folder: it removed the 21 finished runs and summary.csv; now they stay, and the job array's
# tasks skip the complete points instead of running them again
E=$T/tutorial
"$SWEEP" --awesim "$AWESIM" -q -o "$E" "$T/short.yaml" >/dev/null 2>&1
before=$(ls "$E" | sort | tr '\n' ' ')
"$SWEEP" --awesim "$AWESIM" --slurm "$T/job.sbatch" -o "$E" "$T/short.yaml" >/dev/null 2>"$T/err"
check "--slurm after a local sweep: exit 0" [ $? -eq 0 ]
check "--slurm after a local sweep: every result and summary.csv kept" \
  [ "$(ls "$E" | sort | tr '\n' ' ')" = "$before" ] && [ -f "$E/summary.csv" ]
cp "$E/run_001.h5" "$T/run_001.before"
sh "$T/job.sbatch" 1 2>"$T/err"
check "a task of a complete point: exit 0, kept" [ $? -eq 0 ]
check "a task of a complete point: its log untouched" cmp -s "$T/run_001.before" "$E/run_001.h5"
check "a task of a complete point: says so" grep -q 'point 1: complete (run_001.h5), kept' "$T/err"
"$SWEEP" --merge "$E" >/dev/null 2>"$T/err"
check "--merge after --slurm: 2 of 2 complete" grep -q '2 of 2 runs complete' "$T/err"

# --merge checks the logs: random bytes, a truncated log, a missing log
D=$T/trust
printf 'scenario: %s\nset: {run.duration: 1}\ngrid:\n  settings.environment.v_wind: [2, 4, 6, 8, 10]\n' \
  "$SCEN" >"$T/five.yaml"
"$SWEEP" --awesim "$AWESIM" -q -o "$D" "$T/five.yaml" >/dev/null 2>&1
check "five runs complete" [ "$(grep -c ',complete,0,' "$D/summary.csv")" -eq 5 ]
head -c 20000 /dev/urandom >"$D/run_001.h5"
sz=$(wc -c <"$D/run_002.h5")
head -c $((sz / 2)) "$D/run_002.h5" >"$T/half" && cat "$T/half" >"$D/run_002.h5"
rm "$D/run_003.h5"
head -c 64 /dev/urandom >"$D/run_004.rc"
"$AWESIM" sweep --merge "$D" >/dev/null 2>"$T/err"
rc=$?
check "merge of damaged logs: exit $rc (3 expected)" [ "$rc" -eq 3 ]
check "random bytes: invalid" [ "$(status 1 "$D/summary.csv")" = invalid ]
check "random bytes: the reason" grep -q 'run 001 .*invalid, exit 0: run_001.h5: cannot be read as HDF5' "$T/err"
check "truncated: invalid" [ "$(status 2 "$D/summary.csv")" = invalid ]
check "missing log: invalid with the reason" grep -q 'run 003 .*invalid, exit 0: run_003.h5: missing' "$T/err"
check "an exit status of random bytes with a complete log: complete" \
  [ "$(status 4 "$D/summary.csv")" = complete ]
check "the summary says 2 of 5" grep -q '2 of 5 runs complete' "$T/err"
check "--pending lists the three" [ "$("$AWESIM" sweep --pending "$D" | tr '\n' ' ')" = "1 2 3 " ]
"$SWEEP" --awesim "$AWESIM" -q --resume -o "$D" "$T/five.yaml" >/dev/null 2>"$T/err"
rc=$?
check "--resume reruns the damaged runs: exit $rc (0 expected)" [ "$rc" -eq 0 ]
check "--resume: joblog of 3 jobs" [ "$(tail -n +2 "$D/joblog.tsv" | wc -l)" -eq 3 ]

# an interrupted run: its log says so, the exit status file may be missing (Ctrl-C)
"$AWESIM" simulate "$SCEN" --set run.duration=100000 -o "$D/run_005.h5" \
  --summary-json "$D/run_005.json" >/dev/null 2>"$D/run_005.log" &
bgpid=$!
sleep 1
kill -INT "$bgpid"
wait "$bgpid"
bgpid=""
rm -f "$D/run_005.rc"
"$AWESIM" sweep --merge "$D" >/dev/null 2>"$T/err"
rc=$?
check "merge with an interrupted run: exit $rc (1 expected)" [ "$rc" -eq 1 ]
check "interrupted, not 'did not run'" [ "$(status 5 "$D/summary.csv")" = interrupted ]
rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rows") c = i } NR == 6 { print $c }' \
  "$D/summary.csv")
check "interrupted: $rows rows, more than 100" [ "${rows:-0}" -gt 100 ]
check "interrupted: the row count on stderr" grep -q "run 005 .*interrupted: .*$rows rows logged" "$T/err"

# merge never writes over what it reads
cp "$D/plan.tsv" "$T/plan.keep"
"$AWESIM" sweep --merge "$D" -o "$D/plan.tsv" >/dev/null 2>"$T/err"
check "merge -o plan.tsv: exit 74" [ $? -eq 74 ]
check "merge -o plan.tsv: plan kept" cmp -s "$T/plan.keep" "$D/plan.tsv"
"$AWESIM" sweep --merge "$D" -o "$D/run_002.h5" >/dev/null 2>&1
check "merge -o a run's log: exit 74" [ $? -eq 74 ]

# ---- 3. SIGTERM and SIGINT stop tools/awesim-sweep ---------------------------------------------
for sig in TERM INT; do
  D=$T/stop$sig
  # the undamped pendulum (rk8pd, ~700x real time): every point runs ~30 s unless stopped
  printf 'scenario: %s\nset: {run.duration: 20000, run.dt: 1}\ngrid:\n  settings.environment.v_wind: [2, 4, 6, 8, 10, 12]\n' \
    "$(pwd)/scenarios/pendulum.yaml" >"$T/stop.yaml"
  # started with SIGINT at its default (a background job of sh would ignore it)
  /usr/bin/python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$SWEEP" --awesim "$AWESIM" -j 2 -o "$D" "$T/stop.yaml" \
    >/dev/null 2>"$T/stop.err" &
  bgpid=$!
  i=0
  while [ ! -f "$D/run_002.log" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
  sleep 0.5
  kill -"$sig" "$bgpid"
  t0=$(date +%s)
  wait "$bgpid"
  rc=$?
  bgpid=""
  dt=$(($(date +%s) - t0))
  want=143
  [ "$sig" = INT ] && want=130
  check "SIG$sig: exit $rc ($want expected): $(tail -3 "$T/stop.err")" [ "$rc" -eq "$want" ]
  check "SIG$sig: stopped in $dt s (at most 10)" [ "$dt" -le 10 ]
  check "SIG$sig: the last points never started" [ ! -e "$D/run_006.log" ]
  check "SIG$sig: point 6 listed as missing" [ "$(status 6 "$D/summary.csv")" = missing ]
  check "SIG$sig: running points interrupted" \
    [ "$(grep -c ',interrupted,' "$D/summary.csv")" -ge 1 ]
  check "SIG$sig: no run left behind" sh -c "! ps -eo args | grep -F -- '$D/run_' | grep -qv grep"
done

# ---- 4. plan files: atomic, and checked by --merge ------------------------------------------------
case $AWESIM in *asan*) big=200 ;; *) big=1000 ;; esac
D=$T/atomic
"$AWESIM" sweep -o "$D" tests/data/sweep/wind.yaml >/dev/null 2>&1
cp "$D/plan.tsv" "$T/plan.old"
cp "$D/sweep.sh" "$T/sweep.old"
printf 'scenario: %s\ngrid:\n  settings.environment.v_wind: {from: 1, to: 1000, num: %d}\n  settings.tether.d_tether: {from: 1, to: 1000, num: 1000}\n' \
  "$SCEN" "$big" >"$T/big.yaml"
"$AWESIM" sweep -o "$D" "$T/big.yaml" >/dev/null 2>"$T/err" &
bgpid=$!
i=0
while [ -z "$(find "$D" -name ".awesim-tmp.points.tsv.*")" ] && [ $i -lt 2000 ]; do sleep 0.01; i=$((i + 1)); done
kill -INT "$bgpid"
wait "$bgpid"
rc=$?
bgpid=""
check "SIGINT while the plan is written: exit $rc (130 expected)" [ "$rc" -eq 130 ]
check "SIGINT while the plan is written: plan.tsv as it was" cmp -s "$T/plan.old" "$D/plan.tsv"
check "SIGINT while the plan is written: sweep.sh as it was" cmp -s "$T/sweep.old" "$D/sweep.sh"
check "SIGINT while the plan is written: no temporary left" \
  [ -z "$(find "$D" -name '.awesim-tmp*')" ]
# a plan cut mid-row, a row out of order, a missing marker
cp "$T/plan.old" "$T/p"
head -c $(($(wc -c <"$T/p") - 3)) "$T/p" >"$D/plan.tsv"
"$AWESIM" sweep --merge "$D" >/dev/null 2>"$T/err"
rc=$?
check "plan cut mid-row: exit $rc (65 expected)" [ "$rc" -eq 65 ]
check "plan cut mid-row: file:line: $(cat "$T/err")" grep -q 'plan.tsv:11: the last line is cut short' "$T/err"
sed 's/^4	004	8$/5	005	8/' "$T/p" >"$D/plan.tsv"
"$AWESIM" sweep --merge "$D" >/dev/null 2>"$T/err"
check "plan with a wrong row: exit 65 naming line 9: $(cat "$T/err")" \
  grep -q 'plan.tsv:9: expected the row of point 4' "$T/err"
sed 1d "$T/p" >"$D/plan.tsv"
"$AWESIM" sweep --merge "$D" >/dev/null 2>"$T/err"
check "plan without the marker: exit 65" [ $? -eq 65 ]

# ---- 5. a million points: sweep.sh stays small and finds its point fast ---------------------------
D=$T/big
"$AWESIM" sweep --awesim "$T/args" -o "$D" "$T/big.yaml" >/dev/null 2>"$T/err"
check "big plan: exit 0: $(cat "$T/err")" [ $? -eq 0 ]
n=$((big * 1000))
sz=$(wc -c <"$D/sweep.sh")
check "big plan: sweep.sh of $sz bytes (at most 4000)" [ "$sz" -le 4000 ]
t0=$(date +%s%N)
ARGS_OUT=$T/big.args sh "$D/sweep.sh" "$n"
ms=$((($(date +%s%N) - t0) / 1000000))
check "sh sweep.sh $n: $ms ms (at most 1000)" [ "$ms" -le 1000 ]
check "sh sweep.sh $n: the last point's values" \
  grep -qx 'settings.tether.d_tether=1000' "$T/big.args"
check "sh sweep.sh $n: exit status recorded" [ "$(cat "$D/run_$n.rc")" = 0 ]
check "job list of $n lines" [ "$(sh "$D/sweep.sh" jobs | wc -l)" -eq "$n" ]
# a merge interrupted: no temporary left, summary.csv as it was
printf 'an earlier summary\n' >"$D/summary.csv"
"$AWESIM" sweep --merge "$D" >/dev/null 2>"$T/err" &
bgpid=$!
i=0
while [ -z "$(find "$D" -name '.awesim-tmp.summary.*')" ] && [ $i -lt 2000 ]; do
  sleep 0.01
  i=$((i + 1))
done
kill -INT "$bgpid"
wait "$bgpid"
rc=$?
bgpid=""
check "SIGINT during a merge: exit $rc (130 expected)" [ "$rc" -eq 130 ]
check "SIGINT during a merge: summary.csv kept its bytes (exit $rc, waited $i polls)" \
  [ "$(cat "$D/summary.csv")" = "an earlier summary" ]
check "SIGINT during a merge: no temporary left" [ -z "$(find "$D" -name '.awesim-tmp*')" ]
sh "$D/sweep.sh" "$((n + 1))" 2>"$T/err"
check "a point past the end: exit 2" [ $? -eq 2 ]
sh "$D/sweep.sh" '1;touch' 2>"$T/err"
check "a point that is not a number: exit 2" [ $? -eq 2 ]
no_code "all runners"
check "no sanitizer report in any log: $(grep -rlE 'AddressSanitizer|LeakSanitizer|runtime error' "$T" | head -3)" \
  sh -c '! grep -rqE "AddressSanitizer|LeakSanitizer|runtime error" "$1"' _ "$T"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
