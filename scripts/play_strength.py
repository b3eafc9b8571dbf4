"""How strong each card-play policy is, per variant: writes ``results/play_strength.md`` (and
``.json``). Usage: ``python scripts/play_strength.py [--deals N] [--gap-deals N] [--variants V ...] [--policies P ...]``
(``--variants``: measure only those, keeping the other variants' rows of the JSON file;
``--policies``: likewise only the rows those policies play in).

Two measures. Against double dummy: each deal is bid (each variant's default bidding) and played
by one policy at every seat; the same deal is then solved with every seat playing perfectly with
all cards visible from trick 4 on (the first four tricks as played; double-deck: the last eight
of its twenty). The double-dummy value of a full hand (trick 0) costs seconds to minutes a deal
(see docs/double-dummy.md), so the yardstick starts at trick 4. Head to head: ``pinochle-sim
strength`` on duplicate deals for every pair of policies.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

from pinochle_sim.engine.pimc import CLOSE, CLOSE_BY_PRESET, DD_TRICKS, WORLDS
from pinochle_sim.engine.variants import PLAYABLE
from pinochle_sim.studies.dd import play_gap
from pinochle_sim.files import atomic_write
from pinochle_sim.studies.strength import strength

VARIANTS = PLAYABLE
POLICIES = ("random", "heuristic", "contract", "pimc")
GAP_POLICIES = ("heuristic", "contract", "pimc")
OUT = Path(__file__).resolve().parent.parent / "results" / "play_strength.md"


def _ci(r: dict, key: str) -> str:
    return f"{r[key]:+.1f} ({r['ci_low']:+.1f} to {r['ci_high']:+.1f})"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=2000, help="duplicate deals per pair and variant")
    p.add_argument("--gap-deals", type=int, default=1000, help="deals per policy and variant against double dummy")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dd-from", type=int, default=-1,
                   help="the double-dummy yardstick's first trick (default: 4; double-deck 12, the last eight)")
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS),
                   help="measure these only; the other variants' rows are kept from the JSON file")
    p.add_argument("--policies", nargs="+", choices=POLICIES, default=list(POLICIES),
                   help="measure only the rows these policies play in; the others are kept from the JSON file")
    args = p.parse_args(argv)
    kept = {"against_double_dummy": [], "head_to_head": []}
    if set(args.variants) != set(VARIANTS) or set(args.policies) != set(POLICIES):
        kept = json.loads(Path(args.out).with_suffix(".json").read_text())
    pairs = [(a, b) for b, a in itertools.combinations(POLICIES, 2)]

    def measured(*policies: str) -> bool:
        return any(pol in args.policies for pol in policies)

    def place(r: dict) -> tuple[int, int]:
        """Where a row goes: by variant, then by policy (gaps) or pair (head to head)."""
        base = r["policy"].split(":")[0]
        at = pairs.index((base, r["against"].split(":")[0])) if "against" in r else GAP_POLICIES.index(base)
        return VARIANTS.index(r["variant"]), at

    def merged(key: str, new: list[dict]) -> list[dict]:
        old = [r for r in kept[key] if r["variant"] not in args.variants
               or not measured(r["policy"].split(":")[0], r.get("against", "").split(":")[0])]
        return sorted(old + new, key=place)

    solved = [(v, pol) for v in VARIANTS if v in args.variants for pol in GAP_POLICIES if measured(pol)]
    played = [(v, a, b) for v in VARIANTS if v in args.variants for a, b in pairs if measured(a, b)]
    # a few deals of each run first, so that no run's seconds or hands/s count loading its kernels
    for v, pol in solved:
        play_gap(v, 8, args.seed, args.dd_from, policy=pol)
    for v, a, b in played:
        strength(v, a, b, 8, args.seed, dd_from=None)
    gaps = merged("against_double_dummy", [play_gap(v, args.gap_deals, args.seed, args.dd_from, policy=pol,
                                                    progress=True) for v, pol in solved])
    lines = [
        "# Card play: the policies against double dummy and head to head",
        "",
        "Policies (docs/card-play.md): `random`; `heuristic`, the club player that sees its own cards "
        "and the cards played; `contract`, the same player knowing the melds laid down, the cards passed, "
        "the voids and failures to beat the play revealed and the contract (the default of every command); "
        f"`pimc`, the sampling player at its defaults ({WORLDS} worlds a decision, double dummy over the last "
        f"{DD_TRICKS} tricks playing for the hand's score, and over the last {CLOSE} tricks ("
        + ", ".join(f"{n} in {v}" for v, n in CLOSE_BY_PRESET.items())
        + ") where the rollouts find the contract in doubt, rollouts by the heuristic before). "
        "Written by `scripts/play_strength.py`.",
        "",
        "## Against double dummy",
        "",
        f"{args.gap_deals:,} deals per variant and policy, seed {args.seed}, each variant's default bidding; "
        "every seat plays the policy. Double dummy: every seat plays perfectly with all cards visible from "
        + (f"trick {args.dd_from}" if args.dd_from >= 0 else "trick 4 (double-deck: 12, the last eight of its twenty)")
        + " on, the tricks before it as played. Points are the bid winner's side's "
        "trick points (three-hand: the bid winner's, its discard included), on each variant's own scale "
        "(250 a hand; 25 in modern, modern-15 and three-hand; 50 in double-deck). Gap = double dummy minus "
        "actual, per deal, with its 95% interval; both sides' errors enter it, so a small gap can hide errors "
        "that cancel (the mean absolute gap shows them). In three-hand the two other seats play double dummy as one "
        "side against the bid winner, so its double-dummy value sits below what it takes from two separate "
        "players.",
        "",
        "| variant | policy | contracts | actual | double dummy | gap (95% interval) | mean abs. gap "
        "| actual above / equal / below | seconds |",
        "|---|---|---:|---:|---:|---|---:|---|---:|",
    ]
    for r in gaps:
        lines.append(
            f"| {r['variant']} | {r['policy']} | {r['contracts']:,} | {r['actual']:.1f} | {r['double_dummy']:.1f} "
            f"| {_ci(r, 'gap')} | {r['mean_abs_gap']:.1f} "
            f"| {r['actual_above']:.0%} / {r['equal']:.0%} / {r['actual_below']:.0%} | {r['seconds']:.0f} |")
    duels = merged("head_to_head", [strength(v, a, b, args.deals, args.seed, dd_from=None, progress=True)
                                    for v, a, b in played])
    lines += [
        "",
        "## Head to head",
        "",
        f"`pinochle-sim strength`: {args.deals:,} duplicate deals per variant and pair, seed {args.seed}; each "
        "deal played once per seating with the policies swapped (four-hand: both sides; three-hand: the "
        "measured policy in each seat against the other in the other two), the same auction and "
        "contract every time. Diff: the first policy's side's trick points per hand minus the "
        "other's (three-hand: minus the mean of the other two seats), with its 95% interval. Hands/s: "
        "hands played per second on this machine's two cores, both policies' hands counted.",
        "",
        "| variant | policy | against | hands | diff (95% interval) | hands/s |",
        "|---|---|---|---:|---|---:|",
    ]
    for r in duels:
        lines.append(f"| {r['variant']} | {r['policy']} | {r['against']} | {r['hands']:,} | {_ci(r, 'diff')} "
                     f"| {r['hands_per_s']:,.0f} |")
    lines += ["", "Each run's version and options are in `play_strength.json` beside this file.", ""]
    with atomic_write(args.out) as fh:
        fh.write("\n".join(lines))
    with atomic_write(str(Path(args.out).with_suffix(".json"))) as fh:
        json.dump({"against_double_dummy": gaps, "head_to_head": duels}, fh, indent=2)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
