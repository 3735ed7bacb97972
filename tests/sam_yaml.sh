#!/bin/sh
# sam_yaml.sh: SymbolicAWEModels 0.17 authoring YAML through the CLI (issue 36):
#   - tests/data/sam/2plate_variables.yaml (the particle 2plate written with 'variables:'):
#     check prints the substituted point masses (6 wing points at 0.15 kg instead of 0.1:
#     1.8 + 0.3 = 2.1 kg) and the model flies 20 s;
#   - an 'elastic_joints' block is refused with one error naming the block and the SAM feature
#     ('bodies' and 'tubes' are read: tests/test_bodies_tubes.c).
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

{ cat tests/data/sam/2plate_variables.yaml; printf 'elastic_joints:\n  data: []\n'; } > "$tmp/joints.yaml"
check joints-refused 65 "$AWESIM" check "$tmp/joints.yaml"
grep_in joints-refused-msg "$tmp/err" "joints.yaml:[0-9]+:1: block 'elastic_joints' \(SymbolicAWEModels elastic joints of rigid bodies \(write them as tubes\)\) is not supported"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
