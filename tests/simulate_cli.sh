#!/bin/sh
# simulate_cli.sh: `awesim simulate` on the command line: help and usage errors, CSV on stdout
# (header, C locale numbers, selection, a pipe closed by `head`), the summary line, the
# summary JSON, exit codes for bad input and output. HDF5 contents are checked by
# tests/test_simulate_cli.c.
. tests/lib/cli.sh
CHECK_TIMEOUT=60

check help 0 "$AWESIM" simulate --help
grep_in help "$tmp/out" '^usage: awesim simulate'
grep_in help-csv "$tmp/out" '--csv'
check no-scenario 2 "$AWESIM" simulate
check unknown-option 2 "$AWESIM" simulate --frobnicate scenarios/pendulum.yaml
check missing-file 66 "$AWESIM" simulate scenarios/does_not_exist.yaml
check bad-set 65 "$AWESIM" simulate scenarios/pendulum.yaml --set run.duration=-1 --no-hdf5
check bad-solver 65 "$AWESIM" simulate scenarios/pendulum.yaml --set run.solver=rk45 --no-hdf5
grep_in bad-solver "$tmp/err" "rk45"
check bad-pattern 2 "$AWESIM" simulate scenarios/pendulum.yaml --no-hdf5 --csv=points.nosuch.pos.x
check unwritable 74 "$AWESIM" simulate scenarios/pendulum.yaml -o /proc/awesim/x.h5

# CSV: header with units, one row per log step, '.' decimal point whatever the locale
check csv 0 env LC_ALL=de_DE.UTF-8 LC_NUMERIC=de_DE.UTF-8 "$AWESIM" simulate scenarios/pendulum.yaml \
  --no-hdf5 --set run.duration=1 --csv='time,points.bob.pos.x,points.bob.pos.z'
grep_in csv-header "$tmp/out" '^time\[s\],points\.bob\.pos\.x\[m\],points\.bob\.pos\.z\[m\]$'
rows=$(($(wc -l <"$tmp/out") - 1))
if [ "$rows" -eq 101 ]; then ok; else bad "csv rows: $rows, expected 101"; fi
grep_in csv-first "$tmp/out" '^0,0\.173648178,-0\.984807753$'
grep_in csv-last "$tmp/out" '^1,'
# the summary line on stderr (not a terminal: no progress line)
grep_in summary "$tmp/err" 'awesim: complete: simulated 1 s in .* real time\); steps [0-9]+ \(rejected [0-9]+\), rhs [0-9]+, jacobian [0-9]+; rk8pd'
if grep -q "$(printf '\r')" "$tmp/err"; then bad "progress line without a terminal"; else ok; fi

# all channels when --csv has no patterns: 1 + 3*3*2 points + 2 segment + ... columns
check csv-all 0 "$AWESIM" simulate scenarios/pendulum.yaml --no-hdf5 --set run.duration=0.1 --csv
cols=$(head -1 "$tmp/out" | tr ',' '\n' | wc -l)
if [ "$cols" -eq 21 ]; then ok; else bad "csv-all: $cols columns, expected 21"; fi

# a closed pipe: `| head` ends the run quietly, as interrupted, with the exit status of a
# process killed by SIGPIPE (141), never "complete"
( "$AWESIM" simulate scenarios/hanging_tether_winch.yaml --no-hdf5 --set run.duration=2000 \
    --csv=time,winches.*.force 2>"$tmp/err"; echo $? >"$tmp/rc" ) | head -3 >"$tmp/out"
rc=$(cat "$tmp/rc")
if [ "$rc" -eq 141 ] && ! sanitizer; then ok; else bad "pipe: exit $rc, expected 141"; fi
grep_in pipe-status "$tmp/err" '^awesim: interrupted: simulated'
if grep -q '^awesim: complete' "$tmp/err"; then bad "pipe: reported complete"; else ok; fi
grep_in pipe-header "$tmp/out" '^time\[s\],winches\.main_winch\.force\[N\]$'
n=$(wc -l <"$tmp/out")
if [ "$n" -eq 3 ]; then ok; else bad "pipe: $n lines"; fi
if grep -qi "broken pipe\|error" "$tmp/err"; then bad "pipe: message on stderr"; else ok; fi

# -q: nothing on stderr; --summary-json
check quiet 0 "$AWESIM" simulate scenarios/pendulum.yaml --no-hdf5 --set run.duration=0.5 -q \
  --summary-json "$tmp/sum.json"
if [ -s "$tmp/err" ]; then bad "quiet: stderr not empty"; else ok; fi
grep_in json "$tmp/sum.json" '"status": "complete", "exit_code": 0, "t_end": 0.5,'
grep_in json-steps "$tmp/sum.json" '"steps": [1-9][0-9]*, "rejected_steps": [0-9]+, "rhs_calls": [0-9]+'

# scheduled inputs: the winch brake holds the length until 5 s, then the motor lets it creep
check inputs 0 "$AWESIM" simulate scenarios/hanging_tether_winch.yaml --no-hdf5 \
  --csv=time,tethers.main_tether.len,winches.main_winch.vel
grep_in inputs-header "$tmp/out" '^time\[s\],tethers\.main_tether\.len\[m\],winches\.main_winch\.vel\[m/s\]$'
grep_in inputs-held "$tmp/out" '^5,100,0$'
grep_in inputs-creep "$tmp/out" '^20,99\.9[0-9]*,-0\.00[0-9]*$'

# failure: exit 1, the variable named
check nonfinite 1 "$AWESIM" simulate scenarios/tests/nonfinite.yaml --no-hdf5 --csv=time
grep_in nonfinite-msg "$tmp/err" 'error: t = 0\.5 s: non-finite derivative of points\.kite\.vel\.x'

# scheduled inputs are logged as channels inputs.<input name>: the brake of
# scenarios/hanging_tether_winch.yaml is released at 5 s, the torque is constant
check inputs 0 "$AWESIM" simulate scenarios/hanging_tether_winch.yaml --no-hdf5 --csv='time,inputs.*'
grep_in inputs-header "$tmp/out" '^time\[s\],inputs\.winches\.main_winch\.brake\[-\],inputs\.winches\.main_winch\.torque\[N m\]$'
grep_in inputs-before "$tmp/out" '^4\.95,1,-6\.4$'
grep_in inputs-after "$tmp/out" '^5,0,-6\.4$'
if command -v h5dump >/dev/null 2>&1; then
  check inputs-h5 0 "$AWESIM" simulate scenarios/hanging_tether_winch.yaml -o "$tmp/in.h5" --set run.duration=5.1
  h5dump -d '/inputs/winches.main_winch.brake' "$tmp/in.h5" >"$tmp/d" 2>&1
  grep_in inputs-h5-units "$tmp/d" 'ATTRIBUTE "units"'
  grep_in inputs-h5-values "$tmp/d" ' 1, 1, 0, 0, 0$'  # rows 98..102: 4.9 .. 5.1 s
fi

# winch energy (tests/test_winch_energy.c has the physics): power and energy channels with their
# units in CSV; energy = v (F T - m v_load) = 5959.596 J (-0.195 J: the trapezoid over 10 ms log
# steps, which smooths the step at t = 0: the line's damper reads d(len - l0)/dt (SymbolicAWEModels
# 0.14), so paying out at 2 m/s drops the tension by c v/len = 566 N at once; 5959.594 J at 1 ms,
# 5959.596 J at 0.1 ms) and mean_power = energy/T in the summary
check energy 0 "$AWESIM" simulate scenarios/tests/winch_pull.yaml --no-hdf5 -q \
  --set run.dt=0.01 --csv='time,winches.drum.power,winches.drum.energy' \
  --summary-json "$tmp/energy.json"
grep_in energy-header "$tmp/out" '^time\[s\],winches\.drum\.power\[W\],winches\.drum\.energy\[J\]$'
grep_in energy-row "$tmp/out" '^3,2000,5959\.40[0-9]*$'
grep_in energy-json "$tmp/energy.json" '"energy": 5959\.40[0-9]*, "mean_power": 1986\.46[0-9]*'

# a setting read but not used is said so where it is given: the speed loop gains
# of KiteUtils do nothing for awesim's speed-controlled winch, which follows its input exactly
check p_speed-unused 0 "$AWESIM" check scenarios/tests/winch_pull.yaml --set settings.winch.p_speed=3
grep_in p_speed-warning "$tmp/err" 'winch\.p_speed is not used: a speed-controlled winch'
check i_speed-quiet 0 "$AWESIM" check scenarios/tests/winch_pull.yaml
if grep -q "_speed is not used" "$tmp/err"; then bad "i_speed-quiet: warned without the key"; else ok; fi

# the Julia solver's tolerances in settings.yaml: not used, said so where given when the
# scenario leaves run.abs_tol/rel_tol unset; quiet when the scenario sets them
printf 'awesim: 1\nmodel: %s/models/v3_kite/system.yaml\nrun: {duration: 1.0, dt: 0.05}\n' \
  "$PWD" > "$tmp/tol.yaml"
check tol-unused 0 "$AWESIM" check "$tmp/tol.yaml"
grep_in abs_tol-warning "$tmp/err" 'settings\.yaml:22:12: solver\.abs_tol is not used: awesim integrates with run\.abs_tol = 1e-06'
grep_in rel_tol-warning "$tmp/err" 'settings\.yaml:23:12: solver\.rel_tol is not used'
check tol-quiet 0 "$AWESIM" check scenarios/v3_kite.yaml
if grep -q "_tol is not used" "$tmp/err"; then bad "tol-quiet: warned although run: sets them"; else ok; fi

# run.vsm_dt: refreshes at k vsm_dt whatever the log interval; not together with vsm_interval
check vsm_dt 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --no-hdf5 --set run.duration=1 \
  --set run.dt=0.05 --set run.vsm_interval=null --set run.vsm_dt=0.01 --csv=time
grep_in vsm_dt-refreshes "$tmp/err" 'VSM refreshes 100 \(failed 0'
[ "$(wc -l <"$tmp/out")" -eq 22 ] && ok || bad "vsm_dt-rows: $(wc -l <"$tmp/out") lines, expected a header and 21 rows"
check vsm_dt-both 65 "$AWESIM" check scenarios/2plate_parked.yaml --set run.vsm_dt=0.01
grep_in vsm_dt-both-msg "$tmp/err" 'run.vsm_dt: give either vsm_interval \(log steps\) or vsm_dt \(seconds\)'
check vsm_dt-zero 65 "$AWESIM" check scenarios/2plate_parked.yaml --set run.vsm_interval=null --set run.vsm_dt=0
grep_in vsm_dt-zero-msg "$tmp/err" 'run.vsm_dt: 0 is out of range \(allowed: >= 1e-06'
# run.vsm_jacobian_tol: the linearized wing's kept VSM Jacobian; 0 = a fresh one at every refresh
check vsm_jac-fresh 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --no-hdf5 --set run.duration=1 \
  --set run.vsm_jacobian_tol=0 --csv=time
grep_in vsm_jac-fresh-count "$tmp/err" 'VSM refreshes 20 \(failed 0, low wind 0, reversed flow 0\), linearized 20$'
check vsm_jac-negative 65 "$AWESIM" check scenarios/2plate_parked.yaml --set run.vsm_jacobian_tol=-0.001
grep_in vsm_jac-negative-msg "$tmp/err" 'run.vsm_jacobian_tol: -0.001 is out of range \(allowed: >= 0 ... 0.1\)$'

# CSV columns in the order asked for (awk/cut/gnuplot count on it), a glob expanded in place;
# each column equals the HDF5 log's channel of the same run, value for value
check csv-order 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --set run.duration=2 \
  -o "$tmp/order.h5" \
  --csv='time,wings.main_wing.elevation,wings.main_wing.azimuth,winches.*.force,time'
grep_in csv-order-header "$tmp/out" \
  '^time\[s\],wings\.main_wing\.elevation\[rad\],wings\.main_wing\.azimuth\[rad\],winches\.main_winch\.force\[N\]$'
PY=$(tools/find-python --quiet --modules numpy,h5py) || PY=""
if [ -n "$PY" ]; then
  if "$PY" - "$tmp/out" "$tmp/order.h5" >"$tmp/err" 2>&1 <<'PYEOF'
import sys, numpy as np, h5py
csv = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
with h5py.File(sys.argv[2], "r") as f:
    w = list(f["wings"].attrs["names"]).index(b"main_wing")
    cols = [f["time"][:], f["wings/elevation"][:, w], f["wings/azimuth"][:, w],
            f["winches/force"][:, 0]]
assert csv.shape == (41, 4), csv.shape
for k, ref in enumerate(cols):
    # %.9g in the CSV: 9 significant digits
    d = np.max(np.abs(csv[:, k] - ref) / np.maximum(np.abs(ref), 1e-30))
    assert d < 1e-8, (k, d)
assert np.ptp(csv[:, 1]) > 0 and np.ptp(csv[:, 3]) > 0   # the columns move
PYEOF
  then ok; else bad "csv-order: CSV columns differ from the HDF5 channels"; fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
