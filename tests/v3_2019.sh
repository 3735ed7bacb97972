#!/bin/sh
# v3_2019.sh: the 2019 flight's system and set-points (scenarios/v3_2019.yaml) for 470 s: the
# first reel-out, two full cycles (167 -> 315 -> 454 s) and the start of the next reel-out; the
# second, settled, cycle is compared with the 2019 flight's p10-p90 bands (docs/validation.md,
# speed phases), with numbers:
#   cycle       --summary-json has exactly two full cycles; the second makes power (> 0),
#               peak force below 10 kN, VSM failures below 2 % of the refreshes
#   set-points  the quantities the set-points fix: kite distance at the start and end of the
#               cycle's reel-out (flight 232.6 ... 247.4 m and 337.6 ... 347.9 m), depower in
#               reel-out and reel-in (33 % and 41 %: the flight's 22 / 30 % plus the 11 points
#               at which the model flies the flight's reel-out CL, each within 0.1 %), wind
#               5.09 m/s at 6 m (7.40 m/s at 166 m, the flight's Pitot-derived wind), and the
#               reel-in's force held at 950 N (mean within 0.5 %, rms within 1.5 %)
#   in band     asserted: the flight's p10-p90 bands of the reel-out force (2.34 ... 3.45 kN),
#               peak force (4.17 ... 5.65 kN), reel-out speed (0.98 ... 1.18 m/s), apparent
#               wind (17.7 ... 20.1 m/s), figure period (19.7 ... 22.6 s) and the cycle power
#               within 25 % of the flight's 1.63 kW (1.222 ... 2.038 kW)
#   known gaps  the others (cycle duration, reel-in force and speed, elevation and kite speed in
#               reel-out: docs/validation.md says which are outside and why) are printed as
#               KNOWN GAP lines when outside the band, each with its band, and not asserted; a
#               quantity found inside its band is counted as a pass
. tests/lib/cli.sh

CH=time,wings.main_wing.distance,kcu.depower_actual,controllers.pump.phase,inputs.wind.v_wind
CH=$CH,winches.main_winch.force,winches.main_winch.vel,points.le_5.pos.*,points.te_6.pos.*
timeout 900 "$AWESIM" simulate scenarios/v3_2019.yaml --set run.duration=470 --no-hdf5 \
  --summary-json "$tmp/s.json" \
  --csv="$CH" \
  >"$tmp/p.csv" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then ok; else bad "simulate exit $rc"; sed 's/^/    /' "$tmp/err" | head; fi
# the winch loop at 50 Hz does not ring (at 20 Hz it does in strong wind: docs/validation.md)
if grep -q "rang" "$tmp/err"; then bad "the winch loop rang: $(grep rang "$tmp/err")"; else ok; fi
tr -d ' \n' <"$tmp/s.json" | sed 's/"cycle_median".*//' >"$tmp/all.json"
n=$(grep -o '"t_start"' "$tmp/all.json" | wc -l)
[ "$n" -eq 2 ] && ok || bad "full cycles: $n (expected 2)"
# the second (settled) cycle: the first one starts from the parked kite's first reel-in
grep -o '{"t_start"[^}]*}' "$tmp/all.json" | sed -n 2p >"$tmp/c.json"
P=$(num "$tmp/c.json" power_mean)
Fmax=$(num "$tmp/c.json" force_max)
echo "cycle 2: power_mean $P W, force_max $Fmax N"
awk -v p="$P" -v f="$Fmax" 'BEGIN { exit !(p > 0 && f < 10000) }' && ok ||
  bad "power $P, Fmax $Fmax"
r=$(num "$tmp/s.json" vsm_refreshes)
vf=$(num "$tmp/s.json" vsm_failures)
echo "VSM: $vf failed of $r refreshes"
awk -v a="$vf" -v b="$r" 'BEGIN { exit !(b > 0 && a < 0.02 * b) }' && ok ||
  bad "VSM failures $vf/$r"

# the kite's distance at the second cycle's reel-out start and end as the flight's table
# defines them (speed phases: its t_start, then the first row with v < -0.2 m/s 5 s later;
# measured at the canopy's centre, midway between le_5 and te_6, as the flight's Pixhawk on
# the centre strut: the wing frame's origin, wings.*.distance, is the KCU, ~8 m lower),
# the depower from 10 s after each of the controller's switches (past the 4 s ramp and the
# motor) to the phase's end, the ground wind at the end
t2=$(num "$tmp/c.json" t_start)
read -r d0 d1 dpo dpi vw <<EOF2
$(awk -F, -v t2="$t2" 'NR == 1 { for (i = 1; i <= NF; i++) { n = $i; sub(/\[.*/, "", n); c[n] = i }; next }
  { ph = $c["controllers.pump.phase"]; dp = $c["kcu.depower_actual"]; t = $1
    v = $c["winches.main_winch.vel"]
    x = ($c["points.le_5.pos.x"] + $c["points.te_6.pos.x"]) / 2
    y = ($c["points.le_5.pos.y"] + $c["points.te_6.pos.y"]) / 2
    z = ($c["points.le_5.pos.z"] + $c["points.te_6.pos.z"]) / 2; d = sqrt(x * x + y * y + z * z)
    if (NR > 2 && ph != pp) { k++; ts = t }
    if (t > t2 - 1e-6 && t < t2 + 1e-6) d0 = d
    if (t > t2 + 5 && v < -0.2 && d1 == "") d1 = d
    if (k == 4 && t > ts + 10) { so += dp; no++ }
    if (k == 5 && t > ts + 10) { si += dp; ni++ }
    pp = ph; w = $c["inputs.wind.v_wind"] }
  END { printf "%.2f %.2f %.3f %.3f %.3f\n", d0, d1, no ? so / no : -1, ni ? si / ni : -1, w }' \
  "$tmp/p.csv")
EOF2
echo "distance at reel-out start $d0 m, end $d1 m; depower out $dpo %, in $dpi %; wind $vw m/s"
inside "$d0" 232.6 247.4 && ok || bad "distance at reel-out start $d0 (232.6 ... 247.4)"
inside "$d1" 337.6 347.9 && ok || bad "distance at reel-out end $d1 (337.6 ... 347.9)"
inside "$dpo" 32.9 33.1 && ok || bad "depower reel-out $dpo (33 +- 0.1)"
inside "$dpi" 40.9 41.1 && ok || bad "depower reel-in $dpi (41 +- 0.1)"
inside "$vw" 5.08 5.10 && ok || bad "wind at 6 m $vw (5.09)"

# reel-in on force: from 6 s after the switch (the 4 s ramp, then the loop settles) to the
# switch back, the mean tether force within 0.5 % of the 950 N set-point, its rms deviation
# within 1.5 % and every row within 5 % (the kite swings at ~1.5 s early in the reel-in)
r=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { n = $i; sub(/\[.*/, "", n); c[n] = i }; next }
  { ph = $c["controllers.pump.phase"]; t = $1
    if (NR > 2 && ph != pp) { k++; ts = t }
    if (k == 5 && ph == 1 && t > ts + 6) { f = $c["winches.main_winch.force"]; s += f; n++
      d = (f - 950) / 950; q += d * d; if (d < 0) d = -d; if (d > m) m = d }
    pp = ph }
  END { printf "%d %.2f %.5f %.5f\n", n, n ? s / n : 0, n ? sqrt(q / n) : 1, m }' "$tmp/p.csv")
echo "reel-in force hold (rows, mean [N], rms and max of (F - 950)/950): $r"
echo "$r" | awk '{ exit !($1 > 400 && $2 > 945.25 && $2 < 954.75 && $3 < 0.015 && $4 < 0.05) }' && ok ||
  bad "reel-in force hold: $r"

# the flight's bands (docs/validation.md, --phases speed: p10 ... p90); outside: KNOWN GAP
gaps=0
# band KEY LO HI [assert]: with "assert" outside is a failure, else a KNOWN GAP line
band() {
  v=$(num "$tmp/c.json" "$1")
  if inside "$v" "$2" "$3"; then echo "inside    $1 = $v ($2 ... $3)"; ok
  elif [ "${4:-}" = assert ]; then bad "$1 = $v outside the flight's $2 ... $3"
  else echo "KNOWN GAP $1 = $v (flight $2 ... $3)"; gaps=$((gaps + 1)); fi
}
band duration 119.7 141.2
band force_reel_out_mean 2340 3450 assert
band force_max 4170 5650 assert
band force_reel_in_mean 990 1080
band speed_reel_out_mean 0.98 1.18 assert
band speed_reel_in_mean -3.71 -2.99
band elevation_reel_out_mean 35.5 37.5
band apparent_wind_reel_out_mean 17.7 20.1 assert
band kite_speed_reel_out_mean 17.5 19.5
band figure_period 19.7 22.6 assert
band power_mean 1222 2038 assert
echo "$gaps known gaps (docs/validation.md says why)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
