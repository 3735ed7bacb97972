#!/bin/sh
# semantic_fuzz.sh: a 20-trial smoke run of tools/semantic-fuzz (random valid --set overrides
# of the shipped scenarios, short flights) with $AWESIM, fixed seed: every run must end with a
# documented exit status and no sanitizer report; and the driver itself must catch a crash, a
# sanitizer report and an undocumented exit status (fake binaries).
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; sed 's/^/    /' "$tmp/out" | tail -20; }

PY=$(tools/find-python --quiet --modules "") || { echo "semantic_fuzz: no python3"; echo "0 passed, 1 failed"; exit 1; }

# the smoke run: 20 trials (fewer if 30 s of wall time run out first: the ASan build on a busy
# machine), all documented outcomes, some of them full flights (exit 0)
"$PY" tools/semantic-fuzz --awesim "$AWESIM" --trials 20 --seconds 30 --seed 20261127 \
  --keep "$tmp/keep" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -qE '^semantic-fuzz: [1-9][0-9]* passed, 0 failed$' "$tmp/out"; then ok
else bad "smoke run (exit $rc)"; fi
if grep -qE '^semantic-fuzz: exit statuses: 0 x[0-9]+' "$tmp/out"; then ok
else bad "smoke run: no trial flew to its end (exit 0)"; fi

# the driver catches what it must: a crash signal, a sanitizer report, an undocumented exit,
# exit 3 (a wing hit the ground) without its message
for kind in crash sanitizer exit70 exit3; do
  case $kind in
    exit3) body='echo "awesim: error: something" >&2; exit 3' ;;
    crash) body='kill -SEGV $$' ;;
    sanitizer) body='echo "x.c:1:2: runtime error: signed integer overflow" >&2; exit 0' ;;
    exit70) body='exit 70' ;;
  esac
  printf '#!/bin/sh\n%s\n' "$body" >"$tmp/fake_$kind"
  chmod +x "$tmp/fake_$kind"
  "$PY" tools/semantic-fuzz --awesim "$tmp/fake_$kind" --trials 2 --seed 1 \
    --keep "$tmp/keep_$kind" >"$tmp/out" 2>&1
  rc=$?
  n=$(ls "$tmp/keep_$kind" 2>/dev/null | wc -l)
  if [ $rc -eq 1 ] && [ "$n" -eq 2 ] && grep -q '^semantic-fuzz: 0 passed, 2 failed$' "$tmp/out"
  then ok; else bad "fake $kind: exit $rc, $n reports"; fi
done
# a ground crash that says so is a documented outcome (awesim(1): exit 3)
printf '#!/bin/sh\n%s\n' 'echo "awesim: crashed: wing main_wing hit the ground at t = 1 s" >&2; exit 3' \
  >"$tmp/fake_crashed"
chmod +x "$tmp/fake_crashed"
"$PY" tools/semantic-fuzz --awesim "$tmp/fake_crashed" --trials 2 --seed 1 --keep "$tmp/keep_c" \
  >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^semantic-fuzz: 2 passed, 0 failed$' "$tmp/out"; then ok
else bad "fake crashed (exit 3 with its message): exit $rc"; sed 's/^/    /' "$tmp/out" | tail -3; fi

echo "semantic_fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
