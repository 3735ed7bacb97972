#!/bin/sh
# python_install.sh: the Python package installs offline, as issue 39 asks, and reads logs:
#   - `make install-python PREFIX=TMP` puts it (with libawesim.so inside) where Debian's python3
#     looks under that prefix, and `import awesim` there runs a simulation with that library
#     from another folder; for PREFIX=/usr/local that place is on python3's sys.path;
#   - `pip install --no-build-isolation ./python` and `pip install --no-build-isolation -e python`
#     into a venv (--system-site-packages, for Debian's numpy and h5py) work with no index: the
#     copy carries its library, the editable one runs from the source folder and its build/lib;
#   - awesim.read_log reads an HDF5 log as the CSV of the same run (every channel, the same
#     names, the values to the CSV's 9 digits), its attributes as str, and awesim.h5attrs
#     decodes h5py's bytes.
# Needs Debian's python3 with pip, venv (ensurepip), setuptools, numpy and h5py.
. "$(dirname "$0")/lib/cli.sh"
py=${PYTHON:-/usr/bin/python3}
MAKE=${MAKE:-make}
if ! "$py" -c 'import setuptools, ensurepip, numpy, h5py' 2>"$tmp/err" ||
   ! "$py" -m pip --version >/dev/null 2>&1; then
  bad "$py lacks pip, venv, setuptools, numpy or h5py (python3-pip python3-venv python3-setuptools)"
  echo "python_install: $pass passed, $fail failed"
  exit 1
fi
[ -e build/lib/libawesim.so ] || { bad "no build/lib/libawesim.so (make lib)"; echo "python_install: $pass passed, $fail failed"; exit 1; }
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_CACHE_DIR=1

# a run to compare with: its HDF5 log and its CSV
"$AWESIM" simulate scenarios/aerostat.yaml -q --set run.duration=5 -o "$tmp/a.h5" --csv \
  >"$tmp/a.csv" 2>"$tmp/err" && ok || bad "simulate the aerostat"

# the checks one installed package must pass, run from $tmp with only PYTHONPATH pointing at it
cat >"$tmp/check.py" <<'EOF'
import csv, sys
import numpy as np
import awesim
where, lib, h5, csvf, scen = sys.argv[1:6]
assert awesim.__file__.startswith(where), "awesim from %s, not %s" % (awesim.__file__, where)
assert awesim._lib.lib._name.startswith(lib), "libawesim from %s, not %s" % (awesim._lib.lib._name, lib)
sim = awesim.Simulation(scen, set={"run.duration": 1})
log = sim.run()
assert abs(log["time"][-1] - 1.0) < 1e-12, log["time"][-1]
print("import ok:", awesim.__file__, awesim._lib.lib._name)
if h5 == "-":
    sys.exit(0)
# read_log against the CSV of the same run
rows = list(csv.reader(open(csvf)))
head = [h.split("[")[0] for h in rows[0]]
units = [h[h.index("[") + 1:-1] if "[" in h else "" for h in rows[0]]
data = np.array(rows[1:], dtype=float)
r = awesim.read_log(h5)
assert set(head) == set(r), "channels differ: %s" % sorted(set(head) ^ set(r))
assert list(r)[0] == "time"
for i, n in enumerate(head):
    assert np.allclose(r[n], data[:, i], rtol=2e-8, atol=1e-11), n
    assert r.units[n] == units[i], (n, r.units[n], units[i])
assert r.attrs["status"] == "complete" and isinstance(r.attrs["status"], str), r.attrs["status"]
assert isinstance(r.attrs["command_line"], str) and "simulate" in r.attrs["command_line"]
assert isinstance(r.scenario, str) and "aerostat" in r.scenario
sel = awesim.read_log(h5, channels=["points.balloon.pos.*"])
assert list(sel) == ["time", "points.balloon.pos.x", "points.balloon.pos.y", "points.balloon.pos.z"], list(sel)
import h5py
with h5py.File(h5, "r") as f:
    assert isinstance(f.attrs["status"], bytes), "h5py now decodes: the helper is moot"
    a = awesim.h5attrs(f)
    assert a["status"] == "complete", a["status"]
    names = awesim.h5attrs(f["points"])["names"]
    assert names[:2] == ["winch", "balloon"] and all(isinstance(n, str) for n in names), names
    assert awesim.h5attrs(f["winches/force"])["units"] == "N"
print("read_log ok: %d channels, %d rows" % (len(r) - 1, len(r["time"])))
EOF
scen=$root/scenarios/pendulum.yaml

# 1. make install-python into a temporary prefix
prefix=$tmp/prefix
if $MAKE -s install-python PREFIX="$prefix" >"$tmp/out" 2>"$tmp/err"; then ok; else bad "make install-python PREFIX=$prefix"; fi
site=$(find "$prefix" -name __init__.py -path '*/dist-packages/awesim/*' | head -1)
site=${site%/awesim/__init__.py}
case $site in "$prefix"/lib/python3.*/dist-packages) ok ;; *) bad "installed into '$site'" ;; esac
[ -f "$site/awesim/libawesim.so" ] && ok || bad "no libawesim.so in the installed package"
[ -d "$site"/awesim-*.dist-info ] && ok || bad "no dist-info (pip cannot uninstall it)"
check "import from the prefix" 0 sh -c 'cd "$1" && PYTHONPATH="$2" "$3" check.py "$2/awesim" "$2/awesim" a.h5 a.csv "$4"' \
  sh "$tmp" "$site" "$py" "$scen"
grep_in "read_log from the prefix" "$tmp/out" '^read_log ok'
# for PREFIX=/usr/local the place is on Debian's python3's sys.path
target=$($MAKE -s -n install-python PREFIX=/usr/local 2>/dev/null | grep -o -- '--target [^ ]*' | head -1)
target=${target#--target }
if [ -n "$target" ] && "$py" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$target"; then ok
else bad "make install-python PREFIX=/usr/local would install into '$target', not on $py's sys.path"; fi
$MAKE -s uninstall-python PREFIX="$prefix" >/dev/null 2>&1
[ ! -e "$site/awesim" ] && ok || bad "make uninstall-python left $site/awesim"

# 2. pip install ./python and pip install -e python into venvs, with no index (a copy of the
#    source beside a build/lib, so the build leaves nothing in the checkout)
mkdir -p "$tmp/src/build"
cp -R python "$tmp/src/python"
rm -rf "$tmp/src/python/build" "$tmp/src/python"/*.egg-info
ln -s "$root/build/lib" "$tmp/src/build/lib"
for mode in copy editable; do
  venv=$tmp/venv_$mode
  if ! CHECK_TIMEOUT=300 check "venv $mode" 0 "$py" -m venv --system-site-packages "$venv"; then continue; fi
  if [ $mode = copy ]; then
    check "pip install ./python" 0 sh -c 'cd "$1" && "$2/bin/pip" install -q --no-build-isolation ./python' sh "$tmp/src" "$venv"
    vsite=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
    check "import the copy" 0 sh -c 'cd "$1" && "$2" check.py "$3/awesim" "$3/awesim/libawesim.so" - - "$4"' \
      sh "$tmp" "$venv/bin/python" "$vsite" "$scen"
  else
    check "pip install -e python" 0 sh -c 'cd "$1" && "$2/bin/pip" install -q --no-build-isolation -e python' sh "$tmp/src" "$venv"
    check "import the editable" 0 sh -c 'cd "$1" && "$2" check.py "$3/python/awesim" "$3/build/lib/libawesim.so" - - "$4"' \
      sh "$tmp" "$venv/bin/python" "$tmp/src" "$scen"
  fi
done

echo "python_install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
