"""Bid-estimate tables: what a hand is worth when you win the bid, from what you can see when
bidding (seed 000: "Count your meld, add what your aces and tens should win, and bid what the two
together can reach").

The declarer simulation makes each seat of every deal the declarer in turn: it names its best
trump, passing happens as the variant says, and the hand is played out. What the declarer saw
(its own meld in that trump, aces, tens, kings, trump length, before any passing) and what its
side banked towards a contract (meld kept under the variant's no-trick rule, plus trick points;
a side short of the required tricks makes no bid) stream into fixed-size accumulators, so the
memory does not grow with the number of deals. Every table is computed from them.
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from .. import __version__
from ..runs import Chunk, Run, Where, chunks_of
from ..engine.hand import (BID, BID_ACES, BID_MELD, BID_SITUATION, BID_TENS, BID_TRUMPS, BIDDER, COLUMNS,
                           MADE, MELD0, POINTS0, SIDE_TOTAL, THROWN, TRICKS0, EVERY_SEAT, _play_many, _play_many_dd,
                           fixed_bidding,
                           loop_args, max_calls, others_score, partner_meld, side_of)
from ..engine.auction import MAX_CARDS, MAX_TRUMPS, N_BANDS, N_SITUATIONS, SITUATIONS
from .stats import t975, wilson
from ..engine.variants import Variant, band_width, variant
from ..engine.tricks import DEFAULT_POLICY

N_BATCHES = 16        # independent batches of deals, for honest standard errors
MIN_CELL = 100        # hands a cell needs before the tables state a bid for it
CONFIDENCES = (0.5, 0.67, 0.8)
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
                "play_policy": self.policy, "seed": self.seed, "deals": self.deals,
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
        every = np.empty((v.players, chunk.count, len(COLUMNS)), np.int32)
        _play_many(np.uint64(chunk.seed), np.int64(chunk.start), chunk.count,
                   *loop_args(v, fixed_bidding(v), policy, EVERY_SEAT), max_calls(v), every.reshape(-1, len(COLUMNS)))
        for seat in range(v.players):
            stats.add(every[seat], idx, seat)
        return stats
    rows = np.empty((chunk.count, len(COLUMNS)), np.int32)
    dd = np.empty(chunk.count, np.int32)
    for seat in range(v.players):
        _play_many_dd(np.uint64(chunk.seed), np.int64(chunk.start), chunk.count,
                      *loop_args(v, fixed_bidding(v), policy, seat), max_calls(v), dd_from, rows, dd)
        stats.add(rows, idx, seat, dd)
    return stats


def declarer_stats(v: Variant | str = "thousand", deals: int = 100_000, seed: int = 0,
                   policy: str = DEFAULT_POLICY, start: int = 0, chunk: int = 1 << 16,
                   progress: bool = False, where: Where | None = None,
                   dd_from: int | None = None) -> DeclarerStats:
    """Run the declarer simulation: every seat of every deal declares in turn. ``where``: a Dask
    cluster for the chunks and whether the run can be resumed (:mod:`pinochle_sim.runs`); the
    tables are the same wherever the chunks ran. ``dd_from``: also the side totals had every
    seat played double dummy from that trick on (about 10-30 ms a hand from trick 4).

    >>> s = declarer_stats("classic", deals=200, seed=1)
    >>> int(s.cube.sum())
    800
    """
    v = variant(v) if isinstance(v, str) else v
    if deals < 0 or seed < 0 or start < 0:
        raise ValueError("deals, seed and start must be >= 0")
    stats = DeclarerStats(v, policy, seed, deals, start, dd_from=dd_from)
    chunks = chunks_of(seed, start, deals, chunk if dd_from is None else min(chunk, 64))
    identity = {"command": "declarer_stats", **stats.provenance(), "chunk": chunk}
    with Run(where, identity, "declaring" if dd_from is None else "declaring, double dummy", progress) as run:
        for _, part in run.map(partial(declare_chunk, v, policy, dd_from), chunks):
            stats.merge(part)
    return stats


def cached_stats(v: Variant | str, deals: int, seed: int, policy: str = DEFAULT_POLICY,
                 progress: bool = False, where: Where | None = None) -> DeclarerStats:
    """:func:`declarer_stats`, kept on disk for next time (see :func:`_cache_path`)."""
    v = variant(v) if isinstance(v, str) else v
    path = _cache_path(v.spec, deals, seed, policy)
    if path.exists():
        return DeclarerStats.load(path)
    stats = declarer_stats(v, deals, seed, policy, progress=progress, where=where)
    _store(path, stats.save)
    return stats


def _cache_path(*key) -> Path:
    """Where a cached table lives: beside the compiled kernels of the same source
    (``~/.cache/pinochle-sim/kernels/<code key>/tables``, see :mod:`pinochle_sim._numba`), so a
    change of any module starts afresh; named by a hash of ``key`` (every parameter of the
    result) and the version."""
    from .._numba import kernel_dir
    digest = hashlib.sha1(json.dumps([*key, __version__]).encode()).hexdigest()[:16]
    return kernel_dir() / "tables" / f"{digest}.npz"


def _store(path: Path, save) -> None:
    """Write a cache file whole or not at all: ``save(tmp)``, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    save(tmp)
    tmp.replace(path)


# ------------------------------------------------------------------------------------------
# Tables.

def made_counts(counts: np.ndarray, bids: np.ndarray, unit: int) -> tuple[np.ndarray, np.ndarray]:
    """(hands that reach each bid, hands) from side-total bin counts (last axis). Bids beyond
    the last bin's edge, which the open last bin cannot tell apart, count as NaN."""
    n = counts.sum(axis=-1, keepdims=True)
    at_least = np.flip(np.cumsum(np.flip(counts, -1), -1), -1)  # hands in bin >= j
    idx = bids // unit + 1
    k = at_least[..., np.minimum(idx, counts.shape[-1] - 1)].astype(float)
    k[..., idx > counts.shape[-1] - 1] = np.nan
    return k, np.broadcast_to(n, k.shape)


def p_make(counts: np.ndarray, bids: np.ndarray, unit: int) -> np.ndarray:
    """P(side total >= bid) from side-total bin counts (last axis), for each bid."""
    k, n = made_counts(counts, bids, unit)
    with np.errstate(invalid="ignore", divide="ignore"):
        return k / n


def p_make_interval(counts: np.ndarray, bids: np.ndarray, unit: int) -> tuple[np.ndarray, np.ndarray]:
    """95% Wilson intervals of :func:`p_make`."""
    k, n = made_counts(counts, bids, unit)
    return wilson(k, n)


def recommended_bid(p_make: np.ndarray, bids: np.ndarray, confidence: float) -> np.ndarray:
    """The highest bid made at least ``confidence`` of the time (NaN: not even the opening bid)."""
    ok = p_make >= confidence
    last = np.where(ok.any(-1), ok.shape[-1] - 1 - np.argmax(np.flip(ok, -1), -1), -1)
    return np.where(last >= 0, bids[np.maximum(last, 0)], np.nan)


def recommended_range(counts: np.ndarray, bids: np.ndarray, unit: int, confidence: float
                      ) -> tuple[np.ndarray, np.ndarray]:
    """The recommended bids the simulation cannot tell apart: the highest bid whose 95% interval
    of the chance of making it lies wholly at or above ``confidence``, and the highest whose
    interval reaches it (NaN: pass)."""
    lo, hi = p_make_interval(counts, bids, unit)
    return (recommended_bid(np.nan_to_num(lo), bids, confidence),
            recommended_bid(np.nan_to_num(hi), bids, confidence))


def recommended_grid(stats: DeclarerStats, confidence: float = 0.67) -> np.ndarray:
    """``rec[meld band, aces, tens]``: the highest bid made at least ``confidence`` of the time
    (NaN: pass), over every bid the accumulators can tell apart."""
    bids = bid_grid(stats.variant, (stats.n_bins - 2) * stats.unit)
    return recommended_bid(p_make(stats.cube, bids, stats.unit), bids, confidence)


def trump_shift(stats: DeclarerStats, min_hands: int = MIN_CELL) -> np.ndarray:
    """``shift[meld band, aces, tens, trumps]``: what trump length adds to the mean side total of
    a cell, ``mean(cell, trumps) - mean(cell)``, from the cell itself where it holds
    ``min_hands`` hands and from the meld band alone where it does not (0 where neither has any)."""
    m = stats.moments
    with np.errstate(invalid="ignore", divide="ignore"):
        fine = m[..., 1] / m[..., 0] - (m[..., 1].sum(3) / m[..., 0].sum(3))[..., None]
        band = m.sum(axis=(1, 2))
        coarse = band[..., 1] / band[..., 0] - (band[..., 1].sum(1) / band[..., 0].sum(1))[:, None]
    return np.nan_to_num(np.where(m[..., 0] >= min_hands, fine, coarse[:, None, None, :]))


def recommended_grid_trumps(stats: DeclarerStats, confidence: float = 0.67,
                            min_hands: int = MIN_CELL) -> np.ndarray:
    """``rec[meld band, aces, tens, trumps]``: :func:`recommended_grid` moved by
    :func:`trump_shift` and rounded to the bid grid (a location shift: trump length moves the
    whole distribution of the side total). A cell that passes still passes."""
    v = stats.variant
    rec = recommended_grid(stats, confidence)[..., None]
    out = v.opening_bid + np.round((rec + trump_shift(stats, min_hands) - v.opening_bid)
                                   / v.raise_min) * v.raise_min
    return np.where(np.isfinite(rec), np.maximum(out, v.opening_bid), np.nan)


def p_make_each(counts: np.ndarray, bids: np.ndarray, unit: int) -> np.ndarray:
    """P(side total >= bids[i]) from the side-total counts ``counts[i]``, row by row."""
    at_least = np.flip(np.cumsum(np.flip(counts, -1), -1), -1)
    idx = np.minimum(bids // unit + 1, counts.shape[-1] - 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return at_least[np.arange(len(counts)), idx] / counts.sum(axis=-1)


def pool_aces_tens(x: np.ndarray, axis: int = 1) -> np.ndarray:
    """Sum the aces and tens axes (``axis``, ``axis + 1``) of ``x`` into one aces + tens axis."""
    k = np.add.outer(np.arange(MAX_CARDS), np.arange(MAX_CARDS))
    moved = np.moveaxis(x, (axis, axis + 1), (0, 1))
    pooled = np.stack([moved[k == j].sum(axis=0) for j in range(2 * MAX_CARDS - 1)])
    return np.moveaxis(pooled, 0, axis)


def band_labels(stats: DeclarerStats) -> list[str]:
    w = stats.band
    return [f"{i * w}-{(i + 1) * w - 1}" if i < N_BANDS - 1 else f"{i * w}+" for i in range(N_BANDS)]


def _cells(stats: DeclarerStats, by: str, dd: bool = False) -> tuple[pd.MultiIndex, np.ndarray, np.ndarray]:
    """Side-total counts and moments (``dd``: of the double-dummy side totals) grouped by meld
    band and ``by``."""
    moments = stats.dd_moments if dd else stats.moments
    c, m = stats.cube, moments.sum(axis=3)  # moments over trumps: [band, aces, tens, 3]
    if by == "aces_tens":
        counts, mom = pool_aces_tens(c), pool_aces_tens(m)
        keys = [("aces_tens", range(2 * MAX_CARDS - 1))]
    elif by == "aces,tens":
        counts, mom = c, m
        keys = [("aces", range(MAX_CARDS)), ("tens", range(MAX_CARDS))]
    elif by == "trumps":
        counts = stats.trump_cube
        mom = moments.sum(axis=(1, 2))
        keys = [("trumps", range(MAX_TRUMPS))]
    elif by == "none":
        counts, mom = c.sum(axis=(1, 2)), m.sum(axis=(1, 2))
        keys = []
    else:
        raise ValueError(f"unknown table {by!r}; valid: aces_tens, aces,tens, trumps, none")
    index = pd.MultiIndex.from_product([band_labels(stats)] + [list(r) for _, r in keys],
                                       names=["meld"] + [name for name, _ in keys])
    return index, counts.reshape(len(index), -1), mom.reshape(len(index), 3)


def _mean_se(mom: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error (NaN below two hands) from rows of (n, sum, sum of squares)."""
    n = mom[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = mom[:, 1] / n
        var = np.where(n > 1, np.maximum(mom[:, 2] / n - mean ** 2, 0) * n / np.maximum(n - 1, 1), np.nan)
        return mean, np.sqrt(var / n)


def bid_table(stats: DeclarerStats, by: str = "aces_tens", confidences=CONFIDENCES,
              min_hands: int = 1) -> pd.DataFrame:
    """One row per (meld band, ``by``) cell with at least ``min_hands`` hands.

    Columns: ``hands``; ``enough`` (at least ``MIN_CELL`` hands: a cell with fewer states no
    bid); ``mean_total``, its standard error ``se_total`` (NaN below two hands) and 95% interval
    (``mean_low``, ``mean_high``); for each confidence the recommended bid ``bid_67`` and the
    range the simulation cannot tell it from (``bid_67_low``, ``bid_67_high``); then ``p_<bid>``
    with its 95% Wilson interval ``p_<bid>_low``, ``p_<bid>_high``: the chance of making each
    bid of the grid. ``by``: ``aces_tens`` (aces + tens), ``aces,tens``, ``trumps`` or ``none``.
    A declarer simulation with ``dd_from`` adds ``mean_total_dd`` and ``se_total_dd``: the same
    hands' side total had every seat played double dummy from that trick on.
    (No value of a bid here: what a bid is worth against passing depends on the auction;
    ``advise --auction`` gives it for one hand.)
    """
    index, counts, mom = _cells(stats, by)
    v = stats.variant
    n = mom[:, 0]
    mean, se = _mean_se(mom)
    half = np.array([t975(x - 1) if x > 1 else np.nan for x in n]) * se
    enough = n >= MIN_CELL
    top = min(int(np.nanmax(np.where(n > 0, mean, 0)) + 2 * v.trick_total // 5),
              (stats.n_bins - 2) * stats.unit)
    bids = bid_grid(v, top)
    p = p_make(counts, bids, stats.unit)
    lo, hi = p_make_interval(counts, bids, stats.unit)
    df = pd.DataFrame({"hands": n.astype(np.int64), "enough": enough, "mean_total": mean,
                       "se_total": se, "mean_low": mean - half, "mean_high": mean + half}, index=index)
    if stats.dd_moments is not None:  # the same hands played double dummy from trick dd_from
        df["mean_total_dd"], df["se_total_dd"] = _mean_se(_cells(stats, by, dd=True)[2])
    for c in confidences:
        col = f"bid_{round(c * 100)}"
        low, high = recommended_range(counts, bids, stats.unit, c)
        df[col] = np.where(enough, recommended_bid(p, bids, c), np.nan)
        df[col + "_low"] = np.where(enough, low, np.nan)
        df[col + "_high"] = np.where(enough, high, np.nan)
    chances = {}
    for j, b in enumerate(bids):
        chances[f"p_{b}"], chances[f"p_{b}_low"], chances[f"p_{b}_high"] = p[:, j], lo[:, j], hi[:, j]
    df = pd.concat([df, pd.DataFrame(chances, index=index)], axis=1)
    return df[df.hands >= max(min_hands, 1)]


def chance_columns(table: pd.DataFrame) -> list[str]:
    """The ``p_<bid>`` columns of a :func:`bid_table` (not their interval columns)."""
    return [c for c in table.columns if c.startswith("p_") and c[2:].isdigit()]


def rule_of_thumb(stats: DeclarerStats) -> pd.DataFrame:
    """Fit "expected total = your meld + a + b per ace + c per ten + d per trump".

    Least squares on every declared hand; standard errors from the spread of the fit over
    independent batches of deals (robust to the four declarers of a deal sharing its cards).
    """
    beta = np.linalg.solve(stats.xtx.sum(0), stats.xty[:, :4].sum(0))
    per_batch = []
    for b in range(N_BATCHES):
        if stats.extra[b, 0] > 10 * len(FEATURES):
            try:
                per_batch.append(np.linalg.solve(stats.xtx[b], stats.xty[b, :4]))
            except np.linalg.LinAlgError:
                pass
    k = len(per_batch)
    se = np.std(per_batch, axis=0, ddof=1) / math.sqrt(k) if k > 2 else np.full(4, np.nan)
    t = t975(k - 1)  # batch means: Student's t with k - 1 degrees of freedom
    return pd.DataFrame({"estimate": beta, "se": se, "ci_low": beta - t * se,
                         "ci_high": beta + t * se}, index=list(FEATURES))


def partner_adds(stats: DeclarerStats) -> pd.DataFrame:
    """What the rest of the side brings on average: the partner's meld, the meld the declarer
    gains by passing, and the side's trick points (means with standard errors over batches)."""
    e = stats.extra
    n = e[:, 0].sum()
    rows = {}
    for name, j in (("partner_meld", 1), ("meld_gained_by_passing", 3), ("side_trick_points", 5)):
        mean = e[:, j].sum() / n
        batch_means = e[:, j] / np.maximum(e[:, 0], 1)
        ok = e[:, 0] > 0
        se = np.std(batch_means[ok], ddof=1) / math.sqrt(ok.sum()) if ok.sum() > 2 else np.nan
        rows[name] = {"mean": mean, "se": se}
    return pd.DataFrame(rows).T


def rule_text(stats: DeclarerStats) -> str:
    """The rule of thumb in words, with 95% intervals."""
    r = rule_of_thumb(stats)

    def term(name: str, label: str) -> str:
        x, half = r.loc[name, "estimate"], r.loc[name, "ci_high"] - r.loc[name, "estimate"]
        digits = 1 if half >= 0.1 else 2 if half >= 0.01 else 3  # keep the interval visible
        return f"{x:.{digits}f} (±{half:.{digits}f}){label}"
    total = "side total" if stats.variant.players == 4 else "total"
    return (f"expected {total} = your meld + {term('intercept', '')} + {term('aces', ' per ace')}"
            f" + {term('tens', ' per ten')} + {term('trumps', ' per trump')}")


# ------------------------------------------------------------------------------------------
# Auction-aware estimates: how often an auction *winner* makes its contract, by the situation in
# which it made the winning bid (``auction.SITUATIONS``) and by how far the bid sits above what
# its hand is worth when made to declare.

GAP_RAISES = 80   # gaps from -80 to +80 raises (-400..+400 in thousand) are told apart


def _isotonic_decreasing(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted least-squares fit of ``y`` that never rises (pool adjacent violators)."""
    vals, wts, lens = [], [], []
    for yi, wi in zip(y, w):
        vals.append(yi * wi)
        wts.append(wi)
        lens.append(1)
        while len(vals) > 1 and vals[-1] * wts[-2] > vals[-2] * wts[-1]:  # mean rises: pool
            v_, w_, n_ = vals.pop(), wts.pop(), lens.pop()
            vals[-1] += v_
            wts[-1] += w_
            lens[-1] += n_
    out = []
    for v_, w_, n_ in zip(vals, wts, lens):
        out += [v_ / w_ if w_ > 0 else np.nan] * n_
    return np.array(out)


@dataclass
class AuctionModel:
    """The chance that an auction winner makes its contract: ``p[situation, gap]``, where the
    gap is the bid minus the hand's made-to-declare estimate (``meld + rule[aces, tens,
    trumps]``, the rule of thumb), in raises, offset by ``GAP_RAISES``. Read from simulated
    auctions in which every seat bids by the model itself (see :func:`auction_model`), so that
    it says what a player can expect *given that it won the auction*: its partner stayed quiet,
    the opponents bid against it. ``made`` and ``contracts`` are the counts behind ``p``
    (before the never-rising fit); ``history`` lists the iterations.
    """

    variant: Variant
    confidence: float
    weight: float               # the estimate is weight * meld + anchor[band, aces, tens, trumps]
    anchor: np.ndarray          # float[bands, aces, tens, trumps]
    made: np.ndarray            # float[situations, gaps]
    contracts: np.ndarray       # float[situations, gaps]
    history: list = field(default_factory=list)

    @property
    def p(self) -> np.ndarray:
        """float[situations, gaps]: the never-rising fit of the made share; a situation with
        under ``MIN_CELL`` contracts reads the fit of all situations together."""
        pooled = self._fit(self.made.sum(0), self.contracts.sum(0))
        return np.stack([self._fit(self.made[s], self.contracts[s])
                         if self.contracts[s].sum() >= MIN_CELL else pooled
                         for s in range(N_SITUATIONS)])

    @staticmethod
    def _fit(made: np.ndarray, n: np.ndarray) -> np.ndarray:
        have = n > 0
        if not have.any():
            return np.full(n.shape, np.nan)
        fit = _isotonic_decreasing(made[have] / n[have], n[have])
        idx = np.nonzero(have)[0]
        # between and beyond the observed gaps: the nearest fitted value to the right (or last)
        return fit[np.clip(np.searchsorted(idx, np.arange(len(n))), 0, len(idx) - 1)]

    def gap(self, bid, meld, aces, tens, trumps) -> np.ndarray:
        """The gap index of each contract (arrays)."""
        band = np.minimum(np.asarray(meld) // band_width(self.variant), N_BANDS - 1)
        mu = self.weight * np.asarray(meld) + self.anchor[
            band, np.minimum(aces, MAX_CARDS - 1), np.minimum(tens, MAX_CARDS - 1),
            np.minimum(trumps, MAX_TRUMPS - 1)]
        g = np.round((np.asarray(bid) - mu) / self.variant.raise_min).astype(int)
        return np.clip(g + GAP_RAISES, 0, 2 * GAP_RAISES)

    def p_make(self, situation, bid, meld, aces, tens, trumps) -> np.ndarray:
        """The model's chance of making each contract (arrays, elementwise)."""
        return self.p[situation, self.gap(bid, meld, aces, tens, trumps)]

    def reach(self) -> np.ndarray:
        """float[situations]: the highest gap (in points) whose chance is at least ``confidence``
        (-inf: none)."""
        p = np.nan_to_num(self.p, nan=0.0)
        out = np.full(N_SITUATIONS, -np.inf)
        for s in range(N_SITUATIONS):
            ok = np.nonzero(p[s] >= self.confidence)[0]
            if ok.size:
                out[s] = (ok.max() - GAP_RAISES) * self.variant.raise_min
        return out

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, weight=self.weight, anchor=self.anchor, made=self.made,
                            contracts=self.contracts, history=json.dumps(self.history))

    @classmethod
    def load(cls, path: str | Path, v: Variant, confidence: float) -> AuctionModel:
        with np.load(path) as z:
            return cls(v, confidence, float(z["weight"]), z["anchor"], z["made"], z["contracts"],
                       json.loads(str(z["history"])))

    def limits(self) -> tuple[float, np.ndarray]:
        """(weight, table) for the kernels: the limit is the estimate plus ``reach[situation]``."""
        table = self.anchor[None] + self.reach()[:, None, None, None, None]
        return self.weight, np.ascontiguousarray(np.where(np.isfinite(table), table, np.nan))


def _rule_grid(stats: DeclarerStats) -> np.ndarray:
    """float[bands, aces, tens, trumps]: the rule of thumb without the meld (which counts exactly)."""
    a, b, c, d = rule_of_thumb(stats).estimate.to_numpy()
    _, aces, tens, trumps = np.meshgrid(np.arange(N_BANDS), np.arange(MAX_CARDS), np.arange(MAX_CARDS),
                                        np.arange(MAX_TRUMPS), indexing="ij")
    return a + b * aces + c * tens + d * trumps


def _anchor(stats: DeclarerStats, kind: str, confidence: float) -> tuple[float, np.ndarray]:
    """(weight, anchor) of a hand's made-to-declare estimate: ``rule`` (exact meld plus the rule
    of thumb) or ``table`` (the bid table's bid at ``confidence`` by meld band, aces, tens and
    trump length; the rule's where the table passes or a cell is too thin to say)."""
    rule = _rule_grid(stats)
    if kind == "rule":
        return 1.0, rule
    if kind != "table":
        raise ValueError(f"unknown anchor {kind!r}; valid: rule, table")
    mid = (np.arange(N_BANDS) + 0.5) * stats.band
    grid = recommended_grid_trumps(stats, confidence)
    return 0.0, np.where(np.isfinite(grid), grid, rule + mid[:, None, None, None])


def _contracts(rows: np.ndarray) -> dict[str, np.ndarray]:
    """The contracts bidders chose (not a forced opening or a stuck dealer): their columns."""
    r = rows[(rows[:, THROWN] == 0) & (rows[:, BID_SITUATION] >= 0)].astype(np.int64)
    return {"situation": r[:, BID_SITUATION], "bid": r[:, BID], "meld": r[:, BID_MELD],
            "aces": r[:, BID_ACES], "tens": r[:, BID_TENS], "trumps": r[:, BID_TRUMPS],
            "made": r[:, MADE] == 1}


def auction_model(v: Variant | str, confidence: float = 0.67, deals: int = 200_000, seed: int = 7919,
                  anchor: str = "table", max_iterations: int = 12, tolerance: float = 0.5,
                  policy: str = DEFAULT_POLICY, progress: bool = False) -> AuctionModel:
    """Build the auction-aware model by iteration: every seat bids from the model, the auctions
    are played out, and the contracts' outcomes (by situation and gap) are averaged into the
    model, until the reach of every situation moves less than ``tolerance`` raises (or
    ``max_iterations``). Iteration ``k`` plays deals of seed ``seed + k``; iteration 1 bids from
    the made-to-declare estimate alone (reach 0: bid up to what the hand is worth)."""
    v = variant(v) if isinstance(v, str) else v
    base = cached_stats(v, deals, seed, policy)
    shape = (N_SITUATIONS, 2 * GAP_RAISES + 1)
    weight, anchor_grid = _anchor(base, anchor, confidence)
    model = AuctionModel(v, confidence, weight, anchor_grid, np.zeros(shape), np.zeros(shape))
    table = np.ascontiguousarray(np.broadcast_to(anchor_grid, (N_SITUATIONS, *anchor_grid.shape)))
    reach = np.zeros(N_SITUATIONS)
    for k in range(1, max_iterations + 1):
        rows = np.empty((deals, len(COLUMNS)), np.int32)
        _play_many(np.uint64(seed + k), np.int64(0), deals, *loop_args(v, fixed_bidding(v, weight, table), policy),
                   max_calls(v), rows)
        c = _contracts(rows)
        g = model.gap(c["bid"], c["meld"], c["aces"], c["tens"], c["trumps"])
        made = np.zeros(shape)
        n = np.zeros(shape)
        np.add.at(made, (c["situation"], g), c["made"])
        np.add.at(n, (c["situation"], g), 1)
        # the new auctions count as much as all before them: a best response to one model alone
        # overshoots and oscillates; the average settles where its own auctions confirm it
        decay = 0.5 if k > 1 else 0.0
        model = AuctionModel(v, confidence, weight, anchor_grid, decay * model.made + made,
                             decay * model.contracts + n, model.history)
        new = model.reach()
        same = (new == reach) | (np.isinf(new) & np.isinf(reach))
        moved = float(np.where(same, 0, np.abs(np.nan_to_num(new - reach, posinf=1e9, neginf=1e9)))
                      .max() / v.raise_min)
        model.history.append({"iteration": k, "contracts": int(n.sum()), "reach": new.tolist(),
                              "moved_raises": moved})
        if progress:
            print(f"iteration {k}: {int(n.sum()):,} contracts; reach by situation "
                  f"{np.round(new, 1).tolist()}; moved {moved:.1f} raises")
        reach = new
        weight, table = model.limits()
        if moved < tolerance:
            break
    return model


def cached_auction_model(v: Variant | str, confidence: float = 0.67, deals: int = 200_000,
                         seed: int = 7919, anchor: str = "table", policy: str = DEFAULT_POLICY) -> AuctionModel:
    """:func:`auction_model`, kept on disk for next time (see :func:`_cache_path`)."""
    v = variant(v) if isinstance(v, str) else v
    path = _cache_path("auction", v.spec, confidence, deals, seed, anchor, policy)
    if path.exists():
        return AuctionModel.load(path, v, confidence)
    m = auction_model(v, confidence, deals, seed, anchor, policy=policy)
    _store(path, m.save)
    return m


def auction_table(model: AuctionModel) -> pd.DataFrame:
    """The model as a table: per auction situation and gap (bid minus the hand's made-to-declare
    estimate, in points), the contracts behind it (``weight``: the last iteration's count 1 each,
    each earlier iteration's half as much), the share made with its 95% Wilson interval (taking
    the weight as the count), and the model's never-rising ``p``; gaps without contracts are
    left out."""
    v = model.variant
    rows = []
    p = model.p
    for s, name in enumerate(SITUATIONS):
        n, k = model.contracts[s], model.made[s]
        lo, hi = wilson(k, n)
        for g in np.nonzero(n > 0)[0]:
            rows.append({"situation": name, "gap": int((g - GAP_RAISES) * v.raise_min),
                         "weight": float(n[g]), "made": float(k[g] / n[g]), "made_low": float(lo[g]),
                         "made_high": float(hi[g]), "p": float(p[s, g])})
    return pd.DataFrame(rows)


def auction_summary(bidding, stats: DeclarerStats, deals: int | None = None, seed: int = 1,
                    policy: str = DEFAULT_POLICY) -> pd.DataFrame:
    """What auction winners bring, by the situation of the winning bid, when every seat bids by
    ``bidding`` (the kernels' :class:`~pinochle_sim.engine.auction.Bidding`, e.g. a strategy's as
    ``simulate.Setup(v, bidding=s).bid``, or an :class:`AuctionModel`'s limits): contracts, the share of all
    deals, the mean bid, the share made, the mean side total and how far it sits above the
    made-to-declare rule of thumb of ``stats`` (meld + a + b aces + c tens + d trumps: the
    auction-situation version of that rule), the partner's meld, and what the defenders bank;
    means with standard errors. ``deals``: as many auctions as ``stats`` has deals, at most
    200,000."""
    deals = min(stats.deals, 200_000) if deals is None else deals
    v = stats.variant
    bd = fixed_bidding(v, *bidding.limits()) if isinstance(bidding, AuctionModel) else bidding
    rows = np.empty((deals, len(COLUMNS)), np.int32)
    _play_many(np.uint64(seed), np.int64(0), deals, *loop_args(v, bd, policy), max_calls(v), rows)
    r = rows[rows[:, THROWN] == 0].astype(np.int64)
    rule = _rule_grid(stats)[0]
    side = side_of(v, r[:, BIDDER])
    estimate = r[:, BID_MELD] + rule[np.minimum(r[:, BID_ACES], MAX_CARDS - 1),
                                     np.minimum(r[:, BID_TENS], MAX_CARDS - 1),
                                     np.minimum(r[:, BID_TRUMPS], MAX_TRUMPS - 1)]
    partner = partner_meld(v, r, r[:, BIDDER])
    defenders = others_score(v, r, side)
    out = []
    labels = {-1: "forced opening or stuck dealer", **dict(enumerate(SITUATIONS))}
    for s, name in labels.items():
        sel = r[:, BID_SITUATION] == s
        n = int(sel.sum())
        if not n:
            continue
        row = {"situation": name, "contracts": n, "share_of_deals": n / deals}
        for key, x in (("bid", r[:, BID]), ("made", r[:, MADE] == 1), ("side_total", r[:, SIDE_TOTAL]),
                       ("above_rule_of_thumb", r[:, SIDE_TOTAL] - estimate), ("partner_meld", partner),
                       ("defenders_bank", defenders)):
            x = x[sel].astype(float)
            row[key] = float(x.mean())
            row[key + "_se"] = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
        out.append(row)
    return pd.DataFrame(out)
