"""The auction, and the bidding policy that values a hand.

Rules (RULES.md): bidding starts left of the dealer and goes clockwise; a pass is final; a bid
beats the standing one by at least ``raise_min`` (exactly, without ``jump_bids``); the auction
ends when three seats have passed after a bid. With ``forced_open`` the seat left of the dealer
is in at the opening bid. If nobody bids, the hand is thrown in, or (``dealer_stuck``) the dealer,
whose three opponents and partner have passed, takes the contract at ``stuck_bid`` without bidding.

The policy bids by steps of the smallest raise while the next bid is within the hand's
estimated worth: the best-trump meld, plus what the side should take in tricks (a base, so much
per ace and per ten held, so much per trump beyond two), plus an allowance for the partner's
meld; all on the 250-point scale, scaled to the variant's trick total, times ``aggression``.
It does not outbid its partner unless its worth clears the next bid by ``partner_margin``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from ._numba import njit
from .cards import A, T
from .variants import R


@dataclass(frozen=True)
class BidPolicy:
    """Parameters of the bidding policy (trick figures on the 250-point scale)."""

    base: float = 60.0           # trick points the side takes with nothing special
    per_ace: float = 20.0        # each ace held
    per_ten: float = 10.0        # each ten held
    per_trump: float = 10.0      # each trump beyond two
    partner: float = 40.0        # the partner's meld, on average
    partner_margin: float = 30.0  # needed over the next bid to outbid one's partner
    aggression: float = 1.0      # multiplies the worth

    def as_array(self) -> np.ndarray:
        return np.array([getattr(self, f.name) for f in fields(self)], np.float64)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


BASE, PER_ACE, PER_TEN, PER_TRUMP, PARTNER, PARTNER_MARGIN, AGGRESSION = range(len(fields(BidPolicy)))


@njit
def trick_estimate(c, trump, params, scale, trick_total):
    """Trick points the side should take with hand ``c`` and this trump (the policy's estimate)."""
    aces = 0
    tens = 0
    for s in range(4):
        aces += c[6 * s + A]
        tens += c[6 * s + T]
    n_trump = 0
    for r in range(6):
        n_trump += c[6 * trump + r]
    est = params[BASE] + params[PER_ACE] * aces + params[PER_TEN] * tens
    est += params[PER_TRUMP] * max(0, n_trump - 2)
    return min(est * scale, float(trick_total))


@njit
def hand_worth(c, melds, params, scale, trick_total):
    """(worth, trump): the largest estimated side total over the four trumps, and its trump."""
    best = -1e18
    best_t = 0
    for t in range(4):
        w = melds[t] + trick_estimate(c, t, params, scale, trick_total) + params[PARTNER] * scale
        if w > best:
            best = w
            best_t = t
    return best * params[AGGRESSION], best_t


@njit
def run_auction(dealer, worth, params, scale, rules, calls):
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
                limit -= params[seat, PARTNER_MARGIN] * scale
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


def policy_params(policies: list[BidPolicy] | BidPolicy | None) -> np.ndarray:
    """``float64[4, P]``: one row of bidding parameters per seat."""
    if policies is None:
        policies = BidPolicy()
    if isinstance(policies, BidPolicy):
        policies = [policies] * 4
    if len(policies) != 4:
        raise ValueError("give one bidding policy, or one for each of the four seats")
    return np.stack([p.as_array() for p in policies])


