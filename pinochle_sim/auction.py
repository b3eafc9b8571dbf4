"""The auction, and the bidding policy that values a hand.

Rules (RULES.md): bidding starts left of the dealer and goes clockwise; a pass is final; a bid
beats the standing one by at least ``raise_min`` (exactly, without ``jump_bids``); the auction
ends when three seats have passed after a bid. With ``forced_open`` the seat left of the dealer
is in at the opening bid. If nobody bids, the hand is thrown in, or (``dealer_stuck``) the dealer,
whose three opponents and partner have passed, takes the contract at ``stuck_bid`` without bidding.

Every bidding strategy (see ``strategies``) reaches the kernel as data: a limit per hand,
``weight * meld + table[meld band, aces, tens, trump length]``, and a partner margin. A seat
bids by steps of the smallest raise while the next bid is within its limit, and does not
outbid its partner unless its limit clears the next bid by the margin.
"""
from __future__ import annotations

import numpy as np

from ._numba import njit
from .variants import R

N_BANDS = 16      # meld bands of a strategy's table; the last is open-ended
MAX_CARDS = 9     # 0..8 aces (or tens) in a hand
MAX_TRUMPS = 13


@njit
def trump_value(rules):
    """What one more trump adds to the side's total, in the variant's points: 15 per 250 trick
    points, and 4 more per card the partner passes (the rule-of-thumb fits of the bid tables:
    14-15 per trump without passing, 27-31 with three or four cards passed)."""
    return (15.0 + 4.0 * rules[R.pass_cards]) * rules[R.trick_total] / 250.0


@njit
def choose_trump(c, melds, rules):
    """The trump a declarer names: the highest estimate of the side's total, meld in that trump
    plus :func:`trump_value` per card of the suit (aces and tens count alike in every trump).
    Ties go to the longer suit, then the one with more aces and tens; only suits alike in all
    of that fall to suit order, and then the choice cannot matter to the estimate."""
    value = trump_value(rules)
    best_t = 0
    best = (-np.inf, -1, -1)
    for t in range(4):
        n = 0
        for r in range(6):
            n += c[6 * t + r]
        key = (melds[t] + value * n, n, 2 * c[6 * t] + c[6 * t + 1])
        if key > best:
            best = key
            best_t = t
    return best_t


@njit
def hand_worth(c, melds, weight, table, band, rules):
    """(worth, trump): the most this seat will bid, and the trump it would name.

    The trump is :func:`choose_trump`'s; the worth is the strategy's limit with that trump,
    ``weight * meld[t] + table[meld band, aces, tens, trump length]`` (NaN: it will not bid,
    and the worth is -inf).
    """
    aces = 0
    tens = 0
    for s in range(4):
        aces += c[6 * s]
        tens += c[6 * s + 1]
    aces = min(aces, MAX_CARDS - 1)
    tens = min(tens, MAX_CARDS - 1)
    t = choose_trump(c, melds, rules)
    n_trump = 0
    for r in range(6):
        n_trump += c[6 * t + r]
    limit = weight * melds[t] + table[min(melds[t] // band, N_BANDS - 1), aces, tens,
                                      min(n_trump, MAX_TRUMPS - 1)]
    return (limit if np.isfinite(limit) else -np.inf), t


@njit
def run_auction(dealer, worth, margin, rules, calls):
    """Run the auction; ``calls[i] = (seat, bid or -1 for a pass)``.

    Returns ``(bidder, bid, n_calls)``; ``bidder`` is -1 when the hand is thrown in.
    """
    passed = np.zeros(4, np.bool_)
    n_passed = 0
    high = -1
    high_seat = -1
    n = 0
    room = calls.shape[0] - 5
    seat = (dealer + 1) % 4
    if rules[R.forced_open]:
        high = rules[R.opening_bid]
        high_seat = seat
        calls[n, 0] = seat
        calls[n, 1] = high
        n += 1
        seat = (seat + 1) % 4
    while True:
        if not passed[seat]:
            if high_seat < 0 and n_passed == 3 and rules[R.all_pass] == 1:
                return seat, rules[R.stuck_bid], n  # dealer stuck: takes it without bidding
            nxt = rules[R.opening_bid] if high_seat < 0 else high + rules[R.raise_min]
            limit = worth[seat]
            if high_seat == (seat + 2) % 4:
                limit -= margin[seat]
            calls[n, 0] = seat
            if nxt <= limit and n < room:
                high = nxt
                high_seat = seat
                calls[n, 1] = nxt
            else:
                calls[n, 1] = -1
                passed[seat] = True
                n_passed += 1
            n += 1
            if n_passed == 4:
                return -1, 0, n
            if n_passed == 3 and high_seat >= 0:
                return high_seat, high, n
        seat = (seat + 1) % 4

