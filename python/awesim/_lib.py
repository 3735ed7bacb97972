"""_lib.py: find libawesim.so and declare its functions (include/awesim.h) for ctypes.

The library is looked for, in order: $AWESIM_LIB (a path), libawesim.so inside this package
(a `pip install ./python` carries it), the repository's build/lib/ beside this package (a
checkout after `make`, or `pip install -e python`), PREFIX/lib of `make install` (which puts
this package in PREFIX/lib/awesim/python) or of `make install-python` (PREFIX/lib/pythonX.Y/
dist-packages), then the system's (ldconfig's cache).
"""
import ctypes
import ctypes.util
import os
import pathlib

_here = pathlib.Path(__file__).resolve().parent


class Error(RuntimeError):
    """An awesim call failed: str(e) is awesim's message (file:line:col where a file is
    involved); e.code the status (AWESIM_E* of awesim.h: 1 usage, 2 invalid input, 3 parse,
    4 no file, 5 I/O, 6 memory, 7 no convergence, 8 integration, 9 interrupted, 10 internal)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _candidates():
    env = os.environ.get("AWESIM_LIB")
    if env:
        yield env
        return
    yield str(_here / "libawesim.so")
    yield str(_here.parent.parent / "build" / "lib" / "libawesim.so")
    # installed: PREFIX/lib/awesim/python/awesim and PREFIX/lib/pythonX.Y/dist-packages/awesim
    # -> PREFIX/lib
    yield str(_here.parent.parent.parent / "libawesim.so.0")
    found = ctypes.util.find_library("awesim")
    if found:
        yield found
    yield "libawesim.so.0"


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (not there)")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("awesim: libawesim.so not found; build it with `make` in the awesim "
                      "repository, install it with `make install`, or set AWESIM_LIB; tried: "
                      + "; ".join(tried))


lib = _load()

c_double, c_int, c_long, c_char_p, c_void_p = (ctypes.c_double, ctypes.c_int, ctypes.c_long,
                                               ctypes.c_char_p, ctypes.c_void_p)
P_double = ctypes.POINTER(c_double)
P_int = ctypes.POINTER(c_int)


class ErrorStruct(ctypes.Structure):
    _fields_ = [("code", c_int), ("msg", ctypes.c_char * 2048)]


def _decl(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


version = _decl("awesim_version", c_char_p)
open_ = _decl("awesim_open", c_void_p, c_char_p, c_int, ctypes.POINTER(c_char_p),
              ctypes.POINTER(ErrorStruct))
close = _decl("awesim_close", None, c_void_p)
message = _decl("awesim_message", c_char_p, c_void_p)
nwarnings = _decl("awesim_nwarnings", c_int, c_void_p)
warning = _decl("awesim_warning", c_char_p, c_void_p, c_int)
time = _decl("awesim_time", c_double, c_void_p)
duration = _decl("awesim_duration", c_double, c_void_p)
dt = _decl("awesim_dt", c_double, c_void_p)
nchannels = _decl("awesim_nchannels", c_int, c_void_p)
channel_name = _decl("awesim_channel_name", c_char_p, c_void_p, c_int)
channel_unit = _decl("awesim_channel_unit", c_char_p, c_void_p, c_int)
get = _decl("awesim_get", c_double, c_void_p, c_int)
read = _decl("awesim_read", c_int, c_void_p, P_int, c_int, P_double)
ninputs = _decl("awesim_ninputs", c_int, c_void_p)
input_name = _decl("awesim_input_name", c_char_p, c_void_p, c_int)
input_unit = _decl("awesim_input_unit", c_char_p, c_void_p, c_int)
get_input = _decl("awesim_get_input", c_double, c_void_p, c_int)
set_input = _decl("awesim_set_input", c_int, c_void_p, c_int, c_double)
step_to = _decl("awesim_step_to", c_int, c_void_p, c_double)
step = _decl("awesim_step", c_int, c_void_p, c_double)
crashed = _decl("awesim_crashed", c_int, c_void_p)
request_stop = _decl("awesim_request_stop", None, c_void_p)
interrupted = _decl("awesim_interrupted", c_int, c_void_p)
log_csv = _decl("awesim_log_csv", c_int, c_void_p, c_char_p, c_char_p)
log_csv_close = _decl("awesim_log_csv_close", c_int, c_void_p)
log_hdf5 = _decl("awesim_log_hdf5", c_int, c_void_p, c_char_p)
log_hdf5_close = _decl("awesim_log_hdf5_close", c_int, c_void_p)
run = _decl("awesim_run", c_int, c_void_p, P_double, c_long, ctypes.POINTER(c_long))
rows_left = _decl("awesim_rows_left", c_long, c_void_p)
trim = _decl("awesim_trim", c_int, c_void_p, P_double)
linearize = _decl("awesim_linearize", c_int, c_void_p, P_int, P_int, P_int)
linearize_select = _decl("awesim_linearize_select", c_int, c_void_p, c_char_p, c_char_p, P_int,
                         P_int, P_int)
lin_matrices = _decl("awesim_lin_matrices", c_int, c_void_p, P_double, P_double, P_double,
                     P_double)
lin_name = _decl("awesim_lin_name", c_char_p, c_void_p, ctypes.c_char, c_int)
lin_unit = _decl("awesim_lin_unit", c_char_p, c_void_p, ctypes.c_char, c_int)
