"""The default bidding (issue 32): ``value``'s limits, its weights per variant, and the duplicate
play that chooses them."""
import json

import numpy as np
import pytest

from pinochle_sim.engine.auction import N_SITUATIONS, SITUATIONS
from pinochle_sim.engine.variants import PLAYABLE, variant
from pinochle_sim.studies import tuning
from pinochle_sim.studies.strategies import (DEFAULT_BIDDING, DEFAULT_BIDDING_ALONE, VALUE_FILE, VALUE_PARAMS,
                                             StrategyError, Value, default_bidding, describe, strategy,
                                             tuned_values)


def test_every_preset_has_every_weight_and_how_it_was_found():
    data = json.loads(VALUE_FILE.read_text())
    assert set(data["variants"]) == set(PLAYABLE)
    for name, w in data["variants"].items():
        assert set(w) == set(VALUE_PARAMS)
        assert data["provenance"][name]["log"] == f"results/bidding/search_{name}.csv"
    assert VALUE_PARAMS[:N_SITUATIONS] == ("open", "partner_high", "partner_out", "opponent_high")
    assert SITUATIONS[1:3] == ("partner_high", "opponent_high_partner_out")


def test_value_is_the_default_in_every_four_hand_variant():
    assert DEFAULT_BIDDING == "value"
    for name in PLAYABLE:
        v = variant(name)
        assert default_bidding(v) == ("value" if v.players == 4 else DEFAULT_BIDDING_ALONE)


@pytest.mark.parametrize("name", ["classic", "thousand", "three-hand"])
def test_the_limit_is_the_formula_cell_by_cell(name):
    """A naive twin: the limit written out for a few cells by hand."""
    v = variant(name)
    p = tuned_values()["variants"][name]
    weight, table = strategy("value").lookup(v)
    assert weight == p["meld"]
    scale = v.trick_total / 250
    for s, k in enumerate(VALUE_PARAMS[:N_SITUATIONS]):
        for band, aces, tens, trumps in ((0, 0, 0, 0), (3, 2, 1, 5), (15, 8, 8, 12), (7, 4, 0, 2)):
            hand = p["ace"] * aces + p["ten"] * tens + p["trump"] * max(0, trumps - p["floor"])
            assert table[s, band, aces, tens, trumps] == pytest.approx((p[k] + hand) * scale)


def test_a_weight_in_the_spec_replaces_the_variants():
    s = strategy("value:partner_out=45,meld=1.2")
    assert s.spec == "value:partner_out=45,meld=1.2"
    p = s.params(variant("classic"))
    assert p["partner_out"] == 45 and p["meld"] == 1.2
    assert p["ace"] == tuned_values()["variants"]["classic"]["ace"]
    with pytest.raises(StrategyError, match="bad parameter"):
        strategy("value:pushing=3")
    assert "1.2 x meld" in describe(s, variant("classic"))


def test_tricks_as_weights_bids_as_tricks_does():
    """``tuning.start`` is ``tricks`` written as ``value``'s weights: on the same deals the two
    make the same calls and scores (no margin on any deal)."""
    for name in ("classic", "thousand"):
        m = tuning.duplicate_margins(name, Value(**tuning.start(variant(name))), "tricks", 400, 3)
        assert (m == 0).all()


def test_duplicate_margins_are_antisymmetric_and_zero_against_itself():
    v = variant("classic")
    ab = tuning.duplicate_margins(v, "value", "cautious", 300, 5)
    ba = tuning.duplicate_margins(v, "cautious", "value", 300, 5)
    assert np.array_equal(ab, -ba)
    assert ab.any()
    assert not tuning.duplicate_margins("three-hand", "value", "value", 200, 5).any()


def test_the_search_keeps_only_moves_that_win_and_the_check_moves_every_weight():
    v = variant("classic")
    bad = {**tuning.start(v), "meld": 0.5}  # meld half counted: raising it must win
    p, log = tuning.coordinate_search(v, bad, deals=4000, seed=1, rounds=1)
    assert p["meld"] > 0.5
    assert (log.kept == (log.margin > 2 * log.se)).all()
    assert log.seed.is_unique
    kept = log[log.kept]
    for w in VALUE_PARAMS:
        assert p[w] == pytest.approx(bad[w] + kept[kept.weight == w].step.sum())
    check = tuning.local_check(v, p, deals=500, seed=9)
    assert len(check) == 4 * len(tuning.SITUATION_MOVES) + 5 * len(tuning.HAND_MOVES)
    assert set(check.weight) == set(VALUE_PARAMS)
    three = tuning.local_check("three-hand", tuning.start(variant("three-hand")), deals=200, seed=9)
    assert set(three.weight) == {"open", "opponent_high", *tuning.STEPS}


def test_no_push_is_no_margin():
    v = variant("classic")
    p = {**tuning.start(v), "partner_out": tuning.start(v)["opponent_high"]}
    out = tuning.pushing(v, p, deals=300)
    assert out["raises"] == 0 and out["margin"] == 0


def test_advise_says_how_far_the_default_bids_the_hand():
    """The limits ``advise`` reports, against the formula written out (the README's hand:
    370 meld in spades, four aces, one ten, eight spades)."""
    from pinochle_sim.engine.cards import hand_counts
    from pinochle_sim.studies.advise import bidding_limits
    v = variant("thousand")
    out = bidding_limits(hand_counts("AS TS KS QS JS KS 9S QS JD AH AD AC", 12), v)
    p = tuned_values()["variants"]["thousand"]
    hand = p["ace"] * 4 + p["ten"] * 1 + p["trump"] * max(0, 8 - p["floor"])
    assert out["strategy"] == "value" and out["trump"] == "S"
    for k, name in zip(VALUE_PARAMS[:N_SITUATIONS], SITUATIONS):
        limit = p["meld"] * 370 + p[k] + hand
        got = out["situations"][name]
        assert got["limit"] == pytest.approx(limit)
        assert got["bid"] <= limit < got["bid"] + v.raise_min
        assert (got["bid"] - v.opening_bid) % v.raise_min == 0


def test_the_bidding_page_is_what_the_files_say():
    """docs/bidding.md holds no figure typed by hand: it is rendered from the result files."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, str(root / "scripts" / "render_bidding.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
