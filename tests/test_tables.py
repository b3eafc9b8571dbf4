"""Bid tables: accumulators, consistency (more meld or aces and tens never lowers the
expectation beyond noise), legal recommendations, and the outputs a user reads."""
import json

import numpy as np
import pytest

import pinochle_sim as ps
from pinochle_sim.present.cli import main
from pinochle_sim.present.report import write_bid_chart
from pinochle_sim.studies.chart import bid_chart
from pinochle_sim.studies.simulate import play
from pinochle_sim.studies.declarer import DeclarerStats, bid_grid, declarer_stats
from pinochle_sim.studies.tables import (MIN_CELL, bid_table, chance_columns, p_make, partner_adds, recommended_bid,
                                 rule_of_thumb)


@pytest.fixture(scope="module")
def thousand():
    return declarer_stats("thousand", deals=12_000, seed=3, chunk=5_000)


def test_four_declarers_per_deal(thousand):
    assert thousand.cube.sum() == 4 * 12_000 == thousand.moments[..., 0].sum()


def test_trick_points_add_up_for_every_declarer():
    for seat in range(4):
        df = play("classic-pass4", 2000, seed=4, forced_bidder=seat)
        assert (df.points_0 + df.points_1 == 240).all() and (df.bidder == seat).all()


def test_reproducible_and_chunk_free(thousand):
    again = declarer_stats("thousand", deals=12_000, seed=3, chunk=12_000)
    assert (again.cube == thousand.cube).all() and np.allclose(again.xtx, thousand.xtx)


def test_save_and_load(tmp_path, thousand):
    thousand.save(tmp_path / "s.npz")
    back = DeclarerStats.load(tmp_path / "s.npz")
    assert (back.cube == thousand.cube).all() and back.variant == thousand.variant


def test_more_meld_or_aces_and_tens_never_lowers_the_expectation(thousand):
    t = bid_table(thousand, "aces_tens", min_hands=300)
    bands = list(dict.fromkeys(t.index.get_level_values(0)))
    for band in bands:  # along aces + tens
        row = t.loc[band]
        for a, b in zip(row.index[:-1], row.index[1:]):
            assert row.mean_total[b] > row.mean_total[a] - 4 * np.hypot(row.se_total[a], row.se_total[b])
    for at in set(t.index.get_level_values(1)):  # along meld
        col = t.xs(at, level=1)
        for a, b in zip(col.index[:-1], col.index[1:]):
            assert col.mean_total[b] > col.mean_total[a] - 4 * np.hypot(col.se_total[a], col.se_total[b])


@pytest.mark.parametrize("name", ["classic", "modern"])
def test_recommended_bids_are_legal(name):
    stats = declarer_stats(name, deals=3000, seed=5)
    v = stats.variant
    t = bid_table(stats, "aces_tens")
    pcols = chance_columns(t)
    assert all(np.all(np.diff(r) <= 1e-12) for r in t[pcols].to_numpy())  # higher bids, lower odds
    for col in ("bid_50", "bid_67", "bid_80", "bid_67_low", "bid_67_high"):
        bids = t[col].dropna()
        assert ((bids >= v.opening_bid) & ((bids - v.opening_bid) % v.raise_min == 0)).all()
    assert (t.bid_50.fillna(0) >= t.bid_80.fillna(0)).all()


def test_tables_say_what_they_do_not_know():
    # issue 11: a one-hand cell had s.e. 0; chances and bids had no intervals; the open top bin
    # claimed p(make 1490) = 1 from one hand of 1400
    stats = declarer_stats("classic-pass4", deals=1500, seed=2)
    t = bid_table(stats, "aces_tens")
    one = t[t.hands == 1]
    assert len(one) and one.se_total.isna().all() and one.bid_67.isna().all()
    assert (t.enough == (t.hands >= MIN_CELL)).all() and t[~t.enough].bid_67.isna().all()
    for c in chance_columns(t):
        ok = t[c].notna()
        assert (t[c + "_low"][ok] <= t[c][ok]).all() and (t[c][ok] <= t[c + "_high"][ok]).all()
    rec = t[t.bid_67.notna()]
    assert ((rec.bid_67_low.fillna(0) <= rec.bid_67) & (rec.bid_67 <= rec.bid_67_high)).all()
    counts = np.zeros((1, stats.n_bins))
    counts[0, -1] = 1  # one hand in the last bin: bids beyond its edge are unknown, not certain
    bids = np.array([stats.unit * (stats.n_bins - 2), stats.unit * (stats.n_bins + 10)])
    assert p_make(counts, bids, stats.unit)[0, 0] == 1 and np.isnan(p_make(counts, bids, stats.unit)[0, 1])


def test_rule_of_thumb_uses_t_with_15_degrees_of_freedom(thousand):
    r = rule_of_thumb(thousand)
    assert np.allclose((r.ci_high - r.estimate) / r.se, 2.131, atol=1e-3)


def test_table_strategy_follows_trump_length():
    from pinochle_sim.studies.tables import recommended_grid, recommended_grid_trumps
    stats = declarer_stats("thousand", deals=4000, seed=3)
    flat, by_trumps = recommended_grid(stats), recommended_grid_trumps(stats, min_hands=50)
    cell = by_trumps[2, 3, 2]  # meld 40-59, three aces, two tens
    assert np.isfinite(flat[2, 3, 2]) and cell[7] > cell[3]  # seven trumps bid more than three


def test_recommendation_arithmetic():
    bids = np.array([250, 260, 270, 280])
    p = np.array([[0.9, 0.7, 0.5, 0.2], [0.4, 0.3, 0.1, 0.0]])
    assert recommended_bid(p, bids, 0.67).tolist()[0] == 260
    assert np.isnan(recommended_bid(p, bids, 0.67)[1])
    assert bid_grid(ps.variant("thousand"), 60).tolist() == [40, 45, 50, 55, 60]


def test_rule_of_thumb_and_partner(thousand):
    r = rule_of_thumb(thousand)
    assert list(r.index) == ["intercept", "aces", "tens", "trumps"]
    assert (r.loc[["aces", "tens", "trumps"], "estimate"] > 0).all()
    assert (r.se > 0).all() and (r.ci_low < r.estimate).all()
    pa = partner_adds(thousand)
    assert 0 < pa.loc["partner_meld", "mean"] < 100 and pa.loc["meld_gained_by_passing", "mean"] == 0


def test_bid_chart_files(tmp_path, thousand):
    chart = bid_chart(thousand)
    assert chart.table("aces_tens").equals(bid_table(thousand))  # the tables the chart writes, made once
    odd = bid_chart(thousand, 0.06)  # its bid_6 columns go; bid_67 stays
    assert odd.table("trumps").equals(bid_table(thousand, "trumps")) and "bid_6" in odd.tables["trumps"]
    written = write_bid_chart(chart, tmp_path / "out", formats=("csv", "json", "png"))
    names = {p.name for p in written}
    assert {"bid_chart.png", "p_make.png", "total_distribution.png", "bid_table.csv",
            "rule_of_thumb.csv", "metadata.json"} <= names
    meta = json.loads((tmp_path / "out" / "metadata.json").read_text())
    for key in ("variant", "options", "play_policy", "seed", "deals", "version", "rule_of_thumb"):
        assert key in meta
    assert not list((tmp_path / "out").glob(".staging-*"))
    assert not {"auction_chart.png", "auction_model.csv", "auction_model.json"} & names  # no fit not asked for


def test_bid_chart_with_the_auction_model_writes_its_files_and_provenance(tmp_path, thousand):
    from pinochle_sim.studies.auction_model import GAP_RAISES, KINDS, AuctionModel
    gaps = np.arange(2 * GAP_RAISES + 1)
    n = np.zeros((4, len(KINDS), len(gaps)))
    n[1:3, :, :GAP_RAISES] = 500.0
    made = np.round(n / (1 + np.exp((gaps - GAP_RAISES + 3) / 6)))
    model = AuctionModel(thousand.variant, 0.67, 0.0, np.zeros((16, 9, 9, 13)), made, n)
    names = {p.name for p in write_bid_chart(bid_chart(thousand, auction=model, auction_strategy="auction:deals=5"),
                                             tmp_path, formats=("csv", "json", "png"))}
    assert {"auction_chart.png", "auction_model.csv", "auction_model_kinds.csv", "auction_model.json",
            "bid_chart.png"} <= names
    meta = json.loads((tmp_path / "auction_model.json").read_text())
    assert meta["strategy"] == "auction:deals=5" and meta["variant"] == "thousand" and "near_the_limit" in meta
    other = AuctionModel(ps.variant("classic"), 0.67, 0.0, np.zeros((16, 9, 9, 13)), made, n)
    with pytest.raises(ValueError, match="beside a bid chart of its variant"):
        bid_chart(thousand, auction=other)
    assert main(["bid-chart", "--variant", "modern", "--deals", "1000", "--policy", "pimc", "--auction-model",
                 "-q", "--out", str(tmp_path / "y")]) == 2 and not (tmp_path / "y").exists()


def test_cli_tables(tmp_path, capsys):
    args = ["--variant", "modern", "--deals", "2000", "--seed", "2", "--quiet", "--no-cache"]
    assert main(["bid-table", *args, "--csv", str(tmp_path / "t.csv")]) == 0
    out = capsys.readouterr().out
    assert "rule of thumb: expected side total = your meld" in out and (tmp_path / "t.csv").exists()
    assert main(["bid-chart", *args, "--out", str(tmp_path / "c"), "--format", "csv,json"]) == 0
    assert (tmp_path / "c" / "bid_table.csv").exists() and not (tmp_path / "c" / "bid_chart.png").exists()
    assert main(["bid-chart", *args, "--format", "gif"]) == 2
    assert main(["bid-table", *args, "--confidence", "1.5"]) == 2


def test_bid_chart_under_another_play_sits_beside_the_default(tmp_path, capsys):
    """Issue 15: a chart under pimc lands beside the default one, named and captioned by its play."""
    out = tmp_path / "c"
    args = ["--variant", "modern", "--deals", "1000", "--seed", "2", "--quiet", "--no-cache", "--out", str(out)]
    assert main(["bid-chart", *args, "--format", "json,csv"]) == 0
    assert main(["bid-chart", *args, "--policy", "pimc:worlds=2", "--format", "json,csv"]) == 0
    names = {p.name for p in out.iterdir()}
    assert {"bid_table.csv", "metadata.json", "bid_table_pimc-worlds-2.csv", "metadata_pimc-worlds-2.json"} <= names
    assert "auction_model_pimc-worlds-2.csv" not in names  # the auction model does not depend on the play
    meta = json.loads((out / "metadata_pimc-worlds-2.json").read_text())
    assert meta["play_policy"] == "pimc:worlds=2"
    assert json.loads((out / "metadata.json").read_text())["play_policy"] == "contract"


@pytest.mark.parametrize("name", ["thousand", "classic-pass4", "three-hand"])
def test_declarer_simulation_is_each_seat_forced_to_declare(name):
    # the declarer simulation values each deal once for all its declarers (hand.EVERY_SEAT in
    # the one loop of deals): the rows must be those of each seat forced to declare
    from pinochle_sim.engine.hand import EVERY_SEAT, Loop, fixed_bidding, play_rows
    v = ps.variant(name)
    n = 700
    every = play_rows(Loop.build(v, fixed_bidding(v), forced_bidder=EVERY_SEAT), 9, 50, n)
    assert every.shape[:2] == (v.players, n)
    for seat in range(v.players):
        rows = play_rows(Loop.build(v, fixed_bidding(v), forced_bidder=seat), 9, 50, n)
        assert np.array_equal(rows, every[seat]), seat
