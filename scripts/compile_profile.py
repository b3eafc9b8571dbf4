"""Where the compile time goes: every numba compile of a command, a test run or both.

    python scripts/compile_profile.py bid-chart --variant thousand --deals 2000 -q --out /tmp/c
    PYTHONPATH=scripts COMPILE_LOG=/tmp/compiles python -m pytest -n 2 -p compile_profile
    python scripts/compile_profile.py --summary /tmp/compiles

Numba reports each real compile (not a load from the disk cache) as a ``numba:compile`` event;
this records each one, with the kernel, how deep it sits below the kernel that asked for it,
its seconds (including what it compiled below it) and what was running (the test or the
command). Run as a command, it runs ``pinochle-sim`` with the rest of its arguments and prints
the compiles as a tree; imported (``-p compile_profile``, or ``COMPILE_LOG`` with the module on
the path of any process), it appends to ``$COMPILE_LOG.<pid>.jsonl``, which ``--summary``
reads back. Start from an empty cache (``XDG_CACHE_HOME`` pointing at an empty folder) to see a
cold start.
"""
from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import numba.core.event as ev

_stack: list[float] = []
_rows: list[dict] = []
_out = None


class _Compiles(ev.Listener):
    def on_start(self, event):
        _stack.append(time.perf_counter())

    def on_end(self, event):
        start = _stack.pop()
        fn = event.data["dispatcher"].py_func
        row = {"kernel": f"{fn.__module__}.{fn.__qualname__}", "depth": len(_stack),
               "seconds": round(time.perf_counter() - start, 2),
               "during": os.environ.get("PYTEST_CURRENT_TEST") or " ".join(sys.argv)[:120]}
        _rows.append(row)
        if _out is not None:
            _out.write(json.dumps(row) + "\n")
            _out.flush()


ev.register("numba:compile", _Compiles())
if os.environ.get("COMPILE_LOG"):
    _out = open(f"{os.environ['COMPILE_LOG']}.{os.getpid()}.jsonl", "a")


def tree(rows: list[dict], at_least: float = 0.5) -> list[str]:
    """The compiles as an indented tree, each top-level kernel after what it compiled below it
    (the events end innermost first), those under ``at_least`` seconds left out."""
    lines, below = [], []
    for r in rows:
        below.append(r)
        if r["depth"] == 0:
            lines += [f"{'  ' * c['depth']}{c['seconds']:7.1f} s  {c['kernel']}" for c in below
                      if c["seconds"] >= at_least or c is r]
            lines.append(f"{'':9}during {r['during']}")
            below = []
    return lines


def summary(rows: list[dict]) -> list[str]:
    """Seconds of top-level compiling per kernel, the largest first."""
    total: dict[str, list] = defaultdict(lambda: [0, 0.0])
    for r in rows:
        if r["depth"] == 0:
            total[r["kernel"]][0] += 1
            total[r["kernel"]][1] += r["seconds"]
    lines = [f"{s:7.1f} s  {n:3d} x  {k}" for k, (n, s) in sorted(total.items(), key=lambda kv: -kv[1][1])]
    return lines + [f"{sum(s for _, s in total.values()):7.1f} s  in all"]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--summary"]:
        for path in sorted(Path(argv[1]).parent.glob(Path(argv[1]).name + ".*.jsonl")):
            rows = [json.loads(line) for line in path.read_text().splitlines()]
            print(f"{path.name}:", *summary(rows), sep="\n  ")
        return 0
    from pinochle_sim.present.cli import main as cli
    start = time.perf_counter()
    code = cli(argv)
    print(f"\n{time.perf_counter() - start:.1f} s in all; compiling:", *tree(_rows), *summary(_rows), sep="\n",
          file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
