"""Variant comparisons: common random numbers, exact zero against itself, honest intervals."""
import json

import numpy as np
import pandas as pd
import pytest

from pinochle_sim.present.cli import main
from pinochle_sim.studies.compare import METRICS, compare
from pinochle_sim.studies.stats import holm, paired


@pytest.fixture(scope="module")
def comparison():
    # a fixed bidding strategy: the default adapts its bids to each variant's rules
    return compare(["classic", "classic", "classic:must_trump=false", "modern"], deals=3000,
                   seed=4, table_deals=3000, bidding="formula")


def test_tidy_table(comparison):
    t = comparison.table
    assert len(t) == 4 * len(METRICS)
    assert set(t.metric) == set(METRICS)
    assert t[t.variant == "classic"].p_value.isna().sum() == len(METRICS)  # the baseline itself


def test_a_variant_against_itself_is_exactly_zero(comparison):
    t = comparison.table.iloc[len(METRICS): 2 * len(METRICS)]
    assert (t["diff"].fillna(0) == 0).all() and (t["diff_se"].fillna(0) == 0).all()
    assert (t.p_value.dropna() == 1).all()


def test_same_deals_same_auction_when_only_play_changes(comparison):
    t = comparison.table.set_index(["variant", "metric"])
    row = t.loc[("classic:must_trump=false", "winning_bid")]
    assert row["diff"] == 0  # must_trump changes play, not bidding: paired, exactly zero
    assert row["deals_saved"] == np.inf or row["diff_se"] == 0


def test_common_scale(comparison):
    t = comparison.table.drop_duplicates(["variant", "metric"]).set_index(["variant", "metric"])
    for v in ("classic", "modern"):  # trick points per 250 and shares agree across scales
        share = t.loc[(v, "declarer_trick_share"), "mean"]
        assert t.loc[(v, "declarer_trick_points"), "mean"] == pytest.approx(250 * share)


def test_interval_coverage_on_known_truth():
    """95% intervals cover a known difference about 95% of the time (a toy metric: correlated
    Bernoulli hands with a true effect of +0.05)."""
    rng = np.random.default_rng(11)
    hits = 0
    reps = 600
    for _ in range(reps):
        u = rng.random(400)
        base = (u < 0.4).astype(float)
        other = (u < 0.45).astype(float)  # the truth: +0.05, deal by deal correlated
        r = paired(base, other)
        hits += r["ci_low"] <= 0.05 <= r["ci_high"]
    assert 0.92 <= hits / reps <= 0.98


def test_pairing_saving_matches_theory():
    rng = np.random.default_rng(3)
    z = rng.normal(size=(200_000, 2))
    rho = 0.8
    base = z[:, 0]
    other = rho * z[:, 0] + np.sqrt(1 - rho ** 2) * z[:, 1]
    assert paired(base, other)["deals_saved"] == pytest.approx(1 / (1 - rho), rel=0.03)


def test_holm():
    assert holm(np.array([0.01, 0.04, 0.03, np.nan])).round(3).tolist()[:3] == [0.03, 0.06, 0.06]


def test_cli_compare(tmp_path, capsys):
    args = ["compare", "thousand", "thousand:must_trump=false", "--deals", "2000", "--seed", "1",
            "--quiet", "--table-deals", "2000"]
    assert main([*args, "--csv", str(tmp_path / "c.csv"), "--plot", str(tmp_path / "f.png")]) == 0
    out = capsys.readouterr().out
    assert "difference [95% interval]" in out and (tmp_path / "f.png").exists()
    assert len(pd.read_csv(tmp_path / "c.csv")) == 2 * len(METRICS)
    assert json.loads((tmp_path / "c.csv.json").read_text())["baseline"] == "thousand"
    assert main([*args, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {r["variant"] for r in rows} == {"thousand", "thousand:must_trump=false"}
    assert main(["compare", "thousand", "--quiet"]) == 2
    assert main(["compare", "thousand", "thousnd"]) == 2


def test_a_fitted_bidding_is_fitted_once_and_held_for_the_presets_options():
    # issue 30: three-hand's default (auction:conf=0.5) is fitted to the variant; refitted per
    # option, an option of play alone moved the throw-in rate through fit noise
    from pinochle_sim.studies.compare import held_bidding
    from pinochle_sim.engine.variants import variant
    c = compare(["three-hand", "three-hand:must_head=false"], deals=2000, seed=3, table_deals=2000)
    t = c.table.set_index(["variant", "metric"])
    for m in ("thrown_in", "winning_bid"):
        assert t.loc[("three-hand:must_head=false", m), "diff"] == 0
    assert "fitted once on three-hand" in c.bidding and c.provenance()["bidding"] == c.bidding
    # a strategy that is not fitted bids by each variant's own rules; another preset gets its own fit
    vs = [variant(s) for s in ("classic", "classic:must_trump=false", "modern")]
    specs, text = held_bidding("formula", vs)
    assert [s.spec for s in specs.values()] == ["formula"] * 3 and text == "formula"
    specs, text = held_bidding("table:deals=2000", vs)
    assert specs["classic"] is specs["classic:must_trump=false"] is not specs["modern"]
    assert text == "table:deals=2000 (fitted once on classic, modern)"


def test_differences_come_with_the_means_of_the_deals_both_played(comparison):
    t = comparison.table.dropna(subset=["diff"])
    assert np.allclose(t.paired_mean - t.base_mean, t["diff"], equal_nan=True)
    assert (t.pairs <= t.deals).all()
