#!/bin/sh
# v3_pumping.sh: the V3 kite in pumping cycles (scenarios/v3_pumping.yaml), its first 90 s: the
# first reel-out (figure eights, winch at 5.5 kN, 225 -> 256 m) and the first reel-in (1.5 m/s,
# kite steered to 75 deg elevation, 256 -> 226 m). The full 320 s (three full cycles after the
# first) is a row of `make bench`. Checks, with numbers:
#   phases      controllers.pump.phase goes 0 -> 1 at 256 +- 0.5 m and 1 -> 0 at 226 +- 0.5 m,
#               once each
#   energy      winches.main_winch.energy at the end of the reel-in is positive: the reel-out
#               gained more than the reel-in spent over the same 30 m of tether
#   reel-in     the reel-in speed holds 1.5 +- 0.15 m/s in its second half, and the kite is
#               above 55 deg elevation at its end (it left the crosswind zone)
#   safety      elevation never below 15 deg, peak tether force below 12 kN, no VSM failure
#   summary     the stderr summary has the pumping line, --summary-json the energy
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

timeout 900 "$AWESIM" simulate scenarios/v3_pumping.yaml --set run.duration=90 --no-hdf5 \
  --summary-json "$tmp/s.json" \
  --csv='time,wings.main_wing.elevation,winches.main_winch.force,winches.main_winch.vel,winches.main_winch.energy,tethers.main_tether.len,controllers.pump.phase' \
  >"$tmp/p.csv" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then ok; else bad "simulate exit $rc"; sed 's/^/    /' "$tmp/err" | head; fi
if grep -q 'VSM refreshes [0-9]* (failed 0,' "$tmp/err"; then ok; else bad "VSM refreshes failed"; fi
if grep -q 'awesim: pumping: .* peak tether force' "$tmp/err"; then ok; else bad "no pumping summary line"; fi
if grep -q '"energy": [0-9]' "$tmp/s.json" && grep -q '"pumping": {"cycles"' "$tmp/s.json"; then ok
else bad "summary JSON lacks energy or pumping"; fi

awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { n = $i; sub(/\[.*/, "", n); c[n] = i }; next }
  { t = $1; ph = $c["controllers.pump.phase"]; L = $c["tethers.main_tether.len"]
    el = $c["wings.main_wing.elevation"] * 57.29577951308232; f = $c["winches.main_winch.force"]
    if (NR == 2 || el < elmin) elmin = el; if (f > fmax) fmax = f
    if (NR > 2 && ph != pp) { if (ph == 1) { n01++; L01 = L; t01 = t } else { n10++; L10 = L; t10 = t
      E10 = $c["winches.main_winch.energy"]; el10 = el } }
    pp = ph; rows[NR] = t; v[NR] = $c["winches.main_winch.vel"]; P[NR] = ph }
  END { vs = 0; nv = 0
    for (r = 2; r <= NR; r++) if (P[r] == 1 && rows[r] > (t01 + t10) / 2 && rows[r] < t10) {
      if (v[r] < -1.65 || v[r] > -1.35) vs++; nv++ }
    printf "%d %d %.2f %.2f %.0f %.1f %.2f %.0f %d %d\n", n01, n10, L01, L10, E10, el10, elmin, fmax, nv, vs }' \
  "$tmp/p.csv" >"$tmp/m"
read -r n01 n10 L01 L10 E10 el10 elmin fmax nv vs <"$tmp/m"
echo "v3_pumping (90 s): switches $n01 out->in at $L01 m, $n10 in->out at $L10 m, energy after" \
  "the reel-in $E10 J, elevation there $el10 deg, min elevation $elmin deg, peak force $fmax N," \
  "reel-in speed off 1.5 +- 0.15 m/s in $vs of $nv rows"
[ "$n01" = 1 ] && [ "$n10" = 1 ] && ok || bad "phase switches $n01/$n10, expected 1/1"
awk -v a="$L01" -v b="$L10" 'BEGIN { exit !(a > 255.5 && a < 256.5 && b > 225.5 && b < 226.5) }' &&
  ok || bad "switch lengths $L01, $L10"
awk -v e="$E10" 'BEGIN { exit !(e > 0) }' && ok || bad "net energy after the reel-in $E10 J <= 0"
[ "$nv" -gt 100 ] && [ "$vs" = 0 ] && ok || bad "reel-in speed: $vs of $nv rows off 1.5 +- 0.15 m/s"
awk -v x="$el10" 'BEGIN { exit !(x > 55) }' && ok || bad "elevation at the end of the reel-in $el10 <= 55 deg"
awk -v x="$elmin" -v f="$fmax" 'BEGIN { exit !(x > 15 && f < 12000) }' && ok ||
  bad "min elevation $elmin deg or peak force $fmax N"

echo "pumping: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
