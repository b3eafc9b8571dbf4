"""Speed of the kernels, on one thread and on all cores; writes results/bench.json.

    python scripts/bench.py [--deals N] [--repeat R] [--json]

Each figure is the best of ``--repeat`` timed runs after a warm-up (compile) run, in deals per
second. The kernels stream: they reduce to a checksum instead of storing hands, as long runs do.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numba
import numpy as np
from numba import prange

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import pinochle_sim as ps  # noqa: E402
from pinochle_sim._numba import set_threads  # noqa: E402
from pinochle_sim.files import atomic_write  # noqa: E402
from pinochle_sim.deal import BLOCK, deal_one  # noqa: E402
from pinochle_sim.meld import hand_meld_all_trumps  # noqa: E402
from pinochle_sim.hand import COLUMNS, _play_many  # noqa: E402
from pinochle_sim.simulate import Setup  # noqa: E402
from pinochle_sim.variants import compile_variant  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "results" / "bench.json"


@numba.njit(cache=True, parallel=True)
def _deal_only(seed, n):
    nb = (n + BLOCK - 1) // BLOCK
    acc = np.zeros(nb, np.int64)
    for b in prange(nb):
        deck = np.empty(48, np.int8)
        counts = np.empty((4, 24), np.int8)
        s = 0
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            deal_one(seed, d, deck, counts)
            s += counts[0, 0] + counts[3, 23]
        acc[b] = s
    return acc.sum()


@numba.njit(cache=True, parallel=True)
def _deal_meld(seed, n, tb):
    nb = (n + BLOCK - 1) // BLOCK
    acc = np.zeros(nb, np.int64)
    for b in prange(nb):
        deck = np.empty(48, np.int8)
        counts = np.empty((4, 24), np.int8)
        out = np.empty(4, np.int32)
        s = 0
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            deal_one(seed, d, deck, counts)
            for p in range(4):
                hand_meld_all_trumps(counts[p], tb, out)
                s += max(out[0], out[1], out[2], out[3])
        acc[b] = s
    return acc.sum()


def _rate(fn, n: int, repeat: int) -> float:
    fn(min(n, 10_000))  # compile / load from cache
    best = min(_timed(fn, n) for _ in range(repeat))
    return n / best


def _timed(fn, n: int) -> float:
    t = time.perf_counter()
    fn(n)
    return time.perf_counter() - t


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _full_hands(variant: str, policy: str):
    """Deal, auction, trump, passing, meld, twelve tricks and scoring, rows kept per chunk."""
    setup = Setup(variant, policy)
    rows = np.empty((CHUNK, len(COLUMNS)), np.int32)

    def run(n: int) -> None:
        for start in range(0, n, CHUNK):
            m = min(CHUNK, n - start)
            _play_many(np.uint64(1), np.int64(start), m, *setup.args(), setup.max_calls, rows[:m])
    return run


CHUNK = 1 << 18


def measure(deals: int, repeat: int) -> dict:
    tb = compile_variant(ps.variant("classic"))
    seed = np.uint64(1)
    kernels = {
        "deal_per_s": (lambda n: _deal_only(seed, n), deals),
        "deal_meld_per_s": (lambda n: _deal_meld(seed, n, tb), deals),
        "full_hand_per_s": (_full_hands("thousand", "heuristic"), deals // 10),
        "full_hand_classic_pass4_per_s": (_full_hands("classic-pass4", "heuristic"), deals // 10),
        "full_hand_random_per_s": (_full_hands("thousand", "random"), deals // 10),
    }
    cores = numba.config.NUMBA_NUM_THREADS
    figures: dict[str, float] = {}
    for threads, suffix in ((cores, ""), (1, "_1thread")):
        set_threads(threads)
        for key, (fn, n) in kernels.items():
            figures[key + suffix] = round(_rate(fn, max(n, 1000), repeat))
    set_threads(cores)
    return {
        **figures,
        "deals": deals, "repeat": repeat, "threads": cores,
        "machine": {"cpu": _cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
                    "numba": numba.__version__, "numpy": np.__version__, "platform": platform.platform()},
        "version": ps.__version__,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "notes": {"deal_meld": "deal, then meld of all four hands in all four trumps (classic)",
                  "full_hand": "thousand, heuristic play by every seat, unless named otherwise",
                  "full_hand_deals": "a tenth of --deals"},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=20_000_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true", help="also print the figures as JSON")
    p.add_argument("--out", default=str(RESULTS))
    args = p.parse_args(argv)
    report = measure(args.deals, args.repeat)
    with atomic_write(args.out) as fh:
        json.dump(report, fh, indent=2)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for k, v in report.items():
            if "_per_s" in k:
                print(f"{k:28s} {v / 1e6:8.2f} M/s")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
