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
  --input points.mass.force.z --amplitude 1 --outputs points.mass.pos.z
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

echo "linearize_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
