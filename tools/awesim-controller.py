#!/usr/bin/env python3
"""awesim-controller.py: speak awesim's external-controller protocol (standard library only).

awesim (a scenario's `controllers:` entry of type `external`, awesim-scenario(5)) starts the
controller once, writes a CSV header line to its standard input ("time[s],CHANNEL[unit],...")
and then, at every sample instant, one row (time, then the measured values, %.17g). It waits
for one line back: the output values, comma-separated, in the order of the scenario's
`output:`. At the end awesim closes the controller's input and waits for it to exit.

    import importlib.util, pathlib
    spec = importlib.util.spec_from_file_location("awesim_controller", PATH_TO_THIS_FILE)
    ctl = importlib.util.module_from_spec(spec); spec.loader.exec_module(ctl)

    for t, meas in ctl.loop():       # meas: dict channel -> value (also ctl.channels, in order)
        ctl.reply(u_left, u_right)

Numbers are written with repr() (the shortest text that reads back to the same double), so a
controller that does the same arithmetic as a builtin one reproduces it to the last bit.
Anything printed to standard error passes through to awesim's standard error.
"""
import sys

channels = []   # measured channel names (without units), in the header's order
units = []      # their units


def _split_header(line):
    names, us = [], []
    for field in line.strip().split(",")[1:]:
        name, _, unit = field.partition("[")
        names.append(name)
        us.append(unit.rstrip("]"))
    return names, us


def loop(stdin=None):
    """Yield (t, {channel: value}) for every row awesim sends, until it closes the pipe."""
    stdin = stdin or sys.stdin
    header = stdin.readline()
    if not header.startswith("time[s]"):
        raise SystemExit("awesim-controller: expected the header line 'time[s],...', got %r"
                         % header[:80])
    names, us = _split_header(header)
    channels[:] = names
    units[:] = us
    for line in stdin:
        values = [float(x) for x in line.split(",")]
        yield values[0], dict(zip(names, values[1:]))


def reply(*values, stdout=None):
    """Send one line of output values (flushed: awesim waits for it)."""
    stdout = stdout or sys.stdout
    stdout.write(",".join(repr(float(v)) for v in values) + "\n")
    stdout.flush()
