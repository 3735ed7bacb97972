#!/bin/sh
# docs_blocks.sh: every code block of README.md, docs/manual.md, docs/tutorial.md and the man
# pages runs, so the
# docs cannot drift from the program (issue 39). tools/doc-blocks extracts them; each document's
# blocks run in document order (a later block may read what an earlier one wrote) in a fresh
# copy of the repository's inputs (scenarios, models, tools, examples, python, include, tests)
# under $tmp, with ./awesim and `awesim` on PATH the binary under test ($AWESIM), `python3` on
# PATH the tools' Python (Debian's, which has python3-h5py, python3-pandas ...),
# HOME inside the copy, MPLBACKEND=Agg (plt.show() draws nothing) and GNUTERM=dumb (gnuplot
# prints its plot as text):
#   sh, console   bash -e (no pipefail: `awesim ... | head` ends awesim with 141 by design)
#   python        the tools' Python (tools/find-python) with PYTHONPATH=python, as installed
#   c             cc -std=c11 -Wall -Wextra -Werror against include/ and build/lib/libawesim.so
#   yaml          parsed (and compared with a file where the block says `yaml-equals FILE`; a
#                 whole scenario marked `awesim-check PATH` is written there and checked)
# Blocks that must not run say so in a comment above them (`<!-- doc-test: skip WHY -->`,
# `.\" doc-test: skip WHY` in a man page); `needs CMD` blocks run only where CMD is installed.
# Both are printed and counted. A failure names the block's FILE:LINE and shows its output.
# `expect ERE` above a block checks that its output quotes what the text says it prints.
# DOC_BLOCKS_FILES picks other documents (default: the three above); DOC_BLOCKS_KEEP=DIR keeps
# each block's output there.
. "$(dirname "$0")/lib/cli.sh"

files=${DOC_BLOCKS_FILES:-"README.md docs/manual.md docs/tutorial.md man/awesim.1 man/awesim.3 man/awesim-scenario.5"}
case $AWESIM in /*) awesim_bin=$AWESIM ;; *) awesim_bin=$root/$AWESIM ;; esac
py=$(tools/find-python --modules numpy,h5py,matplotlib,yaml) || {
  bad "tools/find-python: no Python with numpy, h5py, matplotlib and yaml"
  echo "docs_blocks: $pass passed, $fail failed"
  exit 1
}
[ -x "$awesim_bin" ] || { bad "no $AWESIM: build first"; echo "docs_blocks: $pass passed, $fail failed"; exit 1; }
[ -e build/lib/libawesim.so ] || { bad "no build/lib/libawesim.so: make lib"; echo "docs_blocks: $pass passed, $fail failed"; exit 1; }

# the test itself: a failing block is reported with its file:line, a skipped one counted, a
# console block runs its "$ " lines, stdin and expect work, and an unmarked man-page block is
# an error at its line
if [ -z "${DOC_BLOCKS_INNER:-}" ]; then
  mkdir -p "$tmp/self"
  printf '%s\n' '# t' '```sh' 'true' '```' '' '<!-- doc-test: skip (a reason) -->' '```sh' 'false' \
    '```' '```console' '$ echo hi' 'hi' '```' '```python' 'import sys; sys.exit(3)' '```' \
    '<!-- doc-test: stdin a\nb\n -->' '<!-- doc-test: expect ^b$ -->' '<!-- doc-test: expect ^c$ -->' \
    '```sh' 'cat' '```' >"$tmp/self/bad.md"
  DOC_BLOCKS_KEEP= DOC_BLOCKS_INNER=1 DOC_BLOCKS_FILES="$tmp/self/bad.md" sh "$0" >"$tmp/self/out" 2>&1
  if grep -q "^FAIL $tmp/self/bad.md:14: python block exited 3" "$tmp/self/out" &&
     grep -q "^skip $tmp/self/bad.md:7: a reason" "$tmp/self/out" &&
     grep -q "^FAIL $tmp/self/bad.md:20: its output does not match /^c\$/" "$tmp/self/out" &&
     grep -q "^docs_blocks: 5 passed, 2 failed" "$tmp/self/out"; then ok
  else bad "self-test: a failing block is not reported at its line"; sed 's/^/    /' "$tmp/self/out"; fi
  printf '%s\n' '.Dd x' '.Bd -literal' 'awesim' '.Ed' >"$tmp/self/bad.1"
  if ! tools/doc-blocks "$tmp/self/bad.1" >/dev/null 2>"$tmp/self/err" &&
     grep -q "bad.1:2: a literal block without a doc-test comment" "$tmp/self/err"; then ok
  else bad "self-test: an unmarked man-page block is not an error"; fi
fi

blocks=$tmp/blocks
# shellcheck disable=SC2086
if tools/doc-blocks -o "$blocks" $files 2>"$tmp/err"; then ok; else bad "tools/doc-blocks $files"; fi

sandbox() {  # a fresh copy of what the documents use, $tmp/root
  rm -rf "$tmp/root"
  mkdir -p "$tmp/root/build" "$tmp/root/bin" "$tmp/root/home"
  cp -R scenarios models tools examples python include tests "$tmp/root/"
  ln -s "$root/build/lib" "$tmp/root/build/lib"
  ln -s "$awesim_bin" "$tmp/root/awesim"
  ln -s "$awesim_bin" "$tmp/root/bin/awesim"
  ln -s "$py" "$tmp/root/bin/python3"
}

show_failure() {  # where, what
  fail=$((fail + 1))
  echo "FAIL $1: $2"
  for f in "$tmp/out" "$tmp/err"; do
    [ -s "$f" ] && tail -15 "$f" | sed 's/^/    /'
  done
}

in_root() {  # timeout, command...: run in the copy, input $stdin, output to $tmp/out, $tmp/err
  t=$1
  shift
  # AWESIM unset: the tools find the copy's ./awesim (the binary under test) as a user's would
  (cd "$tmp/root" && unset AWESIM AWESIM_LIB &&
     HOME=$tmp/root/home PATH=$tmp/root/bin:$PATH MPLBACKEND=Agg GNUTERM=dumb \
     PYTHONPATH=$tmp/root/python timeout "$t" "$@" <"${stdin:-/dev/null}" >"$tmp/out" 2>"$tmp/err")
}

has() {  # CMD or py:MODULE is there
  case $1 in
    py:*) "$py" -c "import ${1#py:}" 2>/dev/null ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

nrun=0 nyaml=0 ntext=0 nskip=0 current=""
tab=$(printf '\t')
while IFS=$tab read -r n where kind action note timeout want; do
  doc=${where%:*}
  if [ "$doc" != "$current" ]; then current=$doc; sandbox; fi
  case $action in
    text) ntext=$((ntext + 1)); continue ;;
    skip) nskip=$((nskip + 1)); echo "skip $where: $note"; continue ;;
    needs:*)
      missing=""
      for c in $(echo "${action#needs:}" | tr ',' ' '); do has "$c" || missing="$missing $c"; done
      if [ -n "$missing" ]; then
        nskip=$((nskip + 1)); echo "skip $where: needs$missing (not installed)"; continue
      fi ;;
  esac
  : >"$tmp/out"
  : >"$tmp/err"
  stdin=""
  if [ -f "$blocks/$n.setup" ] && ! in_root "$timeout" bash -e "$blocks/$n.setup"; then
    show_failure "$where" "its setup failed (exit $?)"
    continue
  fi
  case $kind in
    yaml)
      nyaml=$((nyaml + 1))
      other=""
      case $note in
        "equals "*) other=${note#equals } ;;
        "awesim-check "*)
          dest=$tmp/root/${note#awesim-check }
          mkdir -p "$(dirname "$dest")"
          cp "$blocks/$n.yaml" "$dest"
          if in_root 60 ./awesim check "${note#awesim-check }"; then ok
          else show_failure "$where" "awesim check ${note#awesim-check } failed"; fi
          continue ;;
      esac
      if in_root 60 "$py" -c '
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
if len(sys.argv) > 2 and d != yaml.safe_load(open(sys.argv[2])):
    sys.exit("the block differs from %s" % sys.argv[2])' "$blocks/$n.yaml" $other; then ok
      else show_failure "$where" "yaml does not parse or differs"; fi
      continue ;;
    sh|console) set -- bash -e "$blocks/$n.sh" ;;
    python) set -- "$py" "$blocks/$n.py" ;;
    c)
      if ! cc -std=c11 -Wall -Wextra -Werror -I"$root/include" -o "$blocks/$n.bin" "$blocks/$n.c" \
           -L"$root/build/lib" -lawesim -Wl,-rpath,"$root/build/lib" >"$tmp/out" 2>"$tmp/err"; then
        show_failure "$where" "the C block does not compile"
        continue
      fi
      set -- "$blocks/$n.bin" ;;
    *) show_failure "$where" "unknown kind $kind"; continue ;;
  esac
  nrun=$((nrun + 1))
  start=$(date +%s)
  [ -f "$blocks/$n.stdin" ] && stdin=$blocks/$n.stdin
  in_root "$timeout" "$@"
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ "$rc" -eq "$want" ] && ! sanitizer; then ok
  else show_failure "$where" "$kind block exited $rc (expected $want, ${secs}s)"; fi
  if [ -f "$blocks/$n.expect" ]; then
    while IFS= read -r re; do
      if cat "$tmp/out" "$tmp/err" | grep -qE -- "$re"; then ok
      else show_failure "$where" "its output does not match /$re/, which the text quotes"; fi
    done <"$blocks/$n.expect"
  fi
  [ -n "${DOC_BLOCKS_KEEP:-}" ] && mkdir -p "$DOC_BLOCKS_KEEP" &&
    cat "$tmp/out" "$tmp/err" >"$DOC_BLOCKS_KEEP/$(echo "$where" | tr '/:' '__').txt"
  [ -n "${DOC_BLOCKS_VERBOSE:-}" ] && echo "  $where: $kind, exit $rc, ${secs}s"
done <"$blocks/manifest.tsv"

echo "docs_blocks: $nrun blocks run, $nyaml yaml blocks parsed, $ntext text blocks, $nskip skipped"
echo "docs_blocks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
