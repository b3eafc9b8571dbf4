"""The double-dummy solver against exhaustive minimax (``naive.naive_double_dummy``) on random
endgames of 2-4 tricks, partial tricks on the table, in every variant (issue 14)."""
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from naive import (RANKS, SUITS, names, naive_double_dummy, naive_follow, naive_lead, naive_legal, naive_sure_trumps,
                   side, winning_card)

import pinochle_sim as ps
from pinochle_sim.engine.cards import hand_counts
from pinochle_sim.engine.play import to_masks
from pinochle_sim.engine.search import (MEMO, Position, first_guess, memo_suit_key, new_space, rel_key, suit_key,
                                        sure_trumps)
from pinochle_sim.engine.variants import PLAYABLE, PRESETS, R, compile_variant
from pinochle_sim.studies.dd import double_dummy, trick_value
from pinochle_sim.studies.records import hands_at


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


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_double_dummy_equals_exhaustive_minimax(name):
    v = PRESETS[name]
    rng = random.Random(sum(map(ord, name)))  # the same cases every run
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


def naive_playout(hands, leader, trump, v):
    """The points the side of ``leader`` takes from a trick start when every seat plays the plain
    heuristic seeing every card (``naive_lead``/``naive_follow``), that side as declarer."""
    kind = {RANKS[k % 6] + SUITS[k // 6]: k for k in range(24)}
    points = v.card_points
    hands = [list(h) for h in hands]
    me = side(leader, v)
    got = 0
    while hands[leader]:
        trick = []
        for j in range(v.players):
            s = (leader + j) % v.players
            unseen = {kind[c] for o in range(v.players) if o != s for c in hands[o]}
            held = [kind[c] for c in hands[s]]
            if not trick:
                card = naive_lead(set(held), {k for k in held if held.count(k) > 1}, unseen, SUITS.index(trump),
                                  side(s, v) == me, points, 1, set())
            else:
                legal = sorted(kind[c] for c in naive_legal(hands[s], trick, trump, v))
                w = winning_card(trick, trump)
                win, by = kind[trick[w]], (leader + w) % v.players
                last = j == v.players - 1
                boss = not any(u // 6 == win // 6 and u % 6 < win % 6 for u in unseen)
                safe = v.players == 4 and by == (s + 2) % 4 and (last or boss)
                card = legal[0] if len(legal) == 1 else naive_follow(legal, unseen, SUITS.index(trump), last, win,
                                                                     safe, points)
            name = RANKS[card % 6] + SUITS[card // 6]
            hands[s].remove(name)
            trick.append(name)
        leader = (leader + winning_card(trick, trump)) % v.players
        if side(leader, v) == me:
            got += sum(points[RANKS.index(c[0])] for c in trick) + (v.last_trick if not hands[0] else 0)
    return got


@pytest.mark.parametrize("name", ["classic", "thousand", "three-hand"])
def test_first_guess_is_the_heuristic_played_with_every_card_in_view(name):
    """MTD(f)'s first guess (``search.first_guess``) against its twin: every seat plays the plain
    heuristic from a trick start, seeing the cards in the other hands, the leader's side as
    declarer; the hands are left as they were."""
    v = PRESETS[name]
    tb = compile_variant(v)
    rng = random.Random(7)
    for _ in range(20):
        deal = ps.deal(1, seed=rng.randrange(10**6), v=v)[0]
        size = rng.randrange(2, 9)
        hands = [rng.sample(names(deal[p]), size) for p in range(v.players)]
        trump, leader = rng.choice(SUITS), rng.randrange(v.players)
        h1, h2 = np.zeros(v.players, np.int64), np.zeros(v.players, np.int64)
        for s, hand in enumerate(hands):
            h1[s], h2[s] = to_masks(hand_counts(" ".join(hand)))
        before = h1.copy(), h2.copy()
        cards = sum(map(len, hands))
        left = sum(v.card_points[RANKS.index(c[0])] for hand in hands for c in hand)
        got = first_guess(h1, h2, Position(leader, 0, 0, -1, -1, 0, 0, cards, left), SUITS.index(trump),
                          tb.team[leader], tb, new_space(cards))
        assert got == naive_playout(hands, leader, trump, v), (hands, leader, trump)
        assert (h1 == before[0]).all() and (h2 == before[1]).all()


def test_four_copies_of_a_card_equal_exhaustive_minimax():
    """Seed 003's double-deck (RULES.md "Double-deck"): endgames dealt from four copies of four
    kinds, so that hands hold three and four copies of a card and its copies lie in several
    hands (the solver's keys and its merging of equivalent cards over four copies), against
    exhaustive minimax."""
    v = PRESETS["double-deck"]
    rng = random.Random(34)
    most = 0
    for case in range(24):
        tricks = 2 if case < 12 else 3
        kinds = rng.sample([r + s for s in SUITS for r in "ATKQJ"], 4)
        pool = rng.sample([k for k in kinds for _ in range(4)], 4 * tricks)
        hands = [pool[p * tricks:(p + 1) * tricks] for p in range(4)]
        most = max(most, *(h.count(c) for h in hands for c in h))
        trump, leader = rng.choice(SUITS), rng.randrange(4)
        trick = []
        for k in range(rng.randrange(4)):
            seat = (leader + k) % 4
            card = rng.choice(sorted(naive_legal(hands[seat], trick, trump, v)))
            hands[seat].remove(card)
            trick.append(card)
        want = naive_double_dummy(hands, trick, leader, trump, v)
        assert double_dummy([" ".join(h) for h in hands], trump, leader, v, trick).values == want, (hands, trick)
    assert most >= 3


def _thinned_deals(v, rng, n):
    """``n`` deals of ``v`` with some cards of each hand played at random: each hand's counts."""
    out = []
    for _ in range(n):
        deal = ps.deal(1, seed=rng.randrange(10**6), v=v)[0]
        counts = [np.array(deal[p]) for p in range(v.players)]
        for c in counts:
            for k in range(24):
                c[k] = rng.randint(0, int(c[k]))
        out.append(counts)
    return out


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_sure_trumps_equal_their_naive_twin(name):
    """The sure trumps that bound the search (read from masks) against counting them rank by
    rank, on hands dealt and thinned at random (double-deck: up to four copies in one hand)."""
    v = PRESETS[name]
    tb = compile_variant(v)
    rng = random.Random(sum(map(ord, name)) + 7)
    for counts in _thinned_deals(v, rng, 200):
        h1, h2 = np.array([to_masks(c) for c in counts], np.int64).T
        trump, team = rng.randrange(4), rng.randrange(v.teams)
        want = naive_sure_trumps(counts, trump, team, v)
        assert sure_trumps(h1.copy(), h2.copy(), trump, tb.card_points, tb.team, team) == want, (counts, trump)


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_the_memo_of_the_key_gives_each_suits_part(name):
    """The search reads each suit's part of the key through a memo (``memo_suit_key``): on hands
    dealt and thinned at random (double-deck: up to four copies in one hand, read from both masks'
    high bits), every read, the first and those that find it in the memo, gives the part as
    ``suit_key`` makes it, in a memo so small that entries keep replacing one another too."""
    v = PRESETS[name]
    tb = compile_variant(v)
    base = tb.rules[R.copies] + 1
    rng = random.Random(sum(map(ord, name)) + 11)
    small = np.zeros(3 * 4, np.uint64)
    full = np.zeros(3 * MEMO, np.uint64)
    seen = [np.array([to_masks(c) for c in counts], np.int64).T for counts in _thinned_deals(v, rng, 150)]
    for h1, h2 in seen + seen[::-1]:
        for suit in range(4):
            want = suit_key(h1, h2, suit, tb.point_class, base)
            assert memo_suit_key(h1, h2, suit, tb.point_class, base, full) == want
            assert memo_suit_key(h1, h2, suit, tb.point_class, base, small) == want


def test_the_key_tells_apart_every_lie_of_four_copies():
    """Double-deck: the relative-rank key names who holds how many of a card's copies still out,
    so every way of placing one to four copies in the four hands has its own key (read in base 3,
    as two copies need, [1, 0, 0, 3] and [0, 3, 1, 0] would share one; with the third and fourth
    copies unread, [3, 0, 0, 0] and [2, 0, 0, 0])."""
    tb = compile_variant(PRESETS["double-deck"])
    keys = set()
    lies = [c for c in itertools.product(range(5), repeat=4) if 1 <= sum(c) <= 4]
    for lie in lies:
        h1, h2 = np.array([to_masks(hand_counts(" ".join(["AS"] * n), deck=(4, 4, 4, 4, 4, 0))) if n else (0, 0)
                           for n in lie], np.int64).T
        keys.add(rel_key(h1.copy(), h2.copy(), 0, tb.point_class, tb.rules[R.copies] + 1))
    assert len(keys) == len(lies)


def test_positions_that_shared_a_table_key():
    """The first version keyed its table by (leader + 1) xor seat 0's mask, so seat 0 holding
    TS AH with seat 0 to lead and seat 0 holding AS AH with seat 1 to lead (the rest alike)
    collided; in this endgame TS came out 5 where exhaustive minimax says 4."""
    hands = [["AS", "AH", "TS", "QH"], ["QD", "AS", "AC", "9H"], ["9S", "QC", "TH", "JS"]]
    v = PRESETS["three-hand"]
    want = naive_double_dummy(hands, [], 0, "S", v)
    assert double_dummy([" ".join(h) for h in hands], "S", 0, v).values == want == {
        "AS": 7, "TS": 4, "AH": 7, "QH": 4}


def test_positions_one_relative_key_holds():
    """The table is keyed by relative rank (issue 36): with the other ace and both tens of spades
    gone, an ace of spades where a ten was is the same position in classic (both worth one
    point; one key, one value), not in thousand (eleven against ten); so are both aces in one
    hand and its ace and ten."""
    a = [["AS", "QS", "9H"], ["KS", "JH", "AD"], ["JS", "TH", "KD"], ["9S", "QH", "AC"]]
    b = [["TS" if c == "AS" else c for c in h] for h in a]
    # both aces of spades in one hand, or its ace and ten (the others played): a group of two
    c = [["AS", "AS", "9H"], ["KS", "JH", "AD"], ["JS", "TH", "KD"], ["9S", "QH", "AC"]]
    d = [["AS", "TS", "9H"], ["KS", "JH", "AD"], ["JS", "TH", "KD"], ["9S", "QH", "AC"]]
    for name in ("classic", "thousand"):
        v = PRESETS[name]
        tb = compile_variant(v)
        for one, other, card in ((a, b, "TS"), (c, d, "AS")):
            keys = []
            for hands in (one, other):
                h1, h2 = np.array([to_masks(hand_counts(h)) for h in hands]).T
                keys.append(rel_key(h1, h2, 0, tb.point_class, 3))
            values = [naive_double_dummy(h, [], 0, "H", v) for h in (one, other)]
            assert [double_dummy([" ".join(x) for x in h], "H", 0, v).values for h in (one, other)] == values
            assert (values[0]["AS"] == values[1][card]) == (keys[0] == keys[1]) == (name == "classic")


def test_values_as_the_solver_gave_before_its_speed_work():
    """Every card's exact value in 120 positions five tricks from the end (trick starts and partial
    tricks; classic, three-hand, modern, classic-pass4, modern-15; records of seed 3), as the
    solver gave them before issue 36 changed its keys and compiling (``data/dd_values.json``):
    deeper than exhaustive minimax can check here."""
    cases = json.loads((Path(__file__).parent / "data" / "dd_values.json").read_text())
    for c in cases:
        got = double_dummy(c["hands"], c["trump"], c["leader"], c["variant"], c["trick"])
        assert got.values == c["values"], c


def test_double_dummy_checks_its_input():
    with pytest.raises(ValueError, match="4 seats"):
        double_dummy(["AS", "TS", "KS"], "S", 0, "classic")
    with pytest.raises(ValueError, match="evenly"):
        double_dummy(["AS 9S", "TS", "KS", "QS"], "S", 0, "classic")


@pytest.mark.parametrize("name", ["classic-pass4", "three-hand"])
def test_hands_at_a_trick_of_a_record(name):
    from naive import final_hands

    from pinochle_sim.studies.records import hands_at, records
    v = PRESETS[name]
    for rec in records(v, 15, seed=4, bidding="formula"):
        if rec["bidder"] is None:
            continue
        assert sorted(map(sorted, hands_at(rec, 0))) == sorted(map(sorted, final_hands(rec)))
        assert [len(h) for h in hands_at(rec, 5)] == [v.hand_size - 5] * v.players


def test_dd_command_solves_a_record_trick_by_trick(tmp_path, capsys):
    from pinochle_sim.present.cli import main
    out = tmp_path / "hands.jsonl"
    assert main(["play", "-v", "classic", "--deals", "2", "--seed", "5", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["dd", "--record", str(out), "--deal", "1", "--from-trick", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 4 and "trick 12" in lines[-1]
    assert lines[-1].endswith("(+0 for the leader's side)")  # one card each: nothing to choose
    assert main(["play", "-v", "three-hand", "--deals", "3", "--seed", "2", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["dd", "--record", str(out), "--deal", "2", "--from-trick", "11"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 4 and lines[-1].endswith("(+0 for the leader's side)")


def test_trick_value_speaks_for_either_side():
    """The two sides' values from the same trick start share the points still to take."""
    rng = random.Random(3)
    for name in ("classic", "three-hand"):
        v = PRESETS[name]
        hands, trick, leader, trump = endgame(v, rng, 3)
        for k, card in enumerate(trick):  # back to the start of the trick
            hands[(leader + k) % v.players].append(card)
        total = sum(v.card_points["AT KQJ9".replace(" ", "").index(c[0])] for h in hands for c in h) + v.last_trick
        values = [trick_value(hands, trump, leader, v, s) for s in range(v.players)]
        assert values[leader] == double_dummy([" ".join(h) for h in hands], trump, leader, v).points
        if v.players == 4:
            assert values[0] + values[1] == total


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_dd_column_from_the_last_trick_is_the_points_taken(name):
    """The last trick is forced, so double dummy from it changes nothing: ``dd_points`` equals
    the bid winner's side's trick points (a counting discard included)."""
    from pinochle_sim.engine.hand import side_of
    from pinochle_sim.studies.simulate import play
    v = PRESETS[name]
    df = play(v, 150, seed=2, bidding="formula", dd_from=v.hand_size - 1)
    done = df[~df.thrown_in & (df.playing_1000 == 0)]
    side = side_of(v, done.bidder.to_numpy())
    points = done[[f"points_{s}" for s in range(v.players if v.players == 3 else 2)]].to_numpy()
    assert (done.dd_points.to_numpy() == points[np.arange(len(done)), side]).all()
    assert (df.dd_points[df.thrown_in] == -1).all()


@pytest.mark.parametrize("name", ["classic-pass4", "three-hand"])
def test_dd_column_equals_the_solver_on_the_records(name):
    """``simulate --dd``'s kernel against ``double_dummy`` on the same hands rebuilt from the hand
    records (four tricks played by the heuristic first; six in three-hand, whose 15-card hands
    take the solver seconds from trick 4)."""
    from pinochle_sim.studies.records import records
    from pinochle_sim.studies.simulate import play
    v = PRESETS[name]
    start = 4 if v.players == 4 else 6
    df = play(v, 30, seed=6, dd_from=start)
    checked = 0
    for rec, dd in zip(records(v, 30, seed=6), df.dd_points):
        if rec["bidder"] is None:
            continue
        leader = rec["tricks"][start]["leader"]
        team = (lambda s: s) if v.players == 3 else (lambda s: s % 2)
        if team(leader) != team(rec["bidder"]):
            if v.players == 3:
                continue  # the solver speaks for the seat to play
        solved = double_dummy([" ".join(h) for h in hands_at(rec, start)], rec["trump"], leader, v).points
        rest = sum(t["points"] for t in rec["tricks"][start:])
        side_rest = solved if team(leader) == team(rec["bidder"]) else rest - solved
        before = sum(t["points"] for t in rec["tricks"][:start] if team(t["winner"]) == team(rec["bidder"]))
        discard = sum(v.card_points["ATKQJ9".index(c[0])] for c in rec.get("discard") or []) \
            if v.discard_counts else 0
        assert dd == before + side_rest + discard, rec["deal"]
        checked += 1
    assert checked >= 5


def test_simulate_dd_command(tmp_path, capsys):
    import pandas as pd

    from pinochle_sim.present.cli import main
    out = tmp_path / "s.parquet"
    assert main(["simulate", "-v", "classic", "--deals", "20", "--seed", "1", "--dd", "8", "-q",
                 "--out", str(out)]) == 0
    df = pd.read_parquet(out)
    assert "dd_points" in df and json.loads((tmp_path / "s.parquet.json").read_text())["dd_from"] == 8
    assert main(["simulate", "-v", "classic", "--deals", "20", "--dd", "12", "--out", str(tmp_path / "x.parquet")]) == 2
    assert "--dd is a trick number from 0 to 11" in capsys.readouterr().err
    assert not (tmp_path / "x.parquet").exists()


@pytest.mark.parametrize("name", ["classic-pass4", "three-hand"])
def test_declarer_simulation_double_dummy_from_the_last_trick_changes_nothing(name):
    from pinochle_sim.studies.declarer import declarer_stats
    from pinochle_sim.studies.tables import bid_table
    v = PRESETS[name]
    s = declarer_stats(v, 300, seed=4, dd_from=v.hand_size - 1)
    assert s.moments.sum() > 0 and np.array_equal(s.dd_moments, s.moments)
    t = bid_table(s)
    assert np.allclose(t.mean_total_dd, t.mean_total, equal_nan=True)


def test_bid_table_dd_command(tmp_path, capsys):
    from pinochle_sim.present.cli import main
    assert main(["bid-table", "-v", "classic", "--deals", "1000", "--seed", "3", "--dd", "10", "-q",
                 "--csv", str(tmp_path / "t.csv")]) == 0
    assert "double dummy from trick 10" in capsys.readouterr().out
    assert "mean_total_dd" in (tmp_path / "t.csv").read_text()
    assert main(["bid-table", "-v", "classic", "--deals", "1000", "--dd", "12"]) == 2
