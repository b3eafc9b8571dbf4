"""The notebooks run top to bottom at a small deal count and keep their figures; each .ipynb
matches its .py twin; a plotting function displays inline in a fresh kernel.

The notebooks run in this process, in an IPython shell with the inline backend that a Jupyter
kernel runs (:func:`_run_here`), not in a kernel of their own: a kernel costs a process, the
package's imports and its compiled kernels loaded again, several seconds a notebook. The one test
that a real kernel displays inline runs its cells both ways and asks for the same figures.
"""
import ast
from pathlib import Path

import jupytext
import matplotlib
import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.py"))


def _ends_in_a_figure(source: str) -> bool:
    """A plotting cell: its last statement is a plotting call (``plots.x(...)``,
    ``c.forest_plot()``) or a figure variable, or it calls ``plt.show()``."""
    if "plt.show()" in source:
        return True
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    last = body[-1] if body else None
    if not isinstance(last, ast.Expr):
        return False
    if isinstance(last.value, ast.Name):
        return last.value.id == "figure"
    if isinstance(last.value, ast.Call):
        name = ast.unparse(last.value.func)
        return name.startswith("plots.") or name.endswith("forest_plot")
    return False


def _small(monkeypatch):
    monkeypatch.setenv("PINOCHLE_DEALS", "3000")
    monkeypatch.setenv("PINOCHLE_MATCHES", "40")
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's own inline backend, as for a user


def _execute(nb, monkeypatch, folder):
    """Run ``nb`` in a fresh Jupyter kernel, its outputs kept in its cells."""
    _small(monkeypatch)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    return nb


@pytest.fixture(scope="session")
def shell(tmp_path_factory):
    """The IPython shell a Jupyter kernel runs (``ipykernel`` subclasses it), in this process, with
    the kernel's inline backend; no history written."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    class Shell(InteractiveShell):
        def enable_gui(self, gui=None):  # the inline backend needs no event loop
            pass

    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.ipython_dir = str(tmp_path_factory.mktemp("ipython"))
    return Shell.instance(config=config)


def _run_here(nb, monkeypatch, folder, shell):
    """Run ``nb``'s code cells top to bottom in ``shell``, in a fresh namespace in ``folder``, as a
    kernel does: what each cell displays (its figures, its value) is kept in its outputs. The
    first error is raised. Matplotlib's backend and settings are put back afterwards."""
    from IPython.utils.capture import capture_output
    _small(monkeypatch)
    monkeypatch.chdir(folder)
    import matplotlib.pyplot as plt
    backend = matplotlib.get_backend()
    plt.close("all")  # a fresh kernel has no figure open: none left by the tests before in this worker
    shell.reset(new_session=False)
    try:
        with matplotlib.rc_context():
            shell.enable_matplotlib("inline")
            for cell in (c for c in nb.cells if c.cell_type == "code"):
                with capture_output() as out:
                    result = shell.run_cell(cell.source)
                result.raise_error()
                cell.outputs = [nbformat.v4.new_output("display_data", data=o.data) for o in out.outputs]
    finally:
        plt.close("all")
        matplotlib.use(backend)
    return nb


def _images(cell) -> int:
    n = 0
    for o in cell.get("outputs", []):
        n += "image/png" in o.get("data", {})
    return n


def _plots(cell) -> bool:
    return cell.cell_type == "code" and _ends_in_a_figure(cell.source)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_every_plotting_cell_shows_a_figure(path, monkeypatch, shell):
    nb = _run_here(jupytext.read(path), monkeypatch, path.parent, shell)
    plotting = [c for c in nb.cells if _plots(c)]
    assert plotting, "no plotting cell found"
    for cell in plotting:
        assert _images(cell) >= 1, f"no figure shown by:\n{cell.source}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_paired_ipynb_in_sync(path):
    py = [c.source for c in jupytext.read(path).cells]
    ipynb = [c.source for c in jupytext.read(path.with_suffix(".ipynb")).cells]
    assert py == ipynb, f"run: jupytext --sync {path.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebooks_carry_their_figures(path):
    nb = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
    for cell in (c for c in nb.cells if _plots(c)):
        assert _images(cell) >= 1, f"{path.with_suffix('.ipynb').name}: run `make notebooks`"


@pytest.mark.parametrize("where", ["kernel", "here"])
def test_a_fresh_kernel_shows_plots_inline(where, monkeypatch, tmp_path, shell):
    # issue 10: importing the plots used to switch matplotlib to Agg, and nothing displayed;
    # issue 30: a chart is a pyplot figure, so plt.show() shows it, two in a cell show two, a chart
    # left as the cell's value shows once, and a chart drawn on the caller's axes lands there
    cells = [
        "import matplotlib.pyplot as plt\nfrom pinochle_sim.present import plots\n"
        "from pinochle_sim.studies.declarer import declarer_stats\ns = declarer_stats('classic', deals=300, seed=1)",
        "plots.bid_heatmap(s); plt.show()",
        "plots.make_curves(s)\nplots.total_distribution(s)",
        "plots.make_curves(s)",
        "fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4))\nplots.make_curves(s, ax=a)\n"
        "plots.total_distribution(s, ax=b)\nassert fig.axes[:2] == [a, b]",
        "plt.plot([1, 2, 3]); plt.show()",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    # "here": the notebooks' own runner shows what a kernel shows
    nb = _execute(nb, monkeypatch, tmp_path) if where == "kernel" else _run_here(nb, monkeypatch, tmp_path, shell)
    assert [_images(c) for c in nb.cells] == [0, 1, 2, 1, 1, 1]


def test_importing_the_package_sets_no_backend():
    import subprocess
    import sys
    code = ("import sys, pinochle_sim, pinochle_sim.present.plots, pinochle_sim.present.cli; "
            "print('matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
