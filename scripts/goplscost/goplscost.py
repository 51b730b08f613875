"""goplscost measures what one student's gopls costs for one lesson, asked
as scripts/classload asks: CPU time, not wall time (the machine may be
shared).

It gives a new home its copy of the lessons (the shared install's
perceptron-lessons-init), starts the install's kernel there the way a
student's server does (the install's bin/gonb-kernel, through a kernel spec
in a temporary JUPYTER_PATH), and runs the lesson's code cells in order;
before each cell with a selector (x.Name outside comments and strings,
magic lines and shell lines skipped) it sends a complete_request right
after the dot and an inspect_request on the name. 20 s after the last cell
it reads the kernel's gopls in /proc: its own CPU (user+system), the CPU of
the commands it ran and reaped (cutime+cstime), its RSS. Every `go` command
that GoNB or gopls runs goes through a logging `go` first on the kernel's
PATH (a copy of the install's gonb-kernel with that one line added): its
argv, start and end times and user+system CPU from getrusage (bash's
`time`), and which of the two ran it.

Usage (as root, from the repository, with the Jupyter environment of
scripts/setup.sh):

    .venv/bin/python scripts/goplscost/goplscost.py [-prefix /usr/local/lib/perceptron-lessons]
        [-lesson 00_start_here] [-out DIR] [-trace]

-trace starts gopls with its debug server (-debug=127.0.0.1:PORT, -port)
and has the logging go save gopls's goroutines (/debug/pprof/goroutine)
0.15 s into each `go list` load of packages, in DIR/go.log.g.PID: the
stack that waits for the load says who started it. It is for finding
where the cost goes, not for the figures (the dumps cost CPU). It prints
one line per cell and request and a summary; DIR (a new temporary folder
unless -out) keeps go.log (one JSON object per go command), summary.json
and the home.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from jupyter_client import KernelManager

CLK = os.sysconf("SC_CLK_TCK")

# GO_SHIM logs each go command as one JSON line. bash's `time` reports the
# user and system CPU of the command and its children from getrusage.
GO_SHIM = r"""#!/bin/bash
log=@LOG@
start=$(date +%s.%N)
parent=$(cat /proc/$PPID/comm 2>/dev/null)
TIMEFORMAT="%U %S"
if [ -n "@DEBUG@" ]; then
	case "$*" in
	*-deps=true*) (sleep 0.15; curl -s "http://@DEBUG@/debug/pprof/goroutine?debug=2" >"$log.g.$$") & ;;
	esac
fi
{ time @GO@ "$@" 2>&3 ; } 3>&2 2>"$log.t.$$"
rc=$?
end=$(date +%s.%N)
read -r u s <"$log.t.$$"
rm -f "$log.t.$$"
@PY@ -c 'import json,sys; print(json.dumps({"start": float(sys.argv[1]), "end": float(sys.argv[2]), "user": float(sys.argv[3]), "sys": float(sys.argv[4]), "rc": int(sys.argv[5]), "parent": sys.argv[6], "pwd": sys.argv[7], "argv": sys.argv[8:]}))' \
	"$start" "$end" "${u:-0}" "${s:-0}" "$rc" "$parent" "$PWD" "$@" >>"$log"
exit $rc
"""

# GOPLS_TRACE runs the install's gopls wrapper with gopls's debug server.
GOPLS_TRACE = """#!/bin/sh
exec @GOPLS@ "$@" -debug=@DEBUG@
"""

SEL = re.compile(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)")


def selector(code):
    """The offsets of the first selector's name in code (right after its
    dot, and its middle), and the selector's text; None without one."""
    off = 0
    for line in code.split("\n"):
        s = line.lstrip()
        if not s.startswith(("%", "!", "//")):
            body = line.split("//")[0]
            for m in SEL.finditer(body):
                if body[: m.start()].count('"') % 2 == 0:
                    return off + m.start(2), off + m.start(2) + len(m.group(2)) // 2, m.group(0)
        off += len(line) + 1
    return None


def tree(pid):
    out = [pid]
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{t}/children") as f:
                for c in f.read().split():
                    out += tree(int(c))
    except (FileNotFoundError, ProcessLookupError):
        pass
    return out


def stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        st = f.read().rsplit(")", 1)[1].split()
    u, s, cu, cs = (int(x) / CLK for x in st[11:15])
    return u + s, cu + cs


def gopls_procs(kpid):
    r = []
    for p in tree(kpid):
        try:
            with open(f"/proc/{p}/comm") as f:
                comm = f.read().strip()
            if comm != "gopls.bin" and comm != "gopls":
                continue
            own, children = stat(p)
            with open(f"/proc/{p}/status") as f:
                rss = [l for l in f if l.startswith("VmRSS")][0].split()[1]
            r.append({"pid": p, "comm": comm, "cpu": own, "children_cpu": children, "rss_mib": int(rss) / 1024})
        except (FileNotFoundError, IndexError, ProcessLookupError):
            pass
    return r


def is_load(argv):
    """Whether a go command is a go list load of packages (go/packages)."""
    return len(argv) > 1 and argv[0] == "list" and any(a.startswith("-json=") for a in argv) and "-deps=true" in argv


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-prefix", default="/usr/local/lib/perceptron-lessons")
    ap.add_argument("-lesson", default="00_start_here")
    ap.add_argument("-out", default="")
    ap.add_argument("-trace", action="store_true")
    ap.add_argument("-port", type=int, default=47613)
    ap.add_argument("-rest", type=float, default=20)
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="goplscost-")
    os.makedirs(out, exist_ok=True)
    home = os.path.join(out, "home")
    os.makedirs(home)
    gobin = shutil.which("go", path=f"{a.prefix}/bin:/usr/local/go/bin:/usr/bin")
    with open(f"{a.prefix}/lib/lessons-env.sh") as f:
        m = re.search(r'PATH="\$LESSONS_PREFIX/bin:([^"$]+)/bin:', f.read())
    if m:
        gobin = m.group(1) + "/bin/go"
    shim = os.path.join(out, "shim")
    os.makedirs(shim)
    golog = os.path.join(out, "go.log")
    with open(os.path.join(shim, "go"), "w") as f:
        f.write(GO_SHIM.replace("@LOG@", golog).replace("@GO@", gobin).replace("@PY@", sys.executable)
                .replace("@DEBUG@", f"127.0.0.1:{a.port}" if a.trace else ""))
    os.chmod(os.path.join(shim, "go"), 0o755)
    pathline = f'PATH="{shim}:$PATH"'
    if a.trace:
        tdir = os.path.join(out, "trace")
        os.makedirs(tdir)
        with open(os.path.join(tdir, "gopls"), "w") as f:
            f.write(GOPLS_TRACE.replace("@GOPLS@", f"{a.prefix}/gopls/gopls").replace("@DEBUG@", f"127.0.0.1:{a.port}"))
        os.chmod(os.path.join(tdir, "gopls"), 0o755)
        pathline = f'PATH="{shim}:{tdir}:$PATH"'
    # The install's gonb-kernel, with the logging go (and the traced gopls)
    # first on PATH, right before it starts GoNB.
    with open(f"{a.prefix}/bin/gonb-kernel") as f:
        kernel = f.read()
    i = kernel.rindex("\nexec ")
    kernel = kernel[:i] + f"\n{pathline}\nexport PATH" + kernel[i:]
    kpath = os.path.join(out, "gonb-kernel")
    with open(kpath, "w") as f:
        f.write(kernel)
    os.chmod(kpath, 0o755)
    kd = os.path.join(out, "jupyter")
    os.makedirs(kd + "/kernels/gonb")
    with open(kd + "/kernels/gonb/kernel.json", "w") as f:
        json.dump({"argv": [kpath, "--kernel", "{connection_file}"], "language": "go",
                   "display_name": "Go (goplscost)", "interrupt_mode": "message"}, f)

    env = {k: v for k, v in os.environ.items() if not k.startswith(("GO", "LESSONS_", "JUPYTER"))}
    env.update(HOME=home, PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
    subprocess.run([f"{a.prefix}/bin/perceptron-lessons-init"], env=env, check=True, stdout=subprocess.DEVNULL)
    nbdir = os.path.join(home, "perceptron-lessons", "notebooks")
    with open(os.path.join(nbdir, a.lesson + ".ipynb")) as f:
        nb = json.load(f)
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]

    os.environ["JUPYTER_PATH"] = kd
    km = KernelManager(kernel_name="gonb")
    km.start_kernel(cwd=nbdir, env=env)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(120)
    kpid = km.provisioner.process.pid
    requests = []
    t0 = time.time()
    try:
        for k, code in enumerate(cells):
            sel = selector(code)
            if sel:
                c, i, text = sel
                t = time.time()
                kc.complete(code, c)
                r = kc.get_shell_msg(timeout=120)
                cm = r["content"].get("matches", [])
                tc = time.time() - t
                t = time.time()
                r = kc.inspect(code, i, 0, reply=True, timeout=120)
                found = r["content"].get("found")
                ti = time.time() - t
                requests.append({"cell": k, "selector": text, "complete_s": tc, "matches": len(cm), "inspect_s": ti, "found": found})
                print(f"cell {k}: {text}: completion {tc:.2f}s, {len(cm)} matches; help {ti:.2f}s, found={found}", flush=True)
            t = time.time()
            mid = kc.execute(code)
            errors = []
            while True:
                m = kc.get_iopub_msg(timeout=300)
                if m["parent_header"].get("msg_id") != mid:
                    continue
                if m["msg_type"] == "error":
                    errors.append(m["content"]["ename"])
                if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                    break
            kc.get_shell_msg(timeout=300)
            print(f"cell {k}: ran in {time.time() - t:.2f}s{' errors: ' + ', '.join(errors) if errors else ''}", flush=True)
        time.sleep(a.rest)
        procs = gopls_procs(kpid)
    finally:
        km.shutdown_kernel(now=False)
        kc.stop_channels()
    time.sleep(1)
    cmds = []
    if os.path.exists(golog):
        with open(golog) as f:
            cmds = [json.loads(l) for l in f if l.strip()]
    by_gopls = [c for c in cmds if c["parent"].startswith("gopls")]
    loads = [c for c in by_gopls if is_load(c["argv"])]
    summary = {
        "lesson": a.lesson, "prefix": a.prefix, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t0)),
        "requests": requests, "gopls": procs,
        "gopls_cpu_s": sum(p["cpu"] for p in procs),
        "gopls_children_cpu_s": sum(p["children_cpu"] for p in procs),
        "gopls_rss_mib": sum(p["rss_mib"] for p in procs),
        "gopls_go_commands": len(by_gopls),
        "gopls_go_cpu_s": sum(c["user"] + c["sys"] for c in by_gopls),
        "gopls_go_list_loads": len(loads),
        "gopls_go_list_loads_cpu_s": sum(c["user"] + c["sys"] for c in loads),
        "gonb_go_commands": len(cmds) - len(by_gopls),
    }
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    for c in loads:
        pat = c["argv"][c["argv"].index("--") + 1:] if "--" in c["argv"] else c["argv"][-1:]
        print(f"  go list load {time.strftime('%T', time.gmtime(c['start']))}+{c['end'] - c['start']:.2f}s cpu {c['user'] + c['sys']:.2f}s: {' '.join(pat)}")
    print(json.dumps({k: v for k, v in summary.items() if k not in ("requests", "gopls")}, indent=1))
    print("out:", out)


if __name__ == "__main__":
    main()
