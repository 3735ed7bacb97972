#!/bin/sh
# v3kite_jl.sh: V3Kite.jl's main model (models/v3kite_jl, its data/ files unchanged: a particle
# wing of 10 LE/TE point pairs under a 37-section aero mesh of 72 BILLOWING panels, a 23.25 kg
# KCU, 100 m of tether at a braked winch) loads and flies 20 s (issue 39 item 3):
#   - check of the structure file: exit 0, 37 aero sections over 20 WING points, the pre-v0.11
#     init_unstretched_length accepted with its note; of the scenario: exit 0
#   - check of the files that are not models: V3Kite's data/system.yaml (names only its settings)
#     says the structure is built in Julia and points at the struc_geometry.yaml beside it;
#     settings.yaml and vsm_settings.yaml say what kind of file they are and where they go
#   - simulate scenarios/v3kite_jl.yaml (the model's own 8 m/s): complete, 400 VSM refreshes of
#     which fewer than 25 % fail to converge (measured 58: the wing is partly stalled), elevation
#     in [45, 60] deg at 20 s (measured 50.8: the kite, too heavy for 8 m/s, sinks from 69.4),
#     the wing above 50 m throughout (measured 66 m at 20 s; 80 m in 10 m/s)
#   - the same in 10 m/s (V3Kite.jl's V3SimConfig default): elevation in [50, 62] deg at 20 s
#     (measured 56.1) and the tether loaded, winch force > 300 N (measured 604 N)
#   - a 2plate particle wing whose aero mesh subdivides its patches flies like the equal mesh
# The VSM's resultant and moment reach the structural points exactly (1e-9 relative at a
# refresh): tests/test_v3kite_jl.c.
. tests/lib/cli.sh

D=models/v3kite_jl
S=scenarios/v3kite_jl.yaml

check struct 0 "$AWESIM" check "$D/struc_geometry.yaml"
grep_in struct "$tmp/out" '^aero: +37 sections, 19 airfoils'
grep_in struct "$tmp/out" 'PARTICLE_DYNAMICS, AeroLinearized, 20 WING points'
grep_in struct "$tmp/err" "init_unstretched_length \\(SymbolicAWEModels < v0.11\\) read as init_stretched_length 100 m"
check scenario 0 "$AWESIM" check "$S"

check system-settings-only 65 "$AWESIM" check "$D/system.yaml"
grep_in system-settings-only "$tmp/err" 'names no structural geometry'
grep_in system-settings-only "$tmp/err" 'builds in Julia code'
grep_in system-settings-only "$tmp/err" "awesim check $D/struc_geometry.yaml"
check settings-file 65 "$AWESIM" check "$D/settings.yaml"
grep_in settings-file "$tmp/err" 'is a settings file'
check vsm-settings-file 65 "$AWESIM" check "$D/vsm_settings.yaml"
grep_in vsm-settings-file "$tmp/err" 'it is a VSM settings file'

# elevation [deg] and wing height [m] of the last row; the lowest wing height of the run
fly() {
  name=$1
  shift
  check "$name" 0 "$AWESIM" simulate "$S" --no-hdf5 --summary-json "$tmp/$name.json" "$@" \
    --csv='time,wings.1.elevation,wings.1.pos.z,winches.1.force'
  cp "$tmp/out" "$tmp/$name.csv"
  t=$(awk -F, 'END { print $1 }' "$tmp/$name.csv")
  el=$(awk -F, 'END { printf "%.3f", $2 * 180 / 3.141592653589793 }' "$tmp/$name.csv")
  zmin=$(awk -F, 'NR > 1 && (m == "" || $3 < m) { m = $3 } END { print m }' "$tmp/$name.csv")
  fw=$(awk -F, 'END { print $4 }' "$tmp/$name.csv")
  echo "    $name: t = $t s, elevation $el deg, lowest wing $zmin m, winch force $fw N"
  if [ "$t" = 20 ]; then ok; else bad "$name: ended at t = $t s"; fi
  if grep -q '"status": "complete"' "$tmp/$name.json"; then ok; else bad "$name: not complete"; fi
  if inside "$zmin" 50 1000; then ok; else bad "$name: the wing came down to $zmin m"; fi
}

fly fly-8ms
refr=$(num "$tmp/fly-8ms.json" vsm_refreshes)
vf=$(num "$tmp/fly-8ms.json" vsm_failures)
if [ "$refr" = 400 ] && inside "$vf" 0 99; then ok; else bad "fly-8ms: refreshes $refr, failed $vf"; fi
if inside "$el" 45 60; then ok; else bad "fly-8ms: elevation $el deg at 20 s"; fi

fly fly-10ms --set 'settings.environment.wind_vec=[10.0, 0.0, 0.0]'
if inside "$el" 50 62; then ok; else bad "fly-10ms: elevation $el deg at 20 s"; fi
if inside "$fw" 300 100000; then ok; else bad "fly-10ms: winch force $fw N at 20 s"; fi

# ---- a finer aero mesh that only subdivides the structure's patches flies like the equal mesh:
# the 2plate particle wing (3 LE/TE pairs) with its aero geometry's two patches split at mid-span
# (5 sections on the straight lines between the 3; LINEAR, 10 panels either way): at the settled
# state the aerodynamic force and pitching moment agree within 1e-4 (measured 3e-5 and 2e-5:
# the VSM's panels sit a little differently on 4 given panels than on 2), and after 5 s of
# flight the elevation within 2e-3 rad and the winch force within 1 % (measured 2.7e-4 rad,
# 0.06 %)
mkdir -p "$tmp/m" && cp -r models/2plate_kite/. "$tmp/m/"
awk '{ print }
     /^    - \[1, -0.5, 1.0, 2.0, 0.5, 1.0, 2.3\]/ { print "    - [1, -0.5, 0.5, 2.25, 0.5, 0.5, 2.55]" }
     /^    - \[1, -0.5, 0.0, 2.5, 0.5, 0.0, 2.8\]/ { print "    - [1, -0.5, -0.5, 2.25, 0.5, -0.5, 2.55]" }' \
  models/2plate_kite/aero_geometry.yaml >"$tmp/m/aero_geometry.yaml"
sed "s|\.\./models/2plate_kite/system_refine.yaml|$tmp/m/system_refine.yaml|" scenarios/2plate_refine.yaml >"$tmp/fine.yaml"
C='time,wings.main_wing.elevation,winches.main_winch.force,wings.main_wing.aero_force_b.z,wings.main_wing.aero_moment_b.y'
check 2plate-fine-check 0 "$AWESIM" check "$tmp/fine.yaml"
grep_in 2plate-fine-check "$tmp/out" '^aero: +5 sections'
check 2plate-equal 0 "$AWESIM" simulate scenarios/2plate_refine.yaml --no-hdf5 -q --set run.duration=5 --csv="$C"
cp "$tmp/out" "$tmp/equal.csv"
check 2plate-fine 0 "$AWESIM" simulate "$tmp/fine.yaml" --no-hdf5 -q --set run.duration=5 --csv="$C"
cp "$tmp/out" "$tmp/fine.csv"
cmp_rows() { # ROW: the row of both files side by side
  paste -d, "$tmp/equal.csv" "$tmp/fine.csv" | sed -n "$1p"
}
r0=$(cmp_rows 2)
r5=$(cmp_rows 102)
echo "    2plate equal | fine, t = 0: $r0"
echo "    2plate equal | fine, t = 5: $r5"
if echo "$r0" | awk -F, '{ d1 = ($4 - $9) / $4; d2 = ($5 - $10) / $5
    exit !($1 == 0 && d1 < 1e-4 && d1 > -1e-4 && d2 < 1e-4 && d2 > -1e-4) }'; then ok
else bad "2plate-fine: settled loads differ: $r0"; fi
if echo "$r5" | awk -F, '{ de = $2 - $7; df = ($3 - $8) / $3
    exit !($1 == 5 && de < 2e-3 && de > -2e-3 && df < 0.01 && df > -0.01) }'; then ok
else bad "2plate-fine: flight differs at 5 s: $r5"; fi

echo "v3kite_jl: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
