#!/bin/sh
# component_names.sh: a component name is checked at load against one documented set (letters,
# digits, '_', '-', '.'; 1..120 characters), with file:line (issue 35): a comma shifted the CSV
# header against its rows, '[' broke NAME[unit], and a point named '<!--<script>' left the
# replay page stuck at "loading" while the tool reported success.
. tests/lib/cli.sh
mk() {  # mk NAME: the pendulum with its bob renamed (the segment follows)
  mkdir -p "$tmp/m"
  cp models/pendulum/system.yaml models/pendulum/settings.yaml "$tmp/m/"
  # YAML single quotes: the name is one scalar whatever it holds
  q=$(printf '%s' "$1" | sed "s/'/''/g")
  NAME="'$q'" perl -pe 's/\bbob\b/$ENV{NAME}/g unless /^\s*#/' \
    models/pendulum/structure.yaml >"$tmp/m/structure.yaml"
}
for name in 'b,ob' 'bob[1]' '<!--<script>' 'b ob' 'bob"' 'bø'; do
  mk "$name"
  check "point '$name': refused" 65 $AWESIM check "$tmp/m/system.yaml"
  grep_in "point '$name': file:line and the allowed set" "$tmp/err" \
    "structure.yaml:[0-9]+:[0-9]+: point name .* is not allowed; names are made of letters, digits, '_', '-' and '.'"
  check "point '$name': simulate refuses it too" 65 $AWESIM simulate "$tmp/m/system.yaml" --no-hdf5 -q
done
mk 'bob-1.a_B'
check "letters, digits, '_', '-', '.': accepted" 0 $AWESIM check "$tmp/m/system.yaml"
long=$(printf 'b%.0s' $(seq 1 121))
mk "$long"
check "121 characters: refused" 65 $AWESIM check "$tmp/m/system.yaml"
grep_in "121 characters: the range" "$tmp/err" "has 121 characters; allowed: 1 to 120"
echo "component_names: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
