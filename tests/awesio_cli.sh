#!/bin/sh
# awesio_cli.sh: `awesim convert --to awesio` writes awesIO structure documents that awesIO's
# own schema (tests/data/awesio/structure_schema.yml) accepts, with every reference resolving
# and the connectivity_sha the schema defines (tests/lib/awesio_check.py recomputes it with
# Python's hashlib); the counts are the built model's; the output guard holds.
. tests/lib/cli.sh
py=/usr/bin/python3
if ! $py -c 'import jsonschema, yaml' 2>/dev/null; then
  echo "awesio_cli: python3-jsonschema missing (tools/install-deps --tests installs it)"
  bad "python3-jsonschema"
  echo "$pass passed, $fail failed"
  exit 1
fi

# doc NAME MODEL POINTS SEGMENTS STATIONS PULLEYS: convert, validate, compare the counts
doc() {
  check "$1: convert" 0 "$AWESIM" convert --to awesio -o "$tmp/$1.yml" "$2"
  check "$1: schema" 0 $py tests/lib/awesio_check.py "$tmp/$1.yml"
  grep_in "$1: counts" "$tmp/out" "^points $3 segments $4 stations $5 pulleys $6 tethers 1 winches 1 "
}
doc 2plate models/2plate_kite/system.yaml 15 27 3 2
doc v3 models/v3_kite/system.yaml 44 95 0 6
doc v3_2019 scenarios/v3_2019.yaml 44 95 0 6

# the 2plate's numbers: the kcu's 1 kg extra mass, tether auto-expanded into 6 segments
# of 20/6 m (CAD), the ground station at the ENU origin; SHA-256 of the connectivity
grep_in "2plate kcu" "$tmp/2plate.yml" '^    - \["kcu", BODY_STATIC, "main_wing", \[[0-9.e-]+, 0, [0-9.e-]+\], 1, '
grep_in "2plate ground" "$tmp/2plate.yml" '^    - \["ground", STATIC, null, \[0, 0, 0\], 0, '
grep_in "2plate tether" "$tmp/2plate.yml" '^    - \["main_tether", "kcu", "ground", \["main_tether_segment_1", '
grep_in "2plate version" "$tmp/2plate.yml" '^  awesIO_version: 1\.0\.0$'

# every HDF5 log carries the document of the model it ran as /topology: valid, and the
# document convert writes (all but metadata.note, which names the file it came from)
check "log: simulate" 0 "$AWESIM" simulate scenarios/2plate_parked.yaml --set run.duration=0.2 \
  -o "$tmp/log.h5" -q
check "log: /topology" 0 $py -c "import h5py, sys; sys.stdout.buffer.write(h5py.File(
    '$tmp/log.h5')['topology'][()])"
cp "$tmp/out" "$tmp/topo.yml"
check "log: schema" 0 $py tests/lib/awesio_check.py "$tmp/topo.yml"
check "parked: convert" 0 "$AWESIM" convert --to awesio -o "$tmp/parked.yml" scenarios/2plate_parked.yaml
grep -v '^  note:' "$tmp/topo.yml" >"$tmp/a"
grep -v '^  note:' "$tmp/parked.yml" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok || bad "log /topology differs from convert's document"

# read back: the hanging tether's document in place of its structural geometry flies the
# winch scenario for 60 s with every logged channel equal to 1e-9 (bit for bit here)
mkdir -p "$tmp/rt"
cp -r models/hanging_tether "$tmp/rt/m"
check "rt: convert" 0 "$AWESIM" convert --to awesio -o "$tmp/rt/m/doc.yml" models/hanging_tether/system.yaml
sed -i 's/structure\.yaml"/doc.yml"/' "$tmp/rt/m/system.yaml"
sed "s#\.\./models/hanging_tether/system.yaml#$root/models/hanging_tether/system.yaml#" \
  scenarios/hanging_tether_winch.yaml >"$tmp/rt/orig.yaml"
sed "s#\.\./models/hanging_tether/system.yaml#m/system.yaml#" scenarios/hanging_tether_winch.yaml \
  >"$tmp/rt/doc.yaml"
check "rt: original" 0 "$AWESIM" simulate "$tmp/rt/orig.yaml" --set run.duration=60 -o "$tmp/rt/a.h5" -q
check "rt: from the document" 0 "$AWESIM" simulate "$tmp/rt/doc.yaml" --set run.duration=60 \
  -o "$tmp/rt/b.h5" -q
check "rt: every channel within 1e-9" 0 $py tests/lib/h5_same.py "$tmp/rt/a.h5" "$tmp/rt/b.h5" 1e-9
grep_in "rt: 1201 rows compared" "$tmp/out" "^datasets [0-9]+ rows 1201 max_diff 0 "
# ... and the comparison sees a change: the load's extra mass 5 -> 5.5 kg
sed -i 's/^\(    - \["end_mass", DYNAMIC, null, \[[^]]*\], \)5,/\15.5,/' "$tmp/rt/m/doc.yml"
grep_in "rt: mass edited" "$tmp/rt/m/doc.yml" '"end_mass", DYNAMIC, null, \[[^]]*\], 5\.5,'
check "rt: edited" 0 "$AWESIM" simulate "$tmp/rt/doc.yaml" --set run.duration=60 -o "$tmp/rt/c.h5" -q
check "rt: the edit is seen" 1 $py tests/lib/h5_same.py "$tmp/rt/a.h5" "$tmp/rt/c.h5" 1e-9

# versions: another major is refused, a newer minor warned about; tubes without bodies, and
# a law awesim does not know, are refused with one error naming them
doc=$tmp/rt/m/doc.yml
sed 's/awesIO_version: 1\.0\.0/awesIO_version: 2.0.0/' "$doc" >"$tmp/v2.yml"
check "major 2 refused" 65 "$AWESIM" check "$tmp/v2.yml"
grep_in "major 2 named" "$tmp/err" "v2.yml:5:[0-9]+: metadata.awesIO_version: 2.0.0: awesIO major version 2 is not supported"
sed 's/awesIO_version: 1\.0\.0/awesIO_version: 1.3.0/' "$doc" >"$tmp/rt/m/v13.yml"
sed 's/doc\.yml"/v13.yml"/' "$tmp/rt/m/system.yaml" >"$tmp/rt/m/system13.yaml"
check "minor 3 loads" 0 "$AWESIM" check -q "$tmp/rt/m/system13.yaml"
grep_in "minor 3 warned" "$tmp/err" "warning: .*v13.yml:5:[0-9]+: metadata.awesIO_version: 1.3.0 is newer"
{ cat "$doc"; printf 'tubes:\n  headers: [name, bodies, diameter, pressure, law]\n  units: ["-", "-", m, Pa, "-"]\n  data:\n    - [t, [a, b], 0.1, 1000, linear]\n'; } >"$tmp/tubes.yml"
check "tubes without bodies refused" 65 "$AWESIM" check "$tmp/tubes.yml"
grep_in "tubes named" "$tmp/err" "tubes.yml:[0-9]+:[0-9]+: block 'tubes' needs the bodies they join \(block 'bodies'\)"
{ cat "$tmp/tubes.yml"; printf 'bodies:\n  headers: [name, type, pos_ENU, Q_KA_to_ENU, extra_mass, extra_inertia_KA]\n  units: ["-", "-", m, "-", kg, kg*m^2]\n  data:\n    - [a, STATIC, [0, 0, 0], [1, 0, 0, 0], 1, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]]\n    - [b, DYNAMIC, [1, 0, 0], [1, 0, 0, 0], 1, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]]\n'; } >"$tmp/law.yml"
check "unknown tube law refused" 65 "$AWESIM" check "$tmp/law.yml"
grep_in "law named" "$tmp/err" "law.yml:[0-9]+:[0-9]+: tubes: tube 't': law 'linear' \(allowed: breukels2011, none\)"
# wings are read back (tests/awesio_roundtrip.sh flies them): the bare document stops only at
# the winch settings it does not carry
check "wings read" 65 "$AWESIM" check "$tmp/2plate.yml"
grep_in "wings read, settings missing" "$tmp/err" "winch 'main_winch': winch.inertia_total"
grep_not "wings not refused" "$tmp/err" "awesim_wings"

# the checker itself rejects a wrong sha and a row shorter than its headers
sed 's/connectivity_sha: ./connectivity_sha: f/' "$tmp/2plate.yml" >"$tmp/badsha.yml"
check "wrong sha rejected" 1 $py tests/lib/awesio_check.py "$tmp/badsha.yml"
grep_in "wrong sha named" "$tmp/err" 'connectivity_sha'
sed 's/\["ground", STATIC, null, \[0, 0, 0\], 0, /["ground", STATIC, null, [0, 0, 0], /' \
  "$tmp/2plate.yml" >"$tmp/badrow.yml"
check "short row rejected" 1 $py tests/lib/awesio_check.py "$tmp/badrow.yml"

# usage errors and the output guard: never a file the model reads
check "--to other" 2 "$AWESIM" convert --to sam -o "$tmp/x.yml" models/2plate_kite/system.yaml
grep_in "--to names the allowed" "$tmp/err" "allowed: awesio"
check "no -o" 2 "$AWESIM" convert --to awesio models/2plate_kite/system.yaml
cp -r models/2plate_kite "$tmp/m"
sum0=$(cksum <"$tmp/m/quat_structure.yaml")
check "-o onto the structure refused" 74 "$AWESIM" convert --to awesio \
  -o "$tmp/m/quat_structure.yaml" "$tmp/m/system.yaml"
[ "$(cksum <"$tmp/m/quat_structure.yaml")" = "$sum0" ] && ok || bad "structure file changed"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
