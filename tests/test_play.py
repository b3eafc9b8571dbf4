"""Trick play: each obligation of the seed texts as a hand-written case, and the kernel's legal
cards against the naive rule checker on random positions."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from naive import naive_follow, naive_lead, naive_legal, winning_card

import pinochle_sim as ps
from pinochle_sim.engine.cards import card_name
from pinochle_sim.engine.play import legal_plays
from pinochle_sim.engine.variants import PRESETS, R, compile_variant


@pytest.mark.parametrize("variant,hand,trick,trump,legal", [
    # seed 001: 'Every player must follow the lead suit if possible.'
    ("modern-15", "KH 9S QC", "AH", "S", ["KH"]),
    # seed 001: 'must play a winning card against those played so far, if it is possible'
    ("modern-15", "AH JH 9S", "TH", "S", ["AH"]),
    # seed 004: 'if the first player leads a 10 ... the second player must beat it with an A'
    ("classic-pass4", "AD 9D KS", "TD", "S", ["AD"]),
    # seed 004: 'If he cannot beat the 10, he must at least follow suit.'
    ("classic-pass4", "KD 9D KS", "TD", "S", ["KD", "9D"]),
    # seed 001/004: after a trump on a plain lead, followers play any card of the lead suit
    ("classic-pass4", "KD 9D KS", "TD QS", "S", ["KD", "9D"]),
    ("modern-15", "AH 9H", "KH 9S", "S", ["AH", "9H"]),
    # seed 004: 'If the third player has no [suit] and must trump, he must beat the trump'
    ("classic-pass4", "KS 9S AH", "TD QS", "S", ["KS"]),
    # seed 001: 'If another trump has already been played that a player cannot beat, ... any trump'
    ("modern-15", "QS 9S AH", "TD AS", "S", ["QS", "9S"]),
    # seed 002: 'These rules apply even when your partner is winning the trick.'
    ("modern", "AS 9S", "KS", "H", ["AS"]),
    # seed 002: 'This also applies when Trump is led.'
    ("modern", "AH 9H", "KH", "H", ["AH"]),
    # seed 002: 'If someone has played Trump, you must still follow the suit led when you can.'
    ("modern", "KH 9S", "AH QS", "S", ["KH"]),
    # seed 003: 'if a trump has already been played you must beat it if you can'
    ("classic", "KS 9S 9C", "AH QS", "S", ["KS"]),
    # seed 002: 'Play any card only when you have neither the suit led nor Trump.'
    ("modern", "9C 9D", "AH", "S", ["9D", "9C"]),
    # seed 000: follow suit, no duty to beat
    ("thousand", "AS 9S QH", "KS", "H", ["AS", "9S"]),
    # seed 000: 'you must trump in, even when it cannot win'
    ("thousand", "9S QC", "AH KS", "S", ["9S"]),
    # seed 000: no duty to overtrump
    ("thousand", "AS 9S", "AH KS", "S", ["AS", "9S"]),
    # seed 000: 'A table can switch that rule off'
    ("thousand:must_trump=false", "9S QC", "AH KS", "S", ["9S", "QC"]),
    # an identical card does not beat: with only the other AS, heading is impossible
    ("classic", "AS 9S", "AS", "H", ["AS", "9S"]),
    # seed 003's double-deck (RULES.md: four copies; of identical cards the first played wins):
    # three more aces of spades cannot head the one led, so any spade is legal
    ("double-deck", "AS AS AS KS QH", "AS", "H", ["AS", "KS"]),
    # 003: 'you must beat the highest card played so far if you can', whichever copy of it
    ("double-deck", "TH TH TH JH AS", "KH KH", "S", ["TH"]),
    # 003: void in the suit led, trump ('if a trump has already been played you must beat it if
    # you can': no queen or jack beats the king, so any trump)
    ("double-deck", "QS QS JS JS AC", "AD KS", "S", ["QS", "JS"]),
    ("double-deck", "AS QS QS JS AC", "AD KS", "S", ["AS"]),
])
def test_obligations_from_the_seeds(variant, hand, trick, trump, legal):
    assert legal_plays(hand, trick, trump, variant) == legal


@pytest.mark.parametrize("trick,trump,winner", [
    (["AS", "AS", "TS", "KS"], "H", 0),   # 'If two identical cards tie for highest, the one played first wins'
    (["TD", "QS", "AD", "KS"], "S", 3),   # 'The highest trump wins the trick'
    (["TD", "AH", "KD", "9C"], "S", 0),   # no trump: highest of the suit led
    (["9S", "9S", "TS", "9H"], "H", 3),
    (["AS", "AS", "AS", "AS"], "H", 0),   # double-deck (003): four identical cards, the first wins
    (["KD", "TS", "TS", "AD"], "S", 1),   # two identical trumps: the first wins
])
def test_trick_winner(trick, trump, winner):
    from pinochle_sim.engine.cards import parse_card
    from pinochle_sim.engine.play import beats
    kinds = [parse_card(c) for c in trick]
    w = 0
    for i in range(1, 4):
        if beats(kinds[i], kinds[w], "SHDC".index(trump)):
            w = i
    assert w == winner == winning_card(trick, trump)


positions = st.tuples(
    st.lists(st.integers(0, 79), min_size=1, max_size=20, unique=True),
    st.lists(st.integers(0, 79), min_size=0, max_size=3, unique=True),
    st.integers(0, 3), st.sampled_from(list(PRESETS)), st.booleans())


@given(positions)
def test_legal_cards_match_naive_checker(pos):
    """Cards of the variant's own deck (physical cards numbered in kind order: 48, or
    double-deck's 80), and at most a card fewer on the trick than the table has seats (a full
    trick is refused, ``test_bad_input``)."""
    hand_ids, trick_ids, trump, name, must_trump = pos
    v = ps.variant(name, must_trump=must_trump)
    deck = [k for k in range(24) for _ in range(v.deck_counts[k])]
    hand_ids = [c for c in hand_ids if c < len(deck)] or [0]
    trick_ids = [c for c in trick_ids if c not in hand_ids and c < len(deck)][:v.players - 1]
    hand = [card_name(deck[c]) for c in hand_ids]
    trick = [card_name(deck[c]) for c in trick_ids]
    got = legal_plays(" ".join(hand), " ".join(trick), trump, v)
    assert set(got) == naive_legal(hand, trick, "SHDC"[trump], v)


def test_random_policy_is_uniform_over_physical_cards():
    from pinochle_sim.engine.deal import stream
    from pinochle_sim.engine.play import pick_random, to_masks
    counts = np.zeros(24, np.int8)
    counts[[0, 1, 7]] = [2, 1, 1]  # AS AS TS TH: AS should come up half the time
    h1, h2 = to_masks(counts)
    seen = np.zeros(24)
    for i in range(20_000):
        _, k = pick_random(h1, h2, h1, np.uint64(stream(np.uint64(3), i, 1)))
        seen[k] += 1
    assert abs(seen[0] / 20_000 - 0.5) < 0.02 and abs(seen[1] / 20_000 - 0.25) < 0.02


def test_pass_back_keeps_the_most_meld():
    """Issue 15: with more meld cards than it may keep, the bidder passes back the set that keeps
    the most meld (``play --variant classic-pass4 --deals 1 --start 98 --seed 3`` used to pass
    back 9H KD QD JD and fall from 320 to 200 meld where 310 could be kept)."""
    rec = ps.records("classic-pass4", 1, seed=3, start=98)[0]
    assert rec["meld"][rec["bidder"]] == 310


def test_pass_back_search_against_every_set():
    """``most_meld_kept`` against trying every set of four by brute force (``ps.meld``) on random
    16-card hands whose meld needs more than 12 cards."""
    import itertools
    import random

    from pinochle_sim.engine.cards import hand_counts
    from pinochle_sim.engine.meld import meld_used
    from pinochle_sim.engine.passing import most_meld_kept, new_pass_scratch
    from pinochle_sim.engine.variants import compile_variant
    v = PRESETS["classic-pass4"]
    tb = compile_variant(v)
    rng = random.Random(8)
    kinds = [card_name(k) for k in range(24)] * 2
    checked = 0
    while checked < 6:
        hand = sorted(rng.sample(kinds, 16))
        trump = rng.randrange(4)
        counts = hand_counts(hand, 16)
        used = np.zeros(24, np.int8)
        meld_used(counts, trump, tb, used)
        if used.sum() <= 12:
            continue
        out = np.empty(4, np.int64)
        most_meld_kept(counts, 4, trump, tb, np.zeros(24), out, new_pass_scratch())
        kept = list(hand)
        for k in out:
            kept.remove(card_name(k))
        kept_sets = {tuple(h for i, h in enumerate(hand) if i not in drop)
                     for drop in itertools.combinations(range(16), 4)}
        best = max(ps.meld(" ".join(h), trump, v).total for h in kept_sets)
        assert ps.meld(" ".join(kept), trump, v).total == best
        checked += 1


@given(st.integers(min_value=1, max_value=(1 << 24) - 1))
def test_bit_helpers_match_python(x):
    from pinochle_sim.engine.play import lsb, msb, popcount
    assert lsb(x) == (x & -x).bit_length() - 1
    assert msb(x) == x.bit_length() - 1
    assert popcount(x) == bin(x).count("1")


def test_bit_helpers_of_an_empty_mask():
    from pinochle_sim.engine.play import lsb, msb, popcount
    assert (lsb(0), msb(0), popcount(0)) == (0, 0, 0)


@given(st.sets(st.integers(0, 23), min_size=1), st.sets(st.integers(0, 23)), st.integers(0, 3),
       st.integers(0, 23), st.booleans(), st.booleans(), st.sampled_from(["thousand", "classic", "modern"]))
def test_heuristic_follow_against_its_twin(legal, unseen, trump, win, last, safe, name):
    """The plain heuristic's follow (costs and gifts as single keys) against the twin written
    from ``play``'s docstring."""
    from pinochle_sim.engine.play import choose_follow
    points = np.array(PRESETS[name].card_points, np.int64)
    mask = sum(1 << k for k in legal)
    seen_mask = sum(1 << k for k in unseen)
    assert choose_follow(mask, seen_mask, trump, last, win, safe, points) == naive_follow(
        legal, unseen, trump, last, win, safe, points)


@given(st.sets(st.integers(0, 23), min_size=1), st.data(), st.sets(st.integers(0, 23)), st.integers(0, 3),
       st.booleans(), st.integers(2, 6), st.sets(st.integers(0, 3)), st.sampled_from(["thousand", "classic"]))
def test_heuristic_lead_against_its_twin(h1, data, unseen, trump, declaring, draw_min, ruff, name):
    """The plain heuristic's lead (its choices as single keys) against the twin written from
    ``play``'s docstring."""
    from pinochle_sim.engine.play import choose_lead
    h2 = data.draw(st.sets(st.sampled_from(sorted(h1))))
    points = np.array(PRESETS[name].card_points, np.int64)
    mask = sum(1 << k for k in h1)
    assert choose_lead(mask, sum(1 << k for k in h2), sum(1 << k for k in unseen), trump, declaring, points,
                       draw_min, sum(1 << s for s in ruff)) == naive_lead(h1, h2, unseen, trump, declaring,
                                                                           points, draw_min, ruff)


# Seed 003's double-deck holds four copies of a card: a hand's third and fourth copies sit above
# bit 24 of its masks (``play.HIGH``), always empty in the 48-card deck.
four_counts = st.lists(st.integers(0, 4), min_size=24, max_size=24)


@given(four_counts, four_counts)
def test_masks_of_four_copies_against_counts(hand, played):
    """Each copy taken from a hand and put back, the cards of a mask counted, a copy added, and the
    kinds of which hand and played cards hold every copy (two in the 48-card deck, four in
    double-deck), against the count vectors."""
    from pinochle_sim.engine.play import add_copy, all_out, copies_in, drop, restore, to_masks
    h1, h2 = to_masks(np.array(hand, np.int8))
    p1, p2 = to_masks(np.array(played, np.int8))
    for k in range(24):
        assert copies_in(h1, h2, 1 << k) == hand[k]
    assert copies_in(h1, h2, 0x3F << 6) == sum(hand[6:12])
    if sum(played) and max(played) < 4:
        k = played.index(max(played))
        assert copies_in(*add_copy(p1, p2, k), 1 << k) == played[k] + 1
    for k in range(24):
        if hand[k]:
            a, b, copy = drop(h1, h2, k)
            assert copies_in(a, b, 1 << k) == hand[k] - 1 and copy == hand[k] - 1
            assert restore(a, b, k, copy) == (h1, h2)
    four = {k for k in range(24) if hand[k] + played[k] >= 4}
    assert all_out(h1, h2, p1, p2, True) & ((1 << 24) - 1) == sum(1 << k for k in four)
    if max(hand) <= 2 and max(played) <= 2:
        two = {k for k in range(24) if hand[k] + played[k] >= 2}
        assert all_out(h1, h2, p1, p2, False) == sum(1 << k for k in two)


def test_random_policy_is_uniform_over_four_copies():
    """Double-deck: with AS four times and TS once, a random card is AS four times in five."""
    from pinochle_sim.engine.deal import stream
    from pinochle_sim.engine.play import pick_random, to_masks
    counts = np.zeros(24, np.int8)
    counts[[0, 1]] = [4, 1]
    h1, h2 = to_masks(counts)
    seen = np.zeros(24)
    for i in range(20_000):
        _, k = pick_random(h1, h2, h1 & 0xFFFFFF, np.uint64(stream(np.uint64(3), i, 1)))
        seen[k] += 1
    assert seen.sum() == seen[0] + seen[1] and abs(seen[0] / 20_000 - 0.8) < 0.02


@given(st.lists(st.integers(0, 4), min_size=24, max_size=24).filter(any), st.sets(st.integers(0, 23)),
       st.integers(0, 3), st.booleans(), st.integers(2, 8), st.sets(st.integers(0, 3)))
def test_heuristic_lead_of_four_copies_against_its_twin(counts, unseen, trump, declaring, draw_min, ruff):
    """Double-deck's plain heuristic lead: trump and suit lengths count every copy."""
    from pinochle_sim.engine.play import choose_lead, to_masks
    points = np.array(PRESETS["double-deck"].card_points, np.int64)
    h1, h2 = to_masks(np.array(counts, np.int8))
    held = {k for k in range(24) if counts[k]}
    extra = [k for k in range(24) for _ in range(counts[k] - 1)]
    assert choose_lead(h1, h2, sum(1 << k for k in unseen), trump, declaring, points, draw_min,
                       sum(1 << s for s in ruff)) == naive_lead(held, extra, unseen, trump, declaring, points,
                                                                draw_min, ruff)


@given(st.lists(st.sets(st.integers(0, 23)), min_size=4, max_size=4), st.integers(0, 3), st.integers(1, 3),
       st.integers(0, 3), st.integers(0, 3), st.integers(0, 23), st.sampled_from(["classic", "three-hand"]))
def test_contract_player_trusts_a_card_only_if_no_opponent_after_may_beat_it(may, seat, j, lead, trump, card,
                                                                             name):
    """The contract player's test of a winning card (``tricks._holds`` on what the opponents
    still to play may hold, ``tricks._still_to_play``) against the rule read card by card
    (tricks' docstring): no opponent still to play may hold a higher card of its suit, nor, when
    the card is not a trump, be void in the suit led while it may hold a trump."""
    from pinochle_sim.engine.tricks import _holds, _still_to_play
    tb = compile_variant(PRESETS[name])
    seats = int(tb.rules[R.players])
    may = may[:seats]
    seat, j = seat % seats, min(j, seats - 1)
    masks = np.array([sum(1 << k for k in m) for m in may], np.int64)
    twin = True
    for step in range(1, seats - j):
        q = (seat + step) % seats
        if tb.team[q] == tb.team[seat]:
            continue
        if any(k // 6 == card // 6 and k % 6 < card % 6 for k in may[q]):
            twin = False
        void = not any(k // 6 == lead for k in may[q])
        if card // 6 != trump and void and any(k // 6 == trump for k in may[q]):
            twin = False
    assert bool(_holds(card, trump, *_still_to_play(seat, j, lead, trump, tb.team, masks))) == twin
