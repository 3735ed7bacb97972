#!/bin/sh
# plot_overlay.sh: tools/awesim-plot A.h5 B.h5 overlays runs in one figure (issue 39, item 5):
# two logs of scenarios/pendulum.yaml (two --set values) give one PNG whose panels hold a line
# of each log, labelled by file name or --label, axis labels with units (--dump lists panels
# and lines); --channels works across the logs; a wrong number of --label is a usage error.
# A sweep summary's x axis defaults to the swept key (not a key held at one value).
# Skipped without a Python 3 that has numpy, h5py and matplotlib.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib/cli.sh
PY=$(tools/find-python --quiet) || {
  echo "SKIP plot_overlay: no Python 3 with numpy, h5py and matplotlib"
  echo "plot_overlay: 0 passed, 0 failed"
  exit 0
}
PLOT="$PY tools/awesim-plot"

check "pendulum 2 s" 0 "$AWESIM" simulate -q scenarios/pendulum.yaml --set run.duration=2 \
  -o "$tmp/short.h5"
check "pendulum 3 s, 0.02 s steps" 0 "$AWESIM" simulate -q scenarios/pendulum.yaml \
  --set run.duration=3 --set run.dt=0.02 -o "$tmp/long.h5"

# file names label the lines
# shellcheck disable=SC2086
check "overlay by file name" 0 $PLOT "$tmp/short.h5" "$tmp/long.h5" -o "$tmp/ov.png" --dump
cp "$tmp/out" "$tmp/dump1"
[ -s "$tmp/ov.png" ] && ok || bad "overlay PNG written"
"$PY" - "$tmp/ov.png" >"$tmp/py" 2>&1 <<'PYEOF'
import sys
import matplotlib.image as im
a = im.imread(sys.argv[1])
assert a.shape[1] == 1600 and a.shape[0] == 1000, a.shape
assert len({tuple(p) for p in a.reshape(-1, a.shape[2])[::97]}) > 2
print("OK")
PYEOF
grep_in "PNG 1600x1000, not blank" "$tmp/py" '^OK$'
grep_in "a line of short.h5 (201 rows)" "$tmp/dump1" "^line	[^	]+	short\.h5: bob\.z	201$"
grep_in "a line of long.h5 (151 rows)" "$tmp/dump1" "^line	[^	]+	long\.h5: bob\.z	151$"
grep_in "axis labels with units" "$tmp/dump1" "^panel	points/pos	x=time \[s\]	y=pos \[m\]$"

# --label, --channels: one panel, the two lines under their labels
# shellcheck disable=SC2086
check "overlay with --label and --channels" 0 $PLOT "$tmp/short.h5" "$tmp/long.h5" \
  --label "L 1 m" --label "L 2" -c 'segments.rod.force' -o "$tmp/ov2.png" --dump
grep_in "--label A" "$tmp/out" "^line	segments\.rod\.force	L 1 m	201$"
grep_in "--label B" "$tmp/out" "^line	segments\.rod\.force	L 2	151$"
grep_in "channel panel: unit on the axis" "$tmp/out" "y=segments\.rod\.force \[N\]$"
[ "$(grep -c '^line' "$tmp/out")" -eq 2 ] && ok || bad "exactly two lines"
# the default output name
# shellcheck disable=SC2086
check "default output name" 0 $PLOT "$tmp/short.h5" "$tmp/long.h5"
[ -s "$tmp/short_overlay.png" ] && ok || bad "RUN_overlay.png written"

# usage errors
# shellcheck disable=SC2086
check "one --label for two logs" 2 $PLOT "$tmp/short.h5" "$tmp/long.h5" --label A -o "$tmp/x.png"
grep_in "--label count message" "$tmp/err" "--label given 1 times for 2 logs"
# shellcheck disable=SC2086
check "--label with one log" 2 $PLOT "$tmp/short.h5" --label A -o "$tmp/x.png"
# shellcheck disable=SC2086
check "missing second log" 66 $PLOT "$tmp/short.h5" "$tmp/nope.h5" -o "$tmp/x.png"

# a sweep summary: b is swept, a held at one value (and the last key): x = b
mkdir -p "$tmp/sw"
cat >"$tmp/sw/summary.csv" <<'CSV'
point,settings.environment.v_wind,run.duration,status,force_mean[N],force_max[N]
0,6,20,complete,10,12
1,8,20,complete,20,25
2,10,20,complete,30,38
CSV
# shellcheck disable=SC2086
check "sweep summary plot" 0 $PLOT "$tmp/sw" -o "$tmp/sw.png" --dump
grep_in "x axis: the swept key" "$tmp/out" "^panel	[^	]*	x=settings\.environment\.v_wind	y=force_mean\[N\]$"
grep_not "no legend per held key" "$tmp/out" "run\.duration="

echo "plot_overlay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
