"""Bid charts (matplotlib, one style): the recommended bid over meld and aces + tens, the chance
of making a bid for typical hands, and the distribution of the side's total. Every figure's
caption carries its provenance (variant, options, play policy, deals, seed, version)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # files, not windows: the CLI and CI have no screen
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .tables import DeclarerStats, bid_table, rule_text  # noqa: E402

STYLE = {
    "figure.dpi": 110, "savefig.dpi": 130, "font.size": 10, "axes.titlesize": 12,
    "axes.titleweight": "bold", "axes.spines.top": False, "axes.spines.right": False,
    "axes.grid": False, "figure.facecolor": "white",
}
MIN_HANDS = 100  # cells with fewer hands are left blank


def caption(stats: DeclarerStats) -> str:
    v = stats.variant
    return (f"{v.spec} | play: {stats.policy} | {stats.deals:,} deals x 4 declarers | seed "
            f"{stats.seed} | pinochle-sim {stats.provenance()['version']}")


def _finish(fig: plt.Figure, stats: DeclarerStats) -> plt.Figure:
    fig.text(0.01, 0.005, caption(stats), fontsize=7.5, color="0.35", ha="left", va="bottom")
    return fig


def bid_heatmap(stats: DeclarerStats, confidence: float = 0.67, min_hands: int = MIN_HANDS) -> plt.Figure:
    """The recommended bid (made at least ``confidence`` of the time) by meld and aces + tens."""
    col = f"bid_{round(confidence * 100)}"
    table = bid_table(stats, "aces_tens", confidences=(confidence,), min_hands=min_hands)
    bands = list(dict.fromkeys(table.index.get_level_values("meld")))
    columns = sorted(set(table.index.get_level_values("aces_tens")))
    grid = table[col].unstack("aces_tens").reindex(index=bands, columns=columns)
    hands = table["hands"].unstack("aces_tens").reindex(index=bands, columns=columns)
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(9, 6.2))
        data = np.ma.masked_invalid(grid.to_numpy(dtype=float))
        im = ax.imshow(data, origin="lower", aspect="auto", cmap="viridis")
        ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
        ax.set_yticks(range(grid.shape[0]), list(grid.index))
        ax.set_xlabel("aces + tens in your hand")
        ax.set_ylabel(f"your meld in the trump you name ({stats.variant.name} points)")
        for (i, j), value in np.ndenumerate(grid.to_numpy(dtype=float)):
            if np.isfinite(value):
                ax.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=7,
                        color="white" if value < np.nanmean(grid.to_numpy(dtype=float)) else "black")
            elif np.isfinite(hands.to_numpy(dtype=float)[i, j]):
                ax.text(j, i, "pass", ha="center", va="center", fontsize=6, color="0.5")
        fig.colorbar(im, ax=ax, label="highest bid made at least "
                     f"{confidence:.0%} of the time")
        ax.set_title(f"What to bid in {stats.variant.name}: the highest bid your side makes "
                     f"{confidence:.0%} of the time", pad=22)
        ax.text(0.5, 1.01, "rule of thumb: " + rule_text(stats), transform=ax.transAxes,
                fontsize=8, color="0.25", va="bottom", ha="center")
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        return _finish(fig, stats)


def make_curves(stats: DeclarerStats, cells: list[tuple[str, int]] | None = None,
                min_hands: int = 1000) -> plt.Figure:
    """The chance of making each bid, with 95% intervals, for typical hands (meld band, A+T)."""
    table = bid_table(stats, "aces_tens", min_hands=min_hands)
    pcols = [c for c in table.columns if c.startswith("p_")]
    bids = np.array([int(c[2:]) for c in pcols])
    if cells is None:  # the most common aces + tens, at low, middle and high meld
        common = int(table.hands.groupby(level="aces_tens").sum().idxmax())
        bands = [b for b in dict.fromkeys(table.index.get_level_values(0))
                 if (b, common) in table.index]
        picks = [bands[int(round(q * (len(bands) - 1)))] for q in (0, 0.33, 0.66, 1.0)] if bands else []
        cells = [(b, common) for b in dict.fromkeys(picks)]
        cells += [(b, a) for b, a in ((bands[len(bands) // 2], common - 2),
                                      (bands[len(bands) // 2], common + 2)) if (b, a) in table.index] \
            if bands else []
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(9, 5.5))
        for band, at in cells:
            row = table.loc[(band, at)]
            p = row[pcols].to_numpy(dtype=float)
            se = np.sqrt(p * (1 - p) / row.hands)
            keep = p > 0.005
            line, = ax.plot(bids[keep], p[keep], lw=2, label=f"meld {band}, {at} aces + tens "
                            f"({int(row.hands):,} hands)")
            ax.fill_between(bids[keep], (p - 1.96 * se)[keep], (p + 1.96 * se)[keep],
                            color=line.get_color(), alpha=0.2, lw=0)
        for level in (0.5, 0.67, 0.8):
            ax.axhline(level, color="0.7", lw=0.8, ls="--")
        ax.set_xlabel("bid")
        ax.set_ylabel("chance the side makes it")
        ax.set_ylim(0, 1.02)
        ax.set_title(f"{stats.variant.name}: chance of making a bid, typical hands")
        ax.legend(fontsize=8, frameon=False)
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        return _finish(fig, stats)


def total_distribution(stats: DeclarerStats) -> plt.Figure:
    """The distribution of the side's total when declaring, overall and by meld band."""
    counts = stats.cube.sum(axis=(1, 2))  # [band, bin]
    values = (np.arange(counts.shape[1]) - 1) * stats.unit
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(9, 5))
        total = counts.sum(0)
        ax.bar(values[1:], total[1:] / total.sum(), width=stats.unit, color="0.75",
               label="all declared hands")
        from .tables import band_labels
        labels = band_labels(stats)
        for i in range(0, counts.shape[0], 3):
            if counts[i].sum() > 500:
                ax.plot(values[1:], counts[i, 1:] / counts[i].sum(), lw=1.5,
                        label=f"meld {labels[i]}")
        if total[0]:
            ax.text(0.99, 0.95, f"{total[0] / total.sum():.1%} short of the required tricks",
                    transform=ax.transAxes, ha="right", fontsize=8)
        cum = np.cumsum(total) / max(total.sum(), 1)
        ax.set_xlim(0, values[min(np.searchsorted(cum, 0.999) + 1, len(values) - 1)])
        ax.set_xlabel("side total: meld kept + trick points")
        ax.set_ylabel("share of hands")
        ax.set_title(f"{stats.variant.name}: what the declaring side scores")
        ax.legend(fontsize=8, frameon=False)
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        return _finish(fig, stats)


def save(fig: plt.Figure, path) -> None:
    fig.savefig(path)
    plt.close(fig)




def calibration_plot(tables: dict, caption_text: str = "") -> plt.Figure:
    """Predicted chance of making the contract against the share made, one line per variant
    (``tables``: name -> the DataFrame of ``match.calibration``), with 95% intervals."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6, 6))
        for name, c in tables.items():
            ax.errorbar(c.predicted, c.made, yerr=1.96 * c.se, fmt="o-", capsize=3, label=name)
        ax.plot([0, 1], [0, 1], color="0.6", ls="--", lw=1, label="perfect calibration")
        ax.set_xlim(0.5, 1.0)
        ax.set_ylim(0.4, 1.0)
        ax.set_xlabel("predicted chance of making the contract")
        ax.set_ylabel("share of contracts made")
        ax.set_title("Calibration of the bid table in real auctions")
        ax.legend(frameon=False)
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        fig.text(0.01, 0.005, caption_text, fontsize=7.5, color="0.35")
        return fig
