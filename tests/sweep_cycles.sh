#!/bin/sh
# sweep_cycles.sh: the pumping-cycle columns of a sweep's summary.csv, crashed runs, and the
# power curve of tools/awesim-plot with its annual energy.
#   columns     a 5-point wind sweep of the pumping aerostat (tests/data/sweep/pump_wind.yaml,
#               run point by point with sh sweep.sh N): each row's cycles equals the length of
#               the run's JSON "cycles" list and each cycle_median.* column its "cycle_median"
#               field (Python's json against the CSV, 1e-12 relative); runs without a full cycle
#               (8 and 16 m/s) have cycles 0 and 17 empty median cells, never 0; runs with one
#               have a negative power_mean (a balloon has no depower)
#   crashed     the same folder with faked crashes (h5py: the log's status attribute set to
#               crashed; the JSON's status crashed with a crash record): merged as crashed, the
#               crash record as the error, counted in the exit status and listed on stderr;
#               a log that says crashed with no JSON and no exit status is crashed too
#   plot        the power curve of the sweep: the runs without a cycle and the crashed ones are
#               listed on stderr, and the AEP printed equals the trapezoid of P f over the
#               swept speeds computed here (Python, from summary.csv) to 1e-6
#   fixture     tests/data/sweep/power_curve.csv (known powers; a crashed, a failed and a
#               no-cycle row among them): AEP for Rayleigh (awk, c = 2 mean / sqrt(pi)) and
#               Weibull k = 3 (Python math.gamma) to 1e-6; --by gives one AEP per curve, a key
#               scheduled with the wind (a function of it) one curve with the same AEP; bad
#               --aep-mean / --aep-shape exit 2; --power-curve on a summary without the cycle
#               columns exits 65
#   signal      a stop signal pending during the merge (SIGUSR1, as SIGINT/TERM/HUP/QUIT/ALRM)
#               ends it: exit 138, summary.csv unchanged
#   V3 sweeps   scenarios/sweeps/v3_power_curve.yaml and v3_schedule_search.yaml dry-run with 10
#               and 72 runs, and each run's wind ramp (inputs[0].to) ends on its v_wind
set -u
cd "$(dirname "$0")/.." || exit 2
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
PLOT=tools/awesim-plot
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() {
  name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}
# near A B RTOL
near() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d
  m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= r * (m > 1e-30 ? m : 1e-30)) }'; }

PY=$(tools/find-python) || PY=

# ---- the sweep, run point by point -------------------------------------------------------------
D=$T/pw
"$AWESIM" sweep -o "$D" tests/data/sweep/pump_wind.yaml >"$T/out" 2>"$T/err"
check "plan: $(cat "$T/err")" [ -s "$D/plan.tsv" ]
for i in 1 2 3 4 5; do sh "$D/sweep.sh" "$i"; done
"$AWESIM" sweep --merge "$D" 2>"$T/err"
rc=$?
check "merge exit $rc (0 expected): $(cat "$T/err")" [ "$rc" -eq 0 ]
check "no sanitizer report in a run log or the merge" \
  sh -c "! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' '$D'/run_*.log '$T/err'"
csv=$D/summary.csv
# a stop signal that arrives during the merge (here SIGUSR1, held pending by a mask the merge
# inherits) ends it between rows: exit 128 + 10, summary.csv left as it was
if [ -n "$PY" ]; then
  cp "$csv" "$T/summary.before"
  "$PY" - "$AWESIM" "$D" >"$T/sig.txt" 2>&1 <<'PYEOF'
import signal, subprocess, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
p = subprocess.Popen([sys.argv[1], "sweep", "--merge", sys.argv[2]], stderr=subprocess.PIPE)
p.send_signal(signal.SIGUSR1)
err = p.communicate()[1].decode()
print(p.returncode)
print(err)
PYEOF
  check "merge stopped by a pending SIGUSR1: $(cat "$T/sig.txt")" sh -c \
    "head -1 '$T/sig.txt' | grep -qx 138 && grep -q 'interrupted: summary not written' '$T/sig.txt' && cmp -s '$csv' '$T/summary.before'"
fi
check "header: cycles and the 17 cycle_median columns between rows and scenario" grep -q \
  ',rows,cycles,cycle_median.t_start\[s\],cycle_median.duration\[s\],.*,cycle_median.elevation_reel_out_mean\[deg\],.*,cycle_median.power_mean\[W\],cycle_median.power_electrical_mean\[W\],cycle_median.power_reel_out_mean\[W\],cycle_median.power_reel_in_mean\[W\],scenario,hdf5,error$' \
  "$csv"
# cycles per wind speed (8, 10, 12, 14, 16 m/s)
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cycles") c = i; next }
  { printf "%s%s", (NR > 2 ? " " : ""), $c }' "$csv")
check "cycles per run: '$got', expected '0 1 2 2 0'" [ "$got" = "0 1 2 2 0" ]
# no cycle: 17 empty cells, never 0
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^cycle_median\./) m[i] = 1; next }
  $2 == 8 || $2 == 16 { for (i in m) { n++; if ($i != "") bad++ } }
  END { print n + 0, bad + 0 }' "$csv")
check "no-cycle runs: 34 median cells all empty ('$got')" [ "$got" = "34 0" ]
if [ -n "$PY" ]; then
  "$PY" - "$D" >"$T/py" 2>&1 <<'EOF'
import csv, json, math, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/summary.csv")))
bad = []
for r in rows:
    j = json.load(open(f"{d}/run_{int(r['point']):03d}.json"))
    if r["cycles"] != str(len(j["cycles"])):
        bad.append(f"point {r['point']}: cycles {r['cycles']} vs {len(j['cycles'])}")
    med = j["cycle_median"]
    for k, v in r.items():
        if not k.startswith("cycle_median."):
            continue
        f = k[len("cycle_median."):].split("[")[0]
        want = None if med is None else med[f]
        if want is None:
            if v != "":
                bad.append(f"point {r['point']}: {k} '{v}', expected empty")
        elif v == "" or abs(float(v) - want) > 1e-12 * max(abs(want), 1e-300):
            bad.append(f"point {r['point']}: {k} '{v}' vs JSON {want!r}")
    if med is not None and not float(r["cycle_median.power_mean[W]"]) < 0:
        bad.append(f"point {r['point']}: power_mean not negative")
print("; ".join(bad) if bad else "equal")
EOF
  check "summary.csv cycle columns = the JSON's cycle_median: $(cat "$T/py")" \
    [ "$(cat "$T/py")" = equal ]
fi

# ---- faked crashes ---------------------------------------------------------------------------------
if [ -n "$PY" ]; then
  C=$T/crash
  cp -r "$D" "$C"
  rm -f "$C/summary.csv"
  "$PY" - "$C" <<'EOF'
import h5py, json, os, sys
d = sys.argv[1]
for n in (3, 4):
    with h5py.File(f"{d}/run_{n:03d}.h5", "r+") as f:
        f.attrs["status"] = "crashed"
j = json.load(open(f"{d}/run_003.json"))
j["status"] = "crashed"
j["exit_code"] = 3
j["crash"] = {"wing": "main_wing", "time": 12.5, "impact_speed": 7.25}
json.dump(j, open(f"{d}/run_003.json", "w"))
open(f"{d}/run_003.rc", "w").write("3\n")
for ext in ("json", "rc"):          # run 4: only the log says crashed
    os.remove(f"{d}/run_004.{ext}")
EOF
  "$AWESIM" sweep --merge "$C" 2>"$T/err"
  rc=$?
  check "crashed: no sanitizer report" sh -c "! grep -qE 'AddressSanitizer|runtime error' '$T/err'"
  check "crashed: merge exit $rc (2 not complete expected)" [ "$rc" -eq 2 ]
  check "crashed: run 3 listed with its crash: $(cat "$T/err")" grep -q \
    '^  run 003 (settings.environment.v_wind=12): crashed, exit 3: crash: wing main_wing, time 12.5, impact_speed 7.25$' \
    "$T/err"
  check "crashed: run 4 listed" grep -q '^  run 004 (settings.environment.v_wind=14): crashed' \
    "$T/err"
  check "crashed: 3 of 5 complete" grep -q '3 of 5 runs complete' "$T/err"
  check "crashed: row 3 status crashed, exit 3" grep -q '^3,12,crashed,3,' "$C/summary.csv"
  check "crashed: row 4 status crashed, no exit code" grep -q '^4,14,crashed,,' "$C/summary.csv"
  check "crashed: the crash record in the error column" \
    grep -q '^3,12,crashed,.*,"crash: wing main_wing, time 12.5, impact_speed 7.25"$' \
    "$C/summary.csv"
  "$AWESIM" sweep --pending "$C" >"$T/pending" 2>"$T/err"
  check "crashed: --pending lists 3 and 4" [ "$(tr '\n' ' ' <"$T/pending")" = "3 4 " ]
fi

# ---- the power curve of the sweep ----------------------------------------------------------------
if [ -n "$PY" ]; then
  "$PLOT" "$D" --aep-mean 7 -o "$T/pc.png" --size 800x500 2>"$T/err"
  rc=$?
  check "power curve exit $rc: $(cat "$T/err")" [ "$rc" -eq 0 ] && [ -s "$T/pc.png" ]
  check "power curve: the formula on stderr" grep -q \
    'AEP = 8766 h x the trapezoid over the swept wind speeds .* 0 outside the swept range' \
    "$T/err"
  check "power curve: no-cycle runs listed" grep -q \
    '^  point 1 (settings.environment.v_wind=8): complete, no full cycle$' "$T/err"
  check "power curve: no-cycle run at 16 listed" grep -q \
    '^  point 5 (settings.environment.v_wind=16): complete, no full cycle$' "$T/err"
  got=$(sed -n 's/.*AEP: mechanical \([^ ]*\) kWh, electrical \([^ ]*\) kWh per year.*/\1 \2/p' \
    "$T/err")
  want=$("$PY" - "$D/summary.csv" <<'EOF'
import csv, math, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["cycles"] not in ("", "0")]
c = 7 / math.gamma(1.5)
f = lambda v: 2 / c * (v / c) * math.exp(-(v / c) ** 2)
v = [float(r["settings.environment.v_wind"]) for r in rows]
for col in ("cycle_median.power_mean[W]", "cycle_median.power_electrical_mean[W]"):
    g = [float(r[col]) * f(x) for r, x in zip(rows, v)]
    e = 8766 * sum((v[i + 1] - v[i]) * (g[i] + g[i + 1]) / 2 for i in range(len(v) - 1)) / 1e3
    print(repr(e), end=" ")
EOF
)
  m=$(echo "$got" | cut -d' ' -f1)
  e=$(echo "$got" | cut -d' ' -f2)
  hm=$(echo "$want" | cut -d' ' -f1)
  he=$(echo "$want" | cut -d' ' -f2)
  echo "sweep_cycles: AEP of the sweep (mean 7 m/s, Rayleigh): printed $m / $e kWh," \
    "by hand $hm / $he kWh"
  near "$m" "$hm" 1e-6 && near "$e" "$he" 1e-6 && ok || bad "AEP printed '$got', by hand '$want'"
  "$PLOT" "$C" --aep-mean 7 -o "$T/pcc.png" --size 800x500 2>"$T/err"
  rc=$?
  check "power curve with crashes: exit $rc" [ "$rc" -eq 0 ]
  check "power curve: crashed run listed: $(cat "$T/err")" grep -q \
    '^  point 3 (settings.environment.v_wind=12): crashed, exit 3: crash: wing main_wing' "$T/err"
  check "power curve: 4 of 5 left out" grep -q 'not on the power curve (never averaged in), 4 of 5 runs' \
    "$T/err"
  check "power curve: one point left, no AEP" grep -q 'fewer than two swept wind speeds' "$T/err"
fi

# ---- the fixture: known powers ----------------------------------------------------------------------
if [ -n "$PY" ]; then
  F=tests/data/sweep/power_curve.csv
  # points on the curve: 6, 8, 10, 12 m/s (1, 3, 5, 6 kW mechanical; 0.8, 2.5, 4.4, 5.3 kW
  # electrical); left out: 4 (no cycle), 9 (crashed), 14 (failed)
  hand() {  # hand MEAN COLUMN: Rayleigh AEP in kWh by awk
    awk -F, -v mean="$1" -v col="$2" 'BEGIN { c = 2 * mean / sqrt(atan2(0, -1)) }
      NR == 1 { for (i = 1; i <= NF; i++) { if ($i == col) p = i; if ($i == "status") s = i
                if ($i == "cycles") cy = i }; next }
      $s == "complete" && $cy > 0 && $p != "" {
        n++; v[n] = $2; x = $2 / c; g[n] = $p * 2 / c * x * exp(-x * x) }
      END { for (i = 1; i < n; i++) e += (v[i + 1] - v[i]) * (g[i] + g[i + 1]) / 2
            printf "%.12g\n", 8766 * e / 1e3 }' "$F"
  }
  "$PLOT" "$F" --aep-mean 7 -o "$T/f.png" --size 640x400 2>"$T/err"
  rc=$?
  check "fixture: exit $rc: $(cat "$T/err")" [ "$rc" -eq 0 ]
  got=$(sed -n 's/.*AEP: mechanical \([^ ]*\) kWh, electrical \([^ ]*\) kWh per year.*/\1 \2/p' \
    "$T/err")
  hm=$(hand 7 'cycle_median.power_mean[W]')
  he=$(hand 7 'cycle_median.power_electrical_mean[W]')
  echo "sweep_cycles: fixture AEP (mean 7 m/s, Rayleigh): printed $got kWh, by hand $hm $he kWh"
  near "$(echo "$got" | cut -d' ' -f1)" "$hm" 1e-6 && near "$(echo "$got" | cut -d' ' -f2)" \
    "$he" 1e-6 && ok || bad "fixture AEP printed '$got', by hand '$hm $he'"
  check "fixture: the range and its share of the hours" grep -q \
    'the swept range 6 .. 12 m/s holds .* % of the hours, P = 0 below 6 and above 12 m/s' "$T/err"
  check "fixture: three runs listed" grep -q '3 of 7 runs:' "$T/err"
  check "fixture: no cycle" grep -q '^  point 1 (settings.environment.v_wind=4): complete, no full cycle$' "$T/err"
  check "fixture: crashed" grep -q '^  point 4 (settings.environment.v_wind=9): crashed, exit 3: ' "$T/err"
  check "fixture: failed" grep -q '^  point 7 (settings.environment.v_wind=14): failed, exit 1: boom$' "$T/err"
  # Weibull k = 3, mean 6.5 m/s: Python's gamma function
  "$PLOT" "$F" --aep-mean 6.5 --aep-shape 3 -o "$T/f3.png" --size 640x400 2>"$T/err"
  got=$(sed -n 's/.*AEP: mechanical \([^ ]*\) kWh.*/\1/p' "$T/err")
  want=$("$PY" -c '
import math
c = 6.5 / math.gamma(1 + 1 / 3)
f = lambda v: 3 / c * (v / c) ** 2 * math.exp(-(v / c) ** 3)
v, p = [6, 8, 10, 12], [1000, 3000, 5000, 6000]
g = [a * f(x) for a, x in zip(p, v)]
print(repr(8766 * sum((v[i + 1] - v[i]) * (g[i] + g[i + 1]) / 2 for i in range(3)) / 1e3))')
  echo "sweep_cycles: fixture AEP (mean 6.5 m/s, k = 3): printed $got kWh, by hand $want kWh"
  near "$got" "$want" 1e-6 && ok || bad "k = 3: AEP printed '$got', by hand '$want'"
  # one curve per value of another key
  awk -F, 'BEGIN { OFS = "," } NR == 1 { $1 = $1 ",d"; print; next }
    { line = $0; $1 = $1 ",1"; print; $0 = line; $1 = $1 ",2"; print }' "$F" >"$T/by.csv"
  "$PLOT" "$T/by.csv" --aep-mean 7 -o "$T/by.png" --size 640x400 2>"$T/err"
  check "--by: two AEP lines: $(cat "$T/err")" [ "$(grep -c '^awesim-plot: AEP (d=[12]): mechanical' "$T/err")" -eq 2 ]
  # a set-point scheduled with the wind (a second key that follows the wind in every run) is
  # one curve: the same AEP as the fixture's
  awk -F, 'BEGIN { OFS = "," } NR == 1 { $1 = $1 ",f"; print; next } { $1 = $1 "," 100 * $2; print }' \
    "$F" >"$T/sch.csv"
  "$PLOT" "$T/sch.csv" --aep-mean 7 -o "$T/sch.png" --size 640x400 2>"$T/err"
  got=$(sed -n 's/^awesim-plot: AEP: mechanical \([^ ]*\) kWh.*/\1/p' "$T/err")
  near "$got" "$hm" 1e-6 && ok || bad "scheduled key: one curve, AEP '$got' (want $hm): $(cat "$T/err")"
  "$PLOT" "$T/by.csv" --x d -o "$T/byx.png" --size 640x400 2>"$T/err"
  check "--x another key: the results figure, no power curve: $(cat "$T/err")" \
    sh -c "[ -s '$T/byx.png' ] && ! grep -q 'power curve' '$T/err'"
  # no run with a full cycle (the cycle columns all empty): the results figure
  awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cycles") c = i
    print; next } { $c = 0; print }' "$F" | grep -v crashed | grep -v failed >"$T/nocy.csv"
  "$PLOT" "$T/nocy.csv" -o "$T/nocy.png" --size 640x400 2>"$T/err"
  check "no full cycle anywhere: the results figure: $(cat "$T/err")" \
    sh -c "[ -s '$T/nocy.png' ] && ! grep -q 'power curve' '$T/err'"
  "$PLOT" "$F" --aep-mean 0 -o "$T/x.png" 2>/dev/null
  check "--aep-mean 0: exit 2" [ $? -eq 2 ]
  "$PLOT" "$F" --aep-mean 7 --aep-shape -1 -o "$T/x.png" 2>/dev/null
  check "--aep-shape -1: exit 2" [ $? -eq 2 ]
  "$PLOT" "$F" --power-curve --y force_mean -o "$T/x.png" 2>/dev/null
  check "--power-curve with --y: exit 2" [ $? -eq 2 ]
  printf 'point,settings.environment.v_wind,status,force_mean[N]\n1,4,complete,3\n' >"$T/old.csv"
  "$PLOT" "$T/old.csv" --power-curve -o "$T/x.png" 2>"$T/err"
  check "--power-curve without cycle columns: exit 65" [ $? -eq 65 ]
  "$PLOT" "$T/old.csv" -o "$T/old.png" --size 320x200 2>"$T/err"
  check "without cycle columns the default is the results figure" [ $? -eq 0 ]
else
  echo "SKIP sweep_cycles: the crash, plot and JSON checks need a Python 3 with numpy, h5py" \
    "and matplotlib"
fi

# ---- the shipped V3 sweeps: valid, the planned runs, each run's wind ramp ends on its wind ----
for f in v3_power_curve:10 v3_schedule_search:72; do
  name=${f%%:*}
  want=${f##*:}
  "$AWESIM" sweep "scenarios/sweeps/$name.yaml" --dry-run >"$T/dry.txt" 2>"$T/err"
  rc=$?
  n=$(grep -c "simulate" "$T/dry.txt")
  if [ "$rc" -eq 0 ] && [ "$n" -eq "$want" ]; then ok
  else bad "$name: dry run exit $rc, $n runs (want $want): $(head -c 300 "$T/err")"; fi
  odd=$(sed -n "s/.*'settings.environment.v_wind=\([^']*\)' --set 'inputs\[0\].to=\([^']*\)'.*/\1 \2/p" \
    "$T/dry.txt" | awk '$1 != $2' | wc -l)
  m=$(grep -c "inputs\[0\].to=" "$T/dry.txt")
  if [ "$odd" -eq 0 ] && [ "$m" -eq "$want" ]; then ok
  else bad "$name: the wind ramp ends on each run's wind ($odd of $m differ)"; fi
done

echo "sweep_cycles: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
