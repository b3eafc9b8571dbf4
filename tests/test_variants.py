"""Every preset against the table of RULES.md, and the override mechanism."""
import pytest

import pinochle_sim as ps
from pinochle_sim.engine.variants import PRESETS, VariantError, variant

# RULES.md table, column by column: (card points, last trick, trick total, opening, pass, target)
TABLE = {
    "thousand": ((11, 10, 4, 3, 2, 0), 10, 250, 40, 0, 1000),
    "modern-15": ((1, 1, 1, 0, 0, 0), 1, 25, 15, 0, 150),
    "modern": ((1, 1, 1, 0, 0, 0), 1, 25, 26, 3, 150),
    "classic": ((10, 10, 10, 0, 0, 0), 10, 250, 250, 0, 1500),
    "classic-pass4": ((10, 10, 10, 0, 0, 0), 0, 240, 250, 4, 1500),
}


@pytest.mark.parametrize("name", list(TABLE))
def test_presets_match_rules_table(name):
    v = PRESETS[name]
    pts, last, total, opening, passed, target = TABLE[name]
    assert (v.card_points, v.last_trick, v.trick_total, v.opening_bid, v.pass_cards, v.target) == (
        pts, last, total, opening, passed, target)


def test_play_obligations_per_variant():
    # RULES.md rows: first lead, must head, must trump, must overtrump
    assert [PRESETS[n].first_lead for n in TABLE] == ["dealer_left"] + ["bidder"] * 4
    assert [PRESETS[n].must_head for n in TABLE] == [False, True, True, True, True]
    assert all(PRESETS[n].must_trump for n in TABLE)
    assert [PRESETS[n].must_overtrump for n in TABLE] == [False, True, True, True, True]


def test_auction_and_scoring_rows():
    t, m15, m, c, c4 = (PRESETS[n] for n in TABLE)
    assert (t.raise_min, t.jump_bids, t.all_pass) == (5, True, "throw_in")            # seed 000
    assert (m15.raise_min, m15.all_pass, m15.stuck_bid) == (1, "dealer_stuck", 15)     # seed 001
    assert (m.jump_bids, m.all_pass, m.stuck_bid, m.min_tricks) == (False, "dealer_stuck", 25, 1)  # 002
    assert (c.raise_min, c.raise_step, c.all_pass) == (10, 10, "throw_in")             # seed 003
    assert (c4.forced_open, c4.raise_step) == (True, 10)                               # seed 004
    assert [PRESETS[n].no_trick for n in TABLE] == [
        "none", "none", "side_scores_nothing", "bidder_meld_void", "no_counter_meld_void"]
    assert (t.both_past, t.set_out) == ("higher_wins", -1000)
    assert all(PRESETS[n].both_past == "bidder_wins" for n in list(TABLE)[1:])


def test_meld_rows():
    assert PRESETS["thousand"].run == (150, 300) and PRESETS["classic"].run == (150, 1500)
    assert PRESETS["modern"].run == (15, 150) and PRESETS["modern-15"].pinochle == (4, 30)
    assert PRESETS["thousand"].nine_of_trump == (0, 0) and PRESETS["classic"].nine_of_trump == (10, 20)
    assert PRESETS["classic-pass4"].aces_around == (100, 1000)
    assert PRESETS["thousand"].aces_around == (100, 200)


def test_double_deck_rows():
    """RULES.md "Double-deck" (seed 003's variation): 80 cards, four copies of A 10 K Q J and no
    9s, 20 a seat; A, 10, K a point each and the last trick 2 (50 a hand); least bid 50, raises of
    at least 1, jumps allowed, the dealer stuck at 50; 4 cards passed each way; follow, head, trump,
    overtrump, the bidder leads; run included with its marriage, values single to quadruple, no
    dix; the bidding side's meld void without a trick; game to 500, the bidding side first."""
    v = PRESETS["double-deck"]
    assert (v.deck, v.deck_size, v.copies, v.players, v.hand_size, v.kitty) == ((4, 4, 4, 4, 4, 0), 80, 4, 4, 20, 0)
    assert (v.card_points, v.last_trick, v.trick_total) == ((1, 1, 1, 0, 0, 0), 2, 50)
    assert (v.opening_bid, v.raise_min, v.jump_bids, v.all_pass, v.stuck_bid) == (50, 1, True, "dealer_stuck", 50)
    assert v.pass_cards == 4 and (v.first_lead, v.must_head, v.must_trump, v.must_overtrump) == (
        "bidder", True, True, True)
    assert (v.run, v.royal_marriage, v.marriage, v.pinochle) == (
        (15, 150, 225, 300), (4, 8, 12, 16), (2, 4, 6, 8), (4, 30, 60, 90))
    assert (v.aces_around, v.kings_around, v.queens_around, v.jacks_around) == (
        (10, 100, 150, 200), (8, 80, 120, 160), (6, 60, 90, 120), (4, 40, 60, 80))
    assert (v.nine_of_trump, v.run_marriage, v.no_trick) == ((0, 0, 0, 0), "included", "bidder_meld_void")
    assert (v.target, v.both_past, v.min_tricks) == (500, "bidder_wins", 0)
    assert "double-deck" in ps.PLAYABLE


def test_the_double_dummy_yardstick_leaves_the_last_eight_tricks():
    """``Variant.dd_trick``: trick 4 in every 48-card game (as before double-deck), and in
    double-deck's twenty tricks the last eight, as trick 4 leaves of twelve."""
    assert {name: v.dd_trick for name, v in ps.PRESETS.items()} == {
        **{name: 4 for name in ps.PRESETS if name != "double-deck"}, "double-deck": 12}


def test_default_is_thousand():
    assert ps.variant().name == "thousand"


def test_overrides_text_and_python():
    v = variant("thousand:must_trump=false,last_trick=0")
    assert (v.must_trump, v.last_trick, v.trick_total) == (False, 0, 240)
    assert variant("thousand", must_trump=False) == variant("thousand:must_trump=false")
    assert v.spec == "thousand:last_trick=0,must_trump=false"
    assert variant(v.spec) == v
    assert variant("classic:pinochle=40/80").pinochle == (40, 80)
    assert variant("classic:card_points=11/10/4/3/2/0").trick_total == 250
    assert variant("thousand:set_out=none").set_out is None


@pytest.mark.parametrize("spec,message", [
    ("thousnd", "unknown variant 'thousnd' \\(did you mean 'thousand'\\?\\)"),
    ("thousand:must_trumpp=false", "unknown option 'must_trumpp'"),
    ("thousand:must_trump=maybe", "must_trump='maybe': expected true or false"),
    ("thousand:run=150", "run=150: expected single/double"),
    ("thousand:first_lead=dealer", "first_lead='dealer': valid values are bidder, dealer_left"),
    ("thousand:last_trick=-5", "last_trick=-5: expected a whole number >= 0"),
    ("thousand:players=3", "3 hands of 12 plus a kitty of 0 is not 48"),
    ("three-hand:pass_cards=3", "only partners pass cards"),
    ("thousand:players=5", r"plays 4 \(two partnerships\) or 3"),
    ("thousand:must_trump", "has no value"),
    ("classic:card_points=200000/0/0/0/0/0", "1600010 trick points in a hand, more than 1,000,000"),
])
def test_bad_options_are_refused_by_name(spec, message):
    with pytest.raises(VariantError, match=message):
        variant(spec)


def test_every_option_has_a_source():
    for v in PRESETS.values():
        for opt in v.options():
            assert v.source(opt)


@pytest.mark.parametrize("spec,opening,stuck", [
    ("modern:stuck_bid=30", 31, 30),            # 002: one "Starting bid"; the first raise is one more
    ("modern:opening_bid=31", 31, 30),
    ("modern-15:opening_bid=20", 20, 20),       # 001: "A minimum opening bid is 15 ... at 15"
    ("modern-15:stuck_bid=12", 12, 12),
    ("modern:opening_bid=31,stuck_bid=20", 31, 20),  # both set: both as given
    ("classic:all_pass=dealer_stuck", 250, 250),
    ("classic:opening_bid=300", 300, 0),        # no stuck dealer: nothing follows
])
def test_stuck_bid_follows_the_opening_bid(spec, opening, stuck):
    v = variant(spec)
    assert (v.opening_bid, v.stuck_bid) == (opening, stuck)
    assert variant(v.spec) == v
