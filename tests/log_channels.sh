#!/bin/sh
# log_channels.sh: the scenario keys output.channels (globs choosing the logged channels, HDF5
# and CSV; a pattern that matches nothing is an error at its file:line, also for `check`) and
# output.compression / output.compression_level (deflate, shuffle+deflate: the log reads back
# identically and is smaller; bad values are errors). Issue 39, item 5. Needs h5py (skipped
# without it).
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib/cli.sh
PY=$(tools/find-python --quiet --modules numpy,h5py) || {
  echo "SKIP log_channels: no Python 3 with numpy and h5py"
  echo "log_channels: 0 passed, 0 failed"
  exit 0
}

# a scenario file with the aerostat model and the given output: lines
scen() {
  f=$tmp/$1.yaml
  shift
  {
    echo "awesim: 1"
    echo "name: aerostat"
    echo "model: $root/models/aerostat/system.yaml"
    echo "settings: {environment: {v_wind: 8.0}}"
    echo "run: {duration: 20.0, dt: 0.1}"
    echo "inputs:"
    echo "  - {input: winches.main_winch.brake, type: constant, value: 1.0}"
    echo "  - {input: points.balloon.force.z, type: constant, value: 60.0}"
    echo "output:"
    for l in "$@"; do echo "  $l"; done
  } >"$f"
}

# 1. the full log, for reference
scen full "hdf5: $tmp/full.h5"
check "full log" 0 "$AWESIM" simulate -q "$tmp/full.yaml"

# 2. selected channels: two points not next to each other (the writer gathers), the winch
#    group, the wind; only those and time
scen sel "hdf5: $tmp/sel.h5" \
  'channels: ["points/winch/pos", "points/main_tether_point_2/pos", "winches/*", "tethers.*.len"]'
check "selected channels" 0 "$AWESIM" simulate -q "$tmp/sel.yaml"
"$PY" - "$tmp/sel.h5" "$tmp/full.h5" >"$tmp/py" 2>&1 <<'PYEOF'
import sys, h5py, numpy as np
s, f = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
names = []
s.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
names = sorted(n for n in names if n not in ("scenario", "topology"))
print("datasets", " ".join(names))
assert "time" in names, names
assert not [n for n in names if n.split("/")[0] not in ("time", "points", "winches", "tethers")], names
assert names.count("points/pos") == 1 and not [n for n in names if n.startswith("points/") and n != "points/pos"], names
assert [n for n in names if n.startswith("winches/")], names
pn = [x.decode() for x in s["points"].attrs["names"]]
assert pn == ["winch", "main_tether_point_2"], pn
fn = [x.decode() for x in f["points"].attrs["names"]]
idx = [fn.index(n) for n in pn]
assert np.array_equal(s["points/pos"][()], f["points/pos"][()][:, idx, :]), "gathered values differ"
assert np.array_equal(s["time"][()], f["time"][()])
for n in names:
    if n.startswith("winches/") or n.startswith("tethers/"):
        assert np.array_equal(s[n][()], f[n][()]), n
assert s["points/pos"].attrs["units"] == b"m"
assert sorted(s["tethers"].keys()) == ["len"], list(s["tethers"].keys())
print("OK")
PYEOF
grep_in "h5 holds the selected channels only, same values" "$tmp/py" '^OK$'
# the CSV without patterns follows output.channels; with patterns it chooses among all
check "csv of the selection" 0 "$AWESIM" simulate -q "$tmp/sel.yaml" --no-hdf5 --csv
head -1 "$tmp/out" | tr ',' '\n' | grep -c . >"$tmp/ncol"
grep_in "csv header: points.winch.pos" "$tmp/out" '^time\[s\],points\.winch\.pos\.x\[m\]'
grep_not "csv header without balloon" "$tmp/out" 'points\.balloon'
check "csv patterns choose among all channels" 0 "$AWESIM" simulate -q "$tmp/sel.yaml" \
  --no-hdf5 --csv=time,points.balloon.pos.z
grep_in "csv --csv=points.balloon" "$tmp/out" '^time\[s\],points\.balloon\.pos\.z\[m\]$'

# 3. a pattern that matches nothing: exit 65 naming it and its file:line, from check too
scen nomatch "hdf5: $tmp/no.h5" 'channels: ["winches/*", "wings/kite/elevation"]'
check "unknown channel pattern" 65 "$AWESIM" simulate -q "$tmp/nomatch.yaml"
grep_in "error names the pattern at file:line" "$tmp/err" \
  "nomatch\.yaml:11:[0-9]+: output\.channels: \"wings/kite/elevation\" matches no channel"
[ ! -e "$tmp/no.h5" ] && ok || bad "no log written for a bad pattern"
check "check: unknown channel pattern" 65 "$AWESIM" check "$tmp/nomatch.yaml"
grep_in "check names the pattern" "$tmp/err" '"wings/kite/elevation" matches no channel'
scen notlist "hdf5: $tmp/no.h5" 'channels: "winches/*"'
check "channels not a list" 65 "$AWESIM" check "$tmp/notlist.yaml"
grep_in "channels: expected a list" "$tmp/err" 'notlist\.yaml:11:.*output\.channels: expected a list'

# 4. compression: identical data, smaller file, the filters asked for
for c in deflate shuffle+deflate; do
  n=$(echo "$c" | tr -c 'a-z\n' _)
  scen "$n" "hdf5: $tmp/$n.h5" "compression: $c" "compression_level: 6"
  check "compression $c" 0 "$AWESIM" simulate -q "$tmp/$n.yaml"
  "$PY" - "$tmp/$n.h5" "$tmp/full.h5" "$c" >"$tmp/py" 2>&1 <<'PYEOF'
import os, sys, h5py, numpy as np
c, f, kind = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r"), sys.argv[3]
def ds(h):
    out = []
    h.visititems(lambda n, o: out.append(n) if isinstance(o, h5py.Dataset) else None)
    return sorted(out)
assert ds(c) == ds(f)
for n in ds(f):
    if n in ("scenario", "topology"):
        continue
    a, b = c[n][()], f[n][()]
    assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True), n
    assert c[n].compression == "gzip" and c[n].compression_opts == 6, (n, c[n].compression)
    assert c[n].shuffle == (kind == "shuffle+deflate"), (n, c[n].shuffle)
    assert f[n].compression is None, n
sc, sf = os.path.getsize(sys.argv[1]), os.path.getsize(sys.argv[2])
print("size", sc, sf)
assert sc < sf, (sc, sf)
print("OK")
PYEOF
  grep_in "$c: same data, smaller, filters set" "$tmp/py" '^OK$'
done
scen badc "hdf5: $tmp/no.h5" "compression: zstd"
check "unknown compression" 65 "$AWESIM" check "$tmp/badc.yaml"
grep_in "compression error" "$tmp/err" 'badc\.yaml:11:.*"zstd" is not one of none, deflate, shuffle\+deflate'
scen badl "hdf5: $tmp/no.h5" "compression: deflate" "compression_level: 12"
check "compression level out of range" 65 "$AWESIM" check "$tmp/badl.yaml"
grep_in "level error" "$tmp/err" 'badl\.yaml:12:.*compression_level: 12 is outside 1\.\.9'
scen lnoc "hdf5: $tmp/no.h5" "compression_level: 3"
check "level without compression" 65 "$AWESIM" check "$tmp/lnoc.yaml"
grep_in "level without compression error" "$tmp/err" 'the log is not compressed'

# 5. from the command line: --set with a flow list
check "--set output.channels" 0 "$AWESIM" simulate -q "$tmp/full.yaml" -o "$tmp/set.h5" \
  --set 'output.channels=[segments/*/force, points/balloon/pos]'
"$PY" - "$tmp/set.h5" >"$tmp/py" 2>&1 <<'PYEOF'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
assert sorted(f.keys()) == ["points", "scenario", "segments", "time", "topology"], list(f.keys())
assert list(f["points"].keys()) == ["pos"] and list(f["segments"].keys()) == ["force"]
assert [x.decode() for x in f["points"].attrs["names"]] == ["balloon"]
print("OK")
PYEOF
grep_in "--set output.channels logs those" "$tmp/py" '^OK$'
check "--set output.channels, no match" 65 "$AWESIM" check "$tmp/full.yaml" \
  --set 'output.channels=[nope]'
grep_in "--set: the pattern named" "$tmp/err" '"nope" matches no channel'

# 6. step-response's log follows the same keys
check "step-response log with channels, deflate" 0 "$AWESIM" step-response \
  scenarios/tests/lin_damped.yaml -q --input points.mass.force.z --amplitude 1 --duration 0.2 \
  --set 'output.channels=[points/*/pos]' --set output.compression=deflate -o "$tmp/step.h5"
"$PY" - "$tmp/step.h5" >"$tmp/py" 2>&1 <<'PYEOF'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
assert list(f["points"].keys()) == ["pos"], list(f["points"].keys())
assert f["points/pos"].compression == "gzip" and not f["points/pos"].shuffle
print("OK")
PYEOF
grep_in "step-response: channels and compression" "$tmp/py" '^OK$'

echo "log_channels: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
