"""Progress bars for long runs (tqdm, on standard error; silent when disabled)."""
from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from numba.core import event
from tqdm import tqdm


@contextlib.contextmanager
def bar(total: int, desc: str, enabled: bool = True, unit: str = " deals") -> Iterator[tqdm]:
    """A tqdm bar counting deals (or ``unit``); ``enabled=False`` gives one that prints nothing."""
    with tqdm(total=total, desc=desc, unit=unit, unit_scale=unit == " deals", disable=not enabled,
              dynamic_ncols=True, leave=False) as pb:
        yield pb


#: What a terminal is told when the kernels are compiled, not loaded from the cache.
COMPILING = ("pinochle-sim: compiling the simulator for this version of its code (once, up to a "
             "minute or two; later runs load it from the cache)")


class _CompileNotice(event.Listener):
    """A numba event listener that tells, once, that a kernel of this package is being compiled
    (its cache missed: the first run of a version of the code, or of a new kind of run)."""

    def __init__(self, write=tqdm.write):
        self.said = False
        self.write = write

    def on_start(self, ev) -> None:
        d = ev.data.get("dispatcher") if ev.data else None
        if not self.said and d is not None and getattr(d.py_func, "__module__", "").startswith("pinochle_sim"):
            self.said = True
            self.write(COMPILING)

    def on_end(self, ev) -> None:
        pass


@contextlib.contextmanager
def compile_notice(enabled: bool) -> Iterator[None]:
    """While the block runs, say once on standard error (``enabled``: a terminal) when numba
    compiles a kernel rather than loading it: a first run otherwise sits silent that long."""
    if not enabled:
        yield
        return
    notice = _CompileNotice(lambda text: tqdm.write(text, file=sys.stderr))
    with event.install_listener("numba:compile", notice):
        yield
