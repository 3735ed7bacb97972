#!/bin/sh
# v3_2019_10mm.sh: the 2019 V3 with the flown 10 mm tether and down-loops
# (scenarios/v3_2019_10mm.yaml) for 330 s: the first reel-out and one full cycle (152 -> 306 s).
# Asserted, with numbers:
#   cycle     one full cycle, none started inside the controller's reel-in (no pay-out split)
#   turns     in that cycle's reel-out (from 20 s after its start) the kite descends at every
#             azimuth extreme (down-loops, as the flight flew all 721 of its reel-out turns); at
#             least 4 extremes
#   swing     the 1 s means of the tether force over that reel-out stay between 2.0 and 5.0 kN
#             (the flight's per-figure range: 2.00 ... 4.06 kN; the up-looping v3_2019.yaml
#             dips to 1.0 kN in its climbing turns: docs/validation.md)
#   power     the cycle's mean power within 25 % of the flight's 1.63 kW (1.222 ... 2.038 kW)
#   elevation the reel-out mean elevation within 2 deg of 36.5 deg (the flight's band
#             35.5 ... 37.5 deg; the attractor was set for 35.5)
# Printed, not asserted: the cycle duration, the reel-in's force and speed and the figure
# period, outside the flight's bands (the scenario's header says why).
. tests/lib/cli.sh

timeout 900 "$AWESIM" simulate scenarios/v3_2019_10mm.yaml --set run.duration=330 --no-hdf5 \
  --summary-json "$tmp/s.json" \
  --csv='time,winches.main_winch.force,controllers.pump.phase,wings.main_wing.azimuth,wings.main_wing.vel' \
  >"$tmp/p.csv" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "simulate exit $rc"; sed 's/^/    /' "$tmp/err" | tail -5; }
n=$(tr -d ' \n' <"$tmp/s.json" | sed 's/"cycle_median".*//' | grep -o '"t_start"' | wc -l)
[ "$n" -eq 1 ] && ok || bad "full cycles: $n (expected 1)"
[ "$(num "$tmp/s.json" cycles_started_in_reel_in)" = 0 ] && ok ||
  bad "cycles started in the controller's reel-in: $(num "$tmp/s.json" cycles_started_in_reel_in)"

t0=$(num "$tmp/s.json" t_start)
awk -v t0="$t0" 'BEGIN { FS = "," }
  NR == 1 { for (i = 1; i <= NF; i++) { n = $i; sub(/\[.*/, "", n); c[n] = i }; next }
  { t = $1; f = $c["winches.main_winch.force"]; ph = $c["controllers.pump.phase"]
    az = $c["wings.main_wing.azimuth"]; vz = $c["wings.main_wing.vel.z"]
    if (t >= t0 && ph >= 0.5) over = 1
    if (t >= t0 + 20 && !over) {
      k = int(t - t0); s[k] += f; m[k]++
      if ((az - a1) * (a1 - a2) < 0) { ne++; up += v1 > 0 } }
    a2 = a1; a1 = az; v1 = vz }
  END { lo = 1e9; hi = -1e9
    for (k in s) if (m[k] >= 15) { x = s[k] / m[k]; if (x < lo) lo = x; if (x > hi) hi = x }
    printf "%.0f %.0f %d %d\n", lo, hi, ne, up }' "$tmp/p.csv" >"$tmp/m"
read -r flo fhi ne up <"$tmp/m"
echo "v3_2019_10mm: reel-out from $t0 s: force (1 s means) $flo ... $fhi N; $ne azimuth extremes, $up climbing"
[ "$ne" -ge 4 ] && [ "$up" -eq 0 ] && ok || bad "turns: $up of $ne azimuth extremes climb"
inside "$flo" 2000 5000 && inside "$fhi" 2000 5000 && ok || bad "force swing $flo ... $fhi N outside 2 ... 5 kN"

p=$(num "$tmp/s.json" power_mean)
el=$(num "$tmp/s.json" elevation_reel_out_mean)
echo "v3_2019_10mm: power $p W (flight 1630), reel-out elevation $el deg"
inside "$p" 1222 2038 && ok || bad "power $p W outside 1222 ... 2038"
inside "$el" 34.5 38.5 && ok || bad "reel-out elevation $el deg outside 34.5 ... 38.5"
for q in duration:119.7:141.2 force_reel_in_mean:990:1080 speed_reel_in_mean:-3.71:-2.99 \
         figure_period:19.7:22.6; do
  k=${q%%:*}; r=${q#*:}; lo=${r%%:*}; hi=${r#*:}
  v=$(num "$tmp/s.json" "$k")
  if inside "$v" "$lo" "$hi"; then echo "inside    $k = $v ($lo ... $hi)"
  else echo "KNOWN GAP $k = $v (flight $lo ... $hi)"; fi
done
if grep -q "rang" "$tmp/err"; then bad "the winch loop rang: $(grep rang "$tmp/err")"; else ok; fi
echo "v3_2019_10mm: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
