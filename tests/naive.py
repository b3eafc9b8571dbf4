"""Slow, obviously-correct twins of the kernels, written from RULES.md without the package's code."""
from __future__ import annotations

import math
from itertools import product

SUITS = "SHDC"
RANKS = "ATKQJ9"
M64 = (1 << 64) - 1


def names(counts) -> list[str]:
    return [RANKS[k % 6] + SUITS[k // 6] for k in range(24) for _ in range(int(counts[k]))]


def naive_meld(counts, trump: int, v) -> int:
    """Meld by listing the cards by name and checking each combination of RULES.md in turn."""
    held = names(counts)

    def n(card: str) -> int:
        return held.count(card)

    def copies(cards: list[str]) -> int:  # complete copies of a combination (0, 1 or 2)
        return min(n(c) for c in cards)

    def value(pair: tuple[int, int], k: int) -> int:
        return 0 if k == 0 else pair[k - 1]

    t = SUITS[trump]
    total = 0
    runs = copies([r + t for r in "ATKQJ"])
    total += value(v.run, runs)
    royal = copies(["K" + t, "Q" + t])
    if v.run_marriage == "separate":
        total += value(v.royal_marriage, royal)
    elif v.run_marriage == "included":
        total += value(v.royal_marriage, royal - runs)
    elif runs:
        total += v.extra_king_queen * ((n("K" + t) - runs) + (n("Q" + t) - runs))
    else:
        total += value(v.royal_marriage, royal)
    for s in SUITS:
        if s != t:
            total += value(v.marriage, copies(["K" + s, "Q" + s]))
    total += value(v.pinochle, copies(["QS", "JD"]))
    for rank, pair in (("A", v.aces_around), ("K", v.kings_around), ("Q", v.queens_around),
                       ("J", v.jacks_around)):
        total += value(pair, copies([rank + s for s in SUITS]))
    nines = n("9" + t)
    total += value(v.nine_of_trump, nines)
    return total


# The dealing RNG, in Python integers: SplitMix64 streams and a 16-bit-quarter Fisher-Yates.
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def naive_deal(seed: int, i: int) -> list[list[int]]:
    """Deal ``i`` of a run, as the kinds each seat holds (sorted)."""
    state = mix64(mix64((seed + GOLDEN * 1) & M64) ^ i)
    deck = [k // 2 for k in range(48)]

    def word() -> int:
        nonlocal state
        state = (state + GOLDEN) & M64
        return mix64(state)

    pos = 47
    while pos > 11:
        w = word()
        for _ in range(4):
            if pos == 11:
                break
            n = pos + 1
            m = (w & 0xFFFF) * n
            w >>= 16
            if (m & 0xFFFF) < n:
                floor = (0x10000 - n) % n
                while (m & 0xFFFF) < floor:
                    m = (word() & 0xFFFF) * n
            j = m >> 16
            deck[pos], deck[j] = deck[j], deck[pos]
            pos -= 1
    return [sorted(deck[12 * p: 12 * p + 12]) for p in range(4)]


def p_every_suit_has(rank_min: int) -> float:
    """P(one hand holds at least ``rank_min`` of one rank in every suit), by inclusion-exclusion
    over the suits that fall short (rank_min 1: no copy; 2: at most one)."""
    total = math.comb(48, 12)
    good = 0
    for short in product((0, 1), repeat=4):
        k = sum(short)
        if rank_min == 1:
            ways = math.comb(48 - 2 * k, 12)
        else:  # each short suit holds 0 or 1 copy of the two: 1 + 2x per such suit
            ways = sum(math.comb(k, j) * 2 ** j * math.comb(48 - 2 * k, 12 - j) for j in range(k + 1))
        good += (-1) ** k * ways
    return good / total
