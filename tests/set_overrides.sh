#!/bin/sh
# set_overrides.sh: a --set that a later source overrides again says so (issue 39.2): the wind
# speed of a scenario whose inputs: schedule wind.v_wind, and the tether's diameter, density
# and stiffness when every line of the structure has its own. Both did nothing, silently.
. tests/lib/cli.sh

check "v_wind under a wind schedule: runs" 0 $AWESIM check scenarios/v3_2019.yaml \
  --set settings.environment.v_wind=9
grep_in "v_wind: which wins" "$tmp/err" "settings.environment.v_wind = 9 m/s is not used: the scenario's inputs\[0\] schedules wind.v_wind \(scenarios/v3_2019.yaml:75:5\)"
grep_in "v_wind: how to change it" "$tmp/err" "--set 'inputs\[0\].to=9'"
check "the schedule overridden as said: runs" 0 $AWESIM check scenarios/v3_2019.yaml \
  --set 'inputs[0].to=9'
grep_not "the schedule overridden as said: no warning" "$tmp/err" "v_wind = .* is not used"
check "the scenario alone: runs" 0 $AWESIM check scenarios/v3_2019.yaml
grep_not "the scenario alone: no warning about its own v_wind" "$tmp/err" "v_wind = .* is not used"

check "d_tether over a structure with diameters: runs" 0 $AWESIM check scenarios/v3_kite.yaml \
  --set settings.tether.d_tether=4
grep_in "d_tether: which wins" "$tmp/err" "settings.tether.d_tether = 4 is not used: every one of the structure's [0-9]+ segments and generated tethers has its own diameter"
cp "$tmp/out" "$tmp/out.d4"
check "the same without the override" 0 $AWESIM check scenarios/v3_kite.yaml
grep_not "no warning without it" "$tmp/err" "d_tether = .* is not used"
# the warning is true: the model (masses, lengths) is the same with and without it
# (all but the count of warnings)
if [ "$(grep -v '^warnings:' "$tmp/out")" = "$(grep -v '^warnings:' "$tmp/out.d4")" ]; then ok
else bad "d_tether=4 changed the model it says it does not change"; fi
# a setting some line does fall back to acts, and is not warned about
check "rho_tether (the V3's lines take the settings' density)" 0 $AWESIM check \
  scenarios/v3_kite.yaml --set settings.tether.rho_tether=900
grep_not "rho_tether: no false warning" "$tmp/err" "rho_tether = 900 is not used"

echo "set_overrides: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
