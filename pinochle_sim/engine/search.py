"""Double-dummy search: the exact value of a position when every seat plays perfectly with all
cards visible. The kernels here serve ``studies.dd`` (one position, every card's value), the
double-dummy columns of the studies and the sampling player.

The value of a position is the points the side ``max_team`` takes from the current trick (the
cards already on the table included) to the end of the hand, last-trick bonus included. The
search is alpha-beta on that value, iterative (an explicit stack, so it compiles to one cached
function), driven by MTD(f): null-window searches that close in on the value from a first guess
(the heuristic's play with every card in view, :func:`first_guess`), every probe reusing the
bounds the earlier ones left in a transposition table. It is compiled without reference
counting (``bjit``, as the hand kernels are): each step takes a view of its stack, which would
otherwise cost two atomic counter updates, and made the search two to three times slower. It has

* a transposition table of bounds at the start of each trick, in buckets of two (one entry kept
  for the deepest position, one for the latest), with the lead that settled a position tried
  first on the next visit. Where some ranks are worth alike (``classic``'s A, 10 and K) it is
  keyed by relative rank (:func:`rel_key`): each suit as the kinds still out, in order, each by
  who holds its copies and what it is worth, and the leader, with cards in a row that one seat
  holds alone and that are worth alike counted as a group (each suit's part remembered by the
  suit's cards in every hand, :func:`memo_suit_key`). Once cards are gone, positions that
  differ only in which ranks of a worth are left (an ace where a ten was, the other ace and both
  tens played; both aces in one hand, or its ace and ten) share one entry: their values are
  equal, as the rules read only the order of the cards and their points. Where every rank has
  its own worth (``thousand``) that key names each card, so the cheaper Zobrist key (each seat's
  cards and the leader, kept up to date as cards are played) serves;
* equivalent cards merged: identical copies are one kind already, and two legal cards of one suit
  in one hand are one move when no card still in another hand or on the table ranks from the one
  to the other (their own ranks included: of two identical cards the first played wins) and they
  are worth the same points (classic's A, 10 and K; never in ``thousand``);
* moves ordered: a lead with the most points first, after the killer lead (the last lead that
  cut the search off at the same depth, where the table names none); a follower takes an
  opponent's trick as cheaply as it can, gives points to its own side's, and otherwise throws
  the least;
* cut-offs before any move: the points still to take bound the value from above, the trumps
  nobody across the table can beat bound each side's points from below (:func:`sure_trumps`),
  and the last trick (one card in each hand) is counted, not searched.

It follows the variant's obligations (``play.legal_mask``) and its sides: partners in four-hand,
in three-hand one seat against the other two (each seat its own side, the others minimising).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import bjit, ijit, njit, prefetch
from .cards import N_KINDS
from .play import (ABOVE, HIGH, RANK, SUIT, add_copy, beats, copies_in, legal_mask, lsb, popcount, put_back,
                   rollout, suit_mask, take, trick_step)
from .variants import R

INF = 1 << 30
# The fields of a frame of the search stack (one per card played below the root).
(F_SEAT, F_J, F_LEAD, F_WIN, F_WS, F_TABLE, F_POT, F_CARDS, F_LEFT, F_ALPHA, F_BETA, F_A0, F_B0,
 F_BEST, F_BESTCARD, F_N, F_IDX, F_CARD, F_TWO, F_GAIN) = range(20)
N_FIELDS = 20


class Position(NamedTuple):
    """A position in the play: ``seat`` to play the ``j``-th card of a trick led in suit ``lead``,
    ``win`` (played by ``win_seat``) winning it, ``table`` the mask and ``pot`` the points of the
    cards on it; ``cards`` cards worth ``left`` points still in the hands."""
    seat: int
    j: int
    lead: int
    win: int
    win_seat: int
    table: int
    pot: int
    cards: int
    left: int


class Space(NamedTuple):
    """The search's memory: the transposition table (two words an entry: the key, then the
    entry's lower and upper bounds, the lead that settled it as a relative place
    (:func:`rel_place`) and its cards left, packed by :func:`_entry`; a bucket of two entries
    is four words in a row, so one probe reads one stretch of memory), the stack (frames, move
    lists and the key of each trick start), one level per card still to play, the memo of the
    suits' parts of the key (:func:`memo_suit_key`), the root's move order, the count of
    positions entered (``nodes[0]``, for measuring) and the killer lead of each level (the last
    lead that cut the search off there)."""
    tt: np.ndarray
    frames: np.ndarray
    moves: np.ndarray
    keys: np.ndarray
    memo: np.ndarray
    order: np.ndarray
    nodes: np.ndarray
    killer: np.ndarray


@ijit
def by_relative_rank(pclass):
    """Whether some ranks are worth alike (``pclass[rank]``, the variant's point classes): then
    the table is keyed by relative rank (:func:`rel_key`), else by each card (Zobrist)."""
    for r in range(6):
        if pclass[r] != r:
            return True
    return False


@ijit
def _table_size(cards_left, relative):
    """Entries of the table for a search over ``cards_left`` cards. Over 33 to 40 cards (9 or 10
    of the four-hand games' tricks left: ``--dd 2`` or ``3``, a record's first tricks) 2^20 (16
    MB): the whole hand's table cost more to make than the positions it saved there (CHANGELOG,
    2026-12-05). Past 40 cards (whole hands) where every rank has its own worth (``relative``
    false: ``thousand``), 2^24 (256 MB): such a hand enters up to billions of positions, and on
    the slow ones a table of 2^21 made it enter two to three times as many; where ranks are
    worth alike 2^21, as clearing the larger one cost ``classic`` more than its fewer positions
    saved (CHANGELOG, 2026-12-04)."""
    return 1 << (14 if cards_left <= 16 else 17 if cards_left <= 32 else 20 if cards_left <= 40
                 else 21 if relative else 24)


@njit
def new_space(cards_left, relative=True):
    """A fresh :class:`Space` for a search over ``cards_left`` cards (-1: none, nothing allocated);
    ``relative``: :func:`by_relative_rank` of the variant (the table's size, :func:`_table_size`)."""
    n = _table_size(cards_left, relative) if cards_left >= 0 else 0
    return Space(np.zeros(2 * n, np.uint64), np.full((cards_left + 1, N_FIELDS), -1, np.int64),
                 np.zeros((cards_left + 1, 24), np.int64), np.zeros(cards_left + 1, np.uint64),
                 np.zeros(3 * MEMO, np.uint64), np.empty(24, np.int64), np.zeros(1, np.int64),
                 np.full(cards_left + 1, -1, np.int64))


@ijit
def fresh_space(sp, cards_left):
    """``sp`` (from :func:`new_space` for at least ``cards_left`` cards) as :func:`new_space`
    makes it for ``cards_left`` by default: cleared, and viewed at that size (so a search sees the
    same table whatever space it was carved from). Allocates nothing."""
    n = _table_size(cards_left, True)
    m = cards_left + 1
    out = Space(sp.tt[:2 * n], sp.frames[:m], sp.moves[:m], sp.keys[:m], sp.memo, sp.order, sp.nodes,
                sp.killer[:m])
    out.tt[:] = 0
    out.frames[:] = -1
    out.moves[:] = 0
    out.keys[:] = 0
    out.memo[:] = 0
    out.nodes[0] = 0
    out.killer[:] = -1
    return out


#: Zobrist keys: one random word per (seat, kind, copy) and per leader; a position's key is the
#: exclusive or of its cards' words and its leader's, kept up to date as cards are played. The
#: words of the third and fourth copies (double-deck) follow the leaders'.
_Z = np.concatenate([np.random.default_rng(20261201).integers(0, 2**64, 4 * 24 * 2 + 4, dtype=np.uint64),
                     np.random.default_rng(20261204).integers(0, 2**64, 4 * 24 * 2, dtype=np.uint64)])
_HIGH_Z = 4 * 24 * 2 + 4


@ijit
def _card_key(seat, card, copy):
    """The key word of ``seat``'s copy ``copy`` (0-3, :func:`play.drop`) of ``card``."""
    i = (seat * 24 + card) * 2 + (copy & 1)
    return _Z[i + _HIGH_Z if copy > 1 else i]


@ijit
def hands_key(h1, h2):
    """The key of the hands (the leader's word not included)."""
    x = np.uint64(0)
    for s in range(h1.shape[0]):
        for two in range(2):
            m = h2[s] if two else h1[s]
            while m:
                b = lsb(m)
                m &= m - 1
                high = b >= HIGH  # a third or fourth copy
                x ^= _card_key(s, b - HIGH if high else b, two + (2 if high else 0))
    return x


@ijit
def _mix(x):
    """A 64-bit word scrambled (SplitMix64's finaliser)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@ijit
def _still_out(h1):
    """The kinds some hand of ``h1`` still holds (a mask)."""
    out = 0
    for s in range(h1.shape[0]):
        out |= h1[s]
    return out


@ijit
def suit_key(h1, h2, suit, pclass, base):
    """The part of :func:`rel_key` that one suit gives: its kinds still out, in order, each by who
    holds its copies and its point class, runs held by one seat alone, alike in worth, as groups."""
    rest = _still_out(h1) & suit_mask(suit)
    y = np.uint64(suit + 1)
    run = 0  # cards in a row held by one seat, alike in worth: (seat, class) and how many
    run_of = -1
    while rest:
        k = lsb(rest)
        rest &= rest - 1
        own = 0
        holders = 0
        sole = 0
        copies = 0
        for s in range(h1.shape[0]):
            c = ((h1[s] >> k) & 1) + ((h2[s] >> k) & 1)
            if base > 3:
                c += ((h1[s] >> (k + HIGH)) & 1) + ((h2[s] >> (k + HIGH)) & 1)
            own = own * base + c
            if c:
                holders += 1
                sole = s
                copies = c
        of = sole * 8 + pclass[RANK[k]]
        if holders == 1 and of == run_of:
            run += copies
            continue
        if run:
            y = y * np.uint64(0x100000001B3) + np.uint64(1000 + run_of * 64 + run)
        if holders == 1:
            run_of = of
            run = copies
        else:
            run_of = -1
            run = 0
            y = y * np.uint64(0x100000001B3) + np.uint64(own * 8 + pclass[RANK[k]])
    if run:
        y = y * np.uint64(0x100000001B3) + np.uint64(1000 + run_of * 64 + run)
    return _mix(y + np.uint64(suit) * np.uint64(0x9E3779B97F4A7C15))


#: Entries of the memo of suits' parts of the key (a power of two): three words each, the suit's
#: cards in every hand (two words) and its part.
MEMO = 1 << 12


@ijit
def memo_suit_key(h1, h2, suit, pclass, base, memo):
    """:func:`suit_key`, read from ``memo`` where the suit's cards in every hand were met before
    (a search meets few of them, many times): as cheap as the cards are to read, where the part
    itself takes a walk over every kind and seat. ``memo``: three words an entry, a power of two
    entries (:data:`MEMO` in the search), each place holding the last suit met there."""
    sh = 6 * suit
    a = suit + 1 << 56
    b = 0
    for s in range(h1.shape[0]):
        x, y = h1[s], h2[s]
        a |= (((x >> sh) & 63) | (((y >> sh) & 63) << 6)) << (12 * s)
        if base > 3:  # the third and fourth copies
            b |= (((x >> (sh + HIGH)) & 63) | (((y >> (sh + HIGH)) & 63) << 6)) << (12 * s)
    a = np.uint64(a)
    b = np.uint64(b)
    h = (a * np.uint64(0x9E3779B97F4A7C15)) ^ (b * np.uint64(0xC2B2AE3D27D4EB4F))
    i = 3 * np.int64((h >> np.uint64(40)) & np.uint64(memo.shape[0] // 3 - 1))
    if memo[i] == a and memo[i + 1] == b:
        return memo[i + 2]
    k = suit_key(h1, h2, suit, pclass, base)
    memo[i], memo[i + 1], memo[i + 2] = a, b, k
    return k


@ijit
def rel_key(h1, h2, leader, pclass, base):
    """The key of a trick start by relative rank: the kinds still out in each suit, in order,
    each by who holds its copies and its point class (``pclass[rank]``), and the leader; kinds
    in a row that one seat holds alone, alike in worth, count as one group of so many cards (no
    other seat's card ranks between them, and a seat never plays two cards to one trick, so
    they are as good as one another). Two positions with one key are one position but for the
    names of the ranks, so they have one value (and a lead in one is a lead in the other, or
    as good: :func:`rel_card`). ``base``: one more than the copies of a card in the deck. The
    search reads each suit's part through its memo (:func:`memo_suit_key`)."""
    x = _mix(np.uint64(leader + 1))
    for suit in range(4):
        x ^= suit_key(h1, h2, suit, pclass, base)
    return x


@ijit
def rel_place(h1, card):
    """``card``'s place among the kinds of its suit still out (suit * 8 + place)."""
    return SUIT[card] * 8 + popcount(_still_out(h1) & ABOVE[card])


@ijit
def rel_card(h1, place):
    """The kind at ``place`` (from :func:`rel_place`) in hands ``h1``, or -1."""
    x = _still_out(h1) & suit_mask(place >> 3)
    for _ in range(place & 7):
        x &= x - 1
    return lsb(x) if x else -1


@ijit
def _moves(h1, legal, seat, players, table, points):
    """The legal kinds of ``seat`` that are not equivalent to a higher one kept (see the module
    docstring), as a mask. ``table``: the cards on the table (a mask)."""
    others = table
    for s in range(players):
        if s != seat:
            others |= h1[s]
    out = 0
    for suit in range(4):
        x = legal & suit_mask(suit)
        prev = -1
        while x:
            k = lsb(x)
            x &= x - 1
            if prev >= 0 and points[RANK[k]] == points[RANK[prev]]:
                # no other card of these ranks, theirs included (of two identical cards the
                # first played wins, so a copy elsewhere tells them apart)
                span = ((1 << (k + 1)) - 1) & ~((1 << prev) - 1)
                if (others & span) == 0:
                    prev = k
                    continue  # touching the card kept above it
            out |= 1 << k
            prev = k
    return out


@ijit
def _ordered(moves, j, win, win_seat, seat, trump, points, team, first, out):
    """The kinds of ``moves`` into ``out``, likeliest best first (``first``, if one of them, before
    all); returns how many. Leading: the most points first. Following: a card that takes the trick
    (the cheapest first) when an opponent holds it; the most points when the seat's own side holds
    it; else the fewest. The keys ride in the high bits of ``out`` while it is sorted."""
    n = 0
    x = moves
    while x:
        k = lsb(x)
        x &= x - 1
        pts = points[RANK[k]]
        if k == first:
            key = 1 << 20
        elif j == 0:
            key = 100 * pts - RANK[k]
        elif team[win_seat] == team[seat]:
            key = 100 * pts + RANK[k]
        elif beats(k, win, trump):
            key = 10000 - 100 * pts - (SUIT[k] == trump) * 50
        else:
            key = -100 * pts + RANK[k]
        item = ((key + (1 << 21)) << 5) | k
        b = n  # insertion sort, highest first
        while b > 0 and out[b - 1] < item:
            out[b] = out[b - 1]
            b -= 1
        out[b] = item
        n += 1
    for a in range(n):
        out[a] &= 31
    return n


@ijit
def _rank_points(ranks, points):
    """The points of the ranks of a 6-bit mask (bit ``r``: rank ``r``)."""
    total = 0
    while ranks:
        total += points[lsb(ranks)]
        ranks &= ranks - 1
    return total


@ijit
def sure_trumps(h1, h2, trump, points, team, side):
    """The points of ``side``'s trumps, and of every other side's together, that no trump from
    across the table can beat (every higher trump and the other copy still out held on the same
    side): whatever trick they fall in, that side takes them, so they bound its points from below.
    Read from the masks: a side's sure trumps are its copies of the ranks above the other side's
    best trump."""
    base = 6 * trump
    mine = 0    # the trump ranks each side holds a copy of (a first copy: h1)
    theirs = 0
    for s in range(h1.shape[0]):
        if team[s] == side:
            mine |= (h1[s] >> base) & 63
        else:
            theirs |= (h1[s] >> base) & 63
    above_theirs = ((theirs & -theirs) - 1) & 63  # every rank when they hold none
    above_mine = ((mine & -mine) - 1) & 63
    sure_mine = 0
    sure_theirs = 0
    for s in range(h1.shape[0]):
        m = above_theirs if team[s] == side else above_mine
        x = (_rank_points((h1[s] >> base) & m, points) + _rank_points((h2[s] >> base) & m, points)
             + _rank_points((h1[s] >> (base + HIGH)) & m, points) + _rank_points((h2[s] >> (base + HIGH)) & m, points))
        if team[s] == side:
            sure_mine += x
        else:
            sure_theirs += x
    return sure_mine, sure_theirs


#: An entry's second word: its lower bound + 1 (bits 0-20), its upper bound (21-41, all ones for
#: none), the lead that settled it + 1 (42-47) and its cards left (48-55); an empty entry is zero.
#: (The points fit: ``variants.MAX_TRICK_TOTAL``.)
_NO_HI = (1 << 21) - 1


@ijit
def _entry(lo, hi, move, depth):
    """An entry's second word (see :data:`_NO_HI`)."""
    return np.uint64((lo + 1) | (min(hi, _NO_HI) << 21) | ((move + 1) << 42) | (depth << 48))


@ijit
def _lo(w):
    return np.int64(w & np.uint64(_NO_HI)) - 1


@ijit
def _hi(w):
    h = np.int64((w >> np.uint64(21)) & np.uint64(_NO_HI))
    return INF if h == _NO_HI else h


@ijit
def _move(w):
    return np.int64((w >> np.uint64(42)) & np.uint64(63)) - 1


@ijit
def _depth(w):
    return np.int64(w >> np.uint64(48))


@bjit
def search(h1, h2, pos, alpha, beta, trump, max_team, tb, sp):
    """The points side ``max_team`` takes from position ``pos`` (hands ``h1``/``h2``, restored)
    to the end of the hand under variant ``tb``, within the window (``alpha``, ``beta``),
    fail-soft: a value at or below ``alpha`` is an upper bound, at or above ``beta`` a lower
    bound. ``sp``: the :class:`Space` (its table carries over between calls on one hand)."""
    rules, points, team = tb.rules, tb.card_points, tb.team
    tt, fr, mv, ks, memo, _, nodes, killer = sp
    seat, j, lead, win, win_seat, table, pot, cards, left = pos
    players = h1.shape[0]
    last = rules[R.last_trick]
    base = rules[R.copies] + 1
    mask = np.uint64((tt.shape[0] >> 1) - 1)
    pclass = tb.point_class
    relative = by_relative_rank(pclass)  # keys by relative rank (else each card's word)
    if not relative:
        ks[0] = hands_key(h1, h2)
    f = fr[0]
    f[F_SEAT], f[F_J], f[F_LEAD], f[F_WIN], f[F_WS], f[F_TABLE] = seat, j, lead, win, win_seat, table
    f[F_POT], f[F_CARDS], f[F_LEFT], f[F_ALPHA], f[F_BETA] = pot, cards, left, alpha, beta
    d = 0
    entering = True
    ret = 0
    while True:
        f = fr[d]
        if entering:
            nodes[0] += 1
            seat, j, cards = f[F_SEAT], f[F_J], f[F_CARDS]
            alpha, beta = f[F_ALPHA], f[F_BETA]
            done = False
            if cards == 0:
                ret = 0
                done = True
            elif cards <= players - j:  # the last trick: every card is forced
                s, w, ws, p = seat, f[F_WIN], f[F_WS], f[F_POT]
                for k in range(j, players):
                    c = lsb(h1[s])
                    if k == 0 or beats(c, w, trump):
                        w, ws = c, s
                    p += points[RANK[c]]
                    s = s + 1 if s + 1 < players else 0
                ret = p + last if team[ws] == max_team else 0
                done = True
            else:
                most = f[F_POT] + f[F_LEFT] + last
                if most <= alpha:
                    ret = most
                    done = True
            first = -1
            if not done and j == 0:
                if relative:
                    key = _mix(np.uint64(seat + 1))
                    for suit in range(4):
                        key ^= memo_suit_key(h1, h2, suit, pclass, base, memo)
                    ks[d] = key
                else:
                    key = ks[d] ^ _Z[192 + seat]
                e = np.int64(key & mask)  # a bucket of two: one kept for the deepest, one for the last
                prefetch(tt, 2 * (e & ~1))  # (read while the bounds are counted)
                low, high = sure_trumps(h1, h2, trump, points, team, max_team)
                high = f[F_LEFT] + last - high
                if low >= beta:
                    ret = low
                    done = True
                elif high <= alpha:
                    ret = high
                    done = True
                if not done:
                    if tt[2 * e] != key:
                        e ^= 1
                    if tt[2 * e] == key:
                        w = tt[2 * e + 1]
                        lo, hi = _lo(w), _hi(w)
                        if lo >= beta or lo == hi:
                            ret = lo
                            done = True
                        elif hi <= alpha:
                            ret = hi
                            done = True
                        else:
                            alpha = max(alpha, lo)
                            beta = min(beta, hi)
                            first = rel_card(h1, _move(w)) if _move(w) >= 0 else -1
            if done:
                if d == 0:
                    return ret
                d -= 1
                entering = False
                continue
            f[F_ALPHA], f[F_BETA], f[F_A0], f[F_B0] = alpha, beta, alpha, beta
            legal = legal_mask(h1[seat], j, f[F_LEAD], f[F_WIN], trump, rules[R.must_head],
                               rules[R.must_trump], rules[R.must_overtrump])
            if first < 0 and j == 0:  # no lead from the table: the last lead that cut off at this depth
                first = killer[d]
            # (where no two ranks are worth alike, no two cards are equivalent)
            moves = _moves(h1, legal, seat, players, f[F_TABLE], points) if relative else legal
            f[F_N] = _ordered(moves, j, f[F_WIN], f[F_WS], seat, trump, points, team, first, mv[d])
            f[F_IDX] = 0
            f[F_BEST] = -1 if team[seat] == max_team else INF
            f[F_BESTCARD] = -1
        else:  # a child returned ``ret``
            seat = f[F_SEAT]
            card = f[F_CARD]
            put_back(h1, h2, seat, card, f[F_TWO])
            v = ret + f[F_GAIN]
            if team[seat] == max_team:
                if v > f[F_BEST]:
                    f[F_BEST], f[F_BESTCARD] = v, card
                    if v > f[F_ALPHA]:
                        f[F_ALPHA] = v
            elif v < f[F_BEST]:
                f[F_BEST], f[F_BESTCARD] = v, card
                if v < f[F_BETA]:
                    f[F_BETA] = v
            f[F_IDX] += 1
            if f[F_ALPHA] >= f[F_BETA]:
                f[F_IDX] = f[F_N]
                killer[d] = card  # (read only by leads: followers keep the order of _ordered)
        if f[F_IDX] < f[F_N]:  # play the next move
            seat, j = f[F_SEAT], f[F_J]
            card = mv[d, f[F_IDX]]
            f[F_CARD] = card
            two = take(h1, h2, seat, card)
            f[F_TWO] = two
            if not relative:
                ks[d + 1] = ks[d] ^ _card_key(seat, card, two)
            pts = points[RANK[card]]
            g = fr[d + 1]
            g[F_CARDS] = f[F_CARDS] - 1
            g[F_LEFT] = f[F_LEFT] - pts
            lead, win, ws = trick_step(card, seat, j, f[F_LEAD], f[F_WIN], f[F_WS], trump)
            if j == players - 1:  # the trick is complete
                taken = f[F_POT] + pts + (last if g[F_CARDS] == 0 else 0)
                gain = taken if team[ws] == max_team else 0
                g[F_SEAT], g[F_J], g[F_LEAD], g[F_WIN], g[F_WS], g[F_TABLE], g[F_POT] = ws, 0, 0, -1, -1, 0, 0
            else:
                gain = 0
                g[F_SEAT] = seat + 1 if seat + 1 < players else 0
                g[F_J], g[F_LEAD], g[F_WIN], g[F_WS] = j + 1, lead, win, ws
                g[F_TABLE], g[F_POT] = f[F_TABLE] | (1 << card), f[F_POT] + pts
            f[F_GAIN] = gain
            g[F_ALPHA], g[F_BETA] = f[F_ALPHA] - gain, f[F_BETA] - gain
            d += 1
            entering = True
            continue
        best = f[F_BEST]  # every move tried, or a cut-off
        if f[F_J] == 0:
            cards = f[F_CARDS]
            key = ks[d] if relative else ks[d] ^ _Z[192 + f[F_SEAT]]
            e = np.int64(key & mask) & ~1
            if tt[2 * e] != key:
                if tt[2 * e + 2] == key:
                    e += 1
                else:  # a new entry: in the first place if it is as deep, the old one moving on
                    if cards >= _depth(tt[2 * e + 1]):
                        tt[2 * e + 2], tt[2 * e + 3] = tt[2 * e], tt[2 * e + 1]
                    else:
                        e += 1
                    tt[2 * e] = key
                    tt[2 * e + 1] = _entry(-1, INF, -1, cards)
            w = tt[2 * e + 1]
            lo, hi, move = _lo(w), _hi(w), _move(w)
            if best <= f[F_A0]:
                hi = min(hi, best)
            elif best >= f[F_B0]:
                lo = max(lo, best)
                move = rel_place(h1, f[F_BESTCARD])
            else:
                lo = best
                hi = best
                move = rel_place(h1, f[F_BESTCARD])
            tt[2 * e + 1] = _entry(lo, hi, move, _depth(w))
        ret = best
        if d == 0:
            return ret
        d -= 1
        entering = False


@ijit
def point_unit(points, last):
    """The greatest common divisor of the card points and the last-trick bonus: every value is a
    multiple of it."""
    unit = last
    for r in range(6):
        unit = np.gcd(unit, points[r])
    return max(unit, 1)


@bjit
def mtd(h1, h2, pos, lower, upper, guess, unit, trump, max_team, tb, sp):
    """The exact value of position ``pos`` (see ``search``), known to lie in [``lower``, ``upper``],
    by null-window probes (MTD(f)): the first asks whether it reaches ``guess``; each next probe
    lies one step past the bound the last one returned, the step (from ``unit``, the granularity
    of the points) doubling while the probes keep failing the same way."""
    b = min(max(guess, lower + 1), upper)
    step = unit
    way = 0
    while lower < upper:
        g = search(h1, h2, pos, b - 1, b, trump, max_team, tb, sp)
        now = -1 if g < b else 1
        if now < 0:
            upper = g
        else:
            lower = g
        step = step * 2 if now == way else unit
        way = now
        b = max(lower + 1, upper - step + 1) if now < 0 else min(upper, lower + step)
    return lower


@ijit
def first_guess(h1, h2, pos, trump, max_team, tb, sp):
    """MTD(f)'s first guess at the value of position ``pos``: what side ``max_team`` takes when
    every seat plays the plain heuristic from there (``play.rollout``), seeing every card, the
    side of the seat to play as declarer (drawing trump while it holds any). Played out on
    copies of the hands in the first two rows of ``sp``'s stack (the search has not begun)."""
    rules = tb.rules
    players = h1.shape[0]
    absent = rules[R.absent_kinds]
    p1 = absent | (absent << HIGH)  # every card in no hand, as played: the seats see all the others
    p2 = p1
    for k in range(N_KINDS):
        if not (absent >> k) & 1:
            n = rules[R.copies]
            for s in range(players):
                n -= copies_in(h1[s], h2[s], 1 << k)
            for _ in range(n):
                p1, p2 = add_copy(p1, p2, k)
    r1 = sp.frames[0, :players]
    r2 = sp.frames[1, :players]
    for s in range(players):
        r1[s] = h1[s]
        r2[s] = h2[s]
    return rollout(r1, r2, pos, -1, p1, p2, trump, tb.team[pos.seat], 1, max_team, tb)


@bjit
def solve_moves(h1, h2, pos, exact, trump, tb, out, sp):
    """The value of position ``pos`` for the side of its seat to play; ``out[kind]`` receives each
    legal card's value (-1: not a legal card). With ``exact`` every value is exact; without it
    only the best cards' are, the others hold a bound under it (a card as good as the best is
    exact). One table (``sp``, from :func:`new_space`) serves every card; it may carry over to
    other positions solved for the same seat's side (the sampling player's worlds)."""
    rules, points, team = tb.rules, tb.card_points, tb.team
    seat, j, lead, win, win_seat, table, pot, cards, left = pos
    players = h1.shape[0]
    last = rules[R.last_trick]
    max_team = team[seat]
    legal = legal_mask(h1[seat], j, lead, win, trump, rules[R.must_head], rules[R.must_trump],
                       rules[R.must_overtrump])
    order = sp.order
    n = _ordered(legal, j, win, win_seat, seat, trump, points, team, -1, order)
    out[:] = -1
    best = -1
    unit = point_unit(points, last)
    for m in range(n):
        card = order[m]
        two = take(h1, h2, seat, card)
        pts = points[RANK[card]]
        nl, nw, ns = trick_step(card, seat, j, lead, win, win_seat, trump)
        if j == players - 1:
            taken = pot + pts + (last if cards == 1 else 0)
            gain = taken if team[ns] == max_team else 0
            child = Position(ns, 0, 0, -1, -1, 0, 0, cards - 1, left - pts)
        else:
            gain = 0
            child = Position((seat + 1) % players, j + 1, nl, nw, ns, table | (1 << card), pot + pts, cards - 1,
                             left - pts)
        top = pot + left + last - gain
        if best < 0:  # the first card: guessed from the heuristic's play; the others from the last
            guess = gain + first_guess(h1, h2, child, trump, max_team, tb, sp)
        if exact or best < 0:
            v = gain + mtd(h1, h2, child, 0, top, guess - gain, unit, trump, max_team, tb, sp)
        else:
            v = gain + search(h1, h2, child, best - 1 - gain, best + 1 - gain, trump, max_team, tb, sp)
            if v > best:  # beats the best so far: by how much
                v = gain + mtd(h1, h2, child, v - gain, top, v - gain + unit, unit, trump, max_team, tb, sp)
        put_back(h1, h2, seat, card, two)
        out[card] = v
        if v > best:
            best = v
        guess = v
    return best


@ijit
def in_hands(h1, h2, points):
    """(cards, points) still in the hands ``h1``/``h2`` (masks, every seat's)."""
    cards = 0
    left = 0
    for s in range(h1.shape[0]):
        for k in range(24):
            n = copies_in(h1[s], h2[s], 1 << k)
            cards += n
            left += n * points[RANK[k]]
    return cards, left


@njit
def trick_start_value(h1, h2, leader, max_team, trump, tb):
    """The points side ``max_team`` takes, every seat playing perfectly, from a trick that
    ``leader`` is about to lead (hands ``h1``/``h2``, restored) to the end of the hand."""
    points = tb.card_points
    cards, left = in_hands(h1, h2, points)
    if cards == 0:
        return 0
    last = tb.rules[R.last_trick]
    # (as 64-bit integers, whatever the caller read them from: the sampling player's search then
    # serves here too, not a second compile of it for a narrower type)
    pos = Position(np.int64(leader), 0, 0, -1, -1, 0, 0, cards, left)
    t = np.int64(trump)
    sp = new_space(cards, by_relative_rank(tb.point_class))
    return mtd(h1, h2, pos, 0, left + last, first_guess(h1, h2, pos, t, max_team, tb, sp), point_unit(points, last),
               t, max_team, tb, sp)
