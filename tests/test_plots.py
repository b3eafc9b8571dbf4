"""Charts follow matplotlib's conventions (issue 30): drawn on the axes given or on a new pyplot
figure, returned; the command line closes what it saves. (Shown inline in a fresh notebook
kernel: tests/test_notebooks.py.)"""
import matplotlib

matplotlib.use("agg")
import matplotlib.pyplot as plt  # noqa: E402

from pinochle_sim import plots  # noqa: E402
from pinochle_sim.cli import main  # noqa: E402
from pinochle_sim.declarer import declarer_stats  # noqa: E402


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
