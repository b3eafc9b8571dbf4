"""The sampling card player (``pimc``: perfect-information Monte Carlo).

At each decision the seat draws ``worlds`` layouts of the cards it cannot see, exactly from what
it knows (``knowledge.prepare``/``draw``: its cards, the cards played, the melds laid down, the
cards passed, the voids and failures to beat; with ``infer``, also the meld not laid down: a
world in which another seat would have held more meld than it showed is drawn again, up to
:data:`MAX_DRAWS` times, ``knowledge.agrees_with_meld``; with ``calls``, also the auction's
calls: a world in which another seat would have called otherwise under its bidding strategy is
drawn again, ``knowledge.agrees_with_calls``; with ``chain`` moves, only the first world of a
decision is drawn so, and each next one is the first of :data:`FRESH` fresh draws that agrees,
else ``chain`` moves of a Markov chain from the last world, each kept while the world still
agrees, ``knowledge.swap``, :func:`walk_world`), and values each legal card in every world:

* with at most ``dd_tricks`` tricks left (the current one counted), by double dummy
  (``search.solve_moves``, exact for every card, one table for all the worlds of the decision);
* before that, by a rollout: the card, then every seat playing the plain heuristic to the end;
  with at most ``close`` tricks left, where the rollouts of the card they value best make the
  contract in some worlds and not in others (the contract is in doubt), the decision is valued
  again on fresh worlds, solved double dummy: the few decisions the contract hangs on get the
  exact search (and the score objective) a trick or more before the others.

It plays the card worth most on average over the worlds (ties: the card the contract-aware
heuristic would play, else the lowest kind). A card is worth the points its side takes from there
on (``objective=points``) or, with ``objective=score``, where the decision is solved double dummy
the hand's score for its side less the other sides' (meld, trick points, made or set, under the
variant's scoring): every seat playing perfectly in a world maximises its score exactly as it
maximises its points, the score rising with the points, so each world's exact points become
its score, and averaging scores over the worlds weighs the chance to make or set the contract.
The rollouts value points under either objective: their heuristic play is too rough a guide to
whether the contract makes (docs/card-play.md). Every card is valued on the same worlds. It
reads nothing of the real hands but its own: the points still to take, which bound the search,
are counted in each world (in three-hand the real figure would tell the other seats the
discard's points). Costs are in docs/card-play.md.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import bjit, copy_into, copy_rows, njit
from .auction import N_SITUATIONS
from .cards import N_KINDS
from .knowledge import (MAX_HOLDERS, Sampler, agrees_with_calls, agrees_with_meld, compose, draw, new_sampler,
                        prepare, swap, unswap)
from .play import lsb, popcount, rollout
from .search import Position, fresh_space, in_hands, new_space, solve_moves
from .scoring import score_hand
from .variants import R

#: Default worlds a decision: 80, where duplicate matches measured it stronger than 40 in every
#: preset (CHANGELOG, 2026-12-05); a preset of :data:`WORLDS_BY_PRESET` has its own: 160 in
#: ``classic``, where they measured it stronger than 80 once it solved six tricks (CHANGELOG,
#: 2026-12-06).
WORLDS = 80
WORLDS_BY_PRESET = {"classic": 160}
#: Default tricks left (the current one counted) from which worlds are solved double dummy: 6, where
#: duplicate matches measured it stronger at a cost its search affords in every preset but those of
#: :data:`DD_BY_PRESET`, which have their own (CHANGELOG, 2026-12-05 to -07).
DD_TRICKS = 6
DD_BY_PRESET = {"classic": 7, "classic-pass4": 7, "double-deck": 7}
#: Default tricks left from which a decision whose rollouts find the contract in doubt is solved
#: double dummy (on fresh worlds): at most ``dd`` is never. A preset of :data:`CLOSE_BY_PRESET`
#: has its own, measured so (docs/card-play.md has the figures). Where a preset's ``dd`` reached its
#: ``close`` it no longer acts (read the two tables); it stays so that each preset's player before a
#: step in ``dd`` (``pimc:dd=5`` in ``classic`` and ``thousand``) is that player, option for option.
CLOSE = 4
CLOSE_BY_PRESET = {"classic": 6, "classic-pass4": 5, "thousand": 6}
#: Default: worlds drawn from the cards alone, not checked against the meld not shown. A preset of
#: :data:`INFER_BY_PRESET` checks them (``infer=1``), where duplicate matches measured it stronger at
#: eighty worlds (CHANGELOG, 2026-12-05).
INFER = 0
INFER_BY_PRESET = {"thousand": 1, "modern-15": 1, "classic": 1, "classic-pass4": 1, "double-deck": 1}
#: The options whose default is the variant's preset's: option -> (default, {preset: default}).
BY_PRESET = {"worlds": (WORLDS, WORLDS_BY_PRESET), "dd": (DD_TRICKS, DD_BY_PRESET), "infer": (INFER, INFER_BY_PRESET),
             "close": (CLOSE, CLOSE_BY_PRESET)}
#: What a policy row holds for such an option until the variant is known (:func:`preset_default`).
PRESET = -1
CALLS = 0       # default: nor against the calls
#: Default moves of the chain from one world of a decision to the next, where worlds must agree
#: with the meld not shown or the calls (0: every world drawn afresh, redrawn until it agrees).
CHAIN = 16
#: Fresh draws tried for each world after a decision's first before the chain walks on.
FRESH = 8
#: What a card is worth in a world: the points its side takes from there on, or the hand's score.
OBJECTIVES = ("points", "score")
POINTS, SCORE = range(len(OBJECTIVES))
OBJECTIVE = SCORE  # default
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
    tot: np.ndarray      # int64[3, sides]: each side's points, tricks and counters in the hand (``_score``)
    smeld: np.ndarray    # int64[sides]: each side's meld shown, and its nines of trump's part
    sdix: np.ndarray
    out: np.ndarray      # int64[sides]: each side's score for the hand
    worth: np.ndarray    # float64[situations]: a seat's limits, for the check against the calls
    bidding: tuple       # auction.Bidding: the seats' bidding strategies, which the calls are read by
    chain: np.ndarray    # int64[holders, 24]: the chain's layout while fresh draws are tried (``walk_world``)
    made: np.ndarray     # int64[24]: the worlds in which each card's rollout makes the contract


@njit
def new_scratch(seats, sides, search_cards, bidding):
    """A :class:`Scratch`; ``search_cards``: the most cards left when a decision is solved
    double dummy (-1: never, no search table); ``bidding``: the seats' (``auction.Bidding``)."""
    return Scratch(new_sampler(), np.zeros(seats, np.int64), np.zeros(seats, np.int64), np.zeros(seats, np.int64),
                   np.zeros(seats, np.int64), np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.float64),
                   new_space(search_cards), np.zeros(N_KINDS, np.int64), np.zeros(4, np.int64),
                   np.zeros((3, sides), np.int64), np.zeros(sides, np.int64), np.zeros(sides, np.int64),
                   np.zeros(sides, np.int64), np.zeros(N_SITUATIONS), bidding,
                   np.zeros((MAX_HOLDERS, N_KINDS), np.int64), np.zeros(N_KINDS, np.int64))


def preset_default(option: str, preset: str) -> int:
    """The value of ``pimc``'s ``option`` (of :data:`BY_PRESET`) left out, in a variant made from
    ``preset``."""
    default, by_preset = BY_PRESET[option]
    return by_preset.get(preset, default)


@bjit
def pimc_card(hs, pos, p1, p2, legal, prefer, trump, bidder_team, draw_trump_min, tb, worlds, dd_tricks, infer,
              objective, calls, chain, close, team, state, sc):
    """The sampling player's card for the seat of ``pos``: from ``hs`` (``tricks.Hands``) it
    reads only that seat's hand (``h1[seat]``/``h2[seat]``) and what the seat knows (``seen``);
    ``legal`` its legal kinds, ``prefer`` the card a tie goes to; ``objective`` an index into
    :data:`OBJECTIVES`; ``close``: the tricks left from which a decision the rollouts find the
    contract in doubt at is valued again on fresh worlds solved double dummy (see the module
    docstring); ``team[0..2, side]`` the points, tricks and counters each side has taken
    (the bid winner's points in three-hand include its discard's, which only it has seen: they
    are read only through what the seat may know). Returns ``(state, card)``; card -1 if what the
    seat knows admits no layout (never, when ``seen`` was kept from the real play)."""
    h1, h2, seen = hs.h1, hs.h2, hs.seen
    seat = pos.seat
    if popcount(legal) == 1:
        return state, lsb(legal)
    own1, own2 = h1[seat], h2[seat]
    if prepare(seen, seat, own1, own2, p1, p2, tb.rules[R.copies] > 2, sc.sampler) <= 0.0:
        return state, -1
    seats = h1.shape[0]
    tricks_left = (pos.cards + pos.j) // seats
    solved = tricks_left <= dd_tricks
    watch = not solved and tricks_left <= close
    if watch or (objective == SCORE and solved):  # where _score runs: each side's meld shown
        sc.smeld[:] = 0
        sc.sdix[:] = 0
        for q in range(seats):
            sc.smeld[tb.team[q]] += max(seen.shown[q], 0)
            sc.sdix[tb.team[q]] += seen.dix[q]
    state = _value_cards(hs, pos, p1, p2, legal, trump, bidder_team, draw_trump_min, tb, worlds, solved, watch,
                         objective, infer, calls, chain, team, state, sc)
    if watch:
        m = sc.made[_best(legal, sc.sums, prefer)]
        if 0 < m < worlds:  # in doubt: solved on fresh worlds
            state = _value_cards(hs, pos, p1, p2, legal, trump, bidder_team, draw_trump_min, tb, worlds, True, False,
                                 objective, infer, calls, chain, team, state, sc)
    return state, _best(legal, sc.sums, prefer)


@bjit
def _value_cards(hs, pos, p1, p2, legal, trump, bidder_team, draw_trump_min, tb, worlds, solved, watch, objective,
                 infer, calls, chain, team, state, sc):
    """Each legal card's value for the seat of ``pos`` (its hand and what it knows read from
    ``hs``, as :func:`pimc_card` says), summed over ``worlds`` worlds into ``sc.sums``: solved
    double dummy (``solved``) or by rollouts; with ``watch``, ``sc.made[card]`` counts the worlds
    in which the card's rollout makes the contract. Returns the random state."""
    seen, seat = hs.seen, pos.seat
    own1, own2 = hs.h1[seat], hs.h2[seat]
    wh1, wh2, r1, r2, values, sums, made = sc.h1, sc.h2, sc.r1, sc.r2, sc.values, sc.sums, sc.made
    sums[:] = 0.0
    made[:] = 0
    me = tb.team[seat]
    points = tb.card_points
    by_score = objective == SCORE and solved
    sp = fresh_space(sc.space, pos.cards) if solved else sc.space  # one table for every world
    for w in range(worlds):
        if w == 0 or chain == 0 or not (infer or calls):
            state = draw_world(seen, seat, own1, own2, state, trump, tb, infer, calls, sc)
        else:
            state = walk_world(seen, seat, own1, own2, state, trump, tb, infer, calls, chain, sc)
        wpos = _in_world(pos, wh1, wh2, points)
        if solved:
            solve_moves(wh1, wh2, wpos, True, trump, tb, values, sp)
        x = legal
        while x:
            card = lsb(x)
            x &= x - 1
            if not solved:
                copy_into(r1, wh1)
                copy_into(r2, wh2)
                values[card] = rollout(r1, r2, wpos, card, p1, p2, trump, bidder_team, draw_trump_min, me, tb)
                if watch:
                    _score(values[card], me, team, wpos, seen, tb, sc)
                    made[card] += sc.out[bidder_team] > 0
            elif by_score:
                values[card] = _score(values[card], me, team, wpos, seen, tb, sc)
            sums[card] += values[card]
    return state


@bjit
def _score(v, me, team, pos, seen, tb, sc):
    """Side ``me``'s score for the hand less the other sides' mean (times sides - 1, to stay
    whole; ``scoring.score_hand``) when it takes ``v`` of the points still to take from ``pos``,
    double dummy, on top of what each side took so far (``team``), the sides' meld shown in
    ``sc.smeld``/``sc.sdix``. The rest of the points goes to the other side (three-hand: to the
    bid winner when ``me`` is not it, as the search's two other seats play together against
    ``me``; else to the next seat), and a side taking points is counted as taking a trick with a
    counter (the search counts points only). The bid winner's points so far where its discard
    counts (three-hand) are what the seat may know: every point not in the hands of ``pos``'s
    world, on the table or taken by another side."""
    rules, tot, out = tb.rules, sc.tot, sc.out
    sides = out.shape[0]
    bid, bt = seen.contract[0], seen.contract[1]
    other = 1 - me if sides == 2 else (bt if me != bt else (me + 1) % sides)
    for i in range(3):
        for s in range(sides):
            tot[i, s] = team[i, s]
    if rules[R.discard_counts]:
        tot[0, bt] = rules[R.trick_total] - rules[R.last_trick] - pos.left - pos.pot
        for s in range(sides):
            if s != bt:
                tot[0, bt] -= team[0, s]
    for s, got in ((me, v), (other, pos.pot + pos.left + rules[R.last_trick] - v)):
        tot[0, s] += got
        tot[1, s] += got > 0
        tot[2, s] += got > 0
    score_hand(bt, bid, sc.smeld, sc.sdix, tot[0], tot[1], tot[2], rules, out)
    v = (sides - 1) * out[me]
    for s in range(sides):
        if s != me:
            v -= out[s]
    return v


@bjit
def draw_world(seen, seat, own1, own2, state, trump, tb, infer, calls, sc):
    """A world drawn for ``seat`` into ``sc.h1``/``sc.h2``; with ``infer``, drawn again (up to
    :data:`MAX_DRAWS` draws) until it agrees with the meld laid down, with ``calls`` until it
    agrees with the auction's calls under the seats' bidding. Returns the random state."""
    state = draw(seen, seat, own1, own2, sc.sampler, state, sc.h1, sc.h2)
    tries = 1
    while tries < MAX_DRAWS and not _agrees(seen, seat, trump, tb, infer, calls, sc):
        state = draw(seen, seat, own1, own2, sc.sampler, state, sc.h1, sc.h2)
        tries += 1
    return state


@bjit
def walk_world(seen, seat, own1, own2, state, trump, tb, infer, calls, moves, sc):
    """The next world of a decision for ``seat``, into ``sc.h1``/``sc.h2``, where worlds must
    agree with what ``infer`` and ``calls`` ask: the first of up to :data:`FRESH` fresh draws that
    agrees (an independent world), else ``moves`` moves of the chain (``knowledge.swap``) from
    the layout of the last world, each undone when it breaks the world's agreement (while the
    world does not agree, as when :func:`draw_world` ran out of draws, every move is kept). Each
    world so drawn has a uniform deal's weights among the layouts that agree, as the first one
    has. Returns the random state."""
    sp = sc.sampler
    copy_rows(sc.chain, sp.counts)
    for _ in range(FRESH):
        state = draw(seen, seat, own1, own2, sp, state, sc.h1, sc.h2)
        if _agrees(seen, seat, trump, tb, infer, calls, sc):
            return state
    copy_rows(sp.counts, sc.chain)
    compose(seen, seat, own1, own2, sp, sc.h1, sc.h2)
    agreed = _agrees(seen, seat, trump, tb, infer, calls, sc)
    for _ in range(moves):
        state, a, ka, b, kb = swap(seen, sp, state)
        if a < 0:
            continue
        compose(seen, seat, own1, own2, sp, sc.h1, sc.h2)
        now = _agrees(seen, seat, trump, tb, infer, calls, sc)
        if agreed and not now:
            unswap(sp, a, ka, b, kb)
        else:
            agreed = now
    compose(seen, seat, own1, own2, sp, sc.h1, sc.h2)
    return state


@bjit
def _agrees(seen, seat, trump, tb, infer, calls, sc):
    """Whether the world in ``sc`` agrees with what ``infer`` and ``calls`` ask it to."""
    if infer and not agrees_with_meld(seen, seat, sc.h1, sc.h2, trump, tb):
        return False
    return not calls or agrees_with_calls(seen, seat, sc.h1, sc.h2, sc.bidding, tb, sc.hand, sc.melds, sc.worth)


@bjit
def _in_world(pos, h1, h2, points):
    """``pos`` with the points still in the hands (``left``) counted in a drawn world: in
    three-hand the real sum leaves out the real discard, which the seat to play may not have
    seen, and a world with another discard holds other points."""
    return Position(pos.seat, pos.j, pos.lead, pos.win, pos.win_seat, pos.table, pos.pot, pos.cards,
                    in_hands(h1, h2, points)[1])


@bjit
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
