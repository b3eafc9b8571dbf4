"""Matches to the target score, duplicate tournaments between bidding strategies, and the
calibration of the table strategy's predictions.

A match plays hands until the variant's game-end rule says it is over (:func:`game_over`):
scores are compared only at the end of a hand; a side at or past the target wins; if both
are, ``higher_wins`` (``thousand``: the higher score wins, an exact tie plays on) or
``bidder_wins`` (the bidding side wins); in ``thousand`` a side at -1000 or lower ends the
match after that hand, the higher score winning. Thrown-in hands pass the deal; the deal
rotates. Hand ``h`` of match ``m`` is deal ``m * MAX_HANDS + h`` of the seed (its dealer is that
number modulo the seats: the deal moves left each hand), so the same match index gives the same
cards whoever sits where.

Duplicate play: each pairing of strategies meets on the same matches twice, seats swapped
(strategy A holds team 0's cards, then team 1's), so the luck of the cards cancels. Three-hand
has no teams: three strategies sit at one table and play the same matches in each rotation of
the seats (:func:`round_table`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from .. import __version__
from .._numba import ijit, in_spans, njit
from ..runs import HERE, Chunk, Run, Where, chunks_of
from ..engine.auction import MAX_CARDS, MAX_TRUMPS, N_BANDS, SITUATIONS
from ..engine.hand import BID, BIDDER, COLUMNS, MADE, SCORE0, THROWN, play_block, samples, side_of, workspace
from .simulate import Setup
from .stats import wilson
from .strategies import Strategy, strategy
from ..engine.variants import BOTH_PAST, R, Variant, variant
from ..engine.tricks import DEFAULT_POLICY, in_full

_N_COLUMNS = len(COLUMNS)
MAX_HANDS = 256  # a match still undecided after this many hands is a draw (none seen so far)
NO_SET_OUT = -(1 << 60)
#: A match's summary, for up to three sides (a variant's frame keeps its own sides' columns).
MATCH_COLUMNS = ("winner", "hands", "score_0", "score_1", "score_2", "contracts_0", "contracts_1",
                 "contracts_2", "sets_0", "sets_1", "sets_2", "bids_0", "bids_1", "bids_2")
_SCORE, _CONTRACTS, _SETS, _BIDS = 2, 5, 8, 11


def match_columns(v: Variant) -> list[str]:
    """The columns of variant ``v``'s match frame (one of each per side)."""
    return [c for c in MATCH_COLUMNS if not c[-1].isdigit() or int(c[-1]) < v.teams]


@njit
def _highest(score, among):
    """The side with the highest score of those in ``among`` (bool per side), or -1 on a tie."""
    best = -1
    tie = False
    for t in range(score.shape[0]):
        if among[t]:
            if best < 0 or score[t] > score[best]:
                best = t
                tie = False
            elif score[t] == score[best]:
                tie = True
    return -1 if tie else best


@njit
def game_over(score, bidder_side, target, higher_wins, set_out):
    """The winning side after a hand, or -1 to play on (RULES.md, game end): a side alone at or
    past the target wins; of several, the bidding side if it is one of them (``bidder_wins``),
    else the highest score, a tie playing on; a side at or below ``set_out`` ends the match,
    the highest score winning (a tie plays on)."""
    past = score >= target
    n_past = 0
    last = -1
    for t in range(score.shape[0]):
        if past[t]:
            n_past += 1
            last = t
    if n_past == 1:
        return last
    if n_past > 1:
        if not higher_wins and bidder_side >= 0 and past[bidder_side]:
            return bidder_side
        return _highest(score, past)
    if (score <= set_out).any():
        return _highest(score, np.ones(score.shape[0], np.bool_))
    return -1


@ijit
def play_match(seed, m, tb, bd, policy, target, higher_wins, set_out, w, rows, out):
    """Play match ``m`` to its end, each hand's summary in ``rows[0]`` (int32[1, len(COLUMNS)]);
    ``out`` receives ``MATCH_COLUMNS``."""
    sides = tb.rules[R.teams]
    score = np.zeros(sides, np.int64)
    out[:] = 0
    out[0] = -1
    row = rows[0]
    for h in range(MAX_HANDS):
        play_block(seed, m * MAX_HANDS + h, 0, 1, -1, tb, bd, policy, w, rows)
        out[1] = h + 1
        if row[THROWN]:
            continue
        bt = tb.team[row[BIDDER]]
        for t in range(sides):
            score[t] += row[SCORE0 + t]
        out[_CONTRACTS + bt] += 1
        out[_SETS + bt] += row[MADE] == 0
        out[_BIDS + bt] += row[BID]
        winner = game_over(score, bt, target, higher_wins, set_out)
        if winner >= 0:
            out[0] = winner
            break
    for t in range(sides):
        out[_SCORE + t] = score[t]


@njit
def _play_matches(seed, start, lo, hi, tb, bd, policy, search, max_calls, target, higher_wins, set_out, out):
    for m in range(lo, hi):
        w = workspace(tb, max_calls, search, bd)
        rows = np.empty((1, _N_COLUMNS), np.int32)
        play_match(seed, start + m, tb, bd, policy, target, higher_wins, set_out, w, rows, out[m])


def end_rules(v: Variant) -> tuple[int, bool, int]:
    """A match's end as the kernel reads it: the target, whether the higher score wins when both
    sides pass it, and the score that sets a side out (``NO_SET_OUT``: none)."""
    return v.target, v.both_past == BOTH_PAST[0], NO_SET_OUT if v.set_out is None else v.set_out


def match_chunk(setup: Setup, chunk: Chunk) -> np.ndarray:
    """The rows of one chunk of matches (every column of ``MATCH_COLUMNS``)."""
    out = np.empty((chunk.count, len(MATCH_COLUMNS)), np.int64)
    target, higher, set_out = end_rules(setup.variant)
    loop = setup.loop  # no forced bidder in a match
    in_spans(chunk.count, lambda lo, hi: _play_matches(np.uint64(chunk.seed), np.int64(chunk.start), lo, hi,
                                                       loop.tables, loop.bidding, loop.policy, loop.search,
                                                       loop.max_calls, target, higher, set_out, out))
    return out


MATCH_CHUNK = 2048


def play_matches(v: Variant | str, *sides: Strategy | str, matches: int = 1, seed: int = 0,
                 start: int = 0, policy: str = DEFAULT_POLICY, run: Run | None = None,
                 tag: str = "") -> pd.DataFrame:
    """Play ``matches`` matches, one strategy per side: in four-hand the first in seats 0 and 2,
    the second in 1 and 3; in three-hand one per seat. ``run``: where the chunks of matches go
    (:mod:`pinochle_sim.runs`; ``tag`` names this set of matches among the run's).

    One row per match: :func:`match_columns` (``winner`` -1: undecided after ``MAX_HANDS`` hands).
    """
    v = variant(v) if isinstance(v, str) else v
    strats = [strategy(s) for s in sides]
    if len(strats) != v.teams:
        raise ValueError(f"{v.name} has {v.teams} sides: give {v.teams} strategies")
    if matches < 0 or start < 0:
        raise ValueError(f"matches {start}..{start + matches - 1}: a first match and a count of at least 0")
    setup = Setup(v, policy, [strats[v.team(p)] for p in range(v.players)])
    chunks = chunks_of(seed, start, matches, MATCH_CHUNK, sampling=samples(setup.loop.policy))
    if run is None:
        with Run(HERE, {}, "matches") as here:
            parts = [x for _, x in here.map(partial(match_chunk, setup), chunks)]
    else:
        parts = [x for _, x in run.map(partial(match_chunk, setup), chunks, tag=tag)]
    out = np.concatenate(parts) if parts else np.empty((0, len(MATCH_COLUMNS)), np.int64)
    names = match_columns(v)
    df = pd.DataFrame(out[:, [MATCH_COLUMNS.index(c) for c in names]], columns=names)
    df.insert(0, "match", np.arange(start, start + matches))
    return df


@dataclass
class Pairing:
    """Two strategies' duplicate matches: ``a_first`` has A as team 0, ``b_first`` B as team 0."""

    a: str
    b: str
    a_first: pd.DataFrame
    b_first: pd.DataFrame

    def summary(self) -> dict:
        """A's win rate against B with its 95% interval, score margin per hand, set rates,
        average winning bids and hands per match (each per duplicate pair of matches)."""
        x, y = self.a_first, self.b_first
        wins = ((x.winner == 0).astype(float) + (x.winner < 0) * 0.5
                + (y.winner == 1).astype(float) + (y.winner < 0) * 0.5) / 2
        margin = ((x.score_0 - x.score_1) / x.hands + (y.score_1 - y.score_0) / y.hands) / 2
        n = len(wins)
        se = wins.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
        mse = margin.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")

        def rate(num, den):
            return float(num.sum() / den.sum()) if den.sum() else float("nan")
        return {
            "a": self.a, "b": self.b, "matches": 2 * n, "win_rate_a": float(wins.mean()),
            "win_rate_se": se, "ci_low": float(wins.mean() - 1.96 * se),
            "ci_high": float(wins.mean() + 1.96 * se),
            "margin_per_hand_a": float(margin.mean()), "margin_se": mse,
            "set_rate_a": rate(x.sets_0 + y.sets_1, x.contracts_0 + y.contracts_1),
            "set_rate_b": rate(x.sets_1 + y.sets_0, x.contracts_1 + y.contracts_0),
            "avg_bid_a": rate(x.bids_0 + y.bids_1, x.contracts_0 + y.contracts_1),
            "avg_bid_b": rate(x.bids_1 + y.bids_0, x.contracts_1 + y.contracts_0),
            "hands_per_match": float((x.hands.sum() + y.hands.sum()) / (2 * n)),
            "undecided": int((x.winner < 0).sum() + (y.winner < 0).sum()),
        }


def duplicate(v: Variant | str, a: str | Strategy, b: str | Strategy, matches: int, seed: int = 0,
              policy: str = DEFAULT_POLICY, run: Run | None = None) -> Pairing:
    """``matches`` duplicate pairs of matches between strategies ``a`` and ``b``."""
    sa, sb = strategy(a), strategy(b)
    return Pairing(sa.spec, sb.spec,
                   play_matches(v, sa, sb, matches=matches, seed=seed, policy=policy, run=run,
                                tag=f"{sa.spec}|{sb.spec}"),
                   play_matches(v, sb, sa, matches=matches, seed=seed, policy=policy, run=run,
                                tag=f"{sb.spec}|{sa.spec}"))


@dataclass
class Tournament:
    variant: Variant
    strategies: list[str]
    matches: int
    seed: int
    policy: str
    pairings: list[Pairing]

    @property
    def table(self) -> pd.DataFrame:
        """One row per pairing (see :meth:`Pairing.summary`)."""
        return pd.DataFrame([p.summary() for p in self.pairings])

    def payoff(self, value: str = "margin_per_hand_a") -> tuple[pd.DataFrame, pd.DataFrame]:
        """Round-robin matrices: row strategy against column strategy, and standard errors.

        ``value``: ``margin_per_hand_a`` (points per hand) or ``win_rate_a`` (minus one half).
        """
        se_col = "margin_se" if value == "margin_per_hand_a" else "win_rate_se"
        names = self.strategies
        m = pd.DataFrame(np.nan, index=names, columns=names)
        s = m.copy()
        for r in self.table.itertuples():
            x = getattr(r, value) - (0.5 if value == "win_rate_a" else 0.0)
            m.loc[r.a, r.b], m.loc[r.b, r.a] = x, -x
            s.loc[r.a, r.b] = s.loc[r.b, r.a] = getattr(r, se_col)
        for name in names:
            m.loc[name, name], s.loc[name, name] = 0.0, 0.0
        return m, s

    def provenance(self) -> dict:
        return {"variant": self.variant.spec, "strategies": self.strategies,
                "matches_per_pairing": 2 * self.matches, "seed": self.seed,
                "play_policy": self.policy, "play_policy_in_full": in_full(self.policy, self.variant.name),
                "duplicate": True, "version": __version__}


@dataclass
class RoundTable:
    """Three-hand: every three of the strategies at one table, on the same ``matches`` matches
    once per rotation of the seats, so that each strategy sits in each seat on the same cards.
    ``frames[(i, j, k)][r]``: the matches of rotation ``r`` (seat ``p`` plays strategy
    ``(i, j, k)[(p + r) % 3]``)."""

    variant: Variant
    strategies: list[str]
    matches: int
    seed: int
    policy: str
    frames: dict

    @property
    def table(self) -> pd.DataFrame:
        """Per table of three and strategy: its win rate with a 95% interval (a third is even;
        an undecided match counts a third), its score margin per hand over the mean of the other
        two seats (± s.e.), set rate, average winning bid and hands per match. The unit of the
        intervals is a match index: its rotations play the same cards."""
        rows = []
        for trio, frames in self.frames.items():
            for slot, who in enumerate(trio):
                wins = np.zeros(self.matches)
                margin = np.zeros(self.matches)
                sets = contracts = bids = hands = 0
                for r, df in enumerate(frames):
                    seat = (slot - r) % 3
                    won = (df.winner == seat).to_numpy() + (df.winner < 0).to_numpy() / 3
                    score = df[[f"score_{p}" for p in range(3)]].to_numpy()
                    others = (score.sum(1) - score[:, seat]) / 2
                    wins += won / 3
                    margin += (score[:, seat] - others) / df.hands.to_numpy() / 3
                    sets += df[f"sets_{seat}"].sum()
                    contracts += df[f"contracts_{seat}"].sum()
                    bids += df[f"bids_{seat}"].sum()
                    hands += df.hands.sum()
                n = self.matches
                se = wins.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
                rows.append({
                    "table": " / ".join(self.strategies[k] for k in trio),
                    "strategy": self.strategies[who], "matches": 3 * n,
                    "win_rate": float(wins.mean()), "win_rate_se": se,
                    "ci_low": float(wins.mean() - 1.96 * se), "ci_high": float(wins.mean() + 1.96 * se),
                    "margin_per_hand": float(margin.mean()),
                    "margin_se": float(margin.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan"),
                    "set_rate": float(sets / contracts) if contracts else float("nan"),
                    "avg_bid": float(bids / contracts) if contracts else float("nan"),
                    "hands_per_match": float(hands / (3 * n)),
                })
        return pd.DataFrame(rows)

    def provenance(self) -> dict:
        return {"variant": self.variant.spec, "strategies": self.strategies,
                "matches_per_table": 3 * self.matches, "seed": self.seed, "play_policy": self.policy,
                "play_policy_in_full": in_full(self.policy, self.variant.name), "seats_rotated": True,
                "version": __version__}


def round_table(v: Variant, strats: list[Strategy], matches: int, seed: int = 0,
                policy: str = DEFAULT_POLICY, progress: bool = False, run: Run | None = None) -> RoundTable:
    """Three-hand tournament: every three of ``strats`` (all of them when there are three) play
    ``matches`` matches in each of the three rotations of the seats."""
    from itertools import combinations

    from ..progress import bar
    names = [s.spec for s in strats]
    if len(set(names)) != len(names) or len(strats) < 3:
        raise ValueError(f"a {v.name} tournament needs at least three different strategies "
                         "(one per seat)")
    trios = list(combinations(range(len(strats)), 3))
    frames = {}
    with bar(3 * len(trios), f"rotations ({matches:,} matches each)", progress, unit=" rotations") as pb:
        for trio in trios:
            frames[trio] = []
            for r in range(3):
                seated = [strats[trio[(p + r) % 3]] for p in range(3)]
                frames[trio].append(play_matches(v, *seated, matches=matches, seed=seed, policy=policy, run=run,
                                                 tag="|".join(s.spec for s in seated)))
                pb.update(1)
    return RoundTable(v, names, matches, seed, policy, frames)


def tournament(v: Variant | str, strategies: list[str | Strategy], matches: int = 2000,
               seed: int = 0, policy: str = DEFAULT_POLICY, progress: bool = False,
               where: Where | None = None) -> Tournament | RoundTable:
    """A duplicate round robin: every pair of strategies meets on the same ``matches`` matches
    twice, seats swapped. In three-hand, a :func:`round_table` instead. ``where``: a Dask
    cluster for the chunks of matches and whether the run can be resumed (:mod:`pinochle_sim.runs`)."""
    from ..progress import bar
    v = variant(v) if isinstance(v, str) else v
    strats = [strategy(s) for s in strategies]
    if matches < 2:
        raise ValueError(f"matches={matches}: a tournament needs two duplicate pairs a pairing or more, "
                         "for an interval")
    identity = {"command": "tournament", "variant": v.spec, "strategies": [s.spec for s in strats],
                "matches": matches, "seed": seed, "policy": policy}
    with Run(where, identity, "matches") as run:
        if v.teams == 3:
            return round_table(v, strats, matches, seed, policy, progress, run)
        names = [s.spec for s in strats]
        if len(set(names)) != len(names) or len(strats) < 2:
            raise ValueError("a tournament needs at least two different strategies")
        pairs = [(i, j) for i in range(len(strats)) for j in range(i + 1, len(strats))]
        out = []
        with bar(len(pairs), f"pairings ({2 * matches:,} matches each)", progress, unit=" pairings") as pb:
            for i, j in pairs:
                out.append(duplicate(v, strats[i], strats[j], matches, seed, policy, run))
                pb.update(1)
    return Tournament(v, names, matches, seed, policy, out)


# ------------------------------------------------------------------------------------------
# Calibration of the table strategy: predicted chance of making the contract against outcome.

#: Contracts a calibration cell needs before its gap is held to 2 points (smaller cells say so).
MIN_CALIBRATION = 2000


@dataclass
class Calibration:
    """A strategy's own chance of making each contract it took, against the outcome: ``bins``
    (:func:`calibration_table`), per auction situation (``situations``) and at the margin
    (``margin``: the contracts bid at the bidder's limit, where the strategy's confidence is
    spent), with the Brier score of each (the mean squared error of the chance; ``brier_base``:
    that of the share made overall, the score of saying the same chance for every contract).
    ``provenance``: what was played."""

    bins: pd.DataFrame
    situations: pd.DataFrame
    margin: pd.DataFrame
    brier: float
    brier_base: float
    provenance: dict


def calibration(v: Variant | str, strat: str | Strategy = "auction", deals: int = 100_000,
                seed: int = 0, bins: int = 10, policy: str = DEFAULT_POLICY,
                where: Where | None = None, against: str | Strategy | None = None) -> Calibration:
    """``strat``'s side bids with it (every seat, or with ``against`` the other seats bid with
    that: the opponents in four-hand, the two other seats in three-hand); for each contract a
    seat bidding with ``strat`` chose, the chance its estimate gave of making it (given the
    hand and, for ``auction``, the auction), against how often it was made
    (:class:`Calibration`). A forced opening or a stuck dealer's contract was not chosen, and is
    left out."""
    from .simulate import play
    v = variant(v) if isinstance(v, str) else v
    s = strategy(strat)
    if not hasattr(s, "predict"):
        raise ValueError(f"calibration needs a strategy with its own estimate (auction, table, cautious, "
                         f"aggressive), not {s.name}")
    other = s if against is None else strategy(against)
    mine = [seat for seat in range(v.players) if against is None or side_of(v, seat) == 0]
    seats = [s if seat in mine else other for seat in range(v.players)]
    setup = Setup(v, policy, seats)
    df = play(setup, deals, seed, where=where)
    df = df[~df.thrown_in & (df.bid_situation >= 0) & df.bidder.isin(mine)]
    predicted = s.predict(df, v)
    made = (df.made == 1).to_numpy()
    at_margin = df.bid.to_numpy() + v.raise_min > _limit(setup, df)
    sit = df.bid_situation.to_numpy()
    keep = np.isfinite(predicted)
    base = made[keep].mean() if keep.any() else np.nan
    return Calibration(
        calibration_table(predicted, made, bins),
        _by_situation(predicted, made, sit, np.ones_like(made, bool)),
        _by_situation(predicted, made, sit, at_margin),
        _brier(predicted[keep], made[keep]), _brier(np.full(keep.sum(), base), made[keep]),
        setup.provenance(seed, deals) | {"strategy": s.spec,
                                         "against": other.spec if against is not None else None})


def _limit(setup: Setup, df: pd.DataFrame) -> np.ndarray:
    """The most each contract's bidder would have bid in the situation it won in (its limit less
    the partner margin when it outbid its partner), from the kernels' bidding tables."""
    bd = setup.bid
    seat = df.bidder.to_numpy().astype(np.int64)
    meld = df.bid_meld.to_numpy().astype(np.int64)
    sit = df.bid_situation.to_numpy().astype(np.int64)
    table = bd.table[bd.which[seat], np.minimum(meld // bd.band, N_BANDS - 1),
                     np.minimum(df.bid_aces.to_numpy(), MAX_CARDS - 1),
                     np.minimum(df.bid_tens.to_numpy(), MAX_CARDS - 1),
                     np.minimum(df.bid_trumps.to_numpy(), MAX_TRUMPS - 1), sit]
    return bd.weight[seat] * meld + table - np.where(sit == 1, bd.margin[seat], 0.0)


def _brier(predicted: np.ndarray, made: np.ndarray) -> float:
    return float(np.mean((predicted - made) ** 2)) if len(made) else float("nan")


def _cell(predicted: np.ndarray, made: np.ndarray) -> dict:
    """One cell of a calibration table (non-empty): how many contracts, the mean chance
    predicted, the share made with its standard error and 95% Wilson interval."""
    n = len(made)
    p = float(made.mean())
    lo, hi = wilson(made.sum(), n)
    return {"contracts": n, "predicted": float(predicted.mean()), "made": p, "se": math.sqrt(p * (1 - p) / n),
            "made_low": float(lo), "made_high": float(hi)}


def _by_situation(predicted: np.ndarray, made: np.ndarray, sit: np.ndarray, sel: np.ndarray) -> pd.DataFrame:
    """Per auction situation (and all together), over the contracts ``sel``: a calibration cell
    (:func:`_cell`) and its Brier score."""
    sel = sel & np.isfinite(predicted)
    made = made.astype(float)
    rows = []
    for name, where_ in [*((n, sit == k) for k, n in enumerate(SITUATIONS)), ("all", np.ones_like(sel))]:
        w = sel & where_
        if w.any():
            rows.append({"situation": name, **_cell(predicted[w], made[w]), "brier": _brier(predicted[w], made[w])})
    return pd.DataFrame(rows)


def calibration_table(predicted: np.ndarray, made: np.ndarray, bins: int = 10) -> pd.DataFrame:
    """Predicted chances binned (``bins`` equal bins of [0, 1]) against the share made: per bin
    the contracts, the mean prediction, the share made with its standard error and 95% Wilson
    interval (``made_low``, ``made_high``). NaN predictions are left out.

    >>> t = calibration_table(np.array([0.72, 0.75, 0.95]), np.array([1, 0, 1]))
    >>> t[["bin", "contracts", "made"]].values.tolist()
    [['0.7-0.8', 2, 0.5], ['0.9-1.0', 1, 1.0]]
    """
    keep = np.isfinite(predicted)
    predicted, made = predicted[keep], np.asarray(made, float)[keep]
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(predicted, edges) - 1, 0, bins - 1)
    rows = [{"bin": f"{edges[k]:.1f}-{edges[k + 1]:.1f}", **_cell(predicted[which == k], made[which == k])}
            for k in range(bins) if (which == k).any()]
    return pd.DataFrame(rows)
