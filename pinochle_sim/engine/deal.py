"""Dealing: explicit per-deal random state, so deal ``i`` depends only on ``(seed, i)``.

Each deal starts its own SplitMix64 stream from a hash of the seed and the deal index, and
shuffles the cards (48, or double-deck's 80) with an unbiased Fisher-Yates (Lemire's bounded
draw with rejection).
No kernel touches numba's global generator, so results do not depend on the thread count,
the batch size or the order in which deals are run. Seats (and the kitty) take consecutive
blocks of the shuffled deck, so a three-hand deal is the same code with other sizes.
"""
from __future__ import annotations

import numpy as np

from .._numba import bjit, copy_into, ijit, in_spans, njit, store_word
from .cards import COPIES, DECK_SIZE, N_KINDS, deck_kinds

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_MASK16 = np.uint64(0xFFFF)
_S16 = np.uint64(16)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@bjit
def mix64(z):
    """SplitMix64 finaliser: a bijective hash of a 64-bit word."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@bjit
def stream(seed, i, salt):
    """Starting state of the random stream of deal ``i`` (``salt`` separates uses of one deal)."""
    return mix64(mix64(np.uint64(seed) + _GOLDEN * np.uint64(salt + 1)) ^ np.uint64(i))


@bjit
def next64(state):
    """One SplitMix64 step: returns ``(new_state, output_word)``."""
    state += _GOLDEN
    return state, mix64(state)


@bjit
def below(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32``: returns ``(new_state, value)``.

    Lemire's multiply-shift on 32 random bits, with rejection, so the draw is exactly uniform.
    """
    nn = np.uint64(n)
    state, w = next64(state)
    m = (w & _MASK32) * nn
    if (m & _MASK32) < nn:
        floor = (np.uint64(0x100000000) - nn) % nn
        while (m & _MASK32) < floor:
            state, w = next64(state)
            m = (w & _MASK32) * nn
    return state, np.int64(m >> _S32)


@ijit
def shuffle(state, a, stop=0):
    """Fisher-Yates shuffle of ``a`` (at most 2**16 long) in place; returns the new state.

    Positions ``stop+1 ..`` end up a uniform random draw in uniform random order; with
    ``stop=0`` the whole array is a uniform permutation. Dealing stops at ``hand - 1``: the first
    hand is the cards left over, whose order does not matter. Each 64-bit word serves four draws
    (16-bit quarters, multiply-shift); a quarter in the biased zone is rejected and redrawn, so
    every outcome is exactly equally likely.
    """
    i = a.shape[0] - 1
    while i > stop:
        state, w = next64(state)
        for _ in range(4):
            if i == stop:
                break
            nn = np.uint64(i + 1)
            m = (w & _MASK16) * nn
            w >>= _S16
            if (m & _MASK16) < nn:
                floor = (np.uint64(0x10000) - nn) % nn
                while (m & _MASK16) < floor:
                    state, w2 = next64(state)
                    m = (w2 & _MASK16) * nn
            j = np.int64(m >> _S16)
            a[i], a[j] = a[j], a[i]
            i -= 1
    return state


_B8 = np.uint64(0x0101010101010101)
_DIAG = np.uint64(0x8040201008040201)
_S7F = np.uint64(0x7F7F7F7F7F7F7F7F)
_H80 = np.uint64(0x8080808080808080)
_BYTE = np.uint64(0xFF)
_S7 = np.uint64(7)
_WORDS = N_KINDS // 8  # a count vector (int8[24]) is three 64-bit words


@ijit
def _spread(x):
    """The 8 bits of ``x`` as 8 bytes of 0 or 1 (bit ``b`` to byte ``b``), in one word."""
    y = (x * _B8) & _DIAG
    return (((y + _S7F) | y) & _H80) >> _S7


@ijit
def _put(counts, row, h):
    """Count vector ``counts[row]`` from the mask of card ids ``h`` (:func:`card_id`), a word
    (eight kinds) at a time."""
    for q in range(_WORDS):
        w = np.uint64(0)
        for c in range(COPIES):
            w += _spread((h >> np.uint64(N_KINDS * c + 8 * q)) & _BYTE)
        store_word(counts, N_KINDS * row + 8 * q, w)


@ijit
def card_id(kind, copy):
    """A physical card as a number below 48: copy ``copy`` of ``kind`` is ``kind + 24 copy``, so
    that a hand is one mask of ids (``N_KINDS * COPIES`` bits, at most 64)."""
    return kind + N_KINDS * copy


@ijit
def _block(cards, b, seats, hand):
    """The mask of card ids of block ``b`` of ``cards`` as :func:`_share` hands them out: ``hand``
    cards each for blocks below ``seats``, the rest for block ``seats`` (the kitty), none after."""
    n = cards.shape[0]
    lo = min(hand * b, n)
    hi = n if b == seats else (min(lo + hand, n) if b < seats else lo)
    h = np.uint64(0)
    for m in range(lo, hi):
        h |= np.uint64(1) << np.uint64(cards[m])
    return h


@ijit
def _share(cards, counts, players, hand, skip):
    """Hand out ``cards`` (card ids) in order: ``hand`` each to seats ``0 .. players-1`` but
    ``skip``, the rest to the kitty row ``counts[players]`` (if ``counts`` has one). Each hand is
    gathered as a mask of ids and written as its count vector a word at a time (a count added
    card by card waits on the one before it). Every mask is gathered before any count is written:
    the compiler cannot tell ``counts`` from ``cards``, so it could not move a gather above a
    write (CHANGELOG, 2026-12-05). At most five blocks: four seats and a kitty."""
    seats = players - (1 if 0 <= skip < players else 0)
    b0 = _block(cards, 0, seats, hand)
    b1 = _block(cards, 1, seats, hand)
    b2 = _block(cards, 2, seats, hand)
    b3 = _block(cards, 3, seats, hand)
    b4 = _block(cards, 4, seats, hand)
    j = 0
    for p in range(counts.shape[0]):
        if p == skip:
            continue
        _put(counts, p, (b0, b1, b2, b3, b4)[j])
        j += 1


@ijit
def deal_one(seed, i, deck, counts, players=4, hand=12):
    """Main body of :func:`deal`: deal ``i`` into ``counts`` (int8[players (+1 for a kitty), 24]);
    ``deck`` (int8[48]) is scratch.

    Seat ``p`` receives deck positions ``hand*p .. hand*p + hand-1`` of the shuffled deck and the
    kitty the positions after the last seat's. The deck starts in kind order, each kind's copies
    together.
    """
    for k in range(DECK_SIZE):
        deck[k] = card_id(k // COPIES, k % COPIES)
    shuffle(stream(seed, i, 0), deck, hand - 1)
    _share(deck, counts, players, hand, -1)


@njit
def deal_around(seed, i, seat, fixed, deck, counts, players=4, hand=12):
    """Deal ``i`` with ``seat`` holding the cards ``fixed`` (int8[24]): the other cards are
    shuffled among the other seats (in seat order, ``hand`` each) and the kitty row, if
    ``counts`` has one, into ``counts``.

    The draw is uniform over every way to deal the rest, and a function of ``(seed, i)`` only.
    """
    k = 0
    for kind in range(N_KINDS):
        for c in range(COPIES - fixed[kind]):
            deck[k] = card_id(kind, c)
            k += 1
    rest = deck[:k]
    shuffle(stream(seed, i, 0), rest, hand - 1)
    _share(rest, counts, players, hand, seat)
    copy_into(counts[seat], fixed)


@njit
def deal_kinds(seed, i, kinds, deck, counts, players, hand):
    """Deal ``i`` of any deck: ``kinds`` (int8[deck size]) lists the deck's cards by kind, in
    kind order, each kind's copies together; ``deck`` (the same size) is scratch
    (:func:`deal_ordered`)."""
    copy_into(deck, kinds)
    deal_ordered(seed, i, deck, counts, hand)


@bjit
def order_deck(copies, absent, deck):
    """The deck of ``copies`` of every kind but those of the mask ``absent``, by kind in kind order,
    into ``deck`` (int8[deck size]): ``cards.deck_kinds`` from a variant's rules."""
    _deck_but(copies, absent, None, deck)


@ijit
def _deck_but(copies, absent, held, deck):
    """:func:`order_deck` without the cards of count vector ``held`` (None: none); returns how
    many cards it wrote."""
    m = 0
    for k in range(N_KINDS):
        if not (absent >> k) & 1:
            for _ in range(copies - (0 if held is None else held[k])):
                deck[m] = k
                m += 1
    return m


@bjit
def deal_ordered(seed, i, deck, counts, hand):
    """Deal ``i`` of the cards ``deck`` (kinds, in kind order; shuffled in place): seats take
    consecutive blocks of ``hand`` cards of the shuffled deck as in :func:`deal_one` (the kitty the
    rest), counted card by card into ``counts``. The 48-card deck goes through :func:`deal_one`, a
    word at a time; this is the path of a deck with more copies (double-deck's 80 cards)."""
    shuffle(stream(seed, i, 0), deck, hand - 1)
    for r in range(counts.shape[0]):
        for k in range(N_KINDS):
            counts[r, k] = 0
    for m in range(deck.shape[0]):
        counts[min(m // hand, counts.shape[0] - 1), deck[m]] += 1


@njit
def deal_kinds_around(seed, i, seat, fixed, copies, absent, deck, counts, hand):
    """:func:`deal_around` for a deck of ``copies`` of every kind but those of the mask ``absent``
    (``deck``: int8[deck size], scratch): the deck's cards but ``fixed``, in kind order, shuffled
    among the other seats and the kitty row, counted card by card."""
    k = _deck_but(copies, absent, fixed, deck)
    rest = deck[:k]
    shuffle(stream(seed, i, 0), rest, hand - 1)
    for r in range(counts.shape[0]):
        for c in range(N_KINDS):
            counts[r, c] = 0 if r != seat else fixed[c]
    for m in range(k):
        p = m // hand
        p = p + 1 if p >= seat else p
        counts[min(p, counts.shape[0] - 1), rest[m]] += 1


#: The largest seed, and deal number: whole numbers from 0 to 2**63 - 1 (a kernel adds small
#: offsets to a seed for its own streams, within 64 bits).
MAX_SEED = 2 ** 63 - 1


def check_deals(deals: int, seed: int, start: int) -> None:
    """Refuse (``ValueError``) a run the kernels cannot deal: a count, seed or first deal below 0,
    or a seed or deal number past :data:`MAX_SEED` (past it numpy's conversion overflows)."""
    if deals < 0 or start < 0 or not 0 <= seed <= MAX_SEED or start + deals - 1 > MAX_SEED:
        raise ValueError(f"deals {start:,}..{start + deals - 1:,} of seed {seed:,}: deals, seed and start must be "
                         f">= 0, the seed and the last deal at most 2**63 - 1")


#: Deals per span of a loop over deals (``_numba.in_spans``): each span allocates its scratch once.
BLOCK = 4096


@ijit
def deal_any(seed, i, kinds, deck, scratch, counts, players, hand):
    """Deal ``i`` of a variant's deck into ``counts``: the 48 cards by :func:`deal_one` (``kinds``
    empty, ``deck`` int8[48] scratch), any other deck by :func:`deal_kinds` (``kinds``:
    :func:`cards.deck_kinds`, ``scratch`` as long)."""
    if kinds.shape[0]:
        deal_kinds(seed, i, kinds, scratch, counts, players, hand)
    else:
        deal_one(seed, i, deck, counts, players, hand)


@njit
def _deal(seed, start, lo, hi, kinds, players, hand, out):
    deck = np.empty(DECK_SIZE, np.int8)
    scratch = np.empty_like(kinds)
    for d in range(lo, hi):
        deal_any(seed, start + d, kinds, deck, scratch, out[d], players, hand)


def deal(n: int, seed: int = 0, start: int = 0, v="thousand") -> np.ndarray:
    """Deals ``start .. start+n-1`` of a run of variant ``v``: ``int8[n, seats, 24]`` count
    vectors, seat by seat, the kitty (if the variant has one) as a last row.

    The same ``(seed, i)`` is the same deal whatever ``n``, ``start`` or the thread count.

    >>> d = deal(3, seed=1)
    >>> d.shape, int(d[0].sum()), bool((d[1:] == deal(2, seed=1, start=1)).all())
    ((3, 4, 24), 48, True)
    >>> deal(1, seed=1, v="three-hand")[0].sum(axis=1).tolist()
    [15, 15, 15, 3]
    >>> deal(1, seed=1, v="double-deck")[0].sum(axis=1).tolist()
    [20, 20, 20, 20]
    """
    from .variants import variant
    v = variant(v) if isinstance(v, str) else v
    check_deals(n, seed, start)
    out = np.empty((n, v.players + (v.kitty > 0), N_KINDS), np.int8)
    kinds = deck_kinds(v.deck)
    in_spans(n, lambda lo, hi: _deal(np.uint64(seed), np.int64(start), lo, hi, kinds, v.players, v.hand_size, out),
             BLOCK)
    return out
