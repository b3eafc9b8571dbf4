"""Double-dummy play: the exact value of a position when every seat plays perfectly with all
cards visible (issue 14).

The search itself is ``engine.search`` (MTD(f) over alpha-beta with a transposition table,
equivalent cards merged, moves ordered); this module reads positions written out and says every
card's value (:func:`double_dummy`) or a trick start's value for either side (:func:`trick_value`),
replays a hand record trick by trick against those values (:func:`replay`), and measures how
far a card-play policy lands from double-dummy play (:func:`play_gap`).

>>> r = double_dummy(["AS 9H", "TS KH", "QS JH", "KS QH"], "H", 0, "classic")
>>> r.points, r.best, r.values   # cashing the ace gives the last trick away
(40, ['9H'], {'AS': 30, '9H': 40})
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..engine.cards import card_name, hand_counts, parse_cards, parse_suit
from ..engine.hand import side_of
from ..engine.play import RANK, to_masks, trick_step
from ..engine.search import Position, by_relative_rank, new_space, solve_moves, trick_start_value
from ..engine.variants import Variant, compile_variant, variant
from ..engine.tricks import DEFAULT_POLICY

@dataclass(frozen=True)
class DoubleDummy:
    """The value of a position for the side of the seat to play: ``points`` (trick points with the
    last-trick bonus, the cards already on the table included), ``best`` (the cards that get
    them), ``values`` (every legal card's value, exact unless asked otherwise) and ``nodes`` (the
    positions the search entered: what its speed is measured by)."""

    seat: int
    points: int
    best: list[str]
    values: dict[str, int]
    nodes: int = 0


def double_dummy(hands, trump: str | int, leader: int, v: Variant | str = "thousand",
                 trick=(), exact: bool = True) -> DoubleDummy:
    """Solve a position with every hand visible.

    Parameters
    ----------
    hands : one entry per seat (four, or three in three-hand): its remaining cards, as text or
        a list of names.
    trump : the trump suit.
    leader : the seat that led the current trick (or leads the next one).
    v : the variant (its obligations, card points, last-trick bonus and sides).
    trick : the cards already played to the current trick, starting with ``leader``'s.
    exact : every legal card's exact value in ``.values`` (False: only the best cards' are exact,
        the others' a bound below the best; faster).

    Every seat must hold as many cards as the others will after the trick is complete.
    """
    v, tb, counts, h1, h2, t = _position(hands, trump, v)
    v.check_seat(leader, "leader")
    played = parse_cards(trick) if isinstance(trick, str) else [parse_cards([c])[0] if isinstance(c, str)
                                                                 else int(c) for c in trick]
    if len(played) >= v.players:
        raise ValueError("a trick on the table holds fewer cards than there are seats")
    sizes = [int(c.sum()) for c in counts]
    after = [sizes[(leader + k) % v.players] - (0 if k < len(played) else 1) for k in range(v.players)]
    if len(set(after)) != 1:
        raise ValueError(f"hands of {sizes} cards cannot finish the trick evenly")
    lead, win, win_seat, table, pts = 0, -1, -1, 0, 0
    for k, card in enumerate(played):
        lead, win, win_seat = (int(x) for x in trick_step(card, (leader + k) % v.players, k, lead, win, win_seat, t))
        table |= 1 << card
        pts += int(tb.card_points[RANK[card]])
    seat = (leader + len(played)) % v.players
    out = np.empty(24, np.int64)
    cards = sum(sizes)
    left = sum(int(tb.card_points[k % 6]) * int(c[k]) for c in counts for k in range(24))
    sp = new_space(cards, by_relative_rank(tb.point_class))
    best = solve_moves(h1, h2, Position(seat, len(played), lead, win, win_seat, table, pts, cards, left),
                       exact, t, tb, out, sp)
    values = {card_name(k): int(out[k]) for k in range(24) if out[k] >= 0}
    return DoubleDummy(seat, int(best), [c for c, x in values.items() if x == best], values, int(sp.nodes[0]))


def trick_value(hands, trump: str | int, leader: int, v: Variant | str, seat: int) -> int:
    """The points the side of ``seat`` takes, every seat playing perfectly with all cards
    visible, from a trick ``leader`` is about to lead to the end of the hand (``hands``: one entry
    per seat, as text or lists of names, all of one size).

    >>> trick_value(["AS 9H", "TS KH", "QS JH", "KS QH"], "H", 0, "classic", 1)
    10
    """
    v, tb, counts, h1, h2, t = _position(hands, trump, v)
    v.check_seat(leader, "leader")
    v.check_seat(seat, "seat")
    if len({int(c.sum()) for c in counts}) != 1:
        raise ValueError("at the start of a trick every hand holds as many cards")
    return int(trick_start_value(h1, h2, leader, tb.team[seat], t, tb))


@dataclass(frozen=True)
class TrickSwing:
    """One trick of a replayed record: its ``leader`` and ``cards``, the double-dummy value for the
    leader's side ``before`` it, and ``after`` it (the points it took plus the value from the
    next trick start, for the same side)."""

    trick: int
    leader: int
    cards: list[str]
    before: int
    after: int

    @property
    def swing(self) -> int:
        return self.after - self.before


def replay(rec: dict, from_trick: int = 4) -> list[TrickSwing]:
    """Each trick of a hand record (:func:`~.records.records`) from ``from_trick`` (0: the
    first) on, against double-dummy play: what the leader's side could get before the trick, and
    what it has after the cards actually played."""
    from .records import hands_at
    v = variant(rec["variant"])
    if rec["bidder"] is None:
        raise ValueError(f"deal {rec['deal']} was thrown in: no play to solve")
    if not 0 <= from_trick < v.hand_size:
        raise ValueError(f"trick {from_trick}: the hand has tricks 0-{v.hand_size - 1}")
    out = []
    for t in range(from_trick, v.hand_size):
        trick = rec["tricks"][t]
        leader = trick["leader"]
        before = trick_value(hands_at(rec, t), rec["trump"], leader, v, leader)
        took = trick["points"] if v.team(trick["winner"]) == v.team(leader) else 0
        rest = (trick_value(hands_at(rec, t + 1), rec["trump"], rec["tricks"][t + 1]["leader"], v, leader)
                if t + 1 < v.hand_size else 0)
        out.append(TrickSwing(t, leader, list(trick["cards"]), before, took + rest))
    return out


def _position(hands, trump, v):
    """The variant, its tables, each hand's counts and masks (h1, h2), and the trump's index."""
    v = variant(v) if isinstance(v, str) else v
    if len(hands) != v.players:
        raise ValueError(f"{v.name} has {v.players} seats: give {v.players} hands")
    counts = [hand_counts(h, deck=v.deck_counts) for h in hands]
    h1 = np.zeros(v.players, np.int64)
    h2 = np.zeros(v.players, np.int64)
    for s, c in enumerate(counts):
        h1[s], h2[s] = to_masks(c)
    return v, compile_variant(v), counts, h1, h2, parse_suit(trump)


def play_gap(v: Variant | str, deals: int, seed: int, dd_from: int = -1, policy: str = DEFAULT_POLICY,
             bidding=None, progress: bool = False) -> dict:
    """How far ``policy`` play lands from double-dummy play, on the contracts of ``deals`` deals:
    each deal is played by ``policy`` (every seat), and solved with every seat playing perfectly
    with all cards visible from trick ``dd_from`` on (the tricks before it as played; -1:
    ``Variant.dd_trick``, trick 4 of the 48-card games).

    Returns the bid winner's side's mean trick points both ways, their difference per deal
    (``gap`` = double dummy minus actual: positive when the defenders' play cost the declaring side
    less than its own play did, or perfect play by both sides favours it) with its standard error
    and 95% interval, the mean absolute difference, the shares of deals where the actual play came
    out above, equal to and below double dummy, the seconds taken and the provenance.
    """
    from .simulate import Setup, play
    from .stats import Z95, mean_se
    setup = Setup(v, policy, bidding)
    dd_from = setup.variant.dd_trick if dd_from < 0 else dd_from
    t0 = time.perf_counter()
    df = play(setup, deals, seed, progress=progress, dd_from=dd_from)
    seconds = time.perf_counter() - t0
    df = df[df.dd_points >= 0]
    vv = setup.variant
    sides = 3 if vv.players == 3 else 2
    actual = df[[f"points_{s}" for s in range(sides)]].to_numpy()[
        np.arange(len(df)), side_of(vv, df.bidder.to_numpy())].astype(float)
    dd = df.dd_points.to_numpy(float)
    gap, se, n = mean_se(dd - actual)
    return {"variant": vv.spec, "policy": policy, "dd_from": dd_from, "deals": deals, "contracts": n,
            "actual": float(actual.mean()) if n else float("nan"),
            "double_dummy": float(dd.mean()) if n else float("nan"),
            "gap": gap, "gap_se": se, "ci_low": gap - Z95 * se, "ci_high": gap + Z95 * se,
            "mean_abs_gap": float(np.abs(dd - actual).mean()) if n else float("nan"),
            "actual_above": float((actual > dd).mean()) if n else float("nan"),
            "equal": float((actual == dd).mean()) if n else float("nan"),
            "actual_below": float((actual < dd).mean()) if n else float("nan"),
            "seconds": round(seconds, 1), **setup.provenance(seed, deals)}
