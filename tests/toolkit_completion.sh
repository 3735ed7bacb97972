#!/bin/sh
# toolkit_completion.sh: tools/awesim-completion.bash passes bash -n (and shellcheck when
# installed) and completes subcommands, every option printed by `awesim CMD --help`, option
# values, --set keys, scenario files, and awesim-plot / awesim-sweep options. Also lints the
# toolkit's own scripts.
set -u
cd "$(dirname "$0")/.." || exit 2
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
C=tools/awesim-completion.bash
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() {
  name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}

check "completion script passes bash -n" bash -n "$C"
for f in tools/awesim-sweep tools/find-python; do
  check "$f passes bash -n" bash -n "$f"
done
if command -v shellcheck >/dev/null 2>&1; then
  check "completion script is shellcheck-clean" shellcheck -s bash "$C"
  check "awesim-sweep is shellcheck-clean" shellcheck tools/awesim-sweep
  check "find-python is shellcheck-clean" shellcheck tools/find-python
  check "toolkit tests are shellcheck-clean" shellcheck -s sh tests/toolkit_*.sh
fi
PY=$(tools/find-python --quiet --modules '') &&
  check "awesim-plot compiles" "$PY" -c "import ast,sys; ast.parse(open('tools/awesim-plot').read())"

# comp LINE: the candidates bash would offer for LINE (cursor at the end), one per line
comp() {
  bash -c '
    source "$1" || exit 3
    COMP_LINE=$2
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    case $2 in
      *awesim-plot*) _awesim_plot ;;
      *awesim-sweep*) _awesim_sweep ;;
      *) _awesim ;;
    esac
    printf "%s\n" "${COMPREPLY[@]}"' comp "$C" "$1" 2>"$T/err"
}
has() {  # has LINE WORD...: every WORD is among the candidates for LINE
  line=$1
  shift
  comp "$line" >"$T/c"
  for w in "$@"; do
    if ! grep -qxF -- "$w" "$T/c"; then
      bad "completing '$line': no '$w' among: $(tr '\n' ' ' <"$T/c") $(cat "$T/err")"
      return
    fi
  done
  ok
}

has "$AWESIM " check simulate polar
has "$AWESIM si" simulate
has "$AWESIM --v" --version
has "$AWESIM simulate --su" --summary-json
has "$AWESIM simulate --cs" --csv --csv=
has "$AWESIM simulate --set run.so" run.solver=
has "$AWESIM simulate --set run.solver=rk8" rk8pd
has "$AWESIM simulate --set settings.environment.v_" settings.environment.v_wind=
has "$AWESIM simulate scenarios/defa" scenarios/default.yaml
has "$AWESIM simulate -q scenarios/aero" scenarios/aerostat.yaml
has "$AWESIM polar --method " vsm llt
has "$AWESIM polar --distribution co" cosine

# every option in `awesim CMD --help` is offered for `awesim CMD -`
for cmd in $(comp "$AWESIM "); do
  "$AWESIM" "$cmd" --help 2>/dev/null | grep -E '^[[:space:]]+-' | sed -E 's/^[[:space:]]+//; s/  .*//' |
    grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ ,]//' | sort -u >"$T/want"
  comp "$AWESIM $cmd -" | sort -u >"$T/got"
  missing=$(comm -23 "$T/want" "$T/got" | tr '\n' ' ')
  check "awesim $cmd: options in --help not completed: $missing" \
    test -s "$T/want" -a -z "$missing"
done

# the toolkit's commands
has "tools/awesim-plot --ch" --channels --channels=
has "tools/awesim-plot tests/data/sw" tests/data/sweep/
"$AWESIM" simulate -q scenarios/default.yaml --set run.duration=0.1 -o "$T/p.h5" 2>/dev/null
if [ -s "$T/p.h5" ]; then
  has "tools/awesim-plot $T/p.h5 --channels points.bob.pos." points.bob.pos.x points.bob.pos.z
  has "tools/awesim-plot $T/p.h5 --channels time,segments.rod." time,segments.rod.force
else
  bad "cannot simulate scenarios/default.yaml"
fi
mkdir -p "$T/sw"
printf 'point,a.b,c.d,status,exit_code,force_mean[N]\n1,1,2,complete,0,3\n' >"$T/sw/summary.csv"
has "tools/awesim-plot $T/sw --x c" c.d
has "tools/awesim-plot $T/sw/summary.csv --y force" "force_mean[N]"
has "tools/awesim-sweep --dr" --dry-run
has "tools/awesim-sweep --sl" --slurm
has "tools/awesim-sweep scenarios/sweeps/aero" scenarios/sweeps/aerostat_wind.yaml

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
