"""Bid-estimate tables: what a hand is worth when you win the bid, from what you can see when
bidding (seed 000: "Count your meld, add what your aces and tens should win, and bid what the two
together can reach"), computed from the declarer simulation's accumulators
(:class:`~pinochle_sim.studies.declarer.DeclarerStats`): the chance of making each bid with its
interval, the recommended bid, the rule of thumb and what the partner adds.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..engine.auction import MAX_CARDS, MAX_TRUMPS, N_BANDS
from .stats import t975, wilson
from .declarer import FEATURES, N_BATCHES, DeclarerStats, bid_grid

MIN_CELL = 100        # hands a cell needs before the tables state a bid for it
CONFIDENCES = (0.5, 0.67, 0.8)


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


def rule_text(stats: DeclarerStats, rule: pd.DataFrame | None = None) -> str:
    """The rule of thumb in words, with 95% intervals (``rule``: its fit, if already made)."""
    r = rule_of_thumb(stats) if rule is None else rule

    def term(name: str, label: str) -> str:
        x, half = r.loc[name, "estimate"], r.loc[name, "ci_high"] - r.loc[name, "estimate"]
        digits = 1 if half >= 0.1 else 2 if half >= 0.01 else 3  # keep the interval visible
        return f"{x:.{digits}f} (±{half:.{digits}f}){label}"
    total = "side total" if stats.variant.players == 4 else "total"
    return (f"expected {total} = your meld + {term('intercept', '')} + {term('aces', ' per ace')}"
            f" + {term('tens', ' per ten')} + {term('trumps', ' per trump')}")
