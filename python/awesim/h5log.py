"""h5log.py: awesim's HDF5 logs from Python with h5py, strings as str (h5py gives bytes).

    import awesim
    log = awesim.read_log("out/aerostat.h5")          # like sim.run(): name -> array
    log["time"], log["winches.main_winch.force"], log.units["winches.main_winch.force"]
    log.attrs["status"]                               # 'complete' (str, not b'complete')
    awesim.read_log("out/aerostat.h5", channels=["time", "points.balloon.pos.*"])
    with h5py.File("out/aerostat.h5") as f:
        awesim.h5attrs(f)                             # every root attribute, decoded
        awesim.h5attrs(f["points"])["names"]          # ['balloon', ...]

Channel names are those of `awesim simulate --csv` (group.component.variable[.x|y|z], e.g.
points.balloon.pos.z; a 4-vector is .w .x .y .z); `channels` takes the same globs as --csv
('*' any run of characters). Needs h5py (Debian: python3-h5py) and numpy.
"""
import fnmatch

import numpy as np


def text(v):
    """An HDF5 string (bytes, numpy bytes or str) as str; other values unchanged."""
    if isinstance(v, (bytes, np.bytes_)):
        return bytes(v).decode("utf-8", "replace")
    return v


def decode(v):
    """An attribute value with its strings decoded: bytes -> str, an array of strings ->
    list of str, a numpy scalar -> the Python number; other arrays unchanged."""
    v = text(v)
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "SOU":
            return [decode(x) for x in v.tolist()]
        return v
    if isinstance(v, np.generic):
        return v.item()
    return v


def h5attrs(obj):
    """The attributes of an h5py File, Group or Dataset as a dict, strings decoded."""
    return {k: decode(obj.attrs[k]) for k in obj.attrs}


def _catalogue(f, n):
    """[(channel, dataset path, index, unit)] of an open log with n rows, in file order."""
    import h5py
    out = []
    comp = {3: "xyz", 4: "wxyz"}
    for g in f:
        grp = f[g]
        if not isinstance(grp, h5py.Group):
            continue
        gnames = decode(grp.attrs.get("names", []))
        gnames = list(gnames) if isinstance(gnames, (list, np.ndarray)) else [gnames]
        for v in grp:
            ds = grp[v]
            if not isinstance(ds, h5py.Dataset) or not ds.shape or ds.shape[0] != n:
                continue
            a = h5attrs(ds)
            unit = a.get("units", "")
            names = a.get("names", gnames)
            cunits = a.get("component_units")
            key = "%s/%s" % (g, v)
            unit_of = (lambda i: cunits[i] if cunits and i < len(cunits) else unit)
            if ds.ndim == 1:
                out.append(("%s.%s" % (g, v), key, (), unit))
            elif ds.ndim == 2 and names and ds.shape[1] == len(names):
                for i, c in enumerate(names):
                    out.append(("%s.%s.%s" % (g, c, v), key, (i,), unit_of(i)))
            elif ds.ndim == 2:
                lab = comp.get(ds.shape[1])
                for k in range(ds.shape[1]):
                    out.append(("%s.%s.%s" % (g, v, lab[k] if lab else k), key, (k,), unit))
            elif ds.ndim == 3 and names and ds.shape[1] == len(names):
                lab = comp.get(ds.shape[2])
                for i, c in enumerate(names):
                    for k in range(ds.shape[2]):
                        out.append(("%s.%s.%s.%s" % (g, c, v, lab[k] if lab else k), key,
                                    (i, k), unit_of(i)))
    return out


def read_log(path, channels=None):
    """An awesim HDF5 log as an awesim.Log (name -> 1-D array, "time" first, .units, .array),
    with .attrs (the root attributes, decoded) and .scenario (the scenario as run, str).
    channels: globs of the channels to read (default all; "time" is always there)."""
    import h5py
    from . import Log
    with h5py.File(path, "r") as f:
        if "time" not in f:
            raise ValueError("%s: not an awesim log (no /time dataset)" % path)
        t = np.asarray(f["time"][:], dtype=float)
        cat = _catalogue(f, t.size)
        if channels is not None:
            pats = [channels] if isinstance(channels, str) else list(channels)
            cat = [c for c in cat if any(fnmatch.fnmatchcase(c[0], p) for p in pats)]
        cols = [t]
        cache = {}
        for name, key, idx, unit in cat:
            if key not in cache:
                cache[key] = np.asarray(f[key][:], dtype=float)
            cols.append(cache[key][(slice(None),) + idx])
        log = Log(["time"] + [c[0] for c in cat],
                  [decode(f["time"].attrs.get("units", "s"))] + [c[3] for c in cat],
                  np.column_stack(cols))
        log.attrs = h5attrs(f)
        log.scenario = text(f["scenario"][()]) if "scenario" in f else ""
    return log
