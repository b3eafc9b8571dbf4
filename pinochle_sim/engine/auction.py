"""The auction, and the bidding policy that values a hand.

Rules (RULES.md): bidding starts left of the dealer and goes clockwise; a pass is final; a bid
beats the standing one by at least ``raise_min`` (exactly, without ``jump_bids``); the auction
ends when every other seat has passed after a bid. With ``forced_open`` the seat left of the
dealer is in at the opening bid. If nobody bids, the hand is thrown in, or (``dealer_stuck``) the
dealer, whom every other seat has passed, takes the contract at ``stuck_bid`` without bidding.
The seats are the variant's (``Tables.partner``: four in two partnerships, or three alone).

Every bidding strategy (see ``strategies``) reaches the kernel as data: a limit per hand and
auction situation, ``weight * meld + table[meld band, aces, tens, trump length, situation]``,
and a partner margin. A seat bids by steps of the smallest raise while the next bid is within
its limit for the situation it sees (nobody has bid, its partner holds the bid, an opponent
does with or without the partner still in), and does not outbid its partner unless its limit
clears the next bid by the margin.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import bjit, ijit
from .variants import DEALER_STUCK, R, Variant

N_BANDS = 16      # meld bands of a strategy's table; the last is open-ended
MAX_CARDS = 9     # 0..8 aces (or tens) in a hand
MAX_TRUMPS = 13
#: What a seat knows of the auction when it calls, as a strategy's tables read it.
SITUATIONS = ("open", "partner_high", "opponent_high_partner_out", "opponent_high")
N_SITUATIONS = len(SITUATIONS)


class Bidding(NamedTuple):
    """Every seat's bidding strategy, as the kernels read it (see ``strategies``; made by
    :func:`compile_bidding`)."""

    weight: np.ndarray  # float64[seats]: the limit is weight * meld + table[...]
    table: np.ndarray   # float64[tables, bands, aces, tens, trumps, situations] (NaN: pass)
    which: np.ndarray   # int64[seats]: the table each seat reads
    margin: np.ndarray  # float64[seats]: how far a limit must clear the next bid to outbid a partner
    band: int           # width of a meld band
    keep: np.ndarray    # bool[seats, bands, aces, tens, trumps, situations + 1, raises]: see :func:`kept`


#: ``Bidding.keep`` that plays out every contract.
KEEP_ALL = np.ones((1,) * 7, np.bool_)


def compile_bidding(weight, tables, margin, band, keep=KEEP_ALL) -> Bidding:
    """The kernels' :class:`Bidding` from each seat's limits ``tables[seat, situation, band,
    aces, tens, trumps]``. Seats with the same limits share one table, and a hand's four
    situations lie side by side: valuing a hand reads one cache line per seat, not four lines
    of a table several times the size of a core's cache. ``keep``: which contracts are played
    out (:func:`kept`; by default all)."""
    tables = np.asarray(tables, np.float64)
    distinct: list[np.ndarray] = []
    which = np.empty(len(tables), np.int64)
    for seat, t in enumerate(tables):
        same = [k for k, d in enumerate(distinct) if np.array_equal(d, t, equal_nan=True)]
        if not same:
            distinct.append(t)
        which[seat] = same[0] if same else len(distinct) - 1
    table = np.ascontiguousarray(np.moveaxis(np.stack(distinct), 1, -1))
    keep = np.ascontiguousarray(keep, np.bool_)
    if keep.ndim != 7:
        raise ValueError(f"keep has 7 dimensions (seats, bands, aces, tens, trumps, situations + 1, raises), "
                         f"not {keep.ndim}")
    return Bidding(np.asarray(weight, np.float64), table, which, np.asarray(margin, np.float64), int(band), keep)


@ijit
def situation(seat, high_seat, passed, partner):
    """The auction as ``seat`` (whose partner is ``partner``, -1 for none) sees it: nobody has bid
    (0), its partner holds the bid (1), an opponent holds it and the partner has passed (2), an
    opponent holds it (3; a seat without a partner always sees this one)."""
    return situation_of(high_seat, partner, partner >= 0 and passed[partner])


@ijit
def situation_of(high_seat, partner, partner_out):
    """:func:`situation` from whether the partner has passed (``partner_out``)."""
    if high_seat < 0:
        return 0
    if partner < 0:
        return 3
    if high_seat == partner:
        return 1
    return 2 if partner_out else 3


@bjit
def trump_value(rules):
    """What one more trump adds to the side's total, in the variant's points: 15 per 250 trick
    points, and 4 more per card the partner passes (the rule-of-thumb fits of the bid tables:
    14-15 per trump without passing, 27-31 with three or four cards passed)."""
    return (15.0 + 4.0 * rules[R.pass_cards]) * rules[R.trick_total] / 250.0


@ijit
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


@ijit
def hand_cell(c, melds, t, band):
    """The cell of a strategy's table that hand ``c`` reads in trump ``t``: ``(meld band, aces,
    tens, trump length)``, each capped at the table's last."""
    aces = 0
    tens = 0
    for s in range(4):
        aces += c[6 * s]
        tens += c[6 * s + 1]
    n_trump = 0
    for r in range(6):
        n_trump += c[6 * t + r]
    return (min(melds[t] // band, N_BANDS - 1), min(aces, MAX_CARDS - 1), min(tens, MAX_CARDS - 1),
            min(n_trump, MAX_TRUMPS - 1))


@ijit
def kept(bd, seat, c, melds, t, sit, bid, limit, raise_min):
    """Whether the contract ``seat`` won at ``bid`` in situation ``sit`` (-1: a forced opening or
    a stuck dealer), holding ``c`` with ``melds`` and naming ``t``, with ``limit`` its most in
    that situation, is played out: ``bd.keep[seat, meld band, aces, tens, trumps, sit + 1,
    whole raises the bid sits below the limit]``, a dimension of size 1 covering every index and
    the last raise every one beyond it. A study that reads only some contracts (the auction
    model's) plays out only those; the others' deals stop after the auction."""
    k = bd.keep
    if k.size == 1:
        return k[0, 0, 0, 0, 0, 0, 0]
    b, a, x, n = hand_cell(c, melds, t, bd.band)
    below = 0
    if sit >= 0 and raise_min > 0 and np.isfinite(limit):
        below = int(np.floor((limit - bid) / raise_min + 1e-9))  # (as the model rounds its gaps)
    return k[min(seat, k.shape[0] - 1), min(b, k.shape[1] - 1), min(a, k.shape[2] - 1), min(x, k.shape[3] - 1),
             min(n, k.shape[4] - 1), min(sit + 1, k.shape[5] - 1), min(max(below, 0), k.shape[6] - 1)]


@ijit
def hand_worth(c, melds, weight, table, band, rules, worth):
    """The trump this seat would name; ``worth[s]`` receives the most it will bid in each
    auction situation ``s`` (see :func:`situation`).

    The trump is :func:`choose_trump`'s; the worth is the strategy's limit with that trump,
    ``weight * meld[t] + table[meld band, aces, tens, trump length, s]`` (NaN: it will not bid,
    and the worth is -inf).
    """
    t = choose_trump(c, melds, rules)
    cell = hand_cell(c, melds, t, band)
    for s in range(N_SITUATIONS):
        limit = weight * melds[t] + table[cell[0], cell[1], cell[2], cell[3], s]
        worth[s] = limit if np.isfinite(limit) else -np.inf
    return t


@ijit
def over_partner(margin, seat, sit):
    """What ``seat``'s limit gives up in situation ``sit``: ``margin[seat]`` over its partner's
    bid (situation 1), nothing elsewhere. A seat bids the next bid while it is at most its worth
    in the situation less this."""
    return margin[seat] if sit == 1 else 0.0


@bjit
def run_auction(dealer, worth, margin, tb, calls, passed):
    """Run the auction of variant ``tb`` (``variants.Tables``); ``calls[i] = (seat, bid or -1
    for a pass)``; ``passed`` (bool[seats]) is scratch.

    ``worth[seat, s]`` is the most ``seat`` bids in situation ``s``. Returns ``(bidder, bid,
    n_calls, situation)``: ``bidder`` is -1 when the hand is thrown in; ``situation`` is the one
    in which the bidder made the winning bid (-1 for a forced opening or a stuck dealer).
    """
    rules = tb.rules
    players = rules[R.players]
    passed[:] = False
    seat = (dealer + 1) % players
    if rules[R.forced_open]:
        calls[0, 0] = seat
        calls[0, 1] = rules[R.opening_bid]
        return continue_auction((seat + 1) % players, passed, rules[R.opening_bid], seat, -1, 1,
                                worth, margin, tb, calls)
    return continue_auction(seat, passed, -1, -1, -1, 0, worth, margin, tb, calls)


@bjit
def continue_auction(seat, passed, high, high_seat, high_sit, n, worth, margin, tb, calls):
    """The rest of an auction from ``seat``'s turn, with the seats in ``passed`` out, the bid
    ``high`` held by ``high_seat`` (-1: none), made in situation ``high_sit``, and ``n`` calls
    already in ``calls``. Returns as :func:`run_auction`."""
    rules = tb.rules
    players = passed.shape[0]
    n_passed = 0
    for p in range(players):
        n_passed += passed[p]
    if n_passed == players:
        return -1, 0, n, -1
    if n_passed == players - 1 and high_seat >= 0:
        return high_seat, high, n, high_sit
    room = calls.shape[0] - 5
    while True:
        if not passed[seat]:
            if high_seat < 0 and n_passed == players - 1 and rules[R.all_pass] == DEALER_STUCK:
                return seat, rules[R.stuck_bid], n, -1  # dealer stuck: takes it without bidding
            if high_seat >= 0:  # the raises up to the next pass at once (the same calls)
                t, high_seat, high_sit = _raises(seat, passed, high, high_seat, high_sit, n, room, worth,
                                                 margin, tb, calls)
                if t > 0:
                    high += t * rules[R.raise_min]
                    n += t
                    seat = _next_in(high_seat, passed)
            nxt = rules[R.opening_bid] if high_seat < 0 else high + rules[R.raise_min]
            sit = situation(seat, high_seat, passed, tb.partner[seat])
            limit = worth[seat, sit] - over_partner(margin, seat, sit)
            calls[n, 0] = seat
            if nxt <= limit and n < room:
                high = nxt
                high_seat = seat
                high_sit = sit
                calls[n, 1] = nxt
            else:
                calls[n, 1] = -1
                passed[seat] = True
                n_passed += 1
            n += 1
            if n_passed == players:
                return -1, 0, n, -1
            if n_passed == players - 1 and high_seat >= 0:
                return high_seat, high, n, high_sit
        seat = seat + 1 if seat + 1 < players else 0  # (no division a call)


@ijit
def _raises(seat, passed, high, high_seat, high_sit, n, room, worth, margin, tb, calls):
    """The run of raises from ``seat``'s turn, written to ``calls[n:]`` as the auction loop
    would make them, up to the first seat whose limit stops it (whose pass is left to that
    loop). While nobody passes, each seat still in sees the same situation at every turn (the
    seat before it holds the bid), so each one's limit is fixed and the run's length is
    counted, not stepped. Applies only when ``high_seat`` is the last seat still in before
    ``seat``; returns ``(raises, high_seat, high_sit)`` (0 raises: not applicable, or ``seat``
    passes now)."""
    players = passed.shape[0]
    r = tb.rules[R.raise_min]
    m = 0  # seats still in
    for q in range(players):
        m += not passed[q]
    if m < 2 or _before(seat, passed) != high_seat:
        return 0, high_seat, high_sit
    turns = max(room - n, 0)  # the first turn with no room left
    q = seat
    before = high_seat
    for i in range(m):  # the first turn of each seat still in that it cannot bid at
        sit = situation(q, before, passed, tb.partner[q])
        limit = worth[q, sit] - over_partner(margin, q, sit)
        k = 0
        if high + r * (i + 1) <= limit:
            k = int(min((limit - high - r * (i + 1)) / (r * m), turns)) + 1
            while k > 0 and high + r * (i + (k - 1) * m + 1) > limit:
                k -= 1
            while i + k * m < turns and high + r * (i + k * m + 1) <= limit:
                k += 1
        turns = min(turns, i + k * m)
        before = q
        q = _next_in(q, passed)
    q = seat
    before = high_seat
    for t in range(turns):
        calls[n + t, 0] = q
        calls[n + t, 1] = high + r * (t + 1)
        before = q
        q = _next_in(q, passed)
    if turns == 0:
        return 0, high_seat, high_sit
    return turns, before, situation(before, _before(before, passed), passed, tb.partner[before])


@ijit
def _next_in(seat, passed):
    """The seat still in after ``seat``."""
    players = passed.shape[0]
    q = seat + 1 if seat + 1 < players else 0
    while passed[q]:
        q = q + 1 if q + 1 < players else 0
    return q


@ijit
def _before(seat, passed):
    """The seat still in before ``seat``."""
    players = passed.shape[0]
    q = seat - 1 if seat > 0 else players - 1
    while passed[q]:
        q = q - 1 if q > 0 else players - 1
    return q


# ------------------------------------------------------------------------------------------
# The same rules in Python, a call at a time: for reading an auction written out (``advise``)
# and for the tests, which hold it to :func:`run_auction` call by call.

class AuctionError(ValueError):
    """An auction that cannot have happened under the variant's rules: the message says why."""


class AuctionState:
    """An auction between calls under the rules of ``variant``: the ``dealer``, the standing bid
    ``high`` (0: none) held by ``high_seat`` (-1: none) and made in the situation
    ``high_situation`` (-1: a forced opening), the seats that have ``passed`` (bool per seat) and
    the ``calls`` so far as ``(seat, bid or None)``. :meth:`call` checks a call against the rules
    and makes it; ``seat`` is whose turn it is.

    >>> from pinochle_sim.engine.variants import variant
    >>> a = AuctionState(variant("classic"), dealer=0).call(None).call(260)
    >>> a.seat, a.least_bid, SITUATIONS[a.situation()], a.high_seat
    (3, 270, 'opponent_high_partner_out', 2)
    """

    def __init__(self, v: Variant, dealer: int):
        self.variant = v
        self.dealer = dealer
        self.high, self.high_seat, self.high_situation = 0, -1, -1
        self.passed = np.zeros(v.players, np.bool_)
        self.calls: list[tuple[int, int | None]] = []
        self.seat = (dealer + 1) % v.players

    @property
    def forced(self) -> bool:
        """The first call is the forced opening (``forced_open``)."""
        return self.variant.forced_open and not self.calls

    @property
    def least_bid(self) -> int:
        return self.variant.opening_bid if self.high_seat < 0 else self.high + self.variant.raise_min

    @property
    def over(self) -> bool:
        """Every seat has passed, or every seat but the one holding the bid."""
        out = int(self.passed.sum())
        return out == self.variant.players or (self.high_seat >= 0 and out == self.variant.players - 1)

    @property
    def stuck(self) -> bool:
        """Every other seat has passed without a bid and the seat to call, the dealer, takes the
        contract at ``stuck_bid`` without bidding (``all_pass=dealer_stuck``)."""
        return (self.high_seat < 0 and int(self.passed.sum()) == self.variant.players - 1
                and self.variant.all_pass == "dealer_stuck")

    def situation(self, seat: int | None = None) -> int:
        """The auction as ``seat`` (by default the seat to call) sees it: an index of ``SITUATIONS``."""
        seat = self.seat if seat is None else seat
        partner = self.variant.partner(seat)
        return int(situation(seat, self.high_seat, self.passed, -1 if partner is None else partner))

    def call(self, bid: int | None) -> AuctionState:
        """The seat to call passes (None) or bids ``bid``; an :class:`AuctionError` says why a
        call cannot be made. Returns the state, for chaining."""
        v = self.variant
        if self.over:
            raise AuctionError("the auction is already over")
        if bid is None:
            if self.forced:
                raise AuctionError(f"the first seat is in at {v.opening_bid} in {v.name}")
            self.passed[self.seat] = True
        else:
            need = self.least_bid
            if bid < need:
                raise AuctionError(f"bid {bid} is below the least legal bid, {need}")
            if self.high_seat >= 0 and not v.jump_bids and bid != need:
                raise AuctionError(f"bid {bid}: each raise is exactly {v.raise_min} in {v.name}")
            if (bid - v.opening_bid) % v.raise_step:
                raise AuctionError(f"bid {bid} is not a step of {v.raise_step}")
            if self.forced and bid != v.opening_bid:
                raise AuctionError(f"the first seat is in at {v.opening_bid} in {v.name}")
            self.high_situation = -1 if self.forced else self.situation()
            self.high, self.high_seat = bid, self.seat
        self.calls.append((self.seat, bid))
        if not self.passed.all():
            self.seat = (self.seat + 1) % v.players
            while self.passed[self.seat]:
                self.seat = (self.seat + 1) % v.players
        return self

    def result(self) -> tuple[int, int, int]:
        """``(bidder, bid, situation)`` as :func:`run_auction` gives them once the auction is
        over or the dealer is stuck (bidder -1: thrown in)."""
        if self.stuck:
            return self.seat, self.variant.stuck_bid, -1
        if not self.over:
            raise AuctionError("the auction is not over")
        if self.high_seat < 0:
            return -1, 0, -1
        return self.high_seat, self.high, self.high_situation
