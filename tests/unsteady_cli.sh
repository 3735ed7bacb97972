#!/bin/sh
# unsteady_cli.sh: unsteady aerodynamics (a wing's unsteady: {apparent_mass, wagner};
# SymbolicAWEModels 0.17) through the CLI, on tests/data/2plate_unsteady (the 2plate particle
# kite whose structure file turns both on):
#   - awesim check prints the wing's unsteady line: the Wagner lag's mean chord (1.04403 m:
#     the 2plate's chords are sqrt(1 + 0.3^2) m) and the apparent mass, 2.46816 kg = rho pi
#     c^2 w/4 summed over the panels (span 2 sqrt(1.25) m) at the density of the wing's height;
#   - it simulates 10 s: exit 0, every logged value finite, the lag's states and its deficiency
#     logged (|d| < 0.1 rad), and the flight differs from the same kite without them;
#   - trim converges (the lag's states settle with the kite, d = 0) and linearize has them as
#     states of the linear model (a mode led by wagner_x1);
#   - off (apparent_mass 0, wagner false, via --set on the scenario's wings:) the run is
#     scenarios/2plate_refine.yaml's, byte for byte;
#   - bad values: apparent mass on a rigid wing, a negative scale, an unknown key: exit 65
#     and a message naming the key.
. tests/lib/cli.sh

U=tests/data/2plate_unsteady/scenario.yaml
R=scenarios/2plate_refine.yaml

check check 0 "$AWESIM" check "$U"
grep_in check "$tmp/out" '^unsteady: main_wing: Wagner lag \(gains A 0\.165, 0\.335; rates b 0\.0455, 0\.3; mean chord 1\.04403 m\), apparent mass 2\.46816 kg \(scale 1 x rho pi c\^2 w/4 over the panels, rho 1\.28935 kg/m\^3'
grep_in check-states "$tmp/out" 'state: +92 variables \(36 registered states\)'
check check-default 0 "$AWESIM" check "$R"
grep_not check-default "$tmp/out" '^unsteady:'
grep_in check-default "$tmp/out" 'state: +90 variables \(34 registered states\)'

# ---- 10 s of flight ----
check simulate 0 "$AWESIM" simulate --no-hdf5 "$U" \
  --csv='time,wings.main_wing.wagner_deficiency,winches.main_winch.force,wings.main_wing.elevation'
cp "$tmp/out" "$tmp/on.csv"
grep_in simulate-header "$tmp/on.csv" '^time\[s\],wings\.main_wing\.wagner_deficiency\[rad\],winches\.main_winch\.force\[N\],wings\.main_wing\.elevation\[rad\]$'
if awk -F, 'NR > 1 { n++; for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.e+-]+$/) exit 1;
                      if ($2 > 0.1 || $2 < -0.1) exit 1; t = $1 }
            END { exit !(n == 201 && t == 10) }' "$tmp/on.csv"; then ok; else
  bad "simulate: not 201 finite rows to 10 s with |d| < 0.1: $(tail -1 "$tmp/on.csv")"; fi
check simulate-off 0 "$AWESIM" simulate --no-hdf5 "$U" --set wings.main_wing.unsteady.wagner=false \
  --set wings.main_wing.unsteady.apparent_mass=0 \
  --csv='time,winches.main_winch.force,wings.main_wing.elevation'
# the unsteady kite flies differently: its winch force at 10 s differs by more than 1 %
f_on=$(tail -1 "$tmp/on.csv" | cut -d, -f3)
f_off=$(tail -1 "$tmp/out" | cut -d, -f2)
if awk -v a="$f_on" -v b="$f_off" 'BEGIN { d = (a - b) / b; exit !(d > 0.01 || d < -0.01) }'; then
  ok; else bad "unsteady-differs: winch force at 10 s $f_on N (on), $f_off N (off)"; fi
# the states in the HDF5 log
check h5 0 "$AWESIM" simulate -q -o "$tmp/u.h5" "$U" --set run.duration=0.5
if command -v h5dump >/dev/null 2>&1; then
  h5dump -H "$tmp/u.h5" >"$tmp/h5.txt" 2>&1
  grep_in h5-deficiency "$tmp/h5.txt" 'DATASET "wagner_deficiency"'
  grep_in h5-states "$tmp/h5.txt" 'DATASET "wagner_x1"'
  grep_in h5-states "$tmp/h5.txt" 'DATASET "wagner_x2"'
fi

# ---- trim and linearize: the lag's states settle with the kite (d = 0), and are states of
# the linear model ----
check trim 0 "$AWESIM" trim "$U"
grep_in trim "$tmp/out" 'trim: relative residual [0-9.]+e-(09|1[0-9])'
check linearize 0 "$AWESIM" linearize "$U" -o "$tmp/lin.h5"
grep_in linearize "$tmp/out" 'linear model: 92 states'
grep_in linearize-modes "$tmp/out" 'wings\.main_wing\.wagner_x1 [0-9]+%'

# ---- off: byte for byte the particle kite's run ----
check off 0 "$AWESIM" simulate -q --no-hdf5 "$U" --set run.duration=2 \
  --set wings.main_wing.unsteady.apparent_mass=0 --set wings.main_wing.unsteady.wagner=false --csv
cp "$tmp/out" "$tmp/off.csv"
check refine 0 "$AWESIM" simulate -q --no-hdf5 "$R" --set run.duration=2 --csv
if cmp -s "$tmp/off.csv" "$tmp/out"; then ok; else bad "off: differs from $R"; fi

# ---- bad values ----
check rigid-apparent-mass 65 "$AWESIM" check scenarios/2plate_parked.yaml \
  --set wings.main_wing.unsteady.apparent_mass=1
grep_in rigid-apparent-mass "$tmp/err" "wing 'main_wing': unsteady\.apparent_mass needs a PARTICLE_DYNAMICS wing"
check negative 65 "$AWESIM" check "$U" --set wings.main_wing.unsteady.apparent_mass=-1
grep_in negative "$tmp/err" 'wings\.main_wing\.unsteady\.apparent_mass = -1 is out of range'
check typo 65 "$AWESIM" check "$U" --set wings.main_wing.unsteady.wagnr=true
grep_in typo "$tmp/err" "unknown key 'wagnr' \(did you mean 'wagner'\?\)"
check not-a-map 65 "$AWESIM" check "$U" --set wings.main_wing.unsteady=1
grep_in not-a-map "$tmp/err" 'unsteady: expected a mapping \{apparent_mass: SCALE, wagner: true\|false\}'
# SymbolicAWEModels' tunable lag constants
check own-constants 0 "$AWESIM" check "$U" --set 'wings.main_wing.unsteady.wagner_gains=[0.2, 0.3]' \
  --set 'wings.main_wing.unsteady.wagner_rates=[0.02275, 0.15]'
grep_in own-constants "$tmp/out" 'Wagner lag \(gains A 0\.2, 0\.3; rates b 0\.02275, 0\.15;'
check gains-zero 0 "$AWESIM" check "$U" --set 'wings.main_wing.unsteady.wagner_gains=[0, 0]'
grep_in gains-zero "$tmp/out" 'Wagner lag \(gains A 0, 0; rates b 0\.0455, 0\.3;'
check gains-sum 65 "$AWESIM" check "$U" --set 'wings.main_wing.unsteady.wagner_gains=[0.7, 0.5]'
grep_in gains-sum "$tmp/err" 'wagner_gains = \[0\.7, 0\.5\] is out of range \(gains A_i >= 0 with A_1 \+ A_2 <= 1\)'
check rates-zero 65 "$AWESIM" check "$U" --set 'wings.main_wing.unsteady.wagner_rates=[0, 0.3]'
grep_in rates-zero "$tmp/err" 'wagner_rates = \[0, 0\.3\] is out of range'
# rigid wing with the lag: flies, d logged
check rigid-wagner 0 "$AWESIM" simulate --no-hdf5 scenarios/2plate_parked.yaml --set run.duration=2 \
  --set wings.main_wing.unsteady.wagner=true --csv='time,wings.main_wing.wagner_deficiency'
grep_in rigid-wagner "$tmp/out" '^2,'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
