"""How strong a card-play policy is against another, on duplicate deals (issue 15): each deal is
played twice with the policies swapped between the sides, the auction, passing and contract the
same both times (the bidding does not depend on the card play), so the luck of the cards cancels.
Beside the head-to-head figure, each policy's distance from double-dummy play on the same deals.
"""
from __future__ import annotations

import time

import numpy as np

from .. import __version__
from ..engine.hand import side_of
from ..engine.tricks import in_full
from ..engine.variants import Variant, variant
from ..runs import Where
from .simulate import Setup, play
from .stats import Z95, deals_to_show, mean_se


def _seating(v: Variant, a: str, b: str, r: int) -> list[str]:
    """Four-hand: ``a`` on side ``r`` (0 or 1), ``b`` on the other; three-hand: ``a`` in seat
    ``r``, ``b`` in the other two."""
    if v.teams == 2:
        return [a if v.team(p) == r else b for p in range(v.players)]
    return [a if p == r else b for p in range(v.players)]


#: What ``strength`` compares: the trick points a side takes, or the score it banks for the hand
#: (meld, trick points, made or set).
METRICS = ("points", "score")


def strength(v: Variant | str, policy: str, against: str, deals: int = 2000, seed: int = 1,
             bidding=None, dd_from: int | None = -1, where: Where | None = None,
             progress: bool = False, metric: str = "points") -> dict:
    """``policy`` against ``against`` on ``deals`` duplicate deals.

    ``diff``: ``policy``'s side's trick points per hand (``metric="score"``: its score for the
    hand) minus ``against``'s (three-hand: its seat's minus the mean of the other two), over every
    seating (four-hand: both sides; three-hand: each seat), per deal, with its standard error
    ``se`` and 95% interval; thrown-in deals are left out. With ``dd_from`` (four-hand; -1:
    ``Variant.dd_trick``, trick 4 of the 48-card games),
    ``dd_distance``: each policy's side's trick points minus what that side takes when every seat
    plays double dummy from trick ``dd_from`` on (the tricks before it as played): where the two
    policies' play leaves each side against perfect play by both. (With two sides sharing every
    point the two figures are opposites; telling each side's own errors apart needs a solve after
    every card, not built.)
    ``deals_to_show``: the deals that would put the interval clear of zero four times in five were
    the true difference ``diff`` (:func:`~.stats.deals_to_show`).
    ``hands_per_s``: hands played per second, double-dummy solving included.
    """
    v = variant(v) if isinstance(v, str) else v
    if deals < 2:
        raise ValueError("strength needs at least two deals")
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; valid: {', '.join(METRICS)}")
    seatings = 2 if v.teams == 2 else v.players
    dd_from = None if v.teams != 2 or dd_from is None else v.dd_trick if dd_from < 0 else dd_from
    setups = [Setup(v, _seating(v, policy, against, r), bidding) for r in range(seatings)]
    t0 = time.perf_counter()
    frames = [play(s, deals, seed, dd_from=dd_from, where=where, progress=progress) for s in setups]
    seconds = time.perf_counter() - t0
    first = frames[0]
    for df in frames[1:]:  # the same contracts whoever plays the cards
        if not (df.bidder.equals(first.bidder) and df.bid.equals(first.bid) and df.trump.equals(first.trump)):
            raise AssertionError("the auction changed with the card play")
    keep = ~first.thrown_in.to_numpy()
    sides = v.teams
    diffs, dist_a, dist_b = [], [], []
    for r, df in enumerate(frames):
        pts = df[[f"points_{s}" for s in range(sides)]].to_numpy(float)[keep]
        x = pts if metric == "points" else df[[f"score_{s}" for s in range(sides)]].to_numpy(float)[keep]
        if sides == 2:
            diffs.append(x[:, r] - x[:, 1 - r])
        else:
            diffs.append(x[:, r] - (x.sum(1) - x[:, r]) / 2)
        if dd_from is not None:
            bt = side_of(v, df.bidder.to_numpy()[keep])
            dd = df.dd_points.to_numpy(float)[keep]
            total = pts.sum(1)
            dd_side = np.where(bt[:, None] == np.arange(2), dd[:, None], (total - dd)[:, None])
            dist_a.append(pts[:, r] - dd_side[:, r])
            dist_b.append(pts[:, 1 - r] - dd_side[:, 1 - r])
    d = np.mean(diffs, axis=0)
    diff, se, n = mean_se(d)
    out = {"variant": v.spec, "policy": policy, "against": against,
           "policy_in_full": in_full(policy, v.name), "against_in_full": in_full(against, v.name),
           "deals": deals, "hands": n,
           "diff": diff, "se": se, "ci_low": diff - Z95 * se, "ci_high": diff + Z95 * se,
           "deals_to_show": deals_to_show(deals, diff, se),
           "metric": metric, "scale": (f"trick points per hand (of {v.trick_total})" if metric == "points" else
                                       "points of score per hand (meld, trick points, made or set)"),
           "seatings": seatings,
           "hands_per_s": round(seatings * deals / seconds, 1), "seed": seed,
           "bidding": setups[0].bidding[0].spec, "dd_from": dd_from}
    if dd_from is not None:
        out["dd_distance"] = {}
        for name, x in ((policy, np.mean(dist_a, axis=0)), (against, np.mean(dist_b, axis=0))):
            m, s, _ = mean_se(x)
            out["dd_distance"][name] = {"mean": m, "se": s, "ci_low": m - Z95 * s, "ci_high": m + Z95 * s}
    out["version"] = __version__
    return out
