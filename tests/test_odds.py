"""Exact odds: closed forms, an independent mean, and the simulated twin within a few s.e."""
import math
from fractions import Fraction

import numpy as np
import pytest
from naive import naive_meld, p_every_suit_has

import pinochle_sim as ps
from pinochle_sim.studies.odds import (EVENT_NAMES, EVENTS, TOTAL_HANDS, event_probability, exact_odds,
                                       meld_distribution, events, simulate_meld, suit_lies, table_probability)
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
            assert _players_meeting(lo, hi, 1, 12, np.full(24, 2)) == pytest.approx(
                float(event_probability(e)) * TOTAL_HANDS, rel=1e-9)
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
    size = v.hand_size  # 15 in three-hand, 20 in double-deck
    deck = suit_lies(v.deck)
    rest = deck.size - sum(v.deck)
    marg = np.array([int(w) * C(rest, size - int(n)) if n <= size else 0 for w, n in zip(deck.weights, deck.sizes)],
                    dtype=object)
    # one suit's cards alone, scored by the pure-Python twin: as trump (spades), and as hearts
    e_trump = sum(m * naive_meld(list(cfg) + [0] * 18, 0, v) for m, cfg in zip(marg, deck.configs) if m)
    e_marr = sum(m * naive_meld([0] * 6 + list(cfg) + [0] * 12, 0, v) for m, cfg in zip(marg, deck.configs) if m)
    expect = Fraction(int(e_trump) + 3 * int(e_marr), C(deck.size, size))
    ev = {e.name: e for e in events(v.deck)}
    times = ["", "double_", "triple_", "quadruple_"]
    for row, what in ((4, "aces"), (5, "kings"), (6, "queens"), (7, "jacks"), (3, "pinochle")):
        names = [what + "_around" if what != "pinochle" else what] + [
            f"{times[n - 1]}{what}" for n in range(2, v.copies + 1)]
        p = [event_probability(ev[x], size, v.deck) for x in names] + [0]
        expect += sum(int(mv[row, n]) * (p[n - 1] - p[n]) for n in range(1, v.copies + 1))
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


DD = PRESETS["double-deck"].deck


def test_double_deck_closed_forms():
    """Seed 003's double-deck: 20 cards from 80 (four copies of A T K Q J, no 9s)."""
    ev = {e.name: e for e in events(DD)}
    total = C(80, 20)
    assert "nine_of_trump_given_suit" not in ev
    assert event_probability(ev["quadruple_aces"], 20, DD) == Fraction(C(64, 4), total)
    assert event_probability(ev["quadruple_pinochle"], 20, DD) == Fraction(C(72, 12), total)
    assert event_probability(ev["quadruple_run_given_suit"], 20, DD) == 1 / Fraction(total)
    assert event_probability(ev["no_aces"], 20, DD) == Fraction(C(64, 20), total)
    assert event_probability(ev["pinochle"], 20, DD) == Fraction(total - 2 * C(76, 20) + C(72, 20), total)
    # at least two QS and two JD: sum over the copies held of each
    two = sum(C(4, a) * C(4, b) * C(72, 20 - a - b) for a in range(2, 5) for b in range(2, 5))
    assert event_probability(ev["double_pinochle"], 20, DD) == Fraction(two, total)
    # two hands cannot both hold all sixteen aces: at the table, four times one hand
    assert table_probability(ev["quadruple_aces"], 4, 20, DD) == pytest.approx(
        4 * float(event_probability(ev["quadruple_aces"], 20, DD)), rel=1e-9)
    d = meld_distribution("double-deck", None)
    assert int(d.counts.sum()) == total and d.values.max() <= 4 * 300


def test_double_deck_simulation_agrees_with_exact():
    exact = exact_odds("double-deck")
    sim = simulate_meld("double-deck", deals=40_000, seed=5)
    assert sim.p_hand.keys() == exact["events"].keys()
    for name, p in exact["events"].items():
        q, se = sim.p_hand[name], sim.se_hand[name]
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
