"""The declarer simulation: each seat of every deal made the declarer in turn (it names its best
trump, passing happens as the variant says, and the hand is played out). What the declarer saw
(its own meld in that trump, aces, tens, kings, trump length, before any passing) and what its
side banked towards a contract (meld kept under the variant's no-trick rule, plus trick points;
a side short of the required tricks makes no bid) stream into fixed-size accumulators
(:class:`DeclarerStats`), so the memory does not grow with the number of deals; they are kept on
disk for next time (:func:`cached_stats`). The bid tables are computed from them
(:mod:`pinochle_sim.studies.tables`).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from .. import __version__
from ..files import atomic_write
from ..runs import Chunk, Run, Where, chunks_of
from ..engine.hand import (BID_ACES, BID_MELD, BID_TENS, BID_TRUMPS, EVERY_SEAT, MELD0, POINTS0, SIDE_TOTAL, TRICKS0,
                           Loop, fixed_bidding, partner_meld, play_rows, play_rows_dd, policy_codes, samples)
from ..engine.auction import MAX_CARDS, MAX_TRUMPS, N_BANDS
from ..engine.deal import check_deals
from ..engine.variants import Variant, band_width, variant
from ..engine.tricks import DEFAULT_POLICY, in_full

N_BATCHES = 16        # independent batches of deals, for honest standard errors
FEATURES = ("intercept", "aces", "tens", "trumps")


def bid_grid(v: Variant, top: int) -> np.ndarray:
    """The bids the tables consider: the opening bid, then steps of the smallest raise, to ``top``."""
    return np.arange(v.opening_bid, max(top, v.opening_bid) + 1, v.raise_min)


@dataclass
class DeclarerStats:
    """Accumulators of the declarer simulation (all integers, so the order of merging is moot)."""

    variant: Variant
    policy: str
    seed: int
    deals: int = 0
    start: int = 0
    band: int = 20
    unit: int = 10
    n_bins: int = 0
    #: hands by meld band, aces, tens and side-total bin (bin 0: short of the required tricks)
    cube: np.ndarray = field(default=None)  # type: ignore[assignment]
    #: hands by meld band, trump length and side-total bin
    trump_cube: np.ndarray = field(default=None)  # type: ignore[assignment]
    #: per (band, aces, tens, trumps): n, sum and sum of squares of the side total
    moments: np.ndarray = field(default=None)  # type: ignore[assignment]
    #: per batch: X'X, X'y, y'y, n of y = side total - own meld on FEATURES
    xtx: np.ndarray = field(default=None)  # type: ignore[assignment]
    xty: np.ndarray = field(default=None)  # type: ignore[assignment]
    #: per batch: n, then sums of partner meld, own meld gained by passing, side trick points
    extra: np.ndarray = field(default=None)  # type: ignore[assignment]
    #: with ``dd_from``: as ``moments``, of the side total had every seat played double dummy from
    #: trick ``dd_from`` on (the meld as banked in the actual play)
    dd_from: int | None = None
    dd_moments: np.ndarray | None = None

    def __post_init__(self) -> None:
        v = self.variant
        self.band = band_width(v)
        self.unit = v.raise_min
        # bins of one raise from 0 to 9x the hand's trick points (2,250 on the 250 scale), past
        # any side total seen in practice; the last bin holds everything from its edge up, so
        # no chance is claimed for a bid beyond it (:func:`p_make` says NaN)
        self.n_bins = 9 * v.trick_total // self.unit + 2
        if self.cube is None:
            self.cube = np.zeros((N_BANDS, MAX_CARDS, MAX_CARDS, self.n_bins), np.int64)
            self.trump_cube = np.zeros((N_BANDS, MAX_TRUMPS, self.n_bins), np.int64)
            self.moments = np.zeros((N_BANDS, MAX_CARDS, MAX_CARDS, MAX_TRUMPS, 3), np.float64)
            self.xtx = np.zeros((N_BATCHES, 4, 4), np.float64)
            self.xty = np.zeros((N_BATCHES, 5), np.float64)
            self.extra = np.zeros((N_BATCHES, 7), np.float64)
        if self.dd_from is not None and self.dd_moments is None:
            self.dd_moments = np.zeros_like(self.moments)

    # -- accumulation ---------------------------------------------------------------------
    def add(self, rows: np.ndarray, deal_index: np.ndarray, declarer: int, dd: np.ndarray | None = None) -> None:
        """Fold in the summary rows of one declarer seat over a chunk of deals (and, with
        ``dd_from``, its side's double-dummy trick points ``dd``)."""
        v = self.variant
        r = rows.astype(np.int64)
        side = v.team(declarer)
        band = np.minimum(r[:, BID_MELD] // self.band, N_BANDS - 1)
        aces = np.minimum(r[:, BID_ACES], MAX_CARDS - 1)
        tens = np.minimum(r[:, BID_TENS], MAX_CARDS - 1)
        trumps = np.minimum(r[:, BID_TRUMPS], MAX_TRUMPS - 1)
        total = r[:, SIDE_TOTAL]
        ok = r[:, TRICKS0 + side] >= v.min_tricks
        tbin = np.where(ok, np.minimum(total // self.unit + 1, self.n_bins - 1), 0)
        self.cube += np.bincount(np.ravel_multi_index((band, aces, tens, tbin), self.cube.shape),
                                 minlength=self.cube.size).reshape(self.cube.shape)
        self.trump_cube += np.bincount(
            np.ravel_multi_index((band, trumps, tbin), self.trump_cube.shape),
            minlength=self.trump_cube.size).reshape(self.trump_cube.shape)
        cell = np.ravel_multi_index((band, aces, tens, trumps), self.moments.shape[:-1])
        self._moments(self.moments, cell, total)
        if self.dd_moments is not None:
            self._moments(self.dd_moments, cell, total - r[:, POINTS0 + side] + dd)
        x = np.stack([np.ones(len(r)), r[:, BID_ACES], r[:, BID_TENS], r[:, BID_TRUMPS]], axis=1)
        y = (total - r[:, BID_MELD]).astype(float)
        partner = partner_meld(v, r, np.full(len(r), declarer))
        gained = r[:, MELD0 + declarer] - r[:, BID_MELD]
        points = r[:, POINTS0 + side]
        batch = deal_index % N_BATCHES
        for b in range(N_BATCHES):
            m = batch == b
            if not m.any():
                continue
            xb = x[m]
            self.xtx[b] += xb.T @ xb
            self.xty[b, :4] += xb.T @ y[m]
            self.xty[b, 4] += y[m] @ y[m]
            self.extra[b] += [m.sum(), partner[m].sum(), (partner[m] ** 2).sum(), gained[m].sum(),
                              (gained[m] ** 2).sum(), points[m].sum(), (points[m] ** 2).sum()]

    @staticmethod
    def _moments(into: np.ndarray, cell: np.ndarray, total: np.ndarray) -> None:
        size = int(np.prod(into.shape[:-1]))
        for j, w in enumerate((np.ones_like(total), total, total * total)):
            into[..., j] += np.bincount(cell, weights=w.astype(float), minlength=size).reshape(into.shape[:-1])

    def merge(self, other: DeclarerStats) -> None:
        """Fold in the accumulators of another run over other deals (sums of whole numbers, so
        the order of folding does not change a bit)."""
        for name in ("cube", "trump_cube", "moments", "xtx", "xty", "extra"):
            getattr(self, name).__iadd__(getattr(other, name))
        if self.dd_moments is not None:
            self.dd_moments += other.dd_moments

    # -- persistence ------------------------------------------------------------------------
    def provenance(self) -> dict:
        return {"variant": self.variant.spec, "options": self.variant.options(),
                "play_policy": self.policy, "play_policy_in_full": in_full(self.policy, self.variant.name),
                "seed": self.seed, "deals": self.deals,
                "start": self.start, "declarers_per_deal": self.variant.players,
                **({"double_dummy_from_trick": self.dd_from} if self.dd_from is not None else {}),
                "version": __version__}

    def save(self, path: str | Path) -> None:
        dd = {} if self.dd_moments is None else {"dd_moments": self.dd_moments}
        np.savez_compressed(path, cube=self.cube, trump_cube=self.trump_cube, moments=self.moments,
                            xtx=self.xtx, xty=self.xty, extra=self.extra,
                            meta=json.dumps(self.provenance()), **dd)

    @classmethod
    def load(cls, path: str | Path) -> DeclarerStats:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
            return cls(variant(meta["variant"]), meta["play_policy"], meta["seed"], meta["deals"],
                       meta["start"], cube=z["cube"], trump_cube=z["trump_cube"],
                       moments=z["moments"], xtx=z["xtx"], xty=z["xty"], extra=z["extra"],
                       dd_from=meta.get("double_dummy_from_trick"),
                       dd_moments=z["dd_moments"] if "dd_moments" in z else None)


def declare_chunk(v: Variant, policy: str, dd_from: int | None, chunk: Chunk) -> DeclarerStats:
    """The declarer simulation over one chunk of deals (every seat declaring in turn)."""
    stats = DeclarerStats(v, policy, chunk.seed, chunk.count, chunk.start, dd_from=dd_from)
    idx = np.arange(chunk.start, chunk.start + chunk.count)
    if dd_from is None:  # each deal dealt and valued once for every declarer
        every = play_rows(Loop.build(v, fixed_bidding(v), policy, EVERY_SEAT), chunk.seed, chunk.start, chunk.count)
        for seat in range(v.players):
            stats.add(every[seat], idx, seat)
        return stats
    for seat in range(v.players):
        rows, dd = play_rows_dd(Loop.build(v, fixed_bidding(v), policy, seat), chunk.seed, chunk.start, chunk.count,
                                dd_from)
        stats.add(rows, idx, seat, dd)
    return stats


def declarer_stats(v: Variant | str = "thousand", deals: int = 100_000, seed: int = 0,
                   policy: str = DEFAULT_POLICY, start: int = 0, chunk: int = 1 << 16,
                   progress: bool = False, where: Where | None = None,
                   dd_from: int | None = None) -> DeclarerStats:
    """Run the declarer simulation: every seat of every deal declares in turn. ``where``: a Dask
    cluster for the chunks and whether the run can be resumed (:mod:`pinochle_sim.runs`); the
    tables are the same wherever the chunks ran. ``dd_from``: also the side totals had every
    seat played double dummy from that trick on (docs/double-dummy.md has the times).

    >>> s = declarer_stats("classic", deals=200, seed=1)
    >>> int(s.cube.sum())
    800
    """
    v = variant(v) if isinstance(v, str) else v
    check_deals(deals, seed, start)
    stats = DeclarerStats(v, policy, seed, deals, start, dd_from=dd_from)
    chunks = chunks_of(seed, start, deals, chunk, sampling=samples(policy_codes(v, policy)[1]),
                       dd=dd_from is not None)
    identity = {"command": "declarer_stats", **stats.provenance(), "chunk": chunk}
    with Run(where, identity, "declaring" if dd_from is None else "declaring, double dummy", progress) as run:
        for _, part in run.map(partial(declare_chunk, v, policy, dd_from), chunks):
            stats.merge(part)
    return stats


def cached_stats(v: Variant | str, deals: int, seed: int, policy: str = DEFAULT_POLICY,
                 progress: bool = False, where: Where | None = None) -> DeclarerStats:
    """:func:`declarer_stats`, kept on disk for next time (see :func:`cache_path`)."""
    v = variant(v) if isinstance(v, str) else v
    path = cache_path(v.spec, deals, seed, policy)
    if path.exists():
        return DeclarerStats.load(path)
    stats = declarer_stats(v, deals, seed, policy, progress=progress, where=where)
    store(path, stats.save)
    return stats


def cache_path(*key) -> Path:
    """Where a cached table lives: beside the compiled kernels of the same source
    (``~/.cache/pinochle-sim/kernels/<code key>/tables``, see :mod:`pinochle_sim._numba`), so a
    change of any module starts afresh; named by a hash of ``key`` (every parameter of the
    result) and the version."""
    from .._numba import kernel_dir
    digest = hashlib.sha1(json.dumps([*key, __version__]).encode()).hexdigest()[:16]
    return kernel_dir() / "tables" / f"{digest}.npz"


def store(path: Path, save) -> None:
    """Write a cache file whole or not at all: ``save(fh)`` into a temporary file of this call's
    own, then renamed into place (``files.atomic_write``), so two processes making the same
    table at once each leave it whole."""
    with atomic_write(path, "wb") as fh:
        save(fh)
