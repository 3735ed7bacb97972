#!/bin/sh
# check_models.sh: every shipped model and scenario loads, and `awesim check` reports the
# component counts the model files define (counted by hand from the YAML).
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
# expect FILE PATTERN... : check succeeds and prints every pattern
expect() {
  f=$1
  shift
  out=$(timeout 30 "$AWESIM" check "$f" 2>&1)
  rc=$?
  ok=1
  why=""
  [ $rc -eq 0 ] || { ok=0; why="exit $rc"; }
  for p in "$@"; do
    echo "$out" | grep -qE -- "$p" || { ok=0; why="$why; no /$p/"; }
  done
  if echo "$out" | grep -qE 'AddressSanitizer|runtime error'; then ok=0; why="$why; sanitizer"; fi
  if [ $ok -eq 1 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL $f: $why"; echo "$out" | head -30 | sed 's/^/    /'; fi
}

expect models/pendulum/system.yaml 'points:   2 \(STATIC 1, DYNAMIC 1, QUASI_STATIC 0, WING 0' \
  'segments: 1 \(0 generated' 'mass:     1 kg moving' 'warnings: 0'
expect models/spring_mass/system.yaml 'points:   2 \(STATIC 1, DYNAMIC 1' 'segments: 1 '
expect models/hanging_tether/system.yaml 'points:   11 \(STATIC 1, DYNAMIC 10, QUASI_STATIC 0, WING 0; 9 generated' \
  'segments: 10 \(10 generated' 'tethers:  1' 'winches:  1' \
  'tether:   main_tether: 10 segments, end_mass -> winch, unstretched 100 m'
expect models/2plate_kite/system.yaml 'points:   15 \(STATIC 1, DYNAMIC 7, QUASI_STATIC 0, WING 7; 5 generated' \
  'segments: 27 \(6 generated' 'pulleys:  2' 'groups:   3' 'wings:    1' \
  'aero:     3 sections, 1 airfoils' 'wing:     main_wing: RIGID_DYNAMICS, AeroLinearized, 7 WING points' \
  'tether:   main_tether: 6 segments, kcu -> ground'
expect models/2plate_kite/system_refine.yaml 'points:   15 \(STATIC 1, DYNAMIC 8, QUASI_STATIC 0, WING 6; 5 generated' \
  'segments: 27 ' 'pulleys:  2' 'groups:   0' 'wing:     main_wing: PARTICLE_DYNAMICS, AeroLinearized, 6 WING points'
expect models/v3_kite/system.yaml 'points:   44 \(STATIC 1, DYNAMIC 23, QUASI_STATIC 0, WING 20; 0 generated' \
  'segments: 95 \(0 generated' 'pulleys:  6' 'aero:     10 sections, 5 airfoils' \
  'wing:     main_wing: PARTICLE_DYNAMICS, AeroLinearized, 20 WING points' 'tether:   main_tether: 6 segments'
# the V3 with the flown 10 mm tether: the same parts, 10.52 kg less of line (724 kg/m^3 on
# 225 m of 13.5 against 10 mm)
expect models/v3_kite_10mm/system.yaml 'points:   44 \(STATIC 1, DYNAMIC 23, QUASI_STATIC 0, WING 20; 0 generated' \
  'segments: 95 \(0 generated' 'pulleys:  6' 'aero:     10 sections, 5 airfoils' \
  'mass:     39.24[0-9]* kg moving \(point masses 23.75 kg, lines 16.55[0-9]* kg' \
  'tether:   main_tether: 6 segments'
expect models/v3_kite/system.yaml 'lines 27.08[0-9]* kg'
# V3Kite.jl's files, unchanged: the structure file with its folder's settings, aero and VSM files
# (its system.yaml names only the settings: tests/v3kite_jl.sh)
expect models/v3kite_jl/struc_geometry.yaml 'points:   44 \(STATIC 1, DYNAMIC 23, QUASI_STATIC 0, WING 20; 5 generated' \
  'segments: 95 \(6 generated' 'pulleys:  6' 'aero:     37 sections, 19 airfoils' \
  'wing:     1: PARTICLE_DYNAMICS, AeroLinearized, 20 WING points' 'tether:   1: 6 segments, 1 -> 39, unstretched 100 m'
for s in scenarios/*.yaml; do
  expect "$s" 'scenario: '
done
# --set reaches the scenario and the settings
expect scenarios/default.yaml 'run:      duration 10 s'
out=$("$AWESIM" check --set run.duration=3.5 --set settings.environment.v_wind=9 scenarios/default.yaml 2>&1)
if echo "$out" | grep -q 'duration 3.5 s'; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL --set"; fi
echo "check_models: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
