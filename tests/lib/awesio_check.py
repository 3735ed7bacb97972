#!/usr/bin/python3
"""awesio_check.py DOC [SCHEMA]: check an awesIO structure document.

Validates DOC against awesIO's structure_schema.yml (tests/data/awesio/, Draft 7, Debian's
python3-jsonschema), then what the schema states in words but JSON Schema cannot: every
table's units and rows as long as its headers (rowsMatchHeaders), names unique per block,
every reference resolving, n_points the points' rows, connectivity_sha recomputed from the
document as the schema defines it. Prints one line of facts (points, segments, sha, ...) and
exits 1 with the reasons on any failure."""
import hashlib
import sys

import jsonschema
import yaml

here = sys.argv[0].rsplit("/", 2)[0]
doc = yaml.safe_load(open(sys.argv[1]))
schema = yaml.safe_load(open(sys.argv[2] if len(sys.argv) > 2
                             else here + "/data/awesio/structure_schema.yml"))
errs = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(doc)]

blocks = [k for k, v in doc.items() if isinstance(v, dict) and "headers" in v]
names = {}
for b in blocks:
    t = doc[b]
    n = len(t["headers"])
    if len(t.get("units", [])) != n:
        errs.append(f"{b}: {len(t['units'])} units for {n} headers")
    for r, row in enumerate(t["data"]):
        if len(row) != n:
            errs.append(f"{b} row {r + 1}: {len(row)} entries for {n} headers")
    col = t["headers"].index("name")
    ns = [row[col] for row in t["data"]]
    if len(set(ns)) != len(ns):
        errs.append(f"{b}: names not unique")
    names[b] = {x: i + 1 for i, x in enumerate(ns)}


def col(b, h):
    t = doc.get(b)
    if not t:
        return []
    i = t["headers"].index(h)
    return [row[i] for row in t["data"]]


def refs(b, h, target, many):
    for v in col(b, h):
        for x in (v if many else [v]):
            if x is not None and x not in names.get(target, {}):
                errs.append(f"{b}.{h}: '{x}' is not in {target}")


refs("segments", "points", "points", True)
refs("stations", "points", "points", True)
refs("pulleys", "segments", "segments", True)
refs("tethers", "start_point", "points", False)
refs("tethers", "end_point", "points", False)
refs("tethers", "segments", "segments", True)
refs("winches", "tethers", "tethers", True)
refs("winches", "winch_point", "points", False)

meta = doc["metadata"]
npt = len(doc["points"]["data"])
if meta["n_points"] != npt:
    errs.append(f"n_points {meta['n_points']} but {npt} points")
pre = f"{npt};" + "".join(f"{names['points'][a]},{names['points'][b]};"
                           for a, b in col("segments", "points"))
pre += f"{len(col('bodies', 'name'))};" + "".join(
    f"{names['bodies'][a]},{names['bodies'][b]};" for a, b in col("tubes", "bodies"))
sha = hashlib.sha256(pre.encode("ascii")).hexdigest()
if sha != meta["connectivity_sha"]:
    errs.append(f"connectivity_sha {meta['connectivity_sha']} but the document's is {sha}")
for e in errs:
    print("awesio_check:", e, file=sys.stderr)
print(f"points {npt} segments {len(col('segments', 'name'))} stations "
      f"{len(col('stations', 'name'))} pulleys {len(col('pulleys', 'name'))} tethers "
      f"{len(col('tethers', 'name'))} winches {len(col('winches', 'name'))} sha {sha} "
      f"errors {len(errs)}")
sys.exit(1 if errs else 0)
