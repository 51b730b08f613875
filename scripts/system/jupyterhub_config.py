# JupyterHub configuration for a class on one server (Debian's jupyterhub 3.0)
# with the shared install of the perceptron lessons (scripts/setup.sh --system).
# Start it as root: jupyterhub -f /usr/local/lib/perceptron-lessons/jupyterhub_config.py
c = get_config()  # noqa: F821 (defined by JupyterHub when it reads this file)

# Students log in with their accounts on this server (PAM, JupyterHub's
# default authenticator); each gets a Jupyter Notebook server running as them,
# at /user/NAME/. Only the accounts listed here may log in; the admins see
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
# server takes a few seconds more.
c.Spawner.cmd = ["/usr/local/lib/perceptron-lessons/bin/lessons-singleuser"]
# Jupyter Notebook 6 (Debian's jupyter-notebook) as the students' front end:
# with Debian's jupyter_server installed, JupyterHub 3.0 would otherwise serve
# a bare jupyter_server with no notebook pages.
c.Spawner.environment = {"JUPYTERHUB_SINGLEUSER_APP": "notebook.notebookapp.NotebookApp"}
c.Spawner.default_url = "/tree/perceptron-lessons/notebooks"
c.Spawner.http_timeout = 120
c.Spawner.start_timeout = 120
