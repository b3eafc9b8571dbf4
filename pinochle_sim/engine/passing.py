"""After the auction: where the variant passes, the bid winner's partner passes cards to it and
it passes as many back; where it has a kitty (three-hand), the bid winner takes it and discards
as many cards before naming trump.

Policy, after seed 004's advice:

* trump: the suit with the largest estimated worth (meld in that trump plus the trick estimate
  of the bidding policy);
* the partner passes trumps (highest first), then side aces, then the pinochle card the bidder
  can use (the J of diamonds with spades trump, the Q of spades with diamonds trump; with hearts
  or clubs trump the partner never passes a pinochle card), then side tens, keeping the cards of
  its own meld where it can;
* the bidder passes back cards that are not part of its meld (RULES.md: in ``classic-pass4`` it
  passes back cards that are not part of its meld), never trump while it has other cards, keeping
  aces, and emptying its shortest side suits first so that it can trump them; when its meld
  needs more cards than it may keep, it passes back every spare card and the meld cards that
  keep the most meld, searched over every set of them;
* the bid winner with a kitty names the trump its whole hand (kitty included) is best in, and
  discards cards that are neither trump nor part of its meld: first side-suit counters that
  cannot win a trick on their own (a ten without both aces of its suit, kings; where the
  discard counts, they bank their points), then the lowest cards of its shortest side suits
  (to trump them); never an ace or a ten behind both aces.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import bjit, copy_into, njit
from .cards import COPIES, N_KINDS, A, T
from .meld import JD, QS, hand_meld_all_trumps, meld_used


class PassScratch(NamedTuple):
    """One thread's scratch for passing and discarding (the hand kernel allocates nothing)."""

    used: np.ndarray      # int8[N_KINDS]: the cards of a hand's meld
    spare: np.ndarray     # int8[N_KINDS]: the copies beyond them
    left: np.ndarray      # int8[N_KINDS]: a hand as cards are picked from it
    kept: np.ndarray      # int8[N_KINDS]: the meld cards, for the search over them
    scores: np.ndarray    # float64[N_KINDS]
    suit_len: np.ndarray  # int64[4]
    melds: np.ndarray     # int64[4]
    cards: np.ndarray     # int64[N_KINDS * COPIES]: a hand's cards by kind
    idx: np.ndarray       # int64[N_KINDS * COPIES]: a set of them


@njit
def new_pass_scratch():
    return PassScratch(np.zeros(N_KINDS, np.int8), np.zeros(N_KINDS, np.int8), np.zeros(N_KINDS, np.int8),
                       np.zeros(N_KINDS, np.int8), np.zeros(N_KINDS, np.float64),
                       np.zeros(4, np.int64), np.zeros(4, np.int64),
                       np.zeros(N_KINDS * COPIES, np.int64), np.zeros(N_KINDS * COPIES, np.int64))


@bjit
def _partner_score(k, trump, used):
    """How much the partner wants to pass kind ``k`` (higher first)."""
    s, r = k // 6, k % 6
    if s == trump:
        return 100.0 - r
    score = 0.0
    if r == A:
        score = 60.0
    elif (k == JD and trump == 0) or (k == QS and trump == 2):
        score = 50.0
    elif k == QS or k == JD:
        score = -50.0  # with hearts or clubs trump it would be passed back for a pinochle
    elif r == T:
        score = 30.0
    else:
        score = 10.0 - r
    if used[k] > 0:
        score -= 40.0
    return score


@bjit
def _bidder_keep(k, trump, suit_len):
    """How much the bidder wants to keep a spare (non-meld) card of kind ``k`` (lowest passed back first)."""
    s, r = k // 6, k % 6
    if s == trump:
        return 500.0 - r
    if r == A:
        return 100.0
    return 10.0 * suit_len[s] + (5 - r)


@bjit
def choose_cards(hand, n, scores, out, left):
    """Pick ``n`` cards of ``hand`` with the highest ``scores`` (both copies count) into ``out``;
    ``left`` (int8[N_KINDS]) is scratch."""
    copy_into(left, hand)
    for i in range(n):
        best = -1
        for k in range(N_KINDS):
            if left[k] > 0 and (best < 0 or scores[k] > scores[best]):
                best = k
        out[i] = best
        left[best] -= 1


@bjit
def most_meld_kept(hand, n, trump, tb, scores, out, ps):
    """The ``n`` cards of ``hand`` to give up that leave it the most meld in ``trump``, searched
    over every set of ``n`` (the two copies of a card alike); among equals, those with the highest
    ``scores`` in total. Into ``out``; ``ps`` (:class:`PassScratch`) is scratch, ``hand`` may be
    its ``kept``."""
    cards, idx, left, melds = ps.cards, ps.idx, ps.left, ps.melds
    m = 0
    for k in range(N_KINDS):
        for _ in range(hand[k]):
            cards[m] = k
            m += 1
    for j in range(n):
        idx[j] = j
    copy_into(left, hand)
    best, best_score = -1, 0.0
    while True:
        # a set once: of two identical cards, only the first starts a run of picks
        ok = True
        for j in range(n):
            if idx[j] > 0 and cards[idx[j]] == cards[idx[j] - 1] and (j == 0 or idx[j - 1] != idx[j] - 1):
                ok = False
                break
        if ok:
            score = 0.0
            for j in range(n):
                left[cards[idx[j]]] -= 1
                score += scores[cards[idx[j]]]
            hand_meld_all_trumps(left, tb, melds)
            if melds[trump] > best or (melds[trump] == best and score > best_score):
                best, best_score = melds[trump], score
                for j in range(n):
                    out[j] = cards[idx[j]]
            for j in range(n):
                left[cards[idx[j]]] += 1
        j = n - 1  # the next set of positions
        while j >= 0 and idx[j] == m - n + j:
            j -= 1
        if j < 0:
            return
        idx[j] += 1
        for i in range(j + 1, n):
            idx[i] = idx[i - 1] + 1


@bjit
def pass_cards(hands, bidder, partner, trump, n, tb, rec, ps):
    """``partner`` passes ``n`` cards to ``bidder``, which passes ``n`` back; ``hands`` change in
    place. ``rec[0]`` and ``rec[1]`` receive the kinds passed each way; ``ps``
    (:class:`PassScratch`) is scratch.
    """
    used, scores, suit_len, spare = ps.used, ps.scores, ps.suit_len, ps.spare
    meld_used(hands[partner], trump, tb, used)
    for k in range(N_KINDS):
        scores[k] = _partner_score(k, trump, used)
    choose_cards(hands[partner], n, scores, rec[0], ps.left)
    for i in range(n):
        hands[partner, rec[0, i]] -= 1
        hands[bidder, rec[0, i]] += 1
    meld_used(hands[bidder], trump, tb, used)
    suit_len[:] = 0
    for k in range(N_KINDS):
        suit_len[k // 6] += hands[bidder, k] - used[k]
    copy_into(spare, hands[bidder])  # copies beyond those its meld uses
    n_spare = 0
    for k in range(N_KINDS):
        spare[k] -= used[k]
        n_spare += spare[k]
        scores[k] = -_bidder_keep(k, trump, suit_len)
    if n_spare >= n:
        choose_cards(spare, n, scores, rec[1], ps.left)
    else:  # rare: the meld needs more cards than it may keep: every spare card, then the meld
        # cards that keep the most of it (passing a spare never costs meld, so some best set
        # holds them all)
        j = 0
        for k in range(N_KINDS):
            for _ in range(spare[k]):
                rec[1, j] = k
                j += 1
        for k in range(N_KINDS):
            ps.kept[k] = hands[bidder, k] - spare[k]
        most_meld_kept(ps.kept, n - n_spare, trump, tb, scores, rec[1, n_spare:], ps)
    for i in range(n):
        hands[bidder, rec[1, i]] -= 1
        hands[partner, rec[1, i]] += 1


@bjit
def sure_sweep(hand, trump):
    """Whether a bidder leading every trick from ``hand`` (counts, its final twelve) surely wins
    them all, whoever holds the other cards: the policy's test for seed 004's "playing 1000".

    Leading trumps from the top must draw every trump it lacks with cards nobody can beat (a
    lone opponent may hold them all), and in every side suit its lowest card must rank with or
    above every card of the suit it lacks (identical cards: the first played, its own, wins).
    """
    own_trumps = 0
    for r in range(6):
        own_trumps += hand[6 * trump + r]
    missing = 6 * COPIES - own_trumps
    if missing > 0:
        # the lowest of its top `missing` trumps must rank with or above the highest missing trump
        top_missing = -1
        for r in range(6):
            if hand[6 * trump + r] < 2:
                top_missing = r
                break
        led = 0
        for r in range(6):
            led += hand[6 * trump + r]
            if led >= missing:
                if r > top_missing:
                    return False
                break
        if led < missing:
            return False
    for s in range(4):
        if s == trump:
            continue
        lowest = -1
        for r in range(6):
            if hand[6 * s + r] > 0:
                lowest = r
        if lowest < 0:
            continue
        for r in range(lowest):
            if hand[6 * s + r] < 2:
                return False  # a missing card outranks its lowest
    return True


@bjit
def _discard_score(k, trump, suit_len, hand, points):
    """How much the bid winner wants to discard a spare card of kind ``k`` (highest first)."""
    s, r = k // 6, k % 6
    if s == trump:
        return -1000.0 + r
    if r == A or (r == T and hand[6 * s + A] == 2):
        return -500.0 + r  # a winner
    if points[r] > 0:
        return 200.0 + points[r] - suit_len[s]  # a counter that would be caught: bury it
    return 100.0 - 10.0 * suit_len[s] + r  # short suits first, lowest card first


@bjit
def discard(hand, trump, n, tb, out, ps):
    """The bid winner (``hand``: its cards with the kitty, counts, changed in place) discards
    ``n`` cards for trump ``trump``; ``out`` receives their kinds. Cards of its meld go only if
    every other card is trump or meld. ``ps`` (:class:`PassScratch`) is scratch."""
    used, scores, suit_len, spare = ps.used, ps.scores, ps.suit_len, ps.spare
    meld_used(hand, trump, tb, used)
    suit_len[:] = 0
    for k in range(N_KINDS):
        suit_len[k // 6] += hand[k]
    copy_into(spare, hand)
    n_spare = 0
    for k in range(N_KINDS):
        spare[k] -= used[k]
        n_spare += spare[k]
        scores[k] = _discard_score(k, trump, suit_len, hand, tb.card_points)
    if n_spare >= n:
        choose_cards(spare, n, scores, out, ps.left)
    else:
        for k in range(N_KINDS):
            scores[k] -= 10000.0 * used[k]
        choose_cards(hand, n, scores, out, ps.left)
    for i in range(n):
        hand[out[i]] -= 1
