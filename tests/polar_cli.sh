#!/bin/sh
# polar_cli.sh: `awesim polar` prints a sensible polar, reports non-convergence, rejects bad
# options. Numbers: a flat rectangular wing of aspect ratio 10 against lifting-line theory,
# a symmetric wing has no side force or roll/yaw moment at zero sideslip.
AWESIM=${AWESIM:-./awesim}
D=tests/data/polar
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# the V3 kite: every angle converges, CL rises from -4 to 10 deg
out=$("$AWESIM" polar models/v3_kite/aero_geometry.yaml --alpha -4:20:1 2>/dev/null)
rc=$?
rows=$(echo "$out" | tail -n +2 | wc -l)
[ $rc -eq 0 ] && [ "$rows" -eq 25 ] && ok || bad "v3 polar: rc $rc rows $rows"
echo "$out" | head -1 | grep -qx 'alpha\[deg\],beta\[deg\],CL,CD,CS,CMx,CMy,CMz,converged,start' &&
  ok || bad "header"
# (cold starts: CL rises to its maximum at 7 deg; the warm-started sweep used to stay on the
# attached branch up to 10 deg)
echo "$out" | awk -F, 'NR>1 && $1>=-4 && $1<=7 { if (NR>2 && $3<=prev) bad=1; prev=$3 }
  END { exit bad }' && ok || bad "v3 CL not increasing up to 7 deg"
echo "$out" | awk -F, 'NR>1 && $9!=1 {exit 1}' && ok || bad "v3 unconverged rows"

# deterministic: every angle starts cold, so a single angle equals the sweep's row (bitwise in the
# printed digits), also past the kite's maximum lift where two branches exist (warned once)
row8=$("$AWESIM" polar models/v3_kite/aero_geometry.yaml --alpha 8:8:1 2>/dev/null | tail -1)
echo "$out" | grep -qx "$row8" && ok || bad "8 deg alone ($row8) differs from the sweep's row"
echo "$out" | awk -F, 'NR>1 && $1<=10 && $10!="cold" {exit 1} NR>1 && $10!="cold" && $10!="continued" {exit 1}' &&
  ok || bad "v3: a row below 10 deg not started cold, or an unknown start"
"$AWESIM" polar models/v3_kite/aero_geometry.yaml --alpha 0:10:1 2>&1 >/dev/null |
  grep -q 'two converged solutions' && ok || bad "no two-branch warning past the maximum lift"

# --ref-point: M(P) = M(0) - P x F, so with P = (0, 0, h) and beta = 0:
# CMy(P) = CMy(0) - h CFx/c_ref ... checked through its linearity in h: CMy(2h) - CMy(0) = 2 (CMy(h) - CMy(0))
m0=$("$AWESIM" polar models/v3_kite/aero_geometry.yaml --alpha 4:4:1 2>/dev/null | tail -1 | cut -d, -f7)
m1=$("$AWESIM" polar models/v3_kite/aero_geometry.yaml --alpha 4:4:1 --ref-point 0,0,5 2>/dev/null |
  tail -1 | cut -d, -f7)
m2=$("$AWESIM" polar models/v3_kite/aero_geometry.yaml --alpha 4:4:1 --ref-point=0,0,10 2>/dev/null |
  tail -1 | cut -d, -f7)
awk -v a="$m0" -v b="$m1" -v c="$m2" 'BEGIN { d = (c - a) - 2*(b - a); printf "  ref point: CMy %s %s %s\n", a, b, c;
  exit !(b != a && d*d < 1e-16) }' && ok || bad "ref-point"
# a sideslip sweep: --beta START:STOP:STEP, CS changes sign with beta
out=$("$AWESIM" polar $D/rect_inviscid.yaml --vsm-settings $D/vsm_settings.yaml --alpha 4:4:1 \
  --beta -5:5:5 2>/dev/null)
echo "$out" | awk -F, 'NR==2 {s1=$5} NR==4 {s3=$5} NR==3 {s2=$5} END { exit !(NR == 4 && s1*s3 < 0 &&
  (s1+s3)*(s1+s3) < 1e-18 && s2*s2 < 1e-20) }' && ok || bad "beta sweep"

# the comparison command on the Python VSM's own V3 tutorial geometry, with the peer's force
# directions: CL and CD at 5 and 10 deg within 1 % and 3 % of the peer (tests/data/vsm_peer)
out=$("$AWESIM" polar tests/data/vsm/v3_cad/aero_geometry_CAD_CFD_polars.yaml --alpha 5:10:5 \
  --panels 50 --distribution uniform --speed 3.15 --correct-aoa no 2>/dev/null)
echo "$out" | awk -F, 'NR==2 {l=0.48053599; d=0.054736254} NR==3 {l=0.82492028; d=0.088443903}
  NR>1 { el=($3-l)/l; ed=($4-d)/d; printf "  V3 CAD %s deg: CL %.4f (peer %.4f), CD %.4f (peer %.4f)\n", $1, $3, l, $4, d;
  if (el*el > 1e-4 || ed*ed > 9e-4) bad=1 } END { exit bad || NR != 3 }' && ok || bad "V3 CAD vs the peer"

# flat rectangular wing AR 10, lifting line: CL within 2% of Glauert's 2 pi a AR/(AR+2(1+tau)),
# tau = 0.17 for a rectangular wing of aspect ratio 10 (Anderson, Fundamentals of Aerodynamics)
out=$("$AWESIM" polar $D/rect_inviscid.yaml --vsm-settings $D/vsm_settings.yaml --method llt \
  --alpha 4:4:1 2>/dev/null)
echo "$out" | awk -F, 'NR==2 {
  t = 2*3.14159265358979*(4*3.14159265358979/180)*10/(10+2*1.17);
  e = ($3 - t)/t; printf "  rect AR10 LLT CL %.5f vs %.5f (%.2f%%)\n", $3, t, 100*e;
  exit (e > 0.02 || e < -0.02) }' && ok || bad "rect LLT CL"
# symmetric wing at beta = 0: CS, CMx, CMz vanish
echo "$out" | awk -F, 'NR==2 { exit !($5*$5 < 1e-20 && $6*$6 < 1e-20 && $8*$8 < 1e-20) }' && ok ||
  bad "symmetry"
# sideslip gives side force of the sign of beta's flow component
out=$("$AWESIM" polar $D/rect_inviscid.yaml --vsm-settings $D/vsm_settings.yaml --alpha 4:4:1 \
  --beta 5 2>/dev/null)
echo "$out" | awk -F, 'NR==2 { exit !($5*$5 > 0) }' && ok || bad "sideslip side force"

# spanwise: one row per angle and panel
n=$("$AWESIM" polar $D/rect_inviscid.yaml --vsm-settings $D/vsm_settings.yaml --alpha 0:2:1 \
  --panels 12 --spanwise 2>/dev/null | tail -n +2 | wc -l)
[ "$n" -eq 36 ] && ok || bad "spanwise rows $n"

# non-convergence: exit 1, rows still written with converged=0
out=$("$AWESIM" polar $D/rect_inviscid.yaml --vsm-settings $D/vsm_maxiter2.yaml --alpha 2:4:1 2>/tmp/polar_err.$$)
rc=$?
[ $rc -eq 1 ] && echo "$out" | awk -F, 'NR>1 && $9!=0 {exit 1}' && grep -q 'did not converge' /tmp/polar_err.$$ &&
  ok || bad "non-convergence rc $rc"
rm -f /tmp/polar_err.$$

# vsm_settings: artificial_damping true is an error naming the place; unused keys are warned
"$AWESIM" polar $D/rect_inviscid.yaml --vsm-settings $D/vsm_artificial_damping.yaml --alpha 1:1:1 \
  2>&1 >/dev/null | grep -q 'vsm_artificial_damping.yaml:3:.*artificial_damping: true is not supported' &&
  ok || bad "artificial_damping not rejected"
e=$("$AWESIM" polar $D/rect_inviscid.yaml --vsm-settings $D/vsm_unused_keys.yaml --alpha 1:1:1 2>&1 >/dev/null)
echo "$e" | grep -q 'wings\[1\].n_groups is not used' && echo "$e" | grep -q 'flow_curvature is not used' &&
  ok || bad "unused vsm_settings keys not warned"

# solver default: Newton where no settings file chooses solver_type (the 20-panel flat wing of
# the VSM speed comparison, copied away from its vsm_settings.yaml): the polar equals
# --solver newton byte for byte and the relaxed loop's within the loop's default rtol (1e-5)
# in every coefficient (2.4e-6 found); a settings
# file that names LOOP keeps the loop
W=$(mktemp -d)
cp $D/rect_inviscid.yaml "$W/wing.yaml"
A="--panels 20 --distribution uniform --alpha 0:19.9:0.1"
"$AWESIM" polar "$W/wing.yaml" $A >"$W/def.csv" 2>/dev/null
"$AWESIM" polar "$W/wing.yaml" $A --solver newton >"$W/newton.csv" 2>/dev/null
"$AWESIM" polar "$W/wing.yaml" $A --solver loop >"$W/loop.csv" 2>/dev/null
cmp -s "$W/def.csv" "$W/newton.csv" && ok || bad "default solver without settings is not newton"
paste -d, "$W/def.csv" "$W/loop.csv" | awk -F, 'NR>1 { for (i = 3; i <= 8; i++) {
  d = $i - $(i + 10); if (d < 0) d = -d; if (d > m) m = d } n++ }
  END { printf "  default vs loop: %d angles, max |difference| %.2g\n", n, m; exit !(n == 200 && m <= 1e-5) }' &&
  ok || bad "default (newton) and loop polars differ by more than 1e-5"
printf 'solver_settings:\n  rtol: 1.0e-5\n' >"$W/vsm_settings.yaml"
"$AWESIM" polar "$W/wing.yaml" $A >"$W/def2.csv" 2>/dev/null
cmp -s "$W/def2.csv" "$W/newton.csv" && ok || bad "settings without solver_type: not newton"
printf 'solver_settings:\n  solver_type: LOOP\n' >"$W/vsm_settings.yaml"
"$AWESIM" polar "$W/wing.yaml" $A >"$W/def3.csv" 2>/dev/null
cmp -s "$W/def3.csv" "$W/loop.csv" && ok || bad "settings with solver_type LOOP: not the loop"
rm -rf "$W"

# --probe: five columns per point after the usual ten, which stay as they were; on the flat wing
# (span 10 m, chord 1 m, z = 0) at 4 deg the flow 1 m below the quarter chord is slower than
# the apparent wind and turned down, 1 m above it faster by a comparable amount; 1000 km to the
# side it is the apparent wind; the first ten columns equal those of the run without --probe
S="--vsm-settings $D/vsm_settings.yaml --alpha 4:4:1 --speed 10"
plain=$("$AWESIM" polar $D/rect_inviscid.yaml $S 2>/dev/null)
out=$("$AWESIM" polar $D/rect_inviscid.yaml $S --probe '0.25,0,-1;0.25,0,1' --probe 0,1e6,0 2>/dev/null)
rc=$?
echo "$out" | head -1 | grep -qx 'alpha\[deg\],beta\[deg\],CL,CD,CS,CMx,CMy,CMz,converged,start,probe1_u\[m/s\],probe1_v\[m/s\],probe1_w\[m/s\],probe1_speed_ratio,probe1_flow_angle\[deg\],probe2_u\[m/s\],probe2_v\[m/s\],probe2_w\[m/s\],probe2_speed_ratio,probe2_flow_angle\[deg\],probe3_u\[m/s\],probe3_v\[m/s\],probe3_w\[m/s\],probe3_speed_ratio,probe3_flow_angle\[deg\]' &&
  ok || bad "probe header"
[ $rc -eq 0 ] && [ "$(echo "$out" | tail -1 | cut -d, -f1-10)" = "$(echo "$plain" | tail -1)" ] &&
  ok || bad "probe: the first ten columns changed (rc $rc)"
echo "$out" | awk -F, -v ux="$(awk 'BEGIN { printf "%.12g", 10*cos(4*atan2(1,1)/45) }')" 'NR==2 {
  db = $11 - ux; dt = $16 - ux; s = db + dt; if (s < 0) s = -s;
  printf "  probe 1 m below / above: du %.4f / %+.4f m/s, ratio %.4f / %.4f, angle %.3f / %.3f deg; far %.9f\n", db, dt, $14, $19, $15, $20, $24;
  exit !(db < -0.1 && dt > 0.1 && s < 0.15*(-db) && $14 < 1 && $19 > 1 && $15 < 0 &&
    $24 > 1 - 1e-9 && $24 < 1 + 1e-9 && $25*$25 < 1e-12 && $22*$22 < 1e-18) }' &&
  ok || bad "probe values"
for a in "1,2" "1,2,3;" "1,x,3" "1,2,3;;4,5,6" "inf,0,0"; do
  e=$("$AWESIM" polar $D/rect_inviscid.yaml $S --probe "$a" 2>&1 >/dev/null)
  [ $? -eq 2 ] && echo "$e" | grep -qF -- "--probe '$a'" && ok || bad "malformed --probe '$a': $e"
done
"$AWESIM" polar $D/rect_inviscid.yaml $S --probe 0,0,1 --spanwise >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--probe with --spanwise"
"$AWESIM" polar --help | grep -q -- '--probe X,Y,Z' && ok || bad "--probe not in --help"

# bad options and files
"$AWESIM" polar $D/rect_inviscid.yaml --alpha 5:1:1 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "alpha range"
"$AWESIM" polar $D/rect_inviscid.yaml --method vlm >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "method"
"$AWESIM" polar $D/rect_inviscid.yaml --panels 0 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "panels"
"$AWESIM" polar $D/rect_inviscid.yaml --ref-point 1,2 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "ref-point 2 values"
"$AWESIM" polar $D/rect_inviscid.yaml --correct-aoa maybe >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "correct-aoa"
"$AWESIM" polar $D/rect_inviscid.yaml --beta 0:95:5 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "beta range"
"$AWESIM" polar $D/nope.yaml >/dev/null 2>&1; [ $? -eq 66 ] && ok || bad "missing file"
"$AWESIM" polar tests/data/polar/vsm_settings.yaml >/dev/null 2>&1; [ $? -eq 65 ] && ok || bad "not aero"

echo "polar_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
