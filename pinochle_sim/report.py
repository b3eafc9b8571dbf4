"""What the bid tables tell a player: advice for one hand, and the files of a bid chart."""
from __future__ import annotations

import json
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from .cards import SUITS, hand_counts
from .meld import meld_all_trumps
from .tables import (CONFIDENCES, MAX_CARDS, MAX_TRUMPS, N_BANDS, DeclarerStats, expected_change,
                     p_make, band_labels, bid_grid, bid_table, break_even_bid, partner_adds, pool_aces_tens,
                     recommended_bid, rule_of_thumb, rule_text)

FORMATS = ("png", "csv", "json")
MIN_CELL = 200  # hands a table cell needs before advice rests on it alone


def _cell(stats: DeclarerStats, band: int, aces: int, tens: int) -> tuple[np.ndarray, str]:
    """Side-total counts of the finest cell with enough hands, and how it was chosen."""
    c = stats.cube
    a, t = min(aces, MAX_CARDS - 1), min(tens, MAX_CARDS - 1)
    exact = c[band, a, t]
    if exact.sum() >= MIN_CELL:
        return exact, f"meld {band_labels(stats)[band]}, {aces} aces and {tens} tens"
    pooled = pool_aces_tens(c[band], axis=0)[a + t]
    if pooled.sum() >= MIN_CELL:
        return pooled, f"meld {band_labels(stats)[band]}, {aces + tens} aces + tens"
    return c[band].sum(axis=(0, 1)), f"meld {band_labels(stats)[band]}"


def advise(hand, stats: DeclarerStats, confidence: float = 0.67) -> dict:
    """Advice for one 12-card hand: meld in each trump, the best trump, the side's expected
    total with intervals, the chance of making each bid, and the recommended bid with its reason."""
    v = stats.variant
    counts = hand_counts(hand, v.hand_size)
    aces = int(counts[0::6].sum())
    tens = int(counts[1::6].sum())
    options = []
    m = stats.moments
    for meld in meld_all_trumps(counts, v):
        t = SUITS.index(meld.trump)
        trumps = int(counts[6 * t: 6 * t + 6].sum())
        band = min(meld.total // stats.band, N_BANDS - 1)
        a, te, tr = min(aces, MAX_CARDS - 1), min(tens, MAX_CARDS - 1), min(trumps, MAX_TRUMPS - 1)
        n, s1, s2 = m[band, a, te, tr]
        basis = "with this trump length"
        if n < MIN_CELL:
            n, s1, s2 = m[band, a, te].sum(axis=0)
            basis = "any trump length"
        mean = s1 / n if n else float("nan")
        sd = np.sqrt(max(s2 / n - mean ** 2, 0)) if n else float("nan")
        options.append({"trump": meld.trump, "meld": meld.total, "trumps": trumps, "band": band,
                        "expected_total": mean, "se": sd / np.sqrt(n) if n else float("nan"),
                        "hands": int(n), "basis": basis})
    best = max(options, key=lambda o: (np.nan_to_num(o["expected_total"], nan=-1e9), o["meld"]))
    cell, cell_label = _cell(stats, best["band"], aces, tens)
    bids = bid_grid(v, v.trick_total * 8)
    p = p_make(cell[None, :], bids, stats.unit)[0]
    change = expected_change(cell[None, :], bids, stats.unit)[0]
    keep = np.nonzero(p >= 0.02)[0]
    first = max(int(np.argmax(p < 0.99)) - 2, 0) if (p < 0.99).any() else 0
    shown = slice(first, keep.max() + 1 if keep.size else 1)
    rec = recommended_bid(p[None, :], bids, confidence)[0]
    values = (np.arange(cell.size) - 1) * stats.unit
    cum = np.cumsum(cell) / max(cell.sum(), 1)
    lo, hi = (values[min(np.searchsorted(cum, q), cell.size - 1)] for q in (0.1, 0.9))
    if np.isfinite(rec):
        j = int(np.nonzero(bids == rec)[0][0])
        why = (f"in {int(cell.sum()):,} simulated hands like this ({cell_label}, trump "
               f"{best['trump']}), the side reached {int(rec)} or more {p[j]:.0%} of the time; it is "
               f"the highest bid made at least {confidence:.0%} of the time")
    else:
        why = (f"in {int(cell.sum()):,} simulated hands like this ({cell_label}), the side made the "
               f"opening bid {v.opening_bid} only {p[0]:.0%} of the time (under {confidence:.0%}): pass")
    return {
        "variant": v.spec, "hand": " ".join(hand.split()) if isinstance(hand, str) else hand,
        "aces": aces, "tens": tens, "melds": options, "best_trump": best["trump"],
        "expected_total": best["expected_total"],
        "expected_total_ci95": [best["expected_total"] - 1.96 * best["se"],
                                best["expected_total"] + 1.96 * best["se"]],
        "total_10_90": [int(lo), int(hi)],
        "p_make": {int(b): float(x) for b, x in zip(bids[shown], p[shown])},
        "recommended_bid": None if not np.isfinite(rec) else int(rec),
        "confidence": confidence,
        "break_even_bid": (None if not np.isfinite(be := break_even_bid(change[None, :], bids)[0])
                           else int(be)),
        "why": why, "provenance": stats.provenance(),
    }


def write_bid_chart(stats: DeclarerStats, out: str | Path, formats=FORMATS,
                    confidence: float = 0.67) -> list[Path]:
    """Write the bid chart's pictures (png), tables (csv) and metadata (json) into ``out``.

    Files appear only once all are written (they are staged in a temporary folder first).
    """
    from . import plots
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown format {sorted(unknown)[0]!r}; valid: {', '.join(FORMATS)}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=out, prefix=".staging-") as tmp:
        stage = Path(tmp)
        if "png" in formats:
            plots.save(plots.bid_heatmap(stats, confidence), stage / "bid_chart.png")
            plots.save(plots.make_curves(stats), stage / "p_make.png")
            plots.save(plots.total_distribution(stats), stage / "total_distribution.png")
        if "csv" in formats:
            for by, name in (("aces_tens", "bid_table.csv"), ("aces,tens", "bid_table_aces_tens.csv"),
                             ("trumps", "bid_table_trumps.csv")):
                bid_table(stats, by).to_csv(stage / name, float_format="%.6g")
            rule_of_thumb(stats).to_csv(stage / "rule_of_thumb.csv", float_format="%.6g")
            partner_adds(stats).to_csv(stage / "partner_adds.csv", float_format="%.6g")
        if "json" in formats:
            meta = stats.provenance() | {
                "confidences": list(CONFIDENCES), "chart_confidence": confidence,
                "rule_of_thumb": rule_of_thumb(stats).to_dict(orient="index"),
                "rule_of_thumb_text": rule_text(stats),
                "partner_adds": partner_adds(stats).to_dict(orient="index"),
                "seconds_to_write": round(time.perf_counter() - t0, 2),
            }
            (stage / "metadata.json").write_text(json.dumps(meta, indent=2, default=float))
        written = []
        for f in sorted(stage.iterdir()):
            target = out / f.name
            shutil.move(str(f), target)
            written.append(target)
    return written
