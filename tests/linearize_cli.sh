#!/bin/sh
# linearize_cli.sh: `awesim linearize` and `awesim step-response` from the command line — exit
# codes, the modal table, the files (-o, --lin, --csv), the equilibrium check, --json keys,
# --compare-linear, --spring-props; on the shipped non-wing models and the test scenarios.
# (The numbers themselves are checked by test_linearize, test_linearize_quat and test_step.)
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL $1"
  [ -n "${2:-}" ] && echo "$2" | head -20 | sed 's/^/    /'
}

# expect NAME RC PATTERN... -- ARGS : run awesim ARGS, assert exit code and patterns in
# stdout+stderr
expect() {
  name=$1
  rc=$2
  shift 2
  pats=""
  while [ "$1" != "--" ]; do
    pats="$pats
$1"
    shift
  done
  shift
  out=$(timeout 60 "$AWESIM" "$@" 2>&1)
  got=$?
  why=""
  [ "$got" -eq "$rc" ] || why="exit $got, expected $rc"
  echo "$pats" | while IFS= read -r p; do
    [ -z "$p" ] && continue
    echo "$out" | grep -qE -- "$p" || echo "no /$p/"
  done >"$T/miss"
  [ -s "$T/miss" ] && why="$why; $(tr '\n' ' ' <"$T/miss")"
  if echo "$out" | grep -qE 'AddressSanitizer|runtime error|LeakSanitizer'; then
    why="$why; sanitizer"
  fi
  if [ -z "$why" ]; then ok; else bad "$name: $why" "$out"; fi
}

S=scenarios/tests

# --- linearize: shipped models -------------------------------------------------------------
expect spring_mass 0 '^# linear model: 6 states, 3 inputs, 3 outputs' \
  'points\.mass\.pos\.z [0-9]+%, points\.mass\.vel\.z' 'note: the model has no winch' \
  'note: the model has no wing, tether or winch: outputs are the positions' \
  '-1 +31\.607 +5\.0329' -- linearize $S/lin_spring_mass.yaml
expect pendulum 0 '6 states' '3\.1320' -- linearize $S/lin_pendulum.yaml
expect hanging_tether 0 '62 states, 1 inputs, 2 outputs' 'holding torque' \
  'tethers\.main_tether\.len' -- linearize $S/lin_hanging_tether.yaml
expect default_scenario 0 '^ *1 ' -- linearize scenarios/default.yaml
expect model_file 0 'linear model' -- linearize models/spring_mass/system.yaml

# --- files ---------------------------------------------------------------------------------
expect files 0 'linear model' -- linearize $S/lin_hanging_tether.yaml -q -o "$T/lin.h5" \
  --lin "$T/lin.lin" --csv
for f in lin.h5 lin.lin lin_A.csv lin_B.csv lin_C.csv lin_D.csv; do
  if [ -s "$T/$f" ]; then ok; else bad "file $f missing"; fi
done
if grep -q '^Number of continuous states: *62$' "$T/lin.lin" &&
  grep -q '^A: 62 x 62$' "$T/lin.lin" && grep -q 'winches.main_winch.torque, N m' "$T/lin.lin"
then ok; else bad "lin file content"; fi
if head -1 "$T/lin_C.csv" | grep -q '^C,points\.end_mass\.pos\.x\[m\]' &&
  grep -q '^winches\.main_winch\.force\[N\],' "$T/lin_C.csv"; then ok; else bad "csv content"; fi
expect csv_prefix 0 '' -- linearize $S/lin_spring_mass.yaml -q --csv="$T/pre"
if [ -s "$T/pre_A.csv" ]; then ok; else bad "csv prefix"; fi
if command -v h5dump >/dev/null 2>&1; then
  if h5dump -d /x_names "$T/lin.h5" 2>/dev/null | grep -q 'tethers.main_tether.len'; then ok
  else bad "h5dump x_names"; fi
fi

# --- selection -----------------------------------------------------------------------------
expect inputs_outputs 0 '6 states, 1 inputs, 2 outputs' -- linearize $S/lin_spring_mass.yaml \
  --inputs 'points.mass.force.z' --outputs 'segments.spring.*'
expect no_match 2 "did you mean 'winches.main_winch.torque'" -- linearize \
  $S/lin_hanging_tether.yaml --inputs winches.main_winch.torqe
expect discrete_input 2 'discrete' -- linearize $S/lin_hanging_tether.yaml \
  --inputs winches.main_winch.brake

# --- equilibrium check ---------------------------------------------------------------------
# 0.05 s into the free oscillation (no settling): not an equilibrium
expect nonequilibrium 1 'not an equilibrium: residual' 'allow-nonequilibrium' -- linearize \
  $S/lin_spring_mass.yaml --set run.steady_state=false --at 0.05
expect allow 0 'warning: the operating point \(t = 0\.05 s\) is not an equilibrium' \
  'linear model' -- linearize $S/lin_spring_mass.yaml --set run.steady_state=false --at 0.05 \
  --allow-nonequilibrium
expect at_after_settling 0 'operating point: t = 0\.5 s' -- linearize $S/lin_spring_mass.yaml \
  --at 0.5
expect tol 1 'not an equilibrium' -- linearize $S/lin_hanging_tether.yaml --tol 1e-15

# --- usage ---------------------------------------------------------------------------------
expect help 0 'usage: awesim linearize' -- linearize --help
expect unknown_option 2 "unknown option '--bogus'" -- linearize --bogus $S/lin_spring_mass.yaml
expect no_scenario 2 'no scenario' -- linearize
expect bad_at 2 'not a number' -- linearize --at x $S/lin_spring_mass.yaml
expect missing_file 66 '' -- linearize $T/none.yaml
expect bad_outputs 2 "'nope\.\*' matches no variable" -- linearize \
  $S/lin_spring_mass.yaml --outputs 'nope.*'
expect step_bad_outputs 2 "'nope\.\*' matches no variable" -- step-response \
  $S/lin_damped.yaml --input points.mass.force.z --amplitude 1 --outputs 'nope.*'

# --- step-response -------------------------------------------------------------------------
expect step_table 0 '^# step of points\.mass\.force\.z by 1 N' \
  'points\.mass\.pos\.z +m +-1 +-0\.999' -- step-response $S/lin_damped.yaml \
  --input points.mass.force.z --amplitude 1
expect step_json 0 '"input": "points\.mass\.force\.z"' '"overshoot": 54\.4' \
  '"peak_time": 0\.101' '"gain": 0\.000999' '"rise_time": ' '"settling_time": ' \
  '"initial": -1' '"final": ' -- step-response $S/lin_damped.yaml -q --json \
  --input points.mass.force.z --amplitude 1 --outputs points.mass.pos.z --duration 3
expect step_compare 0 '"linear_error_max_rel": 0\.00[0-9]' '"linear_error_rms_rel": ' -- \
  step-response $S/lin_damped.yaml -q --json --compare-linear --input points.mass.force.z \
  --amplitude 1 --outputs points.mass.pos.z
expect step_compare_large 0 '"linear_error_max_rel": 0\.[1-9]' -- step-response \
  $S/lin_damped.yaml -q --json --compare-linear --input points.mass.force.z --amplitude 300 \
  --outputs points.mass.pos.z
expect step_h5 0 'lin_max' -- step-response $S/lin_damped.yaml -q --compare-linear \
  --input points.mass.force.z --amplitude 1 --duration 0.5 -o "$T/step/step.h5"
if [ -s "$T/step/step.h5" ]; then ok; else bad "step h5 missing"; fi
if command -v h5dump >/dev/null 2>&1; then
  if h5dump -g /step_response -A "$T/step/step.h5" 2>/dev/null | grep -q 'points.mass.force.z'
  then ok; else bad "step h5 group"; fi
fi
expect step_winch 0 'winches\.main_winch\.force' 'tethers\.main_tether\.len' 'holding torque' \
  -- step-response \
  $S/lin_hanging_tether.yaml --input winches.main_winch.torque --amplitude -1 --duration 1
expect spring_props 0 '^line +0\.1 +10\.0' -- step-response $S/lin_tether1.yaml --spring-props
expect spring_props_json 0 '"unit_stiffness": 99[0-9][0-9]' '"model_unit_stiffness": 10000' \
  '"unit_damping": ' -- step-response $S/lin_tether1.yaml -q --spring-props --json
expect spring_no_tether 1 'no tether' -- step-response $S/lin_damped.yaml --spring-props
expect step_no_input 2 'required' -- step-response $S/lin_damped.yaml
expect step_two_inputs 2 'selects 3 inputs' -- step-response $S/lin_damped.yaml \
  --input 'points.mass.force' --amplitude 1
expect step_zero 2 'must not be 0' -- step-response $S/lin_damped.yaml \
  --input points.mass.force.z --amplitude 0
expect step_help 0 'usage: awesim step-response' -- step-response -h

# --- zero modes ----------------------------------------------------------------------------
# the spring-mass settled at its rest length has no transverse stiffness: x and y are free
# (pos' = vel, vel' = 0), a double zero each that the central differences split into
# +-2.2e-5 i 1/s; with |lambda| <= min(1e-5 max|lambda|, 1e-3 1/s) they are class zero, without
# frequency, damping ratio or time constant, not 3.6 uHz oscillations
expect zero_spring_mass 0 '^# 3 modes, 2 zero \(\|lambda\| <= min\(1e-05 max\|lambda\|, 0\.001 1/s\)\)' \
  '^ +1 +0 +2\.23617e-05 +- +- +- +zero +points\.mass\.pos\.x' \
  '^ +2 +0 +2\.23617e-05 +- +- +- +zero +points\.mass\.pos\.y' \
  '^ +3 +-1 +31\.607 +5\.03292 +0\.0316228 +1 +stable' -- linearize $S/lin_spring_mass.yaml
if echo "$out" | grep -qE '3\.55897e-06|zeta.*-0\.5'; then bad "spring-mass: zero modes printed as oscillations" "$out"; else ok; fi
# a tighter tolerance turns them back into modes (undamped: Re = 0)
expect zero_tol 0 '^# 3 modes, 0 zero' '^ +1 +0 +2\.23617e-05 +3\.55897e-06 +0 +inf +undamped' \
  -- linearize $S/lin_spring_mass.yaml --zero-tol 1e-7
expect zero_tol_bad 2 'zero-tol' -- linearize $S/lin_spring_mass.yaml --zero-tol 2
# the hanging tether below a winch holding its torque: the tether length is an integrator
# (|lambda| 3.9e-4 1/s, was printed as an unstable mode with tau -2541 s); its pendulum
# (Re -3.8e-9 at 0.3175 1/s) is undamped, not stable or unstable (Re -3.83072e-09 before the
# tether's dampers read the winch speed, d(len - l0)/dt of SymbolicAWEModels 0.14)
expect zero_hanging_tether 0 '^# 32 modes, 1 zero' \
  '^ +1 +0\.000393543 +0 +- +- +- +zero +tethers\.main_tether\.len 100%' \
  '^ +2 +-3\.79572e-09 +0\.317506 +0\.0505326 +1\.19548e-08 +2\.63455e\+08 +undamped' \
  -- linearize $S/lin_hanging_tether.yaml
expect zero_h5 0 '' -- linearize $S/lin_spring_mass.yaml -q -o "$T/sm.h5"
if command -v h5dump >/dev/null 2>&1; then
  cls=$(h5dump -d /mode_class "$T/sm.h5" 2>/dev/null | grep -oE '"(zero|stable|unstable|undamped)' | tr '\n' ' ')
  [ "$cls" = '"zero "zero "stable ' ] && ok || bad "mode_class in the HDF5 file: $cls"
  h5dump -a /modes/zero_rel "$T/sm.h5" 2>/dev/null | grep -q '1e-05' && ok || bad "modes zero_rel attr"
  # a zero mode's frequency is 0, its damping ratio and time constant NaN
  h5dump -d /modes "$T/sm.h5" 2>/dev/null | grep -qE '\(0,0\): 0, 2\.23617e-05, 0, nan, nan' && ok ||
    bad "zero mode row in /modes" "$(h5dump -d /modes "$T/sm.h5" 2>&1 | head -20)"
fi
expect no_modes 0 '^# modes: not computed \(--no-modes\)' -- linearize $S/lin_spring_mass.yaml \
  --no-modes

# --- the eigen-analysis of 2402 states (about 140 s) ends on SIGTERM and max_wall_time --------
# sig_after_note NAME PATTERN SECONDS -- ARGS: run awesim ARGS in the background, wait until
# stderr matches PATTERN (at most 120 s), send SIGTERM SECONDS later; sets rc and ms (the
# milliseconds from the signal to the exit)
sig_after_note() {
  name=$1
  pat=$2
  wait_s=$3
  shift 4
  "$AWESIM" "$@" >"$T/sig.out" 2>"$T/sig.err" &
  pid=$!
  n=0
  while [ $n -lt 1200 ] && ! grep -qE -- "$pat" "$T/sig.err" 2>/dev/null &&
    kill -0 $pid 2>/dev/null; do
    sleep 0.1
    n=$((n + 1))
  done
  sleep "$wait_s"
  t0=$(date +%s%N)
  kill -TERM $pid 2>/dev/null
  wait $pid
  rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  echo "  $name: exit $rc, ${ms} ms after SIGTERM"
}
sig_after_note lin_sigterm 'eigen-analysis of 2402 states' 1 -- linearize $S/tether400.yaml \
  --allow-nonequilibrium -o "$T/t400.h5"
[ $rc -eq 143 ] && [ $ms -lt 5000 ] && ok || bad "linearize tether400 SIGTERM: exit $rc after $ms ms" "$(cat "$T/sig.out" "$T/sig.err")"
grep -q '^# modes: not computed: interrupted by SIGTERM .* in the eigen-analysis' "$T/sig.out" &&
  grep -q 'awesim: interrupted by SIGTERM' "$T/sig.err" && ok ||
  bad "linearize tether400 SIGTERM messages" "$(cat "$T/sig.out" "$T/sig.err")"
if command -v h5dump >/dev/null 2>&1; then
  h5dump -H -d /A "$T/t400.h5" 2>/dev/null | grep -q '( 2402, 2402 )' &&
    h5dump -a /modes "$T/t400.h5" 2>/dev/null | grep -q 'not computed: interrupted by SIGTERM' &&
    ok || bad "tether400 A not kept after SIGTERM"
fi
t0=$(date +%s%N)
# 10 s: the settling and the 2402 finite differences must come first, which under ASan on a
# loaded 2-core machine took more than 3 s
expect lin_wall 1 'wall-time limit run.max_wall_time = 10 s reached .* in the eigen-analysis' \
  '^# modes: not computed: wall-time' -- linearize $S/tether400.yaml --allow-nonequilibrium -q \
  --set run.max_wall_time=10
ms=$((($(date +%s%N) - t0) / 1000000))
[ $ms -lt 14000 ] && ok || bad "linearize tether400 max_wall_time 10 s: ended after $ms ms"

# --- step-response: default duration, SIGTERM, max_wall_time ------------------------------
# the parked 2plate kite steered: its scenario's run.duration is 600 s and the integration
# stalls at 29 s (the kite falls); from its trim the default is 2 ln(100/5) x 4.28 s (its
# slowest stable mode) = 25.65 s, which takes under a second
t0=$(date +%s%N)
expect step_default_duration 0 'note: --duration not given: 25\.65 s \(2 ln\(100/5\) x 4\.28 s, the slowest stable mode' \
  '^# step of segments\.kcu_steering_left\.l0 by 0\.01 m at the trim; 25\.65 s, dt 0\.05 s' \
  -- step-response scenarios/2plate_parked.yaml --input segments.kcu_steering_left.l0 \
  --amplitude 0.01
ms=$((($(date +%s%N) - t0) / 1000000))
echo "  2plate step response without --duration: ${ms} ms"
expect step_duration_json 0 '"duration": 25\.65' '"duration_rule": "2 ln' -- step-response \
  scenarios/2plate_parked.yaml --input segments.kcu_steering_left.l0 --amplitude 0.01 -q --json \
  --outputs wings.main_wing.heading
# too many states for the modes (2402): min(run.duration, 60 s) = 1 s, and the matrix
# exponential of --compare-linear ends on max_wall_time with the nonlinear table printed
t0=$(date +%s%N)
expect step_wall 1 'duration not given: 1 s \(min\(run.duration, 60 s\): the eigen-analysis of 2402 states' \
  'wall-time limit run.max_wall_time = 10 s reached .* in the linear step response' \
  '^winches\.drum\.force +N +49\.6' -- step-response $S/tether400.yaml --input winches.drum.torque \
  --amplitude 1 --compare-linear --set run.max_wall_time=10 -o "$T/sw.h5"
ms=$((($(date +%s%N) - t0) / 1000000))
[ $ms -lt 14000 ] && ok || bad "step-response tether400 max_wall_time 10 s: ended after $ms ms"
sig_after_note step_sigterm 'duration not given' 2 -- step-response $S/tether400.yaml \
  --input winches.drum.torque --amplitude 1 --compare-linear -o "$T/ss.h5"
[ $rc -eq 143 ] && [ $ms -lt 5000 ] && grep -q 'interrupted by SIGTERM' "$T/sig.err" && ok ||
  bad "step-response tether400 SIGTERM: exit $rc after $ms ms" "$(cat "$T/sig.err")"
if command -v h5dump >/dev/null 2>&1; then
  h5dump -a /status "$T/ss.h5" 2>/dev/null | grep -q '"interrupted"' && ok ||
    bad "step-response log not kept as interrupted"
fi

echo "linearize_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
