"""Hand records (RULES.md "Hand records"): one JSON object per deal, and a readable form.

``hands`` are as dealt (before passing), sorted; ``auction`` lists every call, ``null`` for a
pass; ``bidder``/``bid``/``trump`` are ``null`` for a thrown-in hand, whose ``tricks`` are empty;
``meld`` is per seat after passing; each trick's ``cards`` start with its leader and its
``points`` include the last-trick bonus; ``score`` is what each team banks (team 0 = seats 0, 2).
With the optional ``playing_1000`` rule on, each record also says whether the bidder played for
1000 (its partner then plays no card, so those tricks hold three).
"""
from __future__ import annotations

import numpy as np

from .cards import SUITS, card_name, format_hand, format_kinds
from .simulate import (BID, BIDDER, CALLS, COLUMNS, DEALER, MELD0, PLAYING_1000, SCORE0, THROWN,
                       TRUMP, Setup, _record_many)
from .play import TRICKS
from .variants import Variant


def records(v: Variant | str = "thousand", deals: int = 10, seed: int = 0, start: int = 0,
            policy: str | list[str] = "heuristic", bidding=None) -> list[dict]:
    """The hand records of deals ``start .. start+deals-1``.

    >>> r = records("classic-pass4", deals=1, seed=1)[0]
    >>> r["auction"][0], len(r["tricks"]), sum(t["points"] for t in r["tricks"])
    ([1, 250], 12, 240)
    """
    setup = Setup(v, policy, bidding)
    n = deals
    k = setup.variant.pass_cards
    dealt = np.zeros((n, 4, 24), np.int8)
    calls = np.zeros((n, setup.max_calls, 2), np.int32)
    passes = np.zeros((n, 2, max(k, 1)), np.int8)
    tricks = np.zeros((n, TRICKS, 4), np.int8)
    tinfo = np.zeros((n, TRICKS, 3), np.int32)
    rows = np.zeros((n, len(COLUMNS)), np.int32)
    _record_many(np.uint64(seed), np.int64(start), n, *setup.args(), dealt, calls, passes, tricks,
                 tinfo, rows)
    out = []
    for d in range(n):
        r = rows[d]
        thrown = bool(r[THROWN])
        bidder = None if thrown else int(r[BIDDER])
        out.append({
            "variant": setup.variant.spec, "deal": start + d, "seed": seed,
            "dealer": int(r[DEALER]),
            "hands": [format_hand(dealt[d, p]).split() for p in range(4)],
            "auction": [[int(s), None if b < 0 else int(b)] for s, b in calls[d, : r[CALLS]]],
            "bidder": bidder, "bid": None if thrown else int(r[BID]),
            "trump": None if thrown else SUITS[r[TRUMP]],
            "passes": [] if thrown or k == 0 else [
                [(bidder + 2) % 4, bidder, _names(passes[d, 0, :k])],
                [bidder, (bidder + 2) % 4, _names(passes[d, 1, :k])]],
            "meld": [0, 0, 0, 0] if thrown else [int(x) for x in r[MELD0: MELD0 + 4]],
            "tricks": [] if thrown else [
                {"leader": int(tinfo[d, t, 0]),
                 "cards": [card_name(int(c)) for c in tricks[d, t] if c >= 0],
                 "winner": int(tinfo[d, t, 1]), "points": int(tinfo[d, t, 2])}
                for t in range(TRICKS)],
            "score": [int(r[SCORE0]), int(r[SCORE0 + 1])],
        })
        if setup.variant.playing_1000:  # only then: the record format of RULES.md is unchanged
            out[-1]["playing_1000"] = bool(r[PLAYING_1000])
    return out


def _names(kinds: np.ndarray) -> list[str]:
    return format_kinds(sorted(int(x) for x in kinds)).split()


def _thrown_in_because(rec: dict) -> str:
    """Why a hand was thrown in: nobody bid, or (no call at all) the five-nines rule of 004."""
    if rec["auction"]:
        return "nobody bid"
    seats = [p for p, hand in enumerate(rec["hands"]) if sum(c[0] == "9" for c in hand) >= 5]
    return (f"seat {seats[0] if seats else '?'} holds five nines and no meld (the five_nines "
            "option of seed 004), so nobody bid")


def show_record(rec: dict, v: Variant | None = None) -> str:
    """A hand record as text: hands, auction, passes, meld, each trick and its winner, the score."""
    lines = [f"deal {rec['deal']} (seed {rec['seed']}, {rec['variant']}), dealer seat {rec['dealer']}"]
    for p, hand in enumerate(rec["hands"]):
        lines.append(f"  seat {p} (team {p % 2}): {' '.join(hand)}")
    calls = ", ".join(f"{s}:{'pass' if b is None else b}" for s, b in rec["auction"])
    lines.append(f"auction: {calls or '(none)'}")
    if rec["bidder"] is None:
        lines.append(f"thrown in: {_thrown_in_because(rec)}")
        return "\n".join(lines)
    lines.append(f"seat {rec['bidder']} wins the bid at {rec['bid']}, trump {rec['trump']}")
    for giver, taker, cards in rec["passes"]:
        lines.append(f"  seat {giver} passes {' '.join(cards)} to seat {taker}")
    if rec.get("playing_1000"):
        lines.append(f"seat {rec['bidder']} is playing 1000: its side shows no meld, seat "
                     f"{(rec['bidder'] + 2) % 4} sits out")
    lines.append("meld: " + ", ".join(f"seat {p} {m}" for p, m in enumerate(rec["meld"])))
    for i, t in enumerate(rec["tricks"], 1):
        lines.append(f"  trick {i:2d}: seat {t['leader']} leads {' '.join(t['cards']):14s}"
                     f" won by seat {t['winner']} ({t['points']})")
    pts = [sum(t["points"] for t in rec["tricks"] if t["winner"] % 2 == team) for team in (0, 1)]
    lines.append(f"trick points: team 0 {pts[0]}, team 1 {pts[1]}")
    lines.append(f"score: team 0 {rec['score'][0]:+d}, team 1 {rec['score'][1]:+d}")
    return "\n".join(lines)
