#!/bin/sh
# toolkit_plot.sh: tools/awesim-plot on runs of shipped scenarios (the aerostat test model and
# scenarios/default.yaml): the standard figure and --channels write PNGs of the expected size
# with more than one colour; --list, a sweep summary plot, error exits (2, 65, 66, 69, 74) and
# the re-exec from a python3 that lacks numpy/h5py/matplotlib. Logs with wings get the flight
# path in the wind window (azimuth against elevation in degrees, checked against the log), logs
# with controllers one setpoint/measure panel per loop. --compare overlays a shipped measured
# cycle on a log (the measured cycles themselves in awesim's layout: its cycle is found and
# aligned) and exits 65/66 on a missing cycle, a log without a wing, a missing file.
# (A sweep's power curve and annual energy: tests/sweep_cycles.sh.) Skipped (with the reason) when no
# Python 3 has numpy, h5py and matplotlib.
set -u
cd "$(dirname "$0")/.." || exit 2
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
PLOT=tools/awesim-plot
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() {
  name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}

# In the ASan pass of tests/run.sh only the awesim runs this file makes are repeated (exit 0,
# no sanitizer report): the plotting is Python, 23 of its 25 s of CPU, the same in both passes.
case $AWESIM in *asan*)
  for a in "simulate -q scenarios/aerostat.yaml --set run.duration=5 -o $T/a.h5" \
           "simulate -q scenarios/default.yaml --set run.duration=2 -o $T/p.h5" \
           "simulate -q scenarios/tests/two_kites.yaml --set run.duration=0.2 \
              --set run.steady_state=false -o $T/k.h5" \
           "polar tests/data/polar/rect_inviscid.yaml \
              --vsm-settings tests/data/polar/vsm_settings.yaml --alpha -4:10:2 --panels 10"; do
    # shellcheck disable=SC2086
    "$AWESIM" $a >/dev/null 2>"$T/err"
    rc=$?
    # a polar exits 1 when an angle did not converge (as in the Python pass, not checked here)
    if { [ $rc -eq 0 ] || { [ $rc -eq 1 ] && [ "${a%% *}" = polar ]; }; } && ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$T/err"
    then ok; else bad "awesim $a: exit $rc: $(head -5 "$T/err")"; fi
  done
  echo "toolkit_plot: the awesim runs only under ASan"
  echo "toolkit_plot: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]; exit ;;
esac

PY=$(tools/find-python) || {
  echo "SKIP toolkit_plot: no Python 3 with numpy, h5py and matplotlib (tools/install-deps" \
    "installs python3-numpy python3-h5py python3-matplotlib)"
  echo "0 passed, 0 failed"
  exit 0
}

# png_ok FILE W H: a PNG of W x H pixels that is not blank (more than one colour)
png_ok() {
  "$PY" - "$1" "$2" "$3" <<'EOF'
import sys
import numpy as np
import matplotlib.image as mpimg
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "rb") as f:
    head = f.read(24)
if head[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit(f"{path}: not a PNG")
pw, ph = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
if (pw, ph) != (w, h):
    sys.exit(f"{path}: {pw}x{ph}, expected {w}x{h}")
img = mpimg.imread(path)
colours = len(np.unique(img.reshape(-1, img.shape[-1]), axis=0))
if colours < 2:
    sys.exit(f"{path}: a single colour")
EOF
}

# runs of shipped scenarios
"$AWESIM" simulate -q scenarios/aerostat.yaml --set run.duration=5 -o "$T/a.h5" 2>"$T/err"
check "simulate the aerostat: $(cat "$T/err")" [ -s "$T/a.h5" ]
"$AWESIM" simulate -q scenarios/default.yaml --set run.duration=2 -o "$T/p.h5" 2>"$T/err"
check "simulate the pendulum: $(cat "$T/err")" [ -s "$T/p.h5" ]

# standard figure, default name and size
"$PLOT" "$T/a.h5" 2>"$T/err"
rc=$?
check "standard figure exit $rc: $(cat "$T/err")" [ "$rc" -eq 0 ]
check "standard figure: 1600x1000 PNG beside the log, not blank" png_ok "$T/a.png" 1600 1000
"$PLOT" "$T/p.h5" -o "$T/p.png" --size 900x500 2>"$T/err"
check "pendulum figure --size 900x500: $(cat "$T/err")" png_ok "$T/p.png" 900 500

# chosen channels
"$PLOT" "$T/a.h5" -o "$T/c.png" --size 640x480 \
  --channels 'winches.*.force,points.balloon.pos.z,tethers.main_tether.len' 2>"$T/err"
check "--channels: $(cat "$T/err")" png_ok "$T/c.png" 640 480
"$PLOT" "$T/a.h5" -o - --channels points.balloon.pos >"$T/stdout.png" 2>"$T/err"
check "-o - writes the PNG to stdout" png_ok "$T/stdout.png" 1600 1000
"$PLOT" "$T/a.h5" -o "$T/c.svg" --channels 'winches.main_winch.force' 2>"$T/err"
check "svg output" grep -q '<svg' "$T/c.svg"

# a log with wings (written here in the wing-channel layout: /wings/pos, elevation, azimuth,
# heading, course, aoa in rad): every standard panel
"$PY" - "$T/w.h5" <<'EOF'
import sys
import h5py
import numpy as np
t = np.linspace(0, 40, 400)
el, az = np.radians(40 + 10 * np.sin(t / 1.6)), np.radians(25 * np.sin(t / 3.2))
r = 200 + 2 * t
pos = np.stack([r * np.cos(el) * np.cos(az), -r * np.cos(el) * np.sin(az), r * np.sin(el)], -1)
with h5py.File(sys.argv[1], "w") as f:
    f.attrs["status"] = np.bytes_("complete")
    f["scenario"] = np.bytes_("awesim: 1\nname: kite\n")
    def ds(path, a, unit, names=None):
        f[path] = a
        f[path].attrs["units"] = np.bytes_(unit)
        if names:
            f[path].parent.attrs["names"] = np.array([n.encode() for n in names])
    ds("time", t, "s")
    ds("points/pos", np.stack([0 * pos, 0.98 * pos], 1), "m", ["ground", "kcu"])
    ds("wings/pos", pos[:, None], "m", ["kite"])
    for n, a in (("elevation", el), ("azimuth", az), ("heading", 3 * az),
                 ("course", 3 * az + 0.2), ("aoa", np.radians(8 + np.sin(t)))):
        ds("wings/" + n, a[:, None], "rad")
    ds("winches/force", (3000 + 800 * np.sin(t))[:, None], "N", ["main"])
    ds("winches/vel", np.full((t.size, 1), 2.0), "m/s")
    ds("tethers/len", r[:, None], "m", ["main"])
    # two control loops (the controllers' layout: /controllers/setpoint, measure [T, N], names on the
    # group) and a quantity only the second has (its own names on the dataset)
    hd = 3 * az
    ds("controllers/setpoint", np.stack([0 * t, np.full(t.size, 3000.0)], 1), "-",
       ["heading_hold", "winch"])
    ds("controllers/measure", np.stack([hd, 3000 + 800 * np.sin(t)], 1), "-")
    ds("controllers/phase", (t > 20).astype(float)[:, None], "-")
    f["controllers/phase"].attrs["names"] = np.array([b"winch"])
EOF
"$PLOT" "$T/w.h5" -o "$T/w.png" 2>"$T/err"
check "figure of a log with wings: $(cat "$T/err")" png_ok "$T/w.png" 1600 1000
"$PLOT" "$T/w.h5" --list-panels >"$T/panels" 2>"$T/err"
check "wings: wind window panel" grep -qx 'flight path in the wind window' "$T/panels"
check "controllers: heading_hold loop" grep -qx 'controller heading_hold: setpoint and measure' "$T/panels"
check "controllers: winch loop" grep -qx 'controller winch: setpoint and measure' "$T/panels"
check "controllers: one panel per loop" test "$(grep -c 'heading_hold' "$T/panels")" -eq 1
"$PLOT" "$T/w.h5" --list >"$T/list" 2>"$T/err"
check "--list: a dataset's own names" grep -qx 'controllers.winch.phase \[-\]' "$T/list"
check "--list: controller channel" grep -qx 'controllers.heading_hold.measure \[-\]' "$T/list"
# the wind window's numbers: azimuth and elevation of the log in degrees
"$PY" - "$PLOT" "$T/w.h5" <<'EOF' 2>"$T/err"
import importlib.machinery, importlib.util, sys
import h5py
import numpy as np
loader = importlib.machinery.SourceFileLoader("awesim_plot", sys.argv[1])
spec = importlib.util.spec_from_loader("awesim_plot", loader)
mod = importlib.util.module_from_spec(spec)
loader.exec_module(mod)
log = mod.Log(sys.argv[2])
(name, az, el), = mod.wind_window(log)
with h5py.File(sys.argv[2]) as f:
    az0, el0 = np.degrees(f["wings/azimuth"][:, 0]), np.degrees(f["wings/elevation"][:, 0])
assert name == "kite", name
assert np.abs(az - az0).max() < 1e-12 and np.abs(el - el0).max() < 1e-12
assert abs(el.max() - 50.0) < 0.01 and abs(az.min() + 25.0) < 0.01, (el.max(), az.min())
(t1, _), (t2, _) = mod.controller_panels(log)
assert t1 == "controller heading_hold: setpoint and measure", t1
EOF
check "wind window data = the log's angles in degrees: $(cat "$T/err")" [ ! -s "$T/err" ]

# a real run with two wings (scenarios/tests/two_kites.yaml): both in the wind window
"$AWESIM" simulate -q scenarios/tests/two_kites.yaml --set run.duration=0.2 \
  --set run.steady_state=false -o "$T/k.h5" 2>"$T/err"
check "simulate two kites: $(cat "$T/err")" [ -s "$T/k.h5" ]
"$PLOT" "$T/k.h5" -o "$T/k.png" --size 1000x700 2>"$T/err"
check "two kites figure: $(cat "$T/err")" png_ok "$T/k.png" 1000 700
"$PLOT" "$T/k.h5" --list-panels >"$T/panels" 2>"$T/err"
check "two kites: wind window panel" grep -qx 'flight path in the wind window' "$T/panels"

# --list: the CSV channel names with units
"$PLOT" "$T/a.h5" --list >"$T/list" 2>"$T/err"
check "--list: winch force" grep -qx 'winches.main_winch.force \[N\]' "$T/list"
check "--list: balloon position" grep -qx 'points.balloon.pos.z \[m\]' "$T/list"
# the channel names agree with awesim's CSV header
"$AWESIM" simulate -q scenarios/aerostat.yaml --set run.duration=0.2 --no-hdf5 --csv \
  2>/dev/null | head -1 | tr ',' '\n' | sed 's/\[.*//' | grep -v '^time$' | sort >"$T/csv_names"
sed 's/ \[.*//' "$T/list" | sort >"$T/plot_names"
check "--list names = the CSV header's names" cmp -s "$T/csv_names" "$T/plot_names"

# a sweep summary
mkdir -p "$T/sw"
cat >"$T/sw/summary.csv" <<'EOF'
point,a.b,settings.environment.v_wind,status,exit_code,force_mean[N],force_max[N],power_mean[W],elevation_final[deg],t_end[s],wall_time[s],realtime_factor,steps,rhs_calls,scenario,hdf5,error
1,1,4,complete,0,10,12,0,80,10,0.1,100,1,1,x,,
2,1,8,complete,0,20,25,0,60,10,0.1,100,1,1,x,,
3,2,4,complete,0,15,18,0,70,10,0.1,100,1,1,x,,
4,2,8,failed,1,,,,,,,,,,x,,boom
EOF
"$PLOT" "$T/sw" --size 800x600 2>"$T/err"
check "sweep plot: $(cat "$T/err")" png_ok "$T/sw/summary.png" 800 600
"$PLOT" "$T/sw/summary.csv" -o "$T/sw2.png" --x a.b --by settings.environment.v_wind --y force_max 2>"$T/err"
check "sweep plot --x --by --y: $(cat "$T/err")" png_ok "$T/sw2.png" 1600 1000
"$PLOT" "$T/sw" --y nosuch -o "$T/x.png" 2>"$T/err"
check "sweep plot: unknown column exit 2" [ $? -eq 2 ]

# a polar CSV of awesim polar, with another polar (the recorded Python VSM table) on its axes;
# unconverged rows are left out and counted in the legend
"$AWESIM" polar tests/data/polar/rect_inviscid.yaml --vsm-settings tests/data/polar/vsm_settings.yaml \
  --alpha -4:10:2 --panels 10 >"$T/pol.csv" 2>/dev/null
"$PLOT" "$T/pol.csv" --with tests/data/vsm_peer/v3_cfd_alpha.csv -o "$T/pol.png" --size 640x480 2>"$T/err"
check "polar plot: $(cat "$T/err")" png_ok "$T/pol.png" 640 480
"$PLOT" "$T/pol.csv" --size 320x240 2>"$T/err" && check "polar plot default name" png_ok "$T/pol.png" 320 240
"$PLOT" "$T/a.h5" --with "$T/pol.csv" -o "$T/x.png" 2>"$T/err"
check "--with on an HDF5 log: exit 2" [ $? -eq 2 ]

# errors and exit codes
"$PLOT" "$T/a.h5" --channels 'points.balloon.pos.q' -o "$T/x.png" 2>"$T/err"
rc=$?
check "pattern without match: exit $rc (2)" [ "$rc" -eq 2 ]
check "pattern without match: suggestion" grep -q "did you mean 'points.balloon.pos.z'" "$T/err"
"$PLOT" "$T/nope.h5" 2>"$T/err"
check "missing file: exit 66" [ $? -eq 66 ]
printf 'not hdf5\n' >"$T/bad.h5"
"$PLOT" "$T/bad.h5" 2>"$T/err"
check "not an HDF5 file: exit 65" [ $? -eq 65 ]
"$PLOT" "$T/a.h5" -o "$T/no/such/dir/x.png" 2>"$T/err"
check "unwritable output: exit 74" [ $? -eq 74 ]
"$PLOT" "$T/a.h5" --size 10 2>"$T/err"
check "bad --size: exit 2" [ $? -eq 2 ]
check "help" sh -c "'$PLOT' --help | grep -q 'Exit status'"

# --compare: a measured cycle over a simulated one. The "simulated" log is the measured cycles
# 40-41 written in awesim's HDF5 layout (force in N), so its first full cycle is cycle 40 of
# tests/data/flight_2019/cycle_stats.csv (131.1 s from 1570536826.2 s)
"$PY" - "$T/f.h5" tests/data/flight_2019/20191008_0040.csv tests/data/flight_2019/20191008_0041.csv <<'EOF'
import csv, sys
import numpy as np, h5py
rows = []
for p in sys.argv[2:]:
    r = list(csv.DictReader(open(p)))
    rows += r[1:] if rows and r[0]["time"] == rows[-1]["time"] else r
col = lambda k: np.array([float(x[k]) for x in rows])
with h5py.File(sys.argv[1], "w") as f:
    f["time"] = col("time")
    f["winches/force"] = (col("ground_tether_force") * 9.81)[:, None]
    f["winches/vel"] = col("ground_tether_reelout_speed")[:, None]
    f["wings/elevation"] = col("kite_elevation")[:, None]
    f["wings/azimuth"] = col("kite_azimuth")[:, None]
    va = col("airspeed_apparent_windspeed")
    f["wings/va"] = np.stack([va, 0 * va, 0 * va], 1)[:, None, :]
    f["wings/vel"] = np.stack([col("kite_0_vx"), col("kite_0_vy"), col("kite_0_vz")], 1)[:, None, :]
EOF
"$PLOT" --compare tests/data/flight_2019/20191008_0040.csv "$T/f.h5" -o "$T/cmp.png" \
  --size 800x700 2>"$T/err"
rc=$?
check "--compare: exit $rc: $(cat "$T/err")" [ "$rc" -eq 0 ]
check "--compare: PNG 800x700" png_ok "$T/cmp.png" 800 700
check "--compare: says what it wrote: $(cat "$T/err")" grep -q "^awesim-plot: wrote $T/cmp.png: " "$T/err"
check "--compare: the simulated cycle is cycle 40 (131.10 s from 1570536826.20 s): $(cat "$T/err")" \
  grep -q "simulated: cycle 1 of 1 from t = 1570536826.20 s for 131.10 s" "$T/err"
check "--compare: the measured file has no full cycle: from 3.3 s to its end" \
  grep -q "measured: 20191008_0040.csv from 3.3 s after its first row for 128.1 s (no full" "$T/err"
"$PLOT" --compare tests/data/flight_2019/20191008_0040.csv "$T/f.h5" --cycle 2 -o "$T/c2.png" \
  2>"$T/err"
rc=$?
check "--compare --cycle 2 of 1: exit $rc (65)" [ "$rc" -eq 65 ]
check "--compare --cycle 2: says how many there are" grep -q "1 full pumping cycle(s), cycle 2" "$T/err"
"$PLOT" --compare "$T/none.csv" "$T/f.h5" -o "$T/c3.png" 2>"$T/err"
check "--compare, missing flight file: exit 66" [ $? -eq 66 ]
"$PLOT" --compare tests/data/flight_2019/20191008_0040.csv "$T/a.h5" -o "$T/c4.png" 2>"$T/err"
rc=$?
check "--compare on a log without a wing: exit $rc (65)" [ "$rc" -eq 65 ]
check "--compare on a log without a wing: says so" grep -q "needs a log with a winch and a wing" "$T/err"

# a python3 without the modules (here: one started with -S, which hides dist-packages):
# the script re-runs itself with one that has them, or says what is missing (exit 69)
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PY" >"$T/bin/python3"
chmod +x "$T/bin/python3"
PATH="$T/bin:$PATH" "$T/bin/python3" "$PLOT" "$T/a.h5" -o "$T/re.png" --size 300x200 2>"$T/err"
check "re-exec with a python3 that has the modules: $(cat "$T/err")" png_ok "$T/re.png" 300 200
PATH="$T/bin:$PATH" AWESIM_PLOT_REEXEC=1 "$T/bin/python3" "$PLOT" "$T/a.h5" -o "$T/x.png" 2>"$T/err"
rc=$?
check "no python3 with the modules: exit $rc (69)" [ "$rc" -eq 69 ]
check "no python3 with the modules: says which packages" grep -q 'apt-get install python3-numpy python3-h5py python3-matplotlib' "$T/err"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
