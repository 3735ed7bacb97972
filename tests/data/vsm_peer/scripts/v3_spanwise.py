"""Peer run: per-panel distributions at one angle (CSV: panel,y_cp,chord,width,alpha_deg,cl,cd,gamma)."""
import sys, argparse
import numpy as np
from VSM.core.BodyAerodynamics import BodyAerodynamics
from VSM.core.Solver import Solver
ap = argparse.ArgumentParser()
ap.add_argument("geometry"); ap.add_argument("--panels", type=int, default=50)
ap.add_argument("--dist", default="uniform"); ap.add_argument("--speed", type=float, default=3.15)
ap.add_argument("--alpha", type=float, default=5.0); ap.add_argument("--beta", type=float, default=0.0)
a = ap.parse_args()
body = BodyAerodynamics.instantiate(n_panels=a.panels, file_path=a.geometry, spanwise_panel_distribution=a.dist)
body.va_initialize(a.speed, a.alpha, a.beta)
r = Solver().solve(body)
sys.stderr.write("projected_area %.8g area_all_panels %.8g span %.8g CL %.8g CD %.8g\n" % (r["projected_area"], r["area_all_panels"], r["wing_span"], r["cl"], r["cd"]))
print("panel,y_cp,chord,width,alpha_deg,alpha_ac_deg,cl,cd,gamma")
al = np.ravel(r["alpha_uncorrected"]); ac = np.ravel(r["alpha_at_ac"])
for i, p in enumerate(body.panels):
    cl = p.compute_cl(al[i]); cd, cm = p.compute_cd_cm(al[i])
    print("%d,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g" % (i + 1, p.control_point[1], p.chord, p.width, np.degrees(al[i]), np.degrees(ac[i]), cl, cd, r["gamma_distribution"][i]))
