"""JupyterHub spawners of the class server that start the students' servers
from a fork server (lessons_forkserver.py; docs/instructor.md, "The login
storm").

A server start through lessons-singleuser pays the imports of jupyter_server,
JupyterLab, Notebook 7 and jupyterhub.singleuser (about 1.4 s of CPU, half
of what a start costs), and a class logging in at once pays them sixty
times. LessonsSpawner is JupyterHub's LocalProcessSpawner, but for the
command lessons-singleuser it asks the fork server, which has made those
imports once, for a child that becomes the student's server (their uid, gid,
groups, home, the hub's environment for it, at a lower priority than the hub
and the proxy). JupyterHub polls and stops that process by its pid, as it
does a server it finds again after a restart. Any other command, or a fork
server that fails, starts the server as LocalProcessSpawner does.

SimpleLessonsSpawner is the same for JupyterHub's SimpleLocalProcessSpawner
(every server as the hub's user: measurements, never a class).
"""

import asyncio
import atexit
import json
import os
import pwd
import subprocess
import sys

from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner
from jupyterhub.utils import random_port
from traitlets import Bool, HasTraits, Integer, List, Unicode

PREFIX = "@PREFIX@"


class _ForkServer:
    """The one fork server of the hub, started at the first spawn, a child
    of the hub: when the hub exits, it closes the fork server's stdin and
    waits for it, so that the hub's rusage counts the servers' CPU (the fork
    server waits for its children) as it counted lessons-singleuser's."""

    def __init__(self):
        self.proc = None
        self.lock = asyncio.Lock()

    def _request(self, log, argv, line):
        """One request and its answer (blocking: run in a thread)."""
        if self.proc is None or self.proc.poll() is not None:
            log.info("Starting the fork server: %s", " ".join(argv))
            # A process group of its own (the hub's terminal's Ctrl-C is not
            # sent to it), in the hub's session: it shares the hub's CPU
            # share (hub_first), so a class logging in is forked at once.
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=_forkserver_env(),
                process_group=0,
            )
            atexit.register(self.close)
        try:
            self.proc.stdin.write(line.encode())
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline()
        except OSError as e:
            self._kill()
            raise RuntimeError(f"the fork server did not answer: {e!r}") from e
        if not answer:
            self._kill()
            raise RuntimeError("the fork server exited")
        return json.loads(answer)

    async def spawn(self, log, argv, request):
        async with self.lock:
            line = json.dumps(request) + "\n"
            loop = asyncio.get_running_loop()
            # The first answer waits for the imports (a few seconds).
            try:
                reply = await asyncio.wait_for(loop.run_in_executor(None, self._request, log, argv, line), 120)
            except asyncio.TimeoutError as e:
                self._kill()
                raise RuntimeError("the fork server did not answer within 120 s") from e
        if "pid" not in reply:
            raise RuntimeError(f"the fork server: {reply.get('error')}")
        return int(reply["pid"])

    def _kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def close(self):
        """End of the hub: the fork server ends (its servers run on)."""
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self._kill()


_forkserver = _ForkServer()


def _forkserver_env():
    """The fork server's own environment: what the imports need to find
    things (PATH, locale), nothing of the hub's secrets. Each server gets the
    environment the hub gives it, in place of this one."""
    return {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")}


def hub_first(nice):
    """Put the hub (and the fork server it starts) and the proxy it starts
    ahead of the students' servers and kernels for the CPU: give this
    process nice `nice` and, where it has a session with an autogroup of its
    own, that session the share of nice `nice`; return how to start a
    command (the proxy) so that its own session gets that share too.

    Linux shares the CPU first between autogroups (one per session, where
    the kernel has them and they are on, as by default) and only then by
    nice within one; each student's server and each of their kernels is a
    session of its own, so in a class the hub, through which every login
    and every spawn goes, and the proxy, through which every message
    between a browser and a kernel goes, would get one share among a
    hundred. nice -10 makes a session, or a process that is in no autogroup
    of its own, weigh as much as nine at nice 0 (the kernel's table of
    weights): a process started without a session of its own (a
    container's, a CI runner's) is in none, and it then competes with each
    session by its own nice; without autogroups, with each process by its
    nice (the servers' is LessonsSpawner.server_nice). Both need root (a hub
    with system accounts has it); what fails, the hub says in its log.
    """
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    except OSError as e:
        print(f"lessons_spawner: the hub's nice stays (setting {nice}: {e})", file=sys.stderr)
    path = "/proc/self/autogroup"
    try:
        with open(path) as f:
            group = f.read().strip()
    except OSError:
        group = ""
    if group:
        try:
            with open(path, "w") as f:
                f.write(str(nice))
        except OSError as e:
            print(f"lessons_spawner: the hub's session keeps its CPU share (writing {nice} to {path}: {e})", file=sys.stderr)
    else:
        print(f"lessons_spawner: the hub is in no autogroup of its own ({path} empty or missing): its nice, {nice}, puts it first", file=sys.stderr)
    # The proxy: JupyterHub starts it in a session of its own (with the
    # hub's nice, which it inherits).
    script = 'echo "$0" >/proc/self/autogroup 2>&- || :; exec "$@"'
    return lambda cmd: ["/bin/sh", "-c", script, str(nice), *cmd]


class ForkServerMixin(HasTraits):
    """Start lessons-singleuser's servers from the fork server."""

    use_forkserver = Bool(
        True,
        config=True,
        help="Start the servers of the command lessons-singleuser from the fork server (False: as LocalProcessSpawner does).",
    )
    forkserver_cmd = List(
        Unicode(),
        [f"{PREFIX}/bin/lessons-singleuser"],
        config=True,
        help="The command the fork server stands in for: a server of another command starts as LocalProcessSpawner starts it.",
    )
    forkserver_argv = List(
        Unicode(),
        [
            f"{PREFIX}/venv/bin/python",
            f"{PREFIX}/lib/python/lessons_forkserver.py",
            f"{PREFIX}/bin/perceptron-lessons-init",
            "jupyter_server_terminals",
            "jupyterlab_code_formatter",
            "nbgitpuller",
            "notebook_shim",
        ],
        config=True,
        help="The fork server's command: its Python and program, perceptron-lessons-init, the modules to import beforehand.",
    )
    server_nice = Integer(
        5,
        config=True,
        help="The servers' (and their kernels') nice, whatever the hub's: above the hub's and the proxy's (hub_first, -10 in jupyterhub_config.py), so that a class logging in at once does not make the hub and the proxy late. Where Linux has autogroups (by default) a nice counts within a session only, and each server is a session of its own: there hub_first gives the hub's and the proxy's sessions their larger share.",
    )

    def make_preexec_fn(self, name):
        """A server started without the fork server: LocalProcessSpawner's
        preexec_fn, and the servers' nice (not the hub's, which it would
        inherit)."""
        inner = super().make_preexec_fn(name)
        nice = self.server_nice

        def preexec():
            try:
                os.setpriority(os.PRIO_PROCESS, 0, nice)
            except OSError:
                pass  # (a hub without root, above it already)
            inner()

        return preexec

    def forkserver_user(self):
        """Who the child becomes, and where it starts."""
        raise NotImplementedError

    async def start(self):
        if not self.use_forkserver or list(self.cmd) != list(self.forkserver_cmd) or self.shell_cmd or self.popen_kwargs:
            return await super().start()
        if self.port == 0:
            self.port = random_port()
        request = {
            "env": self.get_env(),
            "args": list(self.get_args()),
            "cmd": list(self.cmd),
            "nice": self.server_nice,
            "user": self.forkserver_user(),
        }
        try:
            pid = await _forkserver.spawn(self.log, list(self.forkserver_argv), request)
        except Exception as e:
            self.log.warning("Starting %s's server without the fork server: %s", self.user.name, e)
            return await super().start()
        self.log.info("Started %s's server from the fork server: pid %d", self.user.name, pid)
        self.proc = None
        self.pid = pid
        return (self.ip or "127.0.0.1", self.port)


class LessonsSpawner(ForkServerMixin, LocalProcessSpawner):
    """LocalProcessSpawner with the fork server: the student's own account."""

    def forkserver_user(self):
        user = pwd.getpwnam(self.user.name)
        return {
            "uid": user.pw_uid,
            "gid": user.pw_gid,
            "groups": os.getgrouplist(self.user.name, user.pw_gid),
            "cwd": user.pw_dir,
        }


class SimpleLessonsSpawner(ForkServerMixin, SimpleLocalProcessSpawner):
    """SimpleLocalProcessSpawner with the fork server: every server as the
    hub's user, in home_dir_template (measurements only, no isolation)."""

    def forkserver_user(self):
        return {"cwd": self.home_dir, "makedirs": True}


# classload and the tests run the install's configuration with every server as
# the hub's user: this is the variant they use.
LessonsSpawner.simple_variant = SimpleLessonsSpawner

if __name__ == "__main__":
    sys.exit("lessons_spawner is a module for JupyterHub's configuration (jupyterhub_config.py)")
