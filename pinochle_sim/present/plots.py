"""Bid charts (matplotlib, one style): the recommended bid over meld and aces + tens, the chance
of making a bid for typical hands, the distribution of the side's total, calibration and variant
comparisons. Every figure's caption carries its provenance (variant, options, play policy, deals,
seed, version).

Every function follows matplotlib's convention: it draws on the axes given (``ax=``; ``fig=`` for
the comparison's panels) or else on a new pyplot figure, and returns the figure. So ``plt.show()``
shows it, two in a cell show two, a figure left as a cell's last value shows once, and a script
saves it with :func:`save` (``close=True`` to let it go). Importing this module sets no backend and
does not import ``pyplot``; the first chart does.
"""
from __future__ import annotations

import io
import textwrap
from contextlib import contextmanager

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure

from ..engine.auction import SITUATIONS
from ..studies.declarer import DeclarerStats
from ..studies.tables import bid_table, chance_columns, rule_text

STYLE = {
    "figure.dpi": 110, "savefig.dpi": 130, "font.size": 10, "axes.titlesize": 12,
    "axes.titleweight": "bold", "axes.spines.top": False, "axes.spines.right": False,
    "axes.grid": False, "figure.facecolor": "white",
}
MIN_HANDS = 100  # cells with fewer hands are left blank


class Chart(Figure):
    """A pyplot figure shown once in a notebook: left as a cell's value, by ``plt.show()`` or by
    pyplot at the end of the cell, whichever comes first (it then leaves pyplot, which would
    show it again)."""

    def _ipython_display_(self) -> None:
        import matplotlib.pyplot as plt
        from IPython.display import Image, display
        plt.close(self)
        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=STYLE["figure.dpi"])
        display(Image(buf.getvalue()))


@contextmanager
def _styled():
    """The chart style for the figure drawn inside. What pyplot's backend sets up on the first
    figure is kept: a notebook's inline backend turns interactive mode on then, which a plain
    ``rc_context`` would undo, and pyplot would no longer show figures at the end of a cell."""
    with mpl.rc_context(STYLE):
        yield
        interactive = mpl.is_interactive()
    mpl.interactive(interactive)


def _figure(figsize: tuple[float, float], ax=None, fig=None, **subplots) -> tuple[Figure, object, bool]:
    """Where a chart draws: on ``ax`` (and its figure), else on ``fig`` (its axes made here:
    one, or a grid with ``nrows``/``ncols``), else on a new pyplot figure of ``figsize``; and
    whether the figure is the chart's own (laid out and captioned here)."""
    if ax is not None:
        return ax.figure, ax, False
    own = fig is None
    if own:
        import matplotlib.pyplot as plt
        fig = plt.figure(figsize=figsize, FigureClass=Chart)
    return fig, fig.subplots(**subplots), own


def _finish(fig: Figure, ax, own: bool, caption_text: str,
            rect: tuple[float, float, float, float] = (0, 0.03, 1, 1)) -> Figure:
    """The provenance line under a chart, and the layout of a figure made here: at the foot of
    the figure, or under the axes given (whose figure keeps the caller's layout)."""
    if own:
        fig.tight_layout(rect=rect)
        fig.text(0.01, 0.005, caption_text, fontsize=7.5, color="0.35", ha="left", va="bottom")
    elif caption_text:
        ax.annotate(caption_text, (0, 0), xycoords="axes fraction", xytext=(0, -34),
                    textcoords="offset points", fontsize=6.5, color="0.35", va="top")
    return fig


def caption(stats: DeclarerStats) -> str:
    v = stats.variant
    return (f"{v.spec} | play: {stats.policy} | {stats.deals:,} deals x {stats.variant.players} declarers | seed "
            f"{stats.seed} | pinochle-sim {stats.provenance()['version']}")


def bid_heatmap(stats: DeclarerStats, confidence: float = 0.67, min_hands: int = MIN_HANDS,
                by: str = "aces_tens", note: str | None = None, ax=None, table=None,
                rule: str | None = None) -> Figure:
    """The recommended bid (made at least ``confidence`` of the time) by meld and aces + tens
    (``by="trumps"``: by trump length). Cells with too few hands to state a bid say "few".
    ``note``: a line under the chart (the bid charts say how the default bidding bids).
    ``table``, ``rule``: the bid table by ``by`` and the rule of thumb's words, if already made
    (a :class:`~pinochle_sim.studies.chart.BidChart` holds them)."""
    col = f"bid_{round(confidence * 100)}"
    if table is None:
        table = bid_table(stats, by, confidences=(confidence,), min_hands=1)
    bands = list(dict.fromkeys(table.index.get_level_values("meld")))
    columns = sorted(set(table.index.get_level_values(by)))
    grid = table[col].unstack(by).reindex(index=bands, columns=columns).to_numpy(dtype=float, copy=True)
    hands = table["hands"].unstack(by).reindex(index=bands, columns=columns).to_numpy(dtype=float)
    grid[~(hands >= min_hands)] = np.nan
    xlabel = {"aces_tens": "aces + tens in your hand", "trumps": "cards of the trump you name"}[by]
    with _styled():
        fig, ax, own = _figure((9, 6.2), ax)
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
        ax.text(0.5, 1.01, "rule of thumb (made to declare): " + (rule or rule_text(stats)),
                transform=ax.transAxes, fontsize=8, color="0.25", va="bottom", ha="center")
        ax.text(1.0, -0.09, f"'few': under {min_hands} hands, no bid stated", transform=ax.transAxes,
                fontsize=7, color="0.45", ha="right")
        if note and own:
            fig.text(0.01, 0.03, textwrap.fill(note, 170), fontsize=7, color="0.25", ha="left", va="bottom")
        return _finish(fig, ax, own, caption(stats), (0, 0.09 if note else 0.03, 1, 1))


def make_curves(stats: DeclarerStats, cells: list[tuple[str, int]] | None = None,
                min_hands: int = 1000, ax=None, table=None) -> Figure:
    """The chance of making each bid, with 95% Wilson intervals, for typical hands (meld band, A+T).

    Without ``cells``: the most common aces + tens at low, middle and high meld, among cells with
    at least ``min_hands`` hands (or, in a small simulation, at least ``MIN_HANDS``). ``table``:
    the bid table by aces + tens, if already made.
    """
    table = bid_table(stats, "aces_tens") if table is None else table
    table = table[table.hands >= max(min(min_hands, MIN_HANDS), 1)]
    pcols = chance_columns(table)
    bids = np.array([int(c[2:]) for c in pcols])
    if cells is None:
        cells = _typical_cells(table, min_hands)
    with _styled():
        fig, ax, own = _figure((9, 5.5), ax)
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
        return _finish(fig, ax, own, caption(stats))


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


def total_distribution(stats: DeclarerStats, ax=None) -> Figure:
    """The distribution of the side's total when declaring, overall and by meld band."""
    counts = stats.cube.sum(axis=(1, 2))  # [band, bin]
    values = (np.arange(counts.shape[1]) - 1) * stats.unit
    with _styled():
        fig, ax, own = _figure((9, 5), ax)
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
        return _finish(fig, ax, own, caption(stats))


def save(fig: Figure, path, format: str | None = None, close: bool = False) -> None:
    """Write a figure to ``path`` (a file name or an open binary file; format from the suffix);
    ``close``: let pyplot forget it (the command line closes what it saves)."""
    fig.savefig(path, dpi=STYLE["savefig.dpi"], format=format)
    if close:
        import matplotlib.pyplot as plt
        plt.close(fig)


def calibration_plot(tables: dict, caption_text: str = "", ax=None) -> Figure:
    """Predicted chance of making the contract against the share made, one line per variant
    (``tables``: name -> a ``match.Calibration``, or its ``bins``), with 95% Wilson intervals."""
    with _styled():
        fig, ax, own = _figure((6, 6), ax)
        for name, c in tables.items():
            c = getattr(c, "bins", c)
            ax.errorbar(c.predicted, c.made, yerr=[c.made - c.made_low, c.made_high - c.made], fmt="o-",
                        capsize=3, label=name)
        ax.plot([0, 1], [0, 1], color="0.6", ls="--", lw=1, label="perfect calibration")
        ax.set_xlim(0.5, 1.0)
        ax.set_ylim(0.4, 1.0)
        ax.set_xlabel("predicted chance of making the contract")
        ax.set_ylabel("share of contracts made")
        ax.set_title("Calibration in real auctions: the bidder's own estimate")
        ax.legend(frameon=False)
        return _finish(fig, ax, own, caption_text)


def forest_plot(c, fig=None) -> Figure:
    """A comparison (``compare.Comparison``): each difference from the baseline with its 95%
    interval, one panel per metric."""
    from .. import __version__
    return comparison_plot(c.table, f"Against {c.variants[0].spec}: paired differences, 95% intervals",
                           f"{c.deals:,} deals, seed {c.seed}, play {c.policy}, bidding {c.bidding} | "
                           f"pinochle-sim {__version__}", fig)


def comparison_plot(table, title: str, caption_text: str = "", fig=None) -> Figure:
    """Differences from a baseline, one panel per metric on its own scale.

    ``table``: the tidy table of :func:`pinochle_sim.studies.compare.compare` (rows with ``diff``,
    ``ci_low``, ``ci_high``, ``p_holm``). In each panel the variants are rows sorted by effect,
    with 95% intervals; a dot is filled where the difference holds after Holm's correction.
    ``fig``: a figure to draw the panels in (else a new pyplot figure).
    """
    t = table.dropna(subset=["diff"])
    metrics = list(dict.fromkeys(t.metric))
    ncols = 2 if len(metrics) > 3 else 1
    nrows = max(-(-len(metrics) // ncols), 1)
    n_var = t.variant.nunique()
    labels = {v: _short_label(v, t.baseline.iloc[0]) for v in t.variant.unique()}
    notes: set[str] = set()
    with _styled():
        fig, axes, own = _figure((13 if ncols == 2 else 7, nrows * (0.32 * n_var + 1.1) + 1.2), fig=fig,
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
        if own:
            fig.tight_layout(rect=(0, 0.02, 1, 0.97))
        return fig


def _short_label(spec: str, baseline: str) -> str:
    """A variant's label in a comparison: its options when it shares the baseline's preset."""
    name, _, opts = spec.partition(":")
    return opts.replace(",", ", ") if opts and name == baseline.partition(":")[0] else spec


def advice_curve(advice: dict, ax=None) -> Figure:
    """The chance of making each bid with one hand (``advise``'s answer), with its 95% Wilson
    band, the confidence asked for and the recommended bid."""
    bids = np.array(list(advice["p_make"]), dtype=float)
    p = np.array(list(advice["p_make"].values()))
    lo, hi = np.array(list(advice["p_make_ci95"].values())).T
    prov = advice["provenance"]
    with _styled():
        fig, ax, own = _figure((8, 4.6), ax)
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
        return _finish(fig, ax, own, f"{prov['deals']:,} deals of the other cards | seed {prov['seed']} | play "
                       f"{prov['play_policy']} | pinochle-sim {prov['version']}")


def auction_curves(model, caption_text: str = "", fig=None) -> Figure:
    """The auction-aware model: the chance an auction winner makes its contract against how far
    the bid sits above its hand's made-to-declare estimate, a panel per auction situation and a
    curve per kind of hand, each with its 95% band: solid where it is read from contracts,
    dashed where no contract was seen and the curve's logistic in the gap stands in. Dots: the
    share made at each gap, sized by the contracts, filled where the model's own auctions won
    most of them, hollow where exploring seats (bidding past their limits) did; a tick marks each
    curve's limit, the dashed line the confidence it bids to. ``fig``: a figure to draw the
    panels in (else a new pyplot figure)."""
    from ..studies.auction_model import KINDS, auction_table
    t = auction_table(model)
    reach = model.reach()
    names = list(dict.fromkeys(t.situation))
    ncols = 2 if len(names) > 1 else 1
    nrows = -(-len(names) // ncols)
    seen = t[t.contracts >= 0.002 * t.contracts.sum()].gap
    step = model.variant.raise_min
    with _styled():
        fig, axes, own = _figure((12 if ncols == 2 else 7, 4 * nrows + 0.8), fig=fig, nrows=nrows, ncols=ncols,
                                 squeeze=False, sharex=True, sharey=True)
        for ax, name in zip(axes.flat, names):
            s = SITUATIONS.index(name)
            part_s = t[t.situation == name]
            for k, kind in enumerate(KINDS):
                part = part_s[part_s.kind == kind]
                if part.empty:
                    continue
                color = f"C{k}"
                big = part[part.contracts >= 20]
                mostly = (big.explored * 2 > big.contracts).to_numpy()
                size = np.clip(big.contracts / 40, 4, 60).to_numpy()
                ax.scatter(big.gap[~mostly], big.made[~mostly], s=size[~mostly], color=color, alpha=0.35, lw=0)
                ax.scatter(big.gap[mostly], big.made[mostly], s=size[mostly], facecolors="none",
                           edgecolors=color, alpha=0.6, lw=0.8)
                band = (part.contracts >= 20) | (part.source == "logistic")  # not over a lone contract's width
                ax.fill_between(part.gap, part.p_low.where(band), part.p_high.where(band), color=color, alpha=0.15,
                                lw=0)
                ax.plot(part.gap, part.p.where(part.source == "read"), color=color, lw=2,
                        label=f"{kind} ({part.contracts.sum():,} contracts, {part.explored.sum():,} exploring)")
                ax.plot(part.gap, part.p.where(part.source == "logistic"), color=color, lw=1.5, ls="--")
                at = part[part.gap == reach[s, k]]
                if len(at):
                    ax.plot(at.gap, at.p, marker="|", ms=14, color=color, mew=2)
            ax.axhline(model.confidence, color="0.6", ls="--", lw=0.8)
            ax.axvline(0, color="0.8", lw=0.8)
            ax.set_title(name.replace("_", " "), fontsize=10, loc="left")
            ax.legend(frameon=False, fontsize=7, loc="lower left")
        for ax in list(axes.flat)[len(names):]:
            ax.set_visible(False)
        if len(seen):
            axes.flat[0].set_xlim(seen.min() - 10 * step, seen.max() + 10 * step)
        axes.flat[0].set_ylim(0, 1.02)
        for ax in axes[-1]:
            ax.set_xlabel("bid minus the hand's made-to-declare estimate (points)")
        for ax in axes[:, 0]:
            ax.set_ylabel("share of contracts made")
        fig.suptitle(f"{model.variant.name}: what winning the auction says, by the situation of the winning "
                     "bid and the kind of hand", fontsize=11)
        note = "curves: solid read from contracts, dashed logistic, band 95% (where 20 contracts or more); dots: " \
               "filled the model's own auctions, hollow mostly exploring seats; tick: the limit"
        return _finish(fig, axes.flat[0], own, f"{caption_text}\n{note}" if caption_text else note,
                       rect=(0, 0.05, 1, 1))
