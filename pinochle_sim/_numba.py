"""Numba options in one place: every kernel is cached on disk so the CLI starts fast.

Numba's on-disk cache is keyed by each function's own source file, so a kernel cached before a
change to a kernel it calls in another module would run stale code. The cache therefore lives in
a folder named by a hash of the source of every module that holds kernels or the constants they
read (``~/.cache/pinochle-sim/<hash>``), unless ``NUMBA_CACHE_DIR`` is set; folders of older
sources are removed.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import numba
from numba.core import types
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic


def _cache_dir() -> Path:
    h = hashlib.sha1()
    root = Path(__file__).parent
    for p in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
        text = p.read_bytes()
        if b"njit" in text or p.name in ("cards.py", "variants.py"):
            h.update(p.relative_to(root).as_posix().encode())
            h.update(text)
    for base in (os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", tempfile.gettempdir()):
        root = Path(base) / "pinochle-sim"
        here = root / h.hexdigest()[:16]
        try:
            if not here.exists() and root.exists():
                for old in root.iterdir():
                    shutil.rmtree(old, ignore_errors=True)
            here.mkdir(parents=True, exist_ok=True)
            return here
        except OSError:  # not writable here: try the next place
            continue
    return here


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(_cache_dir())


class _PlainTypes(CPUDispatcher):
    """A kernel that a kernel calls is compiled for the plain types of its arguments.

    Numba would compile it again for every constant it is passed (``Literal[int](0)``), and for
    the constants a loop variable starts from, which it sees before the loop widens the type.
    Each such copy compiles the whole tree of kernels below it again: most of a cold start's
    compiling, for the same machine code."""

    def get_call_template(self, args, kws):
        return super().get_call_template([types.unliteral(a) for a in args],
                                         {k: types.unliteral(a) for k, a in kws.items()})


def _plain(jit):
    """The decorator ``jit`` making :class:`_PlainTypes` kernels."""
    def decorate(fn):
        d = jit(fn)
        d.__class__ = _PlainTypes
        return d
    return decorate


#: Serial kernels (called per hand, or inside a parallel loop).
njit = _plain(numba.njit(cache=True, nogil=True, error_model="numpy"))
#: Small kernels called in the innermost loops with a variant's tables: inlined into their
#: callers (a call would pass the whole tuple of tables, which costs more than the work).
ijit = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")
#: The hand kernels (a hand, its tricks, a card of the contract player), which take the variant's
#: tables and a thread's scratch, compiled without reference counting (numba's ``_nrt=False``):
#: every array those structures hold would otherwise cost two atomic counter updates per call.
#: Numba compiles what they call the same way and refuses any allocation there, so their scratch
#: is made once per thread (``hand.workspace``).
bjit = _plain(numba.njit(cache=True, nogil=True, error_model="numpy", _nrt=False))
#: Parallel kernels: ``prange`` over deals or blocks of deals.
pnjit = numba.njit(cache=True, nogil=True, parallel=True, error_model="numpy")


def set_threads(n: int | None) -> int:
    """Use ``n`` threads in parallel kernels (None: all cores); return the count in force."""
    if n is not None:
        numba.set_num_threads(max(1, min(int(n), numba.config.NUMBA_NUM_THREADS)))
    return numba.get_num_threads()


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an integer (one ``popcnt`` instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


@ijit
def copy_into(dst, src):
    """``dst[:] = src`` for 1-d arrays without the copy numba makes of a source that might
    overlap (an allocation, which kernels compiled with ``bjit`` may not make)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@ijit
def copy_rows(dst, src):
    """:func:`copy_into` for 2-d arrays, row by row."""
    for i in range(src.shape[0]):
        copy_into(dst[i], src[i])
