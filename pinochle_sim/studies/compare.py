"""Comparing rule variants on the same deals (common random numbers).

Every variant plays the same deals (same seed, same deal indices, the same random streams),
so each metric is compared deal by deal and the luck of the cards cancels. Two runs per deal:

* the declarer simulation (each seat declares in turn, as in the bid tables): the declaring
  side's trick points, its meld, its total, and whether it made the bid the variant's own bid
  table recommends (at 67% confidence) for what the declarer held; per deal, the mean over the
  declarers (every seat);
* the full hand with its auction: the throw-in rate, the winning bid and the set rate (on deals
  that both variants played out), and the score each side banks per hand.

Point metrics are put on a common scale: points per 250 trick points (a 25-point variant's
figures times ten), and trick points also as a fraction of the hand's trick points. A side is a
partnership in four-hand and a seat in three-hand (whose "defending side" is the mean of the
other two seats). Variants compared must be dealt alike (three-hand only with three-hand).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from .. import __version__
from ..runs import HERE, Chunk, Run, Where, chunks_of
from ..engine.hand import (BID, BID_ACES, BID_MELD, BID_TENS, BIDDER, MADE, MELD0, POINTS0, SCORE0,
                           SIDE_TOTAL, THROWN, TRICKS0, others_score, partner_meld, play_rows, samples, side_of)
from .simulate import Setup
from .stats import holm, mean_se, paired
from ..engine.auction import MAX_CARDS, N_BANDS
from .declarer import cached_stats
from .tables import recommended_grid
from .strategies import DEFAULT_BIDDING, default_bidding, strategy
from ..engine.variants import Variant, variant
from ..engine.tricks import DEFAULT_POLICY, in_full

class CompareError(ValueError):
    """Variants that cannot be compared on the same deals: the message says why."""


#: metric name -> (description, unit)
METRICS = {
    "declarer_trick_share": ("declaring side's share of the hand's trick points", "fraction"),
    "declarer_trick_points": ("declaring side's trick points", "per 250"),
    "declarer_meld": ("declaring side's meld (both partners, after passing)", "per 250"),
    "declarer_total": ("declaring side's total towards a contract", "per 250"),
    "made_recommended_bid": ("declaring side made its bid table's 67% bid (interval leaves out "
                             "the table's own sampling error)", "fraction"),
    "thrown_in": ("hands thrown in", "fraction"),
    "winning_bid": ("winning bid (deals both variants played)", "per 250"),
    "set_rate": ("bidders set (deals both variants played)", "fraction"),
    "bidder_score": ("score change per hand, bidding side", "per 250"),
    "defender_score": ("score change per hand, defending side", "per 250"),
}


@dataclass
class Comparison:
    """Per-deal values of every metric for every variant, and the tidy summary."""

    variants: list[Variant]
    deals: int
    seed: int
    policy: str
    values: dict[str, dict[str, np.ndarray]]  # variant spec -> metric -> per-deal values
    table: pd.DataFrame
    bidding: str = DEFAULT_BIDDING  # the strategy's spec

    def provenance(self) -> dict:
        return {"variants": [v.spec for v in self.variants], "baseline": self.variants[0].spec,
                "deals": self.deals, "seed": self.seed, "play_policy": self.policy,
                "play_policy_in_full": [in_full(self.policy, v.name) for v in self.variants], "bidding": self.bidding,
                "scale": "points per 250 trick points; shares as fractions",
                "correction": "Holm, over every (variant, metric) difference",
                "version": __version__}


def _recommendation_lookup(v: Variant, policy: str, seed: int, deals: int) -> tuple[np.ndarray, int]:
    """rec[band, aces, tens]: the 67% bid of the variant's own table (NaN: pass)."""
    stats = cached_stats(v, deals, seed + 7919, policy)  # other deals than the comparison's
    return recommended_grid(stats, 0.67), stats.band


def metric_chunk(v: Variant, setups: list[Setup], rec: np.ndarray, band: int, chunk: Chunk) -> dict[str, np.ndarray]:
    """Per-deal values of every metric of ``METRICS`` over one chunk of deals (NaN where
    undefined). ``setups``: one per declaring seat, then the auction's; ``rec``, ``band``: the
    variant's recommended bids (:func:`_recommendation_lookup`)."""
    deals = chunk.count
    scale = 250 / v.trick_total
    acc = {k: np.zeros(deals) for k in ("tp", "meld", "total", "made_rec", "rec_n")}
    seats = v.players
    for seat in range(seats):
        r = play_rows(setups[seat].loop, chunk.seed, chunk.start, deals).astype(np.int64)
        side = v.team(seat)
        acc["tp"] += r[:, POINTS0 + side]
        acc["meld"] += r[:, MELD0 + seat] + partner_meld(v, r, np.full(deals, seat))
        acc["total"] += r[:, SIDE_TOTAL]
        b = rec[np.minimum(r[:, BID_MELD] // band, N_BANDS - 1),
                np.minimum(r[:, BID_ACES], MAX_CARDS - 1), np.minimum(r[:, BID_TENS], MAX_CARDS - 1)]
        has = np.isfinite(b)
        made = has & (r[:, SIDE_TOTAL] >= np.nan_to_num(b)) & (r[:, TRICKS0 + side] >= v.min_tricks)
        acc["made_rec"] += made
        acc["rec_n"] += has
    a = play_rows(setups[seats].loop, chunk.seed, chunk.start, deals).astype(np.int64)
    thrown = a[:, THROWN] == 1
    bt = np.where(thrown, 0, side_of(v, a[:, BIDDER]))
    bidder_score = np.where(thrown, 0, np.take_along_axis(a[:, SCORE0:SCORE0 + v.teams], bt[:, None], 1)[:, 0])
    defender_score = np.where(thrown, 0, others_score(v, a, bt))
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "declarer_trick_share": acc["tp"] / seats / v.trick_total,
            "declarer_trick_points": acc["tp"] / seats * scale,
            "declarer_meld": acc["meld"] / seats * scale,
            "declarer_total": acc["total"] / seats * scale,
            "made_recommended_bid": np.where(acc["rec_n"] > 0, acc["made_rec"] / acc["rec_n"], np.nan),
            "thrown_in": thrown.astype(float),
            "winning_bid": np.where(thrown, np.nan, a[:, BID] * scale),
            "set_rate": np.where(thrown, np.nan, (a[:, MADE] == 0).astype(float)),
            "bidder_score": bidder_score * scale,
            "defender_score": defender_score * scale,
        }


def metric_values(v: Variant, deals: int, seed: int, policy: str = DEFAULT_POLICY,
                  start: int = 0, table_deals: int = 100_000, bidding=None, run: Run | None = None,
                  chunk: int = 1 << 16) -> dict[str, np.ndarray]:
    """Per-deal values of every metric of ``METRICS`` for variant ``v`` (NaN where undefined),
    the chunks of deals run by ``run`` (default: here)."""
    rec, band = _recommendation_lookup(v, policy, seed, table_deals)
    setups = [Setup(v, policy, forced_bidder=seat) for seat in range(v.players)] + [Setup(v, policy, bidding)]
    fn = partial(metric_chunk, v, setups, rec, band)
    chunks = chunks_of(seed, start, deals, chunk, sampling=samples(setups[-1].loop.policy))
    if run is None:
        with Run(HERE, {}, "comparing") as here:
            parts = [x for _, x in here.map(fn, chunks)]
    else:
        parts = [x for _, x in run.map(fn, chunks, tag=v.spec)]
    if not parts:
        return {m: np.zeros(0) for m in METRICS}
    return {m: np.concatenate([p[m] for p in parts]) for m in parts[0]}


def held_bidding(bidding, vs: list[Variant]) -> tuple[dict[str, object], str]:
    """Each variant's bidding in a comparison, and the bidding's description. A strategy fitted to
    the variant (``auction``, ``table``...) is fitted once per game, on the first variant of that
    preset, and held for the preset's other variants: an option that changes only the card play
    then changes no auction, and no fit's noise enters a difference. Strategies that are not
    fitted bid by each variant's own rules as always."""
    specs, fitted_on = {}, {}
    for v in vs:
        s = strategy(bidding if bidding is not None else default_bidding(v))
        if s.fitted:
            first = fitted_on.setdefault((v.name, s.spec), v)
            s = specs[first.spec] if first is not v else s.held(v)
        specs[v.spec] = s
    text = strategy(bidding).spec if bidding is not None else default_bidding(vs[0])
    if fitted_on:
        text += " (fitted once on " + ", ".join(v.spec for v in fitted_on.values()) + ")"
    return specs, text


def compare(variants: list[Variant | str], deals: int = 100_000, seed: int = 0,
            policy: str = DEFAULT_POLICY, progress: bool = False, table_deals: int = 100_000,
            bidding=None, where: Where | None = None) -> Comparison:
    """Compare variants on the same deals; the first is the baseline. Every seat bids by
    ``bidding`` (default: the toolkit's default strategy). A strategy fitted to the variant is
    fitted once per preset and held for its options (:func:`held_bidding`), so a rule of play
    changes no auction; variants of different presets bid by their own fits.

    The tidy table has one row per (variant, metric): the variant's mean and standard error,
    and against the baseline the mean paired difference, its standard error and 95% interval,
    (``diff``, ``diff_se``, ``ci_low``, ``ci_high``), the p-value, the Holm-adjusted p-value
    over every difference (``p_holm``), the unpaired standard error
    and how many times more deals an unpaired comparison would need (``deals_saved``). ``mean``
    is over the deals where the variant's metric is defined; the difference is over the deals
    where both are (``pairs`` of them), whose two means are ``base_mean`` and ``paired_mean``.

    ``where``: a Dask cluster for the chunks of deals and whether the run can be resumed
    (:mod:`pinochle_sim.runs`); the comparison is the same wherever the chunks ran.
    """
    from ..progress import bar
    vs = [variant(v) if isinstance(v, str) else v for v in variants]
    if len(vs) < 2:
        raise ValueError("compare needs at least two variants (the first is the baseline)")
    if deals < 1:
        raise ValueError(f"compare needs at least one deal, not {deals}")
    tables = {v.spec: (v.players, v.hand_size, v.kitty) for v in vs}
    if len(set(tables.values())) > 1:
        raise CompareError("compare needs variants dealt alike, so that they play the same deals: "
                         + ", ".join(f"{k} deals {p}x{h}" + (f"+{c}" if c else "")
                                     for k, (p, h, c) in tables.items()))
    values: dict[str, dict[str, np.ndarray]] = {}
    bids, bidding_text = held_bidding(bidding, vs)
    identity = {"command": "compare", "variants": [v.spec for v in vs], "deals": deals, "seed": seed,
                "policy": policy, "table_deals": table_deals, "bidding": str(bidding)}
    with Run(where, identity, f"comparing {len(vs)} variants", False) as run, \
            bar(len(vs), f"comparing ({deals:,} deals each)", progress, unit=" variants") as pb:
        for v in vs:
            if v.spec not in values:
                values[v.spec] = metric_values(v, deals, seed, policy, table_deals=table_deals,
                                               bidding=bids[v.spec], run=run)
            pb.update(1)
    base = vs[0]
    rows = []
    for i, v in enumerate(vs):
        for m, (desc, unit) in METRICS.items():
            x = values[v.spec][m]
            mean, se, n = mean_se(x)
            row = {"variant": v.spec, "metric": m, "description": desc, "unit": unit, "mean": mean,
                   "se": se, "deals": n, "baseline": base.spec}
            if i > 0:
                row |= paired(values[base.spec][m], x)
            rows.append(row)
    table = pd.DataFrame(rows)
    if "p_value" in table:
        table["p_holm"] = holm(table["p_value"].to_numpy())
    return Comparison(vs, deals, seed, policy, values, table, bidding=bidding_text)

