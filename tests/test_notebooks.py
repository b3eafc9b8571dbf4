"""The notebooks run top to bottom at a small deal count, and each .ipynb matches its .py twin."""
from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.py"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("PINOCHLE_DEALS", "3000")
    monkeypatch.setenv("PINOCHLE_MATCHES", "40")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = jupytext.read(path)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_paired_ipynb_in_sync(path):
    py = [c.source for c in jupytext.read(path).cells]
    ipynb = [c.source for c in jupytext.read(path.with_suffix(".ipynb")).cells]
    assert py == ipynb, f"run: jupytext --sync {path.name}"
