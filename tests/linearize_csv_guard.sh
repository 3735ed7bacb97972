#!/bin/sh
# linearize_csv_guard.sh: `linearize --csv=PREFIX` writes PREFIX_A.csv .. PREFIX_D.csv, outputs
# like -o and --lin: none may be the scenario, a model file, -o, --lin, --from or --along (each
# was overwritten with exit 0, issue 35). Refused before the work, the file untouched.
. tests/lib/cli.sh

mkdir -p "$tmp/w"
cp -r models "$tmp/w/"
sed 's#\.\./models/#models/#' scenarios/pendulum.yaml >"$tmp/w/pend.yaml"
cp "$tmp/w/pend.yaml" "$tmp/w/pend_B.csv"
sum() { cksum <"$1"; }

# the scenario itself named PREFIX_B.csv
before=$(sum "$tmp/w/pend_B.csv")
check "--csv onto the scenario: refused" 74 $AWESIM linearize "$tmp/w/pend_B.csv" --csv="$tmp/w/pend" -q
grep_in "--csv onto the scenario: says so" "$tmp/err" "a file this run reads"
[ "$(sum "$tmp/w/pend_B.csv")" = "$before" ] && ok || bad "the scenario was changed"
# a model file
cp "$tmp/w/models/pendulum/system.yaml" "$tmp/sys.orig"
ln -s "$tmp/w/models/pendulum/system.yaml" "$tmp/w/m_C.csv"
check "--csv onto a model file (through a link): refused" 74 $AWESIM linearize "$tmp/w/pend.yaml" \
  --csv="$tmp/w/m" -q
cmp -s "$tmp/sys.orig" "$tmp/w/models/pendulum/system.yaml" && ok || bad "the model file was changed"
# -o and --lin
check "--csv onto -o: refused" 74 $AWESIM linearize "$tmp/w/pend.yaml" -o "$tmp/w/x_A.csv" \
  --csv="$tmp/w/x" -q
grep_in "--csv onto -o: says which" "$tmp/err" "are the same file"
check "--csv onto --lin: refused" 74 $AWESIM linearize "$tmp/w/pend.yaml" --lin "$tmp/w/y_D.csv" \
  --csv="$tmp/w/y" -q
# the ordinary case still writes its four files
check "--csv=PREFIX: written" 0 $AWESIM linearize "$tmp/w/pend.yaml" --csv="$tmp/w/ok" -q
n=$(ls "$tmp/w"/ok_?.csv 2>/dev/null | wc -l)
[ "$n" -eq 4 ] && ok || bad "--csv=PREFIX: $n of 4 files"

echo "linearize_csv_guard: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
