#!/bin/sh
# reliability.sh: every run ends, and says why (guard.h, awesim(1) EXIT STATUS).
#   - a divergent run (negative y_damping on the parked kite, a 1e30 N rod with rk2 at loose
#     tolerances) fails with exit 1 naming the variable, instead of grinding for hours or
#     ending `complete` with the bob a million metres away;
#   - a stepper that needs steps below the floor fails with "step size underflow" (msbdf on
#     the same rod; run.min_step raises the floor); run.max_steps and run.max_wall_time stop a
#     run with a message naming the limit; tolerances below 1e-14 are refused (exit 65);
#   - SIGTERM during the steady-state settling, a linearization's operating point, a step
#     response and a long polar, and SIGINT during a simulation, end the process within 5 s
#     (the goal is 1 s; 5 s keeps the test robust on a loaded machine) with exit 128 + signal
#     and, for a log, status "interrupted" and the phase it stopped in;
#   - outputs that cannot be written are refused (exit 74) before any long work.
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -20; }
sanitizer() { grep -qE 'AddressSanitizer|runtime error' "$tmp/err"; }
now() { date +%s.%N; }
# lt A B: A < B (decimals)
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# check NAME EXPECTED_EXIT MAX_SECONDS CMD...  (stdout -> $tmp/out, stderr -> $tmp/err)
check() {
  name=$1
  want=$2
  lim=$3
  shift 3
  t0=$(now)
  timeout -k 5 120 "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  dt=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
  if [ "$rc" -eq "$want" ] && ! sanitizer; then ok; else bad "$name (exit $rc, expected $want)"; fi
  if lt "$dt" "$lim"; then ok; else bad "$name took $dt s (limit $lim s)"; fi
}

# grep_in NAME FILE PATTERN
grep_in() {
  if grep -qE -- "$3" "$2"; then ok; else bad "$1: no /$3/ in $(basename "$2")"; fi
}

# h5attr FILE NAME: a string attribute of the log's root (h5dump), or "-" without h5dump
h5attr() {
  command -v h5dump >/dev/null 2>&1 || { echo -; return; }
  h5dump -a "/$2" "$1" 2>/dev/null | sed -n 's/.*(0): "\(.*\)".*/\1/p'
}

# attr_is NAME FILE ATTR VALUE
attr_is() {
  v=$(h5attr "$2" "$3")
  if [ "$v" = "-" ] || [ "$v" = "$4" ]; then ok; else bad "$1: $3 = '$v', expected '$4'"; fi
}

# sigcheck NAME SIGNAL DELAY EXPECTED_EXIT CMD...: start CMD, send SIGNAL after DELAY seconds
# (after the HDF5 file $tmp/sig.h5 exists when the command writes one), expect it gone within
# 5 s with EXPECTED_EXIT
sigcheck() {
  name=$1
  sig=$2
  delay=$3
  want=$4
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  sleep "$delay"
  t0=$(now)
  kill "-$sig" "$pid" 2>/dev/null
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    bad "$name: still running 10 s after SIG$sig"
    return
  fi
  wait "$pid"
  rc=$?
  dt=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
  if [ "$rc" -eq "$want" ] && ! sanitizer; then ok; else bad "$name (exit $rc, expected $want)"; fi
  if lt "$dt" 5; then ok; else bad "$name: ended $dt s after SIG$sig (limit 5 s)"; fi
  grep_in "$name-msg" "$tmp/err" "interrupted by SIG$sig"
}

# --- divergence and step-size floor ------------------------------------------------------

# negative y_damping on the parked kite: before, 22 minutes of CPU in the settling
check neg-y-damping 1 60 "$AWESIM" simulate scenarios/2plate_parked.yaml -o "$tmp/neg.h5" \
  --set wings.main_wing.y_damping=-1e4 --set run.duration=5 --summary-json "$tmp/neg.json"
grep_in neg-y-damping-msg "$tmp/err" \
  'error: .*(wings\.main_wing\.[a-z_.]+ = .* is beyond the physically possible range|step size underflow).* in the steady-state settling'
grep_in neg-y-damping-json "$tmp/neg.json" '"status": "failed", "exit_code": 1,.*"phase": "settling"'
attr_is neg-y-damping-status "$tmp/neg.h5" status failed
attr_is neg-y-damping-phase "$tmp/neg.h5" phase settling

# a divergent explicit run: rk2 at abs_tol 1000, rel_tol 1 on a 1e30 N rod; before: exit 0,
# status complete, the bob at 1e6 m after 1 ms (and 2e27 m later)
check diverge-rk2 1 30 "$AWESIM" simulate scenarios/tests/diverge.yaml -o "$tmp/div.h5"
grep_in diverge-rk2-msg "$tmp/err" \
  'error: t = 0\.001 s: points\.bob\.pos\.[xz] = -?[0-9.e+]+ m is beyond the physically possible range \(\|points\.bob\.pos\.[xz]\| <= 1000 m: 1000 x the model.s size\) in the simulation'
attr_is diverge-rk2-status "$tmp/div.h5" status failed
attr_is diverge-rk2-phase "$tmp/div.h5" phase simulation

# the same rod with msbdf at ordinary tolerances: the steps shrink below 1e-12 s at once;
# before: still in the first log step after 10 minutes, SIGTERM ignored
check diverge-msbdf 1 30 "$AWESIM" simulate scenarios/tests/diverge.yaml --no-hdf5 \
  --set run.solver=msbdf --set run.abs_tol=1e-6 --set run.rel_tol=1e-6
grep_in diverge-msbdf-msg "$tmp/err" \
  'error: step size underflow at t=[0-9.e+-]+ s \(h=[0-9.e+-]+, floor 1e-12\) in the simulation: the system is unstable or too stiff for msbdf at these tolerances; the step is limited by points\.bob\.'

# run.min_step raises the floor: the undamped pendulum needs steps of ~1e-4 s at 1e-9
check min-step 1 30 "$AWESIM" simulate scenarios/pendulum.yaml --no-hdf5 --set run.min_step=1e-2
grep_in min-step-msg "$tmp/err" 'step size underflow at t=.*floor 0\.01\) in the simulation'

# run.max_steps
check max-steps 1 30 "$AWESIM" simulate scenarios/pendulum.yaml --no-hdf5 --set run.max_steps=1000
grep_in max-steps-msg "$tmp/err" \
  'error: step limit run\.max_steps = 1000 reached at t = [0-9.]+ s in the simulation \([0-9]+ accepted, [0-9]+ rejected steps\)'

# run.max_wall_time, here in a settling of 1e6 s that cannot end first: steps of at most 1 us
# (without that limit the parked kite settles in about a second since the analytic Jacobian)
check max-wall 1 30 "$AWESIM" simulate scenarios/2plate_parked.yaml -o "$tmp/wall.h5" \
  --set run.steady_state_time=1e6 --set run.max_step=1e-6 --set run.max_wall_time=1
grep_in max-wall-msg "$tmp/err" \
  'error: wall-time limit run\.max_wall_time = 1 s reached at t = .* in the steady-state settling'
attr_is max-wall-phase "$tmp/wall.h5" phase settling

# tolerances that cannot be met in double precision are refused
check tol-abs 65 30 "$AWESIM" simulate scenarios/pendulum.yaml --no-hdf5 \
  --set run.abs_tol=1e-300 --set run.rel_tol=1e-300
grep_in tol-abs-msg "$tmp/err" 'run\.abs_tol: 1e-300 is out of range \(allowed: >= 1e-14 .*cannot be met'
check tol-rel 65 30 "$AWESIM" simulate scenarios/pendulum.yaml --no-hdf5 --set run.rel_tol=1e-15
grep_in tol-rel-msg "$tmp/err" 'run\.rel_tol: 1e-15 is out of range'
check bad-max-steps 65 30 "$AWESIM" simulate scenarios/pendulum.yaml --no-hdf5 --set run.max_steps=0
grep_in bad-max-steps-msg "$tmp/err" 'run\.max_steps: 0 is out of range'

# --- signals -----------------------------------------------------------------------------

# SIGTERM in the settling (a settling of 1e6 s in steps of at most 1 us, as above): the log
# says interrupted, phase settling
sigcheck term-settling TERM 3 143 "$AWESIM" simulate scenarios/2plate_parked.yaml \
  -o "$tmp/sig.h5" --set run.steady_state_time=1e6 --set run.max_step=1e-6 \
  --summary-json "$tmp/sig.json"
grep_in term-settling-where "$tmp/err" 'interrupted by SIGTERM at t = 0 s in the steady-state settling'
grep_in term-settling-json "$tmp/sig.json" '"status": "interrupted", "exit_code": 143,.*"phase": "settling"'
attr_is term-settling-status "$tmp/sig.h5" status interrupted
attr_is term-settling-phase "$tmp/sig.h5" phase settling

# SIGINT in the simulation proper
sigcheck int-simulation INT 3 130 "$AWESIM" simulate scenarios/2plate_parked.yaml \
  -o "$tmp/sig2.h5" --set run.duration=1e5
attr_is int-simulation-status "$tmp/sig2.h5" status interrupted

# SIGTERM while linearize looks for its operating point
sigcheck term-linearize TERM 3 143 "$AWESIM" linearize scenarios/2plate_parked.yaml \
  --set run.steady_state_time=1e6 --set run.max_step=1e-6
grep_in term-linearize-where "$tmp/err" 'in the steady-state settling'

# SIGTERM in a step response
sigcheck term-step TERM 3 143 "$AWESIM" step-response scenarios/2plate_parked.yaml \
  --input winches.main_winch.torque --amplitude 1 --duration 1e5 -o "$tmp/step.h5"
attr_is term-step-status "$tmp/step.h5" status interrupted

# SIGTERM in a long polar (40001 angles): the rows written so far are whole
sigcheck term-polar TERM 2 143 "$AWESIM" polar models/v3_kite/aero_geometry.yaml \
  --alpha=-10:30:0.001
if awk -F, 'NR > 1 && NF != 10 { exit 1 }' "$tmp/out"; then ok; else bad "term-polar: a cut row"; fi

# --- outputs checked before the work -----------------------------------------------------

mkdir "$tmp/ro" "$tmp/dir.h5"
chmod 555 "$tmp/ro"
check out-dir 74 10 "$AWESIM" linearize scenarios/2plate_parked.yaml \
  --set run.steady_state_time=1e6 -o "$tmp/dir.h5"
grep_in out-dir-msg "$tmp/err" 'dir\.h5: Is a directory'
check out-missing 74 10 "$AWESIM" linearize scenarios/2plate_parked.yaml \
  --set run.steady_state_time=1e6 --lin "$tmp/nosuch/lin.txt"
grep_in out-missing-msg "$tmp/err" 'nosuch/lin\.txt: cannot create: directory .*nosuch: No such file'
# missing folders of --summary-json are created (like -o's); a file in the way is refused
: >"$tmp/afile"
check out-json 74 10 "$AWESIM" simulate scenarios/2plate_parked.yaml --no-hdf5 \
  --set run.steady_state_time=1e6 --summary-json "$tmp/afile/sub/s.json"
grep_in out-json-msg "$tmp/err" 'afile/sub/s\.json: cannot create directory .*afile/sub: Not a directory'
check out-step 74 10 "$AWESIM" step-response scenarios/2plate_parked.yaml \
  --set run.steady_state_time=1e6 --input winches.main_winch.torque --amplitude 1 \
  -o "$tmp/dir.h5"
if [ "$(id -u)" -ne 0 ]; then
  check out-readonly 74 10 "$AWESIM" linearize scenarios/2plate_parked.yaml \
    --set run.steady_state_time=1e6 -o "$tmp/ro/lin.h5"
  grep_in out-readonly-msg "$tmp/err" 'ro/lin\.h5: cannot create in .*: Permission denied'
fi
chmod 755 "$tmp/ro"

echo "reliability: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
