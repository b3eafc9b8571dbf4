"""What each seat knows about the others' cards during the play, and hidden hands drawn exactly
from it (for the sampling player).

A seat sees its own cards and every card played. Besides those it knows

* the cards of every meld laid down (face up, so every seat knows them: ``meld.meld_used``), and
  what was not laid down: meld is shown in full, so a seat holds no card that, with its other
  cards of the meld hand, would have made more meld (not the K and Q of a suit in which it showed
  no marriage, not the Q of spades and J of diamonds if it showed no pinochle, not four aces if
  it showed no aces around; every nine of trump a seat held it showed, so those are known cards).
  That is a fact about a whole hand, not about one kind, so it is not in the count below:
  :func:`agrees_with_meld` checks a drawn layout against it (the sampling player's ``infer``
  option redraws a layout that fails it);
* the cards passed: the bid winner's partner knows the cards it gave the bid winner (those not
  given back) and the bid winner those it passed back (each while the holder has not played
  them); the bid winner with a kitty knows its own discard;
* what the calls said (public): each seat bids by its strategy's limits, so its bids and its
  pass bound its limit in each auction situation (:func:`note_calls`); that too is a fact about
  a whole hand, which :func:`agrees_with_calls` checks a drawn layout against (the sampling
  player's ``calls`` option);
* what the obligations revealed: a seat that did not follow suit holds none of the suit, one that
  did not beat the winning card where it had to (``must_head``, ``must_overtrump``) holds none
  that beats it, one that did not trump holds no trump: exactly the kinds that would have made the
  card it played illegal (``tests`` check :func:`revealed` against ``play.legal_mask``).

The holders of hidden cards are the other seats and, in three-hand, the discard (a pile of three
cards nobody but the bid winner has seen). :func:`prepare` counts, for one seat, the ways the
cards it cannot see can lie among them under every constraint (a dynamic program over the kinds,
the state being how many cards each holder still lacks; each split of a kind's copies weighted by
the ways to choose which physical copies go where), and :func:`draw` samples a layout from that
count kind by kind, so every layout consistent with what the seat knows is drawn with the
probability it has under a uniform deal: an exact sample, with no rejection.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import bjit, copy_into, ijit, njit
from .auction import N_SITUATIONS, hand_worth, over_partner, situation_of
from .cards import COPIES, MAX_COPIES, N_KINDS, NINE
from .deal import below, next64
from .meld import hand_meld_all_trumps, meld_in_trump, meld_used, suit_digits
from .melds import DIX
from .play import ABOVE, ALL, HIGH, SUIT, beats, copies_in, drop, suit_mask, to_masks
from .variants import R

MAX_HOLDERS = 3   # the other seats of four-hand; two seats and the discard in three-hand
MAX_NEED = 21     # the most hidden cards one holder can lack (20 in double-deck), plus one
_SPLITS = np.array([[a, b, n - a - b] for n in range(MAX_COPIES + 1) for a in range(n + 1) for b in range(n - a + 1)],
                   np.int64)  # every split of 0 to 4 copies among three holders, by n
_SPLIT_START = np.cumsum([0] + [(n + 1) * (n + 2) // 2 for n in range(MAX_COPIES + 1)]).astype(np.int64)
_FACT = np.array([1.0, 1.0, 2.0, 6.0, 24.0])
#: A suit's configuration (``meld.suit_code``: six digits base copies + 1, ace first) of one copy
#: of each kind in six bits of a mask (bit j the suit's j-th kind), by copies // 2 - 1 (two, four).
_SUIT_DIGITS = np.array([[sum(base ** (5 - j) for j in range(6) if x >> j & 1) for x in range(64)]
                         for base in (3, 5)], np.int64)
_TO_UNIT = 1.0 / 2.0 ** 53


class Seen(NamedTuple):
    """What the seats know, kept up to date during the play. Holder ``seats`` is the discard."""

    known: np.ndarray     # int8[seats, seats + 1, 24]: cards observer o knows holder q still holds
    kmask: np.ndarray     # int64[seats, seats + 1]: the kinds of ``known[o, q]``, as a mask
    kmask2: np.ndarray    # int64[seats, seats + 1]: the kinds of which ``known[o, q]`` holds both copies
    forbid: np.ndarray    # int64[seats + 1]: kinds each holder is known not to hold (public)
    size: np.ndarray      # int64[seats + 1]: cards each holder holds now (the discard: its size)
    contract: np.ndarray  # int64[2]: the bid and the declaring side
    played: np.ndarray    # int8[seats, 24]: the cards each seat has played
    shown: np.ndarray     # int64[seats]: the meld each seat laid down, in trump (-1: none shown, playing 1000)
    dix: np.ndarray       # int64[seats]: the part of ``shown`` its nines of trump make (public too)
    call_lo: np.ndarray   # float64[seats, situations]: each seat's calls say its bidding strategy bids at
    call_hi: np.ndarray   # least call_lo and less than call_hi in each auction situation (:func:`note_calls`)
    called: np.ndarray    # bool[seats]: its calls say something, and of the hand it called with (its cards now
    #                       and those it has played: no kitty taken, no cards passed)


class Sampler(NamedTuple):
    """One seat's count of the hidden layouts (:func:`prepare`) for :func:`draw`."""

    ways: np.ndarray      # float64[25, MAX_NEED, MAX_NEED]: layouts of kinds k.. by cards lacking
    pool: np.ndarray      # int64[24]: copies of each kind whose holder the seat does not know
    holders: np.ndarray   # int64[MAX_HOLDERS]: the holders (seats, or ``seats`` for the discard), -1: none
    need: np.ndarray      # int64[MAX_HOLDERS]: hidden cards each holder lacks
    rest: np.ndarray      # int64[25]: pool copies of kinds k..
    counts: np.ndarray    # int64[MAX_HOLDERS, 24]: scratch of a draw


@njit
def new_seen(seats):
    return Seen(np.zeros((seats, seats + 1, N_KINDS), np.int8), np.zeros((seats, seats + 1), np.int64),
                np.zeros((seats, seats + 1), np.int64), np.zeros(seats + 1, np.int64), np.zeros(seats + 1, np.int64),
                np.zeros(2, np.int64), np.zeros((seats, N_KINDS), np.int8), np.zeros(seats, np.int64),
                np.zeros(seats, np.int64), np.full((seats, N_SITUATIONS), -np.inf),
                np.full((seats, N_SITUATIONS), np.inf), np.zeros(seats, np.bool_))


@njit
def new_sampler():
    return Sampler(np.zeros((N_KINDS + 1, MAX_NEED, MAX_NEED)), np.zeros(N_KINDS, np.int64),
                   np.full(MAX_HOLDERS, -1, np.int64), np.zeros(MAX_HOLDERS, np.int64),
                   np.zeros(N_KINDS + 1, np.int64), np.zeros((MAX_HOLDERS, N_KINDS), np.int64))


@bjit
def start_seen(seen, hands, melds, trump, bidder, passes, tb, bid, hidden, used):
    """``seen`` at the first lead: the melds laid down (not side ``hidden``'s: a side playing
    1000 shows none; ``melds``: each seat's meld in every trump, ``meld.hand_meld_all_trumps``
    of ``hands``), the cards passed (``passes``: row 0 the partner's to the bid winner, row 1
    back) or the bid winner's discard (row 0), the contract. ``used``: int64[24] scratch."""
    rules = tb.rules
    seats = rules[R.players]
    known, kmask, kmask2, forbid, size, contract, played, shown, dix = seen[:9]
    known[:] = 0
    forbid[:] = 0
    played[:] = 0
    kmask[:] = 0
    kmask2[:] = 0
    for q in range(seats):
        if tb.team[q] == hidden or melds[q, trump] == 0:  # no meld shown: no card of it known
            used[:] = 0
        else:
            meld_used(hands[q], trump, tb, used)
        n = 0
        for k in range(N_KINDS):
            n += hands[q, k]
        size[q] = n
        u1, u2 = to_masks(used)
        for o in range(seats):
            if o != q:
                copy_into(known[o, q], used)
                kmask[o, q] = u1
                kmask2[o, q] = u2
        shown[q] = -1 if tb.team[q] == hidden else melds[q, trump]  # its hand's meld, in full
        dix[q] = 0 if tb.team[q] == hidden else tb.meld_values[DIX, hands[q, 6 * trump + NINE]]
    kitty = rules[R.kitty]
    size[seats] = kitty
    for j in range(kitty):
        known[bidder, seats, passes[0, j]] += 1
    _remask(seen, bidder, seats)
    partner = tb.partner[bidder]
    n = rules[R.pass_cards]
    if partner >= 0 and n > 0:
        for j in range(n):  # what each gave the other (and the bid winner did not give back)
            k = passes[0, j]
            kept = _count(passes[0, :n], k) - _count(passes[1, :n], k)
            known[partner, bidder, k] = max(known[partner, bidder, k], kept)
            k = passes[1, j]
            known[bidder, partner, k] = max(known[bidder, partner, k], _count(passes[1, :n], k))
        _remask(seen, partner, bidder)
        _remask(seen, bidder, partner)
    contract[0] = bid
    contract[1] = tb.team[bidder]


@ijit
def _remask(seen, o, q):
    """``kmask[o, q]`` and ``kmask2[o, q]`` from ``known[o, q]``."""
    seen.kmask[o, q], seen.kmask2[o, q] = to_masks(seen.known[o, q])


@ijit
def _count(row, k):
    n = 0
    for x in row:
        n += x == k
    return n


@ijit
def observe(seen, seat, card, j, lead, win, trump, rules):
    """``seat`` played ``card`` as the ``j``-th card of the trick (``lead``, ``win``: the trick
    before it): it no longer holds it, and it holds no card that would have made it illegal
    (:func:`revealed`). Inlined into the trick loop: a call, passing every array of ``seen``,
    cost the contract player much of its time (CHANGELOG)."""
    bit = 1 << card
    for o in range(seen.known.shape[0]):
        if seen.kmask[o, seat] & bit:
            seen.known[o, seat, card] -= 1
            seen.kmask[o, seat], seen.kmask2[o, seat], _ = drop(seen.kmask[o, seat], seen.kmask2[o, seat], card)
    seen.size[seat] -= 1
    seen.played[seat, card] += 1
    if j > 0:
        seen.forbid[seat] |= revealed(card, lead, win, trump, rules[R.must_head], rules[R.must_trump],
                                      rules[R.must_overtrump])


@ijit
def revealed(card, lead, win, trump, must_head, must_trump, must_overtrump):
    """The kinds a seat that played ``card`` to a trick led in ``lead`` and won so far by ``win``
    cannot hold: those that would have made ``card`` illegal (``play.legal_mask``)."""
    cs = SUIT[card]
    if cs == lead:
        if must_head and SUIT[win] == lead and not beats(card, win, trump):
            return ABOVE[win]
        return 0
    out = suit_mask(lead)  # it did not follow
    if must_trump:
        if cs != trump:
            out |= suit_mask(trump)
        elif must_overtrump and SUIT[win] == trump and not beats(card, win, trump):
            out |= ABOVE[win]
    return out


@ijit
def known_masks(seen, o):
    """The kinds of which seat ``o`` knows where at least one copy is (``ks1``) and where both are
    (``ks2``), in the other seats' hands or the discard."""
    ks1 = 0
    ks2 = 0
    for q in range(seen.kmask.shape[1]):
        m = seen.kmask[o, q]
        ks2 |= seen.kmask2[o, q] | (ks1 & m)
        ks1 |= m
    return ks1, ks2


@ijit
def pool_mask(seen, o, h1, h2, p1, p2, four):
    """The kinds with a copy whose holder seat ``o`` (hand ``h1``/``h2``) does not know, ``p1``/``p2``
    being the cards played (as a hand's masks, a kind the deck lacks played in full); ``four``:
    the deck holds four copies of a card, counted kind by kind."""
    if four:
        return _pool_of_four(seen.known[o], h1, h2, p1, p2)
    ks1, ks2 = known_masks(seen, o)
    return _unplaced(ks1, ks2, h1, h2, p1, p2)


@bjit
def _pool_of_four(known, h1, h2, p1, p2):
    """:func:`pool_mask` in a deck of four copies, kind by kind (``known``: what the seat knows
    each holder holds). A call, not inlined: the trick loop that inlines the contract player's
    card stays as small as the 48-card deck needs."""
    out = 0
    for k in range(N_KINDS):
        if _left_of_four(known, k, h1, h2, p1, p2) > 0:
            out |= 1 << k
    return out


@ijit
def _left_of_four(known, k, h1, h2, p1, p2):
    """The copies of kind ``k`` in a deck of four that are not played, held or known."""
    n = MAX_COPIES - copies_in(h1, h2, 1 << k) - copies_in(p1, p2, 1 << k)
    for q in range(known.shape[0]):
        n -= known[q, k]
    return n


@ijit
def _unplaced(ks1, ks2, h1, h2, p1, p2):
    """The kinds of which fewer than two copies are played, held or known (each count 0, 1 or 2,
    summing to at most 2), from the masks of each count's first and second copy."""
    return ALL & ~(p2 | h2 | ks2 | (p1 & h1) | (p1 & ks1) | (h1 & ks1))


@ijit
def pool_of(seen, o, h1, h2, p1, p2, four, pool):
    """``pool[k]``: the copies of kind ``k`` whose holder seat ``o`` (hand ``h1``/``h2``) does not
    know, ``p1``/``p2`` being the cards played (as in :func:`pool_mask`, ``four`` too); returns
    the mask of kinds with a copy in the pool (:func:`pool_mask`)."""
    if four:
        out = 0
        for k in range(N_KINDS):
            pool[k] = _left_of_four(seen.known[o], k, h1, h2, p1, p2)
            if pool[k] > 0:
                out |= 1 << k
        return out
    ks1, ks2 = known_masks(seen, o)
    for k in range(N_KINDS):
        pool[k] = (COPIES - ((p1 >> k) & 1) - ((p2 >> k) & 1) - ((h1 >> k) & 1) - ((h2 >> k) & 1)
                   - ((ks1 >> k) & 1) - ((ks2 >> k) & 1))
    return _unplaced(ks1, ks2, h1, h2, p1, p2)


@ijit
def may_hold(seen, o, q, pooled):
    """Mask of the kinds holder ``q`` may hold, as seat ``o`` sees it (``pooled``: the mask
    :func:`pool_of` returns)."""
    return (seen.kmask[o, q] & ALL) | (pooled & ~seen.forbid[q])


@bjit
def prepare(seen, o, h1, h2, p1, p2, four, sp):
    """Count the layouts of the cards seat ``o`` cannot see (see the module docstring) into the
    :class:`Sampler` ``sp``; returns their number (0 only if what ``o`` knows is inconsistent).
    ``p1``/``p2`` and ``four`` as in :func:`pool_mask`."""
    ways, pool, holders, need, rest, _ = sp
    pool_of(seen, o, h1, h2, p1, p2, four, pool)
    holders[:] = -1
    need[:] = 0
    m = 0
    for q in range(seen.size.shape[0]):
        if q == o:
            continue
        lack = seen.size[q]
        for k in range(N_KINDS):
            lack -= seen.known[o, q, k]
        if lack > 0:
            holders[m] = q
            need[m] = lack
            m += 1
    rest[N_KINDS] = 0
    for k in range(N_KINDS - 1, -1, -1):
        rest[k] = rest[k + 1] + pool[k]
    if rest[0] != need[0] + need[1] + need[2]:
        return 0.0
    ways[N_KINDS] = 0.0
    ways[N_KINDS, 0, 0] = 1.0
    for k in range(N_KINDS - 1, -1, -1):
        a0 = _may_take(seen, holders[0], k)  # which holders may take a copy of kind k
        a1 = _may_take(seen, holders[1], k)
        a2 = _may_take(seen, holders[2], k)
        n = pool[k]
        for r0 in range(need[0] + 1):
            for r1 in range(need[1] + 1):
                r2 = rest[k] - r0 - r1
                total = 0.0
                if 0 <= r2 <= need[2]:
                    for s in range(_SPLIT_START[n], _SPLIT_START[n + 1]):
                        x0, x1, x2 = _SPLITS[s, 0], _SPLITS[s, 1], _SPLITS[s, 2]
                        if x0 > r0 or x1 > r1 or x2 > r2:
                            continue
                        if (x0 and not a0) or (x1 and not a1) or (x2 and not a2):
                            continue
                        w = _FACT[n] / (_FACT[x0] * _FACT[x1] * _FACT[x2])
                        total += w * ways[k + 1, r0 - x0, r1 - x1]
                ways[k, r0, r1] = total
    return ways[0, need[0], need[1]]


@ijit
def _may_take(seen, q, k):
    """Whether holder ``q`` (-1: none) may hold a hidden copy of kind ``k``."""
    return q >= 0 and not (seen.forbid[q] >> k) & 1


@bjit
def draw(seen, o, h1o, h2o, sp, state, h1, h2):
    """One layout from the count in ``sp`` (:func:`prepare` for seat ``o``, hand ``h1o``/``h2o``):
    every seat's hand into ``h1``/``h2`` (masks), what ``o`` knows each holds included. Returns
    the random state."""
    ways, pool, holders, need, rest, counts = sp
    r0, r1 = need[0], need[1]
    for k in range(N_KINDS):
        n = pool[k]
        if n == 0:
            counts[:, k] = 0
            continue
        state, word = next64(state)
        u = np.float64(word >> np.uint64(11)) * _TO_UNIT * ways[k, r0, r1]
        r2 = rest[k] - r0 - r1
        pick = -1
        for s in range(_SPLIT_START[n], _SPLIT_START[n + 1]):
            x0, x1, x2 = _SPLITS[s, 0], _SPLITS[s, 1], _SPLITS[s, 2]
            if x0 > r0 or x1 > r1 or x2 > r2:
                continue
            ok = True
            for h in range(MAX_HOLDERS):
                if _SPLITS[s, h] and not _may_take(seen, holders[h], k):
                    ok = False
            if not ok:
                continue
            w = _FACT[n] / (_FACT[x0] * _FACT[x1] * _FACT[x2]) * ways[k + 1, r0 - x0, r1 - x1]
            if w <= 0.0:
                continue
            pick = s
            if u < w:
                break
            u -= w
        for h in range(MAX_HOLDERS):
            counts[h, k] = _SPLITS[pick, h]
        r0 -= _SPLITS[pick, 0]
        r1 -= _SPLITS[pick, 1]
    compose(seen, o, h1o, h2o, sp, h1, h2)
    return state


@bjit
def compose(seen, o, h1o, h2o, sp, h1, h2):
    """Every seat's hand into ``h1``/``h2`` (masks): seat ``o``'s own (``h1o``/``h2o``), each
    other seat's what ``o`` knows it holds plus its hidden cards of the layout in ``sp.counts``."""
    holders, counts = sp.holders, sp.counts
    for q in range(h1.shape[0]):
        if q == o:
            h1[q], h2[q] = h1o, h2o
            continue
        c1 = 0
        c2 = 0
        for k in range(N_KINDS):
            n = seen.known[o, q, k]
            for h in range(MAX_HOLDERS):
                if holders[h] == q:
                    n += counts[h, k]
            if n > 0:
                c1 |= (1 << k) | (np.int64(n > 2) << (k + HIGH))
            if n > 1:
                c2 |= (1 << k) | (np.int64(n > 3) << (k + HIGH))
        h1[q], h2[q] = c1, c2


@ijit
def _nth_card(counts, h, r):
    """The kind of holder ``h``'s ``r``-th hidden card (0-based, kinds in order, each copy once)."""
    k = 0
    while r >= counts[h, k]:
        r -= counts[h, k]
        k += 1
    return k


@bjit
def swap(seen, sp, state):
    """One move of a Markov chain over the hidden layouts of ``sp`` (a layout in ``sp.counts``,
    from :func:`draw`): two holders, chosen at random, exchange a hidden card each, each chosen
    uniformly among its holder's hidden cards; a move that would give a holder a kind it may not
    hold is not made. The proposal is symmetric over physical cards, so every move made keeps a
    uniform deal's weights: a chain of moves, each kept when the layout agrees with a fact about
    whole hands (the meld not shown, the calls), walks the layouts that agree with it uniformly.
    Returns ``(state, a, ka, b, kb)``: holder ``a`` gave a ``ka`` for ``b``'s ``kb`` (:func:`unswap`
    undoes it), ``a`` -1 when no move was made."""
    holders, need, counts = sp.holders, sp.need, sp.counts
    m = 0
    while m < MAX_HOLDERS and holders[m] >= 0:
        m += 1
    if m < 2:
        return state, -1, 0, 0, 0
    state, a = below(state, m)
    state, b = below(state, m - 1)
    b += b >= a
    state, ra = below(state, need[a])
    state, rb = below(state, need[b])
    ka = _nth_card(counts, a, ra)
    kb = _nth_card(counts, b, rb)
    if ka == kb or not _may_take(seen, holders[b], ka) or not _may_take(seen, holders[a], kb):
        return state, -1, 0, 0, 0
    unswap(sp, b, ka, a, kb)
    return state, a, ka, b, kb


@ijit
def unswap(sp, a, ka, b, kb):
    """Holder ``a`` takes back a ``ka`` from ``b`` and gives it a ``kb`` (undoes :func:`swap`'s
    move ``(a, ka, b, kb)``; with the holders' roles exchanged, makes it)."""
    counts = sp.counts
    counts[a, ka] += 1
    counts[b, ka] -= 1
    counts[b, kb] += 1
    counts[a, kb] -= 1


@ijit
def _meld_hand(seen, q, h1, h2, tb, hand, melds):
    """Seat ``q``'s meld hand in the layout ``h1``/``h2``: its cards now and those it has played
    (into ``hand``), and its meld in every trump (into ``melds``)."""
    for k in range(N_KINDS):
        hand[k] = copies_in(h1[q], h2[q], 1 << k) + seen.played[q, k]
    hand_meld_all_trumps(hand, tb, melds)


@ijit
def _suit_held(a, b, played, s, copies, digits):
    """Suit ``s``'s configuration (``meld.suit_code``) of the cards of masks ``a``/``b`` (every
    copy: six bits of the suit in each half of the two words, :data:`_SUIT_DIGITS`) and the
    counts ``played``."""
    lo, hi = 6 * s, 6 * s + HIGH
    return (digits[(a >> lo) & 63] + digits[(b >> lo) & 63] + digits[(a >> hi) & 63] + digits[(b >> hi) & 63]
            + suit_digits(played, s, copies))


@ijit
def _meld_in_trump(seen, q, h1, h2, trump, tb):
    """Seat ``q``'s meld in ``trump`` in the layout ``h1``/``h2`` (its cards now and those it has
    played), as :func:`_meld_hand` gives it, each suit's configuration read from the masks rather
    than counted card by card."""
    copies = tb.meld_values.shape[1] - 1
    digits = _SUIT_DIGITS[copies // 2 - 1]
    a, b, played = h1[q], h2[q], seen.played[q]
    return meld_in_trump(_suit_held(a, b, played, 0, copies, digits), _suit_held(a, b, played, 1, copies, digits),
                         _suit_held(a, b, played, 2, copies, digits), _suit_held(a, b, played, 3, copies, digits),
                         trump, tb)


@ijit
def agrees_with_meld(seen, o, h1, h2, trump, tb):
    """Whether the layout ``h1``/``h2`` (masks, every seat's hand now) agrees with the melds laid
    down, as seat ``o`` sees them: every other seat that showed its meld would, with the cards it
    has played since, have held no more meld than it showed (meld is laid down in full). Only
    what every seat has seen is read: the meld shown and the cards played."""
    for q in range(h1.shape[0]):
        if q == o or seen.shown[q] < 0:
            continue
        if _meld_in_trump(seen, q, h1, h2, trump, tb) > seen.shown[q]:
            return False
    return True


@bjit
def note_calls(seen, calls, n_calls, bidder, margin, tb):
    """What the auction's calls (``calls[:n_calls]``: seat, bid or -1 for a pass) say of the
    seats' hands, into ``seen`` (public: every seat heard them). The seats bid by the kernels'
    rule (``auction.continue_auction``): a seat bids the next bid while it is within its
    strategy's limit for the situation it sees (less ``margin[seat]`` over its partner), so a
    bid ``b`` says the limit is at least ``b`` (``call_lo``) and a pass when the next bid was
    ``n`` that it is under ``n`` (``call_hi``). A forced opening says nothing, nor does a pass
    made because the auction ran out of room. ``called[q]``: the bounds say something of a hand
    that is still ``q``'s cards and those it played (not the bid winner's after a kitty, nor the
    passing partners' after passing)."""
    rules = tb.rules
    seats = rules[R.players]
    seen.call_lo[:] = -np.inf
    seen.call_hi[:] = np.inf
    room = calls.shape[0] - 5
    high, high_seat, out = 0, -1, 0
    start = 0
    if rules[R.forced_open] and n_calls > 0:
        high, high_seat, start = calls[0, 1], calls[0, 0], 1
    for i in range(start, n_calls):
        seat, bid = calls[i, 0], calls[i, 1]
        partner = tb.partner[seat]
        sit = situation_of(high_seat, partner, partner >= 0 and (out >> partner) & 1 == 1)
        m = over_partner(margin, seat, sit)
        if bid >= 0:
            seen.call_lo[seat, sit] = max(seen.call_lo[seat, sit], bid + m)
            high, high_seat = bid, seat
        else:
            if i < room:
                need = rules[R.opening_bid] if high_seat < 0 else high + rules[R.raise_min]
                seen.call_hi[seat, sit] = min(seen.call_hi[seat, sit], need + m)
            out |= 1 << seat
    partner = tb.partner[bidder] if bidder >= 0 else -1
    for q in range(seats):
        changed = (rules[R.kitty] > 0 and q == bidder) or (rules[R.pass_cards] > 0 and (q == bidder or q == partner))
        said = False
        for sit in range(N_SITUATIONS):
            said |= np.isfinite(seen.call_lo[q, sit]) or np.isfinite(seen.call_hi[q, sit])
        seen.called[q] = said and not changed


@bjit
def agrees_with_calls(seen, o, h1, h2, bd, tb, hand, melds, worth):
    """Whether the layout ``h1``/``h2`` (masks, every seat's hand now) agrees with the calls, as
    seat ``o`` hears them (:func:`note_calls`): every other seat whose calls say something of its
    hand would, with the cards it has played, have called as it did under its bidding strategy
    (``bd``, the kernels' ``auction.Bidding``). ``hand``: int64[24], ``melds``: int64[4] and
    ``worth``: float64[situations] scratch."""
    for q in range(h1.shape[0]):
        if q == o or not seen.called[q]:
            continue
        _meld_hand(seen, q, h1, h2, tb, hand, melds)
        hand_worth(hand, melds, bd.weight[q], bd.table[bd.which[q]], bd.band, tb.rules, worth)
        for sit in range(N_SITUATIONS):
            if not seen.call_lo[q, sit] <= worth[sit] < seen.call_hi[q, sit]:
                return False
    return True
