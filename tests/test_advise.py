"""`advise` simulates the hand given: trump choice, intervals, exact cases, replication, auctions."""
import itertools
from math import comb

import numpy as np
import pytest

import pinochle_sim as ps
from pinochle_sim.engine.auction import AuctionError
from pinochle_sim.studies.advise import advise, read_auction
from pinochle_sim.engine.auction import N_SITUATIONS, choose_trump, hand_worth, trump_value
from pinochle_sim.present.cli import main
from pinochle_sim.engine.meld import meld_all_trumps
from pinochle_sim.studies.strategies import strategy
from pinochle_sim.engine.deal import deal
from pinochle_sim.engine.variants import PLAYABLE, PRESETS, band_width, compile_variant

STRONG_SPADES = "AS TS KS QS JS KS 9S QS JD AH AD AC"   # issue 11: a spade run and 100 aces
LONG_HEARTS = "9S AH TH JH 9H JH 9H AD TD AC TC JC"     # issue 11: six hearts, one spade
ALL_SPADES = "AS AS TS TS KS KS QS QS JS JS 9S 9S"


@pytest.mark.parametrize("name", ["thousand", "classic"])
@pytest.mark.parametrize("hand,trump", [(STRONG_SPADES, "S"), (LONG_HEARTS, "H")])
def test_the_issue_hands_name_the_right_trump_and_two_seeds_agree(name, hand, trump):
    a, b = (advise(hand, name, deals=4000, seed=s) for s in (1, 2))
    assert a["best_trump"] == b["best_trump"] == trump
    assert abs(a["expected_total"] - b["expected_total"]) <= 0.02 * a["expected_total"]
    lo, hi = a["expected_total_ci95"]
    assert lo < a["expected_total"] < hi and hi - lo < 0.02 * a["expected_total"]
    assert a["trump_margin"]["ci95"][0] > 0  # the choice is clear on the same deals


def _naive_choose_trump(counts, melds, v):
    """Pure-Python twin: the highest meld + value per trump card; ties to length, then A and T."""
    value = (15 + 4 * v.pass_cards) * v.trick_total / 250
    keys = []
    for t in range(4):
        suit = counts[6 * t: 6 * t + 6]
        keys.append((melds[t] + value * int(suit.sum()), int(suit.sum()), 2 * int(suit[0]) + int(suit[1]), -t))
    return max(range(4), key=lambda t: keys[t])


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_choose_trump_matches_its_twin(name, random_hands):
    v = PRESETS[name]
    rules = compile_variant(v).rules
    assert trump_value(rules) == pytest.approx((15 + 4 * v.pass_cards) * v.trick_total / 250)
    hands = random_hands if v.deck_size == 48 else deal(100, seed=9, v=v).reshape(-1, 24)  # double-deck's own
    for counts in hands[:400]:
        melds = np.array([m.total for m in meld_all_trumps(counts, v)], np.int32)
        assert choose_trump(counts, melds, rules) == _naive_choose_trump(counts, melds, v)


@pytest.mark.parametrize("name", ["thousand", "classic"])
@pytest.mark.parametrize("strat", ["meld+20", "table", "formula"])
def test_trump_tie_goes_to_the_long_suit_for_every_strategy(name, strat):
    # issue 11: meld is the same in every suit (a heart marriage is not there; 9H counts only in
    # trump), and strategies without a trump-length term used to name spades, one card long
    v = PRESETS[name]
    counts = ps.hand_counts(LONG_HEARTS, 12)
    melds = np.array([m.total for m in meld_all_trumps(counts, v)], np.int32)
    weight, table = strategy(strat if strat != "table" else "table:deals=2000").lookup(v)
    worth = np.empty(N_SITUATIONS)
    table = np.moveaxis(table if table.ndim == 5 else np.broadcast_to(table, (N_SITUATIONS, *table.shape)), 0, -1)
    trump = hand_worth(counts, melds, weight, table, band_width(v), compile_variant(v).rules, worth)
    assert "SHDC"[trump] == "H"


def test_tiny_samples_answer_with_wide_intervals():
    a = advise(STRONG_SPADES, "thousand", deals=1, seed=3)
    assert a["best_trump"] in "SHDC" and np.isnan(a["expected_total_ci95"][0])
    for bid, (lo, hi) in a["p_make_ci95"].items():
        assert 0 <= lo <= a["p_make"][bid] <= hi <= 1 and hi - lo > 0.5  # one deal says little
    a = advise(LONG_HEARTS, "classic", deals=10, seed=3)
    lo, hi = a["expected_total_ci95"]
    assert lo < a["expected_total"] < hi
    r_lo, r_hi = a["recommended_bid_range"]
    assert r_lo is None or r_hi is None or r_lo <= r_hi
    assert a["provenance"]["bidding"] == "value"  # what the other seats bid by, as in every provenance


def _partner_marriages_exact():
    """Distribution of the number of non-trump marriages in 12 cards from the 36 non-spades:
    (k, q) kings and queens of hearts, diamonds, clubs, enumerated exactly."""
    dist = {}
    for kq in itertools.product(range(3), repeat=6):
        used = sum(kq)
        if used > 12:
            continue
        w = np.prod([comb(2, x) for x in kq]) * comb(24, 12 - used) / comb(36, 12)
        m = sum(min(kq[2 * s], kq[2 * s + 1]) for s in range(3))
        dist[m] = dist.get(m, 0) + w
    return dist


@pytest.mark.parametrize("name,own_meld", [("classic", 1520), ("thousand", 380)])
def test_advise_against_the_exact_answer_for_twelve_spades(name, own_meld):
    # Twelve spades take every trick (250 trick points) whoever leads; the partner, holding no
    # spade, can meld only marriages (20 each), so the side total is known exactly in law.
    dist = _partner_marriages_exact()
    assert sum(dist.values()) == pytest.approx(1)
    mean = own_meld + 250 + 20 * sum(m * p for m, p in dist.items())
    a = advise(ALL_SPADES, name, deals=20000, seed=5)
    assert a["best_trump"] == "S"
    se = (a["expected_total_ci95"][1] - a["expected_total"]) / 1.96
    assert abs(a["expected_total"] - mean) < 4 * se
    for bid, p in a["p_make"].items():
        exact = min(sum(q for m, q in dist.items() if own_meld + 250 + 20 * m >= bid), 1.0)
        assert abs(p - exact) <= 4 * np.sqrt(exact * (1 - exact) / 20000) + 1e-9, bid


def test_intervals_cover_at_their_rate_by_replication():
    # 160 small runs against one large one: the 95% intervals of the mean (t) and of each chance
    # (Wilson) should hold the large run's figure about 95% of the time
    truth = advise(LONG_HEARTS, "thousand", deals=40000, seed=100)
    hearts = truth["melds"][1]["expected_total"]
    bids = [b for b, p in truth["p_make"].items() if 0.2 < p < 0.8][::4]
    assert len(bids) >= 2
    mean_hits, p_hits, p_tries, reps = 0, 0, 0, 160
    for s in range(reps):
        a = advise(LONG_HEARTS, "thousand", deals=150, seed=1000 + s)
        lo, hi = a["melds"][1]["ci95"]
        mean_hits += lo <= hearts <= hi
        if a["best_trump"] != "H":
            continue
        for b in bids:
            if b in a["p_make_ci95"]:
                p_tries += 1
                p_hits += a["p_make_ci95"][b][0] <= truth["p_make"][b] <= a["p_make_ci95"][b][1]
    assert 0.89 <= mean_hits / reps <= 0.99
    assert p_tries > 100 and 0.89 <= p_hits / p_tries <= 0.995


@pytest.mark.parametrize("text,name,dealer,high,high_seat", [
    ("", "thousand", 3, 0, -1),            # first to call: the dealer sits on our right
    ("p 260 p", "classic", 0, 260, 2),     # partner bid 260
    ("250 p", "classic-pass4", 1, 250, 2),  # the forced opening
    ("26 p 27", "modern", 0, 27, 3),
    ("p p p", "classic", 0, 0, -1),        # the dealer may still open (no stuck dealer here)
])
def test_read_auction(text, name, dealer, high, high_seat):
    s = read_auction(text, PRESETS[name])
    assert (s.dealer, s.high, s.high_seat) == (dealer, high, high_seat)


@pytest.mark.parametrize("text,name,message", [
    ("p 255", "classic", "not a step of 10"),
    ("p 240", "classic", "below the least legal bid"),
    ("26 28", "modern", "exactly 1"),
    ("p", "classic-pass4", "in at 250"),
    ("p p p p", "classic", "already over"),
    ("250 x", "classic", "unknown call 'x'"),
])
def test_impossible_auctions_are_refused(text, name, message):
    with pytest.raises(AuctionError, match=message):
        read_auction(text, PRESETS[name])


def test_call_now():
    a = advise(STRONG_SPADES, "classic", deals=500, seed=1, auction="p 260 p")
    assert a["call"] == "270" and "partner" in a["call_why"]
    a = advise(LONG_HEARTS, "classic", deals=500, seed=1, auction="300 p 400")
    assert a["call"] == "pass"
    a = advise(LONG_HEARTS, "modern", deals=200, seed=1, auction="p p p")
    assert a["call"] == "25" and "dealer" in a["call_why"]


def test_cli_advise(capsys):
    assert main(["advise", LONG_HEARTS, "--variant", "classic", "--deals", "500", "--auction", "p 260 p"]) == 0
    out = capsys.readouterr().out
    assert "name H" in out and "recommended bid" in out and "after 'p 260 p'" in out
    assert main(["advise", LONG_HEARTS, "--variant", "classic", "--auction", "p 255"]) == 2
    err = capsys.readouterr().err
    assert "not a step of 10" in err and err.count("\n") == 1


def test_the_advisor_form_runs_the_cli_functions(capsys):
    from pinochle_sim.present.explore import advisor_form
    form = advisor_form(LONG_HEARTS, "classic", "p 260 p", deals=300)
    hand, variant, auction, deals, button, out = form.children
    button.click()  # outside a kernel the output widget prints straight through
    shown = capsys.readouterr().out
    assert "Name H" in shown and "Call now: pass" in shown
    hand.value = "AS TS KS"
    button.click()
    assert capsys.readouterr().out.splitlines()[-1].endswith("error: a hand has 12 cards, got 3")
    variant.value, hand.value = "classic:must_trump=maybe", LONG_HEARTS
    button.click()
    assert "error: must_trump='maybe'" in capsys.readouterr().out.splitlines()[-1]


def test_a_bid_told_apart_from_its_neighbours_is_not_given_a_range_of_itself():
    from pinochle_sim.present.report import bid_range_note
    assert bid_range_note(205, 205, 205) == "the simulation tells it apart from the bids beside it"
    assert bid_range_note(200, 195, 210) == "the simulation cannot tell it from 195-210"
    assert bid_range_note(200, None, 210) == "the simulation cannot tell it from pass-210"
