import numpy as np
import pytest

from pinochle_sim.engine.cards import (CardError, card_name, format_hand, hand_counts, parse_card,
                                parse_suit)


@pytest.mark.parametrize("text,name", [("AS", "AS"), ("as", "AS"), ("10H", "TH"), ("th", "TH"),
                                       ("Q♠", "QS"), ("9♦", "9D"), ("K♣", "KC"), ("10♥", "TH"),
                                       ("J♦\ufe0f", "JD")])
def test_notation_in(text, name):
    # RULES.md: rank A T K Q J 9 (10 too) + suit S H D C (or symbols), any case
    assert card_name(parse_card(text)) == name


def test_hands_print_sorted_by_suit_then_rank():
    assert format_hand(hand_counts("9D AS 9S TS AH KC AS")) == "AS AS TS 9S AH 9D KC"


@pytest.mark.parametrize("text,message", [
    ("AS XS", "unknown card 'XS'"), ("AS 1S", "unknown card '1S'"), ("AS AZ", "unknown card 'AZ'"),
    ("AS AS A♠", "a third copy of AS")])
def test_bad_cards_name_the_card(text, message):
    with pytest.raises(CardError, match=message):
        hand_counts(text)


def test_wrong_hand_size():
    with pytest.raises(CardError, match="a hand has 12 cards, got 11"):
        hand_counts("AS TS KS QS JS 9S AH TH KH QH JH", size=12)


def test_count_vector_roundtrip(random_hands):
    for h in random_hands[:50]:
        assert (hand_counts(format_hand(h), size=12) == h).all()
    with pytest.raises(CardError, match="impossible count 3"):
        hand_counts(np.full(24, 3, np.int8))


def test_suits():
    assert [parse_suit(s) for s in ("S", "h", "♦", "clubs")] == [0, 1, 2, 3]
    with pytest.raises(CardError, match="unknown suit 'X'"):
        parse_suit("X")
    assert [parse_suit(i) for i in (0, 3, np.int64(2))] == [0, 3, 2]  # an index, as the library takes it
    for bad in (4, -1, 2.0, None):
        with pytest.raises(CardError, match="unknown suit"):
            parse_suit(bad)
