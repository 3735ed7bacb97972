#!/bin/sh
# output_safety.sh: a log is never lost to the output around it.
#   - a second run on a file another run is writing fails (exit 74) without touching it, and
#     the first run's log stays whole;
#   - a file held by another process's lock (an HDF5 reader, flock(1)) is refused untouched;
#   - a full disk ends the run with exit 74 and "No space left on device" naming the file, no
#     HDF5 error stack, no crash, and every row written before the fault readable (needs root
#     to mount a small tmpfs; skipped with the reason otherwise).
# Files are read with h5dump (hdf5-tools, installed by tools/install-deps).
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
skip=0
tmp=$(mktemp -d)
small="$tmp/small"
cleanup() {
  [ -n "$bgpid" ] && kill "$bgpid" 2>/dev/null
  mountpoint -q "$small" 2>/dev/null && umount "$small"
  rm -rf "$tmp"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -20; }

# attr FILE NAME: the value of a root string attribute ("" if unreadable)
attr() { h5dump -a "/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): "\(.*\)"$/\1/p'; }
# rows FILE: rows of /time (-1 if unreadable)
rows() {
  r=$(h5dump -H -d /time "$1" 2>/dev/null | sed -n 's/.*DATASPACE  SIMPLE { ( \([0-9]*\) ).*/\1/p')
  echo "${r:--1}"
}

if ! command -v h5dump >/dev/null 2>&1; then
  echo "skipped: h5dump not found (install hdf5-tools: tools/install-deps)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi

# ---- two writers on one file ----
# the first run is long; it is interrupted (SIGINT) once the second has tried
"$AWESIM" simulate scenarios/pendulum.yaml --set run.duration=100000 -o "$tmp/same.h5" \
  >/dev/null 2>"$tmp/first.err" &
bgpid=$!
HDF5_USE_FILE_LOCKING=FALSE
export HDF5_USE_FILE_LOCKING  # let h5dump read the file while the first run holds its lock
i=0
while [ "$(rows "$tmp/same.h5")" -lt 1 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
before=$(rows "$tmp/same.h5")
timeout 60 "$AWESIM" simulate scenarios/pendulum.yaml -o "$tmp/same.h5" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ]; then ok; else bad "second writer: exit $rc, expected 74"; fi
if grep -q "same.h5 is in use by another process" "$tmp/err"; then ok; else bad "second writer: message"; fi
after=$(rows "$tmp/same.h5")
if [ "$before" -ge 1 ] && [ "$after" -ge "$before" ]; then ok
else bad "first run's log after the second writer: $before rows before, $after after"; fi
kill -INT "$bgpid"
wait "$bgpid"
rc=$?
bgpid=""
unset HDF5_USE_FILE_LOCKING
if [ "$rc" -eq 130 ]; then ok; else bad "first run: exit $rc, expected 130 (interrupted)"; fi
st=$(attr "$tmp/same.h5" status)
n=$(rows "$tmp/same.h5")
if [ "$st" = interrupted ] && [ "$n" -ge "$after" ]; then ok
else bad "first run's log: status '$st', $n rows (>= $after expected)"; fi

# ---- a file locked by another process (as an HDF5 reader does) is refused untouched ----
if command -v flock >/dev/null 2>&1; then
  printf 'precious' >"$tmp/held.h5"
  flock -s "$tmp/held.h5" sleep 5 &
  lockpid=$!
  sleep 0.3
  timeout 60 "$AWESIM" simulate scenarios/pendulum.yaml --set run.duration=1 -o "$tmp/held.h5" \
    >/dev/null 2>"$tmp/err"
  rc=$?
  kill "$lockpid" 2>/dev/null
  wait "$lockpid" 2>/dev/null
  if [ "$rc" -eq 74 ] && [ "$(cat "$tmp/held.h5")" = precious ]; then ok
  else bad "locked file: exit $rc, content '$(head -c 20 "$tmp/held.h5")'"; fi
else
  skip=$((skip + 1))
  echo "skipped: locked file (flock(1) not found)"
fi

# after a run ends its lock is gone: overwriting a finished log is allowed
timeout 60 "$AWESIM" simulate scenarios/pendulum.yaml --set run.duration=1 -o "$tmp/same.h5" \
  >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(rows "$tmp/same.h5")" -eq 101 ] && [ "$(attr "$tmp/same.h5" status)" = complete ]
then ok; else bad "overwrite a finished log: exit $rc, $(rows "$tmp/same.h5") rows"; fi

# ---- a full disk ----
mkdir -p "$small"
if [ "$(id -u)" -ne 0 ]; then
  skip=$((skip + 1))
  echo "skipped: disk full (not root: cannot mount a small tmpfs)"
elif ! mount -t tmpfs -o size=1m tmpfs "$small" 2>"$tmp/mount.err"; then
  skip=$((skip + 1))
  echo "skipped: disk full (mount -t tmpfs failed: $(head -1 "$tmp/mount.err"))"
else
  # 600 s of the pendulum at 100 Hz is ~5 MB: the 1 MiB disk fills part-way through
  timeout 120 "$AWESIM" simulate scenarios/pendulum.yaml --set run.duration=600 \
    -o "$small/p.h5" >/dev/null 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 74 ]; then ok; else bad "disk full: exit $rc, expected 74"; fi
  if grep -q "$small/p.h5: No space left on device" "$tmp/err"; then ok
  else bad "disk full: message naming the file"; fi
  if grep -qE 'HDF5-DIAG|#[0-9]+: ' "$tmp/err"; then bad "disk full: HDF5 error stack printed"; else ok; fi
  n=$(rows "$small/p.h5")
  if [ "$n" -ge 1000 ]; then ok; else bad "disk full: $n rows readable, expected the flushed blocks (>= 1000)"; fi
  st=$(attr "$small/p.h5" status)
  if [ "$st" = failed ]; then ok; else bad "disk full: status '$st', expected failed"; fi
  if attr "$small/p.h5" error | grep -q "No space left on device"; then ok; else bad "disk full: error attribute"; fi
  # the last row readable is a real time, not garbage
  tl=$(h5dump -a /t_end "$small/p.h5" 2>/dev/null | sed -n 's/^ *(0): \([0-9.e+]*\)$/\1/p')
  if [ -n "$tl" ] && awk "BEGIN{exit !($tl > 10 && $tl < 600)}"; then ok; else bad "disk full: t_end '$tl'"; fi
  # a disk too small for even the first block: still a valid file and exit 74
  rm -f "$small/p.h5"
  dd if=/dev/zero of="$small/fill" bs=1k count=960 2>/dev/null
  timeout 60 "$AWESIM" simulate scenarios/pendulum.yaml --set run.duration=600 \
    -o "$small/p.h5" >/dev/null 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 74 ] && grep -q "No space left on device" "$tmp/err"; then ok
  else bad "nearly full disk: exit $rc"; fi
  if [ ! -e "$small/p.h5" ] || [ "$(rows "$small/p.h5")" -ge 0 ]; then ok
  else bad "nearly full disk: a file that does not open"; fi
  umount "$small"
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
