"""Serve the perceptron lessons in JupyterLab 4 (see perceptron_lab).

Usage (scripts/lessons.sh --lab does this):
    /usr/bin/python3 lab/main.py [jupyter_server options]
e.g. --ServerApp.root_dir=REPO --ServerApp.base_url=/user/u1/ --port=8888.
The lessons open at BASE/lab/tree/notebooks/00_start_here.ipynb.
"""

from perceptron_lab import main

if __name__ == "__main__":
    main()
