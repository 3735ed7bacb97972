#!/bin/sh
# check_doc_citations.sh: every citation of a project document in the sources resolves.
#   "physics.md §N", "vsm.md §N-M", "physics.md §3, §7", "vsm.md VN" in src/, tests/, bench/,
#   tools/, man/ and docs/: the document must exist under docs/ and have a heading "## §N." for
#   each section number (every number of a range) and "### VN" for each validation case.
# Also: no comment points outside the repository (/work/shared/...).
set -u
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
T=$(mktemp)
trap 'rm -f "$T"' EXIT
files=$(find src tests bench tools man docs -type f \( -name '*.[ch]' -o -name '*.sh' -o \
  -name '*.md' -o -name '*.[15]' -o -name 'awesim-*' \) 2>/dev/null)
# shellcheck disable=SC2086
grep -noE '[A-Za-z_]+\.md (§[0-9]+([-–]§?[0-9]+)?(, §[0-9]+([-–]§?[0-9]+)?)*|V[0-9]+)' $files >"$T"
n=$(wc -l <"$T")
if [ "$n" -lt 40 ]; then
  fail=$((fail + 1))
  echo "FAIL only $n citations found (the pattern is broken?)"
fi
while IFS= read -r line; do
  where=${line%%:*}
  rest=${line#*:}
  lineno=${rest%%:*}
  cite=${rest#*:}
  doc=${cite%% *}
  refs=${cite#* }
  if [ ! -f "docs/$doc" ]; then
    fail=$((fail + 1))
    echo "FAIL $where:$lineno: cites $doc, which is not in docs/"
    continue
  fi
  case $refs in
    V*)
      if grep -q "^### $refs\$" "docs/$doc"; then pass=$((pass + 1))
      else fail=$((fail + 1)); echo "FAIL $where:$lineno: $doc has no case '### $refs'"; fi
      continue ;;
  esac
  # section numbers, ranges expanded
  nums=$(printf '%s\n' "$refs" | tr -d '§' | tr ',' '\n' | sed 's/–/-/' |
    awk -F- '{ a = $1 + 0; b = (NF > 1 ? $2 + 0 : a); for (i = a; i <= b; i++) print i }')
  for k in $nums; do
    if grep -q "^## §$k\. " "docs/$doc"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL $where:$lineno: $doc has no section '## §$k.'"; fi
  done
done <"$T"
# shellcheck disable=SC2086
if grep -n '/work/shared' $files | grep -v '^tests/check_doc_citations.sh' >"$T"; then
  fail=$((fail + 1))
  echo "FAIL comments point outside the repository:"
  cat "$T"
else
  pass=$((pass + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
