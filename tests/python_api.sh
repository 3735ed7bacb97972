#!/bin/sh
# python_api.sh: the Python package python/awesim (ctypes over libawesim.so) and the examples of
# examples/python (tests/python/test_awesim.py), with a Python 3 that has numpy (tools/
# find-python: Debian's /usr/bin/python3). Without one: says so and counts nothing.
cd "$(dirname "$0")/.." || exit 2
AWESIM=${AWESIM:-./awesim}
py=$(tools/find-python --modules numpy --quiet) || {
  echo "skipped: no Python 3 with numpy (tools/find-python --modules numpy; apt-get install" \
       "python3-numpy): the Python package is not tested"
  echo "0 passed, 0 failed"
  exit 0
}
if [ ! -f build/lib/libawesim.so ]; then
  ${MAKE:-make} -s build/lib/libawesim.so >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
fi
# the optimised library: the comparisons are with the program under test either way
AWESIM="$AWESIM" AWESIM_LIB=build/lib/libawesim.so "$py" tests/python/test_awesim.py
