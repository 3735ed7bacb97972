#!/bin/sh
# memory_budget.sh: what one input may make awesim allocate is checked before it is allocated
# (util/mem_budget.h): --max-memory (any command, anywhere on its line) and AWESIM_MAX_MEMORY set
# the budget; a generated wind box, a VSM wing and a TurbSim box over it are refused with both
# numbers and exit 70, and a .bts whose scale encodes non-finite wind is refused (it gave inf and
# NaN wind with exit 0).
. tests/lib/cli.sh

# a Mann box of 1024 x 512 x 256 points needs its spectra and components: 4.5 GiB
printf 'seed: 1\nn: [1024, 512, 256]\n' >"$tmp/big.yaml"
check "wind generate over the budget" 70 $AWESIM wind generate "$tmp/big.yaml" -o "$tmp/big.h5" \
  --max-memory 1G
grep_in "the estimate and the budget" "$tmp/err" "1024 x 512 x 256 wind box needs 4.52 GiB, more than the memory budget of 1 GiB"
grep_in "how to raise it" "$tmp/err" "--max-memory SIZE or AWESIM_MAX_MEMORY"
if [ -e "$tmp/big.h5" ]; then bad "nothing written"; else ok; fi
check "the option before the command" 70 $AWESIM --max-memory 1G wind generate "$tmp/big.yaml" \
  -o "$tmp/big.h5"
AWESIM_MAX_MEMORY=1G check "the environment variable" 70 $AWESIM wind generate "$tmp/big.yaml" \
  -o "$tmp/big.h5"
check "a budget that is no size" 2 $AWESIM wind generate "$tmp/big.yaml" -o "$tmp/big.h5" \
  --max-memory lots
grep_in "the usage error names it" "$tmp/err" "--max-memory lots: expected a size"
check "a budget below 1M" 2 $AWESIM --max-memory 100K wind info x.h5

# a VSM wing's influence matrices grow as the panels squared
check "polar over the budget" 70 $AWESIM polar models/v3_kite/aero_geometry.yaml --panels 3000 \
  --alpha 5:5:1 --max-memory 64M
grep_in "the VSM estimate" "$tmp/err" "a VSM wing of 3000 panels needs 0\.8[0-9]* GiB, more than the memory budget"
check "the same polar in budget" 0 $AWESIM polar models/v3_kite/aero_geometry.yaml --panels 20 \
  --alpha 5:5:1 --max-memory 64M

# TurbSim .bts: a header whose u scale is 1e-44 (the int16 data then decode to inf)
bts() {  # file scale_u
  /usr/bin/python3 - "$1" "$2" <<'PY'
import struct, sys
hdr = struct.pack("<h4i12fi", 7, 2, 2, 0, 2, 1, 1, 0.1, 10, 50, 49,
                  float(sys.argv[2]), 0, 100, 0, 100, 0, 0)
data = struct.pack("<24h", *[(1000 * (i % 3) + i) for i in range(24)])
open(sys.argv[1], "wb").write(hdr + data)
PY
}
if /usr/bin/python3 -c 'import struct' 2>/dev/null; then
  bts "$tmp/tiny.bts" 1e-44
  check "wind info: a scale of 1e-44 is refused" 65 $AWESIM wind info "$tmp/tiny.bts"
  grep_in "the scale, its offset and the allowed range" "$tmp/err" "the u scale [0-9.e+-]+ and offset 0 encode winds up to [0-9.e+]+ m/s; allowed"
  bts "$tmp/ok.bts" 100
  check "wind info: the same box with scale 100 reads" 0 $AWESIM wind info "$tmp/ok.bts"
else
  echo "skipped: no python3 to write .bts files"
fi

echo "memory_budget: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
