#!/bin/sh
# output_guard.sh: a run never destroys a file, ends cleanly on every signal that ends a session,
# and reports honestly how it ended.
#   - an output (-o, output.hdf5, --summary-json, standard output with --csv) that is a file the
#     run reads (the scenario, a model file; by hard link, symbolic link or another spelling) or
#     another output of the run is refused with exit 74 and the file keeps its bytes;
#   - closed standard descriptors: the HDF5 log stays HDF5, --csv with stdout closed is refused;
#   - SIGHUP, SIGQUIT, SIGUSR1, SIGALRM end a run like SIGTERM: exit 128 + signal, log status
#     "interrupted" with every row up to t_end; SIGHUP stays ignored under nohup;
#   - --summary-json: FIFOs and devices refused (no hang after the run), missing folders created
#     at every level (as for -o); a failed CSV write fails the run (74), a closed CSV pipe
#     interrupts it (141), neither is "complete";
#   - polar: standard output that cannot be written is exit 74;
#   - values in range errors print every digit that matters, counts must be whole, run.vsm_dt and
#     run.dt have a floor, polar names its angle limit; step counts are the run's own.
AWESIM=${AWESIM:-./awesim}
case "$AWESIM" in /*) ;; *) AWESIM="$(pwd)/$AWESIM" ;; esac
pass=0
fail=0
skip=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -10; }
grep_in() { if grep -qE -e "$3" "$2"; then ok; else bad "$1: no /$3/ in $2"; fi; }

# attr FILE NAME: a root attribute's value ("" if unreadable); rows FILE: rows of /time
attr() { h5dump -a "/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): "*\([^"]*\)"*$/\1/p'; }
rows() {
  r=$(h5dump -H -d /time "$1" 2>/dev/null | sed -n 's/.*DATASPACE  SIMPLE { ( \([0-9]*\) ).*/\1/p')
  echo "${r:--1}"
}
have_h5dump=1
command -v h5dump >/dev/null 2>&1 || have_h5dump=0

# a private copy of the pendulum: its scenario and model files are the victims
cp -r models/pendulum "$tmp/model"
sed 's|model: ../models/pendulum/system.yaml|model: ../model/system.yaml|; s|hdf5: ../out/pendulum.h5|hdf5: ../out/p.h5|' \
  scenarios/pendulum.yaml >"$tmp/p.yaml.txt"
mkdir -p "$tmp/sc"
cp "$tmp/p.yaml.txt" "$tmp/sc/p.yaml"
S="$tmp/sc/p.yaml"
cp -r "$tmp/model" "$tmp/model.orig"

# refused NAME CMD...: exit 74, the scenario and the model files unchanged, message names a read
refused() {
  name=$1
  shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 74 ]; then ok; else bad "$name: exit $rc, expected 74"; fi
  if cmp -s "$S" "$tmp/p.yaml.txt" && diff -r "$tmp/model" "$tmp/model.orig" >/dev/null; then ok
  else bad "$name: an input file was changed"; cp "$tmp/p.yaml.txt" "$S"; rm -rf "$tmp/model"
    cp -r "$tmp/model.orig" "$tmp/model"; fi
}

D="--set run.duration=0.2"
refused out-is-scenario "$AWESIM" simulate "$S" $D -o "$S"
grep_in out-is-scenario-msg "$tmp/err" "^awesim: error: -o .*sc/p\.yaml: this is .*p\.yaml, a file this run reads"
refused out-is-scenario-dotdot "$AWESIM" simulate "$S" $D -o "$tmp/sc/../sc/p.yaml"
ln "$S" "$tmp/hard.yaml"
refused json-is-scenario-hardlink "$AWESIM" simulate "$S" $D --no-hdf5 --summary-json "$tmp/hard.yaml"
ln -s "$tmp/model/system.yaml" "$tmp/sym.h5"
refused out-is-model-symlink "$AWESIM" simulate "$S" $D -o "$tmp/sym.h5"
grep_in out-is-model-msg "$tmp/err" "this is .*model/system\.yaml, a file this run reads"
for f in "$tmp"/model/*.yaml; do
  refused "out-is-model-$(basename "$f")" "$AWESIM" simulate "$S" $D -o "$f"
done
# the scenario's own output.hdf5 naming a model file
sed 's|hdf5: ../out/p.h5|hdf5: ../model/system.yaml|' "$tmp/p.yaml.txt" >"$tmp/sc/own.yaml"
cp "$tmp/sc/own.yaml" "$tmp/own.txt"
"$AWESIM" simulate "$tmp/sc/own.yaml" $D >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ] && cmp -s "$tmp/model/system.yaml" "$tmp/model.orig/system.yaml"; then ok
else bad "output.hdf5-is-model: exit $rc"; fi
grep_in output.hdf5-is-model-msg "$tmp/err" '^awesim: error: output\.hdf5 .*system\.yaml: this is'
cp "$tmp/model.orig/system.yaml" "$tmp/model/system.yaml"
# CSV appended to the scenario
"$AWESIM" simulate "$S" $D --no-hdf5 --csv=time >>"$S" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ] && cmp -s "$S" "$tmp/p.yaml.txt"; then ok; else bad "csv-into-scenario: exit $rc"
  cp "$tmp/p.yaml.txt" "$S"; fi
grep_in csv-into-scenario-msg "$tmp/err" 'standard output \(the CSV rows\) is .*p\.yaml, a file this run reads'

# the other run commands: -o naming the scenario or a model file, or an input of their own
refused lin-out-is-scenario "$AWESIM" linearize "$S" --allow-nonequilibrium -q -o "$S"
refused lin-csv-is-model "$AWESIM" linearize "$S" --allow-nonequilibrium -q \
  --lin "$tmp/model/system.yaml"
refused trim-out-is-scenario "$AWESIM" trim "$S" -q -o "$S"
refused step-out-is-scenario "$AWESIM" step-response "$S" --input points.bob.force.x \
  --amplitude 1 --duration 0.1 -q -o "$S"
"$AWESIM" trim "$S" -q -o "$tmp/t.h5" >/dev/null 2>&1
cp "$tmp/t.h5" "$tmp/t.keep"
"$AWESIM" linearize "$S" --from "$tmp/t.h5" -q -o "$tmp/t.h5" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ] && cmp -s "$tmp/t.h5" "$tmp/t.keep"; then ok
else bad "lin-out-is-from: exit $rc, the trim file $(cmp -s "$tmp/t.h5" "$tmp/t.keep" && echo kept || echo changed)"; fi
printf 'seed: 1\nn: [16, 4, 4]\nd: 2\nti: 0.1\nv_ref: 10\nh_ref: 10\nz_bottom: 0\n' >"$tmp/box.yaml"
cp "$tmp/box.yaml" "$tmp/box.keep"
"$AWESIM" wind generate "$tmp/box.yaml" -o "$tmp/box.yaml" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ] && cmp -s "$tmp/box.yaml" "$tmp/box.keep"; then ok
else bad "wind-out-is-spec: exit $rc"; fi

# two outputs of one run on the same file: an older log there keeps its bytes
printf 'old log' >"$tmp/same.h5"
"$AWESIM" simulate "$S" $D -o "$tmp/same.h5" --summary-json "$tmp/./same.h5" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ] && [ "$(cat "$tmp/same.h5")" = "old log" ]; then ok
else bad "out-and-json-same: exit $rc, content '$(head -c 20 "$tmp/same.h5")'"; fi
grep_in out-and-json-same-msg "$tmp/err" 'are the same file'
# not yet existing: the same name spelled twice
"$AWESIM" simulate "$S" $D -o "$tmp/new.h5" --summary-json "$tmp/sc/../new.h5" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ] && [ ! -e "$tmp/new.h5" ]; then ok; else bad "out-and-json-new-same: exit $rc"; fi
"$AWESIM" simulate "$S" $D -o "$tmp/o.h5" --csv=time >>"$tmp/o.h5" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ]; then ok; else bad "csv-into-log: exit $rc"; fi

# ---- closed standard descriptors ----
"$AWESIM" simulate "$S" $D -o "$tmp/c.h5" --csv=time >&- 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ] && [ ! -e "$tmp/c.h5" ]; then ok; else bad "csv-stdout-closed: exit $rc"; fi
grep_in csv-stdout-closed-msg "$tmp/err" 'standard output is closed or not open for writing'
"$AWESIM" simulate "$S" $D -o "$tmp/c2.h5" >&- 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then ok; else bad "stdout-closed: exit $rc"; fi
if [ $have_h5dump -eq 1 ]; then
  if [ "$(attr "$tmp/c2.h5" status)" = complete ] && [ "$(rows "$tmp/c2.h5")" -eq 21 ]; then ok
  else bad "stdout-closed: log status '$(attr "$tmp/c2.h5" status)', $(rows "$tmp/c2.h5") rows"; fi
fi
"$AWESIM" simulate "$S" $D -o "$tmp/c3.h5" <&- >&- 2>&-
rc=$?
if [ "$rc" -eq 0 ] && { [ $have_h5dump -eq 0 ] || [ "$(rows "$tmp/c3.h5")" -eq 21 ]; }; then ok
else bad "all-closed: exit $rc"; fi

# ---- the signals that end a session end a run like SIGTERM ----
for sig in HUP:129 QUIT:131 USR1:138 ALRM:142; do
  name=${sig%:*}
  want=${sig#*:}
  "$AWESIM" simulate "$S" --set run.duration=100000 -o "$tmp/sig.h5" >/dev/null 2>"$tmp/err" &
  pid=$!
  i=0
  while ! grep -q . "$tmp/sig.h5" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  sleep 0.5
  kill "-$name" "$pid"
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    bad "SIG$name: still running 10 s after the signal"
  fi
  wait "$pid"
  rc=$?
  if [ "$rc" -eq "$want" ]; then ok; else bad "SIG$name: exit $rc, expected $want"; fi
  grep_in "SIG$name-msg" "$tmp/err" "^awesim: interrupted by SIG$name at t = "
  if [ $have_h5dump -eq 1 ]; then
    st=$(attr "$tmp/sig.h5" status)
    t=$(attr "$tmp/sig.h5" t_end)
    n=$(rows "$tmp/sig.h5")
    # every row up to t_end is in the log (dt = 0.01 s): no block lost
    if [ "$st" = interrupted ] && [ -n "$t" ] &&
       awk "BEGIN{exit !($n >= 2 && $n == int($t / 0.01 + 0.5) + 1)}"; then ok
    else bad "SIG$name: log status '$st', t_end '$t', $n rows"; fi
  fi
done
# nohup(1) ignores SIGHUP: the run outlives it
(trap '' HUP; exec "$AWESIM" simulate "$S" --set run.duration=3000 --no-hdf5 -q \
  --summary-json "$tmp/nohup.json") &
pid=$!
sleep 0.3
kill -HUP "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '"status": "complete"' "$tmp/nohup.json"; then ok
else bad "nohup: exit $rc"; fi

# ---- --summary-json: no FIFO, no device; folders created; write errors are errors ----
mkfifo "$tmp/fifo"
timeout -k 5 30 "$AWESIM" simulate "$S" $D --no-hdf5 --summary-json "$tmp/fifo" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ]; then ok; else bad "json-fifo: exit $rc, expected 74"; fi
grep_in json-fifo-msg "$tmp/err" 'fifo: not a regular file'
timeout -k 5 30 "$AWESIM" simulate "$S" $D --no-hdf5 --summary-json /dev/full >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ]; then ok; else bad "json-dev-full: exit $rc, expected 74"; fi
"$AWESIM" simulate "$S" $D -q -o "$tmp/a/b/c/x.h5" --summary-json "$tmp/d/e/f/s.json" \
  >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ -s "$tmp/a/b/c/x.h5" ] && grep -q '"status": "complete"' "$tmp/d/e/f/s.json"
then ok; else bad "nested-folders: exit $rc"; fi
# the summary replaces an old one whole (no temporary file left beside it)
if [ -z "$(ls -A "$tmp/d/e/f" | grep -v '^s\.json$')" ]; then ok; else bad "json-temp-left: $(ls -A "$tmp/d/e/f")"; fi

# ---- CSV: a failed write fails the run, a closed pipe interrupts it ----
"$AWESIM" simulate "$S" $D --no-hdf5 --csv=time --summary-json "$tmp/full.json" >/dev/full 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ] && grep -q '"status": "failed"' "$tmp/full.json"; then ok
else bad "csv-dev-full: exit $rc"; fi
grep_in csv-dev-full-msg "$tmp/err" 'CSV output: No space left on device'
( "$AWESIM" simulate scenarios/hanging_tether_winch.yaml --set run.duration=20000 -o "$tmp/pipe.h5" \
    --csv=time --summary-json "$tmp/pipe.json" 2>"$tmp/err"; echo $? >"$tmp/rc" ) | head -2 >/dev/null
rc=$(cat "$tmp/rc")
if [ "$rc" -eq 141 ]; then ok; else bad "csv-pipe: exit $rc, expected 141"; fi
grep_in csv-pipe-json "$tmp/pipe.json" '"status": "interrupted", "exit_code": 141'
grep_in csv-pipe-why "$tmp/pipe.json" '"interrupted_by": "EPIPE"'
if grep -q 'complete' "$tmp/err"; then bad "csv-pipe: reported complete"; else ok; fi
if [ $have_h5dump -eq 1 ]; then
  if [ "$(attr "$tmp/pipe.h5" status)" = interrupted ] && [ "$(attr "$tmp/pipe.h5" interrupted_by)" = EPIPE ]
  then ok; else bad "csv-pipe: log status '$(attr "$tmp/pipe.h5" status)'"; fi
fi

# ---- ranges and counts ----
chk() { # chk NAME EXIT REGEX ARGS...
  name=$1 want=$2 re=$3
  shift 3
  timeout -k 5 30 "$AWESIM" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq "$want" ]; then ok; else bad "$name: exit $rc, expected $want"; fi
  grep_in "$name-msg" "$tmp/err" "$re"
}
P=scenarios/2plate_parked.yaml
chk jac-tol-digits 65 'run\.vsm_jacobian_tol: 0\.1000001 is out of range \(allowed: >= 0 \.\.\. 0\.1\)' \
  check $P --set run.vsm_jacobian_tol=0.1000001
chk max-steps-whole 65 'run\.max_steps: expected a whole number of steps, got 1\.5' \
  check $P --set run.max_steps=1.5
chk vsm-dt-floor 65 'run\.vsm_dt: 1e-300 is out of range \(allowed: >= 1e-06' \
  simulate $P --no-hdf5 --set run.vsm_interval=null --set run.vsm_dt=1e-300
chk dt-floor 65 'run\.dt = 2e-09 s is out of range \(allowed: >= 1e-06 s' \
  check $P --set run.dt=2e-9 --set run.duration=0.93
chk dt-small-warns 0 'warning: .*run\.dt = 5e-06 s: 1\.2e\+08 log rows for run\.duration = 600 s' \
  check $P --set run.dt=5e-6
chk polar-limit 2 "--alpha '0:100001:1': 100002 angles; at most 100001 per range" \
  polar models/2plate_kite/aero_geometry.yaml --alpha 0:100001:1

# polar: a CSV that cannot be written is an error, not a silent success
"$AWESIM" polar models/2plate_kite/aero_geometry.yaml --alpha 0:2:1 >/dev/full 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ]; then ok; else bad "polar-dev-full: exit $rc, expected 74"; fi
grep_in polar-dev-full-msg "$tmp/err" 'cannot write the CSV to standard output: No space left on device'
"$AWESIM" polar models/2plate_kite/aero_geometry.yaml --alpha 0:2:1 >&- 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 74 ]; then ok; else bad "polar-stdout-closed: exit $rc, expected 74"; fi

# step counts: the run's own, the settling's apart (2plate_parked settles first)
"$AWESIM" simulate $P --no-hdf5 --set run.duration=0.1 --summary-json "$tmp/st.json" 2>"$tmp/err"
steps=$(sed -n 's/.*"steps": \([0-9]*\),.*/\1/p' "$tmp/st.json")
settle=$(sed -n 's/.*"settling_steps": \([0-9]*\),.*/\1/p' "$tmp/st.json")
if [ -n "$steps" ] && [ -n "$settle" ] && [ "$steps" -lt 500 ] && [ "$settle" -gt 1000 ]; then ok
else bad "own-steps: steps '$steps', settling_steps '$settle'"; fi
grep_in own-steps-summary "$tmp/err" "^awesim: complete: .*; steps $steps \\("
grep_in settling-steps-summary "$tmp/err" "^awesim: settling: steps $settle \\("

# a signal inside one long log step (run.dt 50 s: many integrator steps between two rows) keeps
# the steps counted so far (the integrator's counters restart after a stop from inside; before,
# the count fell back to 0 while the right-hand sides kept theirs)
"$AWESIM" simulate scenarios/aerostat.yaml --no-hdf5 --set run.duration=5000000 --set run.dt=50 \
  --set settings.environment.v_wind=10 --summary-json "$tmp/sig.json" 2>"$tmp/err" &
spid=$!
i=0
while [ $i -lt 100 ] && ! grep -q 'steady state' "$tmp/err" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
sleep 0.2
kill -TERM $spid 2>/dev/null
wait $spid
steps=$(sed -n 's/.*"steps": \([0-9]*\),.*/\1/p' "$tmp/sig.json")
rhs=$(sed -n 's/.*"rhs_calls": \([0-9]*\),.*/\1/p' "$tmp/sig.json")
tend=$(sed -n 's/.*"t_end": \([0-9.e+]*\),.*/\1/p' "$tmp/sig.json")
if [ -n "$steps" ] && [ "$steps" -gt 0 ] && [ -n "$rhs" ] && [ "$rhs" -gt "$steps" ]; then ok
else bad "interrupted-steps: steps '$steps', rhs '$rhs' at t_end '$tend'"; fi

echo "output_guard: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
