"""Write docs/bidding.md from the files that hold its figures (no figure in it is typed by hand):
``pinochle_sim/studies/value_bidding.json``, ``results/bidding/summary.json``,
``results/tournament_*.csv`` and ``results/VARIANT/auction_winners.csv``.

    python scripts/render_bidding.py            # write docs/bidding.md
    python scripts/render_bidding.py --check    # exit 1 if docs/bidding.md is not what the files say
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from pinochle_sim.engine.variants import PLAYABLE

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "bidding.md"
RESULTS = ROOT / "results"
WEIGHTS = ROOT / "pinochle_sim" / "studies" / "value_bidding.json"
FOUR = ("thousand", "classic", "classic-pass4")
ORDER = PLAYABLE  # every preset, in its order


def _pm(x: float, se: float, digits: int = 1) -> str:
    return f"{x:+.{digits}f} ± {se:.{digits}f}"


def _weights() -> list[str]:
    data = json.loads(WEIGHTS.read_text())["variants"]
    head = ["| variant | meld | an ace | a ten | a trump | to open | over the partner | "
            "after the partner passed | over an opponent |", "|---|---|---|---|---|---|---|---|---|"]
    rows = []
    for v in ORDER:
        p = data[v]
        alone = v == "three-hand"
        rows.append(f"| `{v}` | {p['meld']:g} | {p['ace']:g} | {p['ten']:g} | {p['trump']:g} beyond "
                    f"{p['floor']:g} | {p['open']:g} | {'-' if alone else format(p['partner_high'], 'g')} | "
                    f"{'-' if alone else format(p['partner_out'], 'g')} | {p['opponent_high']:g} |")
    return head + rows


def _checks(summary: dict) -> list[str]:
    head = ["| variant | moves checked (deals each) | largest gain of one move (points a deal) | its z | "
            "moves above 2 s.e. |", "|---|---|---|---|---|"]
    rows = []
    for v in ORDER:
        lc = summary[v]["local_check"]
        g = lc["largest_gain"]
        rows.append(f"| `{v}` | {lc['moves']} ({lc['deals_per_move']:,}) | {_pm(g['margin'], g['se'], 2)} "
                    f"({g['weight']} {g['steps']:+d}) | {g['z']:+.1f} | {lc['moves_above_2se']} |")
    return head + rows


def _pushing(summary: dict) -> list[str]:
    head = ["| variant | after the partner passed, against over an opponent | worth of that (points a deal) | "
            "one raise more after the partner passed | two | three |", "|---|---|---|---|---|---|"]
    rows = []
    for v in ORDER:
        if v == "three-hand":
            continue
        push = summary[v]["pushing"]
        local = pd.read_csv(RESULTS / "bidding" / f"local_{v}.csv")
        more = local[local.weight == "partner_out"].set_index("steps")
        rows.append(f"| `{v}` | {push['raises']:+g} raises | {_pm(push['margin'], push['se'], 2)} | "
                    + " | ".join(_pm(more.margin[k], more.se[k], 2) for k in (1, 2, 3)) + " |")
    return head + rows


def _paths() -> list[str]:
    prov = json.loads(WEIGHTS.read_text())["provenance"]
    out = ["| variant | moves kept, in order: weight from -> to (margin a deal ± s.e., deals) | comparisons, rounds "
           "| deals a comparison |", "|---|---|---|---|"]
    for v in ORDER:
        log = pd.read_csv(RESULTS / "bidding" / f"search_{v}.csv").rename(columns={"from": "was"})
        kept = log[log.kept]
        moves = "; ".join(f"{r.weight} {r.was:g} -> {r.to:g} ({_pm(r.margin, r.se, 2)}, {r.deals // 1000}k)"
                          for r in kept.itertuples()) or "none"
        out.append(f"| `{v}` | {moves} | {len(log)}, {log['round'].max() + 1} | "
                   f"{prov[v]['deals_per_comparison']:,} doubling up to {prov[v]['max_deals']:,} |")
    return out


def _tournament(v: str) -> list[str]:
    path = RESULTS / f"tournament_{v}.csv"
    meta = json.loads(Path(str(path) + ".json").read_text())
    df = pd.read_csv(path)
    out = [f"`{v}` ({meta['matches_per_pairing']:,} matches a pairing, seed {meta['seed']}, play "
           f"{meta['play_policy']}): `value` against each, margin a hand ± s.e., win rate [95%]", ""]
    rows = ["| against | value's margin a hand | win rate | set rate value / other | avg winning bid value / other |",
            "|---|---|---|---|---|"]
    for r in df.itertuples():
        if "value" not in (r.a, r.b):
            continue
        sign, other = (1, r.b) if r.a == "value" else (-1, r.a)
        win = r.win_rate_a if sign > 0 else 1 - r.win_rate_a
        lo, hi = (r.ci_low, r.ci_high) if sign > 0 else (1 - r.ci_high, 1 - r.ci_low)
        sets = (r.set_rate_a, r.set_rate_b)[:: sign]
        bids = (r.avg_bid_a, r.avg_bid_b)[:: sign]
        rows.append(f"| `{other}` | {_pm(sign * r.margin_per_hand_a, r.margin_se)} | {win:.3f} [{lo:.3f}, {hi:.3f}] | "
                    f"{sets[0]:.1%} / {sets[1]:.1%} | {bids[0]:.0f} / {bids[1]:.0f} |")
    return out + rows


def _three_hand() -> list[str]:
    df = pd.read_csv(RESULTS / "tournament_three-hand.csv")
    meta = json.loads((RESULTS / "tournament_three-hand.csv.json").read_text())
    mine = df[df.table.str.split(" / ").map(lambda t: "value" in t)]
    out = [f"`three-hand` ({meta['matches_per_table']:,} matches a table of three, seats rotated, seed "
           f"{meta['seed']}): the win share of each seat at every table with `value` (a third is even)", "",
           "| table | value | the others | most matches |", "|---|---|---|---|"]
    for table, g in mine.groupby("table", sort=False):
        me = g[g.strategy == "value"].iloc[0]
        others = ", ".join(f"`{r.strategy}` {r.win_rate:.3f}" for r in g.itertuples() if r.strategy != "value")
        out.append(f"| {table} | {me.win_rate:.3f} [{me.ci_low:.3f}, {me.ci_high:.3f}] | {others} | "
                   f"`{g.loc[g.win_rate.idxmax(), 'strategy']}` |")
    return out


def _winning_bids() -> list[str]:
    out = ["| variant | every seat bidding | contracts | average winning bid | made |", "|---|---|---|---|---|"]
    for v in ORDER:
        df = pd.read_csv(RESULTS / v / "auction_winners.csv")
        who = json.loads((RESULTS / v / "metadata.json").read_text())["default_bidding"]["strategy"]
        n = df.contracts.sum()
        out.append(f"| `{v}` | `{who}` | {n:,} | {(df.bid * df.contracts).sum() / n:.1f} | "
                   f"{(df.made * df.contracts).sum() / n:.1%} |")
    return out


def render() -> str:
    summary = json.loads((RESULTS / "bidding" / "summary.json").read_text())
    parts = [
        "# Bidding that wins: the default `value`",
        "",
        "<!-- written by scripts/render_bidding.py from the files it names; edit the script, not this page -->",
        "",
        "In four-hand every command bids with `value` unless told otherwise (three-hand keeps",
        "`auction:conf=0.5`: see the tournament below): a seat bids up to",
        "",
        "    meld weight x its meld in the trump it would name",
        "      + (allowance for the auction situation + a weight per ace + per ten + per trump beyond a floor)",
        "",
        "the bracket on the 250-point scale (scaled to the variant's trick points). The situations are",
        "the ones a seat can see: nobody has bid (to open), its partner holds the bid, an opponent holds",
        "it after the partner passed, an opponent holds it with the partner still in. The weights are",
        "the variant's own (`pinochle_sim/studies/value_bidding.json`); any can be set in the spec,",
        "`value:partner_out=40,meld=1.1`. The old default stays by name (`auction`), as do `table`,",
        "`cautious`, `aggressive`, `formula`, `meld+20` and `tricks`.",
        "",
        "## The weights",
        "",
        *_weights(),
        "",
        "## How they were chosen",
        "",
        "By what they win, not by a fit: `scripts/tune_bidding.py` starts from `tricks` written as these",
        "weights and moves one weight at a time (a situation's allowance by one raise, an ace, ten or",
        "trump by 2.5, the floor by 1, the meld weight by 0.05), keeping a move while the moved strategy",
        "beats the unmoved one in duplicate play (the same deals with the partnerships' strategies",
        "swapped; three-hand: in each seat against two of the other) by more than 2 standard errors, on",
        "deals no earlier comparison used. `results/bidding/search_VARIANT.csv` holds every comparison.",
        "",
        "The path of each search (every kept move; a round that keeps nothing doubles the deals a",
        "comparison up to the variant's maximum, and a round at the maximum that keeps nothing ends it):",
        "",
        *_paths(),
        "",
        "Then the local check, on fresh deals: each weight moved alone, a situation's allowance by -2..+3",
        "raises and a hand weight by -2..+2 steps (`results/bidding/local_VARIANT.csv`). The largest",
        "gain a single move finds is how exploitable the weights are by such a move, in duplicate",
        "self-play. Chance alone puts z above 2 for about one move in 44 (2.3%), so among 30 to 40",
        "moves one such move is no finding.",
        "",
        *_checks(summary),
        "",
        "## Pushing",
        "",
        "Seed 004: \"if a player's partner has passed, he may want to continue bidding even if he doesn't",
        "intend to take the bid, just to prevent the opponents' getting the bid for a low amount\". Here",
        "that is the allowance after the partner passed. The first two columns set it against the",
        "allowance over an opponent with the partner still in, and say what the difference is worth (the",
        "weights against the same with the two equal, in duplicate). Below it, the partner's pass is read",
        "as a weak hand; above it, the seat bids on to keep the opponents from a cheap contract, which is",
        "seed 004's push. The last three columns push further: one, two or three raises more than the",
        "weights after the partner passed (from the local check; a positive margin would mean pushing",
        "further pays).",
        "",
        *_pushing(summary),
        "",
        "## Against the other strategies",
        "",
        "The judge is the duplicate tournament (`pinochle-sim tournament`; matches to the variant's",
        "target, seats swapped on the same cards).",
        "",
    ]
    for v in FOUR:
        parts += _tournament(v) + [""]
    parts += _three_hand() + ["", "In three-hand `value` was searched and checked as in four-hand, and it",
                              "gains points a deal against two copies of itself; but a match to 150 is",
                              "won by the seat that gets there first, and at these tables `auction:conf=0.5`",
                              "wins more of them, so it stays three-hand's default.", ""]
    parts += [
        "## What the auctions look like",
        "",
        "Every seat bidding the variant's default, the auctions of its bid chart",
        "(`results/VARIANT/auction_winners.csv`, by situation there). Seed 004 says that at a real",
        "four-hand table with passing the average high bid is 350-450.",
        "",
        *_winning_bids(),
        "",
        "## What this does not do",
        "",
        "The limit is one formula per variant, with an allowance per auction situation: it does not",
        "read the bids' levels (how high the partner went), the hand's distribution beyond trump length,",
        "or the score of the match. The check moves one weight at a time; a move of two together, or a",
        "strategy outside this family, can still gain. The auction model behind `auction` (and",
        "`calibrate`) explores past its own limits and keeps a curve per kind of hand:",
        "[auction-model.md](auction-model.md).",
        "",
    ]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the page is not what the files say")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        if not DOC.exists() or DOC.read_text() != text:
            print(f"{DOC.relative_to(ROOT)} is stale: run python scripts/render_bidding.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text)
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
