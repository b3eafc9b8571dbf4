"""The full-hand simulator: every recorded play legal (independent checker), cards conserved,
trick points total, scores follow the rules, records replay; reproducible; streaming output."""
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import check_record

import pinochle_sim as ps
from pinochle_sim.present.cli import main
from pinochle_sim.present.show import show_record
from pinochle_sim.studies.records import FIELDS, records
from pinochle_sim.studies.simulate import Setup, play, simulate
from pinochle_sim.engine.deal import BLOCK
from pinochle_sim.engine.hand import _span
from pinochle_sim.engine.variants import DECK48, PLAYABLE, PRESETS


@pytest.mark.parametrize("name,policy", [(name, policy) for name in PLAYABLE
                                         for policy in ("random", "heuristic", "contract", "pimc:worlds=3")])
def test_records_obey_every_rule(name, policy):
    v = PRESETS[name]
    for rec in records(v, deals=40 if policy.startswith("pimc") else 120, seed=17, policy=policy):
        check_record(rec, v)
        assert tuple(rec)[:len(FIELDS)] == FIELDS  # the fields `dd --record` asks of a record


def test_a_deck_of_48_other_cards_is_dealt_as_itself():
    """Seed 003's four copies of A, 10, K and nothing else, twelve a seat: 48 cards, but not the
    48 of the other games, so dealt from its own kinds (a deck as long as the standard one once
    went through the standard dealer); every record replays clean in the rule checker."""
    v = ps.variant("double-deck", deck=(4, 4, 4, 0, 0, 0), hand_size=12, pass_cards=3)
    recs = records(v, deals=40, seed=5)
    for rec in recs:
        check_record(rec, v)
    assert {c[0] for rec in recs for h in rec["hands"] for c in h} == {"A", "T", "K"}


options = st.fixed_dictionaries({
    "must_trump": st.booleans(), "must_head": st.booleans(), "must_overtrump": st.booleans(),
    "first_lead": st.sampled_from(["bidder", "dealer_left"]),
    "pass_cards": st.sampled_from([0, 1, 3, 4]), "last_trick": st.integers(0, 20),
    "no_trick": st.sampled_from(["none", "side_scores_nothing", "bidder_meld_void",
                                 "no_counter_meld_void"]),
    "min_tricks": st.integers(0, 2), "forced_open": st.booleans(), "playing_1000": st.booleans(),
    "all_pass": st.sampled_from(["throw_in", "dealer_stuck"]),
})


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(list(PLAYABLE)), opts=options,
       policy=st.sampled_from(["random", "heuristic", "contract", "pimc:worlds=2,dd=2"]),
       seed=st.integers(0, 1000))
def test_any_option_mix_obeys_the_rules(name, opts, policy, seed):
    if PRESETS[name].players == 3:  # only partners pass cards
        opts = {**opts, "pass_cards": 0}
    if PRESETS[name].deck != DECK48:  # double-deck: 004's sweep is a 48-card rule
        opts = {**opts, "playing_1000": False}
    v = ps.variant(name, stuck_bid=max(PRESETS[name].opening_bid - 1, 1), **opts)
    # a fixed bidding strategy: the default would build an auction model for every option mix
    for rec in records(v, deals=6, seed=seed, policy=policy, bidding="formula"):
        check_record(rec, v)


def test_summary_rows_match_records():
    v = ps.variant("classic-pass4")
    df = play(v, deals=60, seed=3)
    recs = records(v, deals=60, seed=3)
    for (_, row), rec in zip(df.iterrows(), recs):
        assert row.thrown_in == (rec["bidder"] is None)
        if rec["bidder"] is not None:
            assert (row.bidder, row.bid, row.trump) == (rec["bidder"], rec["bid"], rec["trump"])
            assert [row.meld_0, row.meld_1, row.meld_2, row.meld_3] == rec["meld"]
        assert [row.score_0, row.score_1] == rec["score"]


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_trick_points_total_and_tricks(name):
    v = PRESETS[name]
    df = play(v, deals=3000, seed=5)
    played = df[~df.thrown_in]
    sides = range(v.teams)
    # the trick points total the variant's figure (three-hand: with the bid winner's discard)
    assert (sum(played[f"points_{k}"] for k in sides) == v.trick_total).all()
    assert (sum(played[f"tricks_{k}"] for k in sides) == v.hand_size).all()
    counters = sum(played[f"counters_{k}"] for k in sides)
    if v.kitty:  # counters buried in the discard were taken in no trick
        assert (counters <= 8 * sum(x > 0 for x in v.card_points)).all()
        assert (played.discard_points == 8 * 3 - counters).all()
    else:  # every counter of the deck (four suits, two copies or four) in some trick
        assert (counters == 4 * sum(n for n, x in zip(v.deck, v.card_points) if x > 0)).all()
    assert set(played.made.unique()) <= {0, 1}


def test_reproducible_whatever_threads_chunks_or_start():
    from pinochle_sim._numba import set_threads
    a = play("modern", deals=5000, seed=9)
    threads = set_threads(None)
    try:
        set_threads(1)
        b = play("modern", deals=5000, seed=9)
    finally:
        set_threads(threads)
    pd.testing.assert_frame_equal(a, b)
    from pinochle_sim.studies.simulate import iter_play
    c = pd.concat(list(iter_play("modern", 5000, seed=9, chunk=777)), ignore_index=True)
    pd.testing.assert_frame_equal(a, c)
    d = play("modern", deals=1000, seed=9, start=4000)
    pd.testing.assert_frame_equal(a.iloc[4000:].reset_index(drop=True), d)
    # a sampling seat cuts a short run into small spans, so that every thread takes part
    mixed = ["pimc:worlds=2", "contract", "heuristic", "contract"]
    e = play("modern", deals=24, seed=9, policy=mixed)
    try:
        set_threads(1)
        f = play("modern", deals=24, seed=9, policy=mixed)
    finally:
        set_threads(threads)
    pd.testing.assert_frame_equal(e, f)
    assert _span(Setup("modern", mixed).loop) is None and _span(Setup("modern", "contract").loop) == BLOCK


def test_heuristic_beats_random_with_seats_swapped():
    """On the same deals, a heuristic partnership takes clearly more trick points than a
    random one, whichever seats it sits in."""
    deals = 4000
    hr = play("classic", deals, seed=21, policy=["heuristic", "random"] * 2, forced_bidder=0)
    rh = play("classic", deals, seed=21, policy=["random", "heuristic"] * 2, forced_bidder=0)
    share = (hr.points_0.mean() + rh.points_1.mean()) / (2 * 250)
    assert share > 0.55, share


def test_simulate_writes_parquet_and_provenance(tmp_path):
    out = tmp_path / "sim.parquet"
    meta = simulate("thousand", deals=3000, seed=1, out=out, progress=False, chunk=1000)
    df = pd.read_parquet(out)
    assert len(df) == 3000 and list(df.deal[:3]) == [0, 1, 2]
    saved = json.loads((tmp_path / "sim.parquet.json").read_text())
    for key in ("variant", "options", "play_policy", "seed", "deals", "version", "seconds"):
        assert key in saved
    assert saved["deals"] == 3000 and meta["variant"] == "thousand"
    pd.testing.assert_frame_equal(df, play("thousand", 3000, seed=1).astype(df.dtypes.to_dict()))


def test_cli_play_and_show(tmp_path, capsys):
    out = tmp_path / "hands.jsonl"
    assert main(["play", "--variant", "classic", "--deals", "20", "--seed", "7", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 20
    v = PRESETS["classic"]
    for line in lines:
        check_record(json.loads(line), v)
    assert main(["play", "--variant", "modern", "--deals", "2", "--seed", "7", "--show"]) == 0
    text = capsys.readouterr().out
    assert "trick 12" in text and "score: team 0" in text
    assert show_record(json.loads(lines[0])).startswith("deal 0")


def test_cli_simulate(tmp_path, capsys):
    out = tmp_path / "s.parquet"
    assert main(["simulate", "--variant", "modern", "--deals", "2000", "--seed", "1", "--quiet",
                 "--out", str(out)]) == 0
    assert len(pd.read_parquet(out)) == 2000 and (tmp_path / "s.parquet.json").exists()
    assert main(["simulate", "--variant", "modern", "--policy", "clever", "--out", str(out)]) == 2
    assert "unknown play policy 'clever'" in capsys.readouterr().err


def test_five_nines_optional_rule():
    """Seed 004's optional rule: a player dealt five nines and no meld throws the hand in."""
    from naive import naive_meld
    v = ps.variant("thousand:five_nines=true")
    deals = 20_000
    df = play(v, deals, seed=8)
    hands = ps.deal(deals, seed=8)
    nine_of_trump = ps.variant("thousand:five_nines=true,nine_of_trump=0/0")
    qualifies = np.array([
        any(h[5::6].sum() >= 5 and max(naive_meld(h, t, nine_of_trump) for t in range(4)) == 0
            for h in d) for d in hands])
    assert qualifies.sum() > 5
    assert (df.thrown_in.to_numpy() == qualifies).all()
    assert not play("thousand", deals, seed=8).thrown_in.any()


def test_classic_pass4_bidder_passes_back_no_meld_card():
    """RULES.md (seed 004): the bidder melds after receiving four cards and passes back four
    that are not part of its meld, so its meld on the final twelve equals its meld on sixteen
    whenever that meld needs no more than twelve cards."""
    from naive import naive_meld, to_counts
    v = ps.variant("classic-pass4")
    checked = 0
    for rec in records(v, deals=800, seed=5):
        if rec["bidder"] is None:
            continue
        t = "SHDC".index(rec["trump"])
        sixteen = list(rec["hands"][rec["bidder"]]) + rec["passes"][0][2]
        twelve = list(sixteen)
        for c in rec["passes"][1][2]:
            twelve.remove(c)
        if sum(ps.meld(" ".join(sixteen), t, v).used) <= 12:
            checked += 1
            assert naive_meld(to_counts(twelve), t, v) == naive_meld(to_counts(sixteen), t, v)
    assert checked > 700


def test_playing_1000_optional_rule():
    """Seed 004's 'playing 1000': announced only as a sure sweep by a bidder who leads; the
    partner sits out, the bidders show no meld, every counter taken scores 1000."""
    v = ps.variant("classic-pass4:playing_1000=true")
    df = play(v, 20_000, seed=1)
    sweeps = df[df.playing_1000 == 1]
    assert len(sweeps) > 50 and (sweeps.made == 1).all()
    assert (sweeps[["score_0", "score_1"]].max(axis=1) == 1000).all()
    for deal in sweeps.deal[:20]:
        rec = records(v, 1, seed=1, start=int(deal))[0]
        assert rec["playing_1000"] and all(len(t["cards"]) == 3 for t in rec["tricks"])
        check_record(rec, v)
    assert not play("classic-pass4", 2000, seed=1).playing_1000.any()
    assert "playing_1000" not in records("classic-pass4", 1, seed=1)[0]


def test_sure_sweep_and_1000_scoring():
    from pinochle_sim.engine.passing import sure_sweep
    from pinochle_sim.engine.scoring import score_playing_1000
    sweep = ps.hand_counts("AS AS TS TS KS KS QS QS AH AH AD AC")  # trump spades: 8 of 12 trumps
    assert sure_sweep(sweep, 0)                  # 4 missing trumps, all below its top four
    assert not sure_sweep(ps.hand_counts("AS AS TS TS KS KS QS QS AH TH AD AC"), 0)  # TH: AH out
    assert not sure_sweep(ps.hand_counts("AS TS TS KS KS QS QS JS AH AH AD AC"), 0)  # AS out
    out = np.zeros(2, np.int64)
    assert score_playing_1000(0, np.array([0, 60]), np.array([240, 0]), np.array([24, 0]), out) == 1
    assert out.tolist() == [1000, 0]
    assert score_playing_1000(1, np.array([40, 0]), np.array([30, 210]), np.array([3, 21]), out) == 0
    assert out.tolist() == [70, -1000]


def test_simulate_zero_deals_writes_an_empty_table(tmp_path):
    simulate("modern", deals=0, seed=1, out=tmp_path / "z.parquet", progress=False)
    df = pd.read_parquet(tmp_path / "z.parquet")
    assert len(df) == 0 and "playing_1000" in df.columns


@pytest.mark.parametrize("name", ["classic", "three-hand"])
def test_parquet_columns_are_narrow_and_exact(tmp_path, name):
    """The file stores counts in int8 and points in int16 where the variant's largest fits, and
    every value is the one the kernel gave (no wrapping)."""
    out = tmp_path / "n.parquet"
    simulate(name, deals=2000, seed=4, out=out, progress=False, bidding="formula")
    df = pd.read_parquet(out)
    wide = play(name, 2000, seed=4, bidding="formula")
    assert df.tricks_0.dtype == np.int8 and df.meld_0.dtype == np.int16 and df.score_0.dtype == np.int16
    assert df.memory_usage().sum() < 0.55 * wide.memory_usage().sum()
    ints = [c for c in wide.columns if pd.api.types.is_integer_dtype(wide[c].dtype)]
    pd.testing.assert_frame_equal(df[ints].astype(np.int64), wide[ints].astype(np.int64))


def test_narrow_refuses_a_value_that_does_not_fit():
    from pinochle_sim.studies.simulate import narrow
    df = play("thousand", 10, seed=1, bidding="formula")
    df.loc[0, "tricks_0"] = 300
    with pytest.raises(ValueError, match="tricks_0"):
        narrow(df, ps.variant("thousand"))
