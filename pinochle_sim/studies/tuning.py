"""Bidding weights chosen by what they win: duplicate play on the same deals.

The judge of a bidding strategy is its score against another on the same cards. Here a deal is
played twice: in four-hand with the partnerships' strategies swapped, in three-hand once with
the strategy in each seat against two of the other; a strategy's margin on the deal is its
side's score minus the other side's (three-hand: minus the mean of the other two seats),
averaged over the seatings, so the luck of the cards cancels.

:func:`coordinate_search` moves one weight of :class:`~pinochle_sim.studies.strategies.Value`
at a time, keeping a move while the moved strategy beats the unmoved one by more than ``z``
standard errors on deals it has not seen (every comparison has a seed of its own);
:func:`local_check` then moves each weight of the result, on fresh deals, to show that no
single move gains; :func:`pushing` measures what bidding on after the partner has passed is
worth.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..engine.hand import SCORE0
from ..engine.tricks import DEFAULT_POLICY
from ..engine.variants import Variant, variant
from ..runs import chunks_of
from .simulate import Setup, chunk_rows
from .strategies import VALUE_PARAMS, Strategy, Value, strategy

#: ``tricks`` (25 a trick, 30 for the partner, outbidding a partner only 30 clear) as weights of
#: ``value``: where a search starts.
TRICKS_START = {"open": 30.0, "partner_high": 0.0, "partner_out": 30.0, "opponent_high": 30.0,
                "ace": 25.0, "ten": 12.5, "trump": 25.0, "floor": 3.0, "meld": 1.0}
#: The step of each hand weight (a situation's allowance steps by one raise).
STEPS = {"ace": 2.5, "ten": 2.5, "trump": 2.5, "floor": 1.0, "meld": 0.05}
CHUNK = 1 << 16


def weights(v: Variant) -> list[str]:
    """The weights of ``value`` that matter in ``v``: a seat bidding alone sees only the open
    auction and an opponent's bid."""
    if v.players == 3:
        return ["open", "opponent_high", *STEPS]
    return list(VALUE_PARAMS)


def step(v: Variant, weight: str) -> float:
    """One step of ``weight``: a raise on the 250-point scale for a situation's allowance."""
    return STEPS.get(weight, v.raise_min * 250 / v.trick_total)


def start(v: Variant) -> dict[str, float]:
    """``tricks`` as weights; bidding alone, nothing for a partner."""
    if v.players == 3:
        return {**TRICKS_START, "open": 0.0, "partner_high": 0.0, "partner_out": 0.0, "opponent_high": 0.0}
    return dict(TRICKS_START)


def _rows(setup: Setup, deals: int, seed: int) -> np.ndarray:
    return np.concatenate([chunk_rows(setup, None, c)[0] for c in chunks_of(seed, 0, deals, CHUNK)]).astype(np.int64)


def duplicate_margins(v: Variant | str, a: Strategy | str, b: Strategy | str, deals: int, seed: int,
                      policy: str = DEFAULT_POLICY) -> np.ndarray:
    """``a``'s score margin over ``b`` on each of ``deals`` deals of ``seed``, in duplicate.

    >>> m = duplicate_margins("classic", "tricks", "tricks", 50, 1)
    >>> bool((m == 0).all())
    True
    """
    v = variant(v) if isinstance(v, str) else v
    a, b = strategy(a), strategy(b)
    if v.players == 4:
        x = _rows(Setup(v, policy, [a, b, a, b]), deals, seed)
        y = _rows(Setup(v, policy, [b, a, b, a]), deals, seed)
        return ((x[:, SCORE0] - x[:, SCORE0 + 1]) + (y[:, SCORE0 + 1] - y[:, SCORE0])) / 2
    n = v.players
    out = np.zeros(deals, np.int64)  # summed in whole points, divided once: exact for a strategy against itself
    for seat in range(n):
        seats = [b] * n
        seats[seat] = a
        score = _rows(Setup(v, policy, seats), deals, seed)[:, SCORE0:SCORE0 + n]
        out += n * score[:, seat] - score.sum(1)  # (n - 1) x (its score minus the others' mean)
    return out / (n * (n - 1))


def compare(v: Variant, a, b, deals: int, seed: int, policy: str = DEFAULT_POLICY) -> tuple[float, float]:
    """(mean, standard error) of :func:`duplicate_margins`."""
    m = duplicate_margins(v, a, b, deals, seed, policy)
    return float(m.mean()), float(m.std(ddof=1) / math.sqrt(len(m))) if len(m) > 1 else float("nan")


def _moved(params: dict, weight: str, by: float) -> dict:
    return {**params, weight: round(params[weight] + by, 6)}


def coordinate_search(v: Variant | str, params: dict | None = None, deals: int = 100_000, seed: int = 1,
                      z: float = 2.0, rounds: int = 16, max_deals: int | None = None,
                      policy: str = DEFAULT_POLICY, progress: bool = False) -> tuple[dict, pd.DataFrame]:
    """Weights of ``value`` for ``v``, from ``params`` (default :func:`start`): each weight in turn
    is moved a step up, and on while the move keeps winning; if the first step up does not win,
    a step down; a move is kept when the moved strategy's duplicate margin over the current one,
    on ``deals`` deals never used before, is above ``z`` standard errors. A round over every
    weight that keeps nothing doubles the deals, up to ``max_deals`` (default four times
    ``deals``), so that smaller gains show; the search ends when a round at ``max_deals`` keeps
    nothing (or after ``rounds``). Returns the weights and one row per comparison (round,
    weight, step, from, to, margin, se, kept, seed, deals)."""
    from ..progress import bar
    v = variant(v) if isinstance(v, str) else v
    p = dict(start(v) if params is None else params)
    top = 4 * deals if max_deals is None else max(max_deals, deals)
    log, s = [], seed
    with bar(None, f"search {v.spec}", progress, unit=" comparisons") as pb:
        for r in range(rounds):
            kept_any = False
            for w in weights(v):
                for d in (step(v, w), -step(v, w)):
                    moved = False
                    while True:
                        q = _moved(p, w, d)
                        m, se = compare(v, Value(**q), Value(**p), deals, s, policy)
                        kept = m > z * se
                        log.append({"round": r, "weight": w, "step": d, "from": p[w], "to": q[w], "margin": m,
                                    "se": se, "kept": kept, "seed": s, "deals": deals})
                        s += 1
                        pb.update(1)
                        if not kept:
                            break
                        p, moved, kept_any = q, True, True
                    if moved:
                        break
            if not kept_any:
                if deals >= top:
                    break
                deals = min(2 * deals, top)
    return p, pd.DataFrame(log)


#: The moves :func:`local_check` makes: a situation's allowance by -2..+3 raises, a hand
#: weight by -2..+2 steps.
SITUATION_MOVES = (-2, -1, 1, 2, 3)
HAND_MOVES = (-2, -1, 1, 2)


def local_check(v: Variant | str, params: dict, deals: int = 200_000, seed: int = 10_000,
                policy: str = DEFAULT_POLICY, progress: bool = False) -> pd.DataFrame:
    """Each weight of ``params`` moved alone (:data:`SITUATION_MOVES`, :data:`HAND_MOVES`), on
    fresh deals (a seed per move): the moved strategy's duplicate margin over ``params`` per
    deal, its standard error and ``z`` (margin / se). A local optimum has no ``z`` above 2
    beyond what chance gives among this many moves."""
    from ..progress import bar
    v = variant(v) if isinstance(v, str) else v
    rows, s = [], seed
    moves = [(w, k) for w in weights(v) for k in (HAND_MOVES if w in STEPS else SITUATION_MOVES)]
    with bar(len(moves), f"local check {v.spec}", progress, unit=" moves") as pb:
        for w, k in moves:
            q = _moved(params, w, k * step(v, w))
            m, se = compare(v, Value(**q), Value(**params), deals, s, policy)
            rows.append({"weight": w, "steps": k, "value": q[w], "margin": m, "se": se, "z": m / se if se else 0.0,
                         "seed": s, "deals": deals})
            s += 1
            pb.update(1)
    return pd.DataFrame(rows)


def pushing(v: Variant | str, params: dict, deals: int = 200_000, seed: int = 20_000,
            policy: str = DEFAULT_POLICY) -> dict:
    """What pushing is worth (seed 004: bidding on when the partner has passed, "just to prevent
    the opponents' getting the bid for a low amount"): ``params`` against the same weights with
    ``partner_out`` set to ``opponent_high`` (bidding as when the partner is still in), in
    duplicate. Returns both allowances, the margin per deal and its standard error."""
    v = variant(v) if isinstance(v, str) else v
    plain = {**params, "partner_out": params["opponent_high"]}
    m, se = compare(v, Value(**params), Value(**plain), deals, seed, policy)
    return {"partner_out": params["partner_out"], "opponent_high": params["opponent_high"],
            "raises": (params["partner_out"] - params["opponent_high"]) / step(v, "partner_out"),
            "margin": m, "se": se, "deals": deals, "seed": seed}
