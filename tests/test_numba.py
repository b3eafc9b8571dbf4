"""The numba layer (``_numba``): a kernel called with constants is compiled once, for plain types;
the sampling player is compiled only into the loops of a play that samples; what the hand kernels
call is compiled one way, whoever compiles it first."""
import ast
import inspect
import textwrap
import time

import numpy as np
import pytest
from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher

from pinochle_sim._numba import in_spans, njit, set_threads
from pinochle_sim.engine import hand, search, tricks
from pinochle_sim.progress import COMPILING, compile_notice, compiled
from pinochle_sim.studies.simulate import Setup


@njit
def _twice(x):
    return 2 * x


@njit
def _calls_with_constants(n):
    k = 0  # a loop variable starting from a constant: numba types it Literal[int](0) at first
    for i in range(n):
        k = _twice(k) + i
    return _twice(0) + _twice(-1) + k


# compiled here, never loaded from the disk cache: a caller loaded from there compiles no callee
_twice._cache = NullCache()
_calls_with_constants._cache = NullCache()


def test_a_kernel_called_with_constants_is_compiled_once():
    assert _calls_with_constants(3) == -2 + 4
    assert [str(s) for s in _twice.signatures] == ["(int64,)"]


def test_only_a_sampling_play_has_a_search():
    assert Setup("thousand", "contract").loop.search is None
    assert Setup("thousand", ["heuristic", "random", "contract", "heuristic"]).loop.search is None
    assert Setup("thousand", "pimc").loop.search == 6 * 4                     # thousand: dd=6 tricks of 4 cards
    assert Setup("thousand", "pimc:dd=4").loop.search == 6 * 4                # thousand: close=6 tricks
    assert Setup("thousand", "pimc:dd=5,close=0").loop.search == 5 * 4
    assert Setup("thousand", "pimc:dd=5,close=4").loop.search == 5 * 4
    assert Setup("modern", "pimc:close=0").loop.search == 6 * 4               # modern: dd=6 tricks
    assert Setup("three-hand", "pimc:close=0").loop.search == 6 * 3           # three-hand: dd=6 tricks of 3 cards
    assert Setup("double-deck", "pimc:close=0").loop.search == 7 * 4          # double-deck: dd=7
    assert Setup("double-deck", "pimc:dd=3").loop.search == 4 * 4             # close=4 tricks
    assert Setup("three-hand", ["contract", "pimc:dd=20", "pimc:dd=0"]).loop.search == 15 * 3
    assert Setup("classic", ["contract", "pimc:dd=0", "contract", "contract"]).loop.search == 6 * 4  # classic: close=6
    assert Setup("classic", ["contract", "pimc:dd=0,close=4", "contract", "contract"]).loop.search == 4 * 4
    assert Setup("classic", ["contract", "pimc:dd=0,close=0", "contract", "contract"]).loop.search == 0
    for preset in ("classic", "classic-pass4"):                               # dd=7 in both
        assert Setup(preset, "pimc").loop.search == 7 * 4
        assert Setup(preset, "pimc:dd=6").loop.search == 6 * 4                # the player before
    assert np.array_equal(Setup("classic", "pimc").loop.policy[:, 0], [3, 3, 3, 3])


def _callees(d):
    """The kernels kernel ``d``'s source calls by name (``f(...)`` or ``module.f(...)``)."""
    names = d.py_func.__globals__
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(d.py_func)))):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                obj = names.get(f.id)
            elif isinstance(f, ast.Attribute) and inspect.ismodule(names.get(getattr(f.value, "id", ""))):
                obj = getattr(names[f.value.id], f.attr, None)
            else:
                continue
            if isinstance(obj, CPUDispatcher):
                yield obj


def test_what_the_hand_kernels_call_is_compiled_without_reference_counting_whoever_calls_it_first():
    """A kernel that does not say whether it counts references takes its first caller's way, and
    numba's cache keeps one version a signature whatever the way: the sampling player's card
    compiled first from Python (a test, the tests' warm-up, a notebook) with reference counting
    was linked into every hand kernel after it, at half the speed. So every kernel the hand
    kernels reach (those inlined apart: they are compiled within their caller) says it does not
    count them (``bjit``)."""
    roots = [d for m in (hand, tricks, search) for d in vars(m).values()
             if isinstance(d, CPUDispatcher) and d.targetoptions.get("_nrt") is False]
    reached, todo = {}, list(roots)
    while todo:
        d = todo.pop()
        if d.py_func not in reached:
            reached[d.py_func] = d
            todo.extend(_callees(d))
    assert len(reached) > 50
    loose = sorted(f"{d.__module__}.{d.__name__}" for d in reached.values()
                   if d.targetoptions.get("inline") != "always" and d.targetoptions.get("_nrt") is not False)
    assert not loose


def _count_spans(n, size):
    seen = np.zeros(n, int)

    def run(lo, hi):
        seen[lo:hi] += 1
    in_spans(n, run, size)
    return seen


def _spans_started_when_the_first_fails(n):
    ran = []

    def run(lo, hi):
        ran.append(lo)
        if lo == 0:
            raise ValueError("span 0")
        time.sleep(0.002)
    with pytest.raises(ValueError, match="span 0"):
        in_spans(n, run, 1)
    return len(ran)


def test_spans_cover_every_item_once_whatever_the_threads_and_an_error_stops_the_rest():
    threads = set_threads(None)
    try:
        for t in (1, 2):
            set_threads(t)
            for n, size in ((0, None), (1, None), (10, 3), (100, None), (4097, 4096)):
                assert (_count_spans(n, size) == 1).all()
            assert _spans_started_when_the_first_fails(1000) < 100  # the spans not started were dropped
    finally:
        set_threads(threads)


def test_the_compile_profile_sees_each_compile_and_what_it_compiled_below():
    import numba
    from script import load
    profile = load("compile_profile")
    inner = numba.njit(lambda x: x + 1)
    outer = numba.njit(lambda x: inner(x) * 2)
    assert outer(1) == 4
    rows = [r for r in profile._rows if "<lambda>" in r["kernel"]]
    assert [r["depth"] for r in rows] == [1, 0]  # the callee ends first, one level down
    lines = profile.tree(rows, at_least=0.0)
    assert len(lines) == 3 and lines[0].startswith("  ") and "during" in lines[2]
    assert profile.summary(rows)[-1].endswith("in all")


def _fresh_kernel(module: str):
    """A kernel of ``module`` that compiles when first called (never loaded from the cache)."""
    def f(x):
        return x + 1
    f.__module__ = module
    k = njit(f)
    k._cache = NullCache()
    return k


def test_a_terminal_is_told_once_that_kernels_compile_and_nothing_else(capsys):
    mine = _fresh_kernel("pinochle_sim.engine.fake")
    with compile_notice(True):
        mine(1)
        mine(1.5)  # a second compile: no second notice
    assert capsys.readouterr().err.count(COMPILING) == 1
    with compile_notice(True):
        _fresh_kernel("someone_else")(1)  # not this package's
        mine(1)  # compiled already
    with compile_notice(False):  # not a terminal: noted, not said
        assert not compiled()
        _fresh_kernel("pinochle_sim.engine.fake")(1)
        assert compiled()
    assert not compiled()  # (the command is over)
    assert COMPILING not in capsys.readouterr().err
