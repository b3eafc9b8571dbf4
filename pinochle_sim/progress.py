"""What a long run tells its user as it goes: progress bars (tqdm, on standard error; silent when
disabled), and that kernels are being compiled when a run compiles rather than loads them."""
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
COMPILING = ("pinochle-sim: compiling the simulator for this version of its code (once: later runs "
             "load it from the cache)")


class _CompileNotice(event.Listener):
    """A numba event listener that notes when a kernel of this package is compiled (its cache
    missed: the first run of a version of the code, or of a new kind of run), and says so once
    through ``write`` (None: silently)."""

    def __init__(self, write=None):
        self.compiled = False
        self.write = write

    def on_start(self, ev) -> None:
        d = ev.data.get("dispatcher") if ev.data else None
        if not self.compiled and d is not None and getattr(d.py_func, "__module__", "").startswith("pinochle_sim"):
            self.compiled = True
            if self.write is not None:
                self.write(COMPILING)

    def on_end(self, ev) -> None:
        pass


_watching: list[_CompileNotice] = []


@contextlib.contextmanager
def compile_notice(enabled: bool) -> Iterator[None]:
    """While the block runs, note when numba compiles a kernel of this package rather than load
    it (:func:`compiled`), and say so once on standard error when ``enabled`` (a terminal): a
    first run otherwise sits silent that long."""
    notice = _CompileNotice((lambda text: tqdm.write(text, file=sys.stderr)) if enabled else None)
    _watching.append(notice)
    try:
        with event.install_listener("numba:compile", notice):
            yield
    finally:
        _watching.remove(notice)


def compiled() -> bool:
    """Whether the command running (:func:`compile_notice`) has compiled a kernel so far: its
    speed then counts the compiling, which a summary says."""
    return any(n.compiled for n in _watching)
