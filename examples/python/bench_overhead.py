#!/usr/bin/env python3
"""bench_overhead.py: what a Python heading hold costs the parked 2plate kite, three ways.

  builtin    awesim simulate scenarios/2plate_parked.yaml (the pid in C)
  pipe       awesim simulate scenarios/2plate_external.yaml (examples/controllers/
             heading_hold.py as an external process over the pipe)
  in-process examples/python/heading_hold.py (libawesim through ctypes)

Each flies DURATION s (default 60) at 20 Hz, best of REPEAT runs (default 3); the cost per
sample is the time above the builtin's divided by the samples.

    usage: bench_overhead.py [DURATION] [REPEAT]
"""
import pathlib
import subprocess
import sys
import time

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent
sys.path.insert(0, str(here))
import heading_hold  # noqa: E402

duration = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 3
awesim = str(root / "awesim")


def best(f):
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t


def cli(scenario):
    subprocess.run([awesim, "simulate", str(root / "scenarios" / scenario), "--no-hdf5", "-q",
                    "--set", "run.duration=%r" % duration], check=True)


t_builtin = best(lambda: cli("2plate_parked.yaml"))
t_pipe = best(lambda: cli("2plate_external.yaml"))
t_inproc = best(lambda: heading_hold.fly(duration))
n = round(duration / 0.05)
print("%g s of flight, %d samples (best of %d):" % (duration, n, repeat))
for name, t in (("builtin pid", t_builtin), ("pipe", t_pipe), ("in-process", t_inproc)):
    print("  %-12s %7.3f s  %+8.1f us per sample" % (name, t, (t - t_builtin) / n * 1e6))
