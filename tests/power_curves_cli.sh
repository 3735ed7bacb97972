#!/bin/sh
# power_curves_cli.sh: tools/awesim-power-curves writes a pumping sweep's power curve as an
# awesIO power-curve file that awesIO's own schema accepts (tests/data/awesio/
# power_curves_schema.yml, python3-jsonschema), with the sweep summary's numbers at the
# reference height the runs' scenario states; awesim-plot reads it back and its AEP is the
# summary's to every printed digit.
. tests/lib/cli.sh
py=/usr/bin/python3
if ! $py -c 'import jsonschema, yaml, h5py' 2>/dev/null; then
  bad "python3-jsonschema (tools/install-deps --tests)"
  echo "power_curves_cli: $pass passed, $fail failed"
  exit 1
fi
fix=tests/data/sweep/power_curve.csv

# the fixture: 7 wind speeds, 4 complete with full cycles (6, 8, 10, 12 m/s); 4 m/s has no
# cycle, 9 crashed, 14 failed
check "write" 0 $py tools/awesim-power-curves $fix -o "$tmp/pc.yml" --reference-height 6
grep_in "summary line" "$tmp/err" "wrote .*pc.yml: 7 wind speeds \(4 successful\) at 6 m"
cat >"$tmp/v.py" <<'PY'
import sys, yaml, jsonschema
s = yaml.safe_load(open("tests/data/awesio/power_curves_schema.yml"))
d = yaml.safe_load(open(sys.argv[1]))
errs = [e.message for e in jsonschema.Draft7Validator(s).iter_errors(d)]
c = d["power_curves"][0]["wind_speed_data"]
ok = [e["wind_speed"] for e in c if e["successful"]]
p = {e["wind_speed"]: e["performance"]["power"] for e in c if e["successful"]}
t = {e["wind_speed"]: e["performance"]["timing"] for e in c if e["successful"]}
print("errors", len(errs), "height", d["metadata"]["wind_resource"]["reference_height"],
      "altitudes", d["altitudes"], "speeds", d["reference_wind_speeds"], "successful", ok,
      "p6", p[6.0]["average_cycle_power"], p[6.0]["average_cycle_power_electrical"],
      "p12", p[12.0]["average_cycle_power"], p[12.0]["average_cycle_power_electrical"],
      "cycle6", t[6.0]["cycle_time"], "nan", "nan" in open(sys.argv[1]).read())
for e in errs: print(e, file=sys.stderr)
PY
check "schema" 0 $py "$tmp/v.py" "$tmp/pc.yml"
grep_in "values" "$tmp/out" "^errors 0 height 6.0 altitudes \[6.0\] speeds \[4.0, 6.0, 8.0, 9.0, 10.0, 12.0, 14.0\] successful \[6.0, 8.0, 10.0, 12.0\] p6 1000.0 800.0 p12 6000.0 5300.0 cycle6 20.0 nan False$"

# awesim-plot reads it back: the same AEP as from the summary
check "aep csv" 0 tools/awesim-plot $fix --aep-mean 6.2 -o "$tmp/a.png"
grep "AEP:" "$tmp/err" | sed 's/.*AEP:/AEP:/' >"$tmp/aep_csv"
check "aep yml" 0 tools/awesim-plot "$tmp/pc.yml" --aep-mean 6.2 -o "$tmp/b.png"
grep "AEP:" "$tmp/err" | sed 's/.*AEP:/AEP:/' >"$tmp/aep_yml"
grep_in "aep numbers" "$tmp/aep_csv" "^AEP: mechanical 11683.7938 kWh, electrical 9986.85797 kWh"
cmp -s "$tmp/aep_csv" "$tmp/aep_yml" && ok || bad "AEP from power_curves.yml differs from the summary's"

# the reference height is the runs' own (settings.environment.h_ref in the logged scenario)
check "log" 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --set run.duration=0.1 \
  --set settings.environment.h_ref=7 -o "$tmp/run_001.h5" -q
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hdf5") c = i; print; next }
         { $c = "run_001.h5"; print }' OFS=, $fix >"$tmp/summary.csv"
check "height from the log" 0 $py tools/awesim-power-curves "$tmp"
grep_in "at 7 m" "$tmp/err" "wrote .*/power_curves.yml: 7 wind speeds \(4 successful\) at 7 m"
check "no height" 65 $py tools/awesim-power-curves $fix -o "$tmp/x.yml"
grep_in "no height named" "$tmp/err" "settings.environment.h_ref; give --reference-height"

# the V3 sweep (scenarios/sweeps/v3_power_curve.yaml, 10 runs of 600 s; its summary shipped):
# the file's numbers are the summary's, as the sweep's header states them (kW, mechanical /
# electrical: 4 m/s 0.245 / 0.061 ... 10 m/s 6.010 / 4.798), 3 m/s crashed, and the AEP for a
# Rayleigh wind of 6.2 m/s is 21.6 / 18.0 MWh from either
v3=tests/data/sweep/v3_power_curve_summary.csv
check "v3 write" 0 $py tools/awesim-power-curves $v3 -o "$tmp/v3.yml" --reference-height 6
cat >"$tmp/v3.py" <<'PY'
import sys, yaml, jsonschema
s = yaml.safe_load(open("tests/data/awesio/power_curves_schema.yml"))
d = yaml.safe_load(open(sys.argv[1]))
errs = list(jsonschema.Draft7Validator(s).iter_errors(d))
c = d["power_curves"][0]["wind_speed_data"]
print("errors", len(errs), " ".join(
    f"{e['wind_speed']:g}:" + (f"{e['performance']['power']['average_cycle_power'] / 1e3:.3f}/"
                               f"{e['performance']['power']['average_cycle_power_electrical'] / 1e3:.3f}"
                               if e["successful"] else "no") for e in c))
PY
check "v3 schema" 0 $py "$tmp/v3.py" "$tmp/v3.yml"
grep_in "v3 values" "$tmp/out" "^errors 0 3:no 4:0.245/0.061 5:1.280/0.975 6:2.871/2.502 7:4.418/3.850 8:5.266/4.612 9:5.918/4.778 10:6.010/4.798 11:5.944/4.670 12:5.220/4.040$"
check "v3 shipped" 0 $py "$tmp/v3.py" docs/v3_power_curves.yml
grep_in "v3 shipped values" "$tmp/out" "^errors 0 3:no 4:0.245/0.061 5:1.280/0.975 6:2.871/2.502 .* 12:5.220/4.040$"
# its phase powers (the sweep rerun with them: every other column unchanged), kW at 5 / 10 m/s
check "v3 phase powers" 0 $py -c "import yaml
c = yaml.safe_load(open('docs/v3_power_curves.yml'))['power_curves'][0]['wind_speed_data']
p = {e['wind_speed']: e['performance']['power'] for e in c if e['successful']}
print(' '.join(f\"{p[v]['average_reel_out_power'] / 1e3:.3f}/{p[v]['average_reel_in_power'] / 1e3:.3f}\" for v in (5.0, 10.0)))"
grep_in "v3 phase power values" "$tmp/out" "^2.409/-3.971 22.073/-7.164$"
check "v3 aep" 0 tools/awesim-plot docs/v3_power_curves.yml --aep-mean 6.2 -o "$tmp/v3.png"
grep_in "v3 aep numbers" "$tmp/err" "AEP: mechanical 21617.416 kWh, electrical 17961.5434 kWh per year"

# tools/awesim-sweep writes power_curves.yml after its merge when the sweep is over the wind
# (the aerostat, 2 wind speeds, no pumping: both unsuccessful)
cat >"$tmp/grid.yaml" <<EOG
scenario: $root/scenarios/aerostat.yaml
output: $tmp/sw
set:
  run.duration: 1
  settings.environment.h_ref: 10
list:
  - {settings.environment.v_wind: 4}
  - {settings.environment.v_wind: 8}
EOG
check "sweep" 0 tools/awesim-sweep -j 1 -q --awesim "$AWESIM" "$tmp/grid.yaml"
check "sweep's power curve" 0 $py -c "import yaml; d = yaml.safe_load(open('$tmp/sw/power_curves.yml'))
print(d['reference_wind_speeds'], [e['successful'] for e in d['power_curves'][0]['wind_speed_data']])"
grep_in "sweep's speeds" "$tmp/out" "^\[4.0, 8.0\] \[False, False\]$"
check "sweep's height" 0 grep -q "^- 10.0$" "$tmp/sw/power_curves.yml"

# the average reel-out and reel-in power: each phase's mean winch power (its energy over its
# time), recomputed here from the logs alone (/winches/power, /winches/vel and /time with h5py:
# the phases by the 0.2 m/s hysteresis of the reel speed, the cycles' bounds from the run's
# summary) to 1e-6 relative, per cycle in the run's summary JSON and, as the median over the
# run's cycles, in power_curves.yml (the pumping aerostat, tests/data/sweep/aerostat_pump.yaml,
# 120 s at 12 and 14 m/s: 4 and 5 full cycles)
cat >"$tmp/ph.yaml" <<EOG
scenario: $root/tests/data/sweep/aerostat_pump.yaml
output: $tmp/ph
set:
  run.duration: 120
  settings.environment.h_ref: 6
list:
  - {settings.environment.v_wind: 12}
  - {settings.environment.v_wind: 14}
EOG
check "phase sweep" 0 tools/awesim-sweep -j 1 -q --awesim "$AWESIM" "$tmp/ph.yaml"
cat >"$tmp/ph.py" <<'PY'
import csv, glob, json, os, sys
import h5py, numpy as np, yaml, jsonschema
d = sys.argv[1]
s = yaml.safe_load(open("tests/data/awesio/power_curves_schema.yml"))
pc = yaml.safe_load(open(os.path.join(d, "power_curves.yml")))
errs = list(jsonschema.Draft7Validator(s).iter_errors(pc))
ent = {e["wind_speed"]: e for e in pc["power_curves"][0]["wind_speed_data"]}
rows = list(csv.DictReader(open(os.path.join(d, "summary.csv"))))
worst, ncyc, out = 0.0, [], []
def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-12)
for r in rows:
    h5 = r["hdf5"] if os.path.isabs(r["hdf5"]) else os.path.join(d, r["hdf5"])
    js = [p for p in glob.glob(os.path.splitext(h5)[0] + "*.json")]
    with h5py.File(h5, "r") as f:
        t = f["time"][()].ravel()
        P = f["winches/power"][()][:, 0]
        F = f["winches/force"][()][:, 0]
        v = f["winches/vel"][()][:, 0]
    worst = max(worst, float(np.max(np.abs(P - F * v) / np.maximum(np.abs(P), 1e-9))))
    ph = np.full(len(t), -1)          # the hysteresis: 0 reel-out, 1 reel-in
    cur = -1
    for i, x in enumerate(v):
        if x > 0.2: cur = 0
        elif x < -0.2: cur = 1
        ph[i] = cur
    dt = np.append(np.diff(t), 0.0)   # each sample stands for the interval to the next
    cyc = json.load(open(js[0]))["cycles"]
    mo, mi = [], []
    for c in cyc:
        inn = (t >= c["t_start"] - 1e-9) & (t < c["t_start"] + c["duration"] - 1e-9)
        po = np.sum((P * dt)[inn & (ph == 0)]) / np.sum(dt[inn & (ph == 0)])
        pi = np.sum((P * dt)[inn & (ph == 1)]) / np.sum(dt[inn & (ph == 1)])
        worst = max(worst, rel(c["power_reel_out_mean"], po), rel(c["power_reel_in_mean"], pi))
        mo.append(po); mi.append(pi)
    e = ent[float(r["settings.environment.v_wind"])]["performance"]["power"]
    worst = max(worst, rel(e["average_reel_out_power"], float(np.median(mo))),
                rel(e["average_reel_in_power"], float(np.median(mi))))
    # and not the product of the phase means of force and speed
    fo = float(r["cycle_median.force_reel_out_mean[N]"]) * float(r["cycle_median.speed_reel_out_mean[m/s]"])
    ncyc.append(len(cyc))
    out.append(f"{e['average_reel_out_power']:.1f}/{e['average_reel_in_power']:.1f}"
               f"(F*v {fo:.1f})")
print("errors", len(errs), "cycles", ncyc, "worst", "ok" if worst < 1e-6 else worst, *out)
PY
check "phase powers" 0 $py "$tmp/ph.py" "$tmp/ph"
grep_in "phase powers to 1e-6" "$tmp/out" "^errors 0 cycles \[4, 5\] worst ok "
cat "$tmp/out"

echo "power_curves_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
