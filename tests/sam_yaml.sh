#!/bin/sh
# sam_yaml.sh: SymbolicAWEModels 0.17 authoring YAML through the CLI (issue 36):
#   - tests/data/sam/2plate_variables.yaml (the particle 2plate written with 'variables:'):
#     check prints the substituted point masses (6 wing points at 0.15 kg instead of 0.1:
#     1.8 + 0.3 = 2.1 kg) and the model flies 20 s;
#   - a 'bodies' block is refused with one error naming the block and the SAM feature.
. tests/lib/cli.sh

S=tests/data/sam/system_variables.yaml
check vars-check 0 "$AWESIM" check "$S"
grep_in vars-check-mass "$tmp/out" 'point masses 2\.1 kg'
cat > "$tmp/fly.yaml" <<EOT
awesim: 1
model: $root/$S
run: {duration: 20.0, dt: 0.05}
output: {hdf5: $tmp/fly.h5}
EOT
check vars-fly-20s 0 "$AWESIM" simulate "$tmp/fly.yaml"
grep_in vars-fly-complete "$tmp/err" 'complete: simulated 20 s'

{ cat tests/data/sam/2plate_variables.yaml; printf 'bodies:\n  data: []\n'; } > "$tmp/bodies.yaml"
check bodies-refused 65 "$AWESIM" check "$tmp/bodies.yaml"
grep_in bodies-refused-msg "$tmp/err" "bodies.yaml:[0-9]+:1: block 'bodies' \(SymbolicAWEModels rigid bodies\) is not supported"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
