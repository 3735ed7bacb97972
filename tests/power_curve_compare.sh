#!/bin/sh
# power_curve_compare.sh: tools/power-curve-compare draws the V3 cross-check figure (awesim's
# 2019 V3 curve beside the three published V3 curves of docs/data/power_curves/ and the flight's
# 1.63 kW), and the wind speeds it moves between heights are the log law's, recomputed here:
#   awesim's 6 m -> 200 m with z0 = 4 mm: ln(200/0.004) / ln(6/0.004) = 1.479482...
#   the flight's 5.09 m/s at 6 m -> 7.531 m/s at 200 m (the mast's 6.22 -> 9.202), its medians
#   over the 86 cycles of tests/data/flight_2019/cycle_stats.csv 1.63 kW cycle, 3.25 kW
#   reel-out, -3.34 kW reel-in
#   at another common height (100 m) a published curve moves on its own profile: the Luchsinger
#   file's is a log law with z0 = 0.03 m, so ln(100/0.03) / ln(200/0.03) = 0.921277
# and the published files are the ones the README's sources name (their cycle powers at 10 m/s
# at 200 m: AWESPA's QSM 3.91, Luchsinger 6.88, awesIO example 2.95 kW).
. tests/lib/cli.sh
py=/usr/bin/python3
if ! $py -c 'import yaml, numpy, matplotlib' 2>/dev/null; then
  bad "python3 with yaml, numpy, matplotlib (tools/install-deps)"
  echo "power_curve_compare: $pass passed, $fail failed"
  exit 1
fi

check "draw" 0 $py tools/power-curve-compare -o "$tmp/c.png"
cp "$tmp/out" "$tmp/draw.out"
grep_in "wrote" "$tmp/err" "wrote .*/c.png$"
check "a PNG, 1400 x 600 pixels or so" 0 $py -c "
import sys, matplotlib.image as m
a = m.imread('$tmp/c.png'); h, w = a.shape[:2]
print(w, h); sys.exit(not (1200 <= w <= 1600 and 500 <= h <= 700 and a.std() > 0.05))"

# the factors and converted speeds, against awk's own logarithms
f=$(awk 'BEGIN { printf "%.6f", log(200 / 0.004) / log(6 / 0.004) }')
check "factor is 1.479482" 0 [ "$f" = "1.479482" ]
grep_in "awesim factor" "$tmp/draw.out" "^awesim: reference 6 m, factor $f: "
v10=$(awk -v f="$f" 'BEGIN { printf "%.3f", 10 * log(200 / 0.004) / log(6 / 0.004) }')
vf=$(awk 'BEGIN { printf "%.3f", 5.09 * log(200 / 0.004) / log(6 / 0.004) }')
vm=$(awk 'BEGIN { printf "%.3f", 6.22 * log(200 / 0.004) / log(6 / 0.004) }')
check "10 m/s at 6 m is 14.795 at 200 m" 0 [ "$v10" = "14.795" ]
grep_in "awesim 10 m/s" "$tmp/draw.out" " 10->$v10 "
grep_in "flight" "$tmp/draw.out" "^flight: 5.09 m/s at 6 m -> $vf m/s \(mast 6.22 -> $vm\); 1.63 kW, reel-out 3.25, reel-in -3.34 kW \(86 cycles\)$"
check "flight 7.531 / 9.202" 0 [ "$vf $vm" = "7.531 9.202" ]
for n in "AWESPA inertia-free QSM" "Luchsinger model" "awesIO example"; do
  grep_in "$n at its own 200 m" "$tmp/draw.out" "^$n: reference 200 m, factor 1.000000$"
done
grep_in "cycle powers" "$tmp/draw.out" "^  AWESPA inertia-free QSM: 1.44 3.91 12.69$"
grep_in "cycle powers" "$tmp/draw.out" "^  Luchsinger model: 2.98 6.88 21.32$"
grep_in "cycle powers" "$tmp/draw.out" "^  awesIO example: 0.46 2.95 7.91$"

# another common height: awesim's on the log law, Luchsinger's on its own (log-law) profile
check "at 100 m" 0 $py tools/power-curve-compare --height 100 -o "$tmp/d.png"
f=$(awk 'BEGIN { printf "%.6f", log(100 / 0.004) / log(6 / 0.004) }')
grep_in "awesim to 100 m" "$tmp/out" "^awesim: reference 6 m, factor $f: "
f=$(awk 'BEGIN { printf "%.6f", log(100 / 0.03) / log(200 / 0.03) }')
grep_in "Luchsinger to 100 m ($f)" "$tmp/out" "^Luchsinger model: reference 200 m, factor $f$"

# the published files as the README names them: source, commit, licence
for fl in awespa_inertiafree_qsm.yml luchsinger_original.yml awesio_example_soft_kite_pumping.yml; do
  grep_in "$fl in the README" docs/data/power_curves/README.md "$fl"
done
grep_in "licence" docs/data/power_curves/README.md "MIT"

check "usage" 2 $py tools/power-curve-compare --height -3
check "missing data" 66 $py tools/power-curve-compare --data "$tmp/none" -o "$tmp/e.png"
check "flight table without phase powers" 66 $py tools/power-curve-compare --flight tests/data/sweep/power_curve.csv -o "$tmp/e.png"

echo "power_curve_compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
