"""Execute every notebook from its paired .py and save the .ipynb with its outputs.

    python scripts/run_notebooks.py [NAME ...]

Deal counts come from each notebook's defaults (or PINOCHLE_DEALS / PINOCHLE_MATCHES).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import jupytext
from nbclient import NotebookClient

FOLDER = Path(__file__).resolve().parents[1] / "notebooks"


def run(path: Path) -> None:
    os.environ.pop("MPLBACKEND", None)  # figures show through the kernel's inline backend
    nb = jupytext.read(path)
    NotebookClient(nb, timeout=3600, kernel_name="python3",
                   resources={"metadata": {"path": str(FOLDER)}}).execute()
    jupytext.write(nb, path.with_suffix(".ipynb"))
    print(f"ran {path.name} -> {path.with_suffix('.ipynb').name}")


def main(names: list[str]) -> int:
    paths = sorted(FOLDER.glob("*.py"))
    if names:
        paths = [p for p in paths if p.stem in names or p.name in names]
    for p in paths:
        run(p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
