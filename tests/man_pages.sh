#!/bin/sh
# man_pages.sh: the man pages lint clean, and every option that `awesim CMD --help` prints is
# documented in man/awesim.1 (so the two cannot drift apart).
AWESIM=${AWESIM:-./awesim}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

if command -v mandoc >/dev/null 2>&1; then
  out=$(mandoc -Tlint -W warning man/awesim.1 man/awesim-scenario.5 2>&1)
  [ $? -eq 0 ] && ok || { bad "mandoc -Tlint"; echo "$out" | head; }
elif command -v groff >/dev/null 2>&1; then
  out=$(groff -ww -z -mdoc man/awesim.1 man/awesim-scenario.5 2>&1)
  [ -z "$out" ] && ok || { bad "groff -ww"; echo "$out" | head; }
else
  bad "neither mandoc nor groff is installed (tools/install-deps installs mandoc)"
fi

# every stepper awesim accepts (its one list, solver_names.h, as the error message gives it) is
# named in awesim-scenario(5)
solvers=$("$AWESIM" check scenarios/pendulum.yaml --set run.solver=none 2>&1 |
  sed -n 's/.*(allowed: \([a-z0-9, ]*\)).*/\1/p' | tr -d ',')
[ -n "$solvers" ] && ok || bad "no stepper list in the run.solver error"
for sv in $solvers; do
  grep -q "\b$sv\b" man/awesim-scenario.5 && ok || bad "stepper '$sv' not in man/awesim-scenario.5"
done

# the subcommands listed by `awesim --help`
cmds=$("$AWESIM" --help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}')
[ -n "$cmds" ] && ok || bad "no commands in awesim --help"
for c in $cmds; do
  grep -q "^\.Cm $c\$\|^\.It Cm $c " man/awesim.1 && ok || bad "command '$c' not in man/awesim.1"
  # options at the start of a help line: -x, --long, --long=..., "-q, --quiet"
  opts=$("$AWESIM" "$c" --help | grep -oE '^ +(-[a-zA-Z]|--[a-z][a-z0-9-]*)(, --[a-z][a-z0-9-]*)?' |
    tr ',' '\n' | tr -d ' ' | sort -u)
  for o in $opts; do
    name=${o#-}
    if grep -qE "Fl ${name}( |\$)" man/awesim.1; then ok; else bad "$c: option $o not in man/awesim.1"; fi
  done
done
echo "man_pages: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
