"""The ``pinochle-sim`` command line: every command calls the public functions and only formats.

User errors (bad card, wrong hand size, unknown variant or option) print one line and exit 2.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import numpy as np

from .. import __version__
from ..studies.compare import CompareError
from ..engine.auction import AuctionError
from ..engine.cards import CardError, card_name, hand_counts, parse_cards
from ..engine.deal import MAX_SEED
from ..files import STREAMS, atomic_write, is_special, sidecar
from ..progress import compile_notice, compiled
from ..runs import ClusterError
from ..engine.tricks import DEFAULT_POLICY, POLICIES, POLICY_RANGES, policy_row
from ..studies.strategies import DEFAULT_BIDDING, DEFAULT_BIDDING_ALONE, StrategyError, strategy
from ..engine.variants import DEFAULT, PRESETS, SEED, VariantError, format_value, variant

DEFAULTS = f"{DEFAULT_BIDDING}, with each variant's weights; three-hand: {DEFAULT_BIDDING_ALONE}"


def _strategy(spec):
    """A strategy named on the command line, or None for the variant's default."""
    return None if spec is None else strategy(spec)


class UserError(ValueError):
    """A bad command-line value that is not a card or variant error."""


_SCALE = {"k": 1_000, "m": 1_000_000}


def count(text: str) -> int:
    """A count as people write large ones: ``200000``, ``200_000``, ``200,000``, ``2e5``,
    ``200k``, ``2M`` (its range is checked with the others, :func:`_check_numbers`)."""
    t = text.strip().replace("_", "").replace(",", "").lower()
    scale = 1
    if t[-1:] in _SCALE:
        scale, t = _SCALE[t[-1]], t[:-1]
    try:
        x = (int(t) if t.lstrip("+-").isdigit() else float(t)) * scale
    except ValueError:
        x = float("nan")
    if isinstance(x, float) and not x.is_integer():  # a fraction, or no number at all (nan, inf)
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number" if np.isfinite(x) else
                                         f"{text!r} is not a count (e.g. 200000, 200_000, 2e5, 200k)")
    return int(x)


#: What a command reports, and the fewest deals it reports it from; below that it says so.
MIN_DEALS = {"bid-table": ("a bid table", 1000), "bid-chart": ("a bid chart", 1000),
             "calibrate": ("a calibration", 1000), "compare": ("a comparison", 100),
             "advise": ("advice", 100)}
#: Said after a speed that counts compiling kernels (the first run of a version of the code).
COMPILING_TOO = ", compiling included"
#: Options that name a file or folder the command writes.
OUTPUTS = ("out", "csv", "plot")
#: The commands whose ``--out`` names a folder (every other output is a file).
FOLDER_OUT = ("bid-chart",)


#: The most deals or matches a command takes: days of a full machine at the speeds of
#: results/bench.json (docs/long-runs.md works out 10^10); more is surely a typing slip.
MAX_DEALS = 10 ** 11
#: Count options: (the least value, the most).
COUNTS = {"deals": (0, MAX_DEALS), "table_deals": (0, MAX_DEALS), "matches": (0, MAX_DEALS),
          "seed": (0, MAX_SEED), "start": (0, MAX_DEALS), "match": (0, MAX_SEED), "threads": (1, 4096),
          "min_hands": (0, MAX_DEALS)}


def _check_numbers(args: argparse.Namespace) -> None:
    """Every count and seed in its range, before any work."""
    for name, (low, high) in COUNTS.items():
        x = getattr(args, name, None)
        if x is not None and not low <= x <= high:
            what = "a seed" if name in ("seed", "match") else "a count"
            raise UserError(f"--{name.replace('_', '-')} {x}: {what} from {low:,} to {high:,}")


def _need_deals(what: str, deals: int, least: int, option: str = "--deals") -> None:
    if deals < least:
        raise UserError(f"too few deals for {what}: {option} {deals:,}; it needs at least {least:,}")


def _check_writable(path: str, folder: bool = False) -> None:
    """Refuse an output path that cannot be written, before any work and without creating it:
    a file (``folder`` false) where a folder is, a folder where a file is. A pipe, a device or
    a stream is written as it is (a file's place); a link is checked at its target."""
    if is_special(path):
        if folder:
            raise UserError(f"cannot write into {path}: it is not a folder")
        if path not in STREAMS and not os.access(path, os.W_OK):
            raise UserError(f"cannot write {path}: permission denied")
        return
    target = Path(os.path.realpath(path))
    if target.is_dir() and not folder:
        raise UserError(f"cannot write {path}: it is a folder")
    if target.exists() and not target.is_dir() and folder:
        raise UserError(f"cannot write into {path}: it is a file, not a folder")
    parent = target if folder and target.is_dir() else target.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise UserError(f"cannot write {path}: {parent} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None


# --------------------------------------------------------------------------------------------
# Output helpers.

def write_csv(df, path: str, provenance: dict, index: bool = False) -> None:
    """A CSV written whole or not at all, with its provenance beside it as ``path.json`` (not
    beside a pipe, a device or the standard output)."""
    with atomic_write(path) as fh:
        df.to_csv(fh, index=index, float_format="%.6g")
    if sidecar(path) is not None:
        with atomic_write(sidecar(path)) as fh:
            json.dump({**provenance, "file": Path(path).name, "version": __version__}, fh, indent=2)


def _save_plot(fig, path: str) -> None:
    """A figure written whole or not at all (format from the suffix; PNG without one)."""
    from .plots import save
    with atomic_write(path, "wb") as fh:
        save(fig, fh, Path(path).suffix.lstrip(".") or "png", close=True)


def table(rows: list[list], header: list[str], align: str | None = None) -> str:
    """A plain-text table; ``align`` holds 'l' or 'r' per column (default: first left, rest right)."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    align = align or "l" + "r" * (len(header) - 1)
    fmt = lambda r: "  ".join(c.ljust(w) if a == "l" else c.rjust(w)  # noqa: E731
                              for c, w, a in zip(r, widths, align)).rstrip()
    return "\n".join([fmt(cells[0]), "  ".join("-" * w for w in widths)] + [fmt(r) for r in cells[1:]])


def one_in(p: float) -> str:
    """A probability as '1 in N' (what seed 004's odds column means)."""
    if p <= 0:
        return "never"
    if p >= 0.5:
        return f"{p:.0%}"
    n = 1 / p
    return f"1 in {n:,.0f}" if n >= 10 else f"1 in {n:.1f}"


# --------------------------------------------------------------------------------------------
# Commands.

def cmd_variants(args: argparse.Namespace) -> None:
    if args.spec is None:
        rows = []
        for name, v in PRESETS.items():
            rows.append([name + (" (default)" if name == DEFAULT else ""), f"seed {SEED[name]}",
                         v.deck_size, v.trick_total, v.opening_bid, v.pass_cards, v.target])
        print(table(rows, ["variant", "source", "cards", "trick points", "opening bid", "cards passed",
                           "game to"]))
        print("\npinochle-sim variants NAME  lists every option; override any as NAME:option=value,...")
        return
    v = variant(args.spec)
    if args.json:
        print(json.dumps({"variant": v.spec, "options": v.options(),
                          "sources": {k: v.source(k) for k in v.options()}}, indent=2))
        return
    import dataclasses
    rows = [[f.name, format_value(getattr(v, f.name)), v.source(f.name)]
            for f in dataclasses.fields(v) if f.name != "name"]
    print(f"{v.spec}: {v.trick_total} trick points a hand\n")
    print(table(rows, ["option", "value", "source"], "lrl"))


def cmd_meld(args: argparse.Namespace) -> None:
    from ..engine.meld import meld, meld_all_trumps, refused_cards

    v = args.variant
    hand = hand_counts(args.hand, None if args.any_size else v.hand_size, v.deck_counts)
    melds = [meld(hand, args.trump, v)] if args.trump else meld_all_trumps(hand, v)
    refused = refused_cards(args.declare, hand, melds[0].trump, v) if args.declare else None
    if args.json:
        out = {"variant": v.spec, "hand": args.hand, "melds": [m.as_dict() for m in melds]}
        if refused is not None:
            out["refused"] = refused
        print(json.dumps(out, indent=2))
        return
    from ..engine.cards import format_hand
    print(f"{format_hand(hand)}  ({v.spec})")
    for m in melds:
        print(f"\ntrump {m.trump}: {m.total}")
        if m.items:
            print(table([[i.name, " ".join(i.cards), i.points] for i in m.items],
                        ["combination", "cards", "points"], "llr"))
    if refused is not None:
        print(f"\nrefused (make no meld): {' '.join(refused) or 'none'}")


def _chance(p: float, places: int = 6) -> str:
    """A chance to ``places`` decimals, or to three significant figures where those would show
    only zeros (a double run: 1.01e-08, not 0.000000)."""
    return f"{p:.3g}" if 0 < p < 10 ** -(places - 2) else f"{p:.{places}f}"


def cmd_odds(args: argparse.Namespace) -> None:
    from ..studies.odds import events, exact_odds, simulate_meld

    v = args.variant
    if args.with_kitty and not v.kitty:
        raise UserError(f"--with-kitty: {v.name} has no kitty")
    report = exact_odds(v, args.with_kitty)
    sim = simulate_meld(v, args.deals, args.seed, progress=not args.quiet,
                        with_kitty=args.with_kitty) if args.deals else None
    if sim is not None:
        report["simulated"] = {
            "deals": sim.deals, "seed": sim.seed,
            "events": {k: {"p": sim.p_hand[k], "se": sim.se_hand[k]} for k in sim.p_hand},
            "events_at_table": {k: {"p": sim.p_table[k], "se": sim.se_table[k]}
                                for k in report["events_at_table"]},
            "mean_meld_fixed_trump": {"mean": sim.mean_meld["fixed_trump"],
                                      "se": sim.se_mean_meld["fixed_trump"]},
            "mean_meld_best_trump": {"mean": sim.mean_meld["best_trump"],
                                     "se": sim.se_mean_meld["best_trump"]},
        }
    report["version"] = __version__
    if args.out:
        with atomic_write(args.out) as fh:
            json.dump(report, fh, indent=2)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    cards = v.hand_size + (v.kitty if args.with_kitty else 0)
    header = [f"combination (one {cards}-card hand)", "exact", "odds", "at the table"]
    if sim:
        header += ["simulated", "s.e.", "z"]
    rows = []
    for e in events(v.deck):
        p = report["events"][e.name]
        row = [e.label, _chance(p), one_in(p), _chance(report['events_at_table'].get(e.name, float('nan')), 4)
               if e.per_kind and report["events_at_table"] else ""]
        if sim:
            q, se = sim.p_hand[e.name], sim.se_hand[e.name]
            row += [_chance(q), _chance(se), f"{(q - p) / se:+.1f}" if se > 0 else ""]
        rows.append(row)
    for key, label in (("fixed_trump", "mean meld, trump named first"),
                       ("best_trump", "mean meld, the hand's best trump")):
        x = report[f"mean_meld_{key}"]
        row = [label, f"{x:.3f}", "", ""]
        if sim:
            m, se = sim.mean_meld[key], sim.se_mean_meld[key]
            row += [f"{m:.3f}", f"{se:.3f}", f"{(m - x) / se:+.1f}" if se > 0 else ""]
        rows.append(row)
    print(f"Meld odds, {v.spec} (exact: counted over all {v.deck_size}-card deals)")
    if sim:
        print(f"simulated: {sim.deals:,} deals, seed {sim.seed}; s.e. per deal")
    print(table(rows, header))
    q = report["meld_best_trump"]["quantiles"]
    print("\nbest-trump meld quantiles: " + ", ".join(f"{float(k):.0%} {x}" for k, x in q.items()))
    if args.out:
        print(f"wrote {args.out}")


def cmd_play(args: argparse.Namespace) -> None:
    from .show import show_record
    from ..studies.records import records

    recs = records(args.variant, args.deals, args.seed, args.start, policy=args.policy,
                   bidding=_strategy(args.bidding))
    if args.out:
        with atomic_write(args.out) as fh:
            for r in recs:
                fh.write(json.dumps(r) + "\n")
    if args.show:
        for r in recs:
            print(show_record(r, args.variant))
            print()
    if args.out:
        print(f"wrote {len(recs)} hand records to {args.out}")
    elif not args.show:
        for r in recs:
            print(json.dumps(r))


def cmd_simulate(args: argparse.Namespace) -> None:
    from ..studies.simulate import simulate

    out = args.out or f"results/sim_{args.variant.name}.parquet"
    _dd_trick(args)
    meta = simulate(args.variant, args.deals, args.seed, out, policy=args.policy,
                    bidding=_strategy(args.bidding), progress=not args.quiet, dd_from=args.dd,
                    where=_where(args))
    s = meta["summary"]
    played = s["hands"] - s["thrown_in"]
    contracts = (f"average winning bid {s['bid_sum'] / played:.1f}; made {s['made'] / played:.1%}" if played
                 else "no contract played")  # (no average of nothing)
    print(f"{args.variant.spec}: {s['hands']:,} deal{'' if s['hands'] == 1 else 's'} in {meta['seconds']:.1f} s "
          f"({_rate(s['hands'] / max(meta['seconds'], 1e-9))} hands/s{COMPILING_TOO if compiled() else ''}); thrown in "
          f"{s['thrown_in'] / max(s['hands'], 1):.1%}; {contracts}")
    print(f"wrote {out}" + (f" and {sidecar(out)}" if sidecar(out) else ""))


def _rate(x: float) -> str:
    """A speed for people: whole numbers from 10 up, two significant digits below (a first run's
    compiling can bring a short one under one a second, which would print as 0)."""
    return f"{x:,.0f}" if x >= 10 else f"{x:.2g}"


#: ``--dd`` given without a trick (argparse's ``const``: not a number a user can type, nor a string,
#: which argparse would read as one).
DD_ALONE = object()


def _dd_trick(args: argparse.Namespace) -> int | None:
    """``--dd TRICK``, checked against the variant's hand (``--dd`` alone: ``Variant.dd_trick``)."""
    if args.dd is DD_ALONE:
        args.dd = args.variant.dd_trick
    if args.dd is not None and not 0 <= args.dd < args.variant.hand_size:
        raise UserError(f"--dd is a trick number from 0 to {args.variant.hand_size - 1}")
    return args.dd


def _where(args: argparse.Namespace):
    """Where a long command's chunks run (``--scheduler``, ``--workers``) and ``--resume``."""
    from ..runs import Where
    try:
        return Where(args.scheduler, args.workers, args.resume)
    except ValueError as e:
        raise UserError(str(e)) from None


def _stats(args: argparse.Namespace):
    from ..studies.declarer import cached_stats, declarer_stats
    dd = _dd_trick(args) if hasattr(args, "dd") else None
    if args.no_cache or dd is not None:
        return declarer_stats(args.variant, args.deals, args.seed, args.policy,
                              progress=not args.quiet, where=_where(args), dd_from=dd)
    return cached_stats(args.variant, args.deals, args.seed, args.policy, progress=not args.quiet,
                        where=_where(args))


def _confidence(text: str) -> float:
    c = float(text)
    if not 0 < c < 1:
        raise UserError(f"--confidence must be between 0 and 1, got {text}")
    return c


def _grid(column, level: str):
    """A table column as meld bands (rows, in band order) by ``level`` (columns, in number order)."""
    bands = list(dict.fromkeys(column.index.get_level_values("meld")))
    wide = column.unstack(level)
    return wide.reindex(index=bands, columns=sorted(wide.columns, key=float))


def cmd_bid_table(args: argparse.Namespace) -> None:
    import pandas as pd

    from ..studies.tables import bid_table, partner_adds, rule_text

    conf = _confidence(args.confidence)  # refused before the simulation, not after
    stats = _stats(args)
    t = bid_table(stats, args.by, confidences=(conf,), min_hands=1)
    if args.csv:
        write_csv(bid_table(stats, args.by), args.csv, stats.provenance(), index=True)
    if args.json:
        print(json.dumps({**stats.provenance(), "table": json.loads(
            t.reset_index().to_json(orient="records"))}, indent=2))
        return
    col = f"bid_{round(conf * 100)}"
    shown = t[t.hands >= args.min_hands]
    print(f"Bid table, {stats.variant.spec} ({stats.deals:,} deals x {stats.variant.players} declarers, seed "
          f"{stats.seed}, play {stats.policy}); cells with fewer than {args.min_hands} hands blank\n")
    with pd.option_context("display.width", 200, "display.max_columns", 40):
        if args.by in ("aces_tens", "trumps"):
            level = "aces_tens" if args.by == "aces_tens" else "trumps"
            print(f"expected side total, by your meld (rows) and {level.replace('_', ' + ')} (columns):")
            print(_grid(shown["mean_total"], level).round(0).to_string(na_rep=""))
            if "mean_total_dd" in shown:
                print(f"\nthe same, had every seat played double dummy from trick {stats.dd_from}:")
                print(_grid(shown["mean_total_dd"], level).round(0).to_string(na_rep=""))
            print(f"\nhighest bid made at least {conf:.0%} of the time ('-': pass):")
            print(_grid(shown[col], level).to_string(na_rep="-", float_format="{:.0f}".format))
        else:
            cols = [col, col + "_low", col + "_high"]
            dd_cols = ["mean_total_dd"] if "mean_total_dd" in shown else []
            view = shown[["hands", "mean_total", "se_total", *dd_cols, *cols]].round(1).astype(object)
            for c in cols:  # no bid: the cell passes, or it has too few hands to say
                view[c] = view[c].where(shown[c].notna(), np.where(shown.enough, "pass", "few"))
            print(view.to_string())
    pa = partner_adds(stats)
    print(f"\nrule of thumb: {rule_text(stats)}")
    gained = f"{pa.loc['meld_gained_by_passing', 'mean']:.1f}"
    if stats.variant.kitty:
        print(f"your meld gained from the kitty: {gained}; your trick points (discard included): "
              f"{pa.loc['side_trick_points', 'mean']:.1f}")
    else:
        print(f"partner's meld on average: {pa.loc['partner_meld', 'mean']:.1f} "
              f"(s.e. {pa.loc['partner_meld', 'se']:.2f}); your meld gained by passing: "
              f"{gained}; side trick points: {pa.loc['side_trick_points', 'mean']:.1f}")
    if args.csv:
        print(f"wrote {args.csv}")


def cmd_bid_chart(args: argparse.Namespace) -> None:
    from ..studies.chart import bid_chart
    from .report import FORMATS, write_bid_chart

    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    for f in formats:
        if f not in FORMATS:
            raise UserError(f"unknown format {f!r}; valid: {', '.join(FORMATS)}")
    if not formats:
        raise UserError(f"--format names no format: give one or more of {', '.join(FORMATS)}")
    out = args.out or f"results/{args.variant.name}"
    if args.auction_model and args.policy != DEFAULT_POLICY:
        raise UserError(f"--auction-model: the auction model is played with {DEFAULT_POLICY}, not {args.policy}")
    conf = _confidence(args.confidence)
    stats = _stats(args)
    s = strategy("auction")
    model = s.model(args.variant, _where(args), not args.quiet) if args.auction_model else None
    chart = bid_chart(stats, conf, model, s.spec, _where(args), not args.quiet)
    for path in write_bid_chart(chart, out, formats):
        print(f"wrote {path}")


def _print_rows(items: list[str], per_row: int = 5) -> None:
    for i in range(0, len(items), per_row):
        print("  " + "   ".join(items[i:i + per_row]))


def cmd_advise(args: argparse.Namespace) -> None:
    from ..studies.advise import advise

    seats = args.variant.players
    for name in ("seat", "dealer"):
        if getattr(args, name) is not None:
            args.variant.check_seat(getattr(args, name), f"--{name}")
    dealer = None if args.dealer is None else (args.dealer - args.seat) % seats  # the kernels seat you at 0
    a = advise(args.hand, args.variant, args.deals, args.seed, _confidence(args.confidence),
               args.policy, dealer, args.auction, _strategy(args.model), where=_where(args))
    if args.plot:
        from .plots import advice_curve
        _save_plot(advice_curve(a), args.plot)
    if args.json:
        print(json.dumps(a, indent=2))
        return
    print(f"{a['hand']}  ({a['variant']}; {a['aces']} aces, {a['tens']} tens; {args.deals:,} deals, "
          f"seed {args.seed}, play {args.policy})\n")
    print(table([[m["trump"] if m["trumps"] is not None else "after the kitty", m["meld"],
                  "" if m["trumps"] is None else m["trumps"], f"{m['expected_total']:.1f}",
                  f"{m['ci95'][0]:.1f}-{m['ci95'][1]:.1f}", f"{m['p_make_opening']:.0%}"]
                 for m in a["melds"]], ["trump", "meld", "trumps", "expected side total", "95% interval",
                                        "makes the opening bid"]))
    m = a["trump_margin"]
    if m is None:  # a kitty: the trump is named after it
        named = a["melds"][0]["named_after_kitty"]
        print("\ntrump named after the kitty: " + ", ".join(f"{s} {x:.0%}" for s, x in named.items())
              + f"; 80% of deals end between {a['total_10_90'][0]} and {a['total_10_90'][1]}")
    else:
        print(f"\nname {a['best_trump']}: {m['diff']:+.1f} over {m['over']} on the same deals "
              f"(95% interval {m['ci95'][0]:+.1f} to {m['ci95'][1]:+.1f}); 80% of deals end between "
              f"{a['total_10_90'][0]} and {a['total_10_90'][1]}")
    print("\nchance of making each bid (95% interval):")
    _print_rows([f"{b}: {p:.0%} ({a['p_make_ci95'][b][0]:.0%}-{a['p_make_ci95'][b][1]:.0%})"
                 for b, p in a["p_make"].items()])
    rec, (lo, hi) = a["recommended_bid"], a["recommended_bid_range"]
    from .report import bid_range_note
    rng = "" if rec is None else "; " + bid_range_note(rec, lo, hi)
    print(f"\nrecommended bid: {rec if rec is not None else 'pass'} (made at least "
          f"{a['confidence']:.0%} of the time{rng})")
    print(f"why: {a['why']}")
    b = a["bidding"]
    words = {"open": "to open", "partner_high": "over your partner",
             "opponent_high_partner_out": "after your partner passed", "opponent_high": "over an opponent"}
    print(f"\nhow far the bidding {b['strategy']} takes this hand (naming {b['trump']}): "
          + ", ".join(f"{x['bid'] if x['bid'] is not None else 'pass'} {words[k]}" for k, x in b["situations"].items()))
    if "call" in a:
        c = a["conditioning"]
        print(f"\nafter {a['auction']!r} the other hands were read from the calls under the {c['model']} "
              f"model: {c['kept']:,} of {c['drawn']:,} dealings agree (effective sample size "
              f"{c['effective_sample_size']:,})")
        print("taking the contract against passing now, " + ("your side's score minus theirs" if args.variant.teams == 2
              else "your score minus the mean of the others'") + " (95% interval):")
        _print_rows([f"{b}: {x['mean']:+.0f} ({x['ci95'][0]:+.0f} to {x['ci95'][1]:+.0f})"
                     for b, x in list(a["value"].items())[:10]])
        print(f"call now: {a['call']} ({a['call_why']})")
    if args.plot:
        print(f"wrote {args.plot}")


def cmd_compare(args: argparse.Namespace) -> None:
    from ..studies.compare import compare

    vs = [variant(text) for text in args.variants]
    if len(vs) < 2:
        raise UserError("compare needs at least two variants; the first is the baseline")
    _need_deals("the recommended-bid metric of a comparison", args.table_deals, MIN_DEALS["bid-table"][1],
                "--table-deals")
    c = compare(vs, args.deals, args.seed, args.policy, progress=not args.quiet,
                table_deals=args.table_deals, bidding=_strategy(args.bidding), where=_where(args))
    t = c.table
    if args.csv:
        write_csv(t, args.csv, c.provenance())
    if args.plot:
        from .plots import forest_plot
        _save_plot(forest_plot(c), args.plot)
    if args.json:
        print(json.dumps({**c.provenance(), "rows": json.loads(t.to_json(orient="records"))},
                         indent=2))
        return
    print(f"Compared on the same {c.deals:,} deals (seed {c.seed}, play {c.policy}, bidding {c.bidding}); baseline "
          f"{c.variants[0].spec}. Points per 250 trick points; p adjusted by Holm.\n")
    rows = []
    for _, r in t.iterrows():
        fmt = "{:.4f}" if r.unit == "fraction" else "{:.2f}"
        rows.append([r.metric, r.variant, f"{fmt.format(r['mean'])} ± {fmt.format(r.se)}",
                     "" if not np.isfinite(r.get("diff", np.nan)) else
                     f"{fmt.format(r['diff'])} [{fmt.format(r.ci_low)}, {fmt.format(r.ci_high)}]",
                     "" if not np.isfinite(r.get("p_holm", np.nan)) else f"{r.p_holm:.3g}",
                     "" if not np.isfinite(r.get("deals_saved", np.nan)) else f"{r.deals_saved:.1f}x",
                     "" if not np.isfinite(r.get("diff", np.nan)) or r.pairs == r.deals else
                     f"{fmt.format(r.base_mean)} -> {fmt.format(r.paired_mean)} ({int(r.pairs):,})"])
    print(table(rows, ["metric", "variant", "mean ± s.e.", "difference [95% interval]", "p (Holm)",
                       "pairing saved", "on the deals both played"], "llrrrrr"))
    print("\nmade_recommended_bid: each variant's 67% bid comes from its own bid table "
          f"({args.table_deals:,} other deals); that table's sampling error is not in the interval, "
          "so its small differences may not be real")
    for path in (args.csv, args.plot):
        if path:
            print(f"wrote {path}")


def cmd_tournament(args: argparse.Namespace) -> None:
    from ..studies.match import tournament

    strats = [strategy(s) for s in args.strategies]  # refuses unknown names before any work
    specs = [x.spec for x in strats]
    twice = sorted({x for x in specs if specs.count(x) > 1})
    if twice:
        raise UserError(f"strategy {twice[0]} is named twice: a tournament plays different strategies")
    if len(strats) < 2:
        raise UserError("a tournament needs at least two strategies")
    if args.variant.teams == 3 and len(strats) < 3:
        raise UserError(f"a {args.variant.name} tournament needs at least three strategies, one per "
                        f"seat (got {len(strats)})")
    t = tournament(args.variant, strats, args.matches, args.seed, args.policy,
                   progress=not args.quiet, where=_where(args))
    df = t.table
    if args.variant.teams == 3:
        return _print_round_table(t, df, args)
    if args.csv:
        write_csv(df, args.csv, t.provenance())
    margin, se = t.payoff("margin_per_hand_a")
    win, wse = t.payoff("win_rate_a")
    if args.json:
        print(json.dumps({**t.provenance(), "pairings": json.loads(df.to_json(orient="records")),
                          "payoff_margin": margin.to_dict(), "payoff_margin_se": se.to_dict(),
                          "payoff_win_rate": (win + 0.5).to_dict()}, indent=2))
        return
    print(f"Duplicate round robin, {t.variant.spec}: {2 * t.matches:,} matches per pairing "
          f"(seats swapped on the same deals), seed {t.seed}, play {t.policy}\n")
    rows = [[r.a, r.b, f"{r.win_rate_a:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]",
             f"{r.margin_per_hand_a:+.1f} ± {r.margin_se:.1f}", f"{r.set_rate_a:.1%} / {r.set_rate_b:.1%}",
             f"{r.avg_bid_a:.0f} / {r.avg_bid_b:.0f}", f"{r.hands_per_match:.1f}"]
            for r in df.itertuples()]
    print(table(rows, ["A", "B", "A's win rate [95%]", "A's margin/hand", "set rate A / B",
                       "avg bid A / B", "hands/match"], "llrrrrr"))
    cells = [[name] + [f"{margin.loc[name, c]:+.1f} ± {se.loc[name, c]:.1f}" if name != c else "."
                       for c in margin.columns] for name in margin.index]
    print("\npayoff matrix: row's score margin per hand against column (paired, ± s.e.)")
    print(table(cells, ["", *margin.columns]))
    if args.csv:
        print(f"wrote {args.csv}")


def _print_round_table(t, df, args: argparse.Namespace) -> None:
    if args.csv:
        write_csv(df, args.csv, t.provenance())
    if args.json:
        print(json.dumps({**t.provenance(), "rows": json.loads(df.to_json(orient="records"))}, indent=2))
        return
    print(f"Three at a table, {t.variant.spec}: {3 * t.matches:,} matches per table (each strategy in "
          f"each seat on the same deals), seed {t.seed}, play {t.policy}; a third of the wins is even\n")
    print(table([[r.table, r.strategy, f"{r.win_rate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]",
                  f"{r.margin_per_hand:+.2f} ± {r.margin_se:.2f}", f"{r.set_rate:.1%}", f"{r.avg_bid:.1f}",
                  f"{r.hands_per_match:.1f}"] for r in df.itertuples()],
                ["table", "strategy", "win rate [95%]", "margin/hand over the others", "set rate",
                 "avg bid", "hands/match"], "llrrrrr"))
    if args.csv:
        print(f"wrote {args.csv}")


def cmd_match(args: argparse.Namespace) -> None:
    from ..studies.records import match_hands
    from .show import show_record

    v = args.variant
    from ..studies.strategies import default_bidding
    if args.team2 and v.teams == 2:
        raise UserError(f"--team2: {v.name} has two sides, --team0 (seats 0 and 2) and --team1 (seats 1 and 3)")
    sides = [s or default_bidding(v) for s in (args.team0, args.team1, args.team2)[:v.teams]]
    side = "team" if v.teams == 2 else "seat"
    recs = match_hands(v, args.seed, *sides, m=args.match, policy=args.policy)
    if args.json:
        last = recs[-1]
        print(json.dumps({"variant": v.spec, "seed": args.seed, "match": args.match, "policy": args.policy,
                          "bidding": [strategy(x).spec for x in sides], "winner": last.get("winner"),
                          "totals": last["totals"], "hands": recs, "version": __version__}, indent=2))
        return
    for number, r in enumerate(recs, 1):
        if args.show:
            print(show_record(r))
        else:
            who = "thrown in" if r["bidder"] is None else (
                f"seat {r['bidder']} bid {r['bid']} in {r['trump']}: "
                f"{'made' if r['score'][v.team(r['bidder'])] >= 0 else 'set'}")
            print(f"hand {number:3d}  dealer {r['dealer']}  {who:32s} "
                  + " ".join(f"{x:+5d}" for x in r["score"]) + "   totals "
                  + " ".join(f"{x:6d}" for x in r["totals"]))
            continue
        print("running totals: " + ", ".join(f"{side} {k} {x}" for k, x in enumerate(r["totals"])) + "\n")
    last = recs[-1]
    if "winner" in last:
        print(f"{side} {last['winner']} wins " + " to ".join(str(x) for x in last["totals"])
              + f" after {len(recs)} hands ("
              + ", ".join(f"{side} {k}: {name}" for k, name in enumerate(sides)) + ")")
    else:
        print(f"undecided after {len(recs)} hands")


def cmd_calibrate(args: argparse.Namespace) -> None:
    import pandas as pd

    from ..studies.match import calibration
    from ..studies.strategies import default_bidding

    s = strategy(args.strategy or default_bidding(args.variant))
    if not args.strategy and not hasattr(s, "predict"):
        s = strategy("auction")  # the default bidding makes no estimate of its chance: check the model's
    if not hasattr(s, "predict"):
        raise UserError(f"calibrate needs a strategy with its own estimate (auction, table, cautious, "
                        f"aggressive), not {s.name}")
    against = strategy(args.against) if args.against else None
    c = calibration(args.variant, s, args.deals, args.seed, policy=args.policy, where=_where(args),
                    against=against)
    if args.csv:
        write_csv(pd.concat([c.bins.assign(group="bin"), c.situations.assign(group="situation"),
                             c.margin.assign(group="margin")], ignore_index=True),
                  args.csv, c.provenance | {"brier": c.brier, "brier_base": c.brier_base})
    if args.plot:
        from .plots import calibration_plot
        _save_plot(calibration_plot({args.variant.spec: c}, f"{args.variant.spec} | bidding {s.spec}"
                                    + (f" against {against.spec}" if against else "")
                                    + f" | play {args.policy} | {args.deals:,} deals | seed {args.seed} | "
                                    f"pinochle-sim {__version__}"), args.plot)
    if args.json:
        tables = {name: json.loads(t.to_json(orient="records"))
                  for name, t in (("bins", c.bins), ("situations", c.situations), ("margin", c.margin))}
        print(json.dumps({**c.provenance, **tables, "brier": c.brier, "brier_base": c.brier_base}, indent=2,
                         default=str))
        for path in (args.csv, args.plot):
            if path:
                print(f"wrote {path}", file=sys.stderr)
        return
    who = (f"its side bids with it, the other {'side' if args.variant.teams == 2 else 'seats'} with "
           f"{against.spec}" if against else "every seat bids with it")
    print(f"{s.spec} in {args.variant.spec}: {who}; play {args.policy}; {args.deals:,} deals, seed "
          f"{args.seed}; 'predicted' is the bidder's own estimate when it took the contract (forced "
          "openings and stuck dealers left out)\n")
    print(table([[r.bin, r.contracts, f"{r.predicted:.3f}", f"{r.made:.3f}",
                  f"{r.made_low:.3f}-{r.made_high:.3f}", _made_minus_predicted(r)] for r in c.bins.itertuples()],
                ["predicted", "contracts", "mean predicted", "made", "95% interval", "made - predicted"]))
    for title, t in (("by the situation of the winning bid", c.situations),
                     ("at the margin: contracts bid at the bidder's limit", c.margin)):
        print(f"\n{title}\n")
        print(table([[r.situation.replace("_", " "), r.contracts, f"{r.predicted:.3f}", f"{r.made:.3f}",
                      f"{r.made_low:.3f}-{r.made_high:.3f}", _made_minus_predicted(r), f"{r.brier:.4f}"]
                     for r in t.itertuples()],
                    ["situation", "contracts", "mean predicted", "made", "95% interval", "made - predicted",
                     "Brier"]))
    print(f"\nBrier score {c.brier:.4f} (one chance for every contract, the share made: {c.brier_base:.4f})")
    for path in (args.csv, args.plot):
        if path:
            print(f"wrote {path}")


def _made_minus_predicted(r) -> str:
    """made - predicted in points, with a mark where the cell is too small to say (under
    ``MIN_CALIBRATION`` contracts) or the gap is over 2 points and outside the interval."""
    from ..studies.match import MIN_CALIBRATION

    gap = 100 * (r.made - r.predicted)
    if r.contracts < MIN_CALIBRATION:
        return f"{gap:+.1f} (few contracts)"
    off = abs(gap) > 2 and not r.made_low <= r.predicted <= r.made_high
    return f"{gap:+.1f}" + (" !" if off else "")


def cmd_dd(args: argparse.Namespace) -> None:
    from ..studies.dd import double_dummy, replay
    from ..studies.records import FIELDS

    v = args.variant
    if not args.record:
        for given, option in ((args.deal, "--deal"), (args.from_trick, "--from-trick")):
            if given is not None:
                raise UserError(f"{option} reads a record: give --record FILE (play --out writes one)")
    else:
        args.deal = 0 if args.deal is None else args.deal
        args.from_trick = 4 if args.from_trick is None else args.from_trick
        if not Path(args.record).is_file():
            raise UserError(f"--record {args.record}: no such file")
        lines = Path(args.record).read_text().splitlines()
        if not 0 <= args.deal < len(lines):
            raise UserError(f"--deal {args.deal}: {args.record} holds {len(lines)} hand records")
        try:
            rec = json.loads(lines[args.deal])
        except json.JSONDecodeError:
            raise UserError(f"{args.record}: line {args.deal + 1} is not a hand record (JSON)") from None
        if not isinstance(rec, dict):
            raise UserError(f"{args.record}: line {args.deal + 1} is not a hand record (not a JSON object)")
        lacks = [f for f in FIELDS if f not in rec]
        if lacks:
            raise UserError(f"{args.record}: line {args.deal + 1} is not a hand record (it lacks "
                            f"{', '.join(lacks)}; play --out writes them)")
        v = variant(rec["variant"])
        if rec["bidder"] is None:
            raise UserError(f"deal {rec['deal']} was thrown in: no play to solve")
        if not 0 <= args.from_trick < v.hand_size:
            raise UserError(f"--from-trick {args.from_trick}: the hand has tricks 0-{v.hand_size - 1}")
        tricks = replay(rec, args.from_trick)
        if args.json:
            print(json.dumps({"deal": rec["deal"], "variant": rec["variant"], "trump": rec["trump"],
                              "tricks": [{**asdict(t), "swing": t.swing} for t in tricks],
                              "version": __version__}, indent=2))
            return
        print(f"deal {rec['deal']} ({rec['variant']}), trump {rec['trump']}: each trick's double-dummy "
              "value for the leader's side before it, and after the cards actually played")
        for t in tricks:
            print(f"  trick {t.trick + 1:2d}: seat {t.leader} leads {' '.join(t.cards):14s} worth {t.before:4d} "
                  f"before, {t.after:4d} after ({t.swing:+d} for the leader's side)")
        return
    if len(args.hands) != v.players:
        raise UserError(f"{v.name} has {v.players} seats: give {v.players} hands (or --record FILE)")
    if args.trump is None:
        raise UserError("--trump is needed with hands written out")
    v.check_seat(args.leader, "--leader")
    try:
        r = double_dummy(args.hands, args.trump, args.leader, v, args.trick or ())
    except ValueError as e:  # uneven hands, a trick that cannot be on the table
        raise UserError(str(e)) from None
    if args.json:
        trick = [card_name(k) for k in parse_cards(args.trick or "")]
        print(json.dumps({"variant": v.spec, "trump": args.trump.upper(), "leader": args.leader, "trick": trick,
                          **asdict(r), "version": __version__}, indent=2))
        return
    print(f"seat {r.seat} to play ({v.spec}, trump {args.trump.upper()}): best {' '.join(r.best)}, "
          f"{r.points} points for its side from here")
    print("  " + "   ".join(f"{c}: {x}" for c, x in r.values.items()))


def cmd_strength(args: argparse.Namespace) -> None:
    from ..studies.strength import strength
    if args.policy == args.against:
        raise UserError("--policy and --against name the same policy: nothing to compare")
    if args.deals < 2:
        raise UserError("--deals must be at least 2")
    _dd_trick(args)
    r = strength(args.variant, args.policy, args.against, args.deals, args.seed, _strategy(args.bidding),
                 None if args.no_dd else -1 if args.dd is None else args.dd, _where(args), not args.quiet,
                 args.metric)
    if args.json:
        print(json.dumps(r, indent=2))
        return
    print(f"{r['policy']} against {r['against']}, {r['variant']}: {r['hands']:,} duplicate hands "
          f"(seed {r['seed']}, bidding {r['bidding']}), {_rate(r['hands_per_s'])} hands/s"
          + (COMPILING_TOO if compiled() else "")
          + (" with the double-dummy yardstick (--no-dd: the play alone)" if "dd_distance" in r else ""))
    verb = "takes" if r["metric"] == "points" else "scores"
    print(f"  {r['policy']}'s side {verb} {r['diff']:+.2f} {r['scale']} more "
          f"(s.e. {r['se']:.2f}; 95% interval {r['ci_low']:+.2f} to {r['ci_high']:+.2f})")
    if r["deals_to_show"] is not None:
        print(f"  were the difference {r['diff']:+.2f}, about {r['deals_to_show']:,} "
              f"deal{'' if r['deals_to_show'] == 1 else 's'} would put the "
              f"interval clear of zero four times in five (this run: {r['deals']:,})")
    for name, x in r.get("dd_distance", {}).items():
        print(f"  {name}'s side against double dummy from trick {r['dd_from']}: {x['mean']:+.2f} "
              f"(95% interval {x['ci_low']:+.2f} to {x['ci_high']:+.2f})")


COMMANDS: dict[str, Callable[[argparse.Namespace], None]] = {
    "variants": cmd_variants, "meld": cmd_meld, "odds": cmd_odds, "play": cmd_play,
    "simulate": cmd_simulate, "bid-table": cmd_bid_table, "bid-chart": cmd_bid_chart,
    "advise": cmd_advise, "compare": cmd_compare, "tournament": cmd_tournament,
    "match": cmd_match, "calibrate": cmd_calibrate, "dd": cmd_dd, "strength": cmd_strength,
}


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line like every other user error."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"pinochle-sim: error: {message} (see pinochle-sim --help)\n")


def _policy(text: str) -> str:
    """A card-play policy argument, ``NAME[:option=value,...]``, in its canonical spelling."""
    try:
        return policy_row(text.strip())[0]
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


POLICY_HELP = (f"card-play policy: {', '.join(POLICIES)} (default {DEFAULT_POLICY}); pimc takes "
               + ",".join(f"{k}=" + ("|".join(r) if isinstance(r[0], str) else "N")
                          for k, r in POLICY_RANGES["pimc"].items()) + " (e.g. pimc:worlds=100)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="pinochle-sim", description=(
        "Monte Carlo bidding analysis for Pinochle: four-hand partnerships and three-hand."))
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument("--threads", type=int, default=None, help="threads for the loops over deals (default: all)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND",
                           parser_class=_Parser)

    presets = ", ".join(PRESETS)

    def add_variant(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--variant", "-v", default=DEFAULT,
                        help=f"variant, with options: NAME[:opt=value,...] (default {DEFAULT}); presets: {presets}")

    s = sub.add_parser("variants", help="list the variants, or every option of one")
    s.add_argument("spec", nargs="?", help="variant NAME[:opt=value,...]")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("meld", help="score a hand's meld, combination by combination")
    s.add_argument("hand", help='the cards, e.g. "AS TS KS QS JS 9D ..." (10, T and ♠♥♦♣ accepted)')
    s.add_argument("--trump", "-t", help="trump suit S H D C; without it every trump, best first")
    s.add_argument("--declare", help="cards laid down: report those that make no meld (seed 000)")
    s.add_argument("--any-size", action="store_true", help="allow a hand of any size")
    s.add_argument("--json", action="store_true")
    add_variant(s)

    s = sub.add_parser("odds", help="exact meld odds for one hand (and simulated, with --deals)")
    add_variant(s)
    s.add_argument("--deals", type=count, default=0, help="also simulate this many deals")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--json", action="store_true")
    s.add_argument("--out", help="also write the report as JSON here")
    s.add_argument("--with-kitty", action="store_true",
                   help="three-hand: the bid winner's hand plus the kitty (18 cards)")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    def add_cluster(sp: argparse.ArgumentParser) -> None:
        g = sp.add_argument_group("long runs (Dask; see docs/long-runs.md)")
        g.add_argument("--scheduler", metavar="ADDRESS",
                       help="run the chunks of deals on this Dask cluster (e.g. tcp://host:8786)")
        g.add_argument("--workers", type=int, metavar="N",
                       help="run the chunks on a local Dask cluster of N worker processes")
        g.add_argument("--resume", action="store_true",
                       help="keep each finished chunk, and pick up an interrupted run of the same "
                            "command where it stopped")

    def add_play(sp: argparse.ArgumentParser, deals: int, bidding: bool = True) -> None:
        add_variant(sp)
        sp.add_argument("--deals", type=count, default=deals)
        sp.add_argument("--seed", type=int, default=1)
        sp.add_argument("--policy", type=_policy, default=DEFAULT_POLICY, help=POLICY_HELP + " of every seat")
        if bidding:
            sp.add_argument("--bidding", default=None,
                            help=f"bidding strategy of every seat (default {DEFAULTS}; see tournament)")

    s = sub.add_parser("play", help="play deals in full and write hand records (JSON Lines)")
    add_play(s, 10)
    s.add_argument("--start", type=count, default=0, help="first deal index")
    s.add_argument("--out", help="write the records here (JSON Lines); default: print them")
    s.add_argument("--show", action="store_true", help="print each hand readably")

    s = sub.add_parser("simulate", help="play many deals in parallel into a parquet file")
    add_play(s, 1_000_000)
    s.add_argument("--out", help="parquet file (default results/sim_VARIANT.parquet); "
                                 "metadata beside it as .json")
    s.add_argument("--dd", type=int, nargs="?", const=DD_ALONE, metavar="TRICK",
                   help="add dd_points: the bid winner's side's trick points when the play policy "
                        "plays the tricks before TRICK (default 4; double-deck 12: the last eight tricks) "
                        "and every seat plays double dummy from there; milliseconds a deal from trick 4, "
                        "seconds to minutes from 0 (docs/double-dummy.md has the times)")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_cluster(s)

    def add_tables(sp: argparse.ArgumentParser, deals: int) -> None:
        add_play(sp, deals, bidding=False)
        sp.add_argument("--confidence", default="0.67",
                        help="chance of making the bid that a recommendation needs (default 0.67)")
        sp.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
        sp.add_argument("--no-cache", action="store_true",
                        help="simulate afresh instead of reusing a cached declarer simulation")
        add_cluster(sp)

    s = sub.add_parser("bid-table", help="what a hand is worth when you win the bid")
    add_tables(s, 1_000_000)
    s.add_argument("--by", default="aces_tens", choices=["aces_tens", "aces,tens", "trumps", "none"],
                   help="columns: aces + tens (default), aces and tens, trump length, none")
    s.add_argument("--min-hands", type=count, default=100, help="blank cells with fewer hands")
    s.add_argument("--csv", help="also write the full table (every bid's chance) here")
    s.add_argument("--json", action="store_true")
    s.add_argument("--dd", type=int, nargs="?", const=DD_ALONE, metavar="TRICK",
                   help="also each cell's mean side total had every seat played double dummy from "
                        "TRICK (default 4; double-deck 12) on; milliseconds a declared hand from trick 4 "
                        "(docs/double-dummy.md), so use few deals")

    s = sub.add_parser("bid-chart", help="bid chart pictures, tables and metadata into a folder")
    add_tables(s, 1_000_000)
    s.add_argument("--out", help="folder (default results/VARIANT/)")
    s.add_argument("--format", default="png,csv,json", help="any of png,csv,json (default all)")
    s.add_argument("--auction-model", action="store_true",
                   help="also fit the auction strategy's model (its chance of making a contract after an "
                        "auction; a minute or two the first time, cached after) and write auction_chart.png, "
                        "auction_model.csv, auction_model_kinds.csv and auction_model.json")

    s = sub.add_parser("compare", help="compare rule variants on the same deals")
    s.add_argument("variants", nargs="+", help="variants NAME[:opt=value,...]; the first is the baseline")
    s.add_argument("--deals", type=count, default=200_000)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--policy", type=_policy, default=DEFAULT_POLICY, help=POLICY_HELP)
    s.add_argument("--json", action="store_true", help="one row per (variant, metric)")
    s.add_argument("--csv", help="write the table here")
    s.add_argument("--plot", help="write a forest plot of the differences here (PNG)")
    s.add_argument("--bidding", default=None,
                   help=f"bidding strategy of every seat (default {DEFAULTS}: a variant with options "
                        "bids with its preset's)")
    s.add_argument("--table-deals", type=count, default=100_000,
                   help="deals behind each variant's bid table (for the recommended-bid metric)")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_cluster(s)

    s = sub.add_parser("tournament", help="bidding strategies head to head, duplicate matches")
    add_variant(s)
    s.add_argument("--strategies", nargs="+", required=True,
                   help="strategies NAME[:param=value,...]: value (the default bidding), auction, formula, "
                        "table, cautious, aggressive, meld+20, tricks")
    s.add_argument("--matches", type=count, default=2000, help="duplicate pairs per pairing")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--policy", type=_policy, default=DEFAULT_POLICY, help=POLICY_HELP)
    s.add_argument("--json", action="store_true")
    s.add_argument("--csv", help="write the pairings table here")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_cluster(s)

    s = sub.add_parser("match", help="one match to the target score, hand by hand")
    add_variant(s)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--match", type=int, default=0, help="match index within the seed")
    s.add_argument("--team0", help=f"bidding strategy of seats 0 and 2, three-hand: seat 0 (default {DEFAULTS})")
    s.add_argument("--team1", help="bidding strategy of seats 1 and 3, three-hand: seat 1")
    s.add_argument("--team2", help="three-hand: bidding strategy of seat 2")
    s.add_argument("--policy", type=_policy, default=DEFAULT_POLICY, help=POLICY_HELP)
    s.add_argument("--show", action="store_true", help="every hand in full")
    s.add_argument("--json", action="store_true", help="the match's hand records and result")

    s = sub.add_parser("calibrate", help="does the bid table's 70%% mean 70%%? (in real auctions)")
    add_play(s, 200_000, bidding=False)
    s.add_argument("--strategy", default=None,
                   help="a strategy with its own estimate: auction, table, cautious, aggressive (default: the "
                        "default bidding if it has one, else auction)")
    s.add_argument("--against", default=None,
                   help="the other side (three-hand: the two other seats) bids with this strategy instead; "
                        "only the strategy's own contracts are checked")
    s.add_argument("--csv", help="write the tables here (column group: bin, situation, margin)")
    s.add_argument("--plot", help="write the calibration plot here (PNG)")
    s.add_argument("--json", action="store_true", help="the tables, the Brier scores and the provenance")
    add_cluster(s)

    s = sub.add_parser("strength", help="one card-play policy against another on duplicate deals")
    add_variant(s)
    s.add_argument("--policy", type=_policy, default=DEFAULT_POLICY, help="the policy measured; " + POLICY_HELP)
    s.add_argument("--against", type=_policy, default="heuristic",
                   help="the policy it plays against (default heuristic)")
    s.add_argument("--deals", type=count, default=2000)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--bidding", default=None, help=f"bidding strategy of every seat (default {DEFAULTS})")
    s.add_argument("--dd", type=int, metavar="TRICK",
                   help="four-hand: the double-dummy yardstick from this trick (default 4; double-deck 12: "
                        "the last eight tricks)")
    s.add_argument("--no-dd", action="store_true", help="skip the double-dummy yardstick (fast)")
    s.add_argument("--metric", choices=("points", "score"), default="points",
                   help="compare the trick points a side takes (default) or the score it banks for the hand")
    s.add_argument("--json", action="store_true", help="keys policy, against, deals, diff, se, ...")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_cluster(s)

    s = sub.add_parser("dd", help="double dummy: every card's exact value with all hands visible")
    s.add_argument("hands", nargs="*", help='each seat\'s cards, seat 0 first, e.g. "AS 9H" "TS KH" ...')
    add_variant(s)
    s.add_argument("--trump", "-t", help="the trump suit (S H D C)")
    s.add_argument("--leader", type=int, default=0, help="the seat that leads the trick (default 0)")
    s.add_argument("--trick", help='cards already on the trick, the leader\'s first, e.g. "AS TS"')
    s.add_argument("--record", help="a file of hand records (play --out): solve one record's play")
    s.add_argument("--deal", type=int, help="with --record: which record (line, from 0; default 0)")
    s.add_argument("--from-trick", type=int,
                   help="with --record: the first trick solved, from 0 (default 4: 8 tricks left)")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("advise", help="what to bid with one hand: the hand itself is simulated")
    s.add_argument("hand", help='the hand (12 cards; 15 in three-hand), e.g. "AS AS TS KS QS JS 9S AH TH KD QD JC"')
    add_play(s, 10_000, bidding=False)
    s.add_argument("--confidence", default="0.67",
                   help="chance of making the bid that a recommendation needs (default 0.67)")
    s.add_argument("--seat", type=int, choices=range(4), default=0,
                   help="your seat, to place --dealer (default 0); only where you sit from the dealer counts")
    s.add_argument("--dealer", type=int, choices=range(4), default=None,
                   help="the dealer's seat (default: every seat in turn; with --auction, the seat "
                        "that makes it your turn)")
    s.add_argument("--auction", help='the calls so far from the seat after the dealer, e.g. "p 260 p" '
                                     '("" if you call first); the answer says what to call now')
    s.add_argument("--model", default=None,
                   help=f"how the other seats bid, to read their calls (default {DEFAULTS}; see tournament)")
    s.add_argument("--plot", help="also draw the chance of making each bid here (PNG)")
    s.add_argument("--quiet", "-q", action="store_true", help="(kept for scripts; advise is quick)")
    s.add_argument("--json", action="store_true")
    add_cluster(s)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    os.environ.setdefault("MPLBACKEND", "agg")  # a command writes its charts; it opens no window
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, or a usage error already printed on one line
        return int(e.code or 0)
    try:
        if isinstance(getattr(args, "variant", None), str):
            args.variant = variant(args.variant)
        _check_numbers(args)
        if args.threads is not None:
            from .._numba import set_threads
            set_threads(args.threads)
        if getattr(args, "trump", None):
            from ..engine.cards import parse_suit
            parse_suit(args.trump)
        if args.command in MIN_DEALS:
            what, least = MIN_DEALS[args.command]
            _need_deals(what, args.deals, least)
        for name in OUTPUTS:
            if getattr(args, name, None):
                _check_writable(getattr(args, name), folder=name == "out" and args.command in FOLDER_OUT)
        with compile_notice(sys.stderr.isatty()):
            COMMANDS[args.command](args)
    except (CardError, VariantError, UserError, StrategyError, AuctionError, CompareError, ClusterError) as e:
        print(f"pinochle-sim: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pinochle-sim: interrupted", file=sys.stderr)
        return 130
    except (ValueError, OverflowError) as e:  # a value no check above caught: still one line
        print(f"pinochle-sim: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - Python flushes stdout at exit
        return 0
    except OSError as e:  # an output that failed while being written (disk full, vanished folder)
        where = f" {e.filename}" if e.filename else ""
        print(f"pinochle-sim: error: cannot write{where}: {e.strerror or e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug: one line, the traceback on request
        if os.environ.get("PINOCHLE_DEBUG"):
            raise
        print(f"pinochle-sim: internal error: {type(e).__name__}: {e} (PINOCHLE_DEBUG=1 shows where; "
              "please report it)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

