"""jupyterlab.labapp: `jupyter-lab` for the lessons' JupyterLab (see __init__)."""

from perceptron_lab import LessonsLab as LabApp
from perceptron_lab import main

__all__ = ["LabApp", "main"]

if __name__ == "__main__":
    main()
