"""Numba options in one place: every kernel is cached on disk so the CLI starts fast.

Numba's on-disk cache is keyed by each function's own source file, so a kernel cached before a
change to anything it calls or inlines from another module would run stale code. The cache
therefore lives in a folder named by :func:`source_key`, a hash of everything that decides the
compiled code and the tables cached beside it: the source of every module of the package and the
versions of Python, numba, llvmlite and numpy. The folder is
``~/.cache/pinochle-sim/kernels/<key>/`` (``$XDG_CACHE_HOME`` if set); where ``NUMBA_CACHE_DIR`` is
set, the kernels go to ``$NUMBA_CACHE_DIR/pinochle-sim/kernels/<key>/`` instead, keyed all the
same (numba's own keying, by each file, would serve stale kernels there; cached tables stay in
the folder under ``~/.cache``). Each folder names the checkout that
made it: a new key removes only the older folders of the same checkout (once unused for
:data:`OWN_AGE_SECONDS`) and folders of any checkout unused for :data:`MAX_AGE_DAYS`, so two
checkouts or virtual environments side by side keep each other's. Resumable runs keep their
checkpoints apart, in :func:`state_dir` ``/ "runs"``, which no change of code removes.
"""
from __future__ import annotations

import functools
import hashlib
import os
import platform
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import llvmlite
import numba
import numpy
from llvmlite import ir
from numba.core import types
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic

#: A kernel folder nobody has used for this many days is removed, whichever checkout made it.
MAX_AGE_DAYS = 30
#: A checkout's own folders for older source are removed once unused for this long.
OWN_AGE_SECONDS = 3600
_ROOT = Path(__file__).resolve().parent
_OWNER = "checkout"  # the file in a kernel folder naming the package folder that made it
_USED = "used"       # touched whenever a process uses the folder


def source_key(root: Path) -> str:
    """A hash of the source of every module and data file (``.json``: the default bidding's
    weights) under ``root`` and of the versions of Python, numba, llvmlite and numpy: what
    compiled kernels, cached tables and resumable runs of the package at ``root`` depend on."""
    h = hashlib.sha1()
    for part in (platform.python_version(), numba.__version__, llvmlite.__version__, numpy.__version__):
        h.update(part.encode() + b"\0")
    for p in sorted([*root.rglob("*.py"), *root.rglob("*.json")], key=lambda p: p.relative_to(root).as_posix()):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@functools.cache
def code_key() -> str:
    """:func:`source_key` of this package as it was when first asked (once a process)."""
    return source_key(_ROOT)


def state_dir() -> Path:
    """``~/.cache/pinochle-sim`` (or ``$XDG_CACHE_HOME/pinochle-sim``), where the package keeps what
    it caches; the system's temporary folder when that cannot be written."""
    for base in (os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", tempfile.gettempdir()):
        here = Path(base) / "pinochle-sim"
        try:
            here.mkdir(parents=True, exist_ok=True)
            if os.access(here, os.W_OK):
                return here
        except OSError:  # not writable here: try the next place
            continue
    return here


def _stale(folder: Path, owner: str, now: float) -> bool:
    """A kernel folder of the checkout ``owner`` (for other source) unused for an hour, or of
    any checkout unused for :data:`MAX_AGE_DAYS`. The hour spares a run that started before an
    edit: it still writes kernels there."""
    try:
        used = max(folder.stat().st_mtime, *(p.stat().st_mtime for p in folder.glob(_USED)))
    except OSError:  # gone meanwhile
        return False
    try:
        mine = (folder / _OWNER).read_text() == owner
    except OSError:  # no owner written (yet)
        mine = False
    return now - used > (OWN_AGE_SECONDS if mine else MAX_AGE_DAYS * 86400)


def kernel_dir(root: Path = _ROOT, base: Path | None = None, now: float | None = None) -> Path:
    """The folder of the compiled kernels and cached tables of the package at ``root`` as its
    source is now (``base / "kernels" / source_key(root)``), made if need be. Making a new one
    removes the same checkout's folders for older source (unused for :data:`OWN_AGE_SECONDS`)
    and any folder unused for :data:`MAX_AGE_DAYS`; other checkouts' recent folders stay."""
    base = state_dir() if base is None else Path(base)
    now = time.time() if now is None else now
    kernels = base / "kernels"
    here = kernels / (code_key() if root == _ROOT else source_key(root))
    owner = str(root)
    if not here.exists():
        for old in kernels.iterdir() if kernels.exists() else ():
            if _stale(old, owner, now):
                shutil.rmtree(old, ignore_errors=True)
        here.mkdir(parents=True, exist_ok=True)
        (here / _OWNER).write_text(owner)
    (here / _USED).touch()
    return here


def _kernel_cache() -> None:
    """Point numba's cache at the keyed folder: :func:`kernel_dir`, under ``NUMBA_CACHE_DIR``
    when that is set."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    try:
        numba.config.CACHE_DIR = str(kernel_dir(base=Path(chosen) / "pinochle-sim" if chosen else None))
    except OSError:  # nowhere to cache: numba compiles every time (and says so itself)
        pass


_kernel_cache()


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


#: Serial kernels (called per hand, or over a span of deals).
njit = _plain(numba.njit(cache=True, nogil=True, error_model="numpy"))
#: Small kernels called in the innermost loops with a variant's tables: inlined into their
#: callers (a call would pass the whole tuple of tables, which costs more than the work).
ijit = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")
#: The hand kernels (a hand, its tricks, a card of the contract player), which take the variant's
#: tables and a thread's scratch, compiled without reference counting (numba's ``_nrt=False``):
#: every array those structures hold would otherwise cost two atomic counter updates per call,
#: contended between the threads of :func:`in_spans`. Numba refuses any allocation in them and in
#: what they call, so their scratch is made once per span (``hand.workspace``). Every kernel they
#: call is ``bjit`` too, but those inlined: a kernel that does not say takes the way of its first
#: caller, and numba's cache keeps one version a signature whatever the way, so one compiled first
#: from Python would be linked into the hand kernels with reference counting (a test holds it).
bjit = _plain(numba.njit(cache=True, nogil=True, error_model="numpy", _nrt=False))


def set_threads(n: int | None) -> int:
    """Use ``n`` threads for loops over deals (None: all cores); return the count in force."""
    if n is not None:
        numba.set_num_threads(max(1, min(int(n), numba.config.NUMBA_NUM_THREADS)))
    return numba.get_num_threads()


def in_spans(n: int, run: Callable[[int, int], object], size: int | None = None) -> None:
    """``run(lo, hi)`` for the spans ``[0, size)``, ``[size, 2 size)``, ... that cover items
    ``0 .. n-1``, on the threads :func:`set_threads` allows, each span handed to the next free
    thread (``size`` None: about eight spans a thread).

    ``run`` calls a serial kernel, which releases the GIL (``nogil``), so the spans run side by
    side. This is the loops' parallelism instead of numba's ``prange``: a ``prange`` loop makes
    LLVM optimise and generate the whole tree of kernels it calls again, about four times the
    compiling of a serial kernel over the same tree, for no speed. Every item draws from its own
    random stream, so the output depends on neither the thread count nor the order the spans
    finish in. An error in a span stops the spans not yet started and is raised here."""
    threads = numba.get_num_threads()
    size = size or max(1, -(-n // (8 * threads)))
    spans = [(lo, min(n, lo + size)) for lo in range(0, n, size)]
    threads = min(threads, len(spans))
    if threads <= 1:
        for lo, hi in spans:
            run(lo, hi)
        return
    pool = ThreadPoolExecutor(threads, thread_name_prefix="pinochle-sim")
    try:
        for f in [pool.submit(run, lo, hi) for lo, hi in spans]:
            f.result()
    finally:
        pool.shutdown(cancel_futures=True)


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an integer (one ``popcnt`` instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


def _byte_at(context, builder, signature, args):
    """The address of byte ``args[1]`` of the int8 array ``args[0]`` (:func:`store_word`, :func:`load_word`)."""
    data = context.make_array(signature.args[0])(context, builder, args[0]).data
    return builder.gep(data, [context.cast(builder, args[1], signature.args[1], types.intp)])


def _is_bytes(a, i):
    return isinstance(a, types.Array) and a.dtype == types.int8 and a.layout == "C" and isinstance(i, types.Integer)


@intrinsic
def store_word(typingctx, a, i, w):
    """Store the 64-bit word ``w`` into bytes ``i .. i+7`` of the C-contiguous int8 array ``a``
    (its elements in order, whatever its shape), as one unaligned store: what a view of ``a`` as
    uint64 would do, without making the view (an array structure, and two atomic counter updates
    where numba counts references)."""
    if not (_is_bytes(a, i) and isinstance(w, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        word = context.cast(builder, args[2], signature.args[2], types.uint64)
        builder.store(word, builder.bitcast(_byte_at(context, builder, signature, args), word.type.as_pointer()),
                      align=1)
        return context.get_dummy_value()
    return types.void(a, i, w), codegen


@intrinsic
def load_word(typingctx, a, i):
    """The 64-bit word in bytes ``i .. i+7`` of the C-contiguous int8 array ``a`` (its elements in
    order, whatever its shape), as one unaligned load: :func:`store_word`'s other half."""
    if not _is_bytes(a, i):
        return None

    def codegen(context, builder, signature, args):
        word = context.get_value_type(types.uint64)
        return builder.load(builder.bitcast(_byte_at(context, builder, signature, args), word.as_pointer()), align=1)
    return types.uint64(a, i), codegen


@intrinsic
def prefetch(typingctx, a, i):
    """Ask the processor to bring element ``i`` of the 1-d array ``a`` into its cache, without
    waiting for it (LLVM's ``llvm.prefetch``): a load that will miss can start while other work
    runs. No bounds check, no effect on any value."""
    if not (isinstance(a, types.Array) and a.ndim == 1 and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        at = builder.gep(data, [context.cast(builder, args[1], signature.args[1], types.intp)])
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = builder.module.declare_intrinsic("llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(),
                                                                                     [i8p, i32, i32, i32]))
        builder.call(fn, [builder.bitcast(at, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(a, i), codegen


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
