#!/bin/sh
# c_api.sh: libawesim as a user gets it. `make install-lib` into a temporary prefix; the
# examples of examples/c/ build against it with `pkg-config --cflags --libs awesim` alone
# (nothing of the repository's src/ or build/ on their command lines) and run from it:
#   - awesim_csv reproduces `awesim simulate --no-hdf5 --csv` byte for byte (the parked 2plate
#     with its controller and VSM refreshes, 3 s; the pendulum; an override that changes dt);
#   - a bad scenario and a bad override give awesim's message and no crash;
#   - steer steps the kite, sets an input and reads a channel: the heading changes after the
#     steering step and not before it.
AWESIM=${AWESIM:-./awesim}
MAKE=${MAKE:-make}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -20; }

prefix="$tmp/prefix"
if ! $MAKE -s install-lib PREFIX="$prefix" >"$tmp/err" 2>&1; then
  bad "make install-lib PREFIX=$prefix"
  echo "$pass passed, $fail failed"
  exit 1
fi
for f in lib/libawesim.a lib/libawesim.so lib/libawesim.so.0 include/awesim.h \
         lib/pkgconfig/awesim.pc share/man/man3/awesim.3; do
  [ -e "$prefix/$f" ] && ok || bad "installed: $f missing"
done
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs awesim)
case "$flags" in *"$prefix"*) ok ;; *) bad "pkg-config --cflags --libs awesim: '$flags'" ;; esac
for ex in awesim_csv steer; do
  # shellcheck disable=SC2086
  if cc -std=c11 -Wall -Wextra -Werror -o "$tmp/$ex" "examples/c/$ex.c" $flags \
       -Wl,-rpath,"$prefix/lib" >"$tmp/err" 2>&1; then ok; else bad "build examples/c/$ex.c"; fi
done
if ldd "$tmp/awesim_csv" 2>/dev/null | grep -q "$prefix/lib/libawesim.so.0"; then ok
else bad "awesim_csv does not load the installed libawesim.so"; fi

# same CSV, byte for byte
same_csv() {  # label scenario overrides...
  label=$1 scen=$2
  shift 2
  sets=""
  for a in "$@"; do sets="$sets --set $a"; done
  # shellcheck disable=SC2086
  "$AWESIM" simulate "$scen" --no-hdf5 --csv -q $sets >"$tmp/cli.csv" 2>"$tmp/err" ||
    { bad "$label: awesim simulate"; return; }
  "$tmp/awesim_csv" "$scen" "$tmp/lib.csv" "$@" 2>"$tmp/err" || { bad "$label: awesim_csv"; return; }
  if cmp -s "$tmp/cli.csv" "$tmp/lib.csv" && [ "$(wc -l <"$tmp/lib.csv")" -gt 2 ]; then ok
  else
    bad "$label: the library's CSV differs from simulate's ($(wc -l <"$tmp/cli.csv") vs $(wc -l <"$tmp/lib.csv") lines)"
    cmp "$tmp/cli.csv" "$tmp/lib.csv" | head -2
  fi
}
same_csv "2plate parked" scenarios/2plate_parked.yaml run.duration=3
same_csv "pendulum" scenarios/pendulum.yaml run.duration=2
same_csv "pendulum dt" scenarios/pendulum.yaml run.duration=1.01 run.dt=0.02

# a crash ends the run at its row, as in simulate (exit 3 there)
v3="run.duration=60 settings.environment.v_wind=8"
# shellcheck disable=SC2086
"$AWESIM" simulate scenarios/v3_kite.yaml --no-hdf5 --csv -q $(printf -- '--set %s ' $v3) \
  >"$tmp/cli.csv" 2>"$tmp/err"
rc=$?
# shellcheck disable=SC2086
if [ $rc -eq 3 ] && "$tmp/awesim_csv" scenarios/v3_kite.yaml "$tmp/lib.csv" $v3 2>"$tmp/err" &&
   cmp -s "$tmp/cli.csv" "$tmp/lib.csv"; then ok
else bad "V3 crash: the library's CSV differs from simulate's (exit $rc)"; fi

# errors: awesim's message, a failure status
"$tmp/awesim_csv" "$tmp/none.yaml" "$tmp/x.csv" 2>"$tmp/err"
rc=$?
if [ $rc -eq 65 ] && grep -q "none.yaml" "$tmp/err"; then ok; else bad "missing scenario: exit $rc"; fi
"$tmp/awesim_csv" scenarios/pendulum.yaml "$tmp/x.csv" run.duration=-1 2>"$tmp/err"
rc=$?
if [ $rc -eq 65 ] && grep -q "run.duration" "$tmp/err"; then ok; else bad "bad override: exit $rc"; fi

# steering: the heading moves after the step at 1 s
if "$tmp/steer" scenarios/2plate_parked.yaml >"$tmp/steer.out" 2>"$tmp/err"; then
  awk 'NR > 1 { h[NR] = $2 < 0 ? -$2 : $2; t[NR] = $1 }
       END { before = h[3]; after = h[NR]; print (before < 1e-4 && after > 100 * before) ? "ok" : "bad " before " " after }' \
    "$tmp/steer.out" >"$tmp/verdict"
  if [ "$(cat "$tmp/verdict")" = ok ]; then ok; else bad "steer: heading $(cat "$tmp/verdict")"; cat "$tmp/steer.out"; fi
else
  bad "steer failed"
fi

# man 3 awesim: lints clean, documents every function of the header, and its example builds
# against the installed library
if command -v mandoc >/dev/null 2>&1; then
  mandoc -Tlint -W warning man/awesim.3 >"$tmp/err" 2>&1 && ok || bad "mandoc -Tlint man/awesim.3"
fi
for f in $(grep -oE '\bawesim_[a-z0-9_]+\(' include/awesim.h | tr -d ' (' | sort -u); do
  grep -q "^\.Fn $f " man/awesim.3 && ok || bad "man/awesim.3 does not document $f"
done
awk '/^\.Bd -literal/ {n++; on = (n == 1); next} /^\.Ed/ {on = 0} on' man/awesim.3 |
  sed 's/\\e/\\/g' >"$tmp/man_example.c"
# shellcheck disable=SC2086
if cc -std=c11 -Wall -Wextra -Werror -o "$tmp/man_example" "$tmp/man_example.c" $flags \
     -Wl,-rpath,"$prefix/lib" >"$tmp/err" 2>&1 && "$tmp/man_example" >"$tmp/man.out" 2>"$tmp/err" &&
   [ "$(wc -l <"$tmp/man.out")" -eq 8 ]; then ok
else bad "the example of man/awesim.3"; fi

# the installed tools start, the installed Python package finds the installed library
"$prefix/bin/awesim-sweep" --help >"$tmp/out" 2>"$tmp/err" && grep -q "sweep" "$tmp/out" && ok ||
  bad "installed awesim-sweep --help"
if py=$(tools/find-python --modules numpy --quiet); then
  out=$(cd "$tmp" && PYTHONPATH="$prefix/lib/awesim/python" AWESIM_LIB= "$py" -c \
    'import awesim, awesim._lib as l; print(awesim.version(), l.lib._name)' 2>"$tmp/err")
  case "$out" in "0.1.0 $prefix/lib/"*) ok ;; *) bad "installed Python package: '$out'" ;; esac
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
