#!/usr/bin/env python3
"""heading_hold.py: the parked 2plate kite held by a heading hold written in Python, in-process
(libawesim through the awesim package, no pipe).

The scenario's builtin pid is switched off (controllers=[]) and this loop does its arithmetic
operation for operation (controller.h; the same as examples/controllers/heading_hold.py over
the pipe) at the same sample instants k T, so the flight is that of
`awesim simulate scenarios/2plate_parked.yaml` to the last bit (tests/python/test_awesim.py
compares every channel).

    usage: heading_hold.py [--duration S]
"""
import argparse
import math
import pathlib
import sys

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent.parent / "python"))
import awesim  # noqa: E402
import numpy as np  # noqa: E402

SCENARIO = here.parent.parent / "scenarios" / "2plate_parked.yaml"


def wrap(x):
    """(-pi, pi], as awe_wrap_pi: IEEE remainder, then -pi -> pi"""
    y = math.remainder(x, 2.0 * math.pi)
    return y + 2.0 * math.pi if y <= -math.pi else y


class HeadingHold:
    """The builtin pid of scenarios/2plate_parked.yaml: kp 4, ki 0.3, kd 0.4, limits +-0.05 m,
    rate limit 0.1 m/s, derivative filter one period, output +1 left / -1 right."""

    def __init__(self, T=0.05, kp=4.0, ki=0.3, kd=0.4, d_filter=None, limits=(-0.05, 0.05),
                 rate_limit=0.1):
        self.T, self.kp, self.ki, self.kd = T, kp, ki, kd
        self.Tf = T if d_filter is None else d_filter
        self.limits, self.rate_limit = limits, rate_limit
        self.I = self.D = self.y_prev = self.u_prev = 0.0
        self.started = False

    def __call__(self, y):
        T, Tf = self.T, self.Tf
        e = wrap(0.0 - y)
        dy = wrap(y - self.y_prev if self.started else 0.0)
        self.D = Tf / (Tf + T) * self.D - self.kd / (Tf + T) * dy if self.kd > 0.0 else 0.0
        In = self.I + self.ki * T * e
        v = self.kp * e + In + self.D
        u = min(max(v, self.limits[0]), self.limits[1])
        if self.rate_limit is not None:
            du = self.rate_limit * T
            u = min(u, self.u_prev + du)
            u = max(u, self.u_prev - du)
        if u != v and self.ki * e * (v - u) > 0.0:
            In = self.I
        self.I, self.y_prev, self.u_prev, self.started = In, y, u, True
        return u


def fly(duration):
    """Fly the parked kite for duration s with the Python heading hold; returns the Log (each
    row after the sample at its time, as the builtin's log shows it)."""
    sim = awesim.Simulation(SCENARIO, set={"run.duration": duration, "controllers": []})
    pid = HeadingHold()
    heading = sim.getter("wings.main_wing.heading")
    left = sim.inputs.setter("segments.kcu_steering_left.l0")
    right = sim.inputs.setter("segments.kcu_steering_right.l0")
    l0 = sim.inputs["segments.kcu_steering_left.l0"]
    r0 = sim.inputs["segments.kcu_steering_right.l0"]
    times, rows = [], []
    k = 0
    while True:
        u = pid(heading())          # the sample at k T: measure, compute, hold
        left(l0 + 1.0 * u)          # what the builtin adds: base + gain * output
        right(r0 + -1.0 * u)
        times.append(sim.time)
        rows.append(sim.values())   # the outputs with the new inputs, as simulate logs them
        if sim.time >= sim.duration or sim.crashed:
            break
        k += 1
        sim.step_to(k * pid.T)      # the sample instants k T, as the builtin's
    sim.close()
    arr = np.column_stack([np.array(times), np.array(rows)])
    return awesim.Log(["time"] + sim.channels, ["s"] + [sim.units[c] for c in sim.channels],
                      arr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=float, default=60.0)
    a = ap.parse_args()
    log = fly(a.duration)
    print("t = %.6g s: elevation %.3f deg, azimuth %.4f deg, heading %.4f deg" % (
        log["time"][-1], math.degrees(log["wings.main_wing.elevation"][-1]),
        math.degrees(log["wings.main_wing.azimuth"][-1]),
        math.degrees(log["wings.main_wing.heading"][-1])))
