"""The perceptron lessons' JupyterLab 4, as a jupyter_server extension.

The front end is the small JupyterLab application built from npm's
@jupyterlab packages in lab/ (package.json, index.js; built into lab/build by
`scripts/setup.sh --lab`). The server is Debian's jupyter_server (1.23) with
jupyterlab_server's LabServerApp (2.16): no JupyterLab Python package is
needed. It serves /lab (JupyterLab) and /doc (JupyterLab's single-document
mode, where Binder's labpath= links open).

Three ways it is started:
  - lab/main.py (scripts/lessons.sh --lab): this app on its own;
  - jupyter-lab (scripts/system/jupyter-lab, the Docker image's command, and
    Binder's): the same, through lab/python/jupyterlab/labapp.py;
  - any jupyter_server with the extension enabled (`setup.sh --system --lab`
    enables it in Jupyter's system configuration), such as JupyterHub's
    single-user server: ServerApp.jpserver_extensions = {"perceptron_lab": True}.
User settings and workspaces are kept in Jupyter's config folder
(JUPYTER_CONFIG_DIR, by default ~/.jupyter), under lab/perceptron-*.
"""

import json
import os
import signal
import sys

from jupyter_core.paths import jupyter_config_dir
from jupyterlab_server import LabServerApp
from traitlets import Unicode

LAB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(LAB, "build")

with open(os.path.join(LAB, "package.json"), encoding="utf-8") as f:
    VERSION = json.load(f)["version"]


def _jupyter_server_extension_points():
    return [{"module": __name__, "app": LessonsLab}]


class LessonsLab(LabServerApp):
    """JupyterLab for the lessons, at /lab."""

    name = "perceptron_lab"
    extension_url = "/lab"
    # Configurable, unlike LabServerApp's: the Docker image opens lesson 00.
    default_url = Unicode("/lab", help="The URL that / redirects to (relative to the base URL).").tag(config=True)
    load_other_extensions = False
    app_name = "JupyterLab"
    app_version = VERSION
    app_settings_dir = os.path.join(BUILD, "application_settings")
    schemas_dir = os.path.join(BUILD, "schemas")
    static_dir = BUILD
    templates_dir = os.path.join(LAB, "templates")
    themes_dir = os.path.join(BUILD, "themes")
    # Per user, never in the (possibly shared, read-only) repository.
    user_settings_dir = os.path.join(jupyter_config_dir(), "lab", "perceptron-user-settings")
    workspaces_dir = os.path.join(jupyter_config_dir(), "lab", "perceptron-workspaces")

    def initialize_settings(self):
        super().initialize_settings()
        # jupyter_server 1.x, without a terminal, lets SIGINT raise
        # KeyboardInterrupt, which ends its loop without shutting the kernels
        # down: they would outlive the server. JupyterHub stops a user's
        # server with SIGINT (then SIGTERM, then SIGKILL), so a SIGINT stops
        # it as SIGTERM does, kernels first. (With a terminal, jupyter_server
        # asks for confirmation and is left alone.) Extensions load after
        # jupyter_server installs its own handlers.
        if not (sys.stdin and sys.stdin.isatty()):
            signal.signal(signal.SIGINT, self.serverapp._signal_stop)


def main(argv=None):
    """Serves the lessons' JupyterLab; argv are jupyter_server's options."""
    if not os.path.exists(os.path.join(BUILD, "bundle.js")):
        sys.exit("perceptron_lab: %s/bundle.js is missing: build the app first with `bash scripts/setup.sh --lab`" % BUILD)
    LessonsLab.launch_instance(argv)
