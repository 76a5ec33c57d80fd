"""The example notebooks (``examples/notebooks/``) run from top to bottom (issue 43): each is
executed with nbclient in a kernel of this test's own Python (a kernel spec written for the test,
so a ``python3`` kernel installed elsewhere is never the one run), in a temporary directory, and
must finish without an error. Skipped, with the reason, where the notebook tooling (the ``test``
extra's nbclient, nbformat and ipykernel) is missing; the sweep's plot also needs matplotlib."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "examples" / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
KERNEL = "cardsim-test-python"
TIMEOUT_S = 300          # a cell; the first run in a fresh checkout compiles Tonk's kernels


def _tooling():
    for name in ("nbformat", "nbclient", "ipykernel"):
        pytest.importorskip(name, reason=f"the notebook runner needs {name} (pip install -e '.[test]')")


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    """A kernel spec named KERNEL that starts this Python, found first through JUPYTER_PATH."""
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "cardsim test", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))     # what a notebook writes goes with tmp_path
    return KERNEL


def test_there_is_one_notebook_per_question_family():
    names = [p.stem for p in PATHS]
    for family in ("win_rates", "strategy_comparison", "sweep_plot", "critique"):
        assert any(family in n for n in names), (family, names)
    for p in PATHS:                      # stored without outputs: the test's run is what they show
        doc = json.loads(p.read_text(encoding="utf-8"))
        assert all(not c.get("outputs") and not c.get("execution_count") for c in doc["cells"]
                   if c["cell_type"] == "code"), p.name


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs(path, kernel, tmp_path):
    _tooling()
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    if any("matplotlib" in c.source for c in nb.cells if c.cell_type == "code"):
        pytest.importorskip("matplotlib", reason="the plot needs matplotlib (the report extra)")
    nb.cells.insert(0, nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    NotebookClient(nb, timeout=TIMEOUT_S, kernel_name=kernel,
                   resources={"metadata": {"path": str(run_dir)}}).execute()
    assert nb.cells[0].outputs[0]["text"].strip() == sys.executable      # this Python ran it
    streams = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "stream"]
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    if any("progress=True" in c.source for c in nb.cells):       # the bar shows in the notebook's output
        try:
            import ipywidgets  # noqa: F401      (tqdm's widget)
        except ImportError:                      # tqdm's (or rich's) text bar on stderr
            assert any(o.name == "stderr" and "100%" in o.text for o in streams), [o.text[:200] for o in streams]
        else:
            assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                       for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert not list(run_dir.iterdir()), "a notebook wrote into its own directory"
