"""Bid charts (matplotlib, one style): the recommended bid over meld and aces + tens, the chance
of making a bid for typical hands, the distribution of the side's total, calibration and variant
comparisons. Every figure's caption carries its provenance (variant, options, play policy, deals,
seed, version).

Figures are built with matplotlib's object API and never touch the backend: a function returns a
:class:`Chart`, which a notebook shows inline (it renders itself as PNG) and a script saves with
:func:`save`. Importing this module leaves ``pyplot`` and the notebook's backend alone.
"""
from __future__ import annotations

import io
from contextlib import contextmanager

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure

from .tables import DeclarerStats, bid_table, rule_text

STYLE = {
    "figure.dpi": 110, "savefig.dpi": 130, "font.size": 10, "axes.titlesize": 12,
    "axes.titleweight": "bold", "axes.spines.top": False, "axes.spines.right": False,
    "axes.grid": False, "figure.facecolor": "white",
}
MIN_HANDS = 100  # cells with fewer hands are left blank


class Chart(Figure):
    """A matplotlib ``Figure`` that shows itself inline in Jupyter whatever the backend."""

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=STYLE["figure.dpi"])
        return buf.getvalue()


@contextmanager
def _styled():
    with mpl.rc_context(STYLE):
        yield


def _figure(figsize: tuple[float, float], **subplots) -> tuple[Chart, object]:
    """A styled chart and its axes (one, or a grid with ``nrows``/``ncols``)."""
    fig = Chart(figsize=figsize)
    return fig, fig.subplots(**subplots)


def caption(stats: DeclarerStats) -> str:
    v = stats.variant
    return (f"{v.spec} | play: {stats.policy} | {stats.deals:,} deals x 4 declarers | seed "
            f"{stats.seed} | pinochle-sim {stats.provenance()['version']}")


def _finish(fig: Chart, stats: DeclarerStats) -> Chart:
    fig.text(0.01, 0.005, caption(stats), fontsize=7.5, color="0.35", ha="left", va="bottom")
    return fig


def bid_heatmap(stats: DeclarerStats, confidence: float = 0.67, min_hands: int = MIN_HANDS) -> Chart:
    """The recommended bid (made at least ``confidence`` of the time) by meld and aces + tens."""
    col = f"bid_{round(confidence * 100)}"
    table = bid_table(stats, "aces_tens", confidences=(confidence,), min_hands=min_hands)
    bands = list(dict.fromkeys(table.index.get_level_values("meld")))
    columns = sorted(set(table.index.get_level_values("aces_tens")))
    grid = table[col].unstack("aces_tens").reindex(index=bands, columns=columns)
    hands = table["hands"].unstack("aces_tens").reindex(index=bands, columns=columns)
    with _styled():
        fig, ax = _figure(figsize=(9, 6.2))
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
                min_hands: int = 1000) -> Chart:
    """The chance of making each bid, with 95% intervals, for typical hands (meld band, A+T).

    Without ``cells``: the most common aces + tens at low, middle and high meld, among cells with
    at least ``min_hands`` hands (or, in a small simulation, at least ``MIN_HANDS``).
    """
    table = bid_table(stats, "aces_tens", min_hands=min(min_hands, MIN_HANDS))
    pcols = [c for c in table.columns if c.startswith("p_")]
    bids = np.array([int(c[2:]) for c in pcols])
    if cells is None:
        cells = _typical_cells(table, min_hands)
    with _styled():
        fig, ax = _figure(figsize=(9, 5.5))
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
        if cells:
            ax.legend(fontsize=8, frameon=False)
        else:
            ax.text(0.5, 0.5, f"too few hands: no cell holds {MIN_HANDS}", transform=ax.transAxes,
                    ha="center", color="0.4")
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        return _finish(fig, stats)


def _typical_cells(table, min_hands: int) -> list[tuple[str, int]]:
    big = table[table.hands >= min_hands]
    if big.empty:
        big = table
    if big.empty:
        return []
    common = int(big.hands.groupby(level="aces_tens").sum().idxmax())
    bands = [b for b in dict.fromkeys(big.index.get_level_values(0)) if (b, common) in big.index]
    picks = [bands[int(round(q * (len(bands) - 1)))] for q in (0, 0.33, 0.66, 1.0)]
    cells = [(b, common) for b in dict.fromkeys(picks)]
    mid = bands[len(bands) // 2]
    return cells + [(mid, a) for a in (common - 2, common + 2) if (mid, a) in big.index]


def total_distribution(stats: DeclarerStats) -> Chart:
    """The distribution of the side's total when declaring, overall and by meld band."""
    counts = stats.cube.sum(axis=(1, 2))  # [band, bin]
    values = (np.arange(counts.shape[1]) - 1) * stats.unit
    with _styled():
        fig, ax = _figure(figsize=(9, 5))
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


def save(fig: Figure, path) -> None:
    """Write a figure to ``path`` (format from its suffix)."""
    fig.savefig(path, dpi=STYLE["savefig.dpi"])




def calibration_plot(tables: dict, caption_text: str = "") -> Chart:
    """Predicted chance of making the contract against the share made, one line per variant
    (``tables``: name -> the DataFrame of ``match.calibration``), with 95% intervals."""
    with _styled():
        fig, ax = _figure(figsize=(6, 6))
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


def comparison_plot(table, title: str, caption_text: str = "") -> Chart:
    """Differences from a baseline, one panel per metric on its own scale.

    ``table``: the tidy table of :func:`pinochle_sim.compare.compare` (rows with ``diff``,
    ``ci_low``, ``ci_high``, ``p_holm``). In each panel the variants are rows sorted by effect,
    with 95% intervals; a dot is filled where the difference holds after Holm's correction.
    """
    t = table.dropna(subset=["diff"])
    metrics = list(dict.fromkeys(t.metric))
    ncols = 2 if len(metrics) > 3 else 1
    nrows = max(-(-len(metrics) // ncols), 1)
    n_var = t.variant.nunique()
    labels = {v: _short_label(v, t.baseline.iloc[0]) for v in t.variant.unique()}
    with _styled():
        fig, axes = _figure((13 if ncols == 2 else 7, nrows * (0.32 * n_var + 1.1) + 1.2),
                            nrows=nrows, ncols=ncols, squeeze=False)
        for ax, metric in zip(axes.flat, metrics):
            part = t[t.metric == metric].sort_values("diff")
            y = np.arange(len(part))
            holds = (part.p_holm < 0.05).to_numpy()
            for filled, face in ((True, "C0"), (False, "white")):
                sel = holds == filled
                ax.errorbar(part["diff"][sel], y[sel], fmt="o", mfc=face, mec="C0", ecolor="C0",
                            capsize=3, xerr=[(part["diff"] - part.ci_low)[sel],
                                             (part.ci_high - part["diff"])[sel]])
            ax.axvline(0, color="0.5", lw=0.8)
            fmt = "{:+.2f}" if part.unit.iloc[0] == "per 250" else "{:+.4f}"
            for yi, d in zip(y, part["diff"]):
                ax.annotate(fmt.format(d), (1.0, yi), xycoords=("axes fraction", "data"),
                            xytext=(4, 0), textcoords="offset points", va="center", fontsize=7,
                            color="0.3")
            ax.set_yticks(y, [labels[v] for v in part.variant], fontsize=8)
            ax.set_ylim(-0.6, len(part) - 0.4)
            unit = part.unit.iloc[0]
            ax.set_title(f"{part.description.iloc[0]}", fontsize=9.5, loc="left")
            ax.set_xlabel("difference" + (", points per 250" if unit == "per 250" else ", share"),
                          fontsize=8)
            ax.tick_params(axis="x", labelsize=8)
        for ax in list(axes.flat)[len(metrics):]:
            ax.set_visible(False)
        fig.suptitle(title, fontweight="bold")
        fig.text(0.01, 0.005, caption_text + " | filled: Holm p < 0.05, open: not", fontsize=7.5,
                 color="0.35")
        fig.tight_layout(rect=(0, 0.02, 1, 0.97))
        return fig


def _short_label(spec: str, baseline: str) -> str:
    """A variant's label in a comparison: its options when it shares the baseline's preset."""
    name, _, opts = spec.partition(":")
    return opts.replace(",", ", ") if opts and name == baseline.partition(":")[0] else spec
