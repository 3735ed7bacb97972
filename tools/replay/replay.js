// awesim-replay viewer: draws the runs in DATA.runs on one 2D canvas, side by side, each with
// its own perspective camera (a few hundred lines and panels per frame need no WebGL, and a 2D
// canvas draws the same in every browser, headless ones without a GPU included). World frame:
// z up, metres. One time bar drives every run.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const statusEl = $("status");
  window.addEventListener("error", (e) => { statusEl.textContent = "error: " + e.message; });

  function f32(s) {
    if (!s) return null;
    const b = atob(s), u = new Uint8Array(b.length);
    for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
    return new Float32Array(u.buffer);
  }
  const deg = Math.PI / 180, fov = 45 * deg, near = 0.05;
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  function norm(a) { const l = Math.hypot(a[0], a[1], a[2]) || 1; return a.map((v) => v / l); }
  function niceStep(x) {
    const e = Math.pow(10, Math.floor(Math.log10(x))), m = x / e;
    return (m < 2 ? 1 : m < 5 ? 2 : 5) * e;
  }
  function fmt(v, digits, unit) {
    if (!isFinite(v)) return "-";
    const s = v.toFixed(digits);
    return (/^-0\.?0*$/.test(s) ? s.slice(1) : s) + " " + unit;   // no "-0.0"
  }
  // tension colour: blue (slight) - purple - crimson (the run's largest); slack lines grey.
  // No orange: that is the canopy's colour
  const stops = [[31, 95, 191], [128, 60, 170], [205, 25, 60]];
  function tensionColor(f, fmax) {
    if (!(f > 1e-3 * fmax) || !(fmax > 0)) return "rgb(175,175,175)";
    const x = Math.min(1, f / fmax) * (stops.length - 1), k = Math.min(stops.length - 2, Math.floor(x));
    const w = x - k, c = [0, 1, 2].map((j) => Math.round(stops[k][j] * (1 - w) + stops[k + 1][j] * w));
    return "rgb(" + c.join(",") + ")";
  }

  // one run: its data unpacked, its camera, its drawing
  function makeView(D) {
    const T = f32(D.t), POS = f32(D.pos), TRAIL = f32(D.trail), SF = f32(D.seg_force);
    const AERO = f32(D.aero), VA = f32(D.va);
    const N = D.n, NP = D.np, CH = {}, NS = D.segs.length;
    for (const k in D.ch) CH[k] = f32(D.ch[k]);
    const isStatic = new Uint8Array(NP);
    for (const i of D.static) isStatic[i] = 1;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let k = 0; k < POS.length; k += 3) {
      for (let c = 0; c < 3; c++) {
        const v = POS[k + c];
        if (v < lo[c]) lo[c] = v;
        if (v > hi[c]) hi[c] = v;
      }
    }
    lo[2] = Math.min(lo[2], 0);
    const center = [0, 1, 2].map((c) => (lo[c] + hi[c]) / 2);
    const size = Math.max(1, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    const kiteSize = D.kite_size || 2;
    // the wing as drawn: the centroid of its panels' corners (the wing's origin may be the KCU,
    // metres below the canopy), else the logged wing position
    const wingPts = [...new Set(D.panels.flat())];
    function wingCentre(fallback) {
      if (!wingPts.length) return fallback;
      const c = [0, 0, 0];
      for (const k of wingPts) for (let j = 0; j < 3; j++) c[j] += cur[3 * k + j] / wingPts.length;
      return c;
    }
    const v = { D, T, N, tFirst: T[0], tLast: T[N - 1], size };

    function locate(t) {
      if (!(t > T[0])) return [0, 0];
      if (t >= T[N - 1]) return [N - 1, 0];
      let a = 0, b = N - 1;
      while (b - a > 1) {
        const m = (a + b) >> 1;
        if (T[m] <= t) a = m; else b = m;
      }
      return [a, (t - T[a]) / (T[b] - T[a])];
    }
    const cur = new Float64Array(NP * 3);
    function pointsAt(i, w) {
      const o = i * NP * 3, o2 = Math.min(i + 1, N - 1) * NP * 3;
      for (let k = 0; k < NP * 3; k++) cur[k] = POS[o + k] * (1 - w) + POS[o2 + k] * w;
    }
    const lerp = (a, i, w, m, c) => a[m * i + c] * (1 - w) + a[m * Math.min(i + 1, N - 1) + c] * w;
    function chAt(name, i, w) { const a = CH[name]; return a ? lerp(a, i, w, 1, 0) : NaN; }
    const vec3At = (a, i, w) => (a ? [0, 1, 2].map((c) => lerp(a, i, w, 3, c)) : null);

    // camera: orbit about target; yaw/pitch of the eye seen from the target. Following the
    // kite, the distance frames the wing at about a third of the view's height
    const cam = { yaw: -115 * deg, pitch: 18 * deg, dist: 0, target: center.slice() };
    v.followDist = () => Math.max(8, 3 * kiteSize / Math.tan(fov / 2));
    v.resetView = () => {
      cam.yaw = -115 * deg; cam.pitch = 18 * deg;
      cam.dist = 0.7 * size / Math.tan(fov / 2);
      cam.target = center.slice();
    };
    v.resetView();
    v.cam = cam;
    v.center = center;
    let W = 800, H = 600, focal = 1, eye = [0, 0, 0], R = [1, 0, 0], U = [0, 0, 1], F = [0, 1, 0];
    function setupCamera() {
      const cp = Math.cos(cam.pitch);
      const dir = [cp * Math.cos(cam.yaw), cp * Math.sin(cam.yaw), Math.sin(cam.pitch)];
      eye = [0, 1, 2].map((c) => cam.target[c] + cam.dist * dir[c]);
      F = dir.map((x) => -x);
      R = norm(cross(F, [0, 0, 1]));
      U = cross(R, F);
      focal = H / 2 / Math.tan(fov / 2);
    }
    v.pan = (dx, dy) => {
      const s = cam.dist / focal;
      cam.target = [0, 1, 2].map((c) => cam.target[c] - R[c] * dx * s + U[c] * dy * s);
    };
    function toCam(p) {
      const d = [p[0] - eye[0], p[1] - eye[1], p[2] - eye[2]];
      return [dot(d, R), dot(d, U), dot(d, F)];
    }
    const screen = (c) => [W / 2 + focal * c[0] / c[2], H / 2 - focal * c[1] / c[2]];
    function project(p) { const c = toCam(p); return c[2] > near ? screen(c) : null; }
    function line3(ctx, a, b) {
      let ca = toCam(a), cb = toCam(b);
      if (ca[2] <= near && cb[2] <= near) return;
      if (ca[2] <= near || cb[2] <= near) {
        const s = (near - ca[2]) / (cb[2] - ca[2]);
        const m = [0, 1, 2].map((c) => ca[c] + s * (cb[c] - ca[c]));
        if (ca[2] <= near) ca = m; else cb = m;
      }
      const sa = screen(ca), sb = screen(cb);
      ctx.moveTo(sa[0], sa[1]);
      ctx.lineTo(sb[0], sb[1]);
    }
    // an arrow from p along d [m], head in screen space
    function arrow3(ctx, p, d, color) {
      const a = project(p), b = project([p[0] + d[0], p[1] + d[1], p[2] + d[2]]);
      if (!a || !b) return;
      const L = Math.hypot(b[0] - a[0], b[1] - a[1]);
      if (L < 2) return;
      const ux = (b[0] - a[0]) / L, uy = (b[1] - a[1]) / L, h = Math.min(10, 0.35 * L);
      ctx.strokeStyle = color; ctx.fillStyle = color; ctx.lineWidth = 2.5;
      ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0] - ux * h * 0.8, b[1] - uy * h * 0.8); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(b[0], b[1]);
      ctx.lineTo(b[0] - ux * h - uy * h * 0.45, b[1] - uy * h + ux * h * 0.45);
      ctx.lineTo(b[0] - ux * h + uy * h * 0.45, b[1] - uy * h - ux * h * 0.45);
      ctx.closePath(); ctx.fill();
    }
    const P = (i) => [cur[3 * i], cur[3 * i + 1], cur[3 * i + 2]];
    const trailSeconds = 30;

    // draw at time t into ctx's box [0, w] x [0, h]; returns what the status reports
    v.draw = (ctx, t, w, h, follow) => {
      W = w; H = h;
      const [i, wt] = locate(t);
      pointsAt(i, wt);
      const kite = wingCentre(vec3At(TRAIL, i, wt));
      if (follow) cam.target = kite;
      setupCamera();
      const sky = ctx.createLinearGradient(0, 0, 0, H);
      sky.addColorStop(0, "#cfe3f7"); sky.addColorStop(1, "#f4f6f8");
      ctx.fillStyle = sky;
      ctx.fillRect(0, 0, W, H);

      // ground grid about the camera's target
      const step = niceStep(size / 8), gx = Math.round(cam.target[0] / step) * step;
      const gy = Math.round(cam.target[1] / step) * step, ext = 8 * step;
      ctx.strokeStyle = "rgba(90,110,90,0.35)"; ctx.lineWidth = 1;
      ctx.beginPath();
      for (let k = -8; k <= 8; k++) {
        line3(ctx, [gx + k * step, gy - ext, 0], [gx + k * step, gy + ext, 0]);
        line3(ctx, [gx - ext, gy + k * step, 0], [gx + ext, gy + k * step, 0]);
      }
      ctx.stroke();

      // wind arrow on the ground, upwind of the ground station, pointing downwind
      const ud = D.upwind_dir * deg, wd = [-Math.sin(ud), -Math.cos(ud), 0];
      const base = D.static.length ? P(D.static[0]) : [0, 0, 0];
      const al = 0.15 * size, a0 = [base[0] - wd[1] * al * 0.5, base[1] + wd[0] * al * 0.5, 0];
      const a1 = [a0[0] + wd[0] * al, a0[1] + wd[1] * al, 0];
      const side = [-wd[1] * al * 0.12, wd[0] * al * 0.12, 0];
      const back = [a1[0] - wd[0] * al * 0.2, a1[1] - wd[1] * al * 0.2, 0];
      ctx.strokeStyle = "#2a8a3a"; ctx.lineWidth = 2.5;
      ctx.beginPath();
      line3(ctx, a0, a1);
      line3(ctx, a1, [back[0] + side[0], back[1] + side[1], 0]);
      line3(ctx, a1, [back[0] - side[0], back[1] - side[1], 0]);
      ctx.stroke();
      const wl = project(a1);
      if (wl) { ctx.fillStyle = "#2a8a3a"; ctx.font = "12px sans-serif"; ctx.fillText("wind", wl[0] + 6, wl[1] + 4); }

      // the wing's path over the last trailSeconds, fading with age
      const tStart = t - trailSeconds;
      const buckets = 8, tp = [], tt = [];
      for (let k = locate(tStart)[0]; k <= i; k++) {
        tp.push([TRAIL[3 * k], TRAIL[3 * k + 1], TRAIL[3 * k + 2]]); tt.push(T[k]);
      }
      tp.push(kite); tt.push(t);
      ctx.lineWidth = 1.5;
      for (let b = 0; b < buckets; b++) {
        ctx.strokeStyle = "rgba(200,60,20," + (0.08 + 0.8 * (b + 1) / buckets).toFixed(3) + ")";
        ctx.beginPath();
        for (let k = 1; k < tp.length; k++) {
          const age = Math.floor((tt[k - 1] - tStart) / trailSeconds * buckets);
          if (Math.min(buckets - 1, Math.max(0, age)) === b) line3(ctx, tp[k - 1], tp[k]);
        }
        ctx.stroke();
      }

      // wing panels, far to near, shaded by their angle to the light
      const light = norm([0.3, -0.5, 0.8]), quads = [];
      for (const q of D.panels) {
        const ps = q.map(P), cs = ps.map(toCam);
        if (cs.some((c) => c[2] <= near)) continue;
        const n = norm(cross([0, 1, 2].map((c) => ps[2][c] - ps[0][c]),
          [0, 1, 2].map((c) => ps[3][c] - ps[1][c])));
        quads.push([(cs[0][2] + cs[1][2] + cs[2][2] + cs[3][2]) / 4, cs, 0.45 + 0.55 * Math.abs(dot(n, light))]);
      }
      quads.sort((a, b) => b[0] - a[0]);
      for (const [, cs, shade] of quads) {
        ctx.fillStyle = "rgba(" + Math.round(240 * shade) + "," + Math.round(130 * shade) + "," + Math.round(40 * shade) + ",0.88)";
        ctx.beginPath();
        cs.forEach((c, k) => { const s = screen(c); if (k) ctx.lineTo(s[0], s[1]); else ctx.moveTo(s[0], s[1]); });
        ctx.closePath();
        ctx.fill();
      }

      // segments: tether and bridle lines coloured by tension, the wing frame black
      const fmax = D.force_max;
      for (let s = 0; s < NS; s++) {
        const sg = D.segs[s];
        ctx.lineWidth = sg[2] === 0 ? 1.8 : sg[2] === 1 ? 1.2 : 1.4;
        ctx.strokeStyle = sg[2] === 2 ? "#202020"
          : SF ? tensionColor(lerp(SF, i, wt, NS, s), fmax) : sg[2] === 0 ? "#1f5fbf" : "#6d6d6d";
        ctx.beginPath();
        line3(ctx, P(sg[0]), P(sg[1]));
        ctx.stroke();
      }
      // points; the ground station (points that never move) as a red square
      ctx.fillStyle = "#303030";
      for (let k = 0; k < NP; k++) {
        if (isStatic[k]) continue;
        const s = project(P(k));
        if (s) ctx.fillRect(s[0] - 1.5, s[1] - 1.5, 3, 3);
      }
      let groundPx = null;
      for (const k of D.static) {
        const s = project(P(k));
        if (!s) continue;
        groundPx = groundPx || s;
        ctx.fillStyle = "#c0392b"; ctx.fillRect(s[0] - 6, s[1] - 6, 12, 12);
        ctx.fillStyle = "#202020"; ctx.font = "12px sans-serif";
        ctx.fillText(D.names[k], s[0] + 9, s[1] + 4);
      }
      // the aerodynamic force and the apparent wind on the wing, 1.5 wing sizes at their largest
      const aero = vec3At(AERO, i, wt), va = vec3At(VA, i, wt), aLen = 1.5 * kiteSize;
      if (aero && D.aero_max > 0) arrow3(ctx, kite, aero.map((x) => x * aLen / D.aero_max), "#c0399b");
      if (va && D.va_max > 0) arrow3(ctx, kite, va.map((x) => x * aLen / D.va_max), "#1aa3b8");
      const kitePx = project(kite);

      // readouts
      const el = chAt("elevation", i, wt) / deg, az = chAt("azimuth", i, wt) / deg;
      const force = chAt("force", i, wt), vel = chAt("vel", i, wt), power = chAt("power", i, wt);
      const lines = [D.title + (D.status && D.status !== "complete" ? " (" + D.status + ")" : ""),
        "time        " + t.toFixed(2) + " s",
        "elevation   " + fmt(el, 1, "deg"), "azimuth     " + fmt(az, 1, "deg"),
        "force       " + fmt(force / 1000, 2, "kN"), "reel-out    " + fmt(vel, 2, "m/s"),
        "power       " + fmt(power / 1000, 2, "kW")];
      const dep = chAt("depower", i, wt), ste = chAt("steering", i, wt);
      if (CH.depower) lines.push("depower     " + fmt(dep, 1, "%") + " (set " + fmt(chAt("depower_set", i, wt), 1, "%") + ")");
      if (CH.steering) lines.push("steering    " + fmt(ste, 1, "%") + " (set " + fmt(chAt("steering_set", i, wt), 1, "%") + ")");
      ctx.fillStyle = "rgba(255,255,255,0.8)";
      ctx.fillRect(8, 8, 250, 14 + 16 * lines.length);
      ctx.fillStyle = "#111"; ctx.font = "13px monospace";
      lines.forEach((s, k) => ctx.fillText(s, 16, 26 + 16 * k));

      // legend: the tension scale and the arrows
      const lx = 12, ly = H - 74, lw = 150;
      ctx.fillStyle = "rgba(255,255,255,0.8)";
      ctx.fillRect(lx - 4, ly - 16, lw + 110, 78);
      ctx.font = "12px sans-serif"; ctx.fillStyle = "#111";
      if (SF && fmax > 0) {
        for (let k = 0; k < lw; k++) {
          ctx.fillStyle = tensionColor((k + 0.5) / lw * fmax, fmax);
          ctx.fillRect(lx + k, ly, 1, 10);
        }
        ctx.fillStyle = "#111";
        ctx.fillText("line tension", lx, ly - 4);
        ctx.fillText("0", lx, ly + 22);
        ctx.fillText(fmt(fmax / 1000, 2, "kN"), lx + lw - 30, ly + 22);
        ctx.fillStyle = "rgb(175,175,175)"; ctx.fillRect(lx + lw + 10, ly, 14, 10);
        ctx.fillStyle = "#111"; ctx.fillText("slack", lx + lw + 28, ly + 9);
      }
      ctx.fillStyle = "#c0399b"; ctx.fillText("\u2192 aero force (" + fmt(D.aero_max / 1000, 1, "kN") + " max)", lx, ly + 38);
      ctx.fillStyle = "#1aa3b8"; ctx.fillText("\u2192 apparent wind (" + fmt(D.va_max, 0, "m/s") + " max)", lx, ly + 54);

      return { kite: kitePx && kitePx.map(Math.round), ground: groundPx && groundPx.map(Math.round),
        elevation: el, azimuth: az, force: force, vel: vel, power: power, depower: dep,
        steering: ste, label: D.label };
    };
    return v;
  }

  const views = DATA.runs.map(makeView);
  const NV = views.length;
  const tFirst = Math.min(...views.map((v) => v.tFirst)), tLast = Math.max(...views.map((v) => v.tLast));

  const canvas = $("view"), ctx = canvas.getContext("2d");
  let dpr = 1, W = 800, H = 600, t = tFirst, playing = false, speed = 1, follow = true;
  const boxW = () => W / NV;

  function draw() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const st = [];
    views.forEach((v, k) => {
      const x0 = k * boxW();
      ctx.save();
      ctx.translate(x0, 0);
      ctx.beginPath(); ctx.rect(0, 0, boxW(), H); ctx.clip();
      const r = v.draw(ctx, t, boxW(), H, follow);
      if (NV > 1) {
        ctx.fillStyle = "#111"; ctx.font = "bold 13px sans-serif";
        ctx.fillText(v.D.label, boxW() - 8 - ctx.measureText(v.D.label).width, 20);
        ctx.strokeStyle = "#8896a5"; ctx.lineWidth = 1; ctx.strokeRect(0.5, 0.5, boxW() - 1, H - 1);
      }
      ctx.restore();
      if (r.kite) r.kite[0] += Math.round(x0);
      if (r.ground) r.ground[0] += Math.round(x0);
      st.push(r);
    });
    $("tlabel").textContent = t.toFixed(2) + " / " + tLast.toFixed(1) + " s";
    $("time").value = tLast > tFirst ? 1000 * (t - tFirst) / (tLast - tFirst) : 0;
    $("play").textContent = playing ? "pause" : "play";
    statusEl.textContent = JSON.stringify(Object.assign({ ok: true, t: t, playing: playing,
      size: [W, H], follow: follow, runs: st }, st[0]));
  }

  // the URL fragment: #t=S[&play=1][&follow=0][&speed=X][&yaw=DEG][&pitch=DEG][&dist=M][&w=PX&h=PX]
  const q = {};
  location.hash.slice(1).split("&").forEach((kv) => {
    const m = kv.split("=");
    if (m[0]) q[decodeURIComponent(m[0])] = decodeURIComponent(m[1] || "1");
  });
  const num = (k, d) => (q[k] !== undefined && isFinite(+q[k]) ? +q[k] : d);
  const clampT = (x) => Math.min(tLast, Math.max(tFirst, x));
  follow = num("follow", 1) > 0;
  for (const v of views) {
    if (follow) v.cam.dist = v.followDist();
    if ("yaw" in q) v.cam.yaw = num("yaw", 0) * deg;
    if ("pitch" in q) v.cam.pitch = num("pitch", 0) * deg;
    if ("dist" in q) v.cam.dist = num("dist", v.cam.dist);
  }
  // a fixed canvas size (#w=800&h=560): the same picture whatever the window
  const fixed = q.w && q.h ? [num("w", 800), num("h", 560)] : null;
  speed = Math.min(8, Math.max(0.25, num("speed", 1)));

  function resize() {
    dpr = window.devicePixelRatio || 1;
    if (fixed) { canvas.style.width = fixed[0] + "px"; canvas.style.height = fixed[1] + "px"; }
    W = canvas.clientWidth; H = canvas.clientHeight;
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
    draw();
  }

  if (q.render) {
    // video frames for awesim-replay --mp4, which calls awesimFrame(t) over the DevTools
    // protocol: the frame at time t as a JPEG data URL
    $("bar").style.display = "none";
    W = num("w", 1280); H = num("h", 720);
    canvas.style.width = W + "px"; canvas.style.height = H + "px";
    canvas.width = W; canvas.height = H;
    window.awesimFrame = (time) => {
      t = clampT(time);
      draw();
      return canvas.toDataURL("image/jpeg", 0.92);
    };
    return;
  }

  t = clampT(num("t", tFirst));
  playing = num("play", "t" in q ? 0 : 1) > 0;
  $("speed").value = String(speed);
  $("follow").checked = follow;

  $("play").onclick = () => { playing = !playing; if (playing && t >= tLast) t = tFirst; last = performance.now(); draw(); };
  $("speed").onchange = (e) => { speed = +e.target.value; };
  $("time").oninput = (e) => { t = tFirst + (tLast - tFirst) * e.target.value / 1000; draw(); };
  $("follow").onchange = (e) => {
    follow = e.target.checked;
    for (const v of views) {
      if (follow) v.cam.dist = Math.min(v.cam.dist, v.followDist());
      else v.cam.target = v.center.slice();
    }
    draw();
  };
  $("reset").onclick = () => { views.forEach((v) => v.resetView()); follow = false; $("follow").checked = false; draw(); };
  window.addEventListener("keydown", (e) => {
    if (e.key === " " && e.target.tagName !== "BUTTON") { e.preventDefault(); $("play").onclick(); }
  });

  let drag = null;
  const viewAt = (clientX) => views[Math.min(NV - 1, Math.max(0, Math.floor((clientX - canvas.getBoundingClientRect().left) / boxW())))];
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey, v: viewAt(e.clientX) };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener("pointerup", () => { drag = null; });
  canvas.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y, cam = drag.v.cam;
    drag.x = e.clientX; drag.y = e.clientY;
    if (drag.pan && !follow) {
      drag.v.pan(dx, dy);
    } else {
      cam.yaw -= dx * 0.006;
      cam.pitch = Math.min(89 * deg, Math.max(-10 * deg, cam.pitch + dy * 0.006));
    }
    if (!playing) draw();
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const v = viewAt(e.clientX);
    v.cam.dist = Math.min(50 * v.size, Math.max(1, v.cam.dist * Math.exp(e.deltaY * 0.001)));
    if (!playing) draw();
  }, { passive: false });
  window.addEventListener("resize", resize);

  let last = performance.now();   // the first frame after play already advances
  function tick(ts) {
    if (playing) {
      if (last !== null) {
        t += Math.min(0.1, Math.max(0, ts - last) / 1000) * speed;
        if (t >= tLast) t = tFirst;   // loop
      }
      last = ts;
      draw();
    } else {
      last = null;
    }
    requestAnimationFrame(tick);
  }
  resize();
  requestAnimationFrame(tick);
})();
