#!/usr/bin/env python3
"""heading_hold.py: the parked 2plate kite's heading hold as an external controller.

It reproduces awesim's builtin `pid` (controller.h) operation for operation, so that
scenarios/2plate_external.yaml flies the same trajectory as scenarios/2plate_parked.yaml (the
test tests/control_cli.sh checks 1e-9). Measures wings.main_wing.heading; replies the two
steering-line changes (gains +1 and -1).

    usage: heading_hold.py [--period T] [--kp KP] [--ki KI] [--kd KD] [--d-filter TF]
                           [--limits LO HI] [--rate-limit R]
Defaults: the gains of scenarios/2plate_parked.yaml.
"""
import argparse
import importlib.util
import math
import pathlib

here = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location(
    "awesim_controller", here.parent.parent / "tools" / "awesim-controller.py")
ctl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ctl)

ap = argparse.ArgumentParser()
ap.add_argument("--period", type=float, default=0.05)
ap.add_argument("--kp", type=float, default=4.0)
ap.add_argument("--ki", type=float, default=0.3)
ap.add_argument("--kd", type=float, default=0.4)
ap.add_argument("--d-filter", type=float, default=None)
ap.add_argument("--limits", type=float, nargs=2, default=[-0.05, 0.05])
ap.add_argument("--rate-limit", type=float, default=0.1)
a = ap.parse_args()


def wrap(x):
    """(-pi, pi], as awe_wrap_pi: IEEE remainder, then -pi -> pi"""
    y = math.remainder(x, 2.0 * math.pi)
    return y + 2.0 * math.pi if y <= -math.pi else y


T = a.period
Tf = T if a.d_filter is None else a.d_filter
I = D = y_prev = u_prev = 0.0
started = False
for t, meas in ctl.loop():
    y = meas["wings.main_wing.heading"]
    e = wrap(0.0 - y)
    dy = wrap(y - y_prev if started else 0.0)
    D = Tf / (Tf + T) * D - a.kd / (Tf + T) * dy if a.kd > 0.0 else 0.0
    In = I + a.ki * T * e
    v = a.kp * e + In + D
    u = min(max(v, a.limits[0]), a.limits[1])
    if a.rate_limit is not None:
        du = a.rate_limit * T
        u = min(u, u_prev + du)
        u = max(u, u_prev - du)
    if u != v and a.ki * e * (v - u) > 0.0:
        In = I
    I, y_prev, u_prev, started = In, y, u, True
    ctl.reply(1.0 * u, -1.0 * u)
