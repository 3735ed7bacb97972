#!/bin/sh
# sam_columns.sh: the column changes of SymbolicAWEModels 0.14-0.17 authoring YAML through the
# CLI (issue 36; awesim-scenario(5), STRUCTURAL GEOMETRY COLUMNS):
#   - youngs_modulus / damping_per_stiffness / compression_damping_frac of segments and a
#     generated tether reach the model: awesim convert writes unit_stiffness = E pi d^2/4 and
#     unit_damping = 0.002 of it within 1e-12 (tests/data/sam/columns.yaml);
#   - both forms of one quantity in a row are an error naming file:line:col, a
#     compression_damping_frac outside 0 ... 1 too;
#   - a pulley of efficiency 0.9: the rope over it runs steadily at 0.05973 m/s with the light
#     leg at 0.95 of the heavy leg's tension (simulate --csv; tests/data/sam/pulley_eff.yaml);
#   - winch coulomb_friction / viscous_coefficient reach the model, their old names too;
#   - wings and transforms as mappings of names load like the list form;
#   - old spellings load, each printing one warning line with the current spelling, however
#     many rows use it; the shipped models print none.
. tests/lib/cli.sh

C=tests/data/sam/columns_scenario.yaml

# ---- line columns ----
check columns-check 0 "$AWESIM" check "$C"
grep_in columns-warnings "$tmp/out" 'warnings: 0'
check columns-convert 0 "$AWESIM" convert --to awesio -o "$tmp/c.yaml" "$C"
# name, d [m], E [Pa], damping per stiffness [s], compression_damping_frac
for want in "written 0.003 55e9 0.002 0.25" "from_variable 0.005 55e9 0.002 1" \
  "main_tether_segment_1 0.004 55e9 0.002 0.5" "main_tether_segment_4 0.004 55e9 0.002 0.5"; do
  set -- $want
  line=$(grep "^    - \[\"$1\"" "$tmp/c.yaml")
  # - ["name", ["a", "b"], l0, diameter, density, unit_stiffness, unit_damping, cfrac, cdfrac]
  echo "$line" | tr -d '[]",' | awk -v d="$2" -v E="$3" -v r="$4" -v cd="$5" '{
      ea = E * 3.141592653589793 * d * d / 4
      ek = ($8 - ea) / ea; ec = ($9 - r * ea) / (r * ea)
      if (ek < 0) ek = -ek; if (ec < 0) ec = -ec
      printf "  %s: unit_stiffness %.10g N (E pi d^2/4 %.10g, rel %.2g), unit_damping %.10g N s (rel %.2g), compression_damping_frac %s\n", $2, $8, ea, ek, $9, ec, $11
      exit !(ek <= 1e-12 && ec <= 1e-12 && $6 == d && $11 == cd) }' && ok || bad "columns $1: $line"
done
grep_in winch-friction "$tmp/c.yaml" '^    - \["main_winch", \["main_tether"\], "winch_point", [0-9.]+, [0-9.]+, [0-9.]+, 100, 20,'

cat > "$tmp/both.yaml" <<'EOT'
points:
  headers: [name, pos_cad, type, extra_mass]
  data:
    - [a, [0.0, 0.0, 0.0], STATIC, 0.0]
    - [b, [0.0, 0.0, -10.0], DYNAMIC, 1.0]
segments:
  headers: [name, point_i, point_j, diameter_mm, unit_stiffness, youngs_modulus]
  data:
    - [line, a, b, 4.0, 1.0e6, 55.0e9]
EOT
check both-forms 65 "$AWESIM" check "$tmp/both.yaml"
grep_in both-forms-msg "$tmp/err" "both.yaml:9:32: segment 'line': give unit_stiffness \(EA \[N\]\) or youngs_modulus \(E \[Pa\]\), not both"

sed 's/youngs_modulus\]/compression_damping_frac]/; s/55.0e9\]/1.5]/' "$tmp/both.yaml" |
  cat >"$tmp/cdf.yaml"
check cdf-range 65 "$AWESIM" check "$tmp/cdf.yaml"
grep_in cdf-range-msg "$tmp/err" "segment 'line': compression_damping_frac 1.5 is out of range \(0 ... 1\)"

# ---- pulley efficiency ----
check pulley-run 0 "$AWESIM" simulate tests/data/sam/pulley_eff_scenario.yaml --no-hdf5 \
  --csv='time,pulleys.wheel.len,segments.leg_heavy.force,segments.leg_light.force'
# steady rope: v* = 0.1 s/sqrt(1 - s^2), s = 2 (1 - 0.95)/((1 - 0.9) 1.95); tensions 0.95 : 1
awk -F, 'NR > 1 { t[NR] = $1; l[NR] = $2; h = $3; g = $4; n = NR }
  END { v = (l[n] - l[n - 10]) / (t[n] - t[n - 10]); s = 2 * 0.05 / (0.1 * 1.95)
        vs = 0.1 * s / sqrt(1 - s * s); r = g / h
        printf "  rope %.7f m/s (v* %.7f), legs %.6f / %.6f N = %.7f\n", v, vs, h, g, r
        dv = (v - vs) / vs; dr = r - 0.95; if (dv < 0) dv = -dv; if (dr < 0) dr = -dr
        exit !(dv < 1e-3 && dr < 1e-5) }' "$tmp/out" && ok || bad "pulley efficiency 0.9"

# ---- wings and transforms as mappings of names ----
check mapping-check 0 "$AWESIM" check tests/data/sam/system_mapping.yaml
grep_in mapping-wings "$tmp/out" '^wings: +1'
grep_in mapping-warnings "$tmp/out" 'warnings: 0'
check mapping-convert 0 "$AWESIM" convert --to awesio -o "$tmp/m.yaml" tests/data/sam/system_mapping.yaml
check list-convert 0 "$AWESIM" convert --to awesio -o "$tmp/l.yaml" models/2plate_kite/system.yaml
# the same structure apart from the wing's damping (the list form has the default [0, 150, 0])
if diff "$tmp/m.yaml" "$tmp/l.yaml" | grep '^[<>]' | grep -v 'name: \|note: \|"main_wing", RIGID' | grep -q .; then
  bad "mapping form differs from the list form"; diff "$tmp/m.yaml" "$tmp/l.yaml" | head
else ok; fi

# ---- old spellings: one line each ----
check old-check 0 "$AWESIM" check tests/data/sam/old_spellings_scenario.yaml
grep_in old-count "$tmp/out" 'warnings: 9'
for sp in "block 'materials'.*variables" "column 'idx'.*'name'" "column 'mass'.*'extra_mass'" \
  "integer index 1 .*component's name" "'axial_stiffness'.*'unit_stiffness'" \
  "'winch_point_idx'.*'end_point'" "'init_len'.*'init_stretched_length'" \
  "'f_coulomb'.*SymbolicAWEModels < 0.14.*'coulomb_friction'" \
  "'c_vf'.*SymbolicAWEModels < 0.14.*'viscous_coefficient'"; do
  n=$(grep -cE "warning: .*$sp" "$tmp/err")
  [ "$n" -eq 1 ] && ok || bad "old spelling /$sp/: $n lines"
done
# the same numbers as the current spelling: E pi d^2/4 and the winch friction
check old-convert 0 "$AWESIM" convert --to awesio -o "$tmp/o.yaml" tests/data/sam/old_spellings_scenario.yaml
grep_in old-ea "$tmp/o.yaml" '^    - \["1", \["1", "2"\], 50, 0.0040000000000000001, 724, 691150.38378975459, 1382.3007675795093,'
grep_in old-winch "$tmp/o.yaml" '^    - \["1", \["1"\], "1", [0-9.]+, [0-9.]+, [0-9.]+, 100, 20,'

# ---- the shipped models use the current spelling (models/v3kite_jl is V3Kite.jl's model as
# published, old spellings included, tested by v3kite_jl.sh) ----
for m in models/*/system*.yaml; do
  case $m in models/v3kite_jl/*) continue ;; esac
  check "shipped $m" 0 "$AWESIM" check "$m"
  grep_not "shipped $m spelling" "$tmp/err" 'old spelling'
done

echo "sam_columns: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
