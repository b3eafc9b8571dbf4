"""The double-dummy solver against exhaustive minimax (``naive.naive_double_dummy``) on random
endgames of 2-4 tricks, partial tricks on the table, in every variant (issue 14)."""
import random

import pytest
from naive import SUITS, names, naive_double_dummy, naive_legal

import pinochle_sim as ps
from pinochle_sim.dd import double_dummy
from pinochle_sim.variants import PRESETS


def endgame(v, rng, tricks):
    """Random hands of ``tricks`` cards from one dealt deal (three-hand: its three hands), a
    random trump and leader, and 0 to seats-1 legal cards already played to the trick."""
    deal = ps.deal(1, seed=rng.randrange(10**6), v=v)[0]
    hands = [rng.sample(names(deal[p]), tricks) for p in range(v.players)]
    trump, leader = rng.choice(SUITS), rng.randrange(v.players)
    trick = []
    for k in range(rng.randrange(v.players)):
        seat = (leader + k) % v.players
        card = rng.choice(sorted(naive_legal(hands[seat], trick, trump, v)))
        hands[seat].remove(card)
        trick.append(card)
    return hands, trick, leader, trump


@pytest.mark.parametrize("name", list(PRESETS))
def test_double_dummy_equals_exhaustive_minimax(name):
    v = PRESETS[name]
    rng = random.Random(hash(name) % 1000)
    for case in range(30):
        tricks = 2 if case < 12 else 3 if case < 24 else 4
        hands, trick, leader, trump = endgame(v, rng, tricks)
        want = naive_double_dummy(hands, trick, leader, trump, v)
        got = double_dummy([" ".join(h) for h in hands], trump, leader, v, trick)
        assert got.values == want, (hands, trick, leader, trump)
        assert got.points == max(want.values())
        assert set(got.best) == {c for c, x in want.items() if x == got.points}
        fast = double_dummy([" ".join(h) for h in hands], trump, leader, v, trick, exact=False)
        assert (fast.points, sorted(fast.best)) == (got.points, sorted(got.best))
        assert all(x <= got.points for x in fast.values.values())


def test_double_dummy_checks_its_input():
    with pytest.raises(ValueError, match="4 seats"):
        double_dummy(["AS", "TS", "KS"], "S", 0, "classic")
    with pytest.raises(ValueError, match="evenly"):
        double_dummy(["AS 9S", "TS", "KS", "QS"], "S", 0, "classic")


@pytest.mark.parametrize("name", ["classic-pass4", "three-hand"])
def test_hands_at_a_trick_of_a_record(name):
    from naive import final_hands

    from pinochle_sim.records import hands_at, records
    v = PRESETS[name]
    for rec in records(v, 15, seed=4, bidding="formula"):
        if rec["bidder"] is None:
            continue
        assert sorted(map(sorted, hands_at(rec, 0))) == sorted(map(sorted, final_hands(rec)))
        assert [len(h) for h in hands_at(rec, 5)] == [v.hand_size - 5] * v.players


def test_dd_command_solves_a_record_trick_by_trick(tmp_path, capsys):
    from pinochle_sim.cli import main
    out = tmp_path / "hands.jsonl"
    assert main(["play", "-v", "classic", "--deals", "2", "--seed", "5", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["dd", "--record", str(out), "--deal", "1", "--from-trick", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 4 and "trick 12" in lines[-1]
    assert lines[-1].endswith("(+0 for the leader's team)")  # one card each: nothing to choose
    assert main(["play", "-v", "three-hand", "--deals", "1", "--out", str(out)]) == 0
    assert main(["dd", "--record", str(out)]) == 2
