"""Meld rules as data: every meld of RULES.md declared once, expanded suit by suit into
*instances*, and the arithmetic of one instance.

A meld is its cards as rank + suit, the suit being ``t`` (the trump), ``o`` (any other suit: one
meld per suit), ``*`` (every suit: one card of the rank in each) or a suit letter; its values for
one, two (three, four) copies are the variant option of the same name. A hand holds as many copies of a
meld as the fewest it holds of any of its cards (of its one card: nines of trump count each).
The one rule between melds, how a run and its trump K+Q count together, is the variant's
``run_marriage`` mode (:func:`instance_value`).

``variants.compile_variant`` turns this into a variant's tables: the instances as arrays, and
for speed what one suit's cards score as trump and as a plain suit (:func:`suit_tables`); the
meld kernel, the cards a meld uses (passing, discarding), the breakdown and the exact odds all
read those tables. The copies of a card are the variant's (two, or four in double-deck).
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._numba import ijit, njit
from .cards import RANKS, SUITS


@dataclass(frozen=True)
class Combination:
    """One kind of meld: the option holding its single/double values, and its cards."""

    name: str
    cards: tuple[str, ...]
    double: str = ""  # the breakdown's name for two copies ("": the same name)

    def named(self, n: int) -> str:
        """The breakdown's name for ``n`` copies: ``run``, ``double_run``, ``triple_run``..."""
        if n < 2 or not self.double:
            return self.name
        return self.double.replace("double", TIMES[n], 1)


#: The word for a meld held ``n`` times (two copies of each card and more).
TIMES = {2: "double", 3: "triple", 4: "quadruple"}


MELDS = (
    Combination("run", ("At", "Tt", "Kt", "Qt", "Jt"), "double_run"),
    Combination("royal_marriage", ("Kt", "Qt")),
    Combination("marriage", ("Ko", "Qo")),
    Combination("pinochle", ("QS", "JD"), "double_pinochle"),
    Combination("aces_around", ("A*",), "double_aces"),
    Combination("kings_around", ("K*",), "double_kings"),
    Combination("queens_around", ("Q*",), "double_queens"),
    Combination("jacks_around", ("J*",), "double_jacks"),
    Combination("nine_of_trump", ("9t",)),
)
#: The order of ``MELDS``: the row order of a variant's ``meld_values``.
COMBOS = tuple(m.name for m in MELDS)
RUN, ROYAL, MARRIAGE, PINOCHLE, ACES, KINGS, QUEENS, JACKS, DIX = range(len(COMBOS))
#: How a run and its trump K+Q count together (the variant's ``run_marriage``).
RUN_MARRIAGE = ("separate", "included", "extra_card")
SEPARATE, INCLUDED, EXTRA_CARD = range(len(RUN_MARRIAGE))
#: How an instance counts for a trump: whatever the trump, when its suit is trump, or when its
#: suit is not trump.
ANY_TRUMP, AS_TRUMP, AS_OTHER = range(3)


@functools.cache
def suit_configs(copies: int) -> np.ndarray:
    """Every way one suit can lie in a hand: counts of A T K Q J 9 (0..copies each), in the
    order of ``meld.suit_code`` (digits base ``copies + 1``, ace first)."""
    out = np.array(list(itertools.product(range(copies + 1), repeat=6)), np.int64)
    out.flags.writeable = False
    return out

#: Columns of the compiled instance table (:func:`instance_table`): the meld's row of
#: ``meld_values``, its suit (-1: none), its role, for a royal marriage the run of its suit, then
#: its cards (-1: none).
I_COMBO, I_SUIT, I_ROLE, I_RUN, I_KINDS = range(5)


class MeldInstance(NamedTuple):
    """One meld in one suit (or across suits): its row in ``MELDS``, its cards (kinds), the suit
    it depends on (-1: none) and how it counts for a trump (``ANY_TRUMP``...)."""

    combo: int
    kinds: tuple[int, ...]
    suit: int
    role: int


@functools.cache
def meld_instances() -> tuple[MeldInstance, ...]:
    """``MELDS`` expanded: a ``t`` or ``o`` meld once per suit, a ``*`` meld with one card of its
    rank in each suit, a meld of named cards once."""
    out = []
    for i, m in enumerate(MELDS):
        suits = {c[1] for c in m.cards}
        if suits & {"t", "o"}:
            role = AS_TRUMP if "t" in suits else AS_OTHER
            for s in range(4):
                out.append(MeldInstance(i, tuple(RANKS.index(c[0]) + 6 * (s if c[1] in "to" else
                                                 SUITS.index(c[1])) for c in m.cards), s, role))
        else:
            kinds = tuple(RANKS.index(c[0]) + 6 * s for c in m.cards
                          for s in (range(4) if c[1] == "*" else [SUITS.index(c[1])]))
            out.append(MeldInstance(i, kinds, -1, ANY_TRUMP))
    return tuple(out)


@ijit
def copies(c, kinds):
    """Complete copies of a meld with cards ``kinds`` (-1 ends the list) in count vector ``c``."""
    n = 127
    for k in kinds:
        if k < 0:
            break
        if c[k] < n:
            n = c[k]
    return n


def instance_table() -> np.ndarray:
    """int64[instances, I_KINDS + 5]: :func:`meld_instances` as the kernels read them."""
    inst = meld_instances()
    run_of = {m.suit: j for j, m in enumerate(inst) if m.combo == RUN}
    out = np.full((len(inst), I_KINDS + max(len(m.kinds) for m in inst)), -1, np.int64)
    for j, m in enumerate(inst):
        out[j, :I_KINDS] = m.combo, m.suit, m.role, run_of[m.suit] if m.combo == ROYAL else -1
        out[j, I_KINDS:I_KINDS + len(m.kinds)] = m.kinds
    return out


@njit
def instance_value(c, j, inst, mv, run_mode, extra_kq):
    """What meld instance ``j`` (a row of :func:`instance_table`) scores in hand ``c``: its value
    for the copies held, except that a royal marriage counts with its suit's run as the
    run-and-marriage mode says: ``separate``, on its own; ``included``, only K+Q beyond the
    runs; ``extra_card``, with a run, ``extra_kq`` per trump K or Q beyond the run's."""
    combo = inst[j, I_COMBO]
    n = copies(c, inst[j, I_KINDS:])
    if combo != ROYAL or run_mode == SEPARATE:
        return mv[combo, n]
    runs = copies(c, inst[inst[j, I_RUN], I_KINDS:])
    if run_mode == INCLUDED:
        return mv[ROYAL, n - runs]
    if runs > 0:  # extra_card: its cards are the trump K and Q
        return extra_kq * (c[inst[j, I_KINDS]] + c[inst[j, I_KINDS + 1]] - 2 * runs)
    return mv[ROYAL, n]


@ijit
def instance_use(c, j, inst, mv, run_mode, extra_kq, out):
    """Raise ``out[k]`` (a count vector) to the copies of each card ``k`` of meld instance ``j``
    that its scoring uses in hand ``c``: the copies of the meld held when they score, none when
    they do not; a royal marriage with its suit's run as the run-and-marriage mode says
    (``extra_card``: every trump K and Q, when a run is held and the extra K or Q scores)."""
    combo = inst[j, I_COMBO]
    kinds = inst[j, I_KINDS:]
    n = copies(c, kinds)
    if combo == ROYAL and run_mode != SEPARATE:
        runs = copies(c, inst[inst[j, I_RUN], I_KINDS:])
        if mv[RUN, runs] == 0:
            runs = 0
        if run_mode == EXTRA_CARD and runs > 0:
            if extra_kq > 0:  # every trump K and Q counts
                out[kinds[0]] = max(out[kinds[0]], c[kinds[0]])
                out[kinds[1]] = max(out[kinds[1]], c[kinds[1]])
            return
        if run_mode == INCLUDED and mv[ROYAL, n - runs] == 0:
            n = 0
        elif run_mode == EXTRA_CARD and mv[ROYAL, n] == 0:
            n = 0
    elif mv[combo, n] == 0:
        n = 0
    for k in kinds:
        if k < 0:
            break
        out[k] = max(out[k], n)


#: Rows of a variant's suit table (``Tables.suit_meld``): what a suit's own melds score as trump
#: and as a plain suit, then the copies of its six cards (A..9) those melds use, as trump and as
#: plain, packed in one word: :data:`USED_BITS` bits a card, the ace lowest; last, what being
#: trump adds (the first row less the second: ``meld.hand_meld_all_trumps`` reads one row, not two).
SCORE_TRUMP, SCORE_PLAIN, USED_TRUMP, USED_PLAIN, TRUMP_GAIN = range(5)
SUIT_ROWS = 5
USED_BITS = 3


@njit
def suit_tables(inst, mv, run_mode, extra_kq, configs, out):
    """For every config of ``configs`` (:func:`suit_configs`), into ``out`` (int32[SUIT_ROWS,
    configs]): what the suit's own melds score when it is trump and when it is not, and the
    copies of each of its cards those melds use (packed, for ``meld.meld_used``), every suit
    alike (scored as spades)."""
    c = np.zeros(24, np.int8)
    used = np.zeros(24, np.int8)
    for code in range(configs.shape[0]):
        for r in range(6):
            c[r] = configs[code, r]
        out[:, code] = 0
        for role, score, use in ((AS_TRUMP, SCORE_TRUMP, USED_TRUMP), (AS_OTHER, SCORE_PLAIN, USED_PLAIN)):
            used[:] = 0
            for j in range(inst.shape[0]):
                if inst[j, I_SUIT] == 0 and inst[j, I_ROLE] == role:
                    out[score, code] += instance_value(c, j, inst, mv, run_mode, extra_kq)
                    instance_use(c, j, inst, mv, run_mode, extra_kq, used)
            for r in range(6):
                out[use, code] |= np.int32(used[r]) << (USED_BITS * r)
        out[TRUMP_GAIN, code] = out[SCORE_TRUMP, code] - out[SCORE_PLAIN, code]


def across_rows(inst: np.ndarray) -> np.ndarray:
    """The rows of the instance table ``inst`` (:func:`instance_table`) of the melds that count
    whatever the trump, in order: meld ``i`` of them owns bits ``(l - 1) * m + i`` of
    :func:`cross_tables`' words."""
    return np.flatnonzero(inst[:, I_ROLE] == ANY_TRUMP).astype(np.int64)


def cross_tables(inst: np.ndarray, mv: np.ndarray, configs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The melds that count whatever the trump (``ANY_TRUMP``: the pinochle, the arounds) as
    lookups, from the instance table ``inst``, the values ``mv`` (a column per copies held, up
    to ``copies``) and the suit configurations: ``(suit_cross, cross_meld)``.

    ``suit_cross[s, code]`` (int32[4, suit configs]) packs, for suit ``s`` holding config ``code``,
    a bit per such meld ``i`` (of ``m``) and per level ``l = 1 .. copies``, bit
    ``(l - 1) * m + i``: set when the suit holds at least ``l`` copies of each of the meld's cards
    in it (a meld with no card in the suit sets every level). The four suits' words AND-ed
    together have each meld's levels set up to the copies the hand holds, and index
    ``cross_meld`` (int32[2 ** (copies * m)]), their total value."""
    copies = mv.shape[1] - 1
    free = across_rows(inst)
    m = len(free)
    suit_cross = np.zeros((4, len(configs)), np.int64)
    words = np.arange(1 << (copies * m))
    cross_meld = np.zeros(len(words), np.int64)
    for i, j in enumerate(free):
        for s in range(4):
            n = np.full(len(configs), copies)
            for k in inst[j, I_KINDS:]:
                if k >= 0 and k // 6 == s:
                    n = np.minimum(n, configs[:, k % 6])
            for level in range(1, copies + 1):
                suit_cross[s] |= (n >= level).astype(np.int64) << ((level - 1) * m + i)
        held = sum((words >> ((level - 1) * m + i)) & 1 for level in range(1, copies + 1))
        cross_meld += mv[inst[j, I_COMBO], held]
    return suit_cross.astype(np.int32), cross_meld.astype(np.int32)


def cross_suit() -> tuple[list[tuple[int, int]], tuple[int, tuple[int, int, int, int]]]:
    """The melds that count whatever the trump, as the exact odds track them: the arounds (row,
    rank) and one meld of two cards in two suits (row, (suit, rank, suit, rank), lower suit
    first)."""
    free = [m for m in meld_instances() if m.role == ANY_TRUMP]
    arounds = [(m.combo, m.kinds[0] % 6) for m in free if len({k // 6 for k in m.kinds}) == 4
               and len({k % 6 for k in m.kinds}) == 1]
    pairs = [m for m in free if len(m.kinds) == 2 and m.kinds[0] // 6 != m.kinds[1] // 6]
    if len(arounds) != 4 or len(pairs) != 1 or len(free) != 5:
        raise NotImplementedError("the exact meld odds count four arounds and one two-card meld "
                                  "across suits (the pinochle); MELDS declares others")
    a, b = sorted(pairs[0].kinds, key=lambda k: k // 6)
    return arounds, (pairs[0].combo, (a // 6, a % 6, b // 6, b % 6))
