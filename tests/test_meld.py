"""Meld: every worked example of RULES.md and the seed texts, the naive twin, and properties."""
import itertools

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import naive_meld, naive_meld_used

import pinochle_sim as ps
from pinochle_sim.engine.deal import deal
from pinochle_sim.engine.meld import meld, meld_table, refused_cards, suit_code
from pinochle_sim.engine.variants import PRESETS, RUN_MARRIAGE


def hands_of(name, random_hands):
    """Hands of the variant's own deck: the 48-card fixture, or dealt from double-deck's 80."""
    v = PRESETS[name]
    return random_hands if v.copies == 2 else deal(200, seed=12345, v=v).reshape(-1, 24)


def total(cards, variant, trump="S"):
    return meld(cards, trump, variant).total


RUN = "AS TS KS QS JS"


@pytest.mark.parametrize("cards,variant,points", [
    # RULES.md "Worked meld examples" (trump spades)
    (RUN, "thousand", 190), (RUN, "classic", 150), (RUN, "modern", 15),
    (RUN + " KS", "classic-pass4", 170),
    (RUN + " KS QS", "classic", 190), (RUN + " KS QS", "classic-pass4", 190),
    (RUN + " KS QS", "modern", 19),
    ("QS QS JD JD", "thousand", 300), ("QS QS JD JD", "classic", 300),
    ("QS QS JD JD", "classic-pass4", 300),
    ("AS AS AH AH AD AD AC AC", "thousand", 200), ("AS AS AH AH AD AD AC AC", "classic", 1000),
    ("KS QS KH QH KD QD KC QC", "classic-pass4", 240),
])
def test_rules_worked_examples(cards, variant, points):
    assert total(cards, variant) == points


ACES16 = " ".join(f"A{s}" for s in "SHDC" for _ in range(4))


@pytest.mark.parametrize("cards,points,items", [
    # RULES.md "Double-deck" worked melds (seed 003's variation; spades trump)
    (RUN, 15, ["run"]),
    (RUN + " KS QS", 19, ["run", "royal_marriage"]),
    (ACES16, 200, ["quadruple_aces"]),
    ("QS QS QS JD JD JD", 60, ["triple_pinochle"]),
    ("KS QS KH QH", 6, ["royal_marriage", "marriage"]),
    # the rest of RULES.md's double-deck table, one multiplicity at a time
    (" ".join([RUN] * 2), 150, ["double_run"]), (" ".join([RUN] * 3), 225, ["triple_run"]),
    (" ".join([RUN] * 4), 300, ["quadruple_run"]),
    (" ".join([RUN] * 2) + " KS QS", 154, ["double_run", "royal_marriage"]),
    ("QS JD", 4, ["pinochle"]), ("QS QS JD JD", 30, ["double_pinochle"]),
    ("QS QS QS QS JD JD JD JD", 90, ["quadruple_pinochle"]),
    ("AS AH AD AC", 10, ["aces_around"]), ("AS AS AS AH AH AH AD AD AD AC AC AC", 150, ["triple_aces"]),
    ("KH KH KH KH KS KS KS KS KD KD KD KD KC KC KC KC", 160, ["quadruple_kings"]),
    ("QH QH QS QS QD QD QC QC JD JD", 60 + 30, ["double_pinochle", "double_queens"]),
    ("JH JH JH JS JS JS JD JD JD JC JC JC", 60, ["triple_jacks"]),
    ("KH QH KH QH KH QH", 6, ["marriage"]), ("KS QS KS QS KS QS KS QS", 16, ["royal_marriage"]),
])
def test_double_deck_worked_examples(cards, points, items):
    m = meld(cards, "S", "double-deck")
    assert m.total == points and [i.name for i in m.items] == items
    assert meld_table(ps.hand_counts(cards, deck=PRESETS["double-deck"].deck_counts), "double-deck")[0] == points


def test_double_deck_refuses_a_fifth_copy_and_nines():
    with pytest.raises(ps.CardError, match="a fifth copy of AS: the deck has only four"):
        meld("AS AS AS AS AS", "S", "double-deck")
    with pytest.raises(ps.CardError, match="9S is not in this deck"):
        meld("9S", "S", "double-deck")
    with pytest.raises(ps.CardError, match="a third copy of AS"):
        meld("AS AS AS", "S", "classic")


dd_hands = st.lists(st.integers(0, 79), min_size=20, max_size=20, unique=True).map(
    lambda cards: np.bincount(np.array(cards) // 4 + np.array(cards) // 20, minlength=24).astype(np.int8))
quads = st.tuples(*[st.integers(0, 400)] * 4)


@settings(max_examples=40)  # each example compiles a variant's tables (a million-entry cross table)
@given(hand=dd_hands, run=quads, royal=quads, marriage=quads, pin=quads, aces=quads,
       mode=st.sampled_from(RUN_MARRIAGE), extra=st.integers(0, 50), trump=st.integers(0, 3))
def test_double_deck_values_are_data(hand, run, royal, marriage, pin, aces, mode, extra, trump):
    """Twenty cards of the 80, any values for one to four copies: the kernel gives the naive
    twin's figure."""
    assert hand.sum() == 20 and hand.reshape(4, 6)[:, 5].sum() == 0 and hand.max() <= 4
    v = ps.variant("double-deck", run=run, royal_marriage=royal, marriage=marriage, pinochle=pin,
                   aces_around=aces, run_marriage=mode, extra_king_queen=extra)
    assert meld_table(hand, v)[trump] == naive_meld(hand, trump, v)


@pytest.mark.parametrize("cards,points", [
    # seed 000 (thousand)
    ("QS JD", 40), ("QS QS JD JD", 300), (RUN, 190), (RUN + " " + RUN, 300 + 80),
    ("AS AS AH AH AD AD AC AC", 200), ("KS KS QS QS", 80), ("KH QH", 20),
    ("AS AH AD AC", 100), ("KS KH KD KC", 80), ("QH QS QD QC JD", 60 + 40), ("JS JH JD JC", 40),
    ("9S", 0), ("9S 9S", 0),
])
def test_seed_000_thousand(cards, points):
    assert total(cards, "thousand") == points


@pytest.mark.parametrize("cards,points", [
    # seed 001 (modern-15): arounds 10/8/6/4, doubles ten times, run 15/150, dix 1
    ("AS AH AD AC", 10), ("KS KH KD KC", 8), ("QH QH QD QC QC QS JD", 6 + 4), ("JS JH JD JC", 4),
    ("KS KS KH KH KD KD KC KC", 80), ("KS QS", 4), ("KH QH", 2), (RUN, 15), (RUN + " " + RUN, 150),
    ("9S", 1), ("QS JD", 4), ("QS QS JD JD", 30),
    ("KS QS KH QH KD QD KC QC", 24),  # 'A marriage in each suit is worth 24 total points'
    ("KS KS QS", 4),  # 'a queen can be used in one marriage with one king'
    ("KH QH QH", 2),  # RULES.md: 'one K with two Qs makes one marriage'
])
def test_seed_001_modern15(cards, points):
    assert total(cards, "modern-15") == points


@pytest.mark.parametrize("cards,points", [
    # seed 002 (modern): run includes one trump marriage; extra adds 4; nines 1 / 2
    (RUN, 15), (RUN + " KS QS", 19), ("9S 9S", 2), ("9H", 0),
    ("QS JD QH QD QC", 4 + 6),  # 'the Q of spades can count in both Pinochle and Queens around'
])
def test_seed_002_modern(cards, points):
    assert total(cards, "modern") == points


def test_seed_003_example():
    # 'Spades are trump. Your team melds a royal marriage (40) and a pinochle (40) for 80'
    assert total("KS QS JD", "classic") == 80


@pytest.mark.parametrize("cards,points", [
    # seed 004 table (classic-pass4)
    (RUN, 150), (RUN + " QS", 170), (RUN + " " + RUN, 1500), ("AS AH AD AC", 100),
    ("AS AS AH AH AD AD AC AC", 1000), ("KS KS KH KH KD KD KC KC", 800),
    ("QS QS QH QH QD QD QC QC", 600), ("JS JS JH JH JD JD JC JC", 400),
    ("QS JD", 40), ("QS QS JD JD", 300), ("KH QH", 20), ("KS QS", 40), ("9S", 10),
])
def test_seed_004_classic_pass4(cards, points):
    assert total(cards, "classic-pass4") == points


def test_breakdown_names_and_cards():
    m = meld("AS TS KS QS JS KS 9S QS JD AH AD AC", "S", "thousand")
    assert [(i.name, i.points) for i in m.items] == [
        ("run", 150), ("royal_marriage", 80), ("pinochle", 40), ("aces_around", 100)]
    assert m.items[0].cards == ("AS", "TS", "KS", "QS", "JS")
    assert m.total == 370
    d = meld("AS AS AH AH AD AD AC AC QS QS JD JD", "H", "classic").as_dict()
    assert [i["name"] for i in d["items"]] == ["double_pinochle", "double_aces"]
    extra = meld(RUN + " KS", "S", "classic-pass4")
    assert [(i.name, i.cards) for i in extra.items] == [("run", tuple(RUN.split())),
                                                        ("extra_king_queen", ("KS",))]


def test_all_trumps_best_first():
    ms = ps.meld_all_trumps("AS TS KS QS JS KH QH 9D 9D 9C 9C JC", "classic")
    assert [m.trump for m in ms][0] == "S" and ms[0].total == 150 + 20
    assert [m.total for m in ms] == sorted((m.total for m in ms), reverse=True)


def test_refused_cards_seed_000():
    # 'Cards that make no meld at all are refused.'
    hand = "AS AS TS KS QS JS 9S AH AD AC 9D JD"
    assert refused_cards("AS TS KS QS JS 9S", hand, "S", "thousand") == ["9S"]
    assert refused_cards("AS TS KS QS JS 9S", hand, "S", "classic") == []  # nine of trump melds
    assert refused_cards("AS AS AH AD AC", hand, "S", "thousand") == ["AS"]  # one copy counts
    assert refused_cards("QS JD 9D", hand, "H", "thousand") == ["9D"]
    with pytest.raises(ps.CardError, match="KH is laid down but not in the hand"):
        refused_cards("KH", hand, "S")


@pytest.mark.parametrize("name", list(PRESETS))
def test_kernel_matches_naive_twin(name, random_hands):
    v = PRESETS[name]
    hands = hands_of(name, random_hands)
    table = meld_table(hands, v)
    for h, row in zip(hands, table):
        assert [naive_meld(h, t, v) for t in range(4)] == row.tolist()


def test_breakdown_total_matches_kernel(random_hands):
    for name, v in PRESETS.items():
        hands = hands_of(name, random_hands)[:300]
        table = meld_table(hands, v)
        for h, row in zip(hands, table):
            assert [meld(h, t, v).total for t in range(4)] == row.tolist()


hands = st.lists(st.integers(0, 47), min_size=12, max_size=12, unique=True).map(
    lambda cards: np.bincount(np.array(cards) // 2, minlength=24).astype(np.int8))
pairs = st.tuples(st.integers(0, 500), st.integers(0, 2000))


@given(hand=hands, run=pairs, royal=pairs, marriage=pairs, pin=pairs, aces=pairs, nine=pairs,
       mode=st.sampled_from(RUN_MARRIAGE), extra=st.integers(0, 50), trump=st.integers(0, 3))
def test_variants_are_data(hand, run, royal, marriage, pin, aces, nine, mode, extra, trump):
    """Any meld table (as data) gives the naive twin's figure, with no kernel change."""
    v = ps.variant("thousand", run=run, royal_marriage=royal, marriage=marriage, pinochle=pin,
                   aces_around=aces, nine_of_trump=nine, run_marriage=mode, extra_king_queen=extra)
    assert meld_table(hand, v)[trump] == naive_meld(hand, trump, v)


@given(hand=hands, name=st.sampled_from(list(PRESETS)))
def test_meld_unchanged_swapping_hearts_and_clubs(hand, name):
    """Hearts and clubs play the same part when spades or diamonds are trump."""
    swapped = hand.reshape(4, 6)[[0, 3, 2, 1]].reshape(24)
    a, b = meld_table(hand, name), meld_table(swapped, name)
    assert a[0] == b[0] and a[2] == b[2] and a[1] == b[3] and a[3] == b[1]


@given(hand=hands, perm=st.permutations(range(4)), name=st.sampled_from(list(PRESETS)))
def test_meld_unchanged_permuting_suits_without_pinochle(hand, perm, name):
    """With the pinochle worth nothing, every suit plays the same part: meld follows the trump."""
    v = ps.variant(name, pinochle=(0,) * PRESETS[name].copies)
    moved = np.empty(24, np.int8)
    for s in range(4):
        moved[6 * perm[s]: 6 * perm[s] + 6] = hand[6 * s: 6 * s + 6]
    a, b = meld_table(hand, v), meld_table(moved, v)
    assert all(a[s] == b[perm[s]] for s in range(4))


@pytest.mark.parametrize("name", list(PRESETS))
def test_used_cards_carry_the_whole_meld(name, random_hands):
    """Removing the cards no combination uses never changes the meld; the compiled and Python
    forms of the usage kernel agree."""
    from pinochle_sim.engine.meld import meld_used
    from pinochle_sim.engine.variants import compile_variant
    v = PRESETS[name]
    tb = compile_variant(v)
    out = np.zeros(24, np.int8)
    for h in hands_of(name, random_hands)[:300]:
        for t in range(4):
            m = meld(h, t, v)
            used = np.array(m.used, np.int8)
            assert (used <= h).all()
            assert meld(used, t, v).total == m.total
            meld_used(h, t, tb, out)
            assert (out == used).all()


@pytest.mark.parametrize("spec", [*PRESETS, "classic:run_marriage=separate",
                                  "classic:run_marriage=extra_card,extra_king_queen=2",
                                  "double-deck:run_marriage=extra_card,extra_king_queen=1",
                                  "double-deck:run_marriage=separate"])
def test_used_cards_equal_the_naive_twin(spec):
    """The cards a meld uses (what a seat shows: ``meld_used``, read from the suit tables and the
    melds across suits) equal the naive twin's combination-by-combination count, in every trump,
    on hands of every size up to every copy of a card: every preset and each way a run and its
    royal marriage count together."""
    from pinochle_sim.engine.meld import meld_used
    from pinochle_sim.engine.variants import compile_variant
    v = ps.variant(spec)
    tb = compile_variant(v)
    rng = np.random.default_rng(34)
    out = np.zeros(24, np.int8)
    for _ in range(600):
        hand = (rng.integers(0, v.copies + 1, 24) * (rng.random(24) < 0.6)).astype(np.int8)
        hand[[k for k in range(24) if not v.deck[k % 6]]] = 0
        for t in range(4):
            meld_used(hand, t, tb, out)
            assert out.tolist() == naive_meld_used(hand, t, v), (hand, t)


def test_suit_code_in_python_reads_int8_counts():
    """The Python form of ``suit_code`` on a hand as dealt (int8): a suit holding both copies of
    every card is the last configuration (3 ** 6 - 1), not an int8 overflow."""
    hand = np.full(24, 2, np.int8)
    assert [suit_code(hand, s, 2) for s in range(4)] == [728] * 4


@numba.njit
def _codes_both_ways(hands):
    """Each suit's code of each int8 hand read a word at a time (the kernels' path) and of the
    same hand as int64 (the plain loop)."""
    out = np.empty((hands.shape[0], 4, 2), np.int64)
    wide = np.empty(24, np.int64)
    for i in range(hands.shape[0]):
        for k in range(24):
            wide[k] = hands[i, k]
        for s in range(4):
            out[i, s, 0] = suit_code(hands[i], s, 2)
            out[i, s, 1] = suit_code(wide, s, 2)
    return out


def test_suit_code_read_by_word_equals_the_digits():
    """Every configuration of every suit (3**6 each), its neighbours filled at random: the
    word-at-a-time code equals the plain base-3 digits, the ace first."""
    rng = np.random.default_rng(5)
    configs = np.array(list(itertools.product(range(3), repeat=6)), np.int8)
    hands = rng.integers(0, 3, (4 * len(configs), 24)).astype(np.int8)
    for s in range(4):
        hands[s * len(configs):(s + 1) * len(configs), 6 * s:6 * s + 6] = configs
    codes = _codes_both_ways(hands)
    assert (codes[..., 0] == codes[..., 1]).all()
    digits = (configs.astype(int) * 3 ** np.arange(5, -1, -1)).sum(1)
    for s in range(4):
        assert (codes[s * len(configs):(s + 1) * len(configs), s, 0] == digits).all()
