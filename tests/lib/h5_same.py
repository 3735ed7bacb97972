#!/usr/bin/python3
"""h5_same.py A.h5 B.h5 TOL: every numeric dataset of two awesim logs (the logged channels and
/time) has the same shape and agrees within TOL (absolute); prints the largest difference and
the number of channels compared, exits 1 when any differs or the sets of datasets differ."""
import sys

import h5py
import numpy as np

a, b, tol = h5py.File(sys.argv[1]), h5py.File(sys.argv[2]), float(sys.argv[3])
names = {}
for f, k in ((a, 0), (b, 1)):
    f.visititems(lambda n, o: names.setdefault(n, [None, None]).__setitem__(k, o)
                 if isinstance(o, h5py.Dataset) and o.dtype.kind == "f" else None)
worst, where, bad = 0.0, "", 0
for n, (x, y) in sorted(names.items()):
    if x is None or y is None or x.shape != y.shape:
        print(f"h5_same: {n}: only in one log or shapes differ", file=sys.stderr)
        bad += 1
        continue
    d = np.abs(x[()] - y[()])
    d = np.where(np.isnan(x[()]) & np.isnan(y[()]), 0.0, d)
    m = float(np.nanmax(d)) if d.size else 0.0
    if np.isnan(d).any() or m > tol:
        print(f"h5_same: {n}: differs by {m:.3g} (tolerance {tol:g})", file=sys.stderr)
        bad += 1
    if m > worst:
        worst, where = m, n
print(f"datasets {len(names)} rows {a['time'].shape[0]} max_diff {worst:.3g} {where} bad {bad}")
sys.exit(1 if bad else 0)
