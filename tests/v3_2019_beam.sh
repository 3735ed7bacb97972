#!/bin/sh
# v3_2019_beam.sh: the V3 as built (models/v3_beam: 22 rigid bodies and 21 Timoshenko tubes, the
# flown 11.0 kg wing, 22.75 kg KCU and 10 mm tether) flown with the 2019 flight's set-points
# (scenarios/v3_2019_beam.yaml) for 360 s: the first reel-out and one full controller cycle
# (reel-out from 158-168 s). Asserted, with numbers:
#   flies       the run completes (no crash), the VSM converges in at least 95 % of its
#               refreshes (35 of 6600 stall at a residual of 0.03, in 15-40 s; 197 on another
#               solver path: the circulation loop's known weakness, docs/validation.md; the
#               particle V3 fails 9 of 12000)
#   reel-out    the reel-out of the first table cycle not started inside the controller's
#               reel-in inside the flight's p10-p90 bands: mean force (2.34 ... 3.45 kN), peak
#               (4.17 ... 5.65 kN), reel speed (0.98 ... 1.18 m/s), apparent wind (17.7 ... 20.1
#               m/s), figure period (19.7 ... 22.6 s), as tests/v3_2019.sh asserts them, with one
#               calibration constant (the depower offset, from the reel-out lift coefficient).
#               The elevation (35.5 ... 37.5 deg) and kite speed (17.5 ... 19.5 m/s) sit at their
#               bands' edges (36.6 ... 37.6 deg, 17.4 ... 17.7 m/s over cycles and solver
#               paths): printed, inside or KNOWN GAP
#   power       the controller cycle's mean power within 10 % of the flight's 1.63 kW
# Printed, not asserted (KNOWN GAP): the reel-in speed and the cycle duration. The depowered
# kite pulls more than the flight's (reel-in lift coefficient 0.53 against 0.39): holding 950 N
# it reels in at -2.0 m/s and the winch pays out for 6 s before the reel-in ends, so the speed
# phases split the controller's cycle in two (cycles_started_in_reel_in > 0).
# The ASan build flies 60 s only (the first reel-out's figures; 330 s cost it minutes): it
# completes, turns at least twice, and the 1 s means of the tether force stay taut and below
# the flight's p90 peak (300 N ... 5.65 kN; the up-loops dip to 0.75 kN in their climbs).
. tests/lib/cli.sh

case $AWESIM in
*asan*)
  timeout 900 "$AWESIM" simulate scenarios/v3_2019_beam.yaml --set run.duration=60 --no-hdf5 \
    --csv='time,winches.main_winch.force,wings.main_wing.azimuth' >"$tmp/p.csv" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 0 ] && ok || bad "simulate exit $rc"
  awk 'BEGIN { FS = "," } NR == 1 { next }
    { t = $1; f = $2; az = $3; if (t > 20) { k = int(t); s[k] += f; m[k]++ }
      if (NR > 2 && (az - a1) * (a1 - a2) < 0 && t > 15) ne++; a2 = a1; a1 = az }
    END { lo = 1e9; hi = -1e9
      for (k in s) if (m[k] >= 15) { x = s[k] / m[k]; if (x < lo) lo = x; if (x > hi) hi = x }
      printf "%.0f %.0f %d\n", lo, hi, ne }' "$tmp/p.csv" >"$tmp/m"
  read -r flo fhi ne <"$tmp/m"
  echo "v3_2019_beam (60 s): force (1 s means from 20 s) $flo ... $fhi N, $ne turns"
  [ "$ne" -ge 2 ] && ok || bad "turns: $ne"
  inside "$flo" 300 5650 && inside "$fhi" 300 5650 && ok || bad "force $flo ... $fhi N"
  echo "v3_2019_beam: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
  ;;
esac

timeout 900 "$AWESIM" simulate scenarios/v3_2019_beam.yaml --set run.duration=360 --no-hdf5 \
  --summary-json "$tmp/s.json" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "simulate exit $rc"; sed 's/^/    /' "$tmp/err" | tail -5; }
r=$(num "$tmp/s.json" vsm_refreshes)
vf=$(num "$tmp/s.json" vsm_failures)
echo "v3_2019_beam: VSM $vf failed of $r refreshes"
awk -v a="$vf" -v b="$r" 'BEGIN { exit !(b > 0 && a < 0.05 * b) }' && ok || bad "VSM failures $vf/$r"
P=$(num "$tmp/s.json" mean_cycle_power)
echo "v3_2019_beam: controller cycle power $P W (flight 1630)"
inside "$P" 1467 1793 && ok || bad "cycle power $P W outside 1467 ... 1793"
# the first cycle of the table that starts a real reel-out (not a pay-out inside a reel-in)
tr -d ' \n' <"$tmp/s.json" | sed 's/"cycle_median".*//' | grep -o '{"t_start"[^}]*}' |
  awk -F'"force_reel_out_mean":' '{ split($2, a, ","); if (a[1] > 1500) { print; exit } }' >"$tmp/c.json"
[ -s "$tmp/c.json" ] && ok || bad "no cycle with a reel-out"
echo "v3_2019_beam: cycle from $(num "$tmp/c.json" t_start) s"
for q in force_reel_out_mean:2340:3450 force_max:4170:5650 speed_reel_out_mean:0.98:1.18 \
         apparent_wind_reel_out_mean:17.7:20.1 figure_period:19.7:22.6; do
  k=${q%%:*}; rg=${q#*:}; lo=${rg%%:*}; hi=${rg#*:}
  v=$(num "$tmp/c.json" "$k")
  echo "  $k = $v (flight $lo ... $hi)"
  inside "$v" "$lo" "$hi" && ok || bad "$k = $v outside the flight's $lo ... $hi"
done
for q in elevation_reel_out_mean:35.5:37.5 kite_speed_reel_out_mean:17.5:19.5; do
  k=${q%%:*}; rg=${q#*:}; lo=${rg%%:*}; hi=${rg#*:}
  v=$(num "$tmp/c.json" "$k")
  if inside "$v" "$lo" "$hi"; then echo "inside    $k = $v ($lo ... $hi)"
  else echo "KNOWN GAP $k = $v (flight $lo ... $hi, at the band's edge)"; fi
done
v=$(num "$tmp/c.json" speed_reel_in_mean)
if inside "$v" -3.71 -2.99; then echo "inside    speed_reel_in_mean = $v (-3.71 ... -2.99)"
else echo "KNOWN GAP speed_reel_in_mean = $v (flight -3.71 ... -2.99)"; fi
# the controller's cycle (the speed phases split it where the winch pays out in the reel-in)
d=$(awk -v e="$(num "$tmp/s.json" energy_per_cycle)" -v p="$P" 'BEGIN { printf "%.1f", e / p }')
if inside "$d" 119.7 141.2; then echo "inside    controller cycle duration = $d s (119.7 ... 141.2)"
else echo "KNOWN GAP controller cycle duration = $d s (flight 119.7 ... 141.2)"; fi
echo "KNOWN GAP cycles_started_in_reel_in = $(num "$tmp/s.json" cycles_started_in_reel_in) (the winch pays out in the reel-in)"
echo "v3_2019_beam: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
