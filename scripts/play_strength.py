"""How far the heuristic card play lands from double-dummy play, per variant: writes
``results/play_strength.md`` (and ``.json``). Usage: ``python scripts/play_strength.py [--deals N]``.

Each deal is bid (each variant's default bidding) and played by the heuristic; the same deal is
then solved with every seat playing perfectly with all cards visible from trick 4 on (the first
four tricks as the heuristic played them). The double-dummy value of a full hand (trick 0) costs
seconds to minutes a deal (see the README), so the yardstick starts at trick 4.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pinochle_sim.dd import play_gap
from pinochle_sim.studies.strength import strength
from pinochle_sim.files import atomic_write

VARIANTS = ("thousand", "modern-15", "modern", "classic", "classic-pass4", "three-hand")
OUT = Path(__file__).resolve().parent.parent / "results" / "play_strength.md"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dd-from", type=int, default=4)
    p.add_argument("--out", default=str(OUT))
    args = p.parse_args(argv)
    rows = [play_gap(v, args.deals, args.seed, args.dd_from, progress=True) for v in VARIANTS]
    lines = [
        "# Heuristic card play against double dummy",
        "",
        f"{args.deals:,} deals per variant, seed {args.seed}, each variant's default bidding; every seat "
        f"plays the `heuristic`. Double dummy: every seat plays perfectly with all cards visible from "
        f"trick {args.dd_from} on, the tricks before it as played. Points are the bid winner's side's "
        "trick points (three-hand: the bid winner's, its discard included), on each variant's own scale "
        "(250 a hand; 25 in modern, modern-15 and three-hand). Gap = double dummy minus "
        "actual, per deal, with its 95% interval. In three-hand the two other seats play double dummy as "
        "one side against the bid winner, so its double-dummy value sits below what it takes from two "
        "separate players. Written by `scripts/play_strength.py`.",
        "",
        "| variant | contracts | actual | double dummy | gap (95% interval) | mean abs. gap "
        "| actual above / equal / below | seconds |",
        "|---|---:|---:|---:|---|---:|---|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['contracts']:,} | {r['actual']:.1f} | {r['double_dummy']:.1f} "
            f"| {r['gap']:+.1f} ({r['ci_low']:+.1f} to {r['ci_high']:+.1f}) | {r['mean_abs_gap']:.1f} "
            f"| {r['actual_above']:.0%} / {r['equal']:.0%} / {r['actual_below']:.0%} | {r['seconds']:.0f} |")
    duels = [strength(v, "heuristic", "random", args.deals, args.seed, dd_from=None) for v in VARIANTS]
    lines += [
        "",
        "## Policies head to head",
        "",
        f"`pinochle-sim strength`: {args.deals:,} duplicate deals per variant, seed {args.seed}; each deal "
        "played once per seating with the policies swapped (four-hand: both sides; three-hand: the "
        "measured policy in each seat against the other in the other two), the same auction and "
        "contract every time. Diff: the first policy's side's trick points per hand minus the "
        "other's (three-hand: minus the mean of the other two seats), with its 95% interval.",
        "",
        "| variant | policy | against | hands | diff (95% interval) | hands/s |",
        "|---|---|---|---:|---|---:|",
    ]
    for r in duels:
        lines.append(f"| {r['variant']} | {r['policy']} | {r['against']} | {r['hands']:,} | {r['diff']:+.1f} "
                     f"({r['ci_low']:+.1f} to {r['ci_high']:+.1f}) | {r['hands_per_s']:,.0f} |")
    lines += ["", "Not yet measured (issue 15): the sampling player `pimc` and a contract-aware heuristic.",
              "", "Each variant's version and options are in `play_strength.json` beside this file.", ""]
    rows = {"against_double_dummy": rows, "head_to_head": duels}
    with atomic_write(args.out) as fh:
        fh.write("\n".join(lines))
    with atomic_write(str(Path(args.out).with_suffix(".json"))) as fh:
        json.dump(rows, fh, indent=2)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
