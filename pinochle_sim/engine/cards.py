"""Card identities and the text notation of RULES.md.

A card *kind* is one of 24 integers ``suit * 6 + rank`` with suits ``S H D C`` (0..3) and ranks
``A T K Q J 9`` (0..5, lower is higher). A hand is an ``int8[24]`` count vector; hands print sorted
by suit, then rank. The 48-card deck holds two copies of every kind (``COPIES``); a variant's deck
is data (``Variant.deck``: copies of each rank), up to ``MAX_COPIES`` (double-deck: four copies of
A, 10, K, Q, J and no 9s).
"""
from __future__ import annotations

import operator
import re
from collections.abc import Iterable

import numpy as np

SUITS = "SHDC"
RANKS = "ATKQJ9"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
N_KINDS = 24
COPIES = 2
DECK_SIZE = N_KINDS * COPIES
MAX_COPIES = 4
#: The 48-card deck as ``Variant.deck`` writes a deck: the copies of A T K Q J 9 in each suit.
DECK48 = (COPIES,) * 6
_NTH = ("", "second", "third", "fourth", "fifth")
_HOW_MANY = ("no", "one", "two", "three", "four")
A, T, K, Q, J, NINE = range(6)


def deck_copies(ranks: tuple[int, ...]) -> int:
    """The most copies of a card in the deck ``ranks`` (copies of A T K Q J 9 in each suit)."""
    return max(ranks)


def deck_cards(ranks: tuple[int, ...]) -> int:
    """The cards in the deck ``ranks``: 48, or 80 in double-deck."""
    return 4 * sum(ranks)


def kind_counts(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The deck ``ranks`` as a count vector over the 24 kinds (:func:`hand_counts`' ``deck``)."""
    return tuple(ranks[k % 6] for k in range(N_KINDS))


#: The 48 cards as a count vector: two copies of every kind.
FULL_DECK = kind_counts(DECK48)


def deck_kinds(ranks: tuple[int, ...]) -> np.ndarray:
    """The deck ``ranks`` card by card as kinds, in kind order (int8[deck size]), for
    ``deal.deal_kinds``; empty for the 48 cards, which ``deal.deal_one`` deals a word at a time."""
    if tuple(ranks) == DECK48:
        return np.zeros(0, np.int8)
    return np.repeat(np.arange(N_KINDS, dtype=np.int8), kind_counts(ranks))


class CardError(ValueError):
    """Bad card input: the message names the offending card and is shown as one line."""


def kind(suit: int, rank: int) -> int:
    """Kind index of a (suit, rank) pair."""
    return suit * 6 + rank


def card_name(k: int) -> str:
    """Text of kind ``k``, e.g. ``card_name(0) == 'AS'``."""
    return RANKS[k % 6] + SUITS[k // 6]


def parse_suit(text: str | int) -> int:
    """Suit index of ``'S'``, ``'h'``, ``'♦'``, ``'clubs'``... or of an index 0-3 (an integer);
    CardError otherwise."""
    if not isinstance(text, str):
        try:
            index = operator.index(text)
        except TypeError:
            index = -1
        if not 0 <= index < len(SUITS):
            raise CardError(f"unknown suit {text!r}: use one of S H D C (or ♠ ♥ ♦ ♣), or an index 0-3")
        return index
    t = text.strip().replace("\ufe0f", "")
    key = SUIT_SYMBOLS.get(t, t[:1].upper() if t.lower() in ("s", "h", "d", "c") or
                           t.lower() in SUIT_NAMES else "?")
    if key not in SUITS:
        raise CardError(f"unknown suit {text!r}: use one of S H D C (or ♠ ♥ ♦ ♣)")
    return SUITS.index(key)


def parse_card(text: str) -> int:
    """Kind index of one card: rank ``A T K Q J 9`` (or ``10``) then suit ``S H D C`` / symbol."""
    t = text.strip().replace("\ufe0f", "")
    for sym, letter in SUIT_SYMBOLS.items():
        t = t.replace(sym, letter)
    t = t.upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(f"unknown card {text!r}: a card is a rank A T K Q J 9 (or 10) "
                        "and a suit S H D C (or ♠ ♥ ♦ ♣), e.g. AS, 10H, Q♠")
    return SUITS.index(t[1]) * 6 + RANKS.index(t[0])


def split_cards(text: str) -> list[str]:
    """Split a hand's text on white space and commas."""
    return [tok for tok in re.split(r"[\s,;]+", text.strip()) if tok]


def parse_cards(cards: str | Iterable[str | int]) -> list[int]:
    """Kind indices of a hand given as text (``"AS TS 9D"``) or a list of names or kinds."""
    items = split_cards(cards) if isinstance(cards, str) else list(cards)
    out = []
    for c in items:
        if isinstance(c, (int, np.integer)):
            if not 0 <= int(c) < N_KINDS:
                raise CardError(f"unknown card kind {c!r}: kinds are 0..23")
            out.append(int(c))
        else:
            out.append(parse_card(str(c)))
    return out


def hand_counts(cards: str | Iterable[str | int] | np.ndarray, size: int | None = None,
                deck: Iterable[int] | None = None) -> np.ndarray:
    """Count vector ``int8[24]`` of a hand; checks copies against ``deck`` (copies of each kind,
    default two of each) and, if given, the size.

    A count vector passes through (checked). Raises CardError naming the bad card.

    >>> hand_counts("AS 10S K♠").tolist()[:3]
    [1, 1, 1]
    """
    limit = np.asarray(FULL_DECK if deck is None else tuple(deck), np.int64)
    if isinstance(cards, np.ndarray) and cards.shape == (N_KINDS,):
        counts = cards.astype(np.int8)
        bad = np.flatnonzero((counts < 0) | (counts > limit))
        if bad.size:
            raise CardError(f"impossible count {int(counts[bad[0]])} of {card_name(int(bad[0]))}")
    else:
        counts = np.zeros(N_KINDS, np.int8)
        for k in parse_cards(cards):
            counts[k] += 1
            if counts[k] > limit[k]:
                if not limit[k]:
                    raise CardError(f"{card_name(k)} is not in this deck (it has no {RANKS[k % 6]}s)")
                raise CardError(f"a {_NTH[counts[k] - 1]} copy of {card_name(k)}: the deck has only "
                                f"{_HOW_MANY[limit[k]]}")
    n = int(counts.sum())
    if size is not None and n != size:
        raise CardError(f"a hand has {size} cards, got {n}")
    return counts


def counts_to_kinds(counts: np.ndarray) -> np.ndarray:
    """The kinds of a count vector, sorted (one entry per copy)."""
    return np.repeat(np.arange(N_KINDS), np.asarray(counts, np.int64))


def format_hand(counts: np.ndarray) -> str:
    """Text of a count vector, sorted by suit then rank: ``'AS AS TS 9D'``."""
    return format_kinds(counts_to_kinds(counts))


def format_kinds(kinds: Iterable[int]) -> str:
    """Text of a list of kinds, in the order given."""
    return " ".join(card_name(int(k)) for k in kinds)
