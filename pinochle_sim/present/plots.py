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
import textwrap

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure

from ..studies.tables import DeclarerStats, bid_table, chance_columns, rule_text

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


def _figure(figsize: tuple[float, float], **subplots) -> tuple[Chart, object]:
    """A styled chart and its axes (one, or a grid with ``nrows``/``ncols``)."""
    fig = Chart(figsize=figsize)
    return fig, fig.subplots(**subplots)


def caption(stats: DeclarerStats) -> str:
    v = stats.variant
    return (f"{v.spec} | play: {stats.policy} | {stats.deals:,} deals x {stats.variant.players} declarers | seed "
            f"{stats.seed} | pinochle-sim {stats.provenance()['version']}")


def _finish(fig: Chart, stats: DeclarerStats) -> Chart:
    fig.text(0.01, 0.005, caption(stats), fontsize=7.5, color="0.35", ha="left", va="bottom")
    return fig


def bid_heatmap(stats: DeclarerStats, confidence: float = 0.67, min_hands: int = MIN_HANDS,
                by: str = "aces_tens", note: str | None = None) -> Chart:
    """The recommended bid (made at least ``confidence`` of the time) by meld and aces + tens
    (``by="trumps"``: by trump length). Cells with too few hands to state a bid say "few".
    ``note``: a line under the chart (the bid charts say how the default bidding bids)."""
    col = f"bid_{round(confidence * 100)}"
    table = bid_table(stats, by, confidences=(confidence,), min_hands=1)
    bands = list(dict.fromkeys(table.index.get_level_values("meld")))
    columns = sorted(set(table.index.get_level_values(by)))
    grid = table[col].unstack(by).reindex(index=bands, columns=columns).to_numpy(dtype=float, copy=True)
    hands = table["hands"].unstack(by).reindex(index=bands, columns=columns).to_numpy(dtype=float)
    grid[~(hands >= min_hands)] = np.nan
    xlabel = {"aces_tens": "aces + tens in your hand", "trumps": "cards of the trump you name"}[by]
    with mpl.rc_context(STYLE):
        fig, ax = _figure(figsize=(9, 6.2))
        im = ax.imshow(np.ma.masked_invalid(grid), origin="lower", aspect="auto", cmap="viridis")
        ax.set_xticks(range(len(columns)), [str(c) for c in columns])
        ax.set_yticks(range(len(bands)), bands)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"your meld in the trump you name ({stats.variant.name} points)" if not stats.variant.kitty
                      else f"your meld in your best trump, before the kitty ({stats.variant.name} points)")
        middle = np.nanmean(grid) if np.isfinite(grid).any() else 0
        for (i, j), value in np.ndenumerate(grid):
            if np.isfinite(value):
                ax.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=7,
                        color="white" if value < middle else "black")
            elif hands[i, j] >= min_hands:
                ax.text(j, i, "pass", ha="center", va="center", fontsize=6, color="0.5")
            elif hands[i, j] > 0:
                ax.text(j, i, "few", ha="center", va="center", fontsize=5.5, color="0.7")
        fig.colorbar(im, ax=ax, label="highest bid made at least "
                     f"{confidence:.0%} of the time")
        who = "your side makes" if stats.variant.players == 4 else "you make"
        ax.set_title(f"What to bid in {stats.variant.name}: the highest bid {who} "
                     f"{confidence:.0%} of the time", pad=22)
        ax.text(0.5, 1.01, "rule of thumb (made to declare): " + rule_text(stats),
                transform=ax.transAxes, fontsize=8, color="0.25", va="bottom", ha="center")
        ax.text(1.0, -0.09, f"'few': under {min_hands} hands, no bid stated", transform=ax.transAxes,
                fontsize=7, color="0.45", ha="right")
        if note:
            fig.text(0.01, 0.03, textwrap.fill(note, 170), fontsize=7, color="0.25", ha="left", va="bottom")
        fig.tight_layout(rect=(0, 0.09 if note else 0.03, 1, 1))
        return _finish(fig, stats)


def make_curves(stats: DeclarerStats, cells: list[tuple[str, int]] | None = None,
                min_hands: int = 1000) -> Chart:
    """The chance of making each bid, with 95% Wilson intervals, for typical hands (meld band, A+T).

    Without ``cells``: the most common aces + tens at low, middle and high meld, among cells with
    at least ``min_hands`` hands (or, in a small simulation, at least ``MIN_HANDS``).
    """
    table = bid_table(stats, "aces_tens", min_hands=min(min_hands, MIN_HANDS))
    pcols = chance_columns(table)
    bids = np.array([int(c[2:]) for c in pcols])
    if cells is None:
        cells = _typical_cells(table, min_hands)
    with mpl.rc_context(STYLE):
        fig, ax = _figure(figsize=(9, 5.5))
        for band, at in cells:
            row = table.loc[(band, at)]
            p = row[pcols].to_numpy(dtype=float)
            lo = row[[c + "_low" for c in pcols]].to_numpy(dtype=float)
            hi = row[[c + "_high" for c in pcols]].to_numpy(dtype=float)
            keep = p > 0.005
            line, = ax.plot(bids[keep], p[keep], lw=2, label=f"meld {band}, {at} aces + tens "
                            f"({int(row.hands):,} hands)")
            ax.fill_between(bids[keep], lo[keep], hi[keep], color=line.get_color(), alpha=0.2, lw=0)
        for level in (0.5, 0.67, 0.8):
            ax.axhline(level, color="0.7", lw=0.8, ls="--")
        ax.set_xlabel("bid")
        ax.set_ylabel("chance the side makes it" if stats.variant.players == 4 else "chance the bidder makes it")
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
    with mpl.rc_context(STYLE):
        fig, ax = _figure(figsize=(9, 5))
        total = counts.sum(0)
        ax.bar(values[1:], total[1:] / total.sum(), width=stats.unit, color="0.75",
               label="all declared hands")
        from ..studies.tables import band_labels
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
        alone = stats.variant.players != 4
        ax.set_xlabel("bidder's total: meld kept + points (discard included)" if alone
                      else "side total: meld kept + trick points")
        ax.set_ylabel("share of hands")
        ax.set_title(f"{stats.variant.name}: what the {'bidder' if alone else 'declaring side'} scores")
        ax.legend(fontsize=8, frameon=False)
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        return _finish(fig, stats)


def save(fig: Figure, path, format: str | None = None) -> None:
    """Write a figure to ``path`` (a file name or an open binary file; format from the suffix)."""
    fig.savefig(path, dpi=STYLE["savefig.dpi"], format=format)




def calibration_plot(tables: dict, caption_text: str = "") -> Chart:
    """Predicted chance of making the contract against the share made, one line per variant
    (``tables``: name -> the DataFrame of ``match.calibration``), with 95% Wilson intervals."""
    with mpl.rc_context(STYLE):
        fig, ax = _figure(figsize=(6, 6))
        for name, c in tables.items():
            ax.errorbar(c.predicted, c.made, yerr=[c.made - c.made_low, c.made_high - c.made], fmt="o-",
                        capsize=3, label=name)
        ax.plot([0, 1], [0, 1], color="0.6", ls="--", lw=1, label="perfect calibration")
        ax.set_xlim(0.5, 1.0)
        ax.set_ylim(0.4, 1.0)
        ax.set_xlabel("predicted chance of making the contract")
        ax.set_ylabel("share of contracts made")
        ax.set_title("Calibration in real auctions: the bidder's own estimate")
        ax.legend(frameon=False)
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        fig.text(0.01, 0.005, caption_text, fontsize=7.5, color="0.35")
        return fig


def forest_plot(c) -> Chart:
    """A comparison (``compare.Comparison``): each difference from the baseline with its 95%
    interval, one panel per metric."""
    from .. import __version__
    return comparison_plot(c.table, f"Against {c.variants[0].spec}: paired differences, 95% intervals",
                           f"{c.deals:,} deals, seed {c.seed}, play {c.policy} | pinochle-sim {__version__}")


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
    notes: set[str] = set()
    with mpl.rc_context(STYLE):
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
            head, cut, _ = part.description.iloc[0].partition(" (interval")
            ax.set_title(head + (" †" if cut else ""), fontsize=9.5, loc="left")
            notes |= {"† its interval leaves out the bid table's own sampling error"} if cut else set()
            ax.set_xlabel("difference" + (", points per 250" if unit == "per 250" else ", share"),
                          fontsize=8)
            ax.tick_params(axis="x", labelsize=8)
        for ax in list(axes.flat)[len(metrics):]:
            ax.set_visible(False)
        fig.suptitle(title, fontweight="bold")
        fig.text(0.01, 0.005, " | ".join([caption_text, "filled: Holm p < 0.05, open: not", *sorted(notes)]),
                 fontsize=7.5, color="0.35")
        fig.tight_layout(rect=(0, 0.02, 1, 0.97))
        return fig


def _short_label(spec: str, baseline: str) -> str:
    """A variant's label in a comparison: its options when it shares the baseline's preset."""
    name, _, opts = spec.partition(":")
    return opts.replace(",", ", ") if opts and name == baseline.partition(":")[0] else spec


def advice_curve(advice: dict) -> Chart:
    """The chance of making each bid with one hand (``advise``'s answer), with its 95% Wilson
    band, the confidence asked for and the recommended bid."""
    bids = np.array(list(advice["p_make"]), dtype=float)
    p = np.array(list(advice["p_make"].values()))
    lo, hi = np.array(list(advice["p_make_ci95"].values())).T
    prov = advice["provenance"]
    with mpl.rc_context(STYLE):
        fig, ax = _figure(figsize=(8, 4.6))
        ax.fill_between(bids, lo, hi, color="C0", alpha=0.25, lw=0, label="95% interval")
        ax.plot(bids, p, color="C0", lw=2, label=f"trump {advice['best_trump']}")
        ax.axhline(advice["confidence"], color="0.6", lw=0.8, ls="--")
        rec = advice["recommended_bid"]
        if rec is not None:
            ax.axvline(rec, color="C3", lw=1.2)
            ax.annotate(f"bid {rec}", (rec, advice["confidence"]), xytext=(6, 8),
                        textcoords="offset points", color="C3", fontsize=9)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("bid")
        ax.set_ylabel("chance the side makes it")
        ax.set_title(f"{advice['hand']}  ({advice['variant']})", fontsize=10.5)
        ax.legend(frameon=False, fontsize=8, loc="lower left")
        fig.text(0.01, 0.005, f"{prov['deals']:,} deals of the other cards | seed {prov['seed']} | play "
                 f"{prov['play_policy']} | pinochle-sim {prov['version']}", fontsize=7.5, color="0.35")
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        return fig


def auction_curves(model, caption_text: str = "") -> Chart:
    """The auction-aware model: the chance an auction winner makes its contract against how far
    the bid sits above its hand's made-to-declare estimate, one curve per auction situation,
    with the share made at each gap (dots sized by contracts) and the confidence it bids to."""
    from ..studies.tables import auction_table
    t = auction_table(model)
    with mpl.rc_context(STYLE):
        fig, ax = _figure(figsize=(9, 5.5))
        for k, (name, part) in enumerate(t.groupby("situation", sort=False)):
            color = f"C{k}"
            big = part[part.weight >= 20]
            ax.scatter(big.gap, big.made, s=np.clip(big.weight / 40, 4, 60), color=color, alpha=0.35, lw=0)
            ax.plot(part.gap, part.p, color=color, lw=2,
                    label=f"{name.replace('_', ' ')} (weight {part.weight.sum():,.0f})")
        seen = t[t.weight >= 0.002 * t.weight.sum()].gap
        if len(seen):
            ax.set_xlim(seen.min() - 10 * model.variant.raise_min, seen.max() + 10 * model.variant.raise_min)
        ax.axhline(model.confidence, color="0.6", ls="--", lw=0.8)
        ax.axvline(0, color="0.8", lw=0.8)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("bid minus the hand's made-to-declare estimate (points)")
        ax.set_ylabel("share of contracts made")
        ax.set_title(f"{model.variant.name}: what winning the auction says, by the situation of the "
                     "winning bid", fontsize=11)
        ax.legend(frameon=False, fontsize=8)
        fig.text(0.01, 0.005, caption_text, fontsize=7.5, color="0.35")
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        return fig
