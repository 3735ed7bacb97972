#!/usr/bin/env python3
"""gen.py: mutate the shipped scenarios and model files into bad-input cases.

    tests/data/bad/gen.py AWESIM OUTDIR [N [SEED]]

Each case is a folder OUTDIR/<id>/ with scen.yaml (the entry point) and, when a model file was
mutated, that file and a system.yaml naming it (the other model files are the shipped ones, named
by relative path from the case folder, which sits three levels below the repository root).
A mutation is kept when `awesim check` rejects it; cases are deduplicated by message template
(numbers, quoted text and paths blanked), at most KEEP per template. Deterministic (seeded).
The committed cases under tests/data/bad/ were made with this script; tests/bad_corpus.sh walks
them. The script itself is not run by the tests.
"""
import os, random, re, shutil, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
UP = "../../../../"   # from tests/data/bad/<id>/ to the repository root
KEEP = 1
BAD = ["-1", "0", "-0.0", "1e300", "1e-300", "abc", "[1, 2]", "{}", "{a: 1}", "''", "~",
       "nothing", ".nan", ".inf", "-.inf", "2147483648", "1.5", "true", "-1e9", "100000000",
       "\"3\"", "[]", "[[1]]", "x.yaml", "NONEXISTENT", "DYNAMIC", "STATIC", "0.0001"]
SCEN = {
    "pendulum.yaml": "pendulum", "default.yaml": None, "v3_kite.yaml": "v3_kite",
    "2plate_parked.yaml": "2plate_kite", "aerostat.yaml": "aerostat",
    "hanging_tether_winch.yaml": "hanging_tether", "reel_out.yaml": None,
    "2plate_steering.yaml": "2plate_kite",
}
TOKEN = re.compile(r"(?<=[\[,:]) *([^\s\[\]{},:#][^\[\]{},#\n]*?)(?= *(?:[\]},]|$|#))")


def model_of(scen_text):
    m = re.search(r"^model: *(\S+)", scen_text, re.M)
    return m.group(1) if m else None


def mutate(text, rng):
    lines = text.split("\n")
    k = rng.randrange(8)
    idx = [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("#")]
    if not idx:
        return None
    i = rng.choice(idx)
    if k == 0:
        del lines[i]
    elif k == 1:
        lines.insert(i, lines[i])
    elif k == 2:
        lines = lines[:i]
    elif k == 3:
        return ""
    else:
        toks = [m for m in TOKEN.finditer(lines[i])]
        if not toks:
            return None
        t = rng.choice(toks)
        lines[i] = lines[i][:t.start(1)] + rng.choice(BAD) + lines[i][t.end(1):]
    return "\n".join(lines)


def template(msg):
    msg = msg.strip().splitlines()[0] if msg.strip() else ""
    msg = re.sub(r"^\S*?:\d+:\d+: ", "", msg)   # the position
    msg = re.sub(r"'[^']*'", "Q", msg)
    msg = re.sub(r"\S*/\S*", "P", msg)
    msg = re.sub(r"[-+]?\d[\d.eE+-]*", "N", msg)
    return msg


def rewrite_system(text, model_dir, keep):
    def repl(m):
        p = m.group(2)
        return m.group(1) + (p if p == keep else UP + "models/" + model_dir + "/" + p) + m.group(3)
    return re.sub(r'(:\s*")([^"]+)(")', repl, text)


def rewrite_refs(text, model_dir):
    text = re.sub(r'(csv_file_path:\s*")([^"]+)"',
                  lambda m: m.group(1) + UP + "models/" + model_dir + "/" + m.group(2) + '"', text)
    return text


def main():
    awesim, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 11)
    os.makedirs(out, exist_ok=True)
    seen, kept, tried, rejected, noline = {}, 0, 0, 0, 0
    scens = sorted(SCEN)
    for it in range(n):
        sname = rng.choice(scens)
        stext = open(os.path.join(ROOT, "scenarios", sname)).read()
        mref = model_of(stext)
        mdir = os.path.basename(os.path.dirname(mref)) if mref else None
        files = {}
        target = "scen.yaml"
        if mdir and rng.random() < 0.7:
            sysname = os.path.basename(mref)
            systext = open(os.path.join(ROOT, "models", mdir, sysname)).read()
            refs = re.findall(r':\s*"([^"]+)"', systext)
            target = rng.choice(refs + [sysname])
            files["scen.yaml"] = stext.replace("model: " + mref, "model: system.yaml")
            files["system.yaml"] = rewrite_system(systext, mdir, target)
            if target != sysname:
                files[target] = rewrite_refs(open(os.path.join(ROOT, "models", mdir, target)).read(),
                                             mdir)
            else:
                target = "system.yaml"
        else:
            files["scen.yaml"] = stext.replace("model: ../", "model: " + UP)
        m = mutate(files[target], rng)
        if m is None or m == files[target]:
            continue
        files[target] = m
        case = os.path.join(out, "tmp")
        shutil.rmtree(case, ignore_errors=True)
        os.makedirs(case)
        for f, t in files.items():
            open(os.path.join(case, f), "w").write(t)
        tried += 1
        r = subprocess.run([awesim, "check", "scen.yaml"], cwd=case, capture_output=True, text=True,
                           timeout=60)
        if r.returncode == 0:
            continue
        rejected += 1
        msg = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "(no message)"
        if not re.search(r":\d+:", msg):
            noline += 1
            print("no line:", msg)
        tp = template(msg.split("error:", 1)[-1])
        size = sum(len(t) for t in files.values())
        if seen.get(tp, 0) >= KEEP or size > 12000:
            continue
        seen[tp] = seen.get(tp, 0) + 1
        os.rename(case, os.path.join(out, "%04d_%s" % (it, sname.replace(".yaml", ""))))
        kept += 1
    shutil.rmtree(os.path.join(out, "tmp"), ignore_errors=True)
    print("tried %d mutations, %d rejected, %d messages without a line; kept %d cases "
          "(%d templates)" % (tried, rejected, noline, kept, len(seen)))


if __name__ == "__main__":
    main()
