"""Choose the weights of the default bidding (``value``) per variant by duplicate play, check
that no single move of a weight gains, and measure what pushing is worth.

    python scripts/tune_bidding.py                       # every preset: search, check, write
    python scripts/tune_bidding.py --variants classic --check-only

Writes ``pinochle_sim/studies/value_bidding.json`` (the weights the strategy reads, with their
provenance; variants not searched keep theirs) and, per variant, ``results/bidding/`` files:
``search_<variant>.csv`` (every comparison of the search), ``local_<variant>.csv`` (the local
check) and ``summary.json`` (weights, pushing, the largest gain of the check).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from pinochle_sim import __version__
from pinochle_sim.engine.variants import PRESETS, variant
from pinochle_sim.files import atomic_write
from pinochle_sim.studies import tuning
from pinochle_sim.studies.strategies import VALUE_FILE, VALUE_PARAMS, tuned_values

OUT = Path(__file__).resolve().parents[1] / "results" / "bidding"
ABOUT = ("The weights of the value bidding strategy per preset (the default of every command), on the "
         "250-point scale, written by scripts/tune_bidding.py; docs/bidding.md says how they were found.")


def _write_json(path: Path, data: dict) -> None:
    with atomic_write(path, "w") as f:
        f.write(json.dumps(data, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", nargs="+", default=list(PRESETS), help="presets to tune (default: all)")
    ap.add_argument("--deals", type=int, default=100_000, help="deals per comparison of the search, at first")
    ap.add_argument("--max-deals", type=int, default=400_000,
                    help="deals per comparison the search doubles up to when a round keeps nothing")
    ap.add_argument("--check-deals", type=int, default=200_000, help="deals per move of the local check")
    ap.add_argument("--seed", type=int, default=1, help="first seed of the search (each comparison the next)")
    ap.add_argument("--check-only", action="store_true", help="check the weights in the file, no search")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    data = json.loads(VALUE_FILE.read_text()) if VALUE_FILE.exists() else {"variants": {}, "provenance": {}}
    data["about"] = ABOUT
    summary_path = OUT / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    for name in args.variants:
        v = variant(name)
        t0 = time.perf_counter()
        if args.check_only:
            params = {k: float(data["variants"][name][k]) for k in VALUE_PARAMS}
        else:
            params, log = tuning.coordinate_search(v, deals=args.deals, seed=args.seed, max_deals=args.max_deals,
                                                   progress=True)
            log.to_csv(OUT / f"search_{name}.csv", index=False, float_format="%.6g")
            data["variants"][name] = params
            data["provenance"][name] = {
                "method": "coordinate search in duplicate play (pinochle_sim.studies.tuning.coordinate_search)",
                "start": tuning.start(v), "deals_per_comparison": args.deals, "max_deals": args.max_deals,
                "first_seed": args.seed,
                "comparisons": len(log), "kept_at_z": 2.0, "play_policy": tuning.DEFAULT_POLICY,
                "version": __version__, "log": f"results/bidding/search_{name}.csv"}
            _write_json(VALUE_FILE, data)
            tuned_values.cache_clear()
        check = tuning.local_check(v, params, deals=args.check_deals, progress=True)
        check.to_csv(OUT / f"local_{name}.csv", index=False, float_format="%.6g")
        best = check.loc[check.z.idxmax()]
        summary[name] = {
            "weights": params, "pushing": tuning.pushing(v, params, deals=args.check_deals),
            "local_check": {"moves": len(check), "deals_per_move": args.check_deals,
                            "largest_gain": {"weight": best.weight, "steps": int(best.steps),
                                             "margin": float(best.margin), "se": float(best.se),
                                             "z": float(best.z)},
                            "moves_above_2se": int((check.z > 2).sum())},
            "seconds": round(time.perf_counter() - t0, 1), "version": __version__}
        _write_json(summary_path, summary)
        print(f"{name}: {json.dumps(params)}; largest gain of a single move {best.margin:+.2f} "
              f"(z {best.z:+.1f}, {best.weight} {int(best.steps):+d})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
