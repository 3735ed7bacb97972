#!/bin/sh
# ground_cli.sh: the ground (awesim-scenario(5), THE GROUND) from the command line.
#   - the V3 kite in 8 m/s of wind stalls and falls (before the ground: status complete at
#     z = -204.6 m, exit 0): it now ends crashed, exit 3, at the impact, with the wing, a time
#     and an impact speed on stderr, in --summary-json (crash object) and in the HDF5 log
#     (status crashed, crash_* attributes), and no point far below the ground;
#   - run.on_crash: continue: the run reaches 60 s, exit 0, the crash recorded, and the kite
#     lies on the ground, every point within 0.5 m of its surface at the end. It does not come
#     to rest: the wind (and, calmed, the tether) keeps sliding it, and the contact spring
#     m (2 pi 5 Hz)^2 holds a light wing point's few newtons of load within decimetres (0.14 m
#     at 60 s); at rest under its weight alone a point sinks g/omega^2 = 9.94 mm, which one
#     solver path reached by chance and a more exact Jacobian did not
#   - a start below the ground (elevation 1.047 given in radians where degrees are read) is
#     refused with exit 65 naming the point, the key and the likely unit;
#   - unit slips are warned about: d_tether 0.004 (mm read), a 1000 km tether
#   - bad ground and run.on_crash values are refused with exit 65
AWESIM=${AWESIM:-./awesim}
PY=${PY:-/usr/bin/python3}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -10; }

V3="scenarios/v3_kite.yaml --set settings.environment.v_wind=8 --set run.duration=60"

# ---- the V3 falls: crashed ----
# shellcheck disable=SC2086
"$AWESIM" simulate $V3 -o "$tmp/v3.h5" --summary-json "$tmp/v3.json" \
  --csv='time,wings.main_wing.pos.z,points.*.pos.z' >"$tmp/v3.csv" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && ok || bad "V3 at 8 m/s: exit $rc, expected 3 (crashed)"
grep -q "awesim: crashed: wing main_wing hit the ground at t = [0-9.]* s with [0-9.]* m/s" \
  "$tmp/err" && ok || bad "V3: no crash message naming the wing, time and speed"
out=$("$PY" - "$tmp/v3.json" "$tmp/v3.h5" "$tmp/v3.csv" <<'EOF'
import json, sys
import h5py, numpy as np
j = json.load(open(sys.argv[1]))
c = j.get("crash", {})
bad = []
if j["status"] != "crashed" or j["exit_code"] != 3: bad.append("json status %s %s" % (j["status"], j["exit_code"]))
if c.get("wing") != "main_wing": bad.append("json crash.wing %r" % c.get("wing"))
if not (20.0 < c.get("time", 0) < 60.0): bad.append("json crash.time %r" % c.get("time"))
if not (c.get("impact_speed", 0) > 5.0 and c.get("impact_vertical_speed", 0) < -1.0):
    bad.append("json impact speeds %r %r" % (c.get("impact_speed"), c.get("impact_vertical_speed")))
if abs(j["t_end"] - c.get("time", -1)) > 1e-6: bad.append("t_end %r != crash time" % j["t_end"])
f = h5py.File(sys.argv[2], "r")
a = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
if a.get("status") != "crashed": bad.append("h5 status %r" % a.get("status"))
if a.get("crash_wing") != "main_wing": bad.append("h5 crash_wing %r" % a.get("crash_wing"))
if abs(a.get("crash_time", -1) - c.get("time", -2)) > 1e-6: bad.append("h5 crash_time")
if abs(a.get("crash_impact_speed", -1) - c.get("impact_speed", -2)) > 1e-6: bad.append("h5 speed")
d = np.genfromtxt(sys.argv[3], delimiter=",", skip_header=1)
zmin = d[:, 1:].min()
if zmin < -1.0: bad.append("a point %.3f m below the ground" % zmin)
print("; ".join(bad) if bad else "OK crash at %.3f s, %.1f m/s, lowest z %.3f m" % (c["time"], c["impact_speed"], zmin))
EOF
)
case $out in OK*) ok; echo "  $out" ;; *) bad "V3 crash records: $out" ;; esac

# ---- on_crash: continue ----
# shellcheck disable=SC2086
"$AWESIM" simulate $V3 --set run.on_crash=continue --no-hdf5 --summary-json "$tmp/c.json" \
  --csv='time,points.*.pos.z' >"$tmp/c.csv" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "on_crash continue: exit $rc, expected 0"
grep -q "awesim: warning: wing main_wing hit the ground.*the run went on" "$tmp/err" && ok ||
  bad "on_crash continue: no warning"
out=$("$PY" - "$tmp/c.json" "$tmp/c.csv" <<'EOF'
import json, sys
import numpy as np
j = json.load(open(sys.argv[1]))
d = np.genfromtxt(sys.argv[2], delimiter=",", skip_header=1)
pen = 9.81 / (2 * np.pi * 5.0) ** 2
bad = []
if j["status"] != "complete" or abs(j["t_end"] - 60.0) > 1e-9: bad.append("status %s t_end %s" % (j["status"], j["t_end"]))
if not j.get("crash", {}).get("time"): bad.append("no crash object")
if j.get("crash", {}).get("stopped") is not False: bad.append("crash.stopped")
zlast = d[-1, 1:].min()
if zlast < -0.5: bad.append("lowest point at the end %.5f m < -0.5" % zlast)
if d[:, 1:].min() < -1.0: bad.append("a point %.3f m below the ground" % d[:, 1:].min())
print("; ".join(bad) if bad else "OK at 60 s the lowest point is at %.5f m (g/omega^2 = %.5f)" % (zlast, pen))
EOF
)
case $out in OK*) ok; echo "  $out" ;; *) bad "on_crash continue: $out" ;; esac

# ---- a start below the ground ----
"$AWESIM" check scenarios/v3_kite.yaml --set transforms.main_transform.elevation=1.047 \
  >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 65 ] && ok || bad "elevation 1.047: exit $rc, expected 65"
grep -q "error: --set transforms.main_transform.elevation: point '[a-z_0-9]*' starts at z = -[0-9.]* m, below the ground" \
  "$tmp/err" && ok || bad "elevation 1.047: no error naming the point and the key"
grep -q "1.047 rad would be 59.99 deg" "$tmp/err" && ok || bad "elevation 1.047: no unit hint"
grep -q "warning: .*transform 'main_transform': elevation 1.047 is read in degrees" "$tmp/err" &&
  ok || bad "elevation 1.047: no unit warning"
"$AWESIM" simulate scenarios/v3_kite.yaml --set transforms.main_transform.elevation=1.047 \
  --no-hdf5 >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 65 ] && ok || bad "simulate with elevation 1.047: exit $rc, expected 65"
# the ground moved below the start: accepted
"$AWESIM" check scenarios/v3_kite.yaml --set transforms.main_transform.elevation=1.047 \
  --set ground.height=-50 >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "elevation 1.047 over a ground at -50 m: exit $rc"

# check shows the ground
"$AWESIM" check scenarios/v3_kite.yaml --set ground.height=-2 --set run.crash_clearance=1.5 \
  2>/dev/null | grep -q "^contact:  ground at z = -2 m (5 Hz, damping ratio 0.7, friction 0.5 over 0.05 m/s); a wing below -0.5 m crashes: stop" &&
  ok || bad "check: no contact line"
"$AWESIM" check scenarios/pendulum.yaml 2>/dev/null | grep -q "^contact:  no ground (no wing" &&
  ok || bad "check: the pendulum has a ground"

# ---- unit slips ----
"$AWESIM" check scenarios/2plate_reel_out.yaml --set settings.tether.d_tether=0.004 \
  >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "d_tether 0.004: exit $rc"
grep -q "warning: --set settings.tether.d_tether: tether.d_tether: diameter 0.004 mm is implausibly thin.*that is 4 mm" \
  "$tmp/err" && ok || bad "d_tether 0.004: no warning"
sed 's/\[0.0, 0.0, -100.0\]/[0.0, 0.0, -1000000.0]/' tests/models/tether4.yaml >"$tmp/long.yaml"
printf 'awesim: 1\nname: long\nmodel: {structure: long.yaml}\nrun: {dt: 0.05}\nsettings: {winch: %s}\n' \
  '{drum_radius: 0.1, gear_ratio: 1.0, inertia_total: 0.1}' >"$tmp/long_scen.yaml"
"$AWESIM" check "$tmp/long_scen.yaml" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "1000 km tether: exit $rc"
grep -q "long.yaml:[0-9]*:[0-9]*: tether 'main': 1e+06 m long (more than 5 km)" "$tmp/err" && ok ||
  bad "1000 km tether: no warning"
# a plain scenario warns about none of this
"$AWESIM" check scenarios/v3_kite.yaml >/dev/null 2>"$tmp/err"
grep -q "read in degrees\|implausibly thin\|more than 5 km" "$tmp/err" && bad "v3_kite: false warning" || ok

# ---- bad values ----
for s in "ground.frequency=0" "ground.damping_ratio=-1" "ground.friction_speed=0" \
  "ground.stiffness=3" "run.on_crash=bounce" "run.crash_clearance=-1000"; do
  "$AWESIM" check scenarios/v3_kite.yaml --set "$s" >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 65 ] && ok || bad "--set $s: exit $rc, expected 65"
done

rm -f "$tmp/err"
echo "ground_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
