#!/bin/sh
# wind_npz.sh: AtmosphericModels.jl's .npz wind fields from the command line (io/npz_read.h):
#   - `awesim wind info` reads one numpy wrote (deflated, Fortran order) with its axes from the
#     default grid; a scenario's wind.grid_step, height_step, z_min place it, and the wind at
#     the wing is the field's value there (a field constant in x and y, linear in z);
#   - truncated, NaN, a missing array: exit 65 naming the file; a missing file: 66; the grid
#     keys without a .npz field: 65 with file:line:col.
. "$(dirname "$0")/lib/cli.sh"

# u = 0.1 z_index (along x, y constant), v = 0, w = 0: the wing at height h sees u at h
/usr/bin/python3 - "$tmp" <<'EOF' || { echo "FAIL numpy"; exit 1; }
import sys, numpy as np
d = sys.argv[1]
nx, ny, nz = 64, 32, 40
u = np.zeros((ny, nx, nz)); u[:, :, :] = 0.1 * np.arange(nz)
u = np.asfortranarray(u)
np.savez_compressed(d + '/f.npz', u=u, v=0 * u, w=0 * u, param=np.array([0.08, 8.0]))
b = open(d + '/f.npz', 'rb').read()
open(d + '/trunc.npz', 'wb').write(b[:len(b) - 40])
n = u.copy(); n[3, 5, 7] = np.nan
np.savez(d + '/nan.npz', u=n, v=u, w=u, param=np.array([0.08, 8.0]))
np.savez(d + '/nokey.npz', u=u, v=u, param=np.array([0.08, 8.0]))
EOF

check info 0 "$AWESIM" wind info "$tmp/f.npz"
grep_in info "$tmp/out" '^points: 64 x 32 x 40$'
grep_in info "$tmp/out" '^z: 0 \.\.\. 78 m$'
grep_in info "$tmp/out" 'AtmosphericModels.jl field for v_wind_gnd 8 m/s'
check trunc 65 "$AWESIM" wind info "$tmp/trunc.npz"
grep_in trunc "$tmp/err" "trunc.npz: .*truncated"
check nan 65 "$AWESIM" wind info "$tmp/nan.npz"
grep_in nan "$tmp/err" "nan.npz: u\[3, 5, 7\] = nan is not finite"
check nokey 65 "$AWESIM" wind info "$tmp/nokey.npz"
grep_in nokey "$tmp/err" "nokey.npz: no array 'w'"
check missing 66 "$AWESIM" wind info "$tmp/none.npz"

# the parked 2plate kite in the field: 4 m steps, 3 m height steps from z_min 10 m
scen() {
  cat >"$1" <<EOF
awesim: 1
name: npz_probe
model: $root/models/2plate_kite/system.yaml
transforms:
  main_transform: {elevation: 60.0, azimuth: 0.0, heading: 0.0}
run: {duration: 0.5, dt: 0.25, solver: trbdf2, abs_tol: 1.0e-4, rel_tol: 1.0e-4}
inputs:
  - {input: winches.main_winch.brake, type: constant, value: 1.0}
$2
EOF
}
scen "$tmp/s.yaml" "wind: {field: $tmp/f.npz, grid_step: 4, height_step: 3, z_min: -1}"
check scenario 0 "$AWESIM" simulate "$tmp/s.yaml" --no-hdf5 --csv='time,wings.main_wing.wind.x,wings.main_wing.pos.z'
# wind.x = mean + 0.1 (z + 1) / 3 at the wing's height z (linear in z: trilinear is exact)
r=$(awk -F, 'NR == 2 { m = $2 - 0.1 * ($3 + 1) / 3 } NR > 2 { e = $2 - 0.1 * ($3 + 1) / 3 - m;
  if (e < 0) e = -e; if (e > w) w = e } END { printf "%d", (NR > 2 && w < 1e-5) }' "$tmp/out")
[ "$r" = 1 ] && ok || bad "scenario: wings.*.wind.x is not the mean plus 0.1 (z + 1) / 3"
scen "$tmp/g.yaml" "wind: {grid_step: 4}"
check grid_alone 65 "$AWESIM" check "$tmp/g.yaml"
grep_in grid_alone "$tmp/err" "g.yaml:[0-9]+:[0-9]+: wind.grid_step: only a .npz field"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
