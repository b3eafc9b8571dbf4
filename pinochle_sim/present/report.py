"""The files of a bid chart (:class:`~pinochle_sim.studies.chart.BidChart`): pictures, tables and their
provenance, written whole or not at all."""
from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from pathlib import Path

import pandas as pd

from .. import __version__
from ..engine.tricks import DEFAULT_POLICY
from ..studies.auction_model import auction_table, coverage
from ..studies.chart import BidChart
from ..studies.tables import CONFIDENCES

FORMATS = ("png", "csv", "json")


def bid_range_note(rec: int, lo: int | None, hi: int) -> str:
    """What the simulation can say of a recommended bid ``rec`` against the bids beside it
    (``lo``-``hi``: the bids it cannot tell apart from ``rec``; ``lo`` None: passing too)."""
    if lo == hi == rec:
        return "the simulation tells it apart from the bids beside it"
    return f"the simulation cannot tell it from {lo or 'pass'}-{hi}"


def provenance_line(p: dict) -> str:
    """One line naming what a result was made with, from its ``provenance()``: variant, card play,
    bidding, size, seed and version. The notebooks print it under their results, and a test holds
    the committed notebooks' lines to today's defaults."""
    what = p.get("variant") or ", ".join(p.get("variants", []))
    bidding = p.get("bidding") or ("the strategies compared" if "strategies" in p else
                                   "none, every seat made to declare")
    size = next((f"{p[k]:,} {k.replace('_', ' ')}" for k in ("deals", "matches_per_pairing", "matches_per_table")
                 if k in p), "")
    play = p.get("play_policy")
    play = play if isinstance(play, str) else ", ".join(dict.fromkeys(play))
    return (f"made with: {what} | play {play} | bidding {bidding} | {size} | seed {p.get('seed')} | "
            f"pinochle-sim {p['version']}")


def write_bid_chart(chart: BidChart, out: str | Path, formats=FORMATS) -> list[Path]:
    """Write a bid chart (:func:`~pinochle_sim.studies.chart.bid_chart`) into ``out``: its pictures
    (png), tables (csv) and metadata (json), and, with an auction model, its files too:
    ``auction_chart.png``, ``auction_model.csv``, ``auction_model_kinds.csv`` and their provenance
    in ``auction_model.json``. Nothing is computed here.

    Files appear only once all are written (they are staged in a temporary folder first). Under
    a card play other than the default their names end in it (``bid_chart_pimc.png`` beside
    ``bid_chart.png``).
    """
    from . import plots
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown format {sorted(unknown)[0]!r}; valid: {', '.join(FORMATS)}")
    stats, auction, confidence = chart.stats, chart.auction, chart.confidence
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    tag = "" if stats.policy == DEFAULT_POLICY else "_" + re.sub(r"[^A-Za-z0-9]+", "-", stats.policy)
    with tempfile.TemporaryDirectory(dir=out, prefix=".staging-") as tmp:
        stage = Path(tmp)
        if "png" in formats:
            def draw(fig, name: str) -> None:
                plots.save(fig, stage / name, close=True)
            if auction is not None:
                draw(plots.auction_curves(auction, plots.caption(stats).replace(
                    f"{stats.deals:,} deals x {stats.variant.players} declarers", "auctions of the auction strategy")),
                    "auction_chart.png")
            for by, name in (("aces_tens", "bid_chart.png"), ("trumps", "bid_chart_trumps.png")):
                draw(plots.bid_heatmap(stats, confidence, by=by, note=chart.note, table=chart.tables[by],
                                       rule=chart.rule_text), name)
            draw(plots.make_curves(stats, table=chart.tables["aces_tens"]), "p_make.png")
            draw(plots.total_distribution(stats), "total_distribution.png")
        if "csv" in formats:
            for by, name in (("aces_tens", "bid_table.csv"), ("aces,tens", "bid_table_aces_tens.csv"),
                             ("trumps", "bid_table_trumps.csv")):
                chart.table(by).to_csv(stage / name, float_format="%.6g")
            chart.rule.to_csv(stage / "rule_of_thumb.csv", float_format="%.6g")
            if auction is not None:
                auction_table(auction).to_csv(stage / "auction_model.csv", index=False, float_format="%.6g")
                pd.DataFrame(auction.kinds).to_csv(stage / "auction_model_kinds.csv", index=False,
                                                   float_format="%.6g")
            chart.winners.to_csv(stage / "auction_winners.csv", index=False, float_format="%.6g")
            chart.partner.to_csv(stage / "partner_adds.csv", float_format="%.6g")
        if "json" in formats:
            meta = stats.provenance() | {
                "confidences": list(CONFIDENCES), "chart_confidence": confidence,
                "rule_of_thumb": chart.rule.to_dict(orient="index"),
                "rule_of_thumb_measures": "a seat made to declare (every seat of every deal in turn)",
                "default_bidding": {"strategy": chart.default, "how": chart.note,
                                    "auction_winners": "auction_winners.csv: every seat bids so"},
                "rule_of_thumb_text": chart.rule_text,
                "partner_adds": chart.partner.to_dict(orient="index"),
                "seconds_to_write": round(time.perf_counter() - t0, 2),
            }
            (stage / "metadata.json").write_text(json.dumps(meta, indent=2, default=float))
            if auction is not None:
                (stage / "auction_model.json").write_text(json.dumps({
                    "variant": auction.variant.spec, "strategy": chart.auction_strategy,
                    "confidence": auction.confidence, "iterations": auction.history,
                    "near_the_limit": coverage(auction).to_dict(orient="records"),
                    "kinds": "auction_model_kinds.csv: the model's chance against the share made, by kind of "
                             "hand, in auctions it was not read from", "version": __version__},
                    indent=2, default=float))
        written = []
        for f in sorted(stage.iterdir()):
            target = out / f"{f.stem}{tag}{f.suffix}"
            shutil.move(str(f), target)
            written.append(target)
    return written
