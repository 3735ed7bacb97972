#!/bin/sh
# plot_guard.sh: tools/awesim-plot (and awesim-replay) never write its figure over what it plots (issue 35): an -o
# that is the log itself, or a symbolic link to it (it was replaced by the PNG), or a FIFO, is
# refused with exit 74 and the log untouched; a title with '$' is text, not mathtext (it failed).
. tests/lib/cli.sh
py=$(tools/find-python --modules numpy,h5py,matplotlib --quiet) || {
  echo "skipped: no Python 3 with numpy, h5py and matplotlib"
  echo "plot_guard: 0 passed, 0 failed"
  exit 0
}
check "a short log" 0 $AWESIM simulate scenarios/pendulum.yaml --set run.duration=1 -o "$tmp/run.h5" -q
cp "$tmp/run.h5" "$tmp/run.orig"
ln -s "$tmp/run.h5" "$tmp/link.png"
check "-o a link to the log: refused" 74 tools/awesim-plot "$tmp/run.h5" -o "$tmp/link.png"
grep_in "-o a link to the log: says so" "$tmp/err" "an input of this plot; it was not written"
cmp -s "$tmp/run.h5" "$tmp/run.orig" && ok || bad "the log was changed"
check "-o the log itself: refused" 74 tools/awesim-plot "$tmp/run.h5" -o "$tmp/run.h5"
cmp -s "$tmp/run.h5" "$tmp/run.orig" && ok || bad "the log was changed"
mkfifo "$tmp/fifo"
check "-o a FIFO: refused at once" 74 tools/awesim-plot "$tmp/run.h5" -o "$tmp/fifo"
check "a title with dollars" 0 tools/awesim-plot "$tmp/run.h5" -o "$tmp/t.png" --title 'cost $5, gain 50% $x'
[ -s "$tmp/t.png" ] && ok || bad "no figure written"
# the replay's -o: the same rules (it was already compared with the log by path)
check "replay -o a FIFO: refused at once" 74 tools/awesim-replay "$tmp/run.h5" -o "$tmp/fifo"
check "replay -o a link to the log: refused" 74 tools/awesim-replay "$tmp/run.h5" -o "$tmp/link.png"
cmp -s "$tmp/run.h5" "$tmp/run.orig" && ok || bad "the log was changed by the replay"
echo "plot_guard: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
