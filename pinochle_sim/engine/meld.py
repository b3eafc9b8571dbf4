"""Meld: the numba kernel that scores hands in all four trumps, the cards a meld uses (for
passing and discarding), and the readable breakdown.

All of them read one declaration, ``variants.MELDS``, compiled into a variant's tables: each meld
instance (a run in hearts, a marriage in clubs, aces around...) has its cards, the suit it
depends on and whether it counts whatever the trump, only as trump, or only when not trump; its
value for the copies held is the variant's ``meld_values`` row. The one rule between melds, how
a run and its trump K+Q count together, is the variant's ``run_marriage`` mode. The exact odds
(``odds``) read the same tables (``melds``). The copies of a card are the variant's (two, or
four in double-deck).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba.core import types
from numba.extending import overload

from .._numba import ijit, in_spans, load_word, njit
from .cards import J, N_KINDS, Q, SUITS, CardError, card_name, hand_counts, kind, parse_suit
from .deal import BLOCK
from .melds import (ANY_TRUMP, AS_TRUMP, I_COMBO, I_KINDS, I_RUN, MELDS, ROYAL, SCORE_PLAIN, TRUMP_GAIN,
                    USED_BITS, USED_PLAIN, USED_TRUMP, across_rows, copies, instance_table, instance_value,
                    meld_instances)
from .variants import Variant, compile_variant, variant

QS = kind(0, Q)
JD = kind(2, J)

_LANES = np.uint64(0x00FF00FF00FF)                        # bytes 0, 2 and 4 of a word
_BASE3 = np.uint64(1 | 9 << 16 | 81 << 32)                 # three 16-bit lanes, weighed 81, 9, 1
_S8, _S32, _LOW16 = np.uint64(8), np.uint64(32), np.uint64(0xFFFF)


@ijit
def suit_digits(c, s, copies):
    """:func:`suit_code` digit by digit, for any count vector (in the kernels, where a word read
    of a small vector measured slower than the six digits: the meld check of ``pimc``)."""
    b, i = copies + 1, 6 * s
    return ((((c[i] * b + c[i + 1]) * b + c[i + 2]) * b + c[i + 3]) * b + c[i + 4]) * b + c[i + 5]


def suit_code(c, s, copies):
    """The configuration of suit ``s`` in count vector ``c``, as the suit tables index it: its
    six counts, ace first, as the digits of a number base ``copies + 1`` (``melds.suit_configs``)."""
    return suit_digits.py_func(np.asarray(c, np.int64), s, copies)  # (int8 counts would overflow)


@overload(suit_code, inline="always")
def _suit_code(c, s, copies):
    """In the kernels: a count vector of int8 (a hand as dealt) of a two-copy deck is read a word
    at a time, the six counts paired into three 16-bit lanes (``3 a + b``) and the lanes weighed
    by one multiply; any other count vector by its plain digits."""
    if not (isinstance(c, types.Array) and c.dtype == types.int8 and c.layout == "C"):
        return lambda c, s, copies: suit_digits(c, s, copies)

    def by_word(c, s, copies):
        if copies != 2:
            return suit_digits(c, s, copies)
        at = min(6 * s, N_KINDS - 8)  # the word holding the suit, inside the vector
        x = load_word(c, at) >> np.uint64(8 * (6 * s - at))
        lanes = (x & _LANES) * np.uint64(3) + ((x >> _S8) & _LANES)
        return np.int64(((lanes * _BASE3) >> _S32) & _LOW16)
    return by_word


@ijit
def hand_meld_all_trumps(c, tb, out):
    """Main body of :func:`meld_table`: meld of count vector ``c`` for trumps S, H, D, C into
    ``out``. Every meld is a lookup by each suit's configuration: its own melds in the variant's
    suit tables (as a plain suit, and what being trump adds), the melds across suits in
    ``tb.cross_meld`` by the copies the four suits allow together (``melds.cross_tables``)."""
    table = tb.suit_meld
    copies = tb.meld_values.shape[1] - 1  # a suit's configuration: six digits base copies + 1
    # The four suits are read before ``out`` is written: the compiler cannot tell the two arrays
    # apart, so it could not move a read of the hand above a write.
    k0, k1, k2, k3 = (suit_code(c, 0, copies), suit_code(c, 1, copies), suit_code(c, 2, copies),
                      suit_code(c, 3, copies))
    base = _plain_meld(k0, k1, k2, k3, tb)
    out[0] = base + table[TRUMP_GAIN, k0]
    out[1] = base + table[TRUMP_GAIN, k1]
    out[2] = base + table[TRUMP_GAIN, k2]
    out[3] = base + table[TRUMP_GAIN, k3]


@ijit
def _plain_meld(k0, k1, k2, k3, tb):
    """The meld, whatever the trump, of a hand whose four suits' configurations are ``k0`` to
    ``k3`` (:func:`suit_code`): each suit's own melds as a plain suit and the melds across suits."""
    table = tb.suit_meld
    cross = tb.suit_cross[0, k0] & tb.suit_cross[1, k1] & tb.suit_cross[2, k2] & tb.suit_cross[3, k3]
    return (table[SCORE_PLAIN, k0] + table[SCORE_PLAIN, k1] + table[SCORE_PLAIN, k2] + table[SCORE_PLAIN, k3]
            + tb.cross_meld[cross])


@ijit
def meld_in_trump(k0, k1, k2, k3, trump, tb):
    """The meld in ``trump`` of a hand whose four suits' configurations are ``k0`` to ``k3``
    (:func:`suit_code`): one entry of :func:`hand_meld_all_trumps`."""
    return _plain_meld(k0, k1, k2, k3, tb) + tb.suit_meld[TRUMP_GAIN, (k0, k1, k2, k3)[trump]]


@ijit
def counts_for(role, suit, t):
    """Whether a meld instance of ``role`` in ``suit`` counts with trump ``t``."""
    return role == ANY_TRUMP or (role == AS_TRUMP) == (suit == t)


@njit
def value_of(c, j, tb):
    """What meld instance ``j`` of variant ``tb`` scores in hand ``c`` (``melds.instance_value``)."""
    return instance_value(c, j, tb.melds, tb.meld_values, tb.run_mode, tb.extra_kq)


#: The rows of the melds across suits in every variant's ``Tables.melds`` (``melds.instance_table``),
#: in the order of ``Tables.suit_cross``' bits: :func:`meld_used` reads them without scanning the table.
_ACROSS = across_rows(instance_table())


@ijit
def meld_used(c, trump, tb, out):
    """Count vector (into ``out``) of the cards of ``c`` that take part in a scoring meld.

    A card may serve several kinds of meld, so usage is the largest count any one kind needs,
    except in the trump K and Q, where an extra royal marriage (run_marriage=included) or extra
    K/Q (extra_card) uses copies beyond the run's (``melds.instance_use``). Read as the meld is:
    a suit's own melds' cards from the variant's suit table by the suit's configuration, and the
    copies held of each meld across suits (the pinochle, the arounds) from the suits' words of
    ``tb.suit_cross`` (``melds.cross_tables``); an instance loop reading the cards one by one
    took three times as long.
    """
    mv, inst, table = tb.meld_values, tb.melds, tb.suit_meld
    held = mv.shape[1] - 1
    cross = -1
    for s in range(4):
        code = suit_code(c, s, held)
        cross &= tb.suit_cross[s, code]
        word = table[USED_TRUMP if s == trump else USED_PLAIN, code]
        for r in range(6):
            out[6 * s + r] = (word >> (USED_BITS * r)) & ((1 << USED_BITS) - 1)
    m = _ACROSS.shape[0]
    for free in range(m):  # the meld's place among those across suits: its bits in ``cross``
        j = _ACROSS[free]
        n = 0
        for level in range(held):
            n += (cross >> (level * m + free)) & 1
        if mv[inst[j, I_COMBO], n] == 0:
            n = 0
        for q in range(I_KINDS, inst.shape[1]):
            k = inst[j, q]
            if k < 0:
                break
            out[k] = max(out[k], n)


@njit
def _meld_table(hands, lo, hi, tb, out):
    for i in range(lo, hi):
        hand_meld_all_trumps(hands[i], tb, out[i])


def meld_table(hands: np.ndarray, v: Variant | str = "thousand") -> np.ndarray:
    """Meld of many hands in every trump.

    Parameters
    ----------
    hands : int8[..., 24] count vectors (up to the variant's copies of a card).
    v : variant or its spec.

    Returns
    -------
    int32[..., 4]: meld with trump spades, hearts, diamonds, clubs.

    >>> meld_table(hand_counts("AS TS KS QS JS 9D 9D 9C 9C 9H 9H JH")).tolist()
    [190, 20, 20, 20]
    """
    v = variant(v) if isinstance(v, str) else v
    tb = compile_variant(v)
    h = np.asarray(hands)
    if h.ndim < 1 or h.shape[-1] != N_KINDS or (h.size and not 0 <= h.min() <= h.max() <= v.copies):
        raise ValueError(f"meld_table reads count vectors: {N_KINDS} kinds a hand, 0 to {v.copies} copies of each")
    h = np.ascontiguousarray(h, dtype=np.int8)
    flat = h.reshape(-1, N_KINDS)
    out = np.empty((flat.shape[0], 4), np.int32)
    in_spans(flat.shape[0], lambda lo, hi: _meld_table(flat, lo, hi, tb, out), BLOCK)
    return out.reshape(h.shape[:-1] + (4,))


# --------------------------------------------------------------------------------------------
# The readable breakdown ("gather my meld"), and seed 000's refusal of cards that make no meld.

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
    c = hand_counts(hand, deck=v.deck_counts).astype(int)
    t = parse_suit(trump)
    items: list[MeldItem] = []

    def add(name: str, points: int, cards: tuple[str, ...]) -> None:
        if points:
            items.append(MeldItem(name, cards, int(points)))

    tb = compile_variant(v)
    c8 = c.astype(np.int8)
    for j, inst in enumerate(meld_instances()):
        if not counts_for.py_func(inst.role, inst.suit, t):
            continue
        combo = MELDS[inst.combo]
        n = copies.py_func(c8, tb.melds[j, I_KINDS:])
        name = combo.named(n)
        shown = [(k, n) for k in inst.kinds]
        if inst.combo == ROYAL and v.run_marriage != "separate":
            runs = copies.py_func(c8, tb.melds[tb.melds[j, I_RUN], I_KINDS:])
            if v.run_marriage == "included":
                shown = [(k, n - runs) for k in inst.kinds]
            elif runs:  # extra_card: the trump K and Q beyond the run's
                name = "extra_king_queen"
                shown = [(k, c[k] - runs) for k in inst.kinds]
        add(name, value_of.py_func(c8, j, tb), _cards(*shown))
    used = np.zeros(N_KINDS, np.int8)
    # the kernel's Python body: one hand does not need compiled code (nor numba's start-up)
    meld_used.py_func(c8, t, tb, used)
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
    v = variant(v) if isinstance(v, str) else v
    laid = hand_counts(laid_down, deck=v.deck_counts)
    held = hand_counts(hand, deck=v.deck_counts)
    over = np.flatnonzero(laid > held)
    if over.size:
        raise CardError(f"{card_name(int(over[0]))} is laid down but not in the hand")
    refused = laid - np.array(meld(laid, trump, v).used, np.int8)
    return [card_name(k) for k in range(N_KINDS) for _ in range(int(refused[k]))]
