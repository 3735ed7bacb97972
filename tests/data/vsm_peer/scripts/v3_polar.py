"""Peer run: Python VSM polar on a geometry; prints CSV (alpha,beta,CL,CD,CS,CMx,CMy,CMz,time_s)."""
import sys, time, argparse
import numpy as np
from VSM.core.BodyAerodynamics import BodyAerodynamics
from VSM.core.Solver import Solver

ap = argparse.ArgumentParser()
ap.add_argument("geometry")
ap.add_argument("--panels", type=int, default=50)
ap.add_argument("--dist", default="uniform")
ap.add_argument("--speed", type=float, default=3.15)
ap.add_argument("--alphas", default="0:11:1")
ap.add_argument("--beta", default="0")
ap.add_argument("--ref", default="0,0,0")
ap.add_argument("--gamma-at", type=float, default=None)
a = ap.parse_args()

def rng(s):
    p = [float(x) for x in s.split(":")]
    if len(p) == 1: return [p[0]]
    n = int(round((p[1] - p[0]) / p[2])) + 1
    return [p[0] + i * p[2] for i in range(n)]

ref = np.array([float(x) for x in a.ref.split(",")])
body = BodyAerodynamics.instantiate(n_panels=a.panels, file_path=a.geometry,
                                    spanwise_panel_distribution=a.dist)
solver = Solver(reference_point=ref)
print("alpha,beta,CL,CD,CS,CMx,CMy,CMz,time_s")
for al in rng(a.alphas):
    for be in rng(a.beta):
        body.va_initialize(a.speed, al, be)
        t0 = time.perf_counter()
        r = solver.solve(body)
        dt = time.perf_counter() - t0
        print("%g,%g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.4f" % (al, be, r["cl"], r["cd"], r["cs"],
              r["cmx"], r["cmy"], r["cmz"], dt))
        if a.gamma_at is not None and abs(al - a.gamma_at) < 1e-9:
            g = r["gamma_distribution"]
            sys.stderr.write("gamma@%g: %s\n" % (al, " ".join("%.8g" % x for x in g)))
