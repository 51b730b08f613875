# driver.py runs one notebook with nbclient, cell by cell, in the
# notebook's own folder (so that its setup cell finds go.mod), with the
# "gonb" kernel that JUPYTER_PATH names first. argv: notebook, cell timeout
# (s), extra setup lines (added to cell 0 of an in-memory copy; "" for
# none). It prints one JSON object: the time of every code cell, whether it
# showed a figure, and the time of the whole run.
import json, os, re, sys, time
import nbformat
from nbclient import NotebookClient

src, timeout, extra = sys.argv[1], int(sys.argv[2]), sys.argv[3]
nb = nbformat.read(src, as_version=4)
code = [c for c in nb.cells if c.cell_type == "code"]
if extra and code:
    code[0].source = extra + "\n" + code[0].source
client = NotebookClient(nb, timeout=timeout, kernel_name="gonb", allow_errors=True,
                        resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}})


# LIVE matches a cell that shows a live figure: view.Explore, view.ExploreAlt,
# view.Stepper or view.StepperAlt.
LIVE = re.compile(r"\b(Explore|Stepper)(Alt)?\(")


def figure(cell):
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        if "image/png" in data or "image/svg+xml" in data or "<img" in "".join(data.get("text/html", "")):
            return True
    return False


report = {"cells": [], "error": ""}
with client.setup_kernel():
    client.wait_for_reply(client.kc.kernel_info())
    start = time.monotonic()
    try:
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            t = time.monotonic()
            client.execute_cell(cell, index)
            report["cells"].append({"index": index, "seconds": time.monotonic() - t,
                                    "figure": figure(cell), "live": bool(LIVE.search(cell.source)),
                                    "error": any(o.get("output_type") == "error" for o in cell.get("outputs", []))})
    except Exception as e:
        report["error"] = "cell %d: %s: %s" % (index, type(e).__name__, e)
    report["seconds"] = time.monotonic() - start
print(json.dumps(report))
