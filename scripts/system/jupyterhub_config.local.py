# The instructor's JupyterHub settings for the class server: set-up
# (scripts/setup.sh --system) wrote this file once and never overwrites it.
# The shipped configuration, @PREFIX@/jupyterhub_config.py,
# loads it last, so what you set here wins. Restart the hub after a change.
# The class itself (who may log in, the admins) comes from roster.json beside
# this file, which `assign roster` keeps (docs/instructor.md, "The roster").
c = get_config()  # noqa: F821 (defined by JupyterHub when it reads this file)

# Where the hub listens (the shipped default: every address, port 8000):
# c.JupyterHub.bind_url = "http://0.0.0.0:8000"
# HTTPS without a reverse proxy:
# c.JupyterHub.ssl_cert = "/etc/ssl/certs/hub.pem"
# c.JupyterHub.ssl_key = "/etc/ssl/private/hub.key"

# Completion and contextual help (gopls) off, for a large class on a small
# server (docs/instructor.md, "A measured class"):
# c.Spawner.environment = {"LESSONS_COMPLETION": "off"}
