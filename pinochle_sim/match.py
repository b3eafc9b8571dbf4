"""Matches to the target score, duplicate tournaments between bidding strategies, and the
calibration of the table strategy's predictions.

A match plays hands until the variant's game-end rule says it is over (:func:`game_over`):
scores are compared only at the end of a hand; a side at or past the target wins; if both
are, ``higher_wins`` (``thousand``: the higher score wins, an exact tie plays on) or
``bidder_wins`` (the bidding side wins); in ``thousand`` a side at -1000 or lower ends the
match after that hand, the higher score winning. Thrown-in hands pass the deal; the deal
rotates. Hand ``h`` of match ``m`` is deal ``m * MAX_HANDS + h`` of the seed, so its dealer
is seat ``h % 4`` and the same match index gives the same cards whoever sits where.

Duplicate play: each pairing of strategies meets on the same matches twice, seats swapped
(strategy A holds team 0's cards, then team 1's), so the luck of the cards cancels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import prange

from . import __version__
from ._numba import njit, pnjit
from .simulate import BID, BIDDER, COLUMNS, MADE, SCORE0, THROWN, Setup, play_deal, workspace
from .strategies import DEFAULT_BIDDING, Strategy, strategy
from .variants import BOTH_PAST, Variant, variant

_N_COLUMNS = len(COLUMNS)
MAX_HANDS = 256  # a match still undecided after this many hands is a draw (none seen so far)
NO_SET_OUT = -(1 << 60)
MATCH_COLUMNS = ("winner", "hands", "score_0", "score_1", "contracts_0", "contracts_1", "sets_0",
                 "sets_1", "bids_0", "bids_1")


@njit
def game_over(score0, score1, bidder_team, target, higher_wins, set_out):
    """The winning team (0 or 1) after a hand, or -1 to play on (RULES.md, game end)."""
    past0 = score0 >= target
    past1 = score1 >= target
    if past0 and past1:
        if higher_wins:
            if score0 != score1:
                return 0 if score0 > score1 else 1
            return -1  # an exact tie plays on
        if bidder_team >= 0:
            return bidder_team
        return 0 if score0 > score1 else (1 if score1 > score0 else -1)
    if past0:
        return 0
    if past1:
        return 1
    if score0 <= set_out or score1 <= set_out:
        if score0 != score1:
            return 0 if score0 > score1 else 1
    return -1


@njit
def play_match(seed, m, mv, run_mode, extra_kq, points, rules, bid_weight, bid_table, margin,
               band, policy, target, higher_wins, set_out, ws, row, out):
    """Play match ``m`` to its end; ``out`` receives ``MATCH_COLUMNS``."""
    hands, deck, calls, passes, tricks, tinfo, melds, worth, iw = ws
    score = np.zeros(2, np.int64)
    out[:] = 0
    out[0] = -1
    for h in range(MAX_HANDS):
        play_deal(seed, m * MAX_HANDS + h, -1, mv, run_mode, extra_kq, points, rules, bid_weight,
                  bid_table, margin, band, policy, hands, deck, calls, passes, tricks, tinfo,
                  melds, worth, iw, row)
        out[1] = h + 1
        if row[THROWN]:
            continue
        bt = row[BIDDER] % 2
        score[0] += row[SCORE0]
        score[1] += row[SCORE0 + 1]
        out[4 + bt] += 1
        out[6 + bt] += row[MADE] == 0
        out[8 + bt] += row[BID]
        w = game_over(score[0], score[1], bt, target, higher_wins, set_out)
        if w >= 0:
            out[0] = w
            break
    out[2] = score[0]
    out[3] = score[1]


@pnjit
def _play_matches(seed, start, n, mv, run_mode, extra_kq, points, rules, bid_weight, bid_table,
                  margin, band, policy, max_calls, target, higher_wins, set_out, out):
    for m in prange(n):
        ws = workspace(max_calls)
        row = np.empty(_N_COLUMNS, np.int32)
        play_match(seed, start + m, mv, run_mode, extra_kq, points, rules, bid_weight, bid_table,
                   margin, band, policy, target, higher_wins, set_out, ws, row, out[m])


def _end_rules(v: Variant) -> tuple[int, bool, int]:
    return v.target, v.both_past == BOTH_PAST[0], NO_SET_OUT if v.set_out is None else v.set_out


def play_matches(v: Variant | str, team0: Strategy | str, team1: Strategy | str, matches: int,
                 seed: int = 0, start: int = 0, policy: str = "heuristic") -> pd.DataFrame:
    """Play ``matches`` matches, ``team0``'s strategy in seats 0 and 2, ``team1``'s in 1 and 3.

    One row per match: ``MATCH_COLUMNS`` (``winner`` -1: undecided after ``MAX_HANDS`` hands).
    """
    v = variant(v) if isinstance(v, str) else v
    a, b = strategy(team0), strategy(team1)
    setup = Setup(v, policy, [a, b, a, b])
    out = np.empty((matches, len(MATCH_COLUMNS)), np.int64)
    target, higher, set_out = _end_rules(v)
    args = setup.args()[1:]  # no forced bidder in a match
    _play_matches(np.uint64(seed), np.int64(start), matches, *args, setup.max_calls, target,
                  higher, set_out, out)
    df = pd.DataFrame(out, columns=list(MATCH_COLUMNS))
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
              policy: str = "heuristic") -> Pairing:
    """``matches`` duplicate pairs of matches between strategies ``a`` and ``b``."""
    sa, sb = strategy(a), strategy(b)
    return Pairing(sa.spec, sb.spec, play_matches(v, sa, sb, matches, seed, policy=policy),
                   play_matches(v, sb, sa, matches, seed, policy=policy))


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
                "play_policy": self.policy, "duplicate": True, "version": __version__}


def tournament(v: Variant | str, strategies: list[str | Strategy], matches: int = 2000,
               seed: int = 0, policy: str = "heuristic", progress: bool = False) -> Tournament:
    """A duplicate round robin: every pair of strategies meets on the same ``matches`` matches
    twice, seats swapped."""
    from .progress import bar
    v = variant(v) if isinstance(v, str) else v
    strats = [strategy(s) for s in strategies]
    names = [s.spec for s in strats]
    if len(set(names)) != len(names) or len(strats) < 2:
        raise ValueError("a tournament needs at least two different strategies")
    pairs = [(i, j) for i in range(len(strats)) for j in range(i + 1, len(strats))]
    out = []
    with bar(len(pairs), f"pairings ({2 * matches:,} matches each)", progress, unit=" pairings") as pb:
        for i, j in pairs:
            out.append(duplicate(v, strats[i], strats[j], matches, seed, policy))
            pb.update(1)
    return Tournament(v, names, matches, seed, policy, out)


# ------------------------------------------------------------------------------------------
# One match, hand by hand.

def match_hands(v: Variant | str, seed: int, team0: str | Strategy = DEFAULT_BIDDING,
                team1: str | Strategy = DEFAULT_BIDDING, m: int = 0, policy: str = "heuristic") -> list[dict]:
    """The hand records of match ``m``, each with the running ``totals`` after it."""
    from .records import records
    v = variant(v) if isinstance(v, str) else v
    a, b = strategy(team0), strategy(team1)
    target, higher, set_out = _end_rules(v)
    totals = [0, 0]
    out = []
    for h in range(MAX_HANDS):
        rec = records(v, 1, seed, start=m * MAX_HANDS + h, policy=policy, bidding=[a, b, a, b])[0]
        totals = [totals[0] + rec["score"][0], totals[1] + rec["score"][1]]
        rec["totals"] = totals
        out.append(rec)
        if rec["bidder"] is not None:
            w = game_over(totals[0], totals[1], rec["bidder"] % 2, target, higher, set_out)
            if w >= 0:
                rec["winner"] = int(w)
                break
    return out


# ------------------------------------------------------------------------------------------
# Calibration of the table strategy: predicted chance of making the contract against outcome.

def calibration(v: Variant | str, strat: str | Strategy = "auction", deals: int = 100_000,
                seed: int = 0, bins: int = 10, policy: str = "heuristic") -> pd.DataFrame:
    """Every seat bids with ``strat`` (a strategy with its own estimate: ``auction``, ``table``,
    ``cautious``, ``aggressive``); for each contract a bidder chose, the chance that estimate gave
    of making it (given the hand and, for ``auction``, the auction), binned, against how often it
    was made (:func:`calibration_table`). A forced opening or a stuck dealer's contract was not
    chosen, and is left out."""
    from .simulate import play
    v = variant(v) if isinstance(v, str) else v
    s = strategy(strat)
    if not hasattr(s, "predict"):
        raise ValueError(f"calibration needs a strategy with its own estimate (auction, table, cautious, "
                         f"aggressive), not {s.name}")
    df = play(v, deals, seed, policy=policy, bidding=s)
    df = df[~df.thrown_in & (df.bid_situation >= 0)]
    return calibration_table(s.predict(df, v), (df.made == 1).to_numpy(), bins)


def calibration_table(predicted: np.ndarray, made: np.ndarray, bins: int = 10) -> pd.DataFrame:
    """Predicted chances binned (``bins`` equal bins of [0, 1]) against the share made: per bin
    the contracts, the mean prediction, the share made with its standard error and 95% Wilson
    interval (``made_low``, ``made_high``). NaN predictions are left out.

    >>> t = calibration_table(np.array([0.72, 0.75, 0.95]), np.array([1, 0, 1]))
    >>> t[["bin", "contracts", "made"]].values.tolist()
    [['0.7-0.8', 2, 0.5], ['0.9-1.0', 1, 1.0]]
    """
    from .stats import wilson
    keep = np.isfinite(predicted)
    predicted, made = predicted[keep], np.asarray(made, float)[keep]
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(predicted, edges) - 1, 0, bins - 1)
    rows = []
    for k in range(bins):
        sel = which == k
        n = int(sel.sum())
        if n:
            p = made[sel].mean()
            lo, hi = wilson(made[sel].sum(), n)
            rows.append({"bin": f"{edges[k]:.1f}-{edges[k + 1]:.1f}", "contracts": n,
                         "predicted": float(predicted[sel].mean()), "made": float(p),
                         "se": float(math.sqrt(p * (1 - p) / n)), "made_low": float(lo),
                         "made_high": float(hi)})
    return pd.DataFrame(rows)
