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
from pathlib import Path

import numpy as np
import pandas as pd

from . import __version__
from .simulate import (BID_ACES, BID_MELD, COLUMNS, BID_TENS, BID_TRUMPS, MELD0, POINTS0,
                       SIDE_TOTAL, TRICKS0, Setup, _play_many)
from .auction import MAX_CARDS, MAX_TRUMPS, N_BANDS
from .stats import t975, wilson
from .variants import Variant, band_width, variant

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

    # -- accumulation ---------------------------------------------------------------------
    def add(self, rows: np.ndarray, deal_index: np.ndarray, declarer: int) -> None:
        """Fold in the summary rows of one declarer seat over a chunk of deals."""
        v = self.variant
        r = rows.astype(np.int64)
        side = declarer % 2
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
        size = int(np.prod(self.moments.shape[:-1]))
        for j, w in enumerate((np.ones_like(total), total, total * total)):
            self.moments[..., j] += np.bincount(cell, weights=w.astype(float), minlength=size).reshape(
                self.moments.shape[:-1])
        x = np.stack([np.ones(len(r)), r[:, BID_ACES], r[:, BID_TENS], r[:, BID_TRUMPS]], axis=1)
        y = (total - r[:, BID_MELD]).astype(float)
        partner = r[:, MELD0 + (declarer + 2) % 4]
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

    # -- persistence ------------------------------------------------------------------------
    def provenance(self) -> dict:
        return {"variant": self.variant.spec, "options": self.variant.options(),
                "play_policy": self.policy, "seed": self.seed, "deals": self.deals,
                "start": self.start, "declarers_per_deal": 4, "version": __version__}

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, cube=self.cube, trump_cube=self.trump_cube, moments=self.moments,
                            xtx=self.xtx, xty=self.xty, extra=self.extra,
                            meta=json.dumps(self.provenance()))

    @classmethod
    def load(cls, path: str | Path) -> DeclarerStats:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
            return cls(variant(meta["variant"]), meta["play_policy"], meta["seed"], meta["deals"],
                       meta["start"], cube=z["cube"], trump_cube=z["trump_cube"],
                       moments=z["moments"], xtx=z["xtx"], xty=z["xty"], extra=z["extra"])


def declarer_stats(v: Variant | str = "thousand", deals: int = 100_000, seed: int = 0,
                   policy: str = "heuristic", start: int = 0, chunk: int = 1 << 16,
                   progress: bool = False) -> DeclarerStats:
    """Run the declarer simulation: every seat of every deal declares in turn.

    >>> s = declarer_stats("classic", deals=200, seed=1)
    >>> int(s.cube.sum())
    800
    """
    from .progress import bar
    v = variant(v) if isinstance(v, str) else v
    if deals < 0 or seed < 0 or start < 0:
        raise ValueError("deals, seed and start must be >= 0")
    stats = DeclarerStats(v, policy, seed, deals, start)
    setups = [Setup(v, policy, forced_bidder=s) for s in range(4)]
    with bar(deals, "declaring", progress) as pb:
        for s0 in range(start, start + deals, chunk):
            n = min(chunk, start + deals - s0)
            rows = np.empty((n, len(COLUMNS)), np.int32)
            idx = np.arange(s0, s0 + n)
            for seat, setup in enumerate(setups):
                _play_many(np.uint64(seed), np.int64(s0), n, *setup.args(), setup.max_calls, rows)
                stats.add(rows, idx, seat)
            pb.update(n)
    return stats


def cached_stats(v: Variant | str, deals: int, seed: int, policy: str = "heuristic",
                 progress: bool = False) -> DeclarerStats:
    """:func:`declarer_stats`, kept on disk for next time, beside the compiled kernels it came
    from (``~/.cache/pinochle-sim/<kernel hash>/tables``), so a change of code starts afresh."""
    from ._numba import numba
    v = variant(v) if isinstance(v, str) else v
    key = hashlib.sha1(json.dumps([v.spec, deals, seed, policy, __version__]).encode()).hexdigest()[:16]
    folder = Path(numba.config.CACHE_DIR) / "tables"
    path = folder / f"{key}.npz"
    if path.exists():
        return DeclarerStats.load(path)
    stats = declarer_stats(v, deals, seed, policy, progress=progress)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    stats.save(tmp)
    tmp.replace(path)
    return stats


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


def expected_change(counts: np.ndarray, bids: np.ndarray, unit: int) -> np.ndarray:
    """E[score change] of declaring at each bid: the side total when made, minus the bid when set."""
    values = (np.arange(counts.shape[-1]) - 1) * unit + (unit - 1) / 2  # bin midpoints
    n = counts.sum(axis=-1, keepdims=True)
    gains = np.flip(np.cumsum(np.flip(counts * values, -1), -1), -1)
    idx = np.minimum(bids // unit + 1, counts.shape[-1] - 1)
    p = p_make(counts, bids, unit)
    with np.errstate(invalid="ignore", divide="ignore"):
        return gains[..., idx] / n - bids * (1 - p)


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


def break_even_bid(change: np.ndarray, bids: np.ndarray) -> np.ndarray:
    """The highest bid whose expected score change is still >= 0 (NaN: none)."""
    return recommended_bid(np.nan_to_num(change, nan=-1.0), bids, 0.0)


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


def _cells(stats: DeclarerStats, by: str) -> tuple[pd.MultiIndex, np.ndarray, np.ndarray]:
    """Side-total counts and moments grouped by meld band and ``by``."""
    c, m = stats.cube, stats.moments.sum(axis=3)  # moments over trumps: [band, aces, tens, 3]
    if by == "aces_tens":
        counts, mom = pool_aces_tens(c), pool_aces_tens(m)
        keys = [("aces_tens", range(2 * MAX_CARDS - 1))]
    elif by == "aces,tens":
        counts, mom = c, m
        keys = [("aces", range(MAX_CARDS)), ("tens", range(MAX_CARDS))]
    elif by == "trumps":
        counts = stats.trump_cube
        mom = stats.moments.sum(axis=(1, 2))
        keys = [("trumps", range(MAX_TRUMPS))]
    elif by == "none":
        counts, mom = c.sum(axis=(1, 2)), m.sum(axis=(1, 2))
        keys = []
    else:
        raise ValueError(f"unknown table {by!r}; valid: aces_tens, aces,tens, trumps, none")
    index = pd.MultiIndex.from_product([band_labels(stats)] + [list(r) for _, r in keys],
                                       names=["meld"] + [name for name, _ in keys])
    return index, counts.reshape(len(index), -1), mom.reshape(len(index), 3)


def bid_table(stats: DeclarerStats, by: str = "aces_tens", confidences=CONFIDENCES,
              min_hands: int = 1) -> pd.DataFrame:
    """One row per (meld band, ``by``) cell with at least ``min_hands`` hands.

    Columns: ``hands``; ``enough`` (at least ``MIN_CELL`` hands: a cell with fewer states no
    bid); ``mean_total``, its standard error ``se_total`` (NaN below two hands) and 95% interval
    (``mean_low``, ``mean_high``); for each confidence the recommended bid ``bid_67`` and the
    range the simulation cannot tell it from (``bid_67_low``, ``bid_67_high``); the
    ``break_even_bid`` (the highest bid whose expected score change, counting a set as minus the
    bid, is still >= 0); then ``p_<bid>`` with its 95% Wilson interval ``p_<bid>_low``,
    ``p_<bid>_high``: the chance of making each bid of the grid. ``by``: ``aces_tens`` (aces +
    tens), ``aces,tens``, ``trumps`` or ``none``.
    """
    index, counts, mom = _cells(stats, by)
    v = stats.variant
    n = mom[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = mom[:, 1] / n
        var = np.where(n > 1, np.maximum(mom[:, 2] / n - mean ** 2, 0) * n / np.maximum(n - 1, 1), np.nan)
        se = np.sqrt(var / n)
    half = np.array([t975(x - 1) if x > 1 else np.nan for x in n]) * se
    enough = n >= MIN_CELL
    top = min(int(np.nanmax(np.where(n > 0, mean, 0)) + 2 * v.trick_total // 5),
              (stats.n_bins - 2) * stats.unit)
    bids = bid_grid(v, top)
    p = p_make(counts, bids, stats.unit)
    lo, hi = p_make_interval(counts, bids, stats.unit)
    df = pd.DataFrame({"hands": n.astype(np.int64), "enough": enough, "mean_total": mean,
                       "se_total": se, "mean_low": mean - half, "mean_high": mean + half}, index=index)
    for c in confidences:
        col = f"bid_{round(c * 100)}"
        low, high = recommended_range(counts, bids, stats.unit, c)
        df[col] = np.where(enough, recommended_bid(p, bids, c), np.nan)
        df[col + "_low"] = np.where(enough, low, np.nan)
        df[col + "_high"] = np.where(enough, high, np.nan)
    df["break_even_bid"] = np.where(enough, break_even_bid(expected_change(counts, bids, stats.unit), bids),
                                    np.nan)
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
    return (f"expected side total = your meld + {term('intercept', '')} + {term('aces', ' per ace')}"
            f" + {term('tens', ' per ten')} + {term('trumps', ' per trump')}")
