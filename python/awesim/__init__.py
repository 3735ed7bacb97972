"""awesim in-process: the simulator's C library (libawesim, include/awesim.h) through ctypes.

    import awesim
    sim = awesim.Simulation("scenarios/2plate_parked.yaml", set={"run.duration": 60})
    sim.step(0.05)                                  # advance by dt (or sim.step_to(t))
    sim["wings.main_wing.elevation"]                # a channel at the current time
    sim.inputs["segments.kcu_steering_left.l0"] = 0.01
    log = sim.run()                                 # the rest of the run: numpy arrays
    log["time"], log["wings.main_wing.heading"], log.units["wings.main_wing.heading"]
    sim.trim(); lin = sim.linearize()               # lin.A, lin.B, lin.C, lin.D, lin.x ...
    log = awesim.read_log("out/run.h5")             # an HDF5 log, the same shape (h5py)
    awesim.h5attrs(h5py_object)                     # its attributes, strings as str

Needs numpy and libawesim.so (found as awesim/_lib.py says); no compiler. Errors raise
awesim.Error with awesim's message.

Stopping: sim.request_stop() (from another thread, a timer or a signal handler) ends a
step_to / run / step in progress within milliseconds; that call raises awesim.Interrupted
(an Error; from run() its .log holds the rows up to the stop) and later steps raise it too.
Ctrl-C (KeyboardInterrupt) during run, or a step (step, step_to) longer than run.dt, stops
the C loop the same way and is raised again once it returned: those calls run the C loop in
a worker thread while the main thread waits, interruptible (a step of one run.dt or less
calls C directly, without the thread's ~50 us: Ctrl-C then takes effect between steps).
"""
import ctypes
import threading

import numpy as np

from . import _lib
from ._lib import Error

__all__ = ["Simulation", "Error", "Interrupted", "Log", "Linear", "version", "read_log",
           "h5attrs"]

_EINTR = 9  # AWESIM_EINTR


class Interrupted(Error):
    """A call ended by sim.request_stop() (or Ctrl-C): the run is over, the handle stays
    readable. From run(): .log holds the rows up to the stop."""
    log = None


def _waiting(h, fn, *args):
    """fn(*args) (a C call that releases the GIL) in a worker thread, the main thread waiting:
    Ctrl-C and Python signal handlers run while C works; KeyboardInterrupt asks the C loop to
    stop, waits for it and is raised again."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    out, done = [], threading.Event()

    def work():
        try:
            out.append(fn(*args))
        finally:
            done.set()
    threading.Thread(target=work, daemon=True).start()
    try:
        while not done.wait(0.5):
            pass
    except BaseException:
        # the C loop must have returned before the handle may be used or freed (a Thread.join
        # interrupted by Ctrl-C can report a live thread as ended): wait on our own flag,
        # through further Ctrl-Cs
        _lib.request_stop(h)
        while True:
            try:
                done.wait()
                break
            except BaseException:
                pass
        raise
    return out[0]


def version():
    """The library's version, "0.1.0"."""
    return _lib.version().decode()


def _text(v):
    """A --set value: numbers as the shortest text that reads back (repr), booleans as YAML"""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    return repr(v) if isinstance(v, float) else str(v)


def _cstr(v, what):
    """v as bytes for C; a NUL inside would cut the string there without a word: refused"""
    b = str(v).encode()
    if b"\0" in b:
        raise ValueError("%s %r contains a NUL character" % (what, v))
    return b


class _Handle:
    """The C handle and what guards it. Held by the Simulation, its Inputs and every getter or
    setter it handed out, so that none of them outlives it (they hold the handle, not the
    Simulation: no reference cycle, `del sim` frees at once). One lock serialises calls from
    several threads (a second thread waits); after close() every use raises ValueError."""

    __slots__ = ("ptr", "lock", "__weakref__")

    def __init__(self, ptr):
        self.ptr = ptr
        self.lock = threading.RLock()

    def get(self):
        p = self.ptr
        if not p:
            raise ValueError("Simulation is closed")
        return p

    def close(self):
        if not self.ptr:
            return
        # a call in progress in another thread is asked to stop; the lock waits for it
        _lib.request_stop(self.ptr)
        with self.lock:
            p, self.ptr = self.ptr, None
            if p:
                _lib.close(p)

    def __del__(self):
        try:
            if self.ptr:
                p, self.ptr = self.ptr, None
                _lib.close(p)
        except Exception:
            pass


def _check_status(hd, status):
    """raise the error of a failed call on handle hd"""
    if status:
        cls = Interrupted if status == _EINTR else Error
        p = hd.ptr
        msg = _lib.message(p).decode(errors="replace") if p else "Simulation is closed"
        raise cls(status, msg)


class Log(dict):
    """The rows of a run: name -> numpy array (1-D, one value per log row), "time" first;
    .units: name -> unit; .array: the rows as one 2-D array (time in column 0)."""

    def __init__(self, names, units, rows):
        super().__init__((n, rows[:, i]) for i, n in enumerate(names))
        self.units = dict(zip(names, units))
        self.array = rows


class Linear:
    """A linear model dx/dt = A x + B u, y = C x + D u (numpy arrays); x, u, y: the names of
    the coordinates, x_units, u_units, y_units their units."""

    def __init__(self, A, B, C, D, names, units):
        self.A, self.B, self.C, self.D = A, B, C, D
        self.x, self.u, self.y = names
        self.x_units, self.u_units, self.y_units = units

    def __iter__(self):
        return iter((self.A, self.B, self.C, self.D))

    def __len__(self):
        return 4

    def __getitem__(self, k):
        """lin[0] is A ... lin[3] is D; lin[:4] the four (A, B, C, D = lin works too)"""
        return (self.A, self.B, self.C, self.D)[k]


class Inputs:
    """sim.inputs: the base inputs by name (held from the time they are set), their .units"""

    def __init__(self, hd):
        self._hd = hd
        h = hd.get()
        n = _lib.ninputs(h)
        self._names = [_lib.input_name(h, i).decode() for i in range(n)]
        self._index = {name: i for i, name in enumerate(self._names)}
        self.units = {name: _lib.input_unit(h, i).decode() for i, name in enumerate(self._names)}

    def index(self, name):
        try:
            return self._index[name]
        except KeyError:
            raise KeyError("%s: no such input (sim.inputs.keys() lists them)" % name) from None

    def keys(self):
        return list(self._names)

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)

    def __contains__(self, name):
        return name in self._index

    def __getitem__(self, name):
        i = self.index(name)
        with self._hd.lock:
            return _lib.get_input(self._hd.get(), i)

    def __setitem__(self, name, value):
        i = self.index(name)
        with self._hd.lock:
            _check_status(self._hd, _lib.set_input(self._hd.get(), i, value))

    def setter(self, name):
        """A fast setter of one input: f(value) (no name lookup per call; it keeps the run's
        handle alive and raises ValueError once the Simulation is closed)."""
        hd, i, f = self._hd, self.index(name), _lib.set_input

        def set_value(value):
            with hd.lock:
                _check_status(hd, f(hd.get(), i, value))
        return set_value


class Simulation:
    """One run of a scenario, in this process. set: overrides as `awesim simulate --set`
    ({"run.duration": 60, "run.dt": 0.02}). The run starts at once (initial state, steady state,
    outputs at t = 0). Close with close() or a with block (also done when collected)."""

    def __init__(self, path, set=None):
        self._hd = _Handle(None)
        sets = ["%s=%s" % (k, _text(v)) for k, v in (set or {}).items()]
        arr = (ctypes.c_char_p * (len(sets) + 1))(*[_cstr(s, "override") for s in sets])
        err = _lib.ErrorStruct()
        h = _lib.open_(_cstr(path, "scenario path"), len(sets), arr, ctypes.byref(err))
        if not h:
            raise Error(err.code, err.msg.decode(errors="replace"))
        self._hd = _Handle(h)
        n = _lib.nchannels(h)
        self.channels = [_lib.channel_name(h, i).decode() for i in range(n)]
        self.units = {name: _lib.channel_unit(h, i).decode()
                      for i, name in enumerate(self.channels)}
        self._index = {name: i for i, name in enumerate(self.channels)}
        self.inputs = Inputs(self._hd)
        self.warnings = [_lib.warning(h, i).decode() for i in range(_lib.nwarnings(h))]
        self.duration = _lib.duration(h)
        self.dt = _lib.dt(h)

    # ---- life cycle ----
    @property
    def _h(self):
        """the C handle; ValueError("Simulation is closed") once closed"""
        return self._hd.get()

    @property
    def closed(self):
        return not self._hd.ptr

    def close(self):
        """Close the run (the HDF5 log gets its status). From another thread during run() or
        a step: that call is asked to stop, and close waits for it. Idempotent."""
        self._hd.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # no __del__: the handle closes itself when its last holder (this Simulation, its inputs,
    # a getter or setter handed out) is collected

    def _check(self, status):
        _check_status(self._hd, status)

    # ---- stopping ----
    def request_stop(self):
        """Ask the call in progress (step_to, run, step, in another thread) to stop: it
        raises awesim.Interrupted within milliseconds; the run is over. Safe from a signal
        handler or another thread."""
        p = self._hd.ptr  # no lock: the one call meant for a handle in use
        if p:
            _lib.request_stop(p)

    @property
    def interrupted(self):
        """True after request_stop() (or Ctrl-C during a call)."""
        return bool(_lib.interrupted(self._h))

    # ---- time ----
    @property
    def time(self):
        """The current time [s]."""
        return _lib.time(self._h)

    @property
    def crashed(self):
        """True after a wing hit the ground."""
        return bool(_lib.crashed(self._h))

    def step(self, dt=None):
        """Advance by dt (default run.dt); a target within 1e-9 s of a log time is that log
        time (repeated steps of run.dt do not drift). Returns the new time."""
        dt = self.dt if dt is None else dt
        with self._hd.lock:
            h = self._h
            if dt > self.dt * (1.0 + 1e-9):
                self._check(_waiting(h, _lib.step, h, dt))
            else:
                self._check(_lib.step(h, dt))
            return _lib.time(h)

    def step_to(self, t):
        """Advance to time t [s] (stopping at every log time on the way, as `simulate`)."""
        with self._hd.lock:
            h = self._h
            if t - _lib.time(h) > self.dt * (1.0 + 1e-9):
                self._check(_waiting(h, _lib.step_to, h, t))
            else:
                self._check(_lib.step_to(h, t))
            return _lib.time(h)

    # ---- channels ----
    def index(self, name):
        try:
            return self._index[name]
        except KeyError:
            raise KeyError("%s: no such channel (sim.channels lists them)" % name) from None

    def __getitem__(self, name):
        """A channel's value now; a list of names gives a numpy array."""
        if isinstance(name, str):
            i = self.index(name)
            with self._hd.lock:
                return _lib.get(self._h, i)
        idx = (ctypes.c_int * len(name))(*[self.index(n) for n in name])
        out = np.empty(len(name))
        with self._hd.lock:
            self._check(_lib.read(self._h, idx, len(name), out.ctypes.data_as(_lib.P_double)))
        return out

    def getter(self, name):
        """A fast reader of one channel: f() (no name lookup per call; it keeps the run's
        handle alive and raises ValueError once the Simulation is closed)."""
        hd, i, f = self._hd, self.index(name), _lib.get
        hd.get()

        def get_value():
            with hd.lock:
                return f(hd.get(), i)
        return get_value

    def values(self):
        """Every channel now, as a numpy array in the order of sim.channels."""
        out = np.empty(len(self.channels))
        with self._hd.lock:
            self._check(_lib.read(self._h, None, len(self.channels),
                                  out.ctypes.data_as(_lib.P_double)))
        return out

    # ---- whole runs ----
    def run(self):
        """Run to the end of run.duration; returns the log rows from here (the row at t = 0
        too when nothing was stepped yet) as a Log of numpy arrays with units."""
        with self._hd.lock:
            h = self._h
            n = _lib.rows_left(h)
            rows = np.empty((max(n, 0), len(self.channels) + 1))
            got = ctypes.c_long(0)
            rc = _waiting(h, _lib.run, h, rows.ctypes.data_as(_lib.P_double), n,
                          ctypes.byref(got))
        names = ["time"] + self.channels
        units = ["s"] + [self.units[c] for c in self.channels]
        log = Log(names, units, rows[:got.value])
        try:
            self._check(rc)
        except Interrupted as e:
            e.log = log
            raise
        return log

    def log_csv(self, path, patterns=None):
        """Write the rows of `simulate --csv=patterns` to path from now on (the same bytes)."""
        p, pat = _cstr(path, "path"), _cstr(patterns, "patterns") if patterns else None
        with self._hd.lock:
            self._check(_lib.log_csv(self._h, p, pat))

    def close_csv(self):
        with self._hd.lock:
            self._check(_lib.log_csv_close(self._h))

    def log_hdf5(self, path):
        """Write the HDF5 log of `simulate -o path` from now on (awesim-plot, awesim-replay
        read it); closed with the run's status by close() or close_hdf5()."""
        p = _cstr(path, "path")
        with self._hd.lock:
            self._check(_lib.log_hdf5(self._h, p))

    def close_hdf5(self):
        with self._hd.lock:
            self._check(_lib.log_hdf5_close(self._h))

    def trim(self):
        """Trim at t = 0 (as `awesim trim`); the run continues from the trim. Returns the
        residuals {"force": N, "moment": N m, "relative": -}."""
        r = (ctypes.c_double * 3)()
        with self._hd.lock:
            self._check(_lib.trim(self._h, r))
        return {"force": r[0], "moment": r[1], "relative": r[2]}

    def linearize(self, inputs=None, outputs=None):
        """Linearize at the current state and inputs: a Linear with A, B, C, D and the names
        and units of x, u, y. inputs, outputs: comma-separated globs (or lists of them) over the
        input and channel names, as `awesim linearize --inputs/--outputs`; None: its defaults."""
        sel = []
        for v in (inputs, outputs):
            if v is not None and not isinstance(v, str):
                v = ",".join(v)
            sel.append(None if v is None else _cstr(v, "linearize pattern"))
        with self._hd.lock:
            return self._linearize(*sel)

    def _linearize(self, inputs, outputs):
        nx, nu, ny = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        self._check(_lib.linearize_select(self._h, inputs, outputs, ctypes.byref(nx),
                                          ctypes.byref(nu), ctypes.byref(ny)))
        nx, nu, ny = nx.value, nu.value, ny.value
        A, B, C, D = (np.zeros((nx, nx)), np.zeros((nx, nu)), np.zeros((ny, nx)),
                      np.zeros((ny, nu)))
        p = [m.ctypes.data_as(_lib.P_double) for m in (A, B, C, D)]
        self._check(_lib.lin_matrices(self._h, *p))
        names, units = [], []
        for kind, n in ((b"x", nx), (b"u", nu), (b"y", ny)):
            names.append([_lib.lin_name(self._h, kind, i).decode() for i in range(n)])
            units.append([_lib.lin_unit(self._h, kind, i).decode() for i in range(n)])
        return Linear(A, B, C, D, names, units)


from .h5log import h5attrs, read_log  # noqa: E402  (h5log uses Log, defined above)
