#!/bin/sh
# control_cli.sh: closed-loop controllers from the command line.
#   bad input     every validation rule of `controllers:` gives file:line:col and exit 65
#   parked        scenarios/2plate_parked.yaml (heading-hold pid) flies 60 s within 2 deg of its
#                 60 deg elevation and 5 deg of azimuth 0 (600 s in make bench)
#   external      scenarios/2plate_external.yaml (examples/controllers/heading_hold.py over the
#                 pipe) reproduces the builtin pid within 1e-9; the header and rows a controller
#                 receives are exactly as documented; every fault (wrong count, not a number,
#                 NaN, early exit, no reply, closed input with SIGPIPE ignored, a controller that
#                 sleeps forever) gives its message, exit 1, status=failed, the rows before the
#                 fault, and leaves no process behind
. tests/lib/cli.sh
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
ROOT=$root
PY=$(tools/find-python --quiet --modules numpy,h5py) || PY=""

# ---- bad input: a valid spring-mass scenario with one controller, broken one way each ----------
cp scenarios/tests/ctl_spring.structure.yaml "$tmp/s.yaml"
cp models/spring_mass/settings.yaml "$tmp/settings.yaml"
# bad_case NAME PATTERN CONTROLLER-YAML (indented under controllers:)
bad_case() {
  name=$1
  pat=$2
  {
    echo "awesim: 1"
    echo "model: {structure: s.yaml, settings: settings.yaml}"
    echo "run: {duration: 0.1, dt: 0.01}"
    echo "controllers:"
    printf '%s\n' "$3"
  } >"$tmp/c.yaml"
  (cd "$tmp" && timeout 20 "$AWESIM" check c.yaml) >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 65 ] && grep -qE -- "$pat" "$tmp/err" && ! sanitizer; then ok
  else bad "bad_$name (exit $rc, expected 65 and /$pat/)"; fi
}
P='  - {name: h, type: pid, measure: points.mass.pos.z, output: {points.mass.force.z: 1}'
bad_case unknown_measure "c.yaml:5:[0-9]+: controllers.h: unknown output channel 'points.mass.pos.zz' \(did you mean 'points.mass.pos.z'\?\)" \
  '  - {name: h, type: pid, measure: points.mass.pos.zz, output: {points.mass.force.z: 1}}'
bad_case unknown_output "c.yaml:5:[0-9]+: controllers.h: unknown input channel 'points.mass.force.w' \(did you mean 'points.mass.force.[xyz]'\?\)" \
  '  - {name: h, type: pid, measure: points.mass.pos.z, output: {points.mass.force.w: 1}}'
bad_case two_drivers "c.yaml:6:[0-9]+: controllers.g.output: channel 'points.mass.force.z' is already driven by controller 'h'" \
  "$P}
  - {name: g, type: pid, measure: points.mass.pos.z, output: {points.mass.force.z: 1}}"
bad_case negative_gain "c.yaml:5:[0-9]+: controllers.h.kp: -1 is out of range \(allowed: >= 0\)" "$P, kp: -1}"
bad_case negative_ki "controllers.h.ki: -0.5 is out of range" "$P, ki: -0.5}"
bad_case negative_rate "controllers.h.rate_limit: -2 is out of range \(allowed: > 0\)" "$P, rate_limit: -2}"
bad_case zero_period "c.yaml:5:[0-9]+: controllers.h.period: 0 is out of range \(allowed: > 0\)" "$P, period: 0}"
bad_case period_resolution "c.yaml:5:[0-9]+: controllers.h.period: 1.5e-07 s is not a positive multiple of 1e-06 s" "$P, period: 1.5e-7}"
bad_case period_fraction "controllers.h.period: 0.0100005 s is not a positive multiple" "$P, period: 0.0100005}"
bad_case reversed_limits "c.yaml:5:[0-9]+: controllers.h.limits: \[1, -1\] is reversed or empty" "$P, limits: [1, -1]}"
bad_case nan_gain "c.yaml:5:[0-9]+: controllers.h.kd: must be a finite number, got .*nan" "$P, kd: .nan}"
bad_case nan_setpoint "controllers.h.setpoint: must be a finite number" "$P, setpoint: .nan}"
bad_case unknown_type "c.yaml:5:[0-9]+: controllers.h.type: unknown controller type 'pdi' \(did you mean 'pid'\?\)" \
  '  - {name: h, type: pdi, measure: points.mass.pos.z, output: {points.mass.force.z: 1}}'
bad_case unknown_key "controllers.h: unknown key 'kpp' \(did you mean 'kp'\?\)" "$P, kpp: 1}"
bad_case unknown_hold "c.yaml:5:[0-9]+: controllers.h.hold: unknown hold 'rampp' \(did you mean 'ramp'\?\) \(allowed: zero, .*ramp" "$P, hold: rampp}"
bad_case duplicate_name "c.yaml:6:[0-9]+: controllers\[1\]: name 'h' is used twice" \
  "$P}
  - {name: h, type: pid, measure: points.mass.pos.z, output: {points.mass.force.x: 1}}"
bad_case no_name "c.yaml:5:[0-9]+: controllers\[0\]: 'name' is required" \
  '  - {type: pid, measure: points.mass.pos.z, output: {points.mass.force.z: 1}}'
bad_case bad_name "controllers\[0\].name: 'a.b' may contain only letters, digits and '_'" \
  '  - {name: a.b, type: pid, measure: points.mass.pos.z, output: {points.mass.force.z: 1}}'
bad_case no_measure "controllers.h: a pid needs one 'measure' channel" \
  '  - {name: h, type: pid, output: {points.mass.force.z: 1}}'
bad_case twice_listed "controllers.h.output: channel 'points.mass.force.z' is listed twice" \
  '  - {name: h, type: pid, measure: points.mass.pos.z, output: [points.mass.force.z, points.mass.force.z]}'
bad_case setpoint_signal "controllers.h.setpoint.type: unknown type 'stepp' \(did you mean 'step'\?\)" \
  "$P, setpoint: {type: stepp, t0: 1, after: 2}}"
bad_case setpoint_input "controllers.h.setpoint: a set-point signal has no 'input' key" \
  "$P, setpoint: {input: x, type: constant, value: 1}}"
bad_case not_a_list "c.yaml:5:[0-9]+: controllers: expected a list of controllers" '  name: h'
bad_case external_no_command "controllers.e: 'command' is required" \
  '  - {name: e, type: external, measure: [points.mass.pos.z], output: [points.mass.force.z]}'
bad_case external_timeout "controllers.e.timeout: 0 is out of range \(allowed: > 0 \.\.\. 1e\+09 s\)" \
  '  - {name: e, type: external, command: cat, timeout: 0, measure: [points.mass.pos.z], output: [points.mass.force.z]}'
bad_case fig8_wing "controllers.f.wing: unknown wing 'main_wing'" \
  '  - {name: f, type: figure_eight, wing: main_wing, azimuth: 20, elevation: 30, output: [points.mass.force.z]}'
F8='  - {name: f, type: figure_eight, wing: main_wing, azimuth: 20, elevation: 30, output: [points.mass.force.z]'
bad_case fig8_phase_no_elevation "c.yaml:5:[0-9]+: controllers.f: 'phase' needs 'reel_in_elevation'" \
  "$F8, phase: controllers.p.phase}"
bad_case fig8_elevation_no_phase "c.yaml:5:[0-9]+: controllers.f: reel_in_elevation/reel_in_azimuth need 'phase'" \
  "$F8, reel_in_elevation: 70}"
bad_case fig8_reel_in_range "c.yaml:5:[0-9]+: controllers.f.reel_in_elevation: 95 deg is out of range \(allowed: 0 < e < 90\)" \
  "$F8, phase: controllers.p.phase, reel_in_elevation: 95}"
bad_case fig8_reel_in_azimuth "controllers.f.reel_in_azimuth: -120 deg is out of range" \
  "$F8, phase: controllers.p.phase, reel_in_elevation: 70, reel_in_azimuth: -120}"
bad_case fig8_turns "c.yaml:5:[0-9]+: controllers.f.turns: unknown turns 'dwon' \(did you mean 'down'\?\) \(allowed: up, .*down" \
  "$F8, turns: dwon}"
bad_case pump_winch "controllers.p.winch: unknown winch 'main_winch'" \
  '  - {name: p, type: pumping, winch: main_winch, reel_out_force: 100, reel_in_speed: 1, min_length: 10, max_length: 20, output: [points.mass.force.z]}'

# figure_eight's reel-in switch names an output channel like every measured channel
sed 's/phase: controllers.pump.phase .*/phase: controllers.pump.phaze/' scenarios/v3_pumping.yaml |
  sed "s|\.\./models/|$PWD/models/|" >"$tmp/p.yaml"
check fig8_phase_unknown 65 "$AWESIM" check "$tmp/p.yaml"
grep_in fig8_phase_unknown_msg "$tmp/err" "p.yaml:[0-9]+:[0-9]+: controllers.fpc: unknown output channel 'controllers.pump.phaze' \(did you mean 'controllers.pump.phase'\?\)"

# ---- two loops of different units share /controllers/measure: its unit says so -----------------
cat >"$tmp/two.yaml" <<'EOF'
awesim: 1
model: {structure: s.yaml, settings: settings.yaml}
run: {duration: 0.05, dt: 0.01}
controllers:
  - {name: a, type: pid, measure: points.mass.pos.z, kp: 1, output: {points.mass.force.z: 1}}
  - {name: b, type: pid, measure: points.mass.vel.z, kp: 1, period: 0.02, output: {points.mass.force.x: 1}}
EOF
check two_units 0 sh -c "cd '$tmp' && '$AWESIM' simulate two.yaml -o two.h5 --csv='controllers.*'"
grep_in two_units_header "$tmp/out" '^controllers.a.setpoint\[m\],controllers.b.setpoint\[m/s\],.*controllers.a.output\[N\]'

# ---- the parked kite held by its heading-hold pid ---------------------------------------------
check parked 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --no-hdf5 --set run.duration=60 \
  --csv='time,wings.main_wing.elevation,wings.main_wing.azimuth,points.kcu.pos.z'
# columns in the order asked for: time, elevation, azimuth, points.kcu.pos.z
if awk -F, 'NR > 1 { e = $2 * 57.29577951; a = $3 * 57.29577951; if (a < 0) a = -a;
     if (e < 58 || e > 62 || a > 5 || $4 <= 0) bad = 1 } END { exit bad || NR != 1202 }' "$tmp/out"
then ok; else bad "parked: left 60 +- 2 deg elevation / 5 deg azimuth in 60 s"; fi

# ---- pumping: phases switch at the lengths, the summary's energy is the log's ----------------
check pump 0 "$AWESIM" simulate scenarios/tests/ctl_pump.yaml -o "$tmp/pump.h5" --set run.duration=32 \
  --summary-json "$tmp/pump.json"
grep_in pump_summary "$tmp/err" 'awesim: pumping: 2 full cycles \(controller switch to switch\), energy per cycle -0.00[0-9]+ kJ'
if [ -n "$PY" ]; then
  check pump_energy 0 "$PY" -c "
import h5py, json
f = h5py.File('$tmp/pump.h5'); ph = f['controllers/phase'][:, 0]
F, v, L = f['winches/force'][:, 0], f['winches/vel'][:, 0], f['tethers/len'][:, 0]
j = json.load(open('$tmp/pump.json'))['pumping']
ro = [k for k in range(1, len(ph)) if ph[k - 1] == 1 and ph[k] == 0]
ri = [k for k in range(1, len(ph)) if ph[k - 1] == 0 and ph[k] == 1]
assert all(L[k] >= 100.8 for k in ri) and all(L[k] <= 100.2 for k in ro), (L[ri], L[ro])
E = []
for a, b in zip(ro[:-1], ro[1:]):
    e = 0.0
    for k in range(a + 1, b + 1): e += F[k] * v[k] * 0.05
    E.append(e)
print(j, E)
assert j['cycles'] == len(E) == 2
assert abs(sum(E) / len(E) - j['energy_per_cycle']) <= 1e-8 * abs(j['energy_per_cycle'])"
fi

# ---- external controllers -----------------------------------------------------------------------
if [ -n "$PY" ]; then
  check ext_run 0 "$AWESIM" simulate scenarios/2plate_external.yaml -o "$tmp/ext.h5" --set run.duration=10
  check pid_run 0 "$AWESIM" simulate scenarios/2plate_parked.yaml -o "$tmp/pid.h5" --set run.duration=10
  check ext_agree 0 "$PY" -c "
import h5py, numpy as np
a, b = h5py.File('$tmp/ext.h5'), h5py.File('$tmp/pid.h5')
d = max(np.abs(a[k][()] - b[k][()]).max() for k in ('points/pos', 'wings/heading', 'wings/azimuth'))
u = np.abs(a['controllers/output_1'][()] - b['controllers/output'][()]).max()
print(d, u)
assert len(a['time']) == 201 and d <= 1e-9 and u <= 1e-9, (d, u)"
fi

# a controller that records what it receives and replies 0
cat >"$tmp/rec.sh" <<'EOF'
#!/bin/sh
echo $$ >pid
while IFS= read -r line; do
  echo "$line" >>got
  case $line in time*) ;; *) echo "0" ;; esac
done
EOF
# flt NAME SCRIPT: a controller script in $tmp
flt() { printf '#!/bin/sh\necho $$ >pid\n%s\n' "$2" >"$tmp/$1.sh"; }
spring() {  # spring NAME COMMAND [TIMEOUT]: scenario with an external controller
  cat >"$tmp/$1.yaml" <<EOF
awesim: 1
model: {structure: s.yaml, settings: settings.yaml}
run: {duration: 0.1, dt: 0.01}
controllers:
  - {name: mine, type: external, command: "$2", period: 0.02, timeout: ${3:-10},
     measure: [points.mass.pos.z, points.mass.vel.z], output: [points.mass.force.z]}
EOF
}
spring rec "sh rec.sh"
rm -f "$tmp/got"
check ext_protocol 0 sh -c "cd '$tmp' && '$AWESIM' simulate rec.yaml -q -o out.h5"
printf 'time[s],points.mass.pos.z[m],points.mass.vel.z[m/s]\n0,-1000,0\n0.02,-1000,0\n' >"$tmp/want"
if head -3 "$tmp/got" | cmp -s - "$tmp/want" && [ "$(wc -l <"$tmp/got")" -eq 7 ]; then ok
else bad "ext_protocol: header and rows differ: $(head -3 "$tmp/got" | tr '\n' '|')"; fi

# fault NAME SCRIPT PATTERN [TIMEOUT]: the run fails with the message, exit 1, status=failed,
# the rows before the fault kept, no process left
fault() {
  flt "$1" "$2"
  spring "$1" "sh $1.sh" "${4:-10}"
  rm -f "$tmp/pid"
  start=$(date +%s)
  (cd "$tmp" && timeout 60 "$AWESIM" simulate "$1.yaml" -o "$1.h5") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  took=$(($(date +%s) - start))
  if [ "$rc" -eq 1 ] && grep -qE -- "$3" "$tmp/err" && ! sanitizer && [ "$took" -lt 30 ]; then ok
  else bad "fault_$1 (exit $rc after $took s, expected 1 and /$3/)"; fi
  pid=$(cat "$tmp/pid" 2>/dev/null)
  sleep 0.2
  # a killed grandchild (the shell's child) is a zombie until the reaper of orphans collects it
  st=$( [ -n "$pid" ] && ps -o stat= -p "$pid" 2>/dev/null)
  if [ -n "$st" ] && [ "${st#Z}" = "$st" ]; then
    bad "fault_$1: controller process $pid still running"
    kill -9 "$pid" 2>/dev/null
  else ok; fi
  if [ -n "$PY" ]; then
    if "$PY" -c "
import h5py; f = h5py.File('$tmp/$1.h5')
s = f.attrs['status']; s = s.decode() if isinstance(s, bytes) else s
assert s == 'failed', s
assert len(f['time']) == ${5:-3}, len(f['time'])" 2>>"$tmp/err"; then ok
    else bad "fault_$1: log status/rows"; fi
  fi
}
# replies fine twice (t = 0, 0.02), then the fault at t = 0.04: rows 0, 0.01, 0.02, 0.03 kept
pre='n=0; while IFS= read -r l; do n=$((n+1)); [ $n -eq 1 ] && continue; if [ $n -le 3 ]; then echo 0; continue; fi'
fault count "$pre; echo 1,2,3; done" "controller 'mine' at t=0.04 s: expected 1 value, got '1,2,3'" 10 4
fault number "$pre; echo abc; done" "controller 'mine' at t=0.04 s: value 1 is not a number in 'abc'" 10 4
fault nan "$pre; echo nan; done" "controller 'mine' at t=0.04 s: value 1 is not finite in 'nan'" 10 4
fault empty "$pre; echo; done" "controller 'mine' at t=0.04 s: value 1 is not a number in ''" 10 4
fault exits "$pre; exit 3; done" "controller 'mine' at t=0.04 s: the controller exited with status 3 before replying" 10 4
fault silent 'exec sleep 1000' "controller 'mine' at t=0 s: no reply within 0.5 s" 0.5 0
fault sleeper_child 'sleep 1000; echo 0' "controller 'mine' at t=0 s: no reply within 0.5 s" 0.5 0
fault sigpipe "trap '' PIPE; exec 0<&-; exec sleep 1000" "controller 'mine' at t=0( s: no reply|.*closed its input)" 0.5 0
fault crash_header 'exit 0' "controller 'mine' at t=0 s: .*(closed its input|exited with status 0)" 10 0

# SIGINT while awesim waits for a controller that takes its time (timeout 60 s): the run ends
# within a few seconds, interrupted (exit 130), and the controller is gone
flt slowpoke 'exec sleep 1000'
spring slowpoke "sh slowpoke.sh" 60
rm -f "$tmp/pid"
(cd "$tmp" && exec "$AWESIM" simulate slowpoke.yaml -o slowpoke.h5) >"$tmp/out" 2>"$tmp/err" &
apid=$!
i=0
while [ ! -s "$tmp/pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
start=$(date +%s)
kill -INT "$apid"
wait "$apid"
rc=$?
took=$(($(date +%s) - start))
if [ "$rc" -eq 130 ] && [ "$took" -le 5 ] && grep -q "interrupted" "$tmp/err"; then ok
else bad "sigint_waiting: exit $rc after $took s (expected 130 within 5 s)"; fi
pid=$(cat "$tmp/pid" 2>/dev/null)
sleep 0.2
st=$( [ -n "$pid" ] && ps -o stat= -p "$pid" 2>/dev/null)
if [ -n "$st" ] && [ "${st#Z}" = "$st" ]; then
  bad "sigint_waiting: controller process $pid still running"
  kill -9 "$pid" 2>/dev/null
else ok; fi

echo "control_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
