"""Serve the perceptron lessons in JupyterLab 4.

The front end is the small JupyterLab application built from npm's
@jupyterlab packages in this folder (package.json, index.js; built into
build/ by `scripts/setup.sh --lab`). The server is Debian's jupyter_server
(1.23) with jupyterlab_server's LabServerApp (2.16): no JupyterLab Python
package is needed.

Usage (scripts/lessons.sh --lab does this):
    /usr/bin/python3 lab/main.py [jupyter_server options]
e.g. --ServerApp.root_dir=REPO --ServerApp.base_url=/user/u1/ --port=8888.
The lessons open at BASE/lab/tree/notebooks/00_start_here.ipynb.
User settings and workspaces are kept in Jupyter's config folder
(JUPYTER_CONFIG_DIR, by default ~/.jupyter), under lab/perceptron-*.
"""

import json
import os
import sys

from jupyter_core.paths import jupyter_config_dir
from jupyterlab_server import LabServerApp

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "build")

with open(os.path.join(HERE, "package.json"), encoding="utf-8") as f:
    VERSION = json.load(f)["version"]


def _jupyter_server_extension_points():
    return [{"module": __name__, "app": LessonsLab}]


class LessonsLab(LabServerApp):
    """JupyterLab for the lessons, at /lab."""

    name = "perceptron_lab"
    extension_url = "/lab"
    default_url = "/lab"
    load_other_extensions = False
    app_name = "JupyterLab"
    app_version = VERSION
    app_settings_dir = os.path.join(BUILD, "application_settings")
    schemas_dir = os.path.join(BUILD, "schemas")
    static_dir = BUILD
    templates_dir = os.path.join(HERE, "templates")
    themes_dir = os.path.join(BUILD, "themes")
    # Per user, never in the (possibly shared, read-only) repository.
    user_settings_dir = os.path.join(jupyter_config_dir(), "lab", "perceptron-user-settings")
    workspaces_dir = os.path.join(jupyter_config_dir(), "lab", "perceptron-workspaces")


def main():
    if not os.path.exists(os.path.join(BUILD, "bundle.js")):
        sys.exit("lab/main.py: %s/bundle.js is missing: build the app first with `bash scripts/setup.sh --lab`" % BUILD)
    LessonsLab.launch_instance()


if __name__ == "__main__":
    main()
