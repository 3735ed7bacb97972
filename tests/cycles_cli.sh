#!/bin/sh
# cycles_cli.sh: the pumping cycles of `awesim simulate` (stderr table, --summary-json "cycles"
# and "cycle_median"), checked against the logged rows of the same run (CSV on stdout, awk):
#   one cycle   scenarios/v3_pumping.yaml for 170 s has one full cycle (reel-out 87 s ->
#               reel-out 159 s); at its start and at its end the reel speed crosses +0.2 m/s;
#               its duration, power_mean (the mean of force * vel over its rows), force_max and
#               the reel-out / reel-in mean speeds (the phase switches above +0.2 / below -0.2
#               m/s and is kept in between) equal the numbers from the CSV; cycle_median
#               equals the cycle; the stderr table has it
#   none        60 s of the same (one reel-out, one reel-in): "cycles": [], "cycle_median": null
#               and stderr says there was no full cycle
#   split       the 2019 V3 (scenarios/v3_2019.yaml) with 5 % of reel-in depower instead of 8
#               for 360 s: in its second reel-in the kite pulls more than the 950 N reel-in
#               force and the winch pays out for 5.2 s while the controller reels in; the
#               table's second cycle starts there (it follows the reel speed), and a warning
#               and "cycles_started_in_reel_in": 1 say so; the shipped 8 % gives 0 and no warning
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
# num FILE KEY: the first number after "KEY": in FILE (the JSON is one line)
num() { grep -o "\"$2\": [^,}]*" "$1" | head -1 | sed 's/.*: //'; }
# near A B RTOL
near() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d
  m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= r * (m > 1 ? m : 1)) }'; }

timeout 600 "$AWESIM" simulate scenarios/v3_pumping.yaml --set run.duration=170 --no-hdf5 \
  --summary-json "$tmp/s.json" --csv='time,winches.main_winch.force,winches.main_winch.vel' \
  >"$tmp/p.csv" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "simulate exit $rc"; sed 's/^/    /' "$tmp/err" | head; }

# the cycles array alone, and the median record alone
sed 's/.*"cycles": \[\([^]]*\)\].*/\1/' "$tmp/s.json" >"$tmp/cycles"
sed 's/.*"cycle_median": \({[^}]*}\).*/\1/' "$tmp/s.json" >"$tmp/median"
n=$(grep -o '"t_start"' "$tmp/cycles" | wc -l)
[ "$n" -eq 1 ] && ok || bad "cycles in the JSON: $n, expected 1"
t0=$(num "$tmp/cycles" t_start)
dur=$(num "$tmp/cycles" duration)
pm=$(num "$tmp/cycles" power_mean)
fm=$(num "$tmp/cycles" force_max)
vo=$(num "$tmp/cycles" speed_reel_out_mean)
vi=$(num "$tmp/cycles" speed_reel_in_mean)
ro=$(num "$tmp/cycles" reel_out_duration)
ri=$(num "$tmp/cycles" reel_in_duration)

awk -F, -v t0="$t0" -v dur="$dur" 'NR == 1 { next }
  { t = $1; f = $2; v = $3 }
  t >= t0 - 1e-9 && t < t0 + dur - 1e-9 {
    n++; p += f * v; if (n == 1 || f > fm) fm = f
    if (v > 0.2) ph = 0; else if (v < -0.2) ph = 1   # hysteresis: kept inside +-0.2 m/s
    if (ph == 0) { no++; so += v } else { ni++; si += v }
    if (n == 1) { start_ok = (v > 0.2 && pv <= 0.2) }
    dt = t - pt }
  t >= t0 + dur - 1e-9 && !seen_end { seen_end = 1; end_ok = (v > 0.2 && pv <= 0.2) }
  { pv = v; pt = t }
  END { printf "%d %.9g %.9g %.9g %.9g %.9g %d %d\n", n, n * dt, p / n, fm, so / no, si / ni,
        start_ok, end_ok }' "$tmp/p.csv" >"$tmp/m"
read -r rows cdur cpm cfm cvo cvi sok eok <"$tmp/m"
echo "cycles_cli: cycle from $t0 s for $dur s ($rows rows, $cdur s):" \
  "power_mean JSON $pm CSV $cpm," \
  "force_max $fm / $cfm, reel-out speed $vo / $cvo, reel-in speed $vi / $cvi"
awk -v t="$t0" -v d="$dur" 'BEGIN { exit !(t > 80 && t < 95 && d > 65 && d < 80) }' && ok ||
  bad "cycle start $t0 s, duration $dur s: expected about 87 s and 72 s"
[ "$sok" = 1 ] && [ "$eok" = 1 ] && ok ||
  bad "reel speed does not cross +0.2 m/s at the start ($sok) or end ($eok)"
near "$cdur" "$dur" 1e-9 && ok || bad "duration $dur s vs rows x dt $cdur s"
near "$pm" "$cpm" 1e-6 && ok || bad "power_mean $pm vs mean force*vel $cpm"
near "$fm" "$cfm" 1e-8 && ok || bad "force_max $fm vs $cfm"
near "$vo" "$cvo" 1e-6 && ok || bad "speed_reel_out_mean $vo vs $cvo"
near "$vi" "$cvi" 1e-6 && ok || bad "speed_reel_in_mean $vi vs $cvi"
near "$(awk -v a="$ro" -v b="$ri" 'BEGIN { print a + b }')" "$dur" 1e-9 && ok ||
  bad "reel-out $ro s + reel-in $ri s != duration $dur s"
near "$(num "$tmp/median" power_mean)" "$pm" 1e-12 && ok || bad "cycle_median power_mean"
e=$(num "$tmp/cycles" power_electrical_mean)
case $e in null|[0-9-]*) ok ;; *) bad "power_electrical_mean '$e'" ;; esac
grep -q '^awesim: cycles: 1 full' "$tmp/err" && grep -q '^  median ' "$tmp/err" && ok ||
  bad "stderr lacks the cycle table"

# ---- no full cycle ----
timeout 600 "$AWESIM" simulate scenarios/v3_pumping.yaml --set run.duration=60 --no-hdf5 \
  --summary-json "$tmp/s0.json" 2>"$tmp/err0"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "simulate (60 s) exit $rc"
grep -q '"cycles": \[\], "cycle_median": null' "$tmp/s0.json" && ok ||
  bad "60 s: JSON lacks empty cycles / null median"
grep -q '^awesim: cycles: no full pumping cycle' "$tmp/err0" && ok ||
  bad "60 s: stderr does not say there was no full cycle"

# ---- a pay-out during the controller's reel-in splits a cycle: said, not passed off ----
for d in 5 8; do
  timeout 900 "$AWESIM" simulate scenarios/v3_2019.yaml --set run.duration=360 \
    --set "controllers[1].depower=$d" --no-hdf5 --summary-json "$tmp/d$d.json" 2>"$tmp/errd$d"
  rc=$?
  [ "$rc" -eq 0 ] && ok || bad "v3_2019 depower $d: exit $rc"
done
[ "$(num "$tmp/d5.json" cycles_started_in_reel_in)" = 1 ] && ok ||
  bad "depower 5: cycles_started_in_reel_in = $(num "$tmp/d5.json" cycles_started_in_reel_in)"
grep -q "^awesim: warning: 1 of the 2 cycles start while the pumping controller 'pump' was reeling in (first: cycle 2 at t = 3[0-9][0-9]\.[0-9] s, whose [5-9]\.[0-9] s of reel-out are a pay-out" \
  "$tmp/errd5" && ok || { bad "depower 5: no split warning"; grep warning "$tmp/errd5" | head -3; }
[ "$(num "$tmp/d8.json" cycles_started_in_reel_in)" = 0 ] && ! grep -q 'were reeling in\|was reeling in' "$tmp/errd8" &&
  ok || bad "depower 8 (the shipped): a split reported"

echo "cycles_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
