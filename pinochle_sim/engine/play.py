"""Trick play: the legal cards under a variant's obligations, who wins a trick, and the plain
card-play policies (``random`` and ``heuristic``) on which ``tricks`` (the tricks of a hand,
every policy) builds, with the heuristic's playout of a hand to its end (``rollout``: the
sampling player's rollouts, the double-dummy search's first guess).

Inside the kernels a hand is two masks over the kinds: ``h1`` (at least one copy) and ``h2``
(two copies) in bits 0..23, so that the legal cards are a handful of bit operations; in a deck of
four copies (double-deck) bits 24..47 of ``h1`` hold the kinds held three times and those of
``h2`` four times (:data:`HIGH`), always zero in the 48-card deck. Identical cards are one kind:
the first of identical cards played wins because a card must rank strictly higher to beat.

Obligations (RULES.md): follow suit if you can; with ``must_head``, beat the winning card when
it is of the suit led (not once a trump has beaten a plain lead), even over a partner; void in
the suit led, trump (``must_trump``) and, with ``must_overtrump``, beat a winning trump if you
can; with neither suit nor trump (or ``must_trump=false``), any card.

The ``heuristic`` policy plays as a good club player would, from what a player can see (its
own hand, every card played so far, both copies counted, and the trick on the table):

* leading: as declarer with at least ``draw_trump_min`` trumps while others may hold trump,
  draw trump (the top trump if nobody can beat it, else a low one); else cash a side-suit boss
  card, the most points first (aces early; a ten whose two aces are gone is boss too); else
  lead the lowest card of the longest side suit;
* following: if the partner is winning with a card nobody can still beat in its suit (or this
  is the last card of the trick), give it the most points (plain cards before trump, cards that
  could not win a trick of their own before boss cards); else win as cheaply as possible,
  preferring a winner nobody can still beat; else throw the least valuable card (plain before
  trump, fewest points, lowest rank).
"""
from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from .._numba import bjit, ijit
from .._numba import popcount as _popcount
from .cards import N_KINDS, parse_cards, parse_suit
from .deal import below
from .variants import R

ALL = (1 << N_KINDS) - 1
#: How far up a mask the third and fourth copies of a kind sit (``h1 >> HIGH``: the kinds held
#: three times, ``h2 >> HIGH``: four times).
HIGH = N_KINDS


# ------------------------------------------------------------------------------------------
# Bit helpers (masks are int64 holding 24 bits).

@bjit
def lsb(x):
    """Index of the lowest set bit of ``x``: the highest card of a suit mask (0 for an empty mask)."""
    return np.int64(trailing_zeros(x)) & 63


@bjit
def msb(x):
    """Index of the highest set bit of ``x``: the lowest card of a suit mask (0 for an empty mask)."""
    return max(np.int64(63 - leading_zeros(x)), 0)


@bjit
def popcount(x):
    """The number of kinds in mask ``x``."""
    return np.int64(_popcount(x))


SUIT = np.arange(N_KINDS, dtype=np.int64) // 6
RANK = np.arange(N_KINDS, dtype=np.int64) % 6
#: ABOVE[k]: mask of the kinds of k's suit that rank above k.
ABOVE = np.array([(1 << k) - (1 << (6 * (k // 6))) for k in range(N_KINDS)], np.int64)


@bjit
def suit_mask(s):
    return 0x3F << (6 * s)


@bjit
def above(card):
    """Mask of the kinds of ``card``'s suit that rank above it."""
    return ABOVE[card]


@bjit
def to_masks(counts):
    """(h1, h2) of a count vector (copies three and four above :data:`HIGH`)."""
    h1 = 0
    h2 = 0
    for k in range(N_KINDS):  # branch-free, so that the loop vectorises
        h1 |= (np.int64(counts[k] > 0) << k) | (np.int64(counts[k] > 2) << (k + HIGH))
        h2 |= (np.int64(counts[k] > 1) << k) | (np.int64(counts[k] > 3) << (k + HIGH))
    return h1, h2


@ijit
def drop(h1, h2, card):
    """The masks ``h1``, ``h2`` with one copy of ``card`` less, and the bit taken from them
    (its copy: 0 the first, 1 the second, 2 and 3 the third and fourth) for :func:`restore`."""
    bit = 1 << card
    if h2 & bit:
        high = bit << HIGH
        if h1 & high:
            if h2 & high:
                return h1, h2 ^ high, 3
            return h1 ^ high, h2, 2
        return h1, h2 ^ bit, 1
    return h1 ^ bit, h2, 0


@ijit
def restore(h1, h2, card, copy):
    """Undo :func:`drop`."""
    bit = 1 << (card + (HIGH if copy > 1 else 0))
    if copy & 1:
        return h1, h2 ^ bit
    return h1 ^ bit, h2


@ijit
def take(h1, h2, seat, card):
    """Take ``card`` from ``seat``'s hand (masks ``h1``, ``h2``, changed in place); returns
    which copy it was (:func:`drop`), for ``put_back``."""
    bit = 1 << card
    if h2[seat] & bit:
        if h1[seat] & (bit << HIGH):  # a third copy held (double-deck)
            h1[seat], h2[seat], copy = drop(h1[seat], h2[seat], card)
            return copy
        h2[seat] ^= bit
        return 1
    h1[seat] ^= bit
    return 0


@ijit
def put_back(h1, h2, seat, card, copy):
    """Undo ``take``."""
    h1[seat], h2[seat] = restore(h1[seat], h2[seat], card, copy)


@ijit
def add_copy(p1, p2, card):
    """The masks of a count (``p1``, ``p2``, as a hand's) with one more copy of ``card``."""
    bit = 1 << card
    if not p2 & bit:  # a first or second copy, as in the 48-card deck
        return p1 | bit, p2 | (p1 & bit)
    high = bit << HIGH
    if not p1 & high:
        return p1 | high, p2
    return p1, p2 | high


@ijit
def copies_in(h1, h2, mask):
    """The cards of the kinds ``mask`` (bits 0..23) that the masks ``h1``, ``h2`` hold, every copy."""
    both = mask | (mask << HIGH)
    return popcount(h1 & both) + popcount(h2 & both)


@ijit
def all_out(h1, h2, p1, p2, four):
    """The kinds of which every copy is in hand ``h1``/``h2`` or played (``p1``/``p2``: the played
    copies as a hand's masks, a kind the deck lacks counted as played in full): two, or with
    ``four`` four, between them."""
    if not four:
        return h2 | p2 | (h1 & p1)
    a1, a2, a3, a4 = h1 & ALL, h2 & ALL, (h1 >> HIGH) & ALL, h2 >> HIGH
    b1, b2, b3, b4 = p1 & ALL, p2 & ALL, (p1 >> HIGH) & ALL, p2 >> HIGH
    return a4 | b4 | (a1 & b3) | (a2 & b2) | (a3 & b1)


@ijit
def trick_step(card, seat, j, lead, win, win_seat, trump):
    """The trick after ``seat`` plays ``card`` as its ``j``-th card: the suit led, the winning
    card and its seat."""
    if j == 0:
        return SUIT[card], card, seat
    if beats(card, win, trump):
        return lead, card, seat
    return lead, win, win_seat


@bjit
def beats(card, win, trump):
    """Whether ``card`` played after ``win`` takes the lead of the trick."""
    cs = SUIT[card]
    if cs == SUIT[win]:
        return card < win
    return cs == trump


@bjit
def _beat_if_you_can(cards, win):
    """The cards of ``cards`` that beat ``win`` in its suit, or all of them if none does."""
    over = cards & above(win)
    return over if over else cards


@bjit
def legal_mask(h1, n_in_trick, lead, win, trump, must_head, must_trump, must_overtrump):
    """Mask of the kinds in hand ``h1`` that may be played (see the module docstring).

    ``lead`` is the suit led and ``win`` the kind now winning (unused on an empty trick).
    """
    if n_in_trick == 0:
        return h1 & ALL
    follow = h1 & suit_mask(lead)
    if follow:
        return _beat_if_you_can(follow, win) if must_head and SUIT[win] == lead else follow
    trumps = h1 & suit_mask(trump)
    if must_trump and trumps:
        return _beat_if_you_can(trumps, win) if must_overtrump and SUIT[win] == trump else trumps
    return h1 & ALL


@bjit
def pick_random(h1, h2, legal, state):
    """A legal card uniformly at random over the physical cards (two copies weigh twice, four
    four times)."""
    c1 = legal & h1
    c2 = legal & h2
    n1 = popcount(c1)
    if not (h1 | h2) >> HIGH:  # no third copy held: the 48-card deck's draw
        state, r = below(state, n1 + popcount(c2))
        x = c1 if r < n1 else c2
        r = r if r < n1 else r - n1
    else:
        c3 = legal & (h1 >> HIGH)
        c4 = legal & (h2 >> HIGH)
        n2 = popcount(c2)
        n3 = popcount(c3)
        state, r = below(state, n1 + n2 + n3 + popcount(c4))
        x = c1
        if r >= n1:
            r -= n1
            x = c2
            if r >= n2:
                r -= n2
                x = c3
                if r >= n3:
                    r -= n3
                    x = c4
    for _ in range(r):
        x &= x - 1
    return state, lsb(x)


# ------------------------------------------------------------------------------------------
# The heuristic. ``unseen``: mask of the kinds of which the others may still hold a copy.

@bjit
def _boss(card, unseen):
    """No card the others may still hold beats ``card`` in its own suit.

    (A plain boss card can still be trumped by a player void in the suit: an accepted risk.)
    """
    return (unseen & above(card)) == 0


@bjit
def _cost(card, trump, points):
    """What giving up ``card`` costs, as one number (lower: cheaper): plain before trump, fewer
    points, lower rank. Cards of different suits alike in all three tie."""
    return (1 << 40 if SUIT[card] == trump else 0) | (points[RANK[card]] << 3) | (7 - RANK[card])


@bjit
def cheaper(a, b, trump, points):
    """Card ``a`` costs less to give up than ``b``: plain before trump, fewer points, lower rank."""
    return _cost(a, trump, points) < _cost(b, trump, points)


@bjit
def _cheapest(cards, trump, points):
    """The cheapest card of the mask ``cards`` (not empty); ties: the lowest kind."""
    best = lsb(cards)
    low = _cost(best, trump, points)
    x = cards & (cards - 1)
    while x:
        k = lsb(x)
        x &= x - 1
        c = _cost(k, trump, points)
        if c < low:
            low = c
            best = k
    return best


@bjit
def _gift(card, trump, points, unseen):
    """How good a gift ``card`` is to a partner's trick, as one number (higher: better): plain
    before trump, a card that could not win a trick of its own before a boss card, then the
    most points, then the lowest rank."""
    return ((0 if SUIT[card] == trump else 1 << 41) | (0 if _boss(card, unseen) else 1 << 40)
            | (points[RANK[card]] << 3) | RANK[card])


@bjit
def _winners(cards, win, trump):
    """The cards of the mask ``cards`` that beat ``win`` played before them (:func:`beats`)."""
    over = cards & ABOVE[win]
    if SUIT[win] != trump:
        over |= cards & suit_mask(trump)
    return over


@bjit
def choose_lead(h1, h2, unseen, trump, declaring, points, draw_trump_min, ruff):
    """The heuristic's lead (see the module docstring); no boss card is cashed in the suits of
    ``ruff`` (a bit per suit: an opponent is known to be void there and may hold trump)."""
    tm = h1 & suit_mask(trump)
    n_trump = copies_in(h1, h2, suit_mask(trump))
    if declaring and n_trump >= draw_trump_min and (unseen & suit_mask(trump)):
        top = lsb(tm)
        return top if _boss(top, unseen) else msb(tm)
    best = -1
    for s in range(4):
        m = h1 & suit_mask(s)
        if s != trump and m and not (ruff >> s) & 1:
            k = lsb(m)
            if _boss(k, unseen) and (best < 0 or points[RANK[k]] > points[RANK[best]]):
                best = k
    if best >= 0:
        return best
    best_len = 0
    for s in range(4):
        m = h1 & suit_mask(s)
        if s != trump and m:
            length = copies_in(h1, h2, suit_mask(s))
            k = msb(m)
            if length > best_len or (length == best_len and points[RANK[k]] < points[RANK[best]]):
                best_len = length
                best = k
    return best if best >= 0 else msb(tm)


@bjit
def partner_safe(unseen, last, win, partner_winning):
    """The plain heuristic's test that its partner's winning card will hold: it is the trick's
    last card, or nobody can beat it in its suit."""
    return partner_winning and (last or _boss(win, unseen))


@bjit
def choose_follow(legal, unseen, trump, last, win, safe, points):
    """The heuristic's card when following (``last``: the trick's last card; ``safe``: its
    partner is winning and will keep the trick; see the module docstring). Ties go to the
    lowest kind."""
    if safe:
        best = lsb(legal)
        top = _gift(best, trump, points, unseen)
        x = legal & (legal - 1)
        while x:
            k = lsb(x)
            x &= x - 1
            g = _gift(k, trump, points, unseen)
            if g > top:
                top = g
                best = k
        return best
    winners = _winners(legal, win, trump)
    if not winners:
        return _cheapest(legal, trump, points)
    if last:
        return _cheapest(winners, trump, points)
    bosses = 0  # winners nobody can beat in their suit
    x = winners
    while x:
        k = lsb(x)
        x &= x - 1
        if _boss(k, unseen):
            bosses |= 1 << k
    return _cheapest(bosses if bosses else winners, trump, points)


@bjit
def rollout(h1, h2, pos, first, p1, p2, trump, bidder_team, draw_trump_min, max_team, tb):
    """The points side ``max_team`` takes from position ``pos`` (the cards on the table included)
    to the end when its seat to play plays ``first`` (-1: the heuristic's card) and then every seat
    the plain heuristic, each seeing what it would at the table: its own hand and the cards played
    (``p1``/``p2``, as a hand's masks); ``h1``/``h2`` are spent. The sampling player values cards
    by it, and the double-dummy search takes its first guess from it."""
    rules, points, team, partner = tb.rules, tb.card_points, tb.team, tb.partner
    seats = h1.shape[0]
    seat, j, lead, win, win_seat, _, pot, cards, _ = pos
    four = rules[R.copies] > 2
    got = 0
    card = first
    while cards > 0:
        if card < 0:
            unseen = ALL & ~all_out(h1[seat], h2[seat], p1, p2, four)
            if j == 0:
                card = choose_lead(h1[seat], h2[seat], unseen, trump, team[seat] == bidder_team, points,
                                   draw_trump_min, 0)
            else:
                legal = legal_mask(h1[seat], j, lead, win, trump, rules[R.must_head], rules[R.must_trump],
                                   rules[R.must_overtrump])
                last = j == seats - 1
                if not legal & (legal - 1):  # one legal card
                    card = lsb(legal)
                else:
                    card = choose_follow(legal, unseen, trump, last, win,
                                         partner_safe(unseen, last, win, win_seat == partner[seat]), points)
        take(h1, h2, seat, card)
        p1, p2 = add_copy(p1, p2, card)
        lead, win, win_seat = trick_step(card, seat, j, lead, win, win_seat, trump)
        pot += points[RANK[card]]
        cards -= 1
        card = -1
        if j == seats - 1:
            if cards == 0:
                pot += rules[R.last_trick]
            if team[win_seat] == max_team:
                got += pot
            seat, j, pot = win_seat, 0, 0
        else:
            seat = seat + 1 if seat + 1 < seats else 0
            j += 1
    return got


def legal_plays(hand, trick, trump, v="thousand") -> list[str]:
    """The cards of ``hand`` that may be played to ``trick`` (cards so far, leader first).

    >>> legal_plays("AS 9S TH 9C", "KS", "H", "classic")
    ['AS']
    >>> legal_plays("TH 9C", "KS QH", "H", "classic")
    ['TH']
    """
    from .cards import card_name, hand_counts
    from .variants import variant
    v = variant(v) if isinstance(v, str) else v
    t = parse_suit(trump)
    played = parse_cards(trick)
    if len(played) >= v.players:
        raise ValueError(f"a trick holds at most {v.players - 1} cards before yours in {v.name}, got {len(played)}")
    win = played[0] if played else -1
    for c in played[1:]:
        if beats(c, win, t):
            win = c
    h1, _ = to_masks(hand_counts(hand, deck=v.deck_counts))
    mask = legal_mask(h1, len(played), SUIT[played[0]] if played else 0, win, t, v.must_head,
                      v.must_trump, v.must_overtrump)
    return [card_name(k) for k in range(N_KINDS) if mask >> k & 1]
