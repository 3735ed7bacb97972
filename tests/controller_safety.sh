#!/bin/sh
# controller_safety.sh: an external controller never hangs a run, leaks a process, or gets a
# malformed reply accepted. Small sh/awk controllers on the spring-mass model:
#   processes   a controller that starts `sleep 300 &` leaves nothing of its process group
#               behind after a successful run, a failed run, SIGTERM/SIGHUP/SIGINT to awesim
#               while it waits, or SIGKILL to awesim (its child gets SIGTERM); a process that
#               ignores SIGTERM is killed after the grace period; a controller that exits while
#               its child holds the pipes open is seen at once (not after its timeout)
#   time        `timeout: 1e9` under run.max_wall_time: 2 ends within seconds (exit 1, the HDF5
#               log readable with status failed and the rows before); timeout: 1e300 is refused
#   replies     NUL bytes, hex floats, under/overflow, trailing garbage, control characters are
#               refused with the controller, the time and the reply escaped; blanks and an
#               explicit sign are read; a reply to the header line (out of step) is refused
#   units       a pid measuring a later controller's output gets that output's unit
#   flushing    mawk's buffered output times out with a hint to flush; fflush() and
#               `mawk -W interactive` work
#   streams     awesim with its standard input and output closed still talks to the controller
AWESIM=${AWESIM:-./awesim}
case $AWESIM in /*) ;; *) AWESIM=$(pwd)/$AWESIM ;; esac
pass=0
fail=0
tmp=$(mktemp -d)
bg=""
cleanup() {
  [ -n "$bg" ] && kill -9 "$bg" 2>/dev/null
  # anything a failed case left behind (the pids the controllers recorded)
  for f in "$tmp"/*.pid "$tmp"/*.kid; do [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -10; }
sanitizer() { grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$tmp/err"; }
have_h5dump=0
command -v h5dump >/dev/null 2>&1 && have_h5dump=1

# attr FILE NAME: a root string attribute of an HDF5 file ("" if unreadable)
attr() { h5dump -a "/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): "\(.*\)"$/\1/p'; }
# rows FILE: rows of /time (-1 if unreadable)
rows() {
  r=$(h5dump -H -d /time "$1" 2>/dev/null | sed -n 's/.*DATASPACE  SIMPLE { ( \([0-9]*\) ).*/\1/p')
  echo "${r:--1}"
}
# running PID: the process exists and is not a zombie (a killed grandchild stays a zombie until
# the reaper of orphans collects it)
running() {
  st=$(ps -o stat= -p "$1" 2>/dev/null)
  [ -n "$st" ] && [ "${st#Z}" = "$st" ]
}
# none_left NAME: neither the controller nor its child (pids it recorded) nor any process of its
# group is running
none_left() {
  sleep 0.1
  left=""
  for f in "$tmp/$1.pid" "$tmp/$1.kid"; do
    [ -f "$f" ] || continue
    p=$(cat "$f")
    if running "$p"; then left="$left $p"; kill -9 "$p" 2>/dev/null; fi
  done
  if [ -f "$tmp/$1.pgid" ]; then
    g=$(tr -d ' ' <"$tmp/$1.pgid")
    n=$(ps -eo pgid=,stat= | awk -v g="$g" '$1 == g && $2 !~ /^Z/' | wc -l)
    [ "$n" -eq 0 ] || left="$left group $g ($n)"
  fi
  if [ -z "$left" ] && [ -f "$tmp/$1.kid" ]; then ok
  else bad "$1: left running:${left:- (no pid recorded)}"; fi
}

cp scenarios/tests/ctl_spring.structure.yaml "$tmp/s.yaml"
cp models/spring_mass/settings.yaml "$tmp/settings.yaml"
# scn NAME COMMAND TIMEOUT [RUN-EXTRA]: spring-mass scenario, one external controller sampled
# every 0.02 s over 0.1 s (6 samples, 11 rows)
scn() {
  cat >"$tmp/$1.yaml" <<EOF
awesim: 1
model: {structure: s.yaml, settings: settings.yaml}
run: {duration: 0.1, dt: 0.01$4}
controllers:
  - {name: mine, type: external, command: "$2", period: 0.02, timeout: $3,
     measure: [points.mass.pos.z], output: [points.mass.force.z]}
EOF
}
# ctl NAME BODY: controller script NAME.sh recording its pid and group, then BODY
ctl() {
  printf '#!/bin/sh\necho $$ >%s.pid\nps -o pgid= -p $$ >%s.pgid\n%s\n' "$1" "$1" "$2" \
    >"$tmp/$1.sh"
}
# run NAME [ARGS...]: awesim simulate NAME.yaml -o NAME.h5 in $tmp; rc, took (s)
run() {
  n=$1
  shift
  t0=$(date +%s.%N)
  (cd "$tmp" && timeout 30 "$AWESIM" simulate "$n.yaml" -q -o "$n.h5" "$@") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
}
# expect NAME RC MAX_SECONDS [PATTERN]
expect() {
  if [ "$rc" -eq "$2" ] && awk -v a="$took" -v b="$3" 'BEGIN { exit !(a < b) }' && ! sanitizer &&
    { [ -z "$4" ] || grep -qE -- "$4" "$tmp/err"; }; then ok
  else bad "$1: exit $rc after $took s (expected $2 within $3 s${4:+ and /$4/})"; fi
}
# log NAME STATUS ROWS: the HDF5 log is readable, with this status and number of rows
log() {
  [ "$have_h5dump" -eq 1 ] || return 0
  s=$(attr "$tmp/$1.h5" status)
  r=$(rows "$tmp/$1.h5")
  if [ "$s" = "$2" ] && [ "$r" -eq "$3" ]; then ok
  else bad "$1: log status '$s' rows $r (expected '$2', $3)"; fi
}

REPLY_LOOP='while IFS= read -r l; do case $l in time*) ;; *) echo 0 ;; esac; done'

# ---- process groups: a successful run, children with and without the pipes ---------------------
ctl kids "sleep 300 & echo \$! >kids.kid
sleep 300 </dev/null >/dev/null 2>&1 &
$REPLY_LOOP"
scn kids "sh kids.sh" 10
run kids
expect ok_run_with_children 0 5
log kids complete 11
none_left kids

# a failed run: two replies, then the controller exits (status 3) while its child keeps the pipes
# open: seen at once, not after the 10 s timeout
ctl exits "sleep 300 & echo \$! >exits.kid
n=0
while IFS= read -r l; do
  n=\$((n+1)); [ \$n -eq 1 ] && continue; [ \$n -le 3 ] && echo 0 && continue; exit 3
done"
scn exits "sh exits.sh" 10
run exits
expect exit_with_child_holding_pipe 1 5 \
  "controller 'mine' at t=0.04 s: the controller exited with status 3 before replying"
log exits failed 4
none_left exits

# a malformed reply fails the run: the child goes too
ctl badkid "sleep 300 >/dev/null 2>&1 & echo \$! >badkid.kid
read -r h; read -r l; echo x"
scn badkid "sh badkid.sh" 10
run badkid
expect failed_run_with_child 1 5 "value 1 is not a number in 'x'"
none_left badkid

# a controller and a child that ignore SIGTERM: killed after the grace period
ctl deaf "trap '' TERM; sleep 300 & echo \$! >deaf.kid
$REPLY_LOOP"
scn deaf "sh deaf.sh" 10
run deaf
expect sigterm_ignored 0 5
none_left deaf

# ---- signals while awesim waits for a controller that does not answer (timeout 60 s) ----------
for sig in TERM HUP INT; do
  case $sig in TERM) code=143 ;; HUP) code=129 ;; INT) code=130 ;; esac
  ctl "sig$sig" "sleep 300 & echo \$! >sig$sig.kid
while IFS= read -r l; do :; done"
  scn "sig$sig" "sh sig$sig.sh" 60
  (cd "$tmp" && exec "$AWESIM" simulate "sig$sig.yaml" -q -o "sig$sig.h5") >"$tmp/out" 2>"$tmp/err" &
  bg=$!
  i=0
  while [ ! -s "$tmp/sig$sig.kid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  sleep 0.3
  t0=$(date +%s.%N)
  kill -"$sig" "$bg"
  wait "$bg"
  rc=$?
  bg=""
  took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  expect "sig${sig}_while_waiting" "$code" 5 "interrupted"
  log "sig$sig" interrupted 0
  none_left "sig$sig"
done

# SIGTERM while awesim waits for the controller to exit at the end of the run: interrupted (not
# failed), exit 143, every row kept
ctl slowexit "sleep 300 & echo \$! >slowexit.kid
$REPLY_LOOP
echo end >slowexit.end
sleep 30"
scn slowexit "sh slowexit.sh" 60
(cd "$tmp" && exec "$AWESIM" simulate slowexit.yaml -q -o slowexit.h5) >"$tmp/out" 2>"$tmp/err" &
bg=$!
i=0
while [ ! -s "$tmp/slowexit.end" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.2
t0=$(date +%s.%N)
kill -TERM "$bg"
wait "$bg"
rc=$?
bg=""
took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
expect sigTERM_at_the_end 143 5 "interrupted by SIGTERM at t = 0.1 s"
log slowexit interrupted 11
none_left slowexit

# SIGKILL to awesim (no clean-up possible): the controller gets SIGTERM from the kernel
ctl sigkill "exec sleep 300"
scn sigkill "sh sigkill.sh" 60
(cd "$tmp" && exec "$AWESIM" simulate sigkill.yaml -q -o sigkill.h5) >"$tmp/out" 2>"$tmp/err" &
bg=$!
i=0
while [ ! -s "$tmp/sigkill.pgid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.3
kill -9 "$bg"
wait "$bg" 2>/dev/null
bg=""
cp "$tmp/sigkill.pid" "$tmp/sigkill.kid" # the controller itself is what must be gone
rm -f "$tmp/sigkill.pgid"
sleep 0.3
none_left sigkill

# a command that is not found: said so (exit status 127 of the shell)
scn notfound "./no_such_controller --gain=2" 10
run notfound
expect not_found 1 5 "controller 'mine' at t=0 s: the controller exited with status 127 \
\(command not found\?\) before (replying|reading its input)"

# ---- run.max_wall_time bounds a wait with a huge timeout -----------------------------------------
ctl wall "sleep 300 & echo \$! >wall.kid
n=0; while IFS= read -r l; do n=\$((n+1)); [ \$n -le 3 ] && [ \$n -gt 1 ] && echo 0; done"
scn wall "sh wall.sh" 1e9 ", max_wall_time: 2"
run wall
expect wall_time_bounds_wait 1 5 "controller 'mine' at t=0.04 s: wall-time limit \
run.max_wall_time = 2 s reached while waiting for it \(its timeout: 1e\+09 s\)"
log wall failed 4
none_left wall

scn huge "cat" 1e300
(cd "$tmp" && timeout 20 "$AWESIM" check huge.yaml) >"$tmp/out" 2>"$tmp/err"
rc=$?
took=0
expect timeout_range 65 1 \
  "huge.yaml:5:[0-9]+: controllers.mine.timeout: 1e\+300 is out of range \(allowed: > 0 \.\.\. 1e\+09 s\)"

# ---- malformed replies: the first reply (t = 0) is FORMAT (printf) -------------------------------
# reply NAME PRINTF-ARGUMENTS PATTERN
reply() {
  printf '#!/bin/sh\nread -r h; read -r l; printf %s\nwhile read -r l; do echo 0; done\n' "$2" \
    >"$tmp/$1.sh"
  scn "$1" "sh $1.sh" 10
  run "$1"
  expect "reply_$1" 1 5 "$3"
}
reply nul "'1.0\\0junk\\n'" "controller 'mine' at t=0 s: its reply holds a NUL byte: '1\.0\\\\0junk'"
reply hex "'0x1p3\\n'" "controller 'mine' at t=0 s: value 1 is a hexadecimal number \(only decimal numbers are read\) in '0x1p3'"
reply hexint "'0x10\\n'" "value 1 is a hexadecimal number .* in '0x10'"
reply underflow "'1e-400\\n'" "controller 'mine' at t=0 s: value 1 '1e-400' underflows to 0 as a double in '1e-400'"
reply overflow "'%s\\n' -1e400" "controller 'mine' at t=0 s: value 1 '-1e400' overflows a double in '-1e400'"
reply garbage "'1.0junk\\n'" "controller 'mine' at t=0 s: value 1 is not a number in '1\.0junk'"
reply space "'1.0 2\\n'" "value 1 is not a number in '1\.0 2'"
reply inf "'inf\\n'" "value 1 is not finite in 'inf'"
reply infinity "'%s\\n' -Infinity" "value 1 is not finite in '-Infinity'"
reply nanpay "'nan(0x1)\\n'" "value 1 is not (finite|a number) in 'nan\(0x1\)'"
reply exponent "'1e\\n'" "value 1 is not a number in '1e'"
reply dot "'.\\n'" "value 1 is not a number in '\.'"
reply control "'1\\0332\\n'" "value 1 is not a number in '1\\\\x1b2'"
reply tab "'\\t\\n'" "value 1 is not a number in '\\\\t'"
reply utf8 "'1\\302\\2405\\n'" "value 1 is not a number in '1\\\\xc2\\\\xa05'"
# blanks around a value, an explicit sign and CR LF are read: +1.5e+2 = 150 N on the mass at t=0
printf '#!/bin/sh\nread -r h; read -r l; printf " +1.5e+2\\t\\r\\n"\nwhile read -r l; do echo 0; done\n' \
  >"$tmp/blanks.sh"
scn blanks "sh blanks.sh" 10
(cd "$tmp" && timeout 30 "$AWESIM" simulate blanks.yaml -q --csv='controllers.mine.output_1') \
  >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(sed -n 2p "$tmp/out")" = "150" ]; then ok
else bad "reply_blanks: $(head -2 "$tmp/out" | tr '\n' '|')"; fi

# out of step: a controller that answers the header line too (each reply 50 ms late, so that
# the replies never arrive together): its last reply is left over at the end
printf '#!/bin/sh\nwhile IFS= read -r l; do sleep 0.05; echo 0; done\n' >"$tmp/offbyone.sh"
scn offbyone "sh offbyone.sh" 10
run offbyone
expect out_of_step 1 5 "controller 'mine' at t=[0-9.]+ s: \
(it wrote '0(\\\\n)?' (after its last reply|before it was sent this sample)|more than one line)"

# ---- units: a pid measuring the output of an external controller listed after it ---------------
printf '#!/bin/sh\n%s\n' "$REPLY_LOOP" >"$tmp/zero.sh"
cat >"$tmp/units.yaml" <<EOF
awesim: 1
model: {structure: s.yaml, settings: settings.yaml}
run: {duration: 0.02, dt: 0.01}
controllers:
  - {name: p, type: pid, measure: controllers.e.output_1, output: {points.mass.force.x: 1}, kp: 1}
  - {name: e, type: external, command: "sh zero.sh", period: 0.02, timeout: 10,
     measure: [points.mass.pos.z], output: [points.mass.force.z]}
EOF
(cd "$tmp" && timeout 30 "$AWESIM" simulate units.yaml -q --csv='controllers.*') >"$tmp/out" \
  2>"$tmp/err"
want='controllers.p.setpoint[N],controllers.p.measure[N],controllers.p.error[N],controllers.p.output[N],controllers.e.output_1[N]'
if [ "$(head -1 "$tmp/out")" = "$want" ]; then ok
else bad "units: $(head -1 "$tmp/out")"; fi

# ---- flushing: Debian's awk (mawk) buffers its input and output on pipes; the message says what
# to do, and what it says works
printf 'NR > 1 { print 0 }\n' >"$tmp/buffered.awk"
printf 'NR > 1 { print 0; fflush() }\n' >"$tmp/flushed.awk"
scn buffered "awk -f buffered.awk" 0.5
run buffered
expect awk_buffered 1 5 "no reply within 0\.5 s \(does the controller flush its output after \
each line\? C: fflush\(stdout\).*awk: fflush\(\), and mawk -W interactive"
if command -v mawk >/dev/null 2>&1; then
  scn interactive "mawk -W interactive -f buffered.awk" 10
  run interactive
  expect mawk_interactive 0 5
  log interactive complete 11
fi
if command -v gawk >/dev/null 2>&1; then
  scn flushed "gawk -f flushed.awk" 10
  run flushed
  expect gawk_fflush 0 5
fi

# ---- awesim with its standard input and output closed (a pipe may get fd 0 or 1) --------------
ctl closed "sleep 300 >/dev/null 2>&1 & echo \$! >closed.kid
$REPLY_LOOP"
scn closed "sh closed.sh" 10
(cd "$tmp" && timeout 30 "$AWESIM" simulate closed.yaml -q -o closed.h5 <&- >&-) 2>"$tmp/err"
rc=$?
took=0
expect closed_streams 0 1
log closed complete 11
none_left closed

echo "controller_safety: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
