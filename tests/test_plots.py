"""Charts follow matplotlib's conventions (issue 30): drawn on the axes given or on a new pyplot
figure, returned; the command line closes what it saves. (Shown inline in a fresh notebook
kernel: tests/test_notebooks.py.)"""
import matplotlib

matplotlib.use("agg")
import matplotlib.pyplot as plt  # noqa: E402

from pinochle_sim.present import plots  # noqa: E402
from pinochle_sim.present.cli import main  # noqa: E402
from pinochle_sim.studies.declarer import declarer_stats  # noqa: E402


def test_charts_draw_where_told_and_the_command_line_closes_what_it_saves(tmp_path):
    s = declarer_stats("classic", deals=300, seed=1)
    plt.close("all")
    fig = plots.make_curves(s)
    assert plt.get_fignums() == [fig.number] and fig.texts  # a new pyplot figure, its caption under it
    given, (a, b) = plt.subplots(1, 2)
    assert plots.bid_heatmap(s, ax=a) is given and plots.total_distribution(s, ax=b) is given
    assert a.get_title().startswith("What to bid") and b.get_title().startswith("classic")
    assert len(given.axes) == 3  # the two given and the heatmap's colour bar; no new figure
    assert plt.get_fignums() == [fig.number, given.number]
    plt.close("all")
    assert main(["bid-chart", "--variant", "classic", "--deals", "1000", "--seed", "1", "-q",
                 "--out", str(tmp_path / "chart")]) == 0
    assert (tmp_path / "chart" / "bid_chart.png").exists() and plt.get_fignums() == []


def test_the_auction_chart_has_a_panel_per_situation_and_a_curve_per_kind():
    # issue 31: where the data end is drawn (solid read, dashed logistic), one panel a situation
    import numpy as np
    from pinochle_sim.studies.auction_model import GAP_RAISES, KINDS, AuctionModel
    from pinochle_sim.engine.variants import PRESETS
    gaps = np.arange(2 * GAP_RAISES + 1)
    n = np.zeros((4, len(KINDS), len(gaps)))
    n[1:3, :, :GAP_RAISES] = 500.0  # two situations, every kind, nothing seen past gap 0
    made = np.round(n / (1 + np.exp((gaps - GAP_RAISES + 3) / 6)))
    m = AuctionModel(PRESETS["classic"], 0.67, 0.0, np.zeros((16, 9, 9, 13)), made, n)
    plt.close("all")
    fig = plots.auction_curves(m, "toy")
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert len(shown) == 2 and [ax.get_title("left") for ax in shown] == ["partner high", "opponent high partner out"]
    styles = {line.get_linestyle() for line in shown[0].get_lines() if len(line.get_xdata()) > 1}
    assert {"-", "--"} <= styles  # read from contracts, and the logistic past them
    assert len(shown[0].get_legend().get_texts()) == len(KINDS)
    plt.close("all")
