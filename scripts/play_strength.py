"""How strong each card-play policy is, per variant: writes ``results/play_strength.md`` (and
``.json``). Usage: ``python scripts/play_strength.py [--deals N] [--gap-deals N] [--objective-deals N]
[--variants V ...] [--policies P ...] [--sections S ...]``
(``--variants``: measure only those, keeping the other variants' rows of the JSON file;
``--policies``: likewise only the rows those policies play in; ``--sections``: likewise only those
sections).

Three measures. Against double dummy: each deal is bid (each variant's default bidding) and played
by one policy at every seat; the same deal is then solved with every seat playing perfectly with
all cards visible from trick 4 on (the first four tricks as played; double-deck: the last eight
of its twenty). The double-dummy value of a full hand (trick 0) costs seconds to minutes a deal
(see docs/double-dummy.md), so the yardstick starts at trick 4. Head to head: ``pinochle-sim
strength`` on duplicate deals for every pair of policies. Playing for the contract: ``pimc`` (which
values a solved card by the hand's score) against ``pimc:objective=points`` (by its trick points),
in points of score a hand (``strength --metric score``).
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

from pinochle_sim.engine.pimc import BY_PRESET, preset_default
from pinochle_sim.engine.variants import PLAYABLE
from pinochle_sim.studies.dd import play_gap
from pinochle_sim.files import atomic_write
from pinochle_sim.studies.strength import strength

VARIANTS = PLAYABLE
POLICIES = ("random", "heuristic", "contract", "pimc")
GAP_POLICIES = ("heuristic", "contract", "pimc")
OUT = Path(__file__).resolve().parent.parent / "results" / "play_strength.md"
#: The sections of the file, by their key in the JSON file.
SECTIONS = ("against_double_dummy", "head_to_head", "objective")
#: The player ``pimc`` (playing for the score) is measured against in the last section.
BY_POINTS = "pimc:objective=points"


def _ci(r: dict, key: str, places: int = 1) -> str:
    return f"{r[key]:+.{places}f} ({r['ci_low']:+.{places}f} to {r['ci_high']:+.{places}f})"


def _count(n: int | None) -> str:
    return "none" if n is None else f"{n:,}"


def _presets(option: str) -> tuple[int, dict[int, list[str]]]:
    """``pimc``'s default ``option`` and the presets that have their own, by value."""
    default, by_preset = BY_PRESET[option]
    presets: dict[int, list[str]] = {}
    for preset, n in by_preset.items():
        presets.setdefault(n, []).append(preset)
    return default, presets


def _by_preset(option: str, unit: str = " tricks") -> str:
    """``pimc``'s default ``option`` with the presets that have their own, those of one value
    together: ``6 tricks (5 in thousand)``."""
    default, presets = _presets(option)
    own = [f"{n} in {_and(names)}" for n, names in presets.items()]
    return f"{default}{unit}" + (f" ({', '.join(own)})" if own else "")


def _close() -> str:
    """Where ``pimc`` solves the decisions in doubt before the tricks it solves (``close`` past
    ``dd``) by default, as a clause after a comma: ``, and over the last 6 tricks in thousand
    where ...``; nothing where it acts in no preset."""
    by: dict[int, list[str]] = {}
    for v in VARIANTS:
        close = preset_default("close", v)
        if close > preset_default("dd", v):
            by.setdefault(close, []).append(v)
    where = ", ".join(f"{n} tricks in {_and(names)}" for n, names in by.items())
    return f", and over the last {where} where the rollouts find the contract in doubt" if where else ""


def _infer() -> str:
    """Where ``pimc``'s worlds must agree with the meld not laid down (``infer``) by default, as a
    clause after a comma (nothing where they never must)."""
    default, presets = _presets("infer")
    other = presets.get(1 - default)
    if default:
        return ", worlds that agree with the meld not laid down" + (f" (not in {_and(other)})" if other else "")
    return f", in {_and(other)} only worlds that agree with the meld not laid down" if other else ""


def _and(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=2000, help="duplicate deals per pair and variant")
    p.add_argument("--gap-deals", type=int, default=1000, help="deals per policy and variant against double dummy")
    p.add_argument("--objective-deals", type=int, default=16000,
                   help=f"duplicate deals per variant of pimc against {BY_POINTS}, in score")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dd-from", type=int, default=-1,
                   help="the double-dummy yardstick's first trick (default: 4; double-deck 12, the last eight)")
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS),
                   help="measure these only; the other variants' rows are kept from the JSON file")
    p.add_argument("--policies", nargs="+", choices=POLICIES, default=list(POLICIES),
                   help="measure only the rows these policies play in; the others are kept from the JSON file")
    p.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS),
                   help="measure these sections only; the others are kept from the JSON file")
    args = p.parse_args(argv)
    kept = {key: [] for key in SECTIONS}
    chosen = (args.variants, args.policies, args.sections)
    if any(set(x) != set(every) for x, every in zip(chosen, (VARIANTS, POLICIES, SECTIONS))):
        kept |= json.loads(Path(args.out).with_suffix(".json").read_text())
    pairs = [(a, b) for b, a in itertools.combinations(POLICIES, 2)]

    def measured(*policies: str, section: str) -> bool:
        return section in args.sections and any(pol in args.policies for pol in policies)

    def place(r: dict) -> tuple[int, int]:
        """Where a row goes: by variant, then by policy (gaps; the one row of playing for the contract)
        or pair (head to head)."""
        base = r["policy"].split(":")[0]
        duel = r.get("against") not in (None, BY_POINTS)
        at = pairs.index((base, r["against"].split(":")[0])) if duel else GAP_POLICIES.index(base)
        return VARIANTS.index(r["variant"]), at

    def merged(key: str, new: list[dict]) -> list[dict]:
        old = [r for r in kept[key] if r["variant"] not in args.variants
               or not measured(r["policy"].split(":")[0], r.get("against", "").split(":")[0], section=key)]
        return sorted(old + new, key=place)

    ours = [v for v in VARIANTS if v in args.variants]
    solved = [(v, pol) for v in ours for pol in GAP_POLICIES if measured(pol, section=SECTIONS[0])]
    played = [(v, a, b) for v in ours for a, b in pairs if measured(a, b, section=SECTIONS[1])]
    scored = [v for v in ours if measured("pimc", section=SECTIONS[2])]
    # a few deals of each run first, so that no run's seconds or hands/s count loading its kernels
    for v, pol in solved:
        play_gap(v, 8, args.seed, args.dd_from, policy=pol)
    for v, a, b in played:
        strength(v, a, b, 8, args.seed, dd_from=None)
    for v in scored:
        strength(v, "pimc", BY_POINTS, 8, args.seed, dd_from=None, metric="score")
    gaps = merged("against_double_dummy", [play_gap(v, args.gap_deals, args.seed, args.dd_from, policy=pol,
                                                    progress=True) for v, pol in solved])
    lines = [
        "# Card play: the policies against double dummy and head to head",
        "",
        "Policies (docs/card-play.md): `random`; `heuristic`, the club player that sees its own cards "
        "and the cards played; `contract`, the same player knowing the melds laid down, the cards passed, "
        "the voids and failures to beat the play revealed and the contract (the default of every command); "
        f"`pimc`, the sampling player at its defaults ({_by_preset('worlds', '')} worlds a decision{_infer()}, "
        f"double dummy over the last {_by_preset('dd')}, playing for the hand's score{_close()}, "
        "rollouts by the heuristic before). "
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
    worth = merged("objective", [strength(v, "pimc", BY_POINTS, args.objective_deals, args.seed, dd_from=None,
                                          progress=True, metric="score") for v in scored])
    lines += [
        "",
        "## Playing for the contract",
        "",
        f"`pinochle-sim strength --policy pimc --against {BY_POINTS} --metric score`: the default `pimc`, "
        "which values a card it solves double dummy by the hand's score (meld, trick points, made or set), "
        "against the same player valuing trick points; duplicate deals as above, each variant's own "
        "seed and number of deals in the table. Diff: the first policy's side's score for the hand minus "
        "the other's (three-hand: minus the mean of the other two seats), in points of score a hand, "
        "with its 95% interval. Deals to show: the deals that would put the interval clear of zero four "
        "times in five were the difference the one measured.",
        "",
        "| variant | deals | seed | hands | diff (95% interval) | deals to show | hands/s |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for r in worth:
        lines.append(f"| {r['variant']} | {r['deals']:,} | {r['seed']} | {r['hands']:,} | {_ci(r, 'diff', 2)} "
                     f"| {_count(r['deals_to_show'])} | {r['hands_per_s']:,.0f} |")
    lines += ["", "Each run's version and options are in `play_strength.json` beside this file.", ""]
    with atomic_write(args.out) as fh:
        fh.write("\n".join(lines))
    with atomic_write(str(Path(args.out).with_suffix(".json"))) as fh:
        json.dump({"against_double_dummy": gaps, "head_to_head": duels, "objective": worth}, fh, indent=2)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
