"""Auction-aware estimates: how often an auction *winner* makes its contract, by the situation in
which it made the winning bid (``auction.SITUATIONS``) and by how far the bid sits above what its
hand is worth when made to declare (:class:`AuctionModel`, fitted in auctions where every seat bids
by it, rebuilt until it stops changing), and what auction winners hold and make
(:func:`auction_summary`).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..engine.hand import (BID, BID_ACES, BID_MELD, BID_SITUATION, BID_TENS, BID_TRUMPS, BIDDER,
                           MADE, SIDE_TOTAL, THROWN, Loop, fixed_bidding,
                           others_score, partner_meld, play_rows, side_of)
from ..engine.auction import MAX_CARDS, MAX_TRUMPS, N_BANDS, N_SITUATIONS, SITUATIONS
from .stats import wilson
from ..engine.variants import Variant, band_width, variant
from ..engine.tricks import DEFAULT_POLICY
from .declarer import DeclarerStats, cache_path, cached_stats, store
from .tables import MIN_CELL, recommended_grid_trumps, rule_of_thumb

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
        rows = play_rows(Loop.build(v, fixed_bidding(v, weight, table), policy), seed + k, 0, deals)
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
    """:func:`auction_model`, kept on disk for next time (see :func:`cache_path`)."""
    v = variant(v) if isinstance(v, str) else v
    path = cache_path("auction", v.spec, confidence, deals, seed, anchor, policy)
    if path.exists():
        return AuctionModel.load(path, v, confidence)
    m = auction_model(v, confidence, deals, seed, anchor, policy=policy)
    store(path, m.save)
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
    rows = play_rows(Loop.build(v, bd, policy), seed, 0, deals)
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
