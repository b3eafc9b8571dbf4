"""Double-dummy play: the exact value of a position when every seat plays perfectly with all
cards visible (issue 14, first part).

The search is alpha-beta on the points the side of the seat to play takes from here to the end
of the hand (the cards already on the table included), with:

* a transposition table of bounds at the start of each trick, keyed by every seat's remaining
  cards and the leader;
* equivalent cards merged: identical copies are one kind already, and two legal cards of one
  suit in one hand are one move when no card still in another hand or on the table ranks from
  the one to the other (their own ranks included: of two identical cards the first played wins)
  and they are worth the same points (classic's A, 10 and K; never in ``thousand``);
* moves ordered: a lead with the most points first; a follower takes an opponent's trick as
  cheaply as it can, gives points to its own side's, and otherwise throws the least.

It follows the variant's obligations (``play.legal_mask``) and its sides: partners in four-hand,
in three-hand one seat against the other two (each seat its own side, the others minimising).

>>> r = double_dummy(["AS 9H", "TS KH", "QS JH", "KS QH"], "H", 0, "classic")
>>> r.points, r.best, r.values   # cashing the ace gives the last trick away
(40, ['9H'], {'AS': 30, '9H': 40})
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._numba import njit, rjit
from ..engine.cards import card_name, hand_counts, parse_cards, parse_suit
from ..engine.play import RANK, SUIT, beats, legal_mask, lsb, suit_mask, to_masks
from ..engine.variants import R, Variant, compile_variant, variant

TT_BITS = 18
_M = np.uint64(0x9E3779B97F4A7C15)


@njit
def _hash(h1, h2, leader, players):
    x = np.uint64(leader + 1)
    for s in range(players):
        x = (x ^ np.uint64(h1[s])) * _M
        x = (x ^ np.uint64(h2[s])) * _M
    return x ^ (x >> np.uint64(29))


@njit
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


@njit
def _ordered(moves, j, win, win_seat, seat, trump, points, team, out, key):
    """The kinds of ``moves`` into ``out``, likeliest best first; returns how many. Leading: the
    most points first. Following: a card that takes the trick (the cheapest first) when an
    opponent holds it; the most points when the seat's own side holds it; else the fewest."""
    n = 0
    x = moves
    while x:
        k = lsb(x)
        x &= x - 1
        pts = points[RANK[k]]
        if j == 0:
            key[n] = 100 * pts - RANK[k]
        elif team[win_seat] == team[seat]:
            key[n] = 100 * pts + RANK[k]
        elif beats(k, win, trump):
            key[n] = 10000 - 100 * pts - (SUIT[k] == trump) * 50
        else:
            key[n] = -100 * pts + RANK[k]
        out[n] = k
        n += 1
    for a in range(1, n):  # insertion sort, highest key first
        kk, cc = key[a], out[a]
        b = a - 1
        while b >= 0 and key[b] < kk:
            key[b + 1], out[b + 1] = key[b], out[b]
            b -= 1
        key[b + 1], out[b + 1] = kk, cc
    return n


@rjit
def _search(h1, h2, seat, j, lead, win, win_seat, table, pts_on_table, players, trump, rules,
            points, team, max_team, cards_left, left_pts, alpha, beta, tt_key, tt_lo, tt_hi, scratch):
    """The points ``max_team`` takes from the current trick (its cards on the table worth
    ``pts_on_table``) to the end, within the window (alpha, beta) (fail-soft); ``cards_left``:
    the cards still in the hands, worth ``left_pts``."""
    if j == 0 and cards_left == 0:
        return 0
    most = pts_on_table + left_pts + rules[R.last_trick]  # every point still to take
    if most <= alpha:
        return most
    slot = -1
    key = np.uint64(0)
    if j == 0:
        key = _hash(h1, h2, seat, players)
        slot = np.int64(key & np.uint64((1 << TT_BITS) - 1))
        if tt_key[slot] == key:
            lo, hi = tt_lo[slot], tt_hi[slot]
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
    a0, b0 = alpha, beta
    maximise = team[seat] == max_team
    legal = legal_mask(h1[seat], j, lead, win, trump, rules[R.must_head], rules[R.must_trump],
                       rules[R.must_overtrump])
    order = scratch[cards_left, 0]
    n_moves = _ordered(_moves(h1, legal, seat, players, table, points), j, win, win_seat, seat, trump,
                       points, team, order, scratch[cards_left, 1])
    best = -1 if maximise else 1 << 30
    for m in range(n_moves):
        card = order[m]
        bit = 1 << card
        two = (h2[seat] & bit) != 0
        if two:
            h2[seat] ^= bit
        else:
            h1[seat] ^= bit
        p = pts_on_table + points[RANK[card]]
        rest = left_pts - points[RANK[card]]
        if j == 0:
            nl, nw, ns = SUIT[card], card, seat
        elif beats(card, win, trump):
            nl, nw, ns = lead, card, seat
        else:
            nl, nw, ns = lead, win, win_seat
        if j == players - 1:  # the trick is complete
            taken = p + (rules[R.last_trick] if cards_left == 1 else 0)
            gain = taken if team[ns] == max_team else 0
            v = gain + _search(h1, h2, ns, 0, 0, -1, -1, 0, 0, players, trump, rules, points, team,
                               max_team, cards_left - 1, rest, alpha - gain, beta - gain,
                               tt_key, tt_lo, tt_hi, scratch)
        else:
            v = _search(h1, h2, (seat + 1) % players, j + 1, nl, nw, ns, table | bit, p, players,
                        trump, rules, points, team, max_team, cards_left - 1, rest, alpha, beta,
                        tt_key, tt_lo, tt_hi, scratch)
        if two:
            h2[seat] ^= bit
        else:
            h1[seat] ^= bit
        if maximise:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    if j == 0:
        lo, hi = -1, 1 << 30
        if tt_key[slot] == key:
            lo, hi = tt_lo[slot], tt_hi[slot]
        else:
            tt_key[slot] = key
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = best
            hi = best
        tt_lo[slot] = lo
        tt_hi[slot] = hi
    return best


@rjit
def _solve(h1, h2, seat, j, lead, win, win_seat, table, pts_on_table, trump, rules, points, team,
           cards_left, left_pts, exact, out):
    """The best value for ``seat``'s side; ``out[kind]`` receives each legal move's value (-1: not
    a move). With ``exact`` every value is exact; without it only the best moves' are, the others
    hold a bound under the best (a null window on the best so far, re-searched when a move beats
    it). A fresh table serves every move."""
    # The move loop below repeats _search's few lines that play a card and recurse, on purpose:
    # a shared kernel for that step, inlined or not, made the search about twice as slow
    # (classic from 8 tricks left, median 20 -> 40 ms).
    players = h1.shape[0]
    tt_key = np.zeros(1 << TT_BITS, np.uint64)
    tt_lo = np.zeros(1 << TT_BITS, np.int64)
    tt_hi = np.zeros(1 << TT_BITS, np.int64)
    scratch = np.empty((cards_left + 1, 2, 24), np.int64)  # move lists by depth (cards left)
    max_team = team[seat]
    legal = legal_mask(h1[seat], j, lead, win, trump, rules[R.must_head], rules[R.must_trump],
                       rules[R.must_overtrump])
    order = np.empty(24, np.int64)
    n_moves = _ordered(legal, j, win, win_seat, seat, trump, points, team, order, np.empty(24, np.int64))
    out[:] = -1
    best = -1
    for m in range(n_moves):
        card = order[m]
        bit = 1 << card
        two = (h2[seat] & bit) != 0
        if two:
            h2[seat] ^= bit
        else:
            h1[seat] ^= bit
        p = pts_on_table + points[RANK[card]]
        rest = left_pts - points[RANK[card]]
        if j == 0:
            nl, nw, ns = SUIT[card], card, seat
        elif beats(card, win, trump):
            nl, nw, ns = lead, card, seat
        else:
            nl, nw, ns = lead, win, win_seat
        lo = -1 if exact or best < 0 else best - 1
        hi = 1 << 30 if exact or best < 0 else best + 1
        for _ in range(2):
            if j == players - 1:
                taken = p + (rules[R.last_trick] if cards_left == 1 else 0)
                gain = taken if team[ns] == max_team else 0
                v = gain + _search(h1, h2, ns, 0, 0, -1, -1, 0, 0, players, trump, rules, points, team,
                                   max_team, cards_left - 1, rest, lo - gain, hi - gain,
                                   tt_key, tt_lo, tt_hi,
                                   scratch)
            else:
                v = _search(h1, h2, (seat + 1) % players, j + 1, nl, nw, ns, table | bit, p, players,
                            trump, rules, points, team, max_team, cards_left - 1, rest, lo, hi,
                            tt_key, tt_lo, tt_hi, scratch)
            if v >= hi:  # beats the best so far: find by how much
                lo, hi = v - 1, 1 << 30
            else:
                break
        if two:
            h2[seat] ^= bit
        else:
            h1[seat] ^= bit
        out[card] = v
        best = max(best, v)
    return best


@dataclass(frozen=True)
class DoubleDummy:
    """The value of a position for the side of the seat to play: ``points`` (trick points with the
    last-trick bonus, the cards already on the table included), ``best`` (the cards that get
    them) and ``values`` (every legal card's value, exact unless asked otherwise)."""

    seat: int
    points: int
    best: list[str]
    values: dict[str, int]


def double_dummy(hands, trump: str | int, leader: int, v: Variant | str = "thousand",
                 trick=(), exact: bool = True) -> DoubleDummy:
    """Solve a position with every hand visible.

    Parameters
    ----------
    hands : one entry per seat (four, or three in three-hand): its remaining cards, as text or
        a list of names.
    trump : the trump suit.
    leader : the seat that led the current trick (or leads the next one).
    v : the variant (its obligations, card points, last-trick bonus and sides).
    trick : the cards already played to the current trick, starting with ``leader``'s.
    exact : every legal card's exact value in ``.values`` (False: only the best cards' are exact,
        the others' a bound below the best; faster).

    Every seat must hold as many cards as the others will after the trick is complete.
    """
    v = variant(v) if isinstance(v, str) else v
    tb = compile_variant(v)
    if len(hands) != v.players:
        raise ValueError(f"{v.name} has {v.players} seats: give {v.players} hands")
    counts = [hand_counts(h) for h in hands]
    played = parse_cards(trick) if isinstance(trick, str) else [parse_cards([c])[0] if isinstance(c, str)
                                                                 else int(c) for c in trick]
    if len(played) >= v.players:
        raise ValueError("a trick on the table holds fewer cards than there are seats")
    sizes = [int(c.sum()) for c in counts]
    after = [sizes[(leader + k) % v.players] - (0 if k < len(played) else 1) for k in range(v.players)]
    if len(set(after)) != 1:
        raise ValueError(f"hands of {sizes} cards cannot finish the trick evenly")
    h1 = np.zeros(v.players, np.int64)
    h2 = np.zeros(v.players, np.int64)
    for s, c in enumerate(counts):
        h1[s], h2[s] = to_masks(c)
    t = parse_suit(trump) if isinstance(trump, str) else int(trump)
    lead, win, win_seat, table, pts = 0, -1, -1, 0, 0
    for k, card in enumerate(played):
        seat = (leader + k) % v.players
        if k == 0:
            lead, win, win_seat = int(SUIT[card]), card, seat
        elif beats(card, win, t):
            win, win_seat = card, seat
        table |= 1 << card
        pts += int(tb.card_points[RANK[card]])
    seat = (leader + len(played)) % v.players
    out = np.empty(24, np.int64)
    best = _solve(h1, h2, seat, len(played), lead, win, win_seat, table, pts, t, tb.rules,
                  tb.card_points.astype(np.int64), tb.team, sum(sizes),
                  sum(int(tb.card_points[k % 6]) * int(c[k]) for c in counts for k in range(24)), exact, out)
    values = {card_name(k): int(out[k]) for k in range(24) if out[k] >= 0}
    return DoubleDummy(seat, int(best), [c for c, x in values.items() if x == best], values)
