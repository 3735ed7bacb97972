#!/bin/sh
# wind_turbulent.sh: scenarios/v3_turbulent.yaml (the V3 figure eight in a Mann box drawn at the
# start from wind.field.generate) for its first 20 s against the uniform-wind flight
# (scenarios/v3_figure_eight.yaml):
#   - the inline box is the box of `awesim wind generate` of the same keys: a scenario naming
#     that file flies the same CSV, byte for byte;
#   - the flight differs from the uniform one (tether force apart by > 500 N somewhere);
#   - the wind logged at the wing less the uniform wind (the model's wind is uniform: the
#     difference is the box's fluctuation) has standard deviations near the field's sigma:
#     between 0.35 and 1.2 times it per component (20 s sample only a few integral scales of
#     the field, 73 m for u: measured 0.62-0.72 of it; 0.74-0.96 over the whole 120 s);
#   - a bad inline spec is refused with exit 65 and file:line:col.
CHECK_TIMEOUT=300
. "$(dirname "$0")/lib/cli.sh"

csv='time,wings.*.wind*,winches.*.force'
dur=20

# ---- the turbulent flight, its stderr note --------------------------------------------------
check turbulent 0 "$AWESIM" simulate scenarios/v3_turbulent.yaml --set run.duration=$dur \
  --no-hdf5 --csv="$csv"
cp "$tmp/out" "$tmp/turb.csv"
grep_in note "$tmp/err" 'wind.field: drew a 256 x 64 x 64 Mann box \(4 x 4 x 4 m, seed 1, .*\) in [0-9.]+ s'

# ---- the same box from a file: the same flight ---------------------------------------------
cat >"$tmp/spec.yaml" <<EOF
seed: 1
n: [256, 64, 64]
d: 4
ti: 0.1
v_ref: 7.0
h_ref: 150.0
z_bottom: -4.0
EOF
check generate 0 "$AWESIM" wind generate -q "$tmp/spec.yaml" -o "$tmp/box.h5"
awk -v box="$tmp/box.h5" -v root="$root" '/^  field:$/ {print "  field: " box; skip = 1; next}
  skip && /^    / {next} {skip = 0; sub(/^model: \.\.\//, "model: " root "/"); print}' \
  scenarios/v3_turbulent.yaml >"$tmp/file.yaml"
check from_file 0 "$AWESIM" simulate "$tmp/file.yaml" --set run.duration=$dur --no-hdf5 \
  --csv="$csv"
if cmp -s "$tmp/out" "$tmp/turb.csv"; then ok; else bad "inline box and file box fly apart"; fi

# ---- against the uniform wind --------------------------------------------------------------
check uniform 0 "$AWESIM" simulate scenarios/v3_figure_eight.yaml --set run.duration=$dur \
  --no-hdf5 --csv="$csv"
cp "$tmp/out" "$tmp/unif.csv"
check info 0 "$AWESIM" wind info "$tmp/box.h5"
sig=$(sed -n 's/^sigma u v w: \([0-9.]*\) \([0-9.]*\) \([0-9.]*\) m\/s$/\1 \2 \3/p' "$tmp/out")
res=$(paste -d, "$tmp/turb.csv" "$tmp/unif.csv" | awk -F, -v sig="$sig" 'NR > 1 && $1 >= 1 {
    n++; for (c = 2; c <= 4; c++) { d = $c - $(c + 5); s[c] += d; q[c] += d * d }
    f = $5 - $10; if (f < 0) f = -f; if (f > fm) fm = f }
  END { split(sig, g, " "); r = ""
    for (c = 2; c <= 4; c++) { m = s[c] / n; sd = sqrt(q[c] / n - m * m); k = sd / g[c - 1]
      if (!(k >= 0.35 && k <= 1.2)) r = r sprintf(" component %d: sigma %.3f, field %.3f;", c - 1, sd, g[c - 1]) }
    if (!(fm > 500)) r = r sprintf(" max |dF| %.1f N;", fm)
    print (n > 300 && g[3] > 0) ? (r == "" ? "ok" : r) : "no data" }')
if [ "$res" = ok ]; then ok; else bad "turbulent vs uniform:$res"; fi

# ---- bad inline specs ----------------------------------------------------------------------
sed 's/      n: \[256, 64, 64\].*/      n: [256, 63, 64]/' scenarios/v3_turbulent.yaml \
  | sed "s|^model: \.\./|model: $root/|" >"$tmp/odd.yaml"
check odd_n 65 "$AWESIM" check "$tmp/odd.yaml"
grep_in odd_n "$tmp/err" 'odd.yaml:[0-9]+:[0-9]+: n\[2\] = 63 is out of range \(even'
sed 's/^    generate: .*/    genrate:/' scenarios/v3_turbulent.yaml \
  | sed "s|^model: \.\./|model: $root/|" >"$tmp/key.yaml"
check bad_key 65 "$AWESIM" check "$tmp/key.yaml"
grep_in bad_key "$tmp/err" "key.yaml:[0-9]+:[0-9]+: .*genrate"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
