"""What to bid with one hand: the hand itself is simulated.

The given cards stay with their seat; the other 36 are dealt at random, again and again, and
the hand is played out under the variant's full rules (passing included) with the seat as
declarer in every candidate trump, on the same deals. What comes back is the side's total
towards a contract in each trump (its mean with a 95% interval), the chance of making each bid
(with Wilson intervals), the trump to name, and the highest bid made at least ``confidence`` of
the time (with the range of bids that the simulation cannot tell apart from it).

With the auction so far (``auction="p 260 p"``, the calls from the seat after the dealer), the
advice also says what to call now. The other hands are still dealt at random: what the calls
reveal about them is not used yet.
"""
from __future__ import annotations

import numpy as np

from . import __version__
from .cards import SUITS, format_hand, hand_counts
from .meld import meld_all_trumps
from .simulate import COLUMNS, SIDE_TOTAL, TRICKS0, Setup, _declare_hand
from .stats import t975, wilson
from .variants import Variant, variant


class AuctionError(ValueError):
    """An auction that cannot have happened under the variant's rules: the message says why."""


def simulate_hand(hand, v: Variant | str = "thousand", deals: int = 10_000, seed: int = 1,
                  policy: str = "heuristic", dealer: int | None = None,
                  trumps: tuple[int, ...] = (0, 1, 2, 3)) -> np.ndarray:
    """Summary rows of ``deals`` deals with seat 0 holding ``hand`` and declaring in each of
    ``trumps``: int32[deals, len(trumps), len(COLUMNS)] (see :data:`simulate.COLUMNS`).

    ``dealer``: the dealer's seat (0 is the hand's own), or None for every seat in turn.

    >>> rows = simulate_hand("AS AS TS TS KS KS QS QS JS JS 9S 9S", "classic", deals=50, trumps=(0,))
    >>> from pinochle_sim.simulate import SIDE_TOTAL
    >>> int(rows[:, 0, SIDE_TOTAL].min()) >= 1520 + 250   # a double run and every trick
    True
    """
    setup = Setup(v, policy, forced_bidder=0)
    counts = hand_counts(hand, setup.variant.hand_size)
    t = setup.tables
    rows = np.empty((deals, len(trumps), len(COLUMNS)), np.int32)
    _declare_hand(np.uint64(seed), np.int64(0), deals, 0, counts, -1 if dealer is None else dealer,
                  np.asarray(trumps, np.int64), t.meld_values, t.run_mode, t.extra_kq, t.card_points,
                  t.rules, setup.policy, rows)
    return rows


def _bid_chances(total: np.ndarray, ok: np.ndarray, bids: np.ndarray) -> np.ndarray:
    """How many deals make each bid: side total at least the bid and the required tricks."""
    made = np.sort(np.where(ok, total, -1))
    return len(made) - np.searchsorted(made, bids, side="left")


def advise(hand, v: Variant | str = "thousand", deals: int = 10_000, seed: int = 1,
           confidence: float = 0.67, policy: str = "heuristic", dealer: int | None = None,
           auction: str | None = None) -> dict:
    """Advice for one hand, from ``deals`` simulated deals of the other cards.

    Returns a dict: ``melds`` (per trump: meld, trump length, expected side total with its 95%
    interval), ``best_trump``, ``expected_total`` and ``expected_total_ci95``, ``trump_margin``
    (best minus runner-up on the same deals, with its interval), ``total_10_90``, ``p_make`` and
    ``p_make_ci95`` per bid, ``recommended_bid`` (None: pass) with ``recommended_bid_range``,
    ``why`` in one line, with ``auction``: ``call`` and ``call_why``, and the provenance.

    >>> a = advise("AS TS KS QS JS KS 9S QS JD AH AD AC", "thousand", deals=400, seed=1)
    >>> a["best_trump"], a["recommended_bid"] > 300
    ('S', True)
    """
    v = variant(v) if isinstance(v, str) else v
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    if deals < 1:
        raise ValueError("advise needs at least one deal")
    counts = hand_counts(hand, v.hand_size)
    state = None
    if auction is not None:
        state = read_auction(auction, v, dealer)
        dealer = state["dealer"]
    rows = simulate_hand(counts, v, deals, seed, policy, dealer).astype(np.int64)
    total = rows[:, :, SIDE_TOTAL]
    ok = rows[:, :, TRICKS0] >= v.min_tricks  # seat 0 declares: team 0
    n = deals
    tq = t975(n - 1)
    melds = {m.trump: m.total for m in meld_all_trumps(counts, v)}
    options = []
    for k, suit in enumerate(SUITS):
        x = total[:, k]
        se = x.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
        options.append({"trump": suit, "meld": melds[suit], "trumps": int(counts[6 * k: 6 * k + 6].sum()),
                        "expected_total": float(x.mean()), "se": float(se),
                        "ci95": [float(x.mean() - tq * se), float(x.mean() + tq * se)],
                        "p_make_opening": float(_bid_chances(x, ok[:, k], np.array([v.opening_bid]))[0] / n)})
    # the trump with the highest expected total; exact ties go to the longer, then stronger suit
    order = sorted(range(4), key=lambda k: (options[k]["expected_total"], options[k]["trumps"],
                                            options[k]["meld"]), reverse=True)
    best, second = order[0], order[1]
    diff = total[:, best] - total[:, second]
    dse = diff.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
    x, okb = total[:, best], ok[:, best]
    bids = np.arange(v.opening_bid, max(int(x.max()), v.opening_bid) + v.raise_min, v.raise_min)
    k_made = _bid_chances(x, okb, bids)
    p = k_made / n
    lo, hi = wilson(k_made, n)
    first = max(int(np.argmax(p < 0.995)) - 2, 0) if (p < 0.995).any() else 0
    last = int(np.nonzero(p >= 0.02)[0].max()) + 1 if (p >= 0.02).any() else 1
    rec, rec_lo, rec_hi = _highest(bids, p, confidence), _highest(bids, lo, confidence), \
        _highest(bids, hi, confidence)
    b = options[best]
    if rec is None:
        why = (f"with {b['trump']} trump the side made the opening bid {v.opening_bid} in "
               f"{p[0]:.0%} of {n:,} simulated deals (95% interval {lo[0]:.0%}-{hi[0]:.0%}), "
               f"under {confidence:.0%}: pass")
    else:
        j = int(np.nonzero(bids == rec)[0][0])
        why = (f"with {b['trump']} trump the side reached {rec} or more in {p[j]:.0%} of {n:,} "
               f"simulated deals (95% interval {lo[j]:.0%}-{hi[j]:.0%}); it is the highest bid made "
               f"at least {confidence:.0%} of the time")
    q10, q90 = np.quantile(x, [0.1, 0.9])
    out = {
        "variant": v.spec, "hand": format_hand(counts), "aces": int(counts[0::6].sum()),
        "tens": int(counts[1::6].sum()), "melds": options, "best_trump": b["trump"],
        "expected_total": b["expected_total"], "expected_total_ci95": b["ci95"],
        "trump_margin": {"over": options[second]["trump"], "diff": float(diff.mean()),
                         "ci95": [float(diff.mean() - tq * dse), float(diff.mean() + tq * dse)]},
        "total_10_90": [int(q10), int(q90)],
        "p_make": {int(bb): float(pp) for bb, pp in zip(bids[first:last], p[first:last])},
        "p_make_ci95": {int(bb): [float(a), float(c)] for bb, a, c in
                        zip(bids[first:last], lo[first:last], hi[first:last])},
        "recommended_bid": rec, "recommended_bid_range": [rec_lo, rec_hi],
        "confidence": confidence, "why": why,
        "provenance": {"variant": v.spec, "options": v.options(), "play_policy": policy,
                       "seed": seed, "deals": deals,
                       "dealer": "every seat in turn" if dealer is None else dealer,
                       "method": "the hand fixed, the other 36 cards dealt at random, declared in "
                                 "every trump on the same deals", "version": __version__},
    }
    if state is not None:
        out["auction"] = auction
        out["call"], out["call_why"] = _call(state, rec, v)
    return out


def _highest(bids: np.ndarray, p: np.ndarray, confidence: float) -> int | None:
    ok = np.nonzero(p >= confidence)[0]
    return int(bids[ok.max()]) if ok.size else None


# --------------------------------------------------------------------------------------------
# The auction so far.

def read_auction(text: str, v: Variant, dealer: int | None = None) -> dict:
    """Replay the calls so far (``"p 260 p"``: pass, 260, pass, from the seat after the dealer)
    and check them against the variant's rules. The hand advised is seat 0, which must be the
    next to call; without ``dealer`` the dealer is the seat that makes it so.

    Returns ``dealer``, ``high`` (the standing bid, 0 if none), ``high_seat`` (-1 if none),
    ``passed`` (seats out of the auction) and ``calls``.

    >>> s = read_auction("p 260 p", variant("classic"))
    >>> s["dealer"], s["high"], s["high_seat"]
    (0, 260, 2)
    """
    words = text.replace(",", " ").split()
    calls = []
    for w in words:
        if w.lower() in ("p", "pass", "-"):
            calls.append(None)
        elif w.isdigit():
            calls.append(int(w))
        else:
            raise AuctionError(f"unknown call {w!r} in the auction: write a bid (260) or p for a pass")
    candidates = range(4) if dealer is None else [dealer]
    reasons = []
    for d in candidates:
        try:
            return _replay(calls, v, d)
        except AuctionError as e:
            reasons.append(str(e))
    if dealer is not None:
        raise AuctionError(reasons[0])
    raise AuctionError(f"the auction {text!r} cannot lead to your turn from any dealer "
                       f"({reasons[0]})")


def _replay(calls: list[int | None], v: Variant, dealer: int) -> dict:
    passed: set[int] = set()
    high, high_seat = 0, -1
    seat = (dealer + 1) % 4
    for j, bid in enumerate(calls):
        if len(passed) == 4 or (high_seat >= 0 and len(passed) == 3):
            raise AuctionError("the auction is already over")
        if bid is None:
            if j == 0 and v.forced_open:
                raise AuctionError(f"the first seat is in at {v.opening_bid} in {v.name}")
            passed.add(seat)
        else:
            need = v.opening_bid if high_seat < 0 else high + v.raise_min
            if bid < need:
                raise AuctionError(f"bid {bid} is below the least legal bid, {need}")
            if high_seat >= 0 and not v.jump_bids and bid != need:
                raise AuctionError(f"bid {bid}: each raise is exactly {v.raise_min} in {v.name}")
            if (bid - v.opening_bid) % v.raise_step:
                raise AuctionError(f"bid {bid} is not a step of {v.raise_step}")
            if j == 0 and v.forced_open and bid != v.opening_bid:
                raise AuctionError(f"the first seat is in at {v.opening_bid} in {v.name}")
            high, high_seat = bid, seat
        nxt = (seat + 1) % 4
        while nxt in passed and len(passed) < 4:
            nxt = (nxt + 1) % 4
        seat = nxt
    if high_seat < 0 and len(passed) == 3 and v.all_pass == "dealer_stuck":
        pass  # the stuck dealer, if it is us, takes the contract without a call
    elif len(passed) == 4 or (high_seat >= 0 and len(passed) == 3):
        raise AuctionError("the auction is already over")
    if seat != 0:
        raise AuctionError(f"with dealer seat {dealer} it is seat {seat}'s turn, not yours (seat 0)")
    return {"dealer": dealer, "high": high, "high_seat": high_seat, "passed": sorted(passed),
            "calls": calls}


def _call(state: dict, limit: int | None, v: Variant) -> tuple[str, str]:
    """What seat 0 calls now, and why, given the most it should bid."""
    high, high_seat = state["high"], state["high_seat"]
    if high_seat < 0 and len(state["passed"]) == 3 and v.all_pass == "dealer_stuck":
        return str(v.stuck_bid), (f"the other three passed: as dealer you take the contract at "
                                  f"{v.stuck_bid} ({v.name})")
    need = v.opening_bid if high_seat < 0 else high + v.raise_min
    partner = high_seat == 2
    if limit is None or limit < need:
        cap = "no bid at all" if limit is None else f"up to {limit}"
        stands = "" if high_seat < 0 else f"; {'your partner' if partner else 'seat ' + str(high_seat)}'s {high} stands"
        return "pass", f"the least legal bid is {need} and the hand is worth {cap}{stands}"
    if partner:
        return str(need), (f"your limit {limit} is at or above {need}: raise your partner's {high} "
                           "only if you want the contract yourself; the simulation assumes you declare")
    return str(need), (f"bid {need}, the least legal bid; keep raising up to your limit of {limit}")
