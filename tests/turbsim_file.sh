#!/bin/sh
# turbsim_file.sh: a real TurbSim output (tests/data/turbsim/TurbSim_FAST.bts, PROVENANCE.md
# there) from the command line:
#   - `awesim wind info` prints the grid openfast_toolbox's TurbSimFile reads (100 steps of
#     0.05 s at u_hub 8 m/s: x every 0.4 m, y -75 ... 75, z 15 ... 165 m), periodic (ID 8);
#   - the tethered aerostat (lines without drag: the box starts at z = 15 m) flies 10 s in it,
#     twice the box's 4.95 s: it repeats along x. At t = 0 the balloon at (0, 0, 50) m sees the
#     mean 8 m/s along x plus the box's time step 0 interpolated between z 15 and 90 m at y 0,
#     the peer's fluctuation (-1.04497633, -0.28655338, 0.38063763) m/s: its drag, relative to
#     the drag without the box, is |W| W / 8^2 per component (TurbSim's v along awesim's +y).
. "$(dirname "$0")/lib/cli.sh"
bts=$root/tests/data/turbsim/TurbSim_FAST.bts

check info 0 "$AWESIM" wind info "$bts"
grep_in info "$tmp/out" '^points: 100 x 3 x 3$'
grep_in info "$tmp/out" '^spacing: 0\.4 75 75 m$'
grep_in info "$tmp/out" '^x: -39\.6 \.\.\. 0 m \(periodic\)$'
grep_in info "$tmp/out" '^y: -75 \.\.\. 75 m$'
grep_in info "$tmp/out" '^z: 15 \.\.\. 165 m$'
grep_in info "$tmp/out" 'u_hub 8 m/s at 90 m'
# every point's time mean removed: the box's mean is round-off
grep_in info "$tmp/out" '^mean u v w: -?[0-9.]+e-0[6-9] '

scen() {
  cat >"$1" <<EOF2
awesim: 1
name: turbsim_aerostat
model: $root/models/aerostat/system.yaml
run: {duration: 10, dt: 0.1, solver: trbdf2, abs_tol: 1.0e-4, rel_tol: 1.0e-4}
inputs:
  - {input: winches.main_winch.brake, type: constant, value: 1.0}
  - {input: points.balloon.force.z, type: constant, value: 40.0}
$2
EOF2
}
scen "$tmp/box.yaml" "wind: {field: $bts}"
scen "$tmp/calm.yaml" ""
csv='time,points.balloon.force.x,points.balloon.force.y,points.balloon.force.z'
check flight 0 "$AWESIM" simulate "$tmp/box.yaml" --no-hdf5 --set settings.tether.cd_tether=0 \
  --csv="$csv"
cp "$tmp/out" "$tmp/box.csv"
check mean_wind 0 "$AWESIM" simulate "$tmp/calm.yaml" --no-hdf5 --set settings.tether.cd_tether=0 \
  --csv="$csv"
cp "$tmp/out" "$tmp/calm.csv"
r=$(tail -n 1 "$tmp/box.csv" | cut -d, -f1)
[ "$r" = 10 ] && ok || bad "flight: ends at t = $r s, not 10 s"
# drag(box) / drag(mean) at t = 0, per component; z: the drag is force.z minus the calm run's
# weight and lift, so (z_box - z_calm) / x_calm
r=$(awk -F, 'NR == FNR && FNR == 2 { bx = $2; by = $3; bz = $4 } NR != FNR && FNR == 2 {
  W0 = 8 - 1.04497633; W1 = -0.28655338; W2 = 0.38063763; n = sqrt(W0 * W0 + W1 * W1 + W2 * W2);
  e0 = bx / $2 - n * W0 / 64; e1 = by / $2 - n * W1 / 64; e2 = (bz - $4) / $2 - n * W2 / 64;
  printf "%d", (e0 * e0 < 1e-10 && e1 * e1 < 1e-10 && e2 * e2 < 1e-10) }' "$tmp/box.csv" \
  "$tmp/calm.csv")
[ "$r" = 1 ] && ok || bad "flight: the drag at t = 0 is not the peer's |W| W / 8^2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
