#!/bin/sh
# kite_cli.sh: the kite scenarios from the command line: each runs, the summary reports the VSM
# refreshes, the HDF5 log holds the wing and group datasets with their shapes and the VSM
# attributes, the CSV names the wing channels, scenario transform overrides (and their errors),
# the steering sign, power in reel-out, linearize at a flown operating point.
. tests/lib/cli.sh

# every kite scenario runs (short) and reports its VSM refreshes
for s in 2plate_parked 2plate_steering 2plate_refine 2plate_reel_out; do
  check "$s" 0 "$AWESIM" simulate "scenarios/$s.yaml" --no-hdf5 --set run.duration=0.2
  grep_in "$s-summary" "$tmp/err" 'complete: simulated 0.2 s .*; VSM refreshes 4 \(failed [0-9]'
  grep_in "$s-steady" "$tmp/err" 'steady state: residual .*wings free only radially'
  if grep -q 'steady state was not reached' "$tmp/err"; then bad "$s: unexpected warning"; else ok; fi
done
# the V3 particle kite settles too (its points held on their spheres), to below 1e-3 g
check v3_steady 0 "$AWESIM" simulate scenarios/v3_kite.yaml --no-hdf5 --set run.duration=0
grep_in v3-settled "$tmp/err" 'steady state: residual [0-9.]+e-(0[5-9]|1[0-9]) N \(max \|acc\| [0-9.]+e-(0[4-9]|1[0-9]) m/s'
# with no wind there is no equilibrium: a warning, and the run goes on
check no_wind_steady 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --no-hdf5 --set run.duration=0 \
  --set settings.environment.v_wind=0
grep_in not-settled "$tmp/err" 'warning: the steady state was not reached \(max \|acc\| [0-9.e+]+ m/s\^2 > 0.00981 after 2 s'
check v3_kite 0 "$AWESIM" simulate scenarios/v3_kite.yaml --no-hdf5 --set run.duration=0.1 \
  --set run.steady_state=false
grep_in v3-summary "$tmp/err" 'complete: simulated 0.1 s .*; VSM refreshes 2 '

# HDF5: wing and group datasets, shapes, VSM attributes
check h5 0 "$AWESIM" simulate scenarios/2plate_parked.yaml -o "$tmp/k.h5" --set run.duration=0.5 \
  --set run.steady_state=false
if command -v h5ls >/dev/null 2>&1; then
  h5ls -r "$tmp/k.h5" >"$tmp/ls"
  for d in 'wings/pos +Dataset \{11/Inf, 1, 3\}' 'wings/vel +Dataset \{11/Inf, 1, 3\}' \
      'wings/quat +Dataset \{11/Inf, 1, 4\}' 'wings/omega_b +Dataset \{11/Inf, 1, 3\}' \
      'wings/va_b +Dataset \{11/Inf, 1, 3\}' 'wings/aero_force_b +Dataset \{11/Inf, 1, 3\}' \
      'wings/aero_moment_b +Dataset \{11/Inf, 1, 3\}' 'wings/elevation +Dataset \{11/Inf, 1\}' \
      'wings/azimuth +Dataset' 'wings/heading +Dataset' 'wings/course +Dataset' \
      'wings/aoa +Dataset' 'wings/aoa_body +Dataset' 'wings/sideslip +Dataset' \
      'wings/power +Dataset \{11/Inf, 1\}' \
      'groups/twist +Dataset \{11/Inf, 3\}'; do
    grep_in "h5-$d" "$tmp/ls" "^/$d"
  done
  if command -v h5dump >/dev/null 2>&1; then
    h5dump -a /vsm_refreshes "$tmp/k.h5" >"$tmp/attr" 2>&1
    grep_in h5-vsm-refreshes "$tmp/attr" '\(0\): 10'
    h5dump -a /vsm_failures "$tmp/k.h5" >"$tmp/attr" 2>&1
    grep_in h5-vsm-failures "$tmp/attr" '\(0\): 0'
    h5dump -a /wings/names "$tmp/k.h5" >"$tmp/attr" 2>&1
    grep_in h5-wing-names "$tmp/attr" 'main_wing'
    h5dump -a /groups/names "$tmp/k.h5" >"$tmp/attr" 2>&1
    grep_in h5-group-names "$tmp/attr" 'left.*center.*right'
  fi
fi

# summary JSON
check json 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --no-hdf5 --set run.duration=0.1 \
  --set run.steady_state=false \
  --summary-json "$tmp/s.json"
grep_in json-vsm "$tmp/s.json" '"vsm_refreshes": 2, "vsm_failures": 0'
grep_in json-heading "$tmp/s.json" '"wings.main_wing.heading": '

# CSV channel names and units
check csv 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --no-hdf5 --set run.duration=0.1 \
  --csv='time,wings.*.elevation,wings.*.quat,groups.*.twist'
grep_in csv-header "$tmp/out" '^time\[s\],wings\.main_wing\.elevation\[rad\],wings\.main_wing\.quat\.w\[-\],wings\.main_wing\.quat\.x\[-\],wings\.main_wing\.quat\.y\[-\],wings\.main_wing\.quat\.z\[-\],groups\.left\.twist\[rad\],groups\.center\.twist\[rad\],groups\.right\.twist\[rad\]$'
# placed at 60 deg: the steady state holds the centre of mass there (the origin, the kcu, is
# within a degree)
grep_in csv-elevation "$tmp/out" '^0,1\.04[0-9]*,'

# transform overrides from the scenario and --set
check transform-set 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --no-hdf5 \
  --set run.duration=0.05 --set run.steady_state=false \
  --set transforms.main_transform.elevation=45 --csv='time,wings.*.elevation,wings.*.heading'
grep_in transform-elevation "$tmp/out" '^0,0\.78539816[0-9]*,'
check transform-unknown 65 "$AWESIM" check scenarios/2plate_parked.yaml \
  --set 'transforms={main_transfrom: {elevation: 40}}'
grep_in transform-unknown-msg "$tmp/err" "no transform 'main_transfrom' \(did you mean 'main_transform'\?\)"
check transform-key 65 "$AWESIM" check scenarios/2plate_parked.yaml \
  --set 'transforms={main_transform: {elevaton: 40}}'
grep_in transform-key-msg "$tmp/err" "elevaton"

# steering: the left line shortened at 2 s -> the left plate twists nose down and the kite turns
# away from it: the heading increases
check steering 0 "$AWESIM" simulate scenarios/2plate_steering.yaml --no-hdf5 \
  --set run.duration=3 --csv='time,wings.*.heading'
h2=$(awk -F, '$1 == 2 {print $2}' "$tmp/out")
h3=$(awk -F, '$1 == 3 {print $2}' "$tmp/out")
if awk -v a="$h2" -v b="$h3" 'BEGIN {exit !(b > a + 0.05)}'; then ok; else
  bad "steering: heading $h2 at 2 s, $h3 at 3 s (expected an increase)"; fi

# reel-out produces power
check reel-out 0 "$AWESIM" simulate scenarios/2plate_reel_out.yaml --no-hdf5 --set run.duration=4 \
  --csv='time,wings.*.power'
p=$(awk -F, '$1 == 4 {print $2}' "$tmp/out")
if awk -v p="$p" 'BEGIN {exit !(p > 10)}'; then ok; else bad "reel-out power $p W at 4 s"; fi

# linearize at a flown operating point: the wing outputs are default outputs
check linearize 0 "$AWESIM" linearize scenarios/2plate_parked.yaml --at 5 --allow-nonequilibrium -q
grep_in linearize-modes "$tmp/out" '^# linear model: 66 states, 1 inputs, 6 outputs'

echo "kite_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
