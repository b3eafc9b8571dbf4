"""Exact odds: closed forms, an independent mean, and the simulated twin within a few s.e."""
import math
from fractions import Fraction

import numpy as np
import pytest
from naive import naive_meld, p_every_suit_has

import pinochle_sim as ps
from pinochle_sim.studies.odds import (EVENT_NAMES, EVENTS, SUIT_CONFIGS, SUIT_SIZES, SUIT_WEIGHTS,
                               TOTAL_HANDS, event_probability, exact_odds, meld_distribution,
                               simulate_meld, table_probability)
from pinochle_sim.engine.variants import PRESETS, compile_variant

EV = dict(zip(EVENT_NAMES, EVENTS))
C = math.comb


def test_closed_forms():
    assert event_probability(EV["double_aces"]) == Fraction(C(40, 4), TOTAL_HANDS)
    assert event_probability(EV["no_aces"]) == Fraction(C(40, 12), TOTAL_HANDS)
    assert float(event_probability(EV["aces_around"])) == pytest.approx(p_every_suit_has(1), rel=1e-12)
    assert float(event_probability(EV["double_kings"])) == pytest.approx(p_every_suit_has(2), rel=1e-12)
    # pinochle: at least one QS and one JD, by inclusion-exclusion
    pin = Fraction(C(48, 12) - 2 * C(46, 12) + C(44, 12), TOTAL_HANDS)
    assert event_probability(EV["pinochle"]) == pin
    assert event_probability(EV["double_pinochle"]) == Fraction(C(44, 8), TOTAL_HANDS)
    assert event_probability(EV["double_run_given_suit"]) == Fraction(C(38, 2), TOTAL_HANDS)
    assert event_probability(EV["nine_of_trump_given_suit"]) == 1 - Fraction(C(46, 12), TOTAL_HANDS)


def test_table_figures():
    for e in EVENTS:
        if e.per_kind:  # one player of the inclusion-exclusion is the single hand
            from pinochle_sim.studies.odds import _players_meeting
            lo = np.array(e.lo).reshape(24)
            hi = np.array(e.hi).reshape(24)
            assert _players_meeting(lo, hi, 1) == pytest.approx(float(event_probability(e)) * TOTAL_HANDS, rel=1e-9)
    assert table_probability(EV["nine_of_trump_given_suit"]) == pytest.approx(1.0)
    # two hands both with all eight aces cannot happen: at the table, exactly 4 x one hand
    assert table_probability(EV["double_aces"]) == pytest.approx(4 * float(event_probability(EV["double_aces"])))
    with pytest.raises(ValueError):
        table_probability(EV["run_any_suit"])


@pytest.mark.parametrize("name", list(PRESETS))
def test_mean_meld_by_linearity(name):
    """The DP's mean equals a sum of per-combination expectations computed from suit marginals."""
    v = PRESETS[name]
    tb = compile_variant(v)
    mv = tb.meld_values
    size = v.hand_size  # 15 in three-hand
    marg = np.array([w * C(36, size - n) for w, n in zip(SUIT_WEIGHTS, SUIT_SIZES)], dtype=object)
    # one suit's cards alone, scored by the pure-Python twin: as trump (spades), and as hearts
    e_trump = sum(m * naive_meld(list(cfg) + [0] * 18, 0, v) for m, cfg in zip(marg, SUIT_CONFIGS))
    e_marr = sum(m * naive_meld([0] * 6 + list(cfg) + [0] * 12, 0, v) for m, cfg in zip(marg, SUIT_CONFIGS))
    expect = Fraction(int(e_trump) + 3 * int(e_marr), C(48, size))
    ev = dict(zip(EVENT_NAMES, EVENTS))
    for row, single, double in ((4, "aces_around", "double_aces"), (5, "kings_around", "double_kings"),
                                (6, "queens_around", "double_queens"), (7, "jacks_around", "double_jacks"),
                                (3, "pinochle", "double_pinochle")):
        p1, p2 = event_probability(ev[single], size), event_probability(ev[double], size)
        expect += int(mv[row, 1]) * (p1 - p2) + int(mv[row, 2]) * p2
    assert meld_distribution(v, 0).mean == expect
    # the mean is the same whichever suit is named trump
    assert meld_distribution(v, 3).mean == expect


@pytest.mark.parametrize("name", ["thousand", "classic-pass4"])
def test_distribution_is_complete(name):
    for trump in (0, 1, None):
        d = meld_distribution(name, trump)
        assert int(d.counts.sum()) == TOTAL_HANDS
        assert (d.counts > 0).all()
    best, fixed = meld_distribution(name, None), meld_distribution(name, 0)
    assert best.mean > fixed.mean
    # best-trump meld stochastically dominates a fixed trump
    for x in (20, 50, 100, 200):
        assert best.at_least(x) >= fixed.at_least(x)


def test_simulation_agrees_with_exact():
    v = ps.variant("classic")
    exact = exact_odds(v)
    sim = simulate_meld(v, deals=150_000, seed=5)
    for name in EVENT_NAMES:
        p, q, se = exact["events"][name], sim.p_hand[name], sim.se_hand[name]
        assert abs(q - p) <= 5 * max(se, math.sqrt(p * (1 - p) / sim.deals / 4) + 1e-9), name
    for key in ("fixed_trump", "best_trump"):
        assert abs(sim.mean_meld[key] - exact[f"mean_meld_{key}"]) < 5 * sim.se_mean_meld[key]
    for name, p in exact["events_at_table"].items():
        assert abs(sim.p_table[name] - p) <= 5 * sim.se_table[name] + 1e-4, name


def test_simulated_distribution_matches_exact():
    v = ps.variant("thousand")
    sim = simulate_meld(v, deals=50_000, seed=6)
    d = meld_distribution(v, None)
    hands = 4 * sim.deals
    for x in (0, 40, 100, 150):
        p = float(d.at_least(x))
        q = sim.hist_best[x:].sum() / hands
        assert abs(q - p) < 5 * math.sqrt(p * (1 - p) / sim.deals) + 1e-9


def test_simulation_reproducible_and_chunk_free():
    a = simulate_meld("thousand", deals=20_000, seed=2, chunk=20_000)
    b = simulate_meld("thousand", deals=20_000, seed=2, chunk=7_000)
    assert a.p_hand == b.p_hand and (a.hist_best == b.hist_best).all()


def test_naive_meld_agrees_on_dealt_hands():
    # the meld inside the simulation is the kernel the twin checks
    from pinochle_sim.engine.deal import deal
    hands = deal(50, seed=4).reshape(-1, 24)
    v = PRESETS["classic"]
    sim_total = sum(naive_meld(h, 0, v) for h in hands)
    assert sim_total == int(ps.meld_table(hands, v)[:, 0].sum())
