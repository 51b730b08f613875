"""The students' servers' fork server (docs/instructor.md, "The login storm").

JupyterHub's spawner (lessons_spawner.py) starts this program once, as the
hub's user (root on a class server), from the shared Jupyter environment. It
imports what every student's Jupyter server imports (jupyter_server,
JupyterLab, Notebook 7, jupyterhub.singleuser, nbgitpuller, the formatter:
about 1.4 s of CPU, JupyterLab's `node yarn.js config` at import included),
then forks one child per request. A child becomes the student's server as
lessons-singleuser would have been: a session of its own, the student's
uid, gid and groups (exactly as JupyterHub's LocalProcessSpawner sets them),
their home as the working folder, the umask the hub has, the environment the
hub gives the server and nothing else, stdin /dev/null, no other file
descriptor of this process; then perceptron-lessons-init, then the
single-user server's main() in the same process.

Usage: lessons_forkserver.py PERCEPTRON-LESSONS-INIT [--main MODULE:FUNCTION]
[MODULE...]: the modules (server extensions) are imported beforehand too;
--main replaces jupyterhub.singleuser:main (the tests' probe).

Protocol: one JSON object a line on stdin, a request:
  {"env": {...}, "args": [...], "cmd": [...], "nice": 5,
   "user": {"uid": 1001, "gid": 1001, "groups": [1001], "cwd": "/home/x"}
      or {"cwd": "/tmp/x", "makedirs": true} (the hub's own user)}
("nice": the child's nice value, whatever the fork server's; left out, the
child keeps the fork server's) and one JSON object a line on stdout for
each, {"pid": N} or {"error": "..."}.
End of stdin (the hub gone or ending) ends this process; the servers run on.

Nothing a child can use is left from root: the imports run with an empty
HOME (no root configuration is read, e.g. yarn's or npm's; what they
computed from it, such as JupyterLab's user settings folder, a child sets to
its own HOME), no thread runs
when it forks (checked at each fork), Python reseeds `random` in a forked
child and the server makes its secrets at start, in the child.
"""

import importlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import traceback

# What the single-user server reads from the environment when it is imported
# (jupyterhub.singleuser chooses its application by these): a request whose
# environment sets them otherwise than this process had at import runs the
# command as before instead (exec).
IMPORT_ENV = ("JUPYTERHUB_SINGLEUSER_APP", "JUPYTERHUB_SINGLEUSER_EXTENSION")


def preload(extra_modules):
    """Import the server and its extensions with an empty, private HOME."""
    home = tempfile.mkdtemp(prefix="lessons-forkserver-")
    saved = os.environ.get("HOME")
    os.environ["HOME"] = home
    try:
        import jupyterhub.singleuser  # noqa: F401
        import jupyterlab.labapp  # noqa: F401
        import notebook.app  # noqa: F401

        for name in extra_modules:
            try:
                __import__(name)
            except Exception as e:  # an extension missing is the server's business, not ours
                print(f"lessons-forkserver: import {name}: {e}", file=sys.stderr)
    finally:
        if saved is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = saved
        for root, dirs, files in os.walk(home, topdown=False):
            for f in files:
                os.unlink(os.path.join(root, f))
            for d in dirs:
                os.rmdir(os.path.join(root, d))
        os.rmdir(home)
    return {k: os.environ.get(k, "") for k in IMPORT_ENV}, home_values(home)


def home_values(home):
    """Where the imports kept the import's HOME: defaults of configurable
    options computed when their class was defined (JupyterLab's
    LabApp.user_settings_dir is ~/.jupyter/lab/user-settings, evaluated at
    import) and module-level strings. A child puts its own HOME there."""
    from traitlets import HasTraits, TraitType

    found = []
    for module in list(sys.modules.values()):
        for name, value in list(getattr(module, "__dict__", {}).items()):
            if isinstance(value, str) and home in value:
                found.append((module.__dict__, name, value))
            elif isinstance(value, type) and issubclass(value, HasTraits):
                for tname, trait in vars(value).items():
                    if isinstance(trait, TraitType) and isinstance(trait.default_value, str) and home in trait.default_value:
                        found.append((trait, "default_value", trait.default_value))
                # (what a new instance starts from: traitlets keeps a copy
                # of the static defaults per class)
                initial = vars(value).get("_static_immutable_initial_values", {})
                for tname, v in list(initial.items()):
                    if isinstance(v, str) and home in v:
                        found.append((initial, tname, v))
    return [(obj, name, value.replace(home, "{home}")) for obj, name, value in found]


def set_home(values, home):
    """Put the child's HOME where the imports had theirs."""
    for obj, name, template in values:
        value = template.replace("{home}", home)
        if isinstance(obj, dict):
            obj[name] = value
        else:
            setattr(obj, name, value)


def drop_privileges(user):
    """Become the user of the request, as LocalProcessSpawner's preexec does,
    and check it: a drop that did not happen ends the child."""
    if "uid" in user:
        uid, gid, groups = int(user["uid"]), int(user["gid"]), [int(g) for g in user["groups"]]
        os.setgid(gid)
        os.setgroups(groups)
        os.setuid(uid)
        if os.getresuid() != (uid, uid, uid) or os.getresgid() != (gid, gid, gid):
            raise PermissionError(f"uid/gid not dropped: {os.getresuid()} {os.getresgid()}")
        if set(os.getgroups()) - set(groups) - {gid}:
            raise PermissionError(f"groups not dropped: {os.getgroups()}, want {groups}")
    cwd = user.get("cwd") or "/"
    if user.get("makedirs"):
        os.makedirs(cwd, 0o755, exist_ok=True)
    try:
        os.chdir(cwd)
    except OSError as e:
        print(f"lessons-forkserver: cannot start in {cwd}: {e}; starting in {tempfile.gettempdir()}", file=sys.stderr)
        os.chdir(tempfile.gettempdir())


def close_fds():
    """Close every file descriptor above stderr (the request pipe, the
    reply pipe, whatever an import opened)."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2:
            try:
                os.close(fd)
            except OSError:
                pass


def child(req, import_env, home_vals, init, entry):
    """The student's server, in the forked child. Returns an exit status."""
    os.setsid()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python's own start leaves it
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # the server's output, like the hub's own, to the hub's log
    close_fds()
    if req.get("nice") is not None:  # the servers' nice, whatever the hub's
        try:
            os.setpriority(os.PRIO_PROCESS, 0, int(req["nice"]))
        except OSError:
            pass  # (a hub without root started at a larger nice: the child keeps it)
    drop_privileges(req["user"])
    env = {str(k): str(v) for k, v in req["env"].items()}
    os.environ.clear()
    os.environ.update(env)
    if {k: env.get(k, "") for k in IMPORT_ENV} != import_env or (home_vals and "HOME" not in env):
        os.execvpe(req["cmd"][0], list(req["cmd"]) + list(req["args"]), env)
    set_home(home_vals, env.get("HOME", ""))
    random.seed()  # (Python reseeds after fork; again, to be sure)
    try:
        failed = subprocess.run([init]).returncode != 0
    except OSError as e:
        print(f"lessons-singleuser: {init}: {e}", file=sys.stderr)
        failed = True
    if failed:
        print("lessons-singleuser: perceptron-lessons-init failed; starting the server anyway", file=sys.stderr)
    # The hub stops a server with SIGINT, on which jupyter_server exits
    # without shutting its kernels down; on SIGTERM it shuts them down
    # first (lessons-singleuser passes either on as SIGTERM). So SIGINT is
    # SIGTERM here.
    signal.signal(signal.SIGINT, lambda sig, frame: os.kill(os.getpid(), signal.SIGTERM))
    module, _, func = entry.partition(":")
    main = getattr(importlib.import_module(module), func)
    sys.argv = ["jupyterhub-singleuser"] + list(req["args"])
    try:
        status = main()
    except SystemExit as e:
        status = e.code
    if status is None:
        return 0
    return status if isinstance(status, int) else 1


def reap(sig=None, frame=None):
    """Wait for every child that has ended."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def serve(import_env, home_vals, init, entry):
    """Read requests from stdin, fork a child for each, reply with its pid."""
    # Children are waited for as soon as they end: the hub polls them by pid,
    # as root (a zombie would look alive), and the CPU they used then counts
    # in this process's rusage, and in the hub's, which waits for this one.
    signal.signal(signal.SIGCHLD, reap)
    reply = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except ValueError as e:
            reply.write(json.dumps({"error": f"bad request: {e}"}) + "\n")
            continue
        if threading.active_count() != 1:
            reply.write(json.dumps({"error": f"{threading.active_count()} threads run: not forking"}) + "\n")
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                status = child(req, import_env, home_vals, init, entry)
            except BaseException:
                traceback.print_exc()
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(status)
        reply.write(json.dumps({"pid": pid}) + "\n")
    reap()


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit("usage: lessons_forkserver.py PERCEPTRON-LESSONS-INIT [--main MODULE:FUNCTION] [MODULE...]")
    init, args = args[0], args[1:]
    # The server's main (the tests give another, which reports what it sees).
    entry = "jupyterhub.singleuser:main"
    if args[:1] == ["--main"] and len(args) > 1:
        entry, args = args[1], args[2:]
    import_env, home_vals = preload(args + [entry.partition(":")[0]])
    serve(import_env, home_vals, init, entry)


if __name__ == "__main__":
    main()
