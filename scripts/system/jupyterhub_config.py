# JupyterHub configuration for a class on one server (JupyterHub 5.5, from the
# shared install's Jupyter environment) with the shared install of the
# perceptron lessons (scripts/setup.sh --system). Set-up replaces this file at
# every update: put your settings in @CONFIG@/jupyterhub_config.local.py,
# which set-up never overwrites and which this file loads last.
# Start it as root:
#   /usr/local/lib/perceptron-lessons/venv/bin/jupyterhub -f /usr/local/lib/perceptron-lessons/jupyterhub_config.py
import json
import os
import sys

c = get_config()  # noqa: F821 (defined by JupyterHub when it reads this file)
config_dir = "@CONFIG@"

# Students log in with their accounts on this server (PAM, JupyterHub's
# default authenticator); each gets a Jupyter server running as them, at
# /user/NAME/. Only the class may log in: the students and admins of the
# roster that `assign roster` keeps in roster.json (read when the hub
# starts); the admins see every student's server at /hub/admin. Without a
# roster nobody may log in. A user the hub's database remembers but the
# roster dropped may not log in either.
roster_path = os.path.join(config_dir, "roster.json")
if os.path.exists(roster_path):
    with open(roster_path) as f:
        roster = json.load(f)
    c.Authenticator.allowed_users = set(roster["students"]) | set(roster["admins"])
    c.Authenticator.admin_users = set(roster["admins"])
c.Authenticator.allow_existing_users = False

# Where the hub listens. Put it behind HTTPS (a reverse proxy, or
# c.JupyterHub.ssl_cert and ssl_key in the local file) when students connect
# over a network.
c.JupyterHub.bind_url = "http://0.0.0.0:8000"

# The hub and the proxy first: every login goes through the hub, every
# message between a browser and a kernel through the proxy, and Linux shares
# the CPU first between sessions (each student's server and kernel is one),
# so the hub and the proxy run at nice -10 and their sessions get the share
# of nice -10, nine students' worth (docs/instructor.md, "The hub and the
# proxy first"; 0 leaves them as any student's). The proxy:
# configurable-http-proxy as set-up installed it with npm.
sys.path.insert(0, "/usr/local/lib/perceptron-lessons/lib/python")
from lessons_spawner import LessonsSpawner, hub_first  # noqa: E402

in_hub_share = hub_first(-10)
c.ConfigurableHTTPProxy.command = in_hub_share(["/usr/local/lib/perceptron-lessons/proxy/node_modules/.bin/configurable-http-proxy"])

# Each server first gives its student a copy of the lessons in
# ~/perceptron-lessons, or brings new and changed lessons into the copy they
# have (a notebook they edited is kept, the new version put beside it as
# NAME.updated-DATE.ipynb), and a warm Go build cache, then opens the
# lessons' folder in JupyterLab. The first start of a student's server takes
# a few seconds more.
c.Spawner.cmd = ["/usr/local/lib/perceptron-lessons/bin/lessons-singleuser"]
# The servers start from a fork server that has imported Jupyter once, at
# nice 5 (which puts them below the hub and the proxy only where Linux has no
# autogroups or the hub none of its own; hub_first's share does it where they
# count), as each student's own
# account (docs/instructor.md, "The login storm"): a start costs about half
# the CPU, which a class logging in at once needs. To start each server as
# a process of its own instead: c.LessonsSpawner.use_forkserver = False
c.JupyterHub.spawner_class = LessonsSpawner
c.Spawner.default_url = "/lab/tree/perceptron-lessons/notebooks"
c.Spawner.http_timeout = 300
c.Spawner.start_timeout = 300


# Each student's server listens on a port of its own, 20000 + the student's
# id in the hub's database (below Linux's ephemeral ports, 32768-60999).
# JupyterHub's default is a random free port, which it checks and lets go
# before the server binds it: with a class logging in at once, a kernel or a
# connection could take it in between, the server then moved to the next
# port, and the hub sent the student to another student's server (two of 60
# in a measured class). A port taken anyway stops that server with an error
# instead (port_retries 0), and the student starts it again.
def _own_port(spawner):
    spawner.port = 20000 + spawner.user.id


c.Spawner.pre_spawn_hook = _own_port
# jupyter_lsp, the server side of JupyterLab's language servers, is left
# out: the lessons have none to serve (the Go kernel completes and helps on
# its own), and it looks for about twenty at each server's start, 0.6 s of
# CPU that a class logging in at once pays sixty times (docs/instructor.md,
# "The login storm").
c.Spawner.args = ["--ServerApp.port_retries=0", "--ServerApp.jpserver_extensions=jupyter_lsp=False"]
# Completion and contextual help (gopls) cost nothing until a student asks
# for them; then that kernel's gopls holds about 120-160 MB and runs at the
# lowest priority, on the CPU the cells leave (docs/instructor.md,
# "Completion, one student's cost"). To turn them off, in the local file:
# c.Spawner.environment = {"LESSONS_COMPLETION": "off"}

# Stop the servers of students idle for an hour (their files stay), with
# jupyterhub-idle-culler from the same environment.
c.JupyterHub.services = [
    {"name": "idle-culler", "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout=3600"]},
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    },
]

# Last, the instructor's own settings (the address, HTTPS, another login
# method, completion off...), which win over everything above.
local_config = os.path.join(config_dir, "jupyterhub_config.local.py")
if os.path.exists(local_config):
    load_subconfig(local_config)  # noqa: F821 (defined by traitlets when it reads this file)
