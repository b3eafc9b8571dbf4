"""Fill the figures the README and docs/ quote from the files in ``results/`` that hold them.

    python scripts/render_docs.py           # rewrite README.md and docs/*.md in place
    python scripts/render_docs.py --check   # exit 1, naming each figure, if any differs from its file

A figure in the prose sits between markers naming where it comes from, invisible on the rendered
page: ``<!-- fig json results/bench.json deal_per_s /1e6:.1f -->13.4<!-- /fig -->`` inline, and
``<!-- table NAME ARGS -->`` ... ``<!-- /table -->`` around a rendered table. The text between
the markers is replaced by what the source gives; nothing else is touched. ``docs/bidding.md`` is
written whole by ``scripts/render_bidding.py``. A test runs ``--check`` and also refuses a figure
typed in the prose outside any marker (``typed_figures``).
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from functools import cache
from pathlib import Path

import pandas as pd

from pinochle_sim.engine.variants import PLAYABLE
from pinochle_sim.studies.stats import Z95

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
#: The files whose figures are rendered (docs/bidding.md is rendered whole elsewhere).
DOCS = ("README.md", "docs/card-play.md", "docs/three-hand.md", "docs/meld-odds.md", "docs/speed.md",
        "docs/double-dummy.md", "docs/long-runs.md", "docs/commands.md", "docs/architecture.md",
        "docs/auction-model.md", "docs/double-deck.md")
MARKER = re.compile(r"<!-- (fig|table) ([^>]*?) -->(.*?)<!-- /\1 -->", re.S)
VARIANTS = PLAYABLE  # every preset, in its order, in every table
SMALL = ("modern-15", "modern", "three-hand", "double-deck")  # the 25- and 50-point games: one more decimal


@cache
def _json(path: str):
    return json.loads((ROOT / path).read_text())


@cache
def _csv(path: str, index_col=None) -> pd.DataFrame:
    return pd.read_csv(ROOT / path, index_col=list(index_col) if isinstance(index_col, tuple) else index_col)


def _format(x: float, fmt: str) -> str:
    """``fmt``: a format spec (``,.0f``, ``+.1f``), after an optional ``/divisor:``;
    ``ci95.2f``: a standard error as "±" the half-width of its 95% interval; ``1in``: "1 in N"
    of a chance."""
    if fmt.startswith("ci95"):
        return "±" + format(Z95 * x, fmt[len("ci95"):])
    if fmt == "1in":
        n = 1 / x
        return f"1 in {n:,.0f}" if n >= 10 else f"1 in {n:.1f}"
    m = re.fullmatch(r"/([0-9.e+-]+):(.*)", fmt)
    if m:
        x, fmt = x / float(m.group(1)), m.group(2)
    return format(x, fmt)


def fig_json(path: str, key: str, fmt: str = "g") -> str:
    """A value of a JSON file by its dotted key (list items by index); ``fmt`` ``s``: a text as
    it is, ``date``: the day of a time stamp (``2026-12-06T18:42:13Z``)."""
    x = _json(path)
    for k in key.split("."):
        x = x[int(k)] if isinstance(x, list) else x[k]
    if fmt == "s":
        return str(x)
    if fmt == "date":
        return str(x)[:10]
    return _format(float(x), fmt)


def fig_const(name: str, fmt: str = "g") -> str:
    """A setting of the code (a constant of ``pinochle_sim.studies.auction_model`` or ``.match``, or a
    default of ``auction_model.auction_model``), so that prose describing it follows the code."""
    import inspect

    from pinochle_sim.studies import auction_model, match
    for module in (auction_model, match):
        if hasattr(module, name):
            return _format(float(getattr(module, name)), fmt)
    return _format(float(inspect.signature(auction_model.auction_model).parameters[name].default), fmt)


def _rule(variant: str, policy: str) -> pd.DataFrame:
    tag = "" if policy == "contract" else "_" + policy
    return _csv(f"results/{variant}/rule_of_thumb{tag}.csv", 0)


def fig_rule(variant: str, policy: str = "contract", intervals: str = "no") -> str:
    """The rule of thumb of a variant's bid table: meld + a + b per ace + c per ten + d per trump."""
    r = _rule(variant, policy)
    d0, d1 = (2, 3) if variant in SMALL else (1, 2)

    def term(name: str, digits: int) -> str:
        text = f"{r.estimate[name]:.{digits}f}"
        return text + (f" (±{r.ci_high[name] - r.estimate[name]:.{digits}f})" if intervals == "yes" else "")
    return (f"{term('intercept', d0)} + {term('aces', d1)} per ace + {term('tens', d1)} per ten + "
            f"{term('trumps', d1)} per trump")


def table_rules() -> str:
    rows = ["| variant | play | expected side total when your seat is made to declare (not when it wins an "
            "auction: see `auction_winners.csv`) |", "|---|---|---|"]
    for v in VARIANTS:
        meld = "your meld (15 cards, before the kitty)" if v == "three-hand" else "your meld"
        for policy in ("contract", "pimc"):
            rows.append(f"| `{v}` | `{policy}` | {meld} + {fig_rule(v, policy, 'yes')} |")
    return "\n".join(rows)


def policy_shift(variant: str, policy: str = "pimc", min_hands: int = 100) -> dict:
    """How a variant's bid table moves when every seat plays ``policy`` instead of the default,
    on the cells with ``min_hands`` hands or more under both: the mean change of the side total
    (cells weighted by their hands under ``policy``; the two tables' standard errors combined),
    and the share of cells whose 67% bid moves up or down."""
    a = _csv(f"results/{variant}/bid_table.csv", (0, 1))
    b = _csv(f"results/{variant}/bid_table_{policy}.csv", (0, 1))
    both = a.merge(b, left_index=True, right_index=True, suffixes=("_a", "_b"))
    both = both[(both.hands_a >= min_hands) & (both.hands_b >= min_hands)]
    w = both.hands_b / both.hands_b.sum()
    diff = float((w * (both.mean_total_b - both.mean_total_a)).sum())
    se = math.sqrt(float((w ** 2 * (both.se_total_a ** 2 + both.se_total_b ** 2)).sum()))
    moved = both.bid_67_b - both.bid_67_a
    return {"diff": diff, "ci": Z95 * se, "cells": len(both), "hands": int(both.hands_b.sum()),
            "up": float((moved > 0).mean()), "down": float((moved < 0).mean())}


def table_shift() -> str:
    rows = ["| variant | side total, `pimc` minus `contract` (95% interval) | cells | their `pimc` hands | "
            "67% bid higher / lower under `pimc` |", "|---|---:|---:|---:|---|"]
    for v in VARIANTS:
        s = policy_shift(v)
        digits = 2 if v in SMALL else 1
        rows.append(f"| `{v}` | {s['diff']:+.{digits}f} (±{s['ci']:.{digits}f}) | {s['cells']} | {s['hands']:,} | "
                    f"{s['up']:.0%} / {s['down']:.0%} of the cells |")
    return "\n".join(rows)


def _strength(variant: str, policy: str, against: str) -> dict:
    for r in _json("results/play_strength.json")["head_to_head"]:
        if (r["variant"], r["policy"], r["against"]) == (variant, policy, against):
            return r
    raise KeyError(f"play_strength.json has no {policy} against {against} in {variant}")


def _gap(variant: str, policy: str) -> dict:
    for r in _json("results/play_strength.json")["against_double_dummy"]:
        if (r["variant"], r["policy"]) == (variant, policy):
            return r
    raise KeyError(f"play_strength.json has no {policy} against double dummy in {variant}")


def fig_strength(variant: str, policy: str, against: str, what: str = "diff") -> str:
    """A head-to-head figure of ``results/play_strength.json``: the difference with its interval,
    or ``hands_per_s``."""
    r = _strength(variant, policy, against)
    if what == "hands_per_s":
        return f"{r['hands_per_s']:,.0f}"
    return _interval(r, variant)


def _interval(r: dict, variant: str) -> str:
    """A row's difference with its 95% interval, one more decimal in the small games."""
    d = 2 if variant in SMALL else 1
    return f"{r['diff']:+.{d}f} ({r['ci_low']:+.{d}f} to {r['ci_high']:+.{d}f})"


def table_strength() -> str:
    rows = ["| variant | contract - heuristic | pimc - heuristic | pimc - contract | pimc against double dummy "
            "(gap, mean abs.) | heuristic against double dummy | pimc hands/s |", "|---|---|---|---|---|---|---:|"]
    for v in VARIANTS:
        d = 2 if v in SMALL else 1
        gaps = [_gap(v, p) for p in ("pimc", "heuristic")]
        rows.append(" | ".join([f"| {v}", fig_strength(v, "contract", "heuristic"),
                                fig_strength(v, "pimc", "heuristic"), fig_strength(v, "pimc", "contract"),
                                *(f"{g['gap']:+.{d}f}, {g['mean_abs_gap']:.{d}f}" for g in gaps),
                                fig_strength(v, "pimc", "contract", "hands_per_s")]) + " |")
    return "\n".join(rows)


def table_objective() -> str:
    """What playing for the contract is worth: ``pimc`` against ``pimc:objective=points`` in points
    of score a hand (``results/play_strength.json``'s ``objective`` rows)."""
    rows = ["| variant | contracts | pimc - pimc:objective=points, score a hand (95% interval) | deals to show |",
            "|---|---:|---|---:|"]
    by = {r["variant"]: r for r in _json("results/play_strength.json")["objective"]}
    for v in VARIANTS:
        r = by[v]
        show = "none" if r["deals_to_show"] is None else f"{r['deals_to_show']:,}"
        rows.append(f"| {v} | {r['hands']:,} | {_interval(r, v)} | {show} |")
    return "\n".join(rows)


def _odds(variant: str, kind: str, key: str, table: bool) -> float:
    path = {"hand": f"results/odds_{variant}.json", "kitty": f"results/odds_{variant}_kitty.json"}[kind]
    d = _json(path)
    return d["events_at_table" if table else "events"][key] if not key.startswith("mean") else d[key]


def table_odds_three_hand() -> str:
    names = {"run_any_suit": "a run in some suit", "run_given_suit": "a run in the named trump",
             "aces_around": "aces around (any one around)", "pinochle": "pinochle",
             "double_pinochle": "double pinochle", "roundhouse": "a marriage in every suit",
             "mean_meld_best_trump": "mean meld, best trump (25 scale)"}
    rows = ["| meld | 12 cards (four-hand) | 15 cards | 18 cards (hand + kitty) | some seat's 15 cards |",
            "|---|---|---|---|---|"]
    for key, label in names.items():
        mean = key.startswith("mean")
        four = _json("results/odds_classic.json")
        x12 = four[key] if mean else four["events"][key]
        if mean:
            x12 /= 10  # classic's meld on the 25-point scale
        cells = [x12, _odds("three-hand", "hand", key, False), _odds("three-hand", "kitty", key, False)]
        fmt = "{:.2f}" if mean else "{:.4g}"
        at = "" if mean or key == "run_any_suit" else f"{_odds('three-hand', 'hand', key, True):.4f}"
        rows.append(f"| {label} | " + " | ".join(fmt.format(c) for c in cells) + f" | {at} |")
    return "\n".join(rows)


#: Seed 004's "odds" column, as its text gives it, beside the event that states it exactly.
SEED_004 = (("run", "1 : 2", "run_given_suit"), ("double run", "1 : 100", "double_run_given_suit"),
            ("100 aces (any around)", "1 : 4", "aces_around"),
            ("1000 aces (any double around)", "1 : 100", "double_aces"),
            ("80 kings / 60 queens / 40 jacks", "1 : 20", "kings_around"),
            ("800 kings / 600 queens / 400 jacks", "1 : 300 / 500 / 1000", "double_kings"),
            ("pinochle", "1 : 4", "pinochle"), ("double pinochle", "1 : 20", "double_pinochle"),
            ("roundhouse", "1 : 30", "roundhouse"))
SEED_004_PER_HAND = (("marriage (plain)", "3 to 5 each hand", "marriage"),
                     ("royal marriage", "about 1 each hand", "royal_marriage"),
                     ("9 of trump", "2 each hand", "nine_of_trump"))


def table_odds_seed004() -> str:
    d = _json("results/odds_classic.json")
    rows = ["| meld | seed 004 says | one hand (exact) | someone at the table (exact) |", "|---|---|---|---|"]
    for label, says, key in SEED_004:
        p, at = d["events"][key], d["events_at_table"][key]
        rows.append(f"| {label} | {says} | {p:.4g} ({_format(p, '1in')}) | {at:.4g} ({_format(at, '1in')}) |")
    for label, says, key in SEED_004_PER_HAND:
        x = d["expected_per_hand"][key]
        rows.append(f"| {label} | {says} | {x:.3g} per hand | {4 * x:.3g} per deal |")
    return "\n".join(rows)


#: The melds of double-deck's table (options of its variant), single to quadruple.
DOUBLE_DECK_MELDS = ("run", "aces_around", "kings_around", "pinochle")


def table_odds_double_deck() -> str:
    """Double-deck's melds single to quadruple (the events ``odds.events`` tags with each meld
    and its copies, the values the variant gives them): one 20-card hand exact, some seat at the
    table exact, the simulated twin with its 95% interval."""
    from pinochle_sim.engine.melds import TIMES
    from pinochle_sim.engine.variants import variant
    from pinochle_sim.studies.odds import events

    d = _json("results/odds_double-deck.json")
    v = variant(d["variant"])
    sim = d["simulated"]
    rows = [f"| meld (values) | copies | one hand (exact) | someone at the table (exact) | simulated, "
            f"{sim['deals']:,} deals (95% interval) |", "|---|---|---|---|---|"]
    for meld in DOUBLE_DECK_MELDS:
        for e in sorted((e for e in events(v.deck) if e.meld == meld), key=lambda e: e.copies):
            first = f"{e.label} ({' / '.join(map(str, getattr(v, meld)))})" if e.copies == 1 else ""
            p, at, q = d["events"][e.name], d["events_at_table"][e.name], sim["events"][e.name]
            seen = f"{q['p']:.4g} ({_format(q['se'], 'ci95.2g')})" if q["p"] else "not seen (too rare to say)"
            rows.append(f"| {first} | {TIMES.get(e.copies, 'single')} | {p:.4g} ({_format(p, '1in')}) | "
                        f"{at:.4g} ({_format(at, '1in')}) | {seen} |")
    for key, label in (("fixed_trump", "mean meld, trump named first"), ("best_trump", "mean meld, best trump")):
        x, m = d[f"mean_meld_{key}"], sim[f"mean_meld_{key}"]
        rows.append(f"| {label} | | {x:.3f} | | {m['mean']:.3f} ({_format(m['se'], 'ci95.3f')}) |")
    q = d["meld_best_trump"]["quantiles"]
    rows.append(f"| best-trump meld, quantiles (against {v.trick_total} trick points a hand) | | "
                + ", ".join(f"{float(k):.0%}: {x}" for k, x in q.items()) + " | | |")
    return "\n".join(rows)


def table_auction_limits() -> str:
    """Per variant and situation that won 20,000 contracts or more in the auction model's read:
    its contracts, the fewest at one gap within ten raises of the limits, whether each of those
    is read from contracts (if not, how many curve gaps are not), and each kind's reach and
    chance at its limit."""
    rows = ["| variant | situation | contracts | fewest at a gap within 10 raises of the limit | all read "
            "from contracts | reach by kind of hand (points; trick-heavy, + long trumps, with meld, + long "
            "trumps) | chance at the limit |", "|---|---|---:|---:|---|---|---|"]
    for v in VARIANTS:
        for r in _json(f"results/{v}/auction_model.json")["near_the_limit"]:
            reach = ", ".join("none" if not math.isfinite(x) else f"{x:+.0f}" for x in r["reach"])
            at = ", ".join("-" if p is None else f"{p:.2f}" for p in r["p_at_limit"])
            rows.append(f"| `{v}` | {r['situation'].replace('_', ' ')} | {r['contracts']:,} | "
                        f"{r['fewest_near_limit']:,} | {_all_read(r)} | {reach} | {at} |")
    return "\n".join(rows)


def _all_read(r: dict) -> str:
    """Whether every curve's gap near its limit rests on contracts; if not, how many do not."""
    if r["all_read"]:
        return "yes"
    return f"no: {r['unread']} curve gap{'' if r['unread'] == 1 else 's'}"


def table_auction_kinds() -> str:
    """The check of the auction model by kind of hand, in auctions it was not read from: per
    variant the largest misjudgement and the largest in standard errors."""
    rows = ["| variant | kinds checked | largest made - predicted (points) | where | largest in s.e. | where |",
            "|---|---:|---:|---|---:|---|"]
    for v in VARIANTS:
        k = _csv(f"results/{v}/auction_model_kinds.csv")
        big = k.loc[k["diff"].abs().idxmax()]
        far = k.loc[k.z.abs().idxmax()]
        where = lambda r: f"{r.situation.replace('_', ' ')}, {r.kind}"  # noqa: E731
        rows.append(f"| `{v}` | {len(k)} | {100 * big['diff']:+.1f} (±{100 * Z95 * big.se:.1f}) | {where(big)} | "
                    f"{far.z:+.1f} | {where(far)} |")
    return "\n".join(rows)


def _calibration(v: str, kind: str) -> tuple[pd.DataFrame, dict]:
    tag = {"": "", "against": "_against-tricks", "pimc": "_pimc"}[kind]
    return _csv(f"results/calibration_{v}{tag}.csv"), _json(f"results/calibration_{v}{tag}.csv.json")


def table_calibration(least: str = "2000") -> str:
    """Per variant and population (every seat bidding the strategy; the other side bidding
    ``tricks``; every seat playing ``pimc``): the strategy, contracts, the bins of ``least``
    contracts or more and the largest gap among them, the margin (contracts bid at the limit)
    predicted against made, and the Brier score against the share made's."""
    rows = [f"| variant | population | strategy | contracts | bins of {int(least):,}+ | largest gap there (points) | "
            "at the margin: contracts, predicted, made | Brier (the share made's) |",
            "|---|---|---|---:|---:|---:|---|---|"]
    names = {"": "every seat bids it", "against": "the other side bids `tricks`", "pimc": "every seat plays `pimc`"}
    for v in VARIANTS:
        for kind, label in names.items():
            if kind and v == "three-hand":
                continue
            t, meta = _calibration(v, kind)
            bins = t[(t.group == "bin") & (t.contracts >= int(least))]
            gap = (100 * (bins.made - bins.predicted)).abs()
            worst = f"{100 * (bins.made - bins.predicted)[gap.idxmax()]:+.1f}" if len(bins) else "-"
            m = t[(t.group == "margin") & (t.situation == "all")]
            margin = (f"{int(m.contracts.iloc[0]):,}, {m.predicted.iloc[0]:.3f}, {m.made.iloc[0]:.3f} "
                      f"(±{Z95 * m.se.iloc[0]:.3f})" if len(m) else "-")
            n = int(t[(t.group == "situation") & (t.situation == "all")].contracts.iloc[0])
            rows.append(f"| `{v}` | {label} | `{meta['strategy']}` | {n:,} | {len(bins)} | {worst} | {margin} | "
                        f"{meta['brier']:.4f} ({meta['brier_base']:.4f}) |")
    return "\n".join(rows)


SOURCES = {"json": fig_json, "const": fig_const, "rule": fig_rule, "strength": fig_strength,
           "table_rules": table_rules, "table_shift": table_shift, "table_strength": table_strength,
           "table_objective": table_objective,
           "table_odds_three_hand": table_odds_three_hand, "table_odds_seed004": table_odds_seed004,
           "table_odds_double_deck": table_odds_double_deck,
           "table_auction_limits": table_auction_limits, "table_auction_kinds": table_auction_kinds,
           "table_calibration": table_calibration}


def render(text: str) -> str:
    """``text`` with every marked figure replaced by what its source gives now."""
    def fill(m: re.Match) -> str:
        kind, key, _ = m.groups()
        name, *args = key.split()
        name = name if kind == "fig" else "table_" + name
        value = SOURCES[name](*args)
        body = f"\n{value}\n" if kind == "table" else value
        return f"<!-- {kind} {key} -->{body}<!-- /{kind} -->"
    return MARKER.sub(fill, text)


#: A figure typed in prose: a decimal, a percentage, a ± or a time. Code, links and marked
#: figures are left out (see :func:`prose`).
TYPED = re.compile(r"(?<![\w.])[-+]?\d+\.\d+|±|\d+(?:\.\d+)?\s?%|\b\d+ ?(?:ms|µs|M/s)\b")


def prose(text: str) -> str:
    """``text`` without code blocks, inline code, link targets and marked figures, and without
    the two numbers that are conventions, not findings ("95%" intervals, Python 3.11)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"\b95%|Python 3\.11", "", text)
    text = MARKER.sub("", text)
    text = re.sub(r"`[^`]*`", "", text)
    return re.sub(r"\]\([^)]*\)", "]", text)


def typed_figures(text: str) -> list[str]:
    """The lines of ``text`` whose prose holds a figure no marker renders."""
    return [line for line in prose(text).splitlines() if TYPED.search(line)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a figure differs")
    args = p.parse_args(argv)
    stale = []
    for name in DOCS:
        path = ROOT / name
        old = path.read_text()
        new = render(old)
        if new != old:
            if args.check:
                stale += [f"{name}: {a.group(0)[:150]!r} should read {b.group(3).strip()[:80]!r}"
                          for a, b in zip(MARKER.finditer(old), MARKER.finditer(new)) if a.group(0) != b.group(0)]
            else:
                path.write_text(new)
                print(f"rendered {name}")
    for line in stale:
        print(line, file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
