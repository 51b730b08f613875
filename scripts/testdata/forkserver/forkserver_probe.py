"""A stand-in for the single-user server's main in the fork server's tests
(scripts/forkserver_test.go): it reports what the child it runs in is (its
users, groups, folder, umask, environment, open files, threads, priority,
session, a random number) to $PROBE_OUT, then waits for SIGTERM and
records that it came."""

import json
import os
import random
import signal
import sys
import threading
import time


def main():
    fds = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            fds[name] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            pass  # the listing's own, closed by now
    umask = os.umask(0)
    os.umask(umask)
    report = {
        "resuid": list(os.getresuid()),
        "resgid": list(os.getresgid()),
        "groups": sorted(os.getgroups()),
        "cwd": os.getcwd(),
        "umask": umask,
        "env": dict(os.environ),
        "fds": fds,
        "threads": threading.active_count(),
        "nice": os.nice(0),
        "session_leader": os.getsid(0) == os.getpid(),
        "random": random.random(),
        "argv": sys.argv,
        "pid": os.getpid(),
        # A default computed from HOME when the fork server imported JupyterLab.
        "lab_user_settings_dir": __import__("jupyterlab.labapp").labapp.LabApp().user_settings_dir,
    }
    out = os.environ["PROBE_OUT"]
    with open(out + ".tmp", "w") as f:
        json.dump(report, f)
    os.rename(out + ".tmp", out)

    def on_term(sig, frame):
        with open(out + ".term", "w") as f:
            f.write("SIGTERM\n")
        sys.exit(0)

    signal.signal(signal.SIGTERM, on_term)
    time.sleep(60)
    return 3
