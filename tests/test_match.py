"""Matches: every game-end rule on hand-made score sequences, duplicate pairing, strategies."""
import json

import numpy as np
import pytest

import pinochle_sim as ps
from pinochle_sim.present.cli import main
from pinochle_sim.studies.match import NO_SET_OUT, calibration, duplicate, game_over, play_matches, tournament
from pinochle_sim.studies.records import match_hands
from pinochle_sim.studies.strategies import Formula, Strategy, StrategyError, register, strategy


def end(name, hands):
    """Replay (score0, score1, bidder team) hand results; return (winner, hands played)."""
    v = ps.variant(name)
    total = [0, 0]
    for i, (a, b, bt) in enumerate(hands, 1):
        total = [total[0] + a, total[1] + b]
        w = game_over(np.array(total), bt, v.target, v.both_past == "higher_wins",
                      NO_SET_OUT if v.set_out is None else v.set_out)
        if w >= 0:
            return w, i
    return -1, len(hands)


def test_target_reached_by_one_side():
    # seed 000: 'Play hands until a side reaches a thousand points.'
    assert end("thousand", [(400, 100, 0), (400, 100, 0), (250, 50, 0)]) == (0, 3)
    assert end("classic", [(800, 0, 0), (0, 800, 1), (0, 750, 1)]) == (1, 3)  # seed 003: 1500


def test_scores_compared_only_at_the_end_of_a_hand():
    # the running total never passes mid-hand: only hand totals count
    assert end("thousand", [(999, 0, 0), (0, 0, 1)]) == (-1, 2)


def test_thousand_both_past_higher_wins_and_a_tie_plays_on():
    # seed 000: 'If both sides are at or past a thousand, whoever has more wins. An exact tie
    # continues to another hand.'
    assert end("thousand", [(900, 900, 0), (150, 120, 1)]) == (0, 2)
    assert end("thousand", [(900, 900, 0), (100, 120, 0)]) == (1, 2)
    assert end("thousand", [(900, 900, 0), (150, 150, 1), (10, 0, 0)]) == (0, 3)


def test_thousand_set_out():
    # seed 000: 'A side at minus a thousand or lower is set out: the match ends after that hand,
    # and the higher score wins.'
    assert end("thousand", [(-600, 200, 0), (-400, 100, 0)]) == (1, 2)
    assert end("thousand", [(-990, 200, 0), (-5, 100, 0)]) == (-1, 2)


def test_bidding_side_wins_when_both_pass_the_target():
    # seed 003: 'If both cross the line, the bidding team is checked first'; seed 002 likewise
    assert end("classic", [(1400, 1400, 0), (150, 200, 1)]) == (1, 2)
    assert end("classic", [(1400, 1400, 0), (200, 150, 0)]) == (0, 2)
    assert end("modern", [(140, 140, 0), (15, 20, 0)]) == (0, 2)  # bidders win with less
    assert end("classic-pass4", [(1490, 1000, 1), (-300, 600, 1)]) == (1, 2)


def test_matches_follow_the_rules():
    df = play_matches("thousand", "formula", "formula", matches=300, seed=5)
    assert (df.winner >= 0).all()
    won0 = df.winner == 0
    assert ((df.score_0 >= 1000) | (df.score_1 <= -1000))[won0].all()
    both = (df.score_0 >= 1000) & (df.score_1 >= 1000)
    assert (df.score_0 > df.score_1)[both & won0].all()


def test_match_hands_agree_with_the_kernel():
    df = play_matches("classic", "formula", "meld+20", matches=3, seed=9)
    for m in range(3):
        recs = match_hands("classic", 9, "formula", "meld+20", m=m)
        assert len(recs) == df.hands[m]
        assert recs[-1]["totals"] == [df.score_0[m], df.score_1[m]]
        assert recs[-1]["winner"] == df.winner[m]
        assert [r["dealer"] for r in recs] == [h % 4 for h in range(len(recs))]


def test_a_strategy_against_itself_has_no_edge():
    s = duplicate("classic", "formula", "formula:aggression=1.0000001", 400, seed=3).summary()
    assert abs(s["win_rate_a"] - 0.5) < 3 * s["win_rate_se"] + 0.01
    assert abs(s["margin_per_hand_a"]) < 3 * s["margin_se"] + 0.5


def test_duplicate_swaps_seats_on_the_same_deals():
    p = duplicate("thousand", "table", "meld+20", 50, seed=2)
    assert (p.a_first.match == p.b_first.match).all()
    t = tournament("thousand", ["table", "meld+20", "tricks"], matches=60, seed=2)
    m, se = t.payoff()
    assert np.allclose(m.to_numpy(), -m.to_numpy().T) and (np.diag(m) == 0).all()


def test_strategy_specs_and_hook():
    assert strategy("table:conf=0.8").conf == 0.8 and strategy("cautious").conf == 0.8
    assert strategy("formula:aggression=1.2").spec == "formula:aggression=1.2"
    for bad, msg in (("tabel", "did you mean 'table'"), ("table:conf=2", "conf must be"),
                     ("table:speed=1", "bad parameter"), ("formula:base=x", "not a number")):
        with pytest.raises(StrategyError, match=msg):
            strategy(bad)

    class NeverBid(Strategy):
        def limit(self, meld, aces, tens, trumps, v):
            return np.full(meld.shape, np.nan)
    register("never", NeverBid)
    df = ps.play("classic", 200, seed=1, bidding="never")
    assert df.thrown_in.all()
    df = ps.play("classic", 200, seed=1, bidding=["never", Formula(), "never", Formula()])
    assert set(df.bidder[~df.thrown_in] % 2) <= {1}


def test_calibration_table():
    c = calibration("classic", "table", deals=4000, seed=4).bins
    assert c.contracts.sum() > 100 and ((c.predicted >= 0) & (c.predicted <= 1)).all()
    with pytest.raises(ValueError):
        calibration("classic", "meld+20", deals=100)


def test_cli(capsys):
    assert main(["tournament", "--variant", "classic", "--strategies", "table:conf=0.67",
                 "meld+20", "cautious", "--matches", "50", "--seed", "1", "-q", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["pairings"]) == 3 and out["duplicate"]
    assert main(["match", "--variant", "thousand", "--seed", "3"]) == 0
    assert "wins" in capsys.readouterr().out
    assert main(["match", "--variant", "thousand", "--seed", "3", "--show"]) == 0
    assert "running totals" in capsys.readouterr().out
    assert main(["tournament", "--strategies", "tabel", "meld+20"]) == 2
    assert "unknown strategy 'tabel'" in capsys.readouterr().err


def test_cli_calibrate(tmp_path, capsys):
    assert main(["calibrate", "--variant", "classic", "--deals", "3000", "--seed", "2",
                 "--csv", str(tmp_path / "c.csv"), "--plot", str(tmp_path / "c.png")]) == 0
    assert "mean predicted" in capsys.readouterr().out and (tmp_path / "c.png").exists()
    assert main(["calibrate", "--strategy", "meld+20", "--deals", "100"]) == 2
