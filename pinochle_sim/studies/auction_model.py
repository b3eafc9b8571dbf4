"""Auction-aware estimates: how often an auction *winner* makes its contract, by the situation in
which it made the winning bid (``auction.SITUATIONS``) and by how far the bid sits above what its
hand is worth when made to declare (:class:`AuctionModel`, fitted in auctions where every seat bids
by it, rebuilt until it stops changing, with seats that explore past their limits so that the
chance above the limit is read from contracts), and what auction winners hold and make
(:func:`auction_summary`).
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path

import numpy as np
import pandas as pd

from ..engine.hand import (BID, BID_ACES, BID_MELD, BID_SITUATION, BID_TENS, BID_TRUMPS, BIDDER, COLUMNS,
                           MADE, SIDE_TOTAL, THROWN, Loop, fixed_bidding,
                           others_score, partner_meld, play_rows, side_of)
from ..engine.auction import KEEP_ALL, MAX_CARDS, MAX_TRUMPS, N_BANDS, N_SITUATIONS, SITUATIONS, compile_bidding
from ..runs import HERE, Chunk, Run, Where, chunks_of
from .stats import Z95, wilson
from ..engine.variants import Variant, band_width, variant
from ..engine.tricks import DEFAULT_POLICY
from .declarer import DeclarerStats, cache_path, cached_stats, store
from .tables import MIN_CELL, recommended_grid_trumps, rule_of_thumb

GAP_RAISES = 80   # gaps from -80 to +80 raises (-400..+400 in thousand) are told apart
#: Exploring: in this share of the model's auctions one seat (each in turn) bids to its limits
#: moved by a random number of raises, from -EXPLORE_BELOW to +EXPLORE_RAISES (more above: few
#: contracts are won there), so that contracts are won, and their outcome seen, on both sides of
#: the model's own limit.
EXPLORE_SHARE = 0.75
EXPLORE_BELOW = 6
EXPLORE_RAISES = 14
EXPLORE_BLOCK = 2000   # deals played with one exploring seat and one shift
#: The model is read from a last round of auctions at the settled limits, this many times the
#: deals of an iteration, and from it alone (no earlier iteration's contracts).
READ_FACTOR = 4
#: Gaps (in raises, either side of a situation's limit) whose chance must rest on contracts.
READ_RAISES = 10
#: The thin gaps, read on: in a situation that wins at least :data:`COVER_CONTRACTS` contracts,
#: every gap within :data:`READ_RAISES` raises of a curve's limit should rest on at least
#: :data:`COVER_LEAST` contracts (the kinds of hand together, each about its own limit). Where
#: the read leaves fewer, up to :data:`THIN_ROUNDS` more rounds of the read's size play out
#: only the contracts won at those gaps (:func:`_read_thin`).
COVER_CONTRACTS = 20_000
COVER_LEAST = 1000
THIN_ROUNDS = 8
THIN_BLOCK = 50_000   # deals of one exploring seat in a thin round
#: The kinds of hand with a curve of their own (``kinds_check`` found one curve per situation
#: misjudging them by 2-5 points): whether meld is under :data:`TRICK_HEAVY` of the hand's
#: made-to-declare estimate (the rest being the cards that take tricks), and whether the hand
#: holds at least :data:`LONG_TRUMPS` trumps.
TRICK_HEAVY = 1 / 3
LONG_TRUMPS = 6
KINDS = ("trick-heavy", "trick-heavy, long trumps", "with meld", "with meld, long trumps")
#: Contracts a kind of hand needs for a curve of its own in a situation (else the situation's).
MIN_CURVE = 2000


def _isotonic_decreasing(y: np.ndarray, w: np.ndarray, pools: bool = False):
    """Weighted least-squares fit of ``y`` that never rises (pool adjacent violators); with
    ``pools``, also the index of the pool each point fell in."""
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
    if pools:
        return np.array(out), np.repeat(np.arange(len(lens)), lens)
    return np.array(out)


def _logistic(x: np.ndarray, made: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood fit of ``made / n ~ 1 / (1 + exp(-(a + b x)))`` (binomial counts);
    returns ``(a, b)`` and their covariance (the inverse Fisher information)."""
    X = np.column_stack([np.ones_like(x, dtype=float), x.astype(float)])
    beta = np.zeros(2)
    info = np.eye(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-(X @ beta)))
        w = n * p * (1 - p)
        info = X.T @ (X * w[:, None]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(info, X.T @ (made - n * p))
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    return beta, np.linalg.inv(info)


def _fit(made: np.ndarray, n: np.ndarray) -> dict[str, np.ndarray]:
    """The chance by gap from counts: where contracts were seen, the never-rising fit of the made
    share, its interval the Wilson interval of the contracts pooled with it; elsewhere the
    logistic in the gap fitted to every contract of the situation, with its 95% interval, kept
    between the fits of the nearest seen gaps (so that the chance never rises)."""
    size = len(n)
    out = {"p": np.full(size, np.nan), "low": np.full(size, np.nan), "high": np.full(size, np.nan),
           "read": n > 0}
    have = np.nonzero(n > 0)[0]
    if not have.size:
        return out
    iso, pool = _isotonic_decreasing(made[have] / n[have], n[have], pools=True)
    k = np.bincount(pool, made[have])[pool]
    m = np.bincount(pool, n[have])[pool]
    lo, hi = wilson(k, m)
    out["p"][have], out["low"][have], out["high"][have] = iso, lo, hi
    missing = np.nonzero(n <= 0)[0]
    if not missing.size:
        return out
    x = np.arange(size) - GAP_RAISES
    beta, cov = _logistic(x[have], made[have], n[have])
    eta = beta[0] + beta[1] * x[missing]
    se = np.sqrt(cov[0, 0] + 2 * x[missing] * cov[0, 1] + x[missing] ** 2 * cov[1, 1])
    sig = lambda z: 1 / (1 + np.exp(-np.clip(z, -50, 50)))  # noqa: E731
    right = np.searchsorted(have, missing)          # the next seen gap, if any
    ceiling = np.where(right > 0, iso[np.maximum(right - 1, 0)], 1.0)
    floor = np.where(right < have.size, iso[np.minimum(right, have.size - 1)], 0.0)
    out["p"][missing] = np.clip(sig(eta), floor, ceiling)
    out["low"][missing] = np.minimum(sig(eta - Z95 * se), out["p"][missing])
    out["high"][missing] = np.maximum(sig(eta + Z95 * se), out["p"][missing])
    return out


@dataclass
class AuctionModel:
    """The chance that an auction winner makes its contract: ``p[situation, kind, gap]``, where
    the gap is the bid minus the hand's made-to-declare estimate (``weight * meld + anchor[band,
    aces, tens, trumps]``), in raises, offset by ``GAP_RAISES``, and the kind (:data:`KINDS`)
    says how much of that estimate is meld (:meth:`kind_grid`). Read from simulated auctions
    in which every seat bids by the model itself (see :func:`auction_model`), so that it says
    what a player can expect *given that it won the auction*: its partner stayed quiet, the
    opponents bid against it. ``made`` and ``contracts`` are the counts behind ``p`` (the last
    round of auctions only), ``explored`` how many of those contracts an exploring seat won;
    ``history`` lists the iterations, ``kinds`` the check of the model by kind of hand."""

    variant: Variant
    confidence: float
    weight: float               # the estimate is weight * meld + anchor[band, aces, tens, trumps]
    anchor: np.ndarray          # float[bands, aces, tens, trumps]
    made: np.ndarray            # float[situations, kinds, gaps]
    contracts: np.ndarray       # float[situations, kinds, gaps]
    explored: np.ndarray | None = None   # float[situations, kinds, gaps] (None: zeros)
    history: list = field(default_factory=list)
    kinds: list = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.explored is None:
            self.explored = np.zeros_like(self.contracts)

    @cached_property
    def fitted(self) -> dict[str, np.ndarray]:
        """``p``, ``low``, ``high`` (float[situations, kinds, gaps]) and ``read`` (bool: the
        chance rests on contracts at that gap, not on the logistic), per :func:`_fit`; a kind
        with under :data:`MIN_CURVE` contracts in a situation reads the situation's curve (all
        kinds together), and a situation with under ``MIN_CELL`` the fit of all situations."""
        pooled = _fit(self.made.sum((0, 1)), self.contracts.sum((0, 1)))
        fits = []
        for s in range(N_SITUATIONS):
            whole = (_fit(self.made[s].sum(0), self.contracts[s].sum(0))
                     if self.contracts[s].sum() >= MIN_CELL else pooled)
            fits.append([_fit(self.made[s, k], self.contracts[s, k]) if self.contracts[s, k].sum() >= MIN_CURVE
                         else whole for k in range(len(KINDS))])
        return {key: np.array([[f[key] for f in row] for row in fits]) for key in pooled}

    @property
    def p(self) -> np.ndarray:
        """float[situations, kinds, gaps]: the never-rising chance of making the contract."""
        return self.fitted["p"]

    @cached_property
    def kind_grid(self) -> np.ndarray:
        """int[bands, aces, tens, trumps]: the kind of hand (:data:`KINDS`) of each cell of the
        strategy's table, by the share of its made-to-declare estimate that is meld (the band's
        middle) and its trump length."""
        mid = (np.arange(N_BANDS) + 0.5)[:, None, None, None] * band_width(self.variant)
        estimate = self.weight * mid + self.anchor
        with_meld = mid >= TRICK_HEAVY * np.where(estimate > 0, estimate, 0)
        long = (np.arange(MAX_TRUMPS) >= LONG_TRUMPS)[None, None, None, :]
        return 2 * with_meld + long

    def _cell(self, meld, aces, tens, trumps) -> tuple:
        band = np.minimum(np.asarray(meld) // band_width(self.variant), N_BANDS - 1)
        return (band, np.minimum(aces, MAX_CARDS - 1), np.minimum(tens, MAX_CARDS - 1),
                np.minimum(trumps, MAX_TRUMPS - 1))

    def kind(self, meld, aces, tens, trumps) -> np.ndarray:
        """The kind of hand of each contract (arrays)."""
        return self.kind_grid[self._cell(meld, aces, tens, trumps)]

    def gap(self, bid, meld, aces, tens, trumps) -> np.ndarray:
        """The gap index of each contract (arrays): gap ``g`` holds the bids more than ``g - 1``
        raises and at most ``g`` raises above the estimate. Rounded up, not to the nearest: a
        seat bids while ``bid <= estimate + reach`` (``reach`` a whole number of raises), so the
        limit falls on the edge between two gaps, and every hand in the gap at the limit would
        have bid there. (Rounded to the nearest, that gap held hands on both sides of the limit,
        and only exploring seats bid with those above it: the estimate at the limit mixed two
        populations, 7 points under what seats at their limit make in classic.)"""
        mu = self.weight * np.asarray(meld) + self.anchor[self._cell(meld, aces, tens, trumps)]
        g = np.ceil((np.asarray(bid) - mu) / self.variant.raise_min - 1e-9).astype(int)
        return np.clip(g + GAP_RAISES, 0, 2 * GAP_RAISES)

    def p_make(self, situation, bid, meld, aces, tens, trumps) -> np.ndarray:
        """The model's chance of making each contract (arrays, elementwise)."""
        return self.p[situation, self.kind(meld, aces, tens, trumps), self.gap(bid, meld, aces, tens, trumps)]

    def reach(self) -> np.ndarray:
        """float[situations, kinds]: the highest gap (in points) whose chance is at least
        ``confidence`` (-inf: none), up to the highest gap read from contracts: the model does
        not bid where it has seen nothing (the logistic beyond only reports)."""
        f = self.fitted
        ok = (np.nan_to_num(f["p"], nan=0.0) >= self.confidence) & (np.cumsum(f["read"][..., ::-1], -1)[..., ::-1] > 0)
        last = ok.shape[-1] - 1 - np.argmax(ok[..., ::-1], axis=-1)
        return np.where(ok.any(-1), (last - GAP_RAISES) * self.variant.raise_min, -np.inf)

    def limit_index(self) -> np.ndarray:
        """int[situations, kinds]: the gap index of each curve's limit (-1: it never bids)."""
        r = self.reach()
        return np.where(np.isfinite(r), GAP_RAISES + np.round(np.nan_to_num(r, neginf=0) / self.variant.raise_min),
                        -1).astype(int)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, weight=self.weight, anchor=self.anchor, made=self.made,
                            contracts=self.contracts, explored=self.explored,
                            history=json.dumps(self.history), kinds=json.dumps(self.kinds))

    @classmethod
    def load(cls, path: str | Path, v: Variant, confidence: float) -> AuctionModel:
        with np.load(path) as z:
            return cls(v, confidence, float(z["weight"]), z["anchor"], z["made"], z["contracts"],
                       z["explored"], json.loads(str(z["history"])), json.loads(str(z["kinds"])))

    def limits(self) -> tuple[float, np.ndarray]:
        """(weight, table) for the kernels: the limit is the estimate plus ``reach[situation,
        kind]``."""
        table = self.anchor[None] + self.reach()[:, self.kind_grid]
        return self.weight, np.ascontiguousarray(np.where(np.isfinite(table), table, np.nan))


def _rule_grid(stats: DeclarerStats, rule: pd.DataFrame | None = None) -> np.ndarray:
    """float[bands, aces, tens, trumps]: the rule of thumb without the meld (which counts exactly);
    ``rule``: its fit, if already made."""
    a, b, c, d = (rule_of_thumb(stats) if rule is None else rule).estimate.to_numpy()
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


#: The most deals of one chunk of a round of the model's auctions.
OBSERVE_CHUNK = 1 << 16


def _explore_plan(deals: int, seed: int, explore: float, players: int) -> dict[int, tuple[int, int]]:
    """The blocks of :data:`EXPLORE_BLOCK` deals in which one seat explores: ``{first deal: (seat,
    shift in raises)}``, drawn from ``seed``."""
    rng = np.random.default_rng([seed, 31])
    plan = {}
    for b, start in enumerate(range(0, deals, EXPLORE_BLOCK)):
        if rng.random() < explore:
            plan[start] = (b % players, int(rng.integers(-EXPLORE_BELOW, EXPLORE_RAISES + 1)))
    return plan


def _observe_chunks(deals: int, seed: int, plan: dict[int, tuple[int, int]]) -> list[Chunk]:
    """The chunks of a round: each exploring block alone, the deals between them in chunks of at
    most :data:`OBSERVE_CHUNK`."""
    chunks, plain = [], 0
    for start in [*sorted(plan), deals]:
        chunks += chunks_of(seed, plain, start - plain, OBSERVE_CHUNK)
        if start < deals:
            chunks.append(Chunk(seed, start, min(EXPLORE_BLOCK, deals - start)))
            plain = min(start + EXPLORE_BLOCK, deals)
    return chunks


def _explored(v: Variant, weight: float, table: np.ndarray, policy: str, seat: int, shift: int, keep: np.ndarray,
              chunk: Chunk) -> dict[str, np.ndarray]:
    """The contracts played out (``keep``, :func:`~pinochle_sim.engine.auction.kept`) in one chunk
    of auctions where every seat bids to ``weight * meld + table[...]`` but ``seat`` (-1: none),
    whose limits are moved by ``shift`` raises."""
    tables = np.broadcast_to(table, (v.players, *table.shape))
    if seat >= 0:
        tables = tables.copy()
        tables[seat] += shift * v.raise_min
    bidding = compile_bidding(np.full(v.players, weight), tables, np.zeros(v.players), band_width(v), keep)
    return _contracts(play_rows(Loop.build(v, bidding, policy), chunk.seed, chunk.start, chunk.count))


def _observe_chunk(v: Variant, weight: float, table: np.ndarray, policy: str,
                   plan: dict[int, tuple[int, int]], chunk: Chunk) -> dict[str, np.ndarray]:
    """The contracts of one chunk of a round (an exploring block: only the exploring seat's; the
    other seats' are not counted, so not played out either)."""
    seat, shift = plan.get(chunk.start, (-1, 0))
    keep = KEEP_ALL if seat < 0 else np.arange(v.players).reshape(-1, 1, 1, 1, 1, 1, 1) == seat
    c = _explored(v, weight, table, policy, seat, shift, keep, chunk)
    c["explored"] = np.full(len(c["bid"]), seat >= 0)
    return c


def _observe(model: AuctionModel, table: np.ndarray, policy: str, seed: int, deals: int,
             explore: float, run: Run | None = None, tag: str = "") -> tuple[np.ndarray, ...]:
    """Play ``deals`` auctions (seed ``seed``) in which every seat bids to ``weight * meld +
    table[situation, ...]``, except that in a share ``explore`` of the blocks of
    :data:`EXPLORE_BLOCK` deals one seat (each in turn) bids to its limits moved by a random number
    of raises (-:data:`EXPLORE_BELOW`..+:data:`EXPLORE_RAISES`; the blocks and shifts drawn
    from ``seed``). Counted: every contract of the other blocks and the exploring seat's
    contracts in its blocks (the others' contracts there met a seat that bids otherwise). Returns
    ``(made, contracts, explored)`` by situation, kind and gap, and the contracts' columns.
    ``run``: where the chunks go (:mod:`pinochle_sim.runs`; ``tag`` names this round among the
    run's)."""
    v = model.variant
    plan = _explore_plan(deals, seed, explore, v.players)
    fn = partial(_observe_chunk, v, model.weight, table, policy, plan)
    chunks = _observe_chunks(deals, seed, plan)
    if run is None:
        with Run(HERE, {}, "auctions") as here:
            parts = [c for _, c in here.map(fn, chunks)]
    else:
        parts = [c for _, c in run.map(fn, chunks, tag=tag)]
    columns = _joined(parts)
    made, n, explored = _tally(model, columns, columns["made"], 1, columns.pop("explored"))
    return made, n, explored, columns


def _joined(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The contracts' columns of several chunks, in chunk order."""
    return {k: np.concatenate([c[k] for c in parts]) for k in parts[0]}


def _tally(model: AuctionModel, c: dict[str, np.ndarray], *weights) -> list[np.ndarray]:
    """Per weight (an array, one value per contract of the columns ``c``, or 1 to count them),
    its sum in each cell of ``model``'s curves: situation, kind of hand, gap."""
    at = (c["situation"], model.kind(c["meld"], c["aces"], c["tens"], c["trumps"]),
          model.gap(c["bid"], c["meld"], c["aces"], c["tens"], c["trumps"]))
    out = []
    for w in weights:
        a = np.zeros((N_SITUATIONS, len(KINDS), 2 * GAP_RAISES + 1))
        np.add.at(a, at, w)
        out.append(a)
    return out


def _near(model: AuctionModel, raises: int = READ_RAISES) -> np.ndarray:
    """int[situations, kinds, 2 * raises + 1]: the gap index of each gap from ``raises`` raises
    below each curve's limit to ``raises`` above it (-1: the curve never bids, or has no
    contracts)."""
    limit = model.limit_index()
    idx = np.clip(limit[..., None] + np.arange(-raises, raises + 1), 0, 2 * GAP_RAISES)
    live = (limit >= 0) & (model.contracts.sum(-1) > 0)
    return np.where(live[..., None], idx, -1)


def _thin(model: AuctionModel, least: int = COVER_CONTRACTS, fewest: int = COVER_LEAST) -> np.ndarray:
    """bool[situations, kinds, gaps]: the gaps near the limits that :func:`coverage` finds thin
    in the situations winning at least ``least`` contracts: every curve's gap at a distance
    from its limit where the kinds together have under ``fewest`` contracts, and every gap
    near a limit with no contract at all."""
    near = _near(model)
    n = np.where(near >= 0, np.take_along_axis(model.contracts, np.maximum(near, 0), -1), 0)
    short = (n.sum(1) < fewest)[:, None, :] | (n == 0)
    want = short & (near >= 0) & (model.contracts.sum((1, 2)) >= least)[:, None, None]
    out = np.zeros(model.contracts.shape, bool)
    s, k, j = np.nonzero(want)
    out[s, k, near[s, k, j]] = True
    return out


def _thin_keep(kind_grid: np.ndarray, limit: np.ndarray, want: np.ndarray, players: int, seat: int,
               shift: int) -> np.ndarray:
    """``Bidding.keep`` (:func:`~pinochle_sim.engine.auction.kept`) that plays out only ``seat``'s
    contracts at the gaps ``want``, the seat bidding to its limits (gap indices ``limit[situation,
    kind]``) moved up by ``shift`` raises: a bid ``below`` whole raises under the moved limit sits
    at gap ``limit + shift - below``. ``kind_grid``: the kind of each cell of the table."""
    s, k, wanted = np.nonzero(want)
    below = np.arange(int((limit[s, k] + shift - wanted).max()) + 2)      # the last: every one beyond
    kind = kind_grid[..., None, None]                                       # [bands, aces, tens, trumps, 1, 1]
    sit = np.arange(N_SITUATIONS)[:, None]
    lim = limit[sit, kind]                                                  # [..., situations, 1]
    g = lim + shift - below
    ok = (lim >= 0) & (g >= 0) & (g <= 2 * GAP_RAISES)
    mine = ok & want[sit, kind, np.clip(g, 0, 2 * GAP_RAISES)]
    keep = np.zeros((players, *mine.shape[:4], N_SITUATIONS + 1, len(below)), bool)
    keep[seat, ..., 1:, :] = mine                                           # (0: a forced opening)
    return keep


def _thin_chunk(v: Variant, weight: float, table: np.ndarray, policy: str, kind_grid: np.ndarray,
                limit: np.ndarray, want: np.ndarray, shift: int, chunk: Chunk) -> dict[str, np.ndarray]:
    """The contracts of one block of a thin round: its exploring seat's, at the gaps ``want``."""
    seat = (chunk.start // THIN_BLOCK) % v.players
    keep = _thin_keep(kind_grid, limit, want, v.players, seat, shift)
    return _explored(v, weight, table, policy, seat, shift, keep, chunk)


def _read_thin(model: AuctionModel, limit: np.ndarray, table: np.ndarray, policy: str, seed: int, deals: int,
               run: Run, least: int = COVER_CONTRACTS, fewest: int = COVER_LEAST, rounds: int = THIN_ROUNDS):
    """Read the thin gaps near the limits (:func:`_thin`) on, into ``model``'s counts: rounds of
    ``deals`` auctions (seeds ``seed``, ``seed + 1``, ...) at the read's limits (``table``, gap
    indices ``limit``), in blocks of :data:`THIN_BLOCK` deals in which one seat (each in turn)
    explores, its limits moved up far enough to reach every gap wanted, and only its contracts
    at those gaps are played out (the other deals stop after the auction, which costs little).
    A seat that explores upwards wins every contract it would have won at its limit, at the
    same bid in the same auction, and more above it, so a gap's contracts are drawn as the
    read's are. Stops when no gap is thin, after ``rounds`` rounds, or when a round finds no
    contract at any gap still wanted (those are left to the logistic, and :func:`coverage` says
    so). Yields a history entry per round."""
    v = model.variant
    dead = np.zeros(model.contracts.shape, bool)
    for r in range(rounds):
        want = _thin(model, least, fewest) & ~dead & (limit >= 0)[..., None]  # (a curve that never bids wins none)
        if not want.any():
            return
        s, k, g = np.nonzero(want)
        shift = int(max(0, (g - limit[s, k]).max()))
        fn = partial(_thin_chunk, v, model.weight, table, policy, model.kind_grid, limit, want, shift)
        parts = [c for _, c in run.map(fn, chunks_of(seed + r, 0, deals, THIN_BLOCK), tag=f"thin {r + 1}")]
        c = _joined(parts)
        made, n = _tally(model, c, c["made"], 1)
        # (only wanted gaps are played out; this drops a contract a rounding error put next door)
        n, made = np.where(want, n, 0), np.where(want, made, 0)
        model.made += made
        model.contracts += n
        model.explored += n
        model.__dict__.pop("fitted", None)
        dead |= want & (n == 0)
        yield {"iteration": f"thin {r + 1}", "contracts": int(n.sum()), "explored": int(n.sum()),
               "deals": deals, "gaps_wanted": int(want.sum()), "shift_raises": shift,
               "reach": model.reach().tolist()}


def auction_model(v: Variant | str, confidence: float = 0.67, deals: int = 200_000, seed: int = 7919,
                  anchor: str = "table", max_iterations: int = 12, tolerance: float = 1.0,
                  policy: str = DEFAULT_POLICY, explore: float = EXPLORE_SHARE,
                  progress: bool = False, where: Where | None = None) -> AuctionModel:
    """Build the auction-aware model by iteration: every seat bids from the model (some seats
    exploring, see :func:`_observe`), the auctions are played out, and the contracts' outcomes
    (by situation, kind and gap) are averaged into the model, until the reach of every curve
    moves less than ``tolerance`` raises (or ``max_iterations``). Iteration ``k`` plays deals of
    seed ``seed + k``; iteration 1 bids from the made-to-declare estimate alone (reach 0: bid up
    to what the hand is worth). The model is then read afresh from :data:`READ_FACTOR` times as
    many auctions at the settled limits (seed ``seed + 1000``), and checked by kind of hand
    (:func:`kinds_check`) in auctions at its own limits that it was not read from (seed
    ``seed + 2000``, nobody exploring). ``where``: where the chunks of auctions run, and whether
    an interrupted fit can be resumed (:mod:`pinochle_sim.runs`)."""
    v = variant(v) if isinstance(v, str) else v
    base = cached_stats(v, deals, seed, policy, where=where)
    identity = {"command": "auction_model", "variant": v.spec, "confidence": confidence, "deals": deals,
                "seed": seed, "anchor": anchor, "max_iterations": max_iterations, "tolerance": tolerance,
                "policy": policy, "explore": explore}
    with Run(where, identity, "auctions", progress) as run:  # each round of auctions a map of it
        shape = (N_SITUATIONS, len(KINDS), 2 * GAP_RAISES + 1)
        weight, anchor_grid = _anchor(base, anchor, confidence)
        model = AuctionModel(v, confidence, weight, anchor_grid, np.zeros(shape), np.zeros(shape))
        table = np.ascontiguousarray(np.broadcast_to(anchor_grid, (N_SITUATIONS, *anchor_grid.shape)))
        reach = np.zeros((N_SITUATIONS, len(KINDS)))
        history = []

        def log(entry: dict) -> None:
            history.append(entry)
            if progress:
                print(f"{entry['iteration']}: {entry['contracts']:,} contracts; reach by situation "
                      f"{np.round(entry['reach'], 1).tolist()}; moved {entry['moved_raises']:.1f} raises")

        for k in range(1, max_iterations + 1):
            made, n, explored, _ = _observe(model, table, policy, seed + k, deals, explore, run, f"iteration {k}")
            # the new auctions count as much as all before them: a best response to one model alone
            # overshoots and oscillates; the average settles where its own auctions confirm it
            decay = 0.5 if k > 1 else 0.0
            model = AuctionModel(v, confidence, weight, anchor_grid, decay * model.made + made,
                                 decay * model.contracts + n)
            new = model.reach()
            log({"iteration": k, "contracts": int(n.sum()), "explored": int(explored.sum()),
                 "reach": new.tolist(), "moved_raises": _moved(new, reach, v)})
            reach = new
            weight, table = model.limits()
            if history[-1]["moved_raises"] < tolerance:
                break
        made, n, explored, _ = _observe(model, table, policy, seed + 1000, READ_FACTOR * deals, explore, run, "read")
        read = AuctionModel(v, confidence, weight, anchor_grid, made, n, explored)
        log({"iteration": "read", "contracts": int(n.sum()), "explored": int(explored.sum()),
             "reach": read.reach().tolist(), "moved_raises": _moved(read.reach(), reach, v)})
        for entry in _read_thin(read, model.limit_index(), table, policy, seed + 3000, READ_FACTOR * deals, run):
            log(entry | {"moved_raises": _moved(read.reach(), reach, v)})
        read.history = history
        # checked on auctions it was not read from, nobody exploring
        weight, table = read.limits()
        read.kinds = kinds_check(read, _observe(read, table, policy, seed + 2000, deals, 0.0, run, "check")[3]
                                 ).to_dict("records")
        return read


def _moved(new: np.ndarray, old: np.ndarray, v: Variant) -> float:
    """The largest move of a curve's reach, in raises (a reach appearing or vanishing: 1e9)."""
    same = (new == old) | (np.isinf(new) & np.isinf(old))
    return float(np.where(same, 0, np.abs(np.nan_to_num(new - old, posinf=1e9, neginf=1e9))).max()
                 / v.raise_min)


#: The kinds of hand the check tells apart, finer than :data:`KINDS`: trump length, and how much
#: of the hand's estimate is meld rather than cards that take tricks.
CHECKED_KINDS = {"trumps": ((0, 6, "up to 5 trumps"), (6, 7, "6 trumps"), (7, 99, "7 trumps or more")),
                 "meld_share": ((-9, 1 / 3, "meld under 1/3 of the estimate"), (1 / 3, 2 / 3, "meld 1/3 to 2/3"),
                                (2 / 3, 99, "meld over 2/3 of the estimate"))}


def kinds_check(model: AuctionModel, c: dict[str, np.ndarray], least: int = 2000) -> pd.DataFrame:
    """Are the model's curves enough? Per situation and kind of hand (:data:`CHECKED_KINDS`) with
    at least ``least`` contracts ``c``: the model's mean chance against the share made, the
    difference with its standard error and ``z``. A kind the curves misjudge shows as a
    difference of several standard errors. The share of meld is of the bid with the table anchor
    (which holds the meld), else of the estimate to the nearest raise."""
    p = model.p_make(c["situation"], c["bid"], c["meld"], c["aces"], c["tens"], c["trumps"])
    if model.weight == 0:
        share = c["meld"] / np.maximum(c["bid"], 1)
    else:
        mu = c["bid"] - (model.gap(c["bid"], c["meld"], c["aces"], c["tens"], c["trumps"]) - GAP_RAISES) \
            * model.variant.raise_min
        share = np.where(mu > 0, model.weight * c["meld"] / np.maximum(mu, 1), 0.0)
    feature = {"trumps": c["trumps"].astype(float), "meld_share": share}
    rows = []
    for s, name in enumerate(SITUATIONS):
        at = c["situation"] == s
        for key, groups in CHECKED_KINDS.items():
            for lo, hi, label in groups:
                sel = at & (feature[key] >= lo) & (feature[key] < hi) & np.isfinite(p)
                k = int(sel.sum())
                if k < least:
                    continue
                made = c["made"][sel].astype(float)
                diff = made.mean() - p[sel].mean()
                se = math.sqrt(made.mean() * (1 - made.mean()) / k) or 1 / k
                rows.append({"situation": name, "kind": label, "contracts": k,
                             "predicted": float(p[sel].mean()), "made": float(made.mean()),
                             "diff": float(diff), "se": se, "z": float(diff / se)})
    return pd.DataFrame(rows)


def cached_auction_model(v: Variant | str, confidence: float = 0.67, deals: int = 200_000,
                         seed: int = 7919, anchor: str = "table", policy: str = DEFAULT_POLICY,
                         where: Where | None = None, progress: bool = False) -> AuctionModel:
    """:func:`auction_model`, kept on disk for next time (see :func:`cache_path`)."""
    v = variant(v) if isinstance(v, str) else v
    path = cache_path("auction", v.spec, confidence, deals, seed, anchor, policy)
    if path.exists():
        return AuctionModel.load(path, v, confidence)
    m = auction_model(v, confidence, deals, seed, anchor, policy=policy, where=where, progress=progress)
    store(path, m.save)
    return m


def _curves(model: AuctionModel):
    """Each curve of the model with contracts: (situation, its name, kind, its name)."""
    for s, sit in enumerate(SITUATIONS):
        for k, kind in enumerate(KINDS):
            if model.contracts[s, k].sum():
                yield s, sit, k, kind


def auction_table(model: AuctionModel) -> pd.DataFrame:
    """The model as a table: per auction situation, kind of hand and gap (bid minus the hand's
    made-to-declare estimate, in points) where contracts were seen or within
    :data:`READ_RAISES` raises of the curve's limit: the contracts behind it (from the last round
    of auctions), how many of them exploring seats won, the share made with its 95% Wilson
    interval, and the model's never-rising ``p`` with its interval and where it comes from
    (``read``: the contracts at that gap; ``logistic``: none there, the curve's logistic in the
    gap)."""
    v = model.variant
    rows = []
    f = model.fitted
    limit = model.limit_index()
    for s, sit, k, kind in _curves(model):
        n, m, x = model.contracts[s, k], model.made[s, k], model.explored[s, k]
        lo, hi = wilson(m, n)
        near = np.zeros(len(n), bool)
        if limit[s, k] >= 0:
            near[max(limit[s, k] - READ_RAISES, 0):limit[s, k] + READ_RAISES + 1] = True
        for g in np.nonzero((n > 0) | near)[0]:
            seen = n[g] > 0
            rows.append({"situation": sit, "kind": kind, "gap": int((g - GAP_RAISES) * v.raise_min),
                         "contracts": int(n[g]), "explored": int(x[g]),
                         "made": float(m[g] / n[g]) if seen else np.nan,
                         "made_low": float(lo[g]) if seen else np.nan,
                         "made_high": float(hi[g]) if seen else np.nan,
                         "p": float(f["p"][s, k, g]), "p_low": float(f["low"][s, k, g]),
                         "p_high": float(f["high"][s, k, g]),
                         "source": "read" if f["read"][s, k, g] else "logistic"})
    return pd.DataFrame(rows)


def coverage(model: AuctionModel, least: int = COVER_CONTRACTS, raises: int = READ_RAISES) -> pd.DataFrame:
    """Per situation that won at least ``least`` contracts in the model's read: the contracts at
    each gap from ``raises`` raises below the limit to ``raises`` above, each curve (kind of
    hand) counted about its own limit, the fewest of those and whether the chance at every one
    of them is read from contracts (``unread``: how many curve gaps are not, left to the
    logistic); and the reach and the chance at the limit of each curve (``reach`` and
    ``p_at_limit``, lists in the order of :data:`KINDS`)."""
    f = model.fitted
    reach, limit, near = model.reach(), model.limit_index(), _near(model, raises)
    rows = []
    for s, sit in enumerate(SITUATIONS):
        if model.contracts[s].sum() < least:
            continue
        live = near[s, :, 0] >= 0
        idx = near[s, live]
        n = np.take_along_axis(model.contracts[s, live], idx, -1)
        unread = int((~np.take_along_axis(f["read"][s, live], idx, -1)).sum())
        rows.append({"situation": sit, "contracts": int(model.contracts[s].sum()),
                     "fewest_near_limit": int(n.sum(0).min()) if live.any() else 0, "all_read": unread == 0,
                     "unread": unread, "reach": [float(r) for r in reach[s]],
                     "p_at_limit": [float(f["p"][s, k, i]) if i >= 0 else None for k, i in enumerate(limit[s])]})
    return pd.DataFrame(rows)


def winner_rows(v: Variant, bidding, policy: str, chunk: Chunk) -> np.ndarray:
    """The rows (int64) of one chunk of auctions under ``bidding`` that someone won."""
    rows = play_rows(Loop.build(v, bidding, policy), chunk.seed, chunk.start, chunk.count)
    return rows[rows[:, THROWN] == 0].astype(np.int64)


def auction_summary(bidding, stats: DeclarerStats, deals: int | None = None, seed: int = 1,
                    policy: str = DEFAULT_POLICY, where: Where | None = None,
                    progress: bool = False, rule: pd.DataFrame | None = None) -> pd.DataFrame:
    """What auction winners bring, by the situation of the winning bid, when every seat bids by
    ``bidding`` (the kernels' :class:`~pinochle_sim.engine.auction.Bidding`, e.g. a strategy's as
    ``simulate.Setup(v, bidding=s).bid``, or an :class:`AuctionModel`'s limits): contracts, the share of all
    deals, the mean bid, the share made, the mean side total and how far it sits above the
    made-to-declare rule of thumb of ``stats`` (meld + a + b aces + c tens + d trumps: the
    auction-situation version of that rule), the partner's meld, and what the defenders bank;
    means with standard errors. ``deals``: as many auctions as ``stats`` has deals, at most
    200,000. ``where``: where the chunks of auctions run (:mod:`pinochle_sim.runs`); ``rule``: the
    rule of thumb of ``stats``, if already fitted."""
    deals = min(stats.deals, 200_000) if deals is None else deals
    v = stats.variant
    bd = fixed_bidding(v, *bidding.limits()) if isinstance(bidding, AuctionModel) else bidding
    limits = hashlib.sha1(b"".join(np.ascontiguousarray(x).tobytes() for x in bd)).hexdigest()
    identity = {"command": "auction_summary", "variant": v.spec, "policy": policy, "seed": seed,
                "deals": deals, "bidding": limits}
    with Run(where, identity, "auctions", progress) as run:
        parts = [x for _, x in run.map(partial(winner_rows, v, bd, policy), chunks_of(seed, 0, deals, 1 << 16))]
    r = np.concatenate(parts) if parts else np.empty((0, len(COLUMNS)), np.int64)
    rule = _rule_grid(stats, rule)[0]
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
