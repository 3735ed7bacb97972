#!/bin/sh
# check_includes.sh: src/ has no include circles and nothing climbs a layer unexplained
# (tools/check-includes); the checker itself is tested on small trees that have
# a circle, an unexplained climb and an explained one.
set -u
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# the project's own tree
if out=$(sh tools/check-includes src 2>&1); then ok; else bad "src: $out"; fi
echo "$out" | grep -q '^no include circles' && ok || bad "src: no 'no include circles' line"
echo "$out" | grep -q '^no unexplained climbs' && ok || bad "src: no 'no unexplained climbs' line"
# and none explained either: the model build no longer calls the controllers' build up
echo "$out" | grep -q ' 0 explained climbs)$' && ok || bad "src: a climb is left: $out"

# a tree with two layers (low below high)
mk() { mkdir -p "$T/$1/low" "$T/$1/high"
  printf '| layer | owns |\n|---|---|\n| `low/` | a |\n| `high/` | b |\n' >"$T/$1/README.md"; }

# a circle a -> b -> a inside one layer: exit 1, both modules named
mk circle
printf '#include "low/b.h"\n' >"$T/circle/low/a.c"; : >"$T/circle/low/a.h"
printf '#include "low/a.h"\n' >"$T/circle/low/b.c"; : >"$T/circle/low/b.h"
out=$(sh tools/check-includes "$T/circle" 2>&1); rc=$?
[ $rc -eq 1 ] && ok || bad "circle: exit $rc, expected 1"
echo "$out" | grep -q 'include circle 1: .*a' && echo "$out" | grep -q 'circle 1: .*b' && ok ||
  bad "circle not reported: $out"

# a lower file including a higher header without a reason: exit 1, file:line named
mk climb
printf '/* x */\n#include "high/h.h"\n' >"$T/climb/low/l.c"; : >"$T/climb/high/h.h"
out=$(sh tools/check-includes "$T/climb" 2>&1); rc=$?
[ $rc -eq 1 ] && ok || bad "climb: exit $rc, expected 1"
echo "$out" | grep -q 'low/l.c:2: climbs low -> high' && ok || bad "climb not reported: $out"

# the same with "/* up: why */": exit 0, counted as explained
printf '/* x */\n#include "high/h.h" /* up: a reason */\n' >"$T/climb/low/l.c"
out=$(sh tools/check-includes "$T/climb" 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "explained climb: exit $rc, expected 0 ($out)"
echo "$out" | grep -q '1 explained climbs' && ok || bad "explained climb not counted: $out"

# a header may include its own module's private header without a circle
mk private
printf '#include "low/m_internal.h"\n' >"$T/private/low/m.c"; : >"$T/private/low/m.h"
printf '#include "low/m.h"\n' >"$T/private/low/m_internal.h"
sh tools/check-includes "$T/private" >/dev/null 2>&1 && ok || bad "private header seen as a circle"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
