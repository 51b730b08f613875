# jupyter_server_config.py of the lessons' Jupyter environment: scripts/setup.sh
# installs it as <venv>/etc/jupyter/jupyter_server_config.py, beside the
# jupyter_server_config.json it writes, so that JupyterLab, Notebook 7 and
# JupyterHub's single-user servers all load it.
#
# One kernel per notebook. jupyter_server's POST /api/sessions returns the
# session of a path that has one, but it checks before it starts the kernel,
# which takes seconds: requests for the same notebook that arrive in
# between (a double-click in Notebook 7 opened three tabs, each with its
# own kernel and gopls) each started a kernel. OneKernelPerNotebook makes
# the session of a path one at a time: a request that arrives while that
# path's session is being created waits for it, and gets it.
import asyncio

from jupyter_server.services.sessions.sessionmanager import SessionManager


class OneKernelPerNotebook(SessionManager):
    """A SessionManager that creates at most one session per path."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._path_locks = {}

    async def create_session(self, path=None, name=None, type=None, kernel_name=None, kernel_id=None):
        if path is None:
            return await super().create_session(
                path=path, name=name, type=type, kernel_name=kernel_name, kernel_id=kernel_id
            )
        lock = self._path_locks.setdefault(path, asyncio.Lock())
        async with lock:
            if await self.session_exists(path=path):
                self.log.info("A session of %s exists already: it is reused, no new kernel", path)
                return await self.get_session(path=path)
            return await super().create_session(
                path=path, name=name, type=type, kernel_name=kernel_name, kernel_id=kernel_id
            )


c.ServerApp.session_manager_class = OneKernelPerNotebook  # noqa: F821 (c: the configuration)


# The format command of JupyterLab and Notebook 7 (jupyterlab-code-formatter)
# for Go cells: the formatter "gonbfmt", which the settings that
# scripts/setup.sh writes make the default for the language go. It runs
# <venv>/bin/gonbfmt (internal/cellfmt), which formats a GoNB cell as gofmt
# does, magic and shell lines kept; on code that does not parse the cell is
# unchanged and the error, naming the cell's line, is the one message shown.
import os
import subprocess
import sys

try:
    from jupyterlab_code_formatter.formatters import SERVER_FORMATTERS, BaseFormatter
except ImportError:  # an environment without the formatter: nothing to register
    SERVER_FORMATTERS = None

if SERVER_FORMATTERS is not None:

    class GoCellFormatError(Exception):
        """A Go cell that gonbfmt does not format (its message says why)."""

    class GoCellFormatter(BaseFormatter):
        """Formats a GoNB cell with gonbfmt."""

        label = "Apply gofmt (Go cell)"
        language = "go"
        command = os.path.join(os.path.dirname(sys.executable), "gonbfmt")

        @property
        def importable(self) -> bool:
            return os.access(self.command, os.X_OK)

        def format_code(self, code: str, notebook: bool, **options) -> str:
            try:
                p = subprocess.run([self.command], input=code, capture_output=True, text=True, timeout=30)
            except (OSError, subprocess.TimeoutExpired) as err:
                raise GoCellFormatError(f"gonbfmt did not run: {err}") from err
            if p.returncode != 0:
                raise GoCellFormatError(p.stderr.strip() or f"gonbfmt exited with status {p.returncode}")
            return p.stdout

    SERVER_FORMATTERS["gonbfmt"] = GoCellFormatter()
