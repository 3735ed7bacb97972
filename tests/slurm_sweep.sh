#!/bin/sh
# slurm_sweep.sh: a sweep on a real single-node Slurm cluster. Brings up munged, slurmctld and
# slurmd on this machine (configuration, keys, sockets, state and logs in a temporary folder,
# private ports), submits the plan of tests/data/sweep/slurm.yaml (4 points, one failing) as a
# job array with sbatch, waits for it with squeue (at most 180 s), merges, and checks that
# summary.csv equals the GNU parallel run of the same grid (but for the wall_time[s] and
# realtime_factor columns, which are timings); then submits a plan whose folder and name hold
# shell syntax and checks that nothing of them runs. The daemons are stopped by their PIDs.
# Runs only for the optimised binary: with the ASan binary (tests/run.sh's second pass) it
# says "skipped" (the sweep machinery is the same; the ASan pass runs toolkit_sweep.sh).
# Without root or without slurm-wlm/munge (tools/install-deps --tests) it says "skipped: why".
set -u
cd "$(dirname "$0")/.." || exit 2
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() {
  name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}
skip() {
  echo "skipped: $*"
  echo "0 passed, 0 failed"
  exit 0
}

case $AWESIM in *asan*) skip "Slurm runs with the optimised binary only (this is $AWESIM)" ;; esac
[ "$(id -u)" -eq 0 ] || skip "a private slurmctld/slurmd needs root"
for b in munged slurmctld slurmd sbatch squeue sinfo parallel; do
  command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] ||
    skip "$b not installed (tools/install-deps --tests, which make test runs, installs slurm-wlm and munge)"
done
PATH=$PATH:/usr/sbin

T=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null; done
  for p in $pids; do
    i=0
    while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- munge ---------------------------------------------------------------------------------
mkdir -p "$T/state" "$T/spool"
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge.key"
munged -F --force --key-file="$T/munge.key" --socket="$T/munge.sock" \
  --pid-file="$T/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munge.seed" \
  >"$T/munged.out" 2>&1 &
pids="$!"
i=0
while [ ! -S "$T/munge.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$T/munge.sock" ] || skip "munged did not start: $(tail -2 "$T/munged.out" "$T/munged.log" 2>/dev/null | tr '\n' ' ')"

# ---- slurm.conf: one node (this machine), one partition ----------------------------------
host=$(hostname -s)
port=$((20000 + $$ % 20000))
cat >"$T/slurm.conf" <<CONF
ClusterName=awesimtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=awesim Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -i >"$T/slurmctld.out" 2>&1 &
pids="$! $pids"
slurmd -D -N "$host" >"$T/slurmd.out" 2>&1 &
pids="$! $pids"
i=0
until sinfo -h -N -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; do
  i=$((i + 1))
  if [ $i -gt 60 ]; then
    skip "the Slurm daemons did not come up: $(tail -2 "$T/slurmctld.log" "$T/slurmd.log" 2>/dev/null | tr '\n' ' ')"
  fi
  sleep 0.5
done
ok

# ---- the same grid through GNU parallel and through sbatch --------------------------------
GRID=tests/data/sweep/slurm.yaml
tools/awesim-sweep --awesim "$AWESIM" -q -j 2 -o "$T/par" "$GRID" >"$T/par.out" 2>"$T/par.err"
rc=$?
check "GNU parallel sweep: exit $rc (1 failed point expected): $(cat "$T/par.err")" [ "$rc" -eq 1 ]

"$AWESIM" sweep --awesim "$AWESIM" -o "$T/slurm" "$GRID" >"$T/plan.out" 2>"$T/plan.err"
check "plan: $(cat "$T/plan.err")" [ -x "$T/slurm/sweep.sh" ]
job=$(cd "$T" && sbatch --parsable "$T/slurm/sweep.sh" 2>"$T/sbatch.err")
check "sbatch accepted the array: $(cat "$T/sbatch.err")" [ -n "$job" ]
job=${job%%;*}
i=0
while [ -n "$job" ] && [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] && [ $i -lt 360 ]; do
  sleep 0.5
  i=$((i + 1))
done
check "job array $job finished within 180 s" [ $i -lt 360 ]
n=$(find "$T/slurm" -name 'slurm-*_*.out' | wc -l)
check "one Slurm output file per array task: $n, 4 expected" [ "$n" -eq 4 ]
n=$(find "$T/slurm" -name 'run_*.rc' | wc -l)
check "every task wrote its exit status: $n, 4 expected" [ "$n" -eq 4 ]
"$AWESIM" sweep --merge "$T/slurm" -q >"$T/merge.out" 2>"$T/merge.err"
rc=$?
check "merge of the Slurm run: exit $rc (1 failed point expected)" [ "$rc" -eq 1 ]
check "the failed point is listed" grep -q 'run 003 (settings.environment.v_wind=9, run.abs_tol=-1): failed, exit 65: .*abs_tol' "$T/merge.err"

# summary.csv: identical but for the timing columns
strip() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_time[s]" || $i == "realtime_factor") skip[i] = 1 }
    { out = ""; for (i = 1; i <= NF; i++) if (!skip[i]) out = out (out == "" ? "" : ",") $i; print out }' "$1"
}
strip "$T/par/summary.csv" >"$T/a.csv"
strip "$T/slurm/summary.csv" >"$T/b.csv"
check "summary.csv from Slurm equals the GNU parallel one: $(diff "$T/a.csv" "$T/b.csv" | head -5)" \
  cmp -s "$T/a.csv" "$T/b.csv"
check "summary.csv: 3 complete, 1 failed" [ "$(grep -c ',complete,0,' "$T/b.csv")" -eq 3 ]
# the physics came through: the tether force grows with the wind (points 1, 2, 4)
f=$(awk -F, 'NR > 1 && $4 == "complete" { printf "%s ", $6 }' "$T/b.csv")
check "force_mean grows with the wind: $f" awk -v f="$f" 'BEGIN { n = split(f, a, " "); exit !(n == 3 && a[1] < a[2] && a[2] < a[3]) }'

# ---- hostile folders and names through sbatch -------------------------------------------------
# The folders hold blanks, quotes, $(...), backquotes, ';', '#', '%' and (the second) a
# backslash, the name a line break and a command: the Slurm output files must land in the
# folder, and nothing of it may run (each payload would create a file in $C).
C=$T/canary
mkdir "$C"
k=0
for tail in '%x' '%x\y'; do
  k=$((k + 1))
  W="$T/we ird'q\"\$(touch $C/P1)\`touch $C/P2\`;touch $C/P3;#$tail"
  {
    printf 'scenario: %s/scenarios/aerostat.yaml\n' "$(pwd)"
    printf 'name: "x\\ntouch %s/P4\\n"\n' "$C"
    printf "output: '%s'\n" "$(printf '%s' "$W" | sed "s/'/''/g")"
    printf 'set: {run.duration: 1}\nlist:\n  - {settings.environment.v_wind: 4}\n'
    printf '  - {settings.environment.v_wind: 8}\n'
  } >"$T/hostile.yaml"
  "$AWESIM" sweep --awesim "$AWESIM" "$T/hostile.yaml" >"$T/plan.out" 2>"$T/plan.err"
  check "hostile plan $k: $(cat "$T/plan.err")" [ -x "$W/sweep.sh" ]
  job=$(cd "$T" && sbatch --parsable "$W/sweep.sh" 2>"$T/sbatch.err")
  check "sbatch accepted hostile array $k: $(cat "$T/sbatch.err")" [ -n "$job" ]
  job=${job%%;*}
  i=0
  while [ -n "$job" ] && [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] && [ $i -lt 360 ]; do
    sleep 0.5
    i=$((i + 1))
  done
  check "hostile job array $k ($job) finished within 180 s" [ $i -lt 360 ]
  n=$(find "$W" -name "slurm-${job}_[12].out" | wc -l)
  check "hostile folder $k: the Slurm output files of both tasks in it: $n" [ "$n" -eq 2 ]
  "$AWESIM" sweep --merge "$W" -q >"$T/merge.out" 2>"$T/merge.err"
  rc=$?
  check "hostile folder $k: merge exit $rc (0 expected): $(cat "$T/merge.err")" [ "$rc" -eq 0 ]
  check "hostile folder $k: 2 complete" [ "$(grep -c ',complete,0,' "$W/summary.csv")" -eq 2 ]
  check "hostile folder $k: nothing in sbatch's folder" [ -z "$(find "$T" -maxdepth 1 -name 'slurm-*')" ]
done
check "hostile folders and name: no code ran ($(ls "$C" | tr '\n' ' '))" [ -z "$(ls -A "$C")" ]

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
