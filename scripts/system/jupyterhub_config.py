# JupyterHub configuration for a class on one server (Debian's jupyterhub 3.0)
# with the shared install of the perceptron lessons (scripts/setup.sh --system,
# with --lab for JupyterLab).
# Start it as root: jupyterhub -f /usr/local/lib/perceptron-lessons/jupyterhub_config.py
import os

c = get_config()  # noqa: F821 (defined by JupyterHub when it reads this file)

# Students log in with their accounts on this server (PAM, JupyterHub's
# default authenticator); each gets a Jupyter server running as them, at
# /user/NAME/. Only the accounts listed here may log in; the admins see
# every student's server at /hub/admin.
c.Authenticator.allowed_users = {"student1", "student2"}
c.Authenticator.admin_users = {"teacher"}

# Where the hub listens. Put it behind HTTPS (a reverse proxy, or
# c.JupyterHub.ssl_cert and ssl_key) when students connect over a network.
c.JupyterHub.bind_url = "http://0.0.0.0:8000"

# Debian's configurable-http-proxy finds its JavaScript modules through
# NODE_PATH when the node on PATH is not Debian's own.
c.ConfigurableHTTPProxy.command = ["/usr/bin/env", "NODE_PATH=/usr/share/nodejs", "configurable-http-proxy"]

# Each server first gives its student a copy of the lessons in
# ~/perceptron-lessons (once; their work is never overwritten) and a warm Go
# build cache, then opens the lessons' folder. The first start of a student's
# server takes a few seconds more. The front end is JupyterLab 4 when the
# shared install has it (setup.sh --system --lab), else the classic Jupyter
# Notebook 6 (lessons-singleuser chooses the server to match).
c.Spawner.cmd = ["/usr/local/lib/perceptron-lessons/bin/lessons-singleuser"]
if os.path.exists("/usr/local/lib/perceptron-lessons/bin/jupyter-lab"):
    c.Spawner.default_url = "/lab/tree/perceptron-lessons/notebooks"
else:
    c.Spawner.default_url = "/tree/perceptron-lessons/notebooks"
c.Spawner.http_timeout = 120
c.Spawner.start_timeout = 120
