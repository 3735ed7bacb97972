#!/bin/sh
# kcu_cli.sh: the kite control unit (scenario kcu:) and the tether length from the scenario,
# through the CLI:
#   - the tether length from tethers: and from --set settings.initial.l_tethers (awesim check
#     prints the unstretched length; the V3's own settings.yaml value of 260 m is reported as
#     not used where it stands, the structure's 225 m wins);
#   - a 10 % steering step followed at 20 %/s in the log (kcu.steering_actual 5 % after
#     0.25 s), the tapes 0.1 m per 100 % apart; a pid controller drives kcu.steering by name;
#   - bad values: exit 65 and a message naming file:line:col, the key, the value and the range.
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -20; }

# check NAME EXPECTED_EXIT CMD...  (stdout -> $tmp/out, stderr -> $tmp/err)
check() {
  name=$1
  want=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if grep -qE 'AddressSanitizer|runtime error' "$tmp/err"; then bad "$name: sanitizer"; return; fi
  if [ "$rc" -eq "$want" ]; then ok; else bad "$name: exit $rc, expected $want"; fi
}
grep_in() {
  if grep -qE -- "$3" "$2"; then ok; else bad "$1: no /$3/ in $(basename "$2")"; fi
}
grep_not() {
  if grep -qE -- "$3" "$2"; then bad "$1: unexpected /$3/ in $(basename "$2")"; else ok; fi
}

V3=scenarios/v3_kite.yaml
K=tests/data/kcu/v3_kcu.yaml
P=tests/data/kcu/2plate_kcu.yaml
here=$(pwd)

# ---- tether length ----
check v3-default 0 "$AWESIM" check "$V3"
grep_in v3-default "$tmp/out" 'main_tether: 6 segments, kcu -> ground, unstretched 225 m'
grep_in v3-l_tethers-file "$tmp/err" 'settings\.yaml:17:14: settings\.initial\.l_tethers\[1\] = 260 m is not used: tether .main_tether. is 225 m long in the structure'
check v3-set-l_tethers 0 "$AWESIM" check "$V3" --set 'settings.initial.l_tethers=[300]'
grep_in v3-set-l_tethers "$tmp/out" 'unstretched 300 m, stretched 300 m'
grep_in v3-set-l_tethers "$tmp/out" 'warnings: 0'
check v3-set-length 0 "$AWESIM" check "$V3" --set 'tethers.main_tether.length=150'
grep_in v3-set-length "$tmp/out" 'main_tether: 6 segments, kcu -> ground, unstretched 150 m'
check kcu-check 0 "$AWESIM" check "$K"
grep_in kcu-check "$tmp/out" 'unstretched 300 m, stretched 300 m'
# the kite (its origin, the kcu) 300 m out at t = 0; the leading edge's centre 311 m
check v3-distance 0 "$AWESIM" simulate "$K" --set run.duration=0.05 --csv='time,wings.main_wing.distance'
if awk -F, 'NR == 2 { d = $2 - 300; exit !(d > -1e-6 && d < 1e-6) }' "$tmp/out"; then ok; else
  bad "v3-distance: $(sed -n 2p "$tmp/out")"; fi

# ---- the motor: 10 % step at t = 0.5 s, 20 %/s ----
check slew 0 "$AWESIM" simulate "$P" --csv='time,kcu.*'
# columns: time, steering_set, steering_actual, tape_left, tape_right
if awk -F, '$1 == 0.75 { f = 1; a = $3 - 5; d = $5 - $4 - 0.002 * $3;
                          exit !(a > -1e-3 && a < 1e-3 && d > -1e-9 && d < 1e-9) }
            END { if (!f) exit 1 }' "$tmp/out"; then ok; else
  bad "slew: t = 0.75: $(grep '^0.75,' "$tmp/out") (expected actual 5 %)"; fi
grep_in slew-header "$tmp/out" '^time\[s\],kcu\.steering_set\[%\],kcu\.steering_actual\[%\],kcu\.steering_tape_left\[m\],kcu\.steering_tape_right\[m\]$'

# the motor's defaults from the settings' kcu section (KiteUtils units: 0.4 ranges/s = 40 %/s)
check slew-settings 0 "$AWESIM" simulate "$P" --set kcu.steering_rate=null \
  --set 'settings.kcu.v_steering=0.4' --csv='time,kcu.steering_actual'
if awk -F, '$1 == 0.6 { f = 1; a = $2 - 4; exit !(a > -1e-3 && a < 1e-3) } END { if (!f) exit 1 }' \
  "$tmp/out"; then ok; else bad "slew-settings: t = 0.6: $(grep '^0.6,' "$tmp/out") (expected 4 %)"; fi
check bad-v_steering 65 "$AWESIM" check "$P" --set kcu.steering_rate=null --set 'settings.kcu.v_steering=0'
grep_in bad-v_steering "$tmp/err" 'kcu\.v_steering = 0 must be > 0'

# a controller drives kcu.steering by name
sed "s|\.\./\.\./\.\./|$here/|" "$P" >"$tmp/pid.yaml"
cat >>"$tmp/pid.yaml" <<'YAML'
controllers:
  - {name: hdg, type: pid, measure: [wings.main_wing.heading], setpoint: 0.0, kp: 50.0,
     output: {kcu.steering: 1.0}}
YAML
check pid-kcu 0 "$AWESIM" simulate "$tmp/pid.yaml" --set run.duration=0.2 --csv='time,controllers.*,kcu.steering_set'
grep_in pid-kcu "$tmp/out" 'controllers\.hdg'

# ---- settings that are read but do not act: a warning with the reason where they stand ----
check audit 0 "$AWESIM" check "$V3" --set run.duration=null --set 'settings.initial.kite_distances=[200]'
grep_in audit-sim_time "$tmp/err" 'settings\.yaml:7:13: system\.sim_time = 100 s is not used: the run lasts run\.duration = 10 s'
grep_in audit-kite_distances "$tmp/err" '--set settings\.initial\.kite_distances: settings\.initial\.kite_distances is not used'
check audit-elevations 0 "$AWESIM" check "$P" --set 'settings.initial.elevations=[45]'
grep_in audit-elevations "$tmp/err" "settings\.initial\.elevations\[1\] = 45 is not used: the scenario's transforms\.main_transform gives 60"
check initial-elevations 0 "$AWESIM" simulate "$P" --set transforms=null --set 'settings.initial.elevations=[45]' \
  --set run.duration=0 --set run.steady_state=false --csv='time,wings.main_wing.elevation'
grep_in initial-elevations "$tmp/out" '^0,0\.785398'

# ---- bad values: exit 65 with file:line:col ----
# bad NAME 'YAML LINES' 'MESSAGE REGEX': the 2-plate scenario with the lines appended
bad_case() {
  sed "s|\.\./\.\./\.\./|$here/|" "$P" | grep -v '^tethers:\|^  main_tether:\|^kcu:\|^  steering_\|^  gain:' \
    >"$tmp/$1.yaml"
  printf '%s\n' "$2" >>"$tmp/$1.yaml"
  check "$1" 65 "$AWESIM" check "$tmp/$1.yaml"
  grep_in "$1" "$tmp/err" "$1\.yaml:[0-9]+:[0-9]+: $3"
}
bad_case neg-length 'tethers: {main_tether: {length: -5}}' \
  'tethers\.main_tether\.length = -5 m is out of range \(0, 1e6\]'
bad_case no-tether 'tethers: {main_tehter: {length: 50}}' \
  "tethers: the structure has no tether 'main_tehter' \(did you mean 'main_tether'\?\)"
bad_case depower-range 'kcu: {depower_tape: kcu_steering_left, depower: 120}' \
  'kcu\.depower = 120 % is out of range \[0, 100\]'
bad_case steering-range 'kcu: {steering_tapes: [kcu_steering_left, kcu_steering_right], steering: -101}' \
  'kcu\.steering = -101 % is out of range \[-100, 100\]'
bad_case unknown-tape 'kcu: {depower_tape: power_tap}' \
  "kcu\.depower_tape: the structure has no segment 'power_tap'"
bad_case same-tape 'kcu: {steering_tapes: [kcu_steering_left, kcu_steering_left]}' \
  "kcu\.steering_tapes: left and right are the same segment 'kcu_steering_left'"
bad_case tether-tape 'kcu: {depower_tape: main_tether_segment_1}' \
  "kcu\.depower_tape: 'main_tether_segment_1' is a segment of tether 'main_tether'"
bad_case derived-depower 'kcu: {depower_tape: kcu_steering_left, depower_zero: 3.0}' \
  'kcu: the initial depower is -[0-9.]+ % \(allowed 0 \.\.\. 100 %\); it is the structure.s depower tape'
bad_case neg-rate 'kcu: {depower_tape: kcu_steering_left, depower_rate: -1}' \
  'kcu\.depower_rate = -1 %/s is out of range \(0, inf\]'
bad_case l_tethers-count 'settings: {initial: {l_tethers: [50, 60]}}' \
  'settings\.initial\.l_tethers has 2 values but the structure has 1 winch'
bad_case l_tethers-neg 'settings: {initial: {l_tethers: [-50]}}' \
  'settings\.initial\.l_tethers\[1\] = -50 m is out of range'
bad_case unknown-kcu-key 'kcu: {depower_tape: kcu_steering_left, depowr: 3}' \
  "kcu: unknown key 'depowr'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
