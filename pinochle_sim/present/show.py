"""Hand records as text: the readable form of a record of :mod:`pinochle_sim.studies.records`."""
from __future__ import annotations

from ..engine.cards import RANKS
from ..engine.variants import Variant, variant


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
    teams = len(rec["hands"]) == 4
    for p, hand in enumerate(rec["hands"]):
        lines.append(f"  seat {p}{f' (team {p % 2})' if teams else ''}: {' '.join(hand)}")
    if "kitty" in rec:
        lines.append(f"  kitty: {' '.join(rec['kitty'])}")
    calls = ", ".join(f"{s}:{'pass' if b is None else b}" for s, b in rec["auction"])
    lines.append(f"auction: {calls or '(none)'}")
    if rec["bidder"] is None:
        lines.append(f"thrown in: {_thrown_in_because(rec)}")
        return "\n".join(lines)
    lines.append(f"seat {rec['bidder']} wins the bid at {rec['bid']}, trump {rec['trump']}")
    if rec.get("discard"):
        v = v or variant(rec["variant"])
        worth = sum(v.card_points[RANKS.index(c[0])] for c in rec["discard"]) if v.discard_counts else 0
        lines.append(f"  seat {rec['bidder']} takes the kitty and discards {' '.join(rec['discard'])}"
                     f" ({worth} points for it)")
    for giver, taker, cards in rec["passes"]:
        lines.append(f"  seat {giver} passes {' '.join(cards)} to seat {taker}")
    if rec.get("playing_1000"):
        lines.append(f"seat {rec['bidder']} is playing 1000: its side shows no meld, seat "
                     f"{(rec['bidder'] + 2) % 4} sits out")
    lines.append("meld: " + ", ".join(f"seat {p} {m}" for p, m in enumerate(rec["meld"])))
    for i, t in enumerate(rec["tricks"], 1):
        lines.append(f"  trick {i:2d}: seat {t['leader']} leads {' '.join(t['cards']):14s}"
                     f" won by seat {t['winner']} ({t['points']})")
    side, n = ("team", 2) if teams else ("seat", len(rec["hands"]))
    pts = [sum(t["points"] for t in rec["tricks"] if (t["winner"] % 2 if teams else t["winner"]) == s)
           for s in range(n)]
    lines.append("trick points: " + ", ".join(f"{side} {s} {p}" for s, p in enumerate(pts)))
    lines.append("score: " + ", ".join(f"{side} {s} {x:+d}" for s, x in enumerate(rec["score"])))
    return "\n".join(lines)
