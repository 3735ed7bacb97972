#!/bin/sh
# wind_cli.sh: the wind from the command line (awesim-scenario(5), wind:; engine/wind.h):
#   - the inputs wind.direction (turns the wind) and wind.w (updraft) and an extreme operating
#     gust reach the wing: wings.NAME.wind in the CSV equals the closed form at each log step;
#   - profile laws 4-6 are accepted, with a warning when the settings describe another site
#     than the fits'; law 7 is refused;
#   - bad gusts (negative sigma1, an unknown type, missing parameters, an unknown key) are
#     refused with exit 65 and the file:line:col of the value.
. "$(dirname "$0")/lib/cli.sh"

# scen FILE WIND_SECTION: the parked 2plate kite (uniform 15.51 m/s from -90 deg) for 2 s
scen() {
  cat >"$1" <<EOF
awesim: 1
name: wind_probe
model: $root/models/2plate_kite/system.yaml
transforms:
  main_transform: {elevation: 60.0, azimuth: 0.0, heading: 0.0}
run: {duration: 2.0, dt: 0.25, solver: trbdf2, abs_tol: 1.0e-4, rel_tol: 1.0e-4}
inputs:
  - {input: winches.main_winch.brake, type: constant, value: 1.0}
  - {input: wind.direction, type: ramp, t_start: 0, t_end: 2, from: -90, to: -80}
  - {input: wind.w, type: constant, value: 1.5}
$2
EOF
}

# ---- direction, updraft and an EOG at the wing ---------------------------------------------
scen "$tmp/eog.yaml" "wind:
  gusts:
    - {type: eog, start: 0.5, period: 1.0, v_gust: 4.0}"
check eog 0 "$AWESIM" simulate "$tmp/eog.yaml" --no-hdf5 --csv='time,wings.*.wind*'
# closed form: speed 15.51 - 0.37 * 4 sin(3 pi tau) (1 - cos(2 pi tau)), tau = t - 0.5 in
# [0, 1]; blowing toward the bearing of wind.direction + 180 deg (clockwise from north = +y)
err=$(awk -F, 'NR > 1 {
  pi = atan2(0, -1); t = $1; tau = t - 0.5; s = 15.51
  if (tau >= 0 && tau <= 1) s -= 0.37 * 4 * sin(3 * pi * tau) * (1 - cos(2 * pi * tau))
  d = (-90 + 5 * t) * pi / 180
  ex = -s * sin(d); ey = -s * cos(d)
  e = sqrt(($2 - ex)^2 + ($3 - ey)^2 + ($4 - 1.5)^2); if (e > m) m = e; n++ }
  END { printf "%d %.3g", n, m }' "$tmp/out")
case $err in
  9\ [0-9]*e-0[6-9]|9\ [0-9]*e-1[0-9]|9\ 0) ok ;;
  *) bad "eog: wings.main_wing.wind vs the closed form: rows, max error = $err" ;;
esac
# the gust's peak (t = 1: +2.96 m/s) is in it
grep_in eog-peak "$tmp/out" '^1,18\.39'

# ---- scenarios/2plate_gust.yaml: the kite rides an EOG (V_gust 3.22 m/s) -----------------------
check gust-scenario 0 "$AWESIM" simulate scenarios/2plate_gust.yaml --no-hdf5 --set run.duration=20 \
  --csv='time,wings.*.wind.x,winches.*.force,wings.*.elevation'
# columns in the order asked: time, wind.x, force, elevation
grep_in gust-peak "$tmp/out" '^15\.25,17\.8919[0-9]*,'
r=$(awk -F, 'NR > 1 { if ($3 > f) f = $3; if (e == "" || $4 < e) e = $4 } END { printf "%d %d", (f > 200 && f < 240), (e > 1.0) }' "$tmp/out")
[ "$r" = "1 1" ] && ok || bad "gust-scenario: tether force peak 200..240 N and elevation > 1 rad ($r)"

# ---- profile laws ---------------------------------------------------------------------------
scen "$tmp/law.yaml" ""
check law5 0 "$AWESIM" simulate "$tmp/law.yaml" --no-hdf5 --set run.duration=0 \
  --set 'settings.environment={profile_law: 5, h_ref: 6.0, alpha: 0.08163, z0: 0.0002}'
if grep -q 'fixed fit' "$tmp/err"; then bad "law5: unexpected warning"; else ok; fi
check law4-other-site 0 "$AWESIM" simulate "$tmp/law.yaml" --no-hdf5 --set run.duration=0 \
  --set 'settings.environment={profile_law: 4, h_ref: 10.0, alpha: 0.14, z0: 0.0002}'
grep_in law4-warning "$tmp/err" 'profile_law = 4 is a fixed fit for h_ref 6 m.*h_ref 10 m'
check law7 65 "$AWESIM" simulate "$tmp/law.yaml" --no-hdf5 --set run.duration=0 \
  --set 'settings.environment={profile_law: 7, h_ref: 6.0}'
grep_in law7-msg "$tmp/err" 'profile_law = 7 is not supported \(allowed: .*6 FAST_EXPLOG\)'

# ---- bad gusts: exit 65 at the value ----------------------------------------------------------
scen "$tmp/neg.yaml" "wind:
  gusts:
    - {type: edc, start: 1, sigma1: -1.0, diameter: 10}"
check neg-sigma 65 "$AWESIM" simulate "$tmp/neg.yaml" --no-hdf5
grep_in neg-sigma-msg "$tmp/err" 'neg\.yaml:13:[0-9]+: wind\.gusts\[1\]\.sigma1 = -1 m/s is out of range \[0, 1000\]'
scen "$tmp/type.yaml" "wind:
  gusts:
    - {type: eos, start: 1}"
check bad-type 65 "$AWESIM" simulate "$tmp/type.yaml" --no-hdf5
grep_in bad-type-msg "$tmp/err" "type\.yaml:13:[0-9]+: wind\.gusts\[1\]\.type: unknown gust 'eos' \(allowed: eog, edc, ecd, ews\)"
scen "$tmp/need.yaml" "wind:
  gusts:
    - {type: ews, start: 1, sigma1: 2}"
check ews-needs 65 "$AWESIM" simulate "$tmp/need.yaml" --no-hdf5
grep_in ews-needs-msg "$tmp/err" 'need\.yaml:13:[0-9]+: wind\.gusts\[1\] \(ews\) needs diameter'
scen "$tmp/key.yaml" "wind:
  gusts:
    - {type: eog, start: 1, v_gusts: 3}"
check bad-key 65 "$AWESIM" simulate "$tmp/key.yaml" --no-hdf5
grep_in bad-key-msg "$tmp/err" "key\.yaml:13:[0-9]+: .*v_gusts.*v_gust"
scen "$tmp/h.yaml" "wind:
  gusts:
    - {type: eog, start: 1, sigma1: 2, diameter: 10}"
check eog-height 65 "$AWESIM" simulate "$tmp/h.yaml" --no-hdf5
grep_in eog-height-msg "$tmp/err" 'h\.yaml:13:[0-9]+: wind\.gusts\[1\]: give its height'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
