"""Meld: the numba kernel that scores hands in all four trumps, and the readable breakdown.

The kernel reads a variant's compiled ``meld_values`` table (value of 0, 1 or 2 copies of each
combination), so every variant's meld is the same code with other data. A hand's meld for trump
``t`` is ``base + delta[t]``: ``base`` is what the hand scores whatever the trump (marriages as
plain marriages, arounds, pinochles) and ``delta[t]`` what suit ``t`` adds as trump (run, royal
marriage instead of plain, nines of trump). The exact-odds module uses the same split.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import prange

from ._numba import njit, pnjit
from .cards import (A, J, K, N_KINDS, NINE, Q, SUITS, T, CardError, card_name, hand_counts,
                    kind, parse_suit)
from .variants import (ACES, DIX, JACKS, KINGS, MARRIAGE, PINOCHLE, QUEENS, ROYAL, RUN, Variant,
                       compile_variant, variant)

QS = kind(0, Q)
JD = kind(2, J)
SEPARATE, INCLUDED, EXTRA_CARD = range(3)


@njit
def trump_suit_meld(a, t, k, q, j, n9, mv, run_mode, extra_kq):
    """Meld of one suit's counts when that suit is trump (run, royal marriage, nines)."""
    runs = min(a, t, k, q, j)
    kq = min(k, q)
    total = mv[RUN, runs] + mv[DIX, n9]
    if run_mode == SEPARATE:
        total += mv[ROYAL, kq]
    elif run_mode == INCLUDED:
        total += mv[ROYAL, kq - runs]
    elif runs > 0:  # EXTRA_CARD: each K or Q beyond the run's
        total += extra_kq * (k + q - 2 * runs)
    else:
        total += mv[ROYAL, kq]
    return total


@njit
def base_meld(c, mv):
    """What hand ``c`` scores whatever the trump: plain marriages in every suit, arounds, pinochle."""
    base = mv[PINOCHLE, min(c[QS], c[JD])]
    base += mv[ACES, min(c[A], c[6 + A], c[12 + A], c[18 + A])]
    base += mv[KINGS, min(c[K], c[6 + K], c[12 + K], c[18 + K])]
    base += mv[QUEENS, min(c[Q], c[6 + Q], c[12 + Q], c[18 + Q])]
    base += mv[JACKS, min(c[J], c[6 + J], c[12 + J], c[18 + J])]
    for s in range(4):
        base += mv[MARRIAGE, min(c[6 * s + K], c[6 * s + Q])]
    return base


@njit
def trump_delta(c, s, mv, run_mode, extra_kq):
    """What suit ``s`` adds to :func:`base_meld` as trump."""
    o = 6 * s
    return trump_suit_meld(c[o + A], c[o + T], c[o + K], c[o + Q], c[o + J], c[o + NINE], mv,
                           run_mode, extra_kq) - mv[MARRIAGE, min(c[o + K], c[o + Q])]


@njit
def hand_meld_all_trumps(c, mv, run_mode, extra_kq, out):
    """Main body of :func:`meld_table`: meld of count vector ``c`` for trumps S, H, D, C into ``out``."""
    base = base_meld(c, mv)
    for s in range(4):
        out[s] = base + trump_delta(c, s, mv, run_mode, extra_kq)


@njit
def meld_used(c, trump, mv, run_mode, extra_kq, out):
    """Count vector (into ``out``) of the cards of ``c`` that take part in a scoring combination.

    A card may serve several kinds of combination, so usage is the largest count any one kind
    needs, except in the trump K and Q, where an extra royal marriage (run_marriage=included)
    or extra K/Q (extra_card) uses copies beyond the run's.
    """
    out[:] = 0
    o = 6 * trump
    runs = min(c[o + A], c[o + T], c[o + K], c[o + Q], c[o + J])
    if mv[RUN, runs] == 0:
        runs = 0
    for r in (A, T, K, Q, J):
        out[o + r] = runs
    for s in range(4):
        m = min(c[6 * s + K], c[6 * s + Q])
        if s != trump and mv[MARRIAGE, m] > 0:
            out[6 * s + K] = m
            out[6 * s + Q] = m
    kq = min(c[o + K], c[o + Q])
    if run_mode == EXTRA_CARD and runs > 0:
        if extra_kq > 0:
            out[o + K] = c[o + K]
            out[o + Q] = c[o + Q]
    elif run_mode == INCLUDED:
        if mv[ROYAL, kq - runs] > 0:
            out[o + K] = kq
            out[o + Q] = kq
    elif mv[ROYAL, kq] > 0:
        out[o + K] = max(runs, kq)
        out[o + Q] = max(runs, kq)
    p = min(c[QS], c[JD])
    if mv[PINOCHLE, p] > 0:
        out[QS] = max(out[QS], p)
        out[JD] = max(out[JD], p)
    for rank, row in ((A, ACES), (K, KINGS), (Q, QUEENS), (J, JACKS)):
        n = min(c[rank], c[6 + rank], c[12 + rank], c[18 + rank])
        if mv[row, n] > 0:
            for s in range(4):
                out[6 * s + rank] = max(out[6 * s + rank], n)
    if mv[DIX, c[o + NINE]] > 0:
        out[o + NINE] = c[o + NINE]


@pnjit
def _meld_table(hands, mv, run_mode, extra_kq, out):
    for i in prange(hands.shape[0]):
        hand_meld_all_trumps(hands[i], mv, run_mode, extra_kq, out[i])


def meld_table(hands: np.ndarray, v: Variant | str = "thousand") -> np.ndarray:
    """Meld of many hands in every trump.

    Parameters
    ----------
    hands : int8[..., 24] count vectors.
    v : variant or its spec.

    Returns
    -------
    int32[..., 4]: meld with trump spades, hearts, diamonds, clubs.

    >>> meld_table(hand_counts("AS TS KS QS JS 9D 9D 9C 9C 9H 9H JH")).tolist()
    [190, 20, 20, 20]
    """
    v = variant(v) if isinstance(v, str) else v
    tb = compile_variant(v)
    h = np.ascontiguousarray(hands, dtype=np.int8)
    flat = h.reshape(-1, N_KINDS)
    out = np.empty((flat.shape[0], 4), np.int32)
    _meld_table(flat, tb.meld_values, tb.run_mode, tb.extra_kq, out)
    return out.reshape(h.shape[:-1] + (4,))


# --------------------------------------------------------------------------------------------
# The readable breakdown ("gather my meld"), and seed 000's refusal of cards that make no meld.

AROUNDS = ((A, "aces_around", "double_aces", ACES), (K, "kings_around", "double_kings", KINGS),
           (Q, "queens_around", "double_queens", QUEENS), (J, "jacks_around", "double_jacks", JACKS))


@dataclass(frozen=True)
class MeldItem:
    """One scored combination: its name, the cards it uses, its points."""

    name: str
    cards: tuple[str, ...]
    points: int

    def as_dict(self) -> dict:
        return {"name": self.name, "cards": list(self.cards), "points": self.points}


@dataclass(frozen=True)
class Meld:
    """A hand's meld in one trump: the total and each combination."""

    trump: str
    total: int
    items: tuple[MeldItem, ...]

    def as_dict(self) -> dict:
        return {"trump": self.trump, "total": self.total, "items": [i.as_dict() for i in self.items]}

    used: tuple[int, ...] = ()  # count vector of the cards that take part in some combination


def _cards(*pairs: tuple[int, int]) -> tuple[str, ...]:
    return tuple(card_name(k) for k, n in pairs for _ in range(n))


def meld(hand, trump: str | int, v: Variant | str = "thousand") -> Meld:
    """Meld of a hand (any number of cards) in one trump, combination by combination.

    >>> m = meld("AS TS KS QS JS 9D 9D 9C 9C 9H 9H JH", "S", "thousand")
    >>> m.total, [i.name for i in m.items]
    (190, ['run', 'royal_marriage'])
    """
    v = variant(v) if isinstance(v, str) else v
    c = hand_counts(hand).astype(int)
    t = parse_suit(trump) if isinstance(trump, str) else int(trump)
    mv = compile_variant(v).meld_values
    items: list[MeldItem] = []

    def add(name: str, points: int, cards: tuple[str, ...]) -> None:
        if points:
            items.append(MeldItem(name, cards, int(points)))

    o = 6 * t
    runs = min(c[o + A], c[o + T], c[o + K], c[o + Q], c[o + J])
    if runs:
        add("run" if runs == 1 else "double_run", mv[RUN, runs],
            _cards(*((o + r, runs) for r in (A, T, K, Q, J))))
    kq = min(c[o + K], c[o + Q])
    if v.run_marriage == "extra_card" and runs:
        extra = c[o + K] + c[o + Q] - 2 * runs
        add("extra_king_queen", v.extra_king_queen * extra,
            _cards((o + K, c[o + K] - runs), (o + Q, c[o + Q] - runs)))
    else:
        royal = kq - runs if v.run_marriage == "included" else kq
        add("royal_marriage", mv[ROYAL, royal], _cards((o + K, royal), (o + Q, royal)))
    for s in range(4):
        m = min(c[6 * s + K], c[6 * s + Q])
        if s != t and m:
            add("marriage", mv[MARRIAGE, m], _cards((6 * s + K, m), (6 * s + Q, m)))
    p = min(c[QS], c[JD])
    if p:
        add("pinochle" if p == 1 else "double_pinochle", mv[PINOCHLE, p], _cards((QS, p), (JD, p)))
    for rank, single, double, row in AROUNDS:
        n = min(c[6 * s + rank] for s in range(4))
        if n:
            add(single if n == 1 else double, mv[row, n], _cards(*((6 * s + rank, n) for s in range(4))))
    add("nine_of_trump", mv[DIX, c[o + NINE]], _cards((o + NINE, c[o + NINE])))
    used = np.zeros(N_KINDS, np.int8)
    # the kernel's Python body: one hand does not need compiled code (nor numba's start-up)
    meld_used.py_func(c.astype(np.int8), t, mv, compile_variant(v).run_mode, v.extra_king_queen,
                      used)
    return Meld(SUITS[t], sum(i.points for i in items), tuple(items), tuple(int(x) for x in used))


def meld_all_trumps(hand, v: Variant | str = "thousand") -> list[Meld]:
    """The hand's meld in each trump, best first (ties in suit order S H D C)."""
    return sorted((meld(hand, t, v) for t in range(4)), key=lambda m: -m.total)


def refused_cards(laid_down, hand, trump: str | int, v: Variant | str = "thousand") -> list[str]:
    """Seed 000: 'Cards that make no meld at all are refused.'

    Given the cards a player lays down (which must be in ``hand``), return the ones that take
    part in no scoring combination of the laid-down cards, sorted.

    >>> refused_cards("AS TS KS QS JS 9S", "AS TS KS QS JS 9S AH AD AC 9D 9H 9C", "S")
    ['9S']
    """
    laid = hand_counts(laid_down)
    held = hand_counts(hand)
    over = np.flatnonzero(laid > held)
    if over.size:
        raise CardError(f"{card_name(int(over[0]))} is laid down but not in the hand")
    refused = laid - np.array(meld(laid, trump, v).used, np.int8)
    return [card_name(k) for k in range(N_KINDS) for _ in range(int(refused[k]))]
