"""The sampling card player (``pimc``: perfect-information Monte Carlo).

At each decision the seat draws ``worlds`` layouts of the cards it cannot see, exactly from what
it knows (``knowledge.prepare``/``draw``: its cards, the cards played, the melds laid down, the
cards passed, the voids and failures to beat; with ``infer``, also the meld not laid down: a
world in which another seat would have held more meld than it showed is drawn again, up to
:data:`MAX_DRAWS` times, ``knowledge.agrees_with_meld``), and values each legal card in every
world:

* with at most ``dd_tricks`` tricks left (the current one counted), by double dummy
  (``search.solve_moves``, exact for every card, one table for all the worlds of the decision);
* before that, by a rollout: the card, then every seat playing the plain heuristic to the end.

It plays the card with the most points for its side on average over the worlds (ties: the card
the contract-aware heuristic would play, else the lowest kind). Every card is valued on the same
worlds. It reads nothing of the real hands but its own: the points still to take, which bound the
search, are counted in each world (in three-hand the real figure would tell the other seats the
discard's points). Costs are in docs/card-play.md.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import copy_into, njit
from .cards import N_KINDS
from .knowledge import Sampler, agrees_with_meld, draw, new_sampler, prepare
from .play import (ALL, RANK, choose_follow, choose_lead, legal_mask, lsb, partner_safe, popcount, take,
                   trick_step)
from .search import Position, fresh_space, in_hands, new_space, solve_moves
from .variants import R

WORLDS = 40     # default worlds a decision
DD_TRICKS = 3   # default tricks left (the current one counted) from which worlds are solved double dummy
INFER = 0       # default: worlds drawn from the cards alone, not checked against the meld not shown
#: Draws of a world that must agree with the meld shown before the last is taken as it is.
MAX_DRAWS = 1000


class Scratch(NamedTuple):
    """One thread's memory for the sampling player."""

    sampler: Sampler
    h1: np.ndarray       # int64[seats]: a world's hands
    h2: np.ndarray
    r1: np.ndarray       # int64[seats]: a rollout's hands
    r2: np.ndarray
    values: np.ndarray   # int64[24]: each card's value in a world
    sums: np.ndarray     # float64[24]: summed over the worlds
    space: tuple         # search.Space: for the decisions solved double dummy
    hand: np.ndarray     # int64[24]: a meld hand, for the check against the meld shown
    melds: np.ndarray    # int64[4]: its meld in every trump


@njit
def new_scratch(seats, search_cards):
    """A :class:`Scratch`; ``search_cards``: the most cards left when a decision is solved
    double dummy (-1: never, no search table)."""
    return Scratch(new_sampler(), np.zeros(seats, np.int64), np.zeros(seats, np.int64), np.zeros(seats, np.int64),
                   np.zeros(seats, np.int64), np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.float64),
                   new_space(search_cards), np.zeros(N_KINDS, np.int64), np.zeros(4, np.int64))


@njit
def rollout(h1, h2, pos, p1, p2, trump, bidder_team, draw_trump_min, max_team, tb):
    """The points side ``max_team`` takes from position ``pos`` (the cards on the table included)
    to the end when every seat plays the plain heuristic; ``h1``/``h2`` are spent."""
    rules, points, team, partner = tb.rules, tb.card_points, tb.team, tb.partner
    seats = h1.shape[0]
    seat, j, lead, win, win_seat, _, pot, cards, _ = pos
    got = 0
    while cards > 0:
        unseen = ALL & ~(h2[seat] | p2 | (h1[seat] & p1))
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
        bit = 1 << card
        if p1 & bit:
            p2 |= bit
        p1 |= bit
        lead, win, win_seat = trick_step(card, seat, j, lead, win, win_seat, trump)
        pot += points[RANK[card]]
        cards -= 1
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


@njit
def pimc_card(hs, pos, p1, p2, legal, prefer, trump, bidder_team, draw_trump_min, tb, worlds, dd_tricks, infer,
              state, sc):
    """The sampling player's card for the seat of ``pos``: from ``hs`` (``tricks.Hands``) it
    reads only that seat's hand (``h1[seat]``/``h2[seat]``) and what the seat knows (``seen``);
    ``legal`` its legal kinds, ``prefer`` the card a tie goes to. Returns ``(state, card)``; card
    -1 if what the seat knows admits no layout (never, when ``seen`` was kept from the real play)."""
    h1, h2, seen = hs.h1, hs.h2, hs.seen
    seat = pos.seat
    if popcount(legal) == 1:
        return state, lsb(legal)
    own1, own2 = h1[seat], h2[seat]
    if prepare(seen, seat, own1, own2, p1, p2, sc.sampler) <= 0.0:
        return state, -1
    seats = h1.shape[0]
    wh1, wh2, r1, r2, values, sums = sc.h1, sc.h2, sc.r1, sc.r2, sc.values, sc.sums
    sums[:] = 0.0
    team = tb.team
    max_team = team[seat]
    points = tb.card_points
    if (pos.cards + pos.j) // seats <= dd_tricks:
        sp = fresh_space(sc.space, pos.cards)  # one table for every world: its keys hold every hand
        for _ in range(worlds):
            state = draw_world(seen, seat, own1, own2, state, trump, tb, infer, sc)
            solve_moves(wh1, wh2, _in_world(pos, wh1, wh2, points), True, trump, tb, values, sp)
            _add(legal, values, sums)
        return state, _best(legal, sums, prefer)
    for _ in range(worlds):
        state = draw_world(seen, seat, own1, own2, state, trump, tb, infer, sc)
        left = _in_world(pos, wh1, wh2, points).left
        x = legal
        while x:
            card = lsb(x)
            x &= x - 1
            copy_into(r1, wh1)
            copy_into(r2, wh2)
            take(r1, r2, seat, card)
            pts = points[RANK[card]]
            lead, win, win_seat = trick_step(card, seat, pos.j, pos.lead, pos.win, pos.win_seat, trump)
            bit = 1 << card
            if pos.j == seats - 1:
                taken = pos.pot + pts + (tb.rules[R.last_trick] if pos.cards == 1 else 0)
                gain = taken if team[win_seat] == max_team else 0
                child = Position(win_seat, 0, 0, -1, -1, 0, 0, pos.cards - 1, left - pts)
            else:
                gain = 0
                child = Position(seat + 1 if seat + 1 < seats else 0, pos.j + 1, lead, win, win_seat,
                                 pos.table | bit, pos.pot + pts, pos.cards - 1, left - pts)
            values[card] = gain + rollout(r1, r2, child, p1 | bit, p2 | (p1 & bit), trump, bidder_team,
                                          draw_trump_min, max_team, tb)
        _add(legal, values, sums)
    return state, _best(legal, sums, prefer)


@njit
def draw_world(seen, seat, own1, own2, state, trump, tb, infer, sc):
    """A world drawn for ``seat`` into ``sc.h1``/``sc.h2``; with ``infer``, drawn again (up to
    :data:`MAX_DRAWS` draws) until it agrees with the meld laid down. Returns the random state."""
    state = draw(seen, seat, own1, own2, sc.sampler, state, sc.h1, sc.h2)
    tries = 1
    while infer and tries < MAX_DRAWS and not agrees_with_meld(seen, seat, sc.h1, sc.h2, trump, tb, sc.hand,
                                                               sc.melds):
        state = draw(seen, seat, own1, own2, sc.sampler, state, sc.h1, sc.h2)
        tries += 1
    return state


@njit
def _in_world(pos, h1, h2, points):
    """``pos`` with the points still in the hands (``left``) counted in a drawn world: in
    three-hand the real sum leaves out the real discard, which the seat to play may not have
    seen, and a world with another discard holds other points."""
    return Position(pos.seat, pos.j, pos.lead, pos.win, pos.win_seat, pos.table, pos.pot, pos.cards,
                    in_hands(h1, h2, points)[1])


@njit
def _add(legal, values, sums):
    x = legal
    while x:
        card = lsb(x)
        x &= x - 1
        sums[card] += values[card]


@njit
def _best(legal, sums, prefer):
    """The legal card with the most summed points (ties: ``prefer``, else the lowest kind)."""
    best = prefer
    x = legal
    while x:
        card = lsb(x)
        x &= x - 1
        if sums[card] > sums[best]:
            best = card
    return best
