#!/bin/sh
# many_names.sh: a model of 10,000 named components logs (issue 35): the names of a group are an
# HDF5 attribute, which the HDF5 1.6 format keeps under 64 KiB; past ~2,700 components
# `simulate -o` failed at its end with "cannot create /points/pos". The log is now written in the
# 1.8 format (dense attribute storage), read by h5py, MATLAB and pandas alike. The model: the
# hanging tether of models/hanging_tether with 10,000 segments (10,001 points), 0.01 s.
CHECK_TIMEOUT=300
. tests/lib/cli.sh
cp models/hanging_tether/system.yaml models/hanging_tether/settings.yaml "$tmp/"
sed 's/\[main_tether, end_mass, winch, 10, dyneema, 4.0\]/[main_tether, end_mass, winch, 10000, dyneema, 4.0]/' \
  models/hanging_tether/structure.yaml >"$tmp/structure.yaml"
printf 'awesim: 1\nname: many_names\nmodel: system.yaml\nrun: {duration: 0.01, dt: 0.005, solver: trbdf2, abs_tol: 1.0e-6, rel_tol: 1.0e-6}\ninputs:\n  - {input: winches.main_winch.brake, type: constant, value: 1.0}\n' \
  >"$tmp/scen.yaml"
check "10,001 points: simulate -o" 0 $AWESIM simulate "$tmp/scen.yaml" -o "$tmp/out.h5" -q
py=$(tools/find-python --modules h5py --quiet) && {
  "$py" - "$tmp/out.h5" >"$tmp/out" 2>"$tmp/err" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
names = f["points"].attrs["names"]
print(len(names), names[-1].decode(), f["points/pos"].shape[1], f.attrs["status"].decode())
PY
  grep_in "h5py reads the 10,001 names, one per column" "$tmp/out" "^10001 main_tether_point_9999 10001 complete$"
}
echo "many_names: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
