"""Numba options in one place: every kernel is cached on disk so the CLI starts fast."""
from __future__ import annotations

import numba

#: Serial kernels (called per hand, or inside a parallel loop).
njit = numba.njit(cache=True, nogil=True)
#: Parallel kernels: ``prange`` over deals or blocks of deals.
pnjit = numba.njit(cache=True, nogil=True, parallel=True)


def set_threads(n: int | None) -> int:
    """Use ``n`` threads in parallel kernels (None: all cores); return the count in force."""
    if n is not None:
        numba.set_num_threads(max(1, min(int(n), numba.config.NUMBA_NUM_THREADS)))
    return numba.get_num_threads()
