#!/usr/bin/python3
"""h5_recipe.py FILE.h5 OUT: the recipe (tests/fuzz/fuzz_h5_inputs.c) of an HDF5 file awesim
wrote, a seed for fuzz_h5_inputs: its datasets and attributes whose names the harness knows
(NAMES is the harness's fixed_names, in order), with their types, extents and data. Datasets
are cut to 199 per axis and the recipe to 60 KB (run.sh's -max_len is 64 KiB)."""
import sys

import h5py
import numpy as np

NAMES = ["time", "scenario", "x", "x_names", "u", "u_names", "v", "w", "winches/force",
         "winches/vel", "segments/force", "wings/elevation", "points/pos", "status", "units", "d",
         "origin", "periodic_x", "gamma", "length", "ae", "ti", "v_ref", "h_ref", "seed",
         "awesim_version", "t_trim", "points/force", "points/vel", "segments/len"]


def typ(dt):
    """(type byte, extra bytes, numpy dtype to write the data with) or None"""
    if h5py.check_string_dtype(dt) is not None:
        if h5py.check_string_dtype(dt).length is None:
            return 7, b"", None
        return 6, bytes([min(dt.itemsize, 255)]), None
    m = {"<f8": 0, "<f4": 1, "<i4": 2, "|u1": 3, ">i8": 4, ">f8": 5}
    if dt.str in m:
        return m[dt.str], b"", dt
    if dt.kind == "f":
        return 0, b"", np.dtype("<f8")
    if dt.kind in "iu":
        return 4, b"", np.dtype(">i8")
    return None


def obj(name, flag, value, dt):
    t = typ(dt)
    if name not in NAMES or t is None:
        return b""
    a = np.asarray(value)
    if a.ndim > 4:
        return b""
    if a.ndim:
        a = np.asarray(a[tuple(slice(0, 199) for _ in range(a.ndim))])
    out = bytes([NAMES.index(name) | flag, t[0]]) + t[1] + bytes([a.ndim]) + bytes(a.shape)
    if t[0] == 6:
        w = t[1][0]
        out += b"".join(bytes(x)[:w].ljust(w, b"\0") for x in a.reshape(-1))
    elif t[0] == 7:
        out += b"".join((x if isinstance(x, bytes) else str(x).encode())[:23] + b"\0"
                        for x in a.reshape(-1))
    else:
        out += a.astype(t[2]).tobytes()
    return out


def main():
    f = h5py.File(sys.argv[1], "r")
    parts = []
    for k, v in f.attrs.items():
        parts.append(obj(k, 0x80, v, f.attrs.get_id(k).dtype))

    def visit(n, o):
        if isinstance(o, h5py.Dataset):
            parts.append(obj(n, 0, o[()], o.dtype))
            if parts[-1]:
                for k, v in o.attrs.items():
                    parts.append(obj(k, 0x80, v, o.attrs.get_id(k).dtype))
    f.visititems(visit)
    parts = [p for p in parts if p][:31]
    body = b"".join(parts)
    if len(body) > 60000:
        sys.exit("%s: recipe of %d bytes, too long for a seed" % (sys.argv[1], len(body)))
    open(sys.argv[2], "wb").write(bytes([len(parts)]) + body)


main()
