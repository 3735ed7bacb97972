#!/bin/sh
# clear_errors.sh: inputs that failed late or obscurely get an error naming the key, the value
# and the allowed range (issue 35, item 7): `--trim X --trim X` diverged (a singular trim
# Jacobian) instead of being a usage error; a gust of diameter 1e-300 m failed in the run as
# "step size underflow"; an initial KCU steering past what the tapes allow failed as a zero rest
# length.
. tests/lib/cli.sh
P=scenarios/2plate_parked.yaml
check "--trim X --trim X: a usage error" 2 $AWESIM trim -q $P --trim segments.kcu_steering_left.l0 \
  --trim segments.kcu_steering_left.l0 --hold wings.main_wing.azimuth=3 --hold wings.main_wing.elevation=60
grep_in "--trim twice: names it" "$tmp/err" "--trim segments.kcu_steering_left.l0 is given twice"
for k in diameter lambda1; do
  d="diameter: 3.0, "
  [ $k = diameter ] && d=""
  check "gust $k 1e-300: refused at load" 65 $AWESIM check scenarios/2plate_gust.yaml \
    --set "wind.gusts=[{type: eog, start: 10.0, sigma1: 1.0, height: 17.0, $d$k: 1.0e-300}]"
  grep_in "gust $k: key, value, range" "$tmp/err" "wind.gusts\[1\].$k = 1e-300 m is out of range \[0.1, 1e\+06\]"
done
check "gust period 1e-9 s: refused" 65 $AWESIM check scenarios/2plate_gust.yaml \
  --set "wind.gusts=[{type: eog, start: 10.0, sigma1: 1.0, height: 17.0, diameter: 3.0, period: 1.0e-9}]"
grep_in "gust period: key, value, range" "$tmp/err" "wind.gusts\[1\].period = 1e-09 s is out of range \[0.01, 1e\+06\]"
# KCU steering is documented -100 ... 100 %; the V3's tapes (0.8 m, 1.4 m per 100 %) cannot start
# beyond 57.14 %: the error says so (it was a zero rest length of a tape segment)
check "initial steering 100 % on the V3: refused" 65 $AWESIM check scenarios/v3_2019.yaml --set kcu.steering=100
grep_in "steering: key, value, the model's range" "$tmp/err" "kcu.steering = 100 %: the left steering tape would start at -0.6 m; this model's tapes \(0.8 m at 0 %, 1.4 m per 100 %\) allow an initial steering of less than \+-57.14 %"
check "initial steering 57 %: accepted" 0 $AWESIM check scenarios/v3_2019.yaml --set kcu.steering=57
check "the shipped gust: accepted" 0 $AWESIM check scenarios/2plate_gust.yaml
echo "clear_errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
