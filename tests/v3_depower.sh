#!/bin/sh
# v3_depower.sh: the V3 kite's depower response (scenarios/tests/v3_depower.yaml): parked in
# 19.3 m/s of wind, the power tape steps 1.85 -> 2.25 m (22 % -> 30 % depower, docs/physics.md
# V3 depower) in five plateaus. Checks, with numbers, at the end of each plateau:
#   angle of attack  wings.main_wing.aoa (mid-span chord) falls by 1.0-2.5 deg per 0.1 m of
#                    tape, 11.5-13.5 deg at 1.85 m, 5.5-7.5 deg at 2.25 m (measured 12.64, 11.01,
#                    9.39, 7.84, 6.36). Before the angle was taken from the mid-span chord it
#                    stayed within 7.0-8.1 deg over the whole range.
#   force            the tether force falls at each step, 2.25 m keeps 0.60-0.75 of the force at
#                    1.85 m (measured 4722 -> 3221 N, 0.682)
#   pitch            aoa - aoa_body (the mid-span chord's pitch against the kcu-to-wing frame)
#                    falls by 11-16 deg per m of tape (measured 13.4; V3Kite.jl's photogrammetry
#                    model of the V3's wing-to-bridle angle: 0.6831 deg per % = 13.7 deg/m)
#   chord            aoa equals, within 0.05 deg at every row, atan2(va.n, va.c) computed here
#                    from the points: c the mean LE -> TE of sections 5 and 6, n = span x c
#   shape            over the whole run the span le_1-le_10 stays above 7.6 m (CAD 7.89 m) and
#                    the mid-span chord le_5-te_5 within 2.2655 +- 0.02 m
#   VSM              no refresh fails
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

cols='time,winches.main_winch.force,wings.main_wing.aoa*'
cols="$cols,points.le_1.pos.*,points.le_10.pos.*,points.le_5.pos.*,points.te_5.pos.*"
cols="$cols,points.le_6.pos.*,points.te_6.pos.*,points.kcu.pos.*,wings.main_wing.va.*"
timeout 600 "$AWESIM" simulate scenarios/tests/v3_depower.yaml --no-hdf5 --csv="$cols" \
  >"$tmp/d.csv" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then ok; else bad "simulate exit $rc"; sed 's/^/    /' "$tmp/err" | head; fi
if grep -q 'VSM refreshes [0-9]* (failed 0,' "$tmp/err"; then ok
else bad "VSM refreshes failed"; fi

awk -F, 'function d(u, v) { return sqrt(($c[u ".x"] - $c[v ".x"])^2 + \
                                        ($c[u ".y"] - $c[v ".y"])^2 + ($c[u ".z"] - $c[v ".z"])^2) }
  NR == 1 { for (i = 1; i <= NF; i++) { n = $i; sub(/\[.*/, "", n); c[n] = i }; next }
  { sp = d("points.le_1.pos", "points.le_10.pos"); ch = d("points.le_5.pos", "points.te_5.pos")
    if (NR == 2 || sp < spmin) spmin = sp; if (NR == 2 || ch < chmin) chmin = ch
    if (NR == 2 || ch > chmax) chmax = ch
    # the chord angle from the points: c = mid-span chord (sections 5, 6), n = span x c away
    # from the kcu, alpha = atan2(va.n, va.c); against the aoa channel
    for (k = 1; k <= 3; k++) { x = substr("xyz", k, 1)
      cc[k] = ($c["points.te_5.pos." x] - $c["points.le_5.pos." x] + $c["points.te_6.pos." x] - \
               $c["points.le_6.pos." x]) / 2
      ss[k] = $c["points.le_5.pos." x] - $c["points.le_6.pos." x]
      rr[k] = $c["points.le_5.pos." x] - $c["points.kcu.pos." x]
      va[k] = $c["wings.main_wing.va." x] }
    nn[1] = ss[2] * cc[3] - ss[3] * cc[2]; nn[2] = ss[3] * cc[1] - ss[1] * cc[3]
    nn[3] = ss[1] * cc[2] - ss[2] * cc[1]
    sg = (nn[1] * rr[1] + nn[2] * rr[2] + nn[3] * rr[3] > 0) ? 1 : -1
    vn = sg * (va[1] * nn[1] + va[2] * nn[2] + va[3] * nn[3]) / sqrt(nn[1]^2 + nn[2]^2 + nn[3]^2)
    vc = (va[1] * cc[1] + va[2] * cc[2] + va[3] * cc[3]) / sqrt(cc[1]^2 + cc[2]^2 + cc[3]^2)
    e = (atan2(vn, vc) - $c["wings.main_wing.aoa"]) * 57.29577951308232; if (e < 0) e = -e
    if (e > emax) emax = e
    t = $1 + 0; for (p = 1; p <= 5; p++) if (t > 8 * p - 0.01 && t < 8 * p + 0.01) {
      al[p] = $c["wings.main_wing.aoa"] * 57.29577951308232; f[p] = $c["winches.main_winch.force"]
      pt[p] = al[p] - $c["wings.main_wing.aoa_body"] * 57.29577951308232 } }
  END { printf "%.2f %.2f %.2f %.2f %.2f %.0f %.0f %.0f %.0f %.0f %.3f %.4f %.4f %.2f %.4f\n",
    al[1], al[2], al[3], al[4], al[5], f[1], f[2], f[3], f[4], f[5], spmin, chmin, chmax,
    (pt[1] - pt[5]) / 0.4, emax }' \
  "$tmp/d.csv" >"$tmp/m"
read -r a1 a2 a3 a4 a5 f1 f2 f3 f4 f5 spmin chmin chmax pitch emax <"$tmp/m"
echo "v3_depower: aoa $a1 $a2 $a3 $a4 $a5 deg, force $f1 $f2 $f3 $f4 $f5 N at 1.85..2.25 m;" \
  "span >= $spmin m, mid chord $chmin..$chmax m; chord pitch to the body frame -$pitch deg/m;" \
  "aoa against the chord angle from the points within $emax deg"
awk -v a="$a1 $a2 $a3 $a4 $a5" 'BEGIN { n = split(a, x, " "); if (n != 5) exit 1
  for (i = 2; i <= 5; i++) if (x[i - 1] - x[i] < 1.0 || x[i - 1] - x[i] > 2.5) exit 1 }' && ok ||
  bad "angle of attack not falling 1.0-2.5 deg per step: $a1 $a2 $a3 $a4 $a5"
awk -v a="$a1" -v b="$a5" 'BEGIN { exit !(a > 11.5 && a < 13.5 && b > 5.5 && b < 7.5) }' && ok ||
  bad "angle of attack at 1.85 m $a1 deg or at 2.25 m $a5 deg out of range"
awk -v f="$f1 $f2 $f3 $f4 $f5" 'BEGIN { n = split(f, x, " "); if (n != 5) exit 1
  for (i = 2; i <= 5; i++) if (x[i] >= x[i - 1]) exit 1
  r = x[5] / x[1]; exit !(r > 0.60 && r < 0.75) }' &&
  ok || bad "tether force not falling to 0.60-0.75: $f1 $f2 $f3 $f4 $f5 N"
awk -v s="$spmin" -v a="$chmin" -v b="$chmax" \
  'BEGIN { exit !(s > 7.6 && a > 2.2455 && b < 2.2855) }' && ok ||
  bad "wing shape: span $spmin m, mid chord $chmin..$chmax m"

awk -v p="$pitch" 'BEGIN { exit !(p > 11 && p < 16) }' && ok ||
  bad "chord pitch against the body frame $pitch deg per m of tape, expected 11-16"

awk -v e="$emax" 'BEGIN { exit !(e != "" && e < 0.05) }' && ok ||
  bad "aoa differs from the chord angle computed from the points by $emax deg (> 0.05)"

echo "depower: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
