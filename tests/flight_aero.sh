#!/bin/sh
# flight_aero.sh: tools/flight-aero on a synthetic flight log whose answer is known. Two reel-out
# rows of a kite flying crosswind at 20 m/s in 8 m/s of wind from 258 deg (4.5 rad), with an air
# force of CL 0.7 and CD 0.1 (plus the quarter of the tether's drag the tool removes) on 19.75
# m^2, 36.2 kg of kite and KCU, and the tether force (in kgf, as the 2019 log) and direction that
# balance them; one reel-in row (a copy of the first) that only --reel-in takes. Checks the printed medians (CL 0.700, CD
# 0.100, wind 8.0 m/s, L/D 7.0) to 0.005, the --log-z0 route on the same rows (the ground wind
# given so that the log law puts 8 m/s at the kite), and that a file without the columns the
# balance needs is refused with exit 66 and the missing names.
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
PY=$(tools/find-python) || PY=
if [ -z "$PY" ]; then echo "no python3 with numpy: skipped"; echo "0 passed, 0 failed"; exit 0; fi

"$PY" - "$tmp/log.csv" <<'EOF2'
import sys, math
import numpy as np
G, m, S, L = 9.81, 36.2, 19.75, 250.0
up = 4.5                                   # upwind direction [rad, as the log]: from 258 deg
u = np.array([-math.cos(up), -math.sin(up), 0.0])            # downwind, NED
vw, vk = 8.0, 20.0 * np.array([-math.sin(up), math.cos(up), 0.0])   # kite crosswind
va = vw * u - vk
a = va / np.linalg.norm(va)
n = np.array([0.0, 0.0, -1.0]); n -= n.dot(a) * a; n /= np.linalg.norm(n)
rows = []
for h in (120.0, 180.0):
  for it in range(50):                       # the height follows the balance's direction
    rho = 101325.0 * math.exp(-h / 8434.0) / (287.05 * 288.15)
    q = 0.5 * rho * va.dot(va)
    Dt = 0.25 * 1.1 * 0.010 * L * q
    Fa = 0.7 * q * S * n + (0.1 * q * S + Dt) * a
    m_t = 724.0 * math.pi * 0.010**2 / 4 * L
    g = np.array([0.0, 0.0, G])
    Tv = Fa + m * g + 0.5 * m_t * g          # = T r_hat: the balance with a = 0
    T = np.linalg.norm(Tv); r = Tv / T * L
    h = -r[2]
  # the 6 m wind that the log law (z0 4 mm) scales to 8 m/s at -r[2]
  w6 = vw * math.log(6.0 / 0.004) / math.log(-r[2] / 0.004)
  rows.append([r, T, w6, q])
head = ('time,ground_wind_velocity,airspeed_apparent_windspeed,airspeed_temperature,kite_0_vx,'
        'kite_0_vy,kite_0_vz,kite_1_ax,kite_1_ay,kite_1_az,kite_pos_east,kite_pos_north,'
        'kite_height,ground_tether_force,est_upwind_direction,flight_phase,kite_distance,'
        'airspeed_angle_of_attack')
with open(sys.argv[1], 'w') as f:
  f.write(head + '\n')
  for i, (r, T, w6, q) in enumerate(rows + rows[:1]):
    ph = 'pp-ri' if i == 2 else 'pp-ro'
    f.write('%d,%.9f,%.9f,15.0,%.9f,%.9f,0,0,0,0,%.9f,%.9f,%.9f,%.9f,%g,%s,%.9f,10\n'
            % (i, w6, np.linalg.norm(va), vk[0], vk[1], r[1], r[0], -r[2], T / G, up, ph, L))
EOF2
[ -s "$tmp/log.csv" ] && ok || bad "synthetic log not written"

tools/flight-aero "$tmp/log.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && ok || { bad "flight-aero exit"; cat "$tmp/err"; }
# near NAME VALUE: the median printed for NAME within 0.005 of VALUE
near() {
  v=$(awk -v k="$1" '$1 == k { print $2 }' "$tmp/out")
  if awk -v x="$v" -v y="$2" 'BEGIN { exit !(x != "" && x - y < 0.005 && y - x < 0.005) }'
  then ok; else bad "$1 = '$v' (expected $2)"; fi
}
near CL 0.700
near CD_kite 0.100
near vw 8.000
near LD_kite 7.000
grep -q ' 2$' "$tmp/out" && ok || bad "reel-out rows counted: $(grep log.csv "$tmp/out")"
"tools/flight-aero" --reel-in "$tmp/log.csv" >"$tmp/out" 2>"$tmp/err"
grep -q ' 1$' "$tmp/out" && ok || bad "--reel-in rows counted: $(grep log.csv "$tmp/out")"
near CL 0.700
tools/flight-aero --log-z0 0.004 "$tmp/log.csv" >"$tmp/out" 2>"$tmp/err"
near CL 0.700
near CD_kite 0.100
near aoa_vane 1.000

cut -d, -f1-5 "$tmp/log.csv" >"$tmp/short.csv"
tools/flight-aero "$tmp/short.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 66 ] && ok || bad "short file exit $rc (expected 66)"
grep -q "missing columns.*kite_1_ax" "$tmp/err" && ok || bad "message: $(cat "$tmp/err")"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
