"""Three-hand Pinochle, rule by rule from seed 002's "Three-hand rules" (RULES.md "Three-hand"),
plus the whole toolkit on it: records replayed by the independent checker, exact odds against
simulation, bid tables, advice, comparison, matches and tournaments."""
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from naive import check_record, naive_deal

import pinochle_sim as ps
from pinochle_sim.engine.auction import N_SITUATIONS, run_auction, situation
from pinochle_sim.present.cli import main
from pinochle_sim.studies.match import NO_SET_OUT, game_over, play_matches, tournament
from pinochle_sim.engine.passing import discard, new_pass_scratch
from pinochle_sim.present.show import show_record
from pinochle_sim.studies.records import match_hands, records
from pinochle_sim.engine.scoring import score_hand
from pinochle_sim.studies.simulate import play
from pinochle_sim.engine.variants import compile_variant, variant

V = variant("three-hand")


def test_preset_is_modern_scale_with_three_seats():
    # 002: 'Each player keeps a separate Score. Deal 15 cards to each player and three face-down
    # cards to the Kitty. The default Starting bid is 15.'
    assert (V.players, V.hand_size, V.kitty, V.teams) == (3, 15, 3, 3)
    assert (V.stuck_bid, V.opening_bid, V.raise_min, V.jump_bids) == (15, 16, 1, False)
    assert V.card_points == (1, 1, 1, 0, 0, 0) and V.last_trick == 1 and V.trick_total == 25
    assert V.run == (15, 150) and V.run_marriage == "included" and V.nine_of_trump == (1, 2)
    assert (V.must_head, V.must_trump, V.must_overtrump, V.min_tricks) == (True, True, True, 1)
    assert V.partner(0) is None and [V.team(p) for p in range(3)] == [0, 1, 2]
    # the seed's own name for the trick requirement is accepted
    assert variant("three-hand:required_tricks=0").min_tricks == 0
    with pytest.raises(ps.VariantError, match="only partners pass cards"):
        variant("three-hand:pass_cards=3")


def test_deal_fifteen_each_and_a_kitty_of_three():
    d = ps.deal(50, seed=3, v=V)
    assert d.shape == (50, 4, 24)
    assert (d[:, :3].sum(axis=2) == 15).all() and (d[:, 3].sum(axis=1) == 3).all()
    assert (d.sum(axis=1) == 2).all()  # the deck is conserved
    # the same shuffle as four-hand, cut into blocks of 15 (the pure-Python dealer's deck order)
    four = naive_deal(3, 0)
    flat = sorted(k for hand in four for k in hand)
    assert sorted(np.repeat(np.arange(24), d[0].sum(axis=0))) == flat


def auction3(dealer, worth):
    calls = np.zeros((100, 2), np.int32)
    limits = np.repeat(np.array(worth, float)[:, None], N_SITUATIONS, axis=1)
    bidder, bid, n, _ = run_auction(dealer, limits, np.zeros(3), compile_variant(V), calls, np.zeros(3, np.bool_))
    return bidder, bid, [[int(s), None if b < 0 else int(b)] for s, b in calls[:n]]


def test_auction_as_modern_with_three_seats():
    # 002: bidding starts left of the dealer, 'each raise adds one', a pass is final
    b, bid, calls = auction3(0, [0, 18, 17])
    assert calls == [[1, 16], [2, 17], [0, None], [1, 18], [2, None]] and (b, bid) == (1, 18)
    # RULES.md: 'if both other seats pass, the dealer takes it at 15'
    b, bid, calls = auction3(2, [0, 0, 0])
    assert (b, bid) == (2, 15) and calls == [[0, None], [1, None]]
    # no partners: a seat facing a bid always sees an opponent's bid
    assert situation(0, 1, np.zeros(3, np.bool_), -1) == 3


def test_discard_keeps_meld_and_winners_and_buries_counters():
    # 002: 'Discard 3 cards. Any three cards may be discarded.' The policy keeps the run, the
    # aces and the marriage K+Q of hearts, buries the king and ten an ace would catch (KC, TD),
    # then the low card of its shortest side suit (9C).
    hand = ps.hand_counts("AS TS KS QS JS 9S AH KH AD TD KC 9C AC QH JD 9H 9D 9S", 18)
    out = np.zeros(3, np.int8)
    left = hand.copy()
    discard(left, 0, 3, compile_variant(V), out, new_pass_scratch())
    buried = sorted(ps.engine.cards.card_name(int(k)) for k in out)
    assert buried == ["9C", "KC", "TD"], buried
    assert int(left.sum()) == 15 and all(left[ps.parse_card(c)] for c in ("AS", "TS", "KS", "QS", "JS"))


def score3(bidder, bid, meld, points, tricks, v=V):
    out = np.zeros(3, np.int64)
    made = score_hand(bidder, bid, np.array(meld), np.zeros(3, np.int64), np.array(points),
                      np.array(tricks), np.array(points), compile_variant(v).rules, out)
    return made, out.tolist()


def test_scoring_each_seat_on_its_own():
    # 002: 'The bid winner must make the Bid and win the Required tricks. Otherwise, subtract the
    # Bid from their Score. The other players normally add their own Meld and Points.'
    assert score3(0, 20, [12, 6, 4], [10, 8, 7], [6, 5, 4]) == (1, [22, 14, 11])
    assert score3(0, 25, [12, 6, 4], [10, 8, 7], [6, 5, 4]) == (0, [-25, 14, 11])
    # RULES.md: a seat that won no trick banks nothing
    assert score3(1, 20, [12, 16, 4], [13, 12, 0], [9, 6, 0]) == (1, [25, 28, 0])


def test_a_bidder_without_its_trick_leaves_the_others_nothing():
    # 002: 'If the bid winner fails to take the Required tricks, the other players score nothing
    # for that hand.' (its meld and discard reach the bid, but it took no trick)
    assert score3(2, 16, [3, 6, 30], [12, 11, 2], [9, 6, 0]) == (0, [0, 0, -16])
    # switched off, they bank as usual
    v = variant("three-hand:short_voids_others=false")
    assert score3(2, 16, [3, 6, 30], [12, 11, 2], [9, 6, 0], v) == (0, [15, 17, -16])


def end3(hands):
    total = np.zeros(3, np.int64)
    for i, (scores, bidder) in enumerate(hands, 1):
        total += scores
        w = game_over(total, bidder, V.target, V.both_past == "higher_wins", NO_SET_OUT)
        if w >= 0:
            return w, i
    return -1, len(hands)


def test_game_end_a_bid_winner_at_the_target_wins():
    # 002: 'The game ends when a player reaches the target Score. A bid winner who reaches the
    # target wins. Otherwise, the player with the highest Score wins.'
    assert end3([([140, 0, 0], 0), ([0, 155, 12], 1)]) == (1, 2)
    assert end3([([140, 145, 0], 0), ([12, 8, 10], 1)]) == (1, 2)  # the bidder wins, lower or not
    assert end3([([140, 145, 0], 0), ([14, 8, -20], 2)]) == (0, 2)  # bidder short: highest wins
    # RULES.md: a tie for that highest score plays on
    assert end3([([140, 140, 0], 0), ([10, 10, -20], 2)]) == (-1, 2)


def test_records_replay_clean_from_the_command_line(tmp_path):
    # the check: play 300 deals with either policy, then the independent checker
    for policy in ("heuristic", "random"):
        out = tmp_path / f"{policy}.jsonl"
        assert main(["play", "--variant", "three-hand", "--deals", "300", "--seed", "11", "--policy",
                     policy, "--out", str(out)]) == 0
        recs = [json.loads(line) for line in out.read_text().splitlines()]
        assert len(recs) == 300
        for rec in recs:
            check_record(rec, V)
    rec = recs[0]
    assert set(rec) >= {"kitty", "discard", "passes"} and rec["passes"] == []
    assert len(rec["hands"]) == len(rec["meld"]) == len(rec["score"]) == 3
    assert all(len(t["cards"]) == 3 for t in rec["tricks"]) and len(rec["tricks"]) == 15


def test_the_discard_counts_for_the_bid_winner_and_every_option_stays_switchable():
    # 002: 'Discarded As, 10s, and Ks count toward the bid winner's Points.'
    df = play(V, 3000, seed=4, bidding="formula")
    played = df[~df.thrown_in]
    assert (played[["points_0", "points_1", "points_2"]].sum(axis=1) == 25).all()
    assert played.discard_points.max() == 3 and (played.discard_points > 0).mean() > 0.5
    off = play("three-hand:discard_counts=false", 3000, seed=4, bidding="formula")
    kept = off[~off.thrown_in]  # the discard's points then count for nobody
    assert (kept[["points_0", "points_1", "points_2"]].sum(axis=1) + kept.discard_points == 25).all()
    assert kept.discard_points.max() == 3
    # the classic scale, as the example
    v = variant("three-hand:card_points=10/10/10/0/0/0,last_trick=10")
    for rec in records(v, deals=20, seed=2, bidding="formula"):
        check_record(rec, v)


def test_show_record_names_seats_and_the_kitty():
    text = show_record(records(V, 1, seed=1, bidding="formula")[0])
    assert "kitty:" in text and "takes the kitty and discards" in text and "team" not in text
    assert "trick 15" in text and "score: seat 0" in text


def test_exact_meld_odds_of_fifteen_and_eighteen_cards_match_simulation():
    from pinochle_sim.studies.odds import EVENTS, event_probability, exact_odds, simulate_meld
    ev = {e.name: e for e in EVENTS}
    # counted by hand: all eight aces in 15 cards, no ace at all in 18
    assert event_probability(ev["double_aces"], 15) == Fraction(math.comb(40, 7), math.comb(48, 15))
    assert event_probability(ev["no_aces"], 18) == Fraction(math.comb(40, 18), math.comb(48, 18))
    for with_kitty, deals in ((False, 60_000), (True, 60_000)):
        exact = exact_odds(V, with_kitty)
        sim = simulate_meld(V, deals, seed=3, with_kitty=with_kitty)
        for name, p in exact["events"].items():
            se = sim.se_hand[name]
            assert abs(sim.p_hand[name] - p) < 4.5 * se + 1e-4, (with_kitty, name)
        m, se = sim.mean_meld["best_trump"], sim.se_mean_meld["best_trump"]
        assert abs(m - exact["mean_meld_best_trump"]) < 4.5 * se
    # at the table: some one of the three 15-card hands
    assert exact_odds(V)["events_at_table"]["aces_around"] == pytest.approx(
        simulate_meld(V, 60_000, seed=4).p_table["aces_around"], abs=0.006)


def test_bid_table_advice_compare_and_matches():
    stats = ps.declarer_stats(V, deals=3000, seed=2)
    assert int(stats.cube.sum()) == 9000 and stats.provenance()["declarers_per_deal"] == 3
    assert ps.partner_adds(stats).loc["partner_meld", "mean"] == 0
    a = ps.advise("AS TS KS QS JS 9S AH TH KH QH AD KD QD AC KC", V, deals=300, seed=1)
    assert a["melds"][0]["named_after_kitty"]["S"] > 0.9 and a["recommended_bid"] >= 40
    with pytest.raises(ValueError, match="dealt alike"):
        ps.compare(["three-hand", "modern"], deals=100)
    df = play_matches(V, "formula", "meld+20", "tricks", matches=20, seed=3)
    assert list(df.columns[-3:]) == ["bids_0", "bids_1", "bids_2"] and (df.winner < 3).all()
    recs = match_hands(V, 3, "formula", "meld+20", "tricks", m=5)
    assert recs[-1]["totals"] == [df.score_0[5], df.score_1[5], df.score_2[5]]
    first = recs[0]["dealer"]  # the deal moves left each hand
    assert [r["dealer"] for r in recs] == [(first + h) % 3 for h in range(len(recs))]
    t = tournament(V, ["formula", "meld+20", "tricks"], matches=30, seed=2).table
    assert len(t) == 3 and t.win_rate.sum() == pytest.approx(1.0)
