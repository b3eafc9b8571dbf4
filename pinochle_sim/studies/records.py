"""Hand records (RULES.md "Hand records"): one JSON object per deal, and a match hand by hand
(their readable form is :mod:`pinochle_sim.present.show`).

``hands`` are as dealt (before passing), sorted; ``auction`` lists every call, ``null`` for a
pass; ``bidder``/``bid``/``trump`` are ``null`` for a thrown-in hand, whose ``tricks`` are empty;
``meld`` is per seat after passing; each trick's ``cards`` start with its leader and its
``points`` include the last-trick bonus; ``score`` is what each team banks (team 0 = seats 0, 2),
or in three-hand what each seat banks; three-hand records also hold the ``kitty`` as dealt and
the bid winner's ``discard``.
With the optional ``playing_1000`` rule on, each record also says whether the bidder played for
1000 (its partner then plays no card, so those tricks hold three).
"""
from __future__ import annotations

import numpy as np

from ..engine.cards import SUITS, card_name, format_hand, format_kinds
from ..engine.tricks import DEFAULT_POLICY
from ..engine.hand import (BID, BIDDER, CALLS, DEALER, MELD0, PLAYING_1000, SCORE0, THROWN, TRUMP,
                           record_deals)
from ..engine.variants import Variant, variant
from .match import MAX_HANDS, play_matches
from .simulate import Setup
from .strategies import Strategy, default_bidding, strategy

#: The fields of every hand record, in order (RULES.md "Hand records"; three-hand adds ``kitty``
#: and ``discard``).
FIELDS = ("variant", "deal", "seed", "dealer", "hands", "auction", "bidder", "bid", "trump", "passes", "meld",
          "tricks", "score")


def records(v: Variant | str = "thousand", deals: int = 10, seed: int = 0, start: int = 0,
            policy: str | list[str] = DEFAULT_POLICY, bidding=None) -> list[dict]:
    """The hand records of deals ``start .. start+deals-1``.

    >>> r = records("classic-pass4", deals=1, seed=1)[0]
    >>> r["auction"][0], len(r["tricks"]), sum(t["points"] for t in r["tricks"])
    ([1, 250], 12, 240)
    >>> r = records("three-hand", deals=1, seed=1)[0]
    >>> len(r["hands"][0]), len(r["kitty"]), len(r["tricks"]), len(r["tricks"][0]["cards"])
    (15, 3, 15, 3)
    """
    setup = Setup(v, policy, bidding)
    v = setup.variant
    n = deals
    seats = v.players
    dealt, calls, passes, tricks, tinfo, rows = record_deals(setup.loop, seed, start, n)
    k = v.pass_cards
    out = []
    for d in range(n):
        r = rows[d]
        thrown = bool(r[THROWN])
        bidder = None if thrown else int(r[BIDDER])
        partner = None if thrown else v.partner(bidder)
        rec = {
            "variant": v.spec, "deal": start + d, "seed": seed,
            "dealer": int(r[DEALER]),
            "hands": [format_hand(dealt[d, p]).split() for p in range(seats)],
            "auction": [[int(s), None if b < 0 else int(b)] for s, b in calls[d, : r[CALLS]]],
            "bidder": bidder, "bid": None if thrown else int(r[BID]),
            "trump": None if thrown else SUITS[r[TRUMP]],
            "passes": [] if thrown or k == 0 else [
                [partner, bidder, _names(passes[d, 0, :k])],
                [bidder, partner, _names(passes[d, 1, :k])]],
            "meld": [0] * seats if thrown else [int(x) for x in r[MELD0: MELD0 + seats]],
            "tricks": [] if thrown else [
                {"leader": int(tinfo[d, t, 0]),
                 "cards": [card_name(int(c)) for c in tricks[d, t] if c >= 0],
                 "winner": int(tinfo[d, t, 1]), "points": int(tinfo[d, t, 2])}
                for t in range(v.hand_size)],
            "score": [int(x) for x in r[SCORE0: SCORE0 + v.teams]],
        }
        if v.kitty:  # RULES.md "Three-hand": the kitty as dealt and the bid winner's discard
            rec["kitty"] = format_hand(dealt[d, seats]).split()
            rec["discard"] = [] if thrown else _names(passes[d, 0, :v.kitty])
        if v.playing_1000:  # only then: the record format of RULES.md is unchanged
            rec["playing_1000"] = bool(r[PLAYING_1000])
        out.append(rec)
    return out


def hands_at(rec: dict, trick: int) -> list[list[str]]:
    """Each seat's cards in a hand record before its trick number ``trick`` (0: the first), after
    the kitty and discard or the passing."""
    hands = [list(h) for h in rec["hands"]]
    if rec.get("discard"):
        hands[rec["bidder"]] += rec["kitty"]
        for c in rec["discard"]:
            hands[rec["bidder"]].remove(c)
    for giver, taker, cards in rec["passes"]:
        for c in cards:
            hands[giver].remove(c)
        hands[taker].extend(cards)
    for t in rec["tricks"][:trick]:
        for k, card in enumerate(t["cards"]):
            hands[(t["leader"] + k) % len(hands)].remove(card)
    return hands


def _names(kinds: np.ndarray) -> list[str]:
    return format_kinds(sorted(int(x) for x in kinds)).split()


# ------------------------------------------------------------------------------------------
# One match, hand by hand.

def match_hands(v: Variant | str, seed: int, *sides: str | Strategy, m: int = 0,
                policy: str = DEFAULT_POLICY) -> list[dict]:
    """The hand records of match ``m``, one bidding strategy per side (None or none given: the
    variant's default), each record with the running ``totals`` after it; the last, if the match
    was decided, with its ``winner``. The compiled match loop (:func:`~.match.play_matches`) says
    how many hands the match lasted and who won; the records replay those deals."""
    v = variant(v) if isinstance(v, str) else v
    strats = [strategy(s or default_bidding(v)) for s in (sides or [None] * v.teams)]
    if len(strats) != v.teams:
        raise ValueError(f"{v.name} has {v.teams} sides: give {v.teams} strategies")
    summary = play_matches(v, *strats, matches=1, seed=seed, start=m, policy=policy).iloc[0]
    out = records(v, int(summary.hands), seed, start=m * MAX_HANDS, policy=policy,
                  bidding=[strats[v.team(p)] for p in range(v.players)])
    totals = np.zeros(v.teams, np.int64)
    for rec in out:
        totals = totals + rec["score"]
        rec["totals"] = totals.tolist()
    if summary.winner >= 0:
        out[-1]["winner"] = int(summary.winner)
    return out
