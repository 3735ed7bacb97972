#!/bin/sh
# sweep_progress.sh: tools/awesim-sweep shows its progress (runs done / total, elapsed, ETA)
# when stderr is a terminal (a pseudo-terminal made by python3's pty module) and prints none
# of it into a pipe or with -q (issue 39, item 5). A grid of 4 short aerostat runs, 2 at a time.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib/cli.sh
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
PY=$(command -v python3) || {
  echo "SKIP sweep_progress: no python3 (for the pseudo-terminal)"
  echo "sweep_progress: 0 passed, 0 failed"
  exit 0
}

grid() {
  cat >"$tmp/$1.yaml" <<EOF2
scenario: $root/scenarios/aerostat.yaml
output: $tmp/$1
set:
  run.duration: 1
grid:
  settings.environment.v_wind: [4, 6, 8, 10]
EOF2
}

# on a pseudo-terminal: the progress line, rewritten in place, ending with 4/4
grid tty
"$PY" - "$tmp/tty.out" tools/awesim-sweep -j 2 --awesim "$AWESIM" "$tmp/tty.yaml" <<'PYEOF'
import os, pty, sys
out = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh"] + sys.argv[2:])
data = b""
while True:
    try:
        b = os.read(fd, 4096)
    except OSError:
        break
    if not b:
        break
    data += b
_, st = os.waitpid(pid, 0)
open(out, "wb").write(data)
sys.exit(os.waitstatus_to_exitcode(st))
PYEOF
rc=$?
[ "$rc" -eq 0 ] && ok || bad "sweep on a terminal: exit $rc"
tr '\r' '\n' <"$tmp/tty.out" >"$tmp/tty.txt"
grep_in "terminal: progress line with done/total and elapsed" "$tmp/tty.txt" \
  '^awesim-sweep: [0-4]/4 runs done, [0-9]+:[0-9][0-9] elapsed, (ETA ([0-9]+:)?[0-9]+:[0-9][0-9]|ETA --:--|done)'
grep_in "terminal: the last progress line says 4/4 done" "$tmp/tty.txt" \
  '^awesim-sweep: 4/4 runs done, [0-9]+:[0-9][0-9] elapsed, done'
grep -q "$(printf '\r')" "$tmp/tty.out" && ok || bad "terminal: the line is rewritten in place (CR)"
[ -s "$tmp/tty/summary.csv" ] && ok || bad "terminal: summary.csv written"

# into a pipe: the same sweep, no progress
grid pipe
sh tools/awesim-sweep -j 2 --awesim "$AWESIM" "$tmp/pipe.yaml" 2>&1 | cat >"$tmp/pipe.txt"
grep_not "pipe: no progress" "$tmp/pipe.txt" 'runs done|ETA'
grep -q "$(printf '\r')" "$tmp/pipe.txt" && bad "pipe: no carriage return" || ok
grep_in "pipe: the start line is still there" "$tmp/pipe.txt" '4 of 4 runs into'
[ -s "$tmp/pipe/summary.csv" ] && ok || bad "pipe: summary.csv written"

# -q on a terminal: nothing
grid quiet
"$PY" -c 'import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))' \
  sh tools/awesim-sweep -q -j 2 --awesim "$AWESIM" "$tmp/quiet.yaml" >"$tmp/quiet.txt" 2>&1
grep_not "-q on a terminal: no progress" "$tmp/quiet.txt" 'runs done'

echo "sweep_progress: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
