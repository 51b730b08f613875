"""jupyterlab: the name under which Binder finds the lessons' JupyterLab.

BinderHub starts a Dockerfile image with a command that imports
jupyterlab.labapp and, when jupyterlab.__version__ is 3 or later, runs
`jupyter-lab` with its options; otherwise it runs the classic
`jupyter-notebook`. The lessons' JupyterLab 4 is not Python's jupyterlab
package (Debian has none, and PyPI is not used): it is the app in lab/
(perceptron_lab), and this package only answers that check. The Docker image
puts this folder on PYTHONPATH (see the Dockerfile); nothing else does.
"""

from perceptron_lab import VERSION as __version__  # noqa: F401
