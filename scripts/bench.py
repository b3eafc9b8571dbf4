"""Speed of the kernels, on one thread and on all cores; writes results/bench.json.

    python scripts/bench.py [--deals N] [--repeat R] [--json]
    python scripts/bench.py --only-dd      # the double-dummy figures alone, the others kept

Each figure is the best of ``--repeat`` rounds after a warm-up (compile) run, in deals per
second; a round times every kernel once, in turn. The kernels stream: they reduce to a checksum
instead of storing hands, as long runs do.
Beside the engine's figures it times simple reference kernels for the same work (``ref_*``) and
writes the ratios (``*_vs_ref``), so the figures read against plain numba code on the same
machine in the same run.
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
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import pinochle_sim as ps  # noqa: E402
from pinochle_sim._numba import set_threads  # noqa: E402
from pinochle_sim.files import atomic_write  # noqa: E402
from pinochle_sim.engine.deal import BLOCK, deal_one  # noqa: E402
from pinochle_sim.engine.meld import hand_meld_all_trumps  # noqa: E402
from pinochle_sim.engine.hand import play_rows  # noqa: E402
from pinochle_sim.studies.simulate import Setup  # noqa: E402
from pinochle_sim.engine.variants import compile_variant  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "results" / "bench.json"


@numba.njit(cache=True)
def _corners(counts, tb, out):
    """Two cells of the deal, so that dealing alone is not optimised away."""
    return counts[0, 0] + counts[3, 23]


@numba.njit(cache=True)
def _best_melds(counts, tb, out):
    """The four hands' meld in their best trump, by the engine's kernel."""
    s = 0
    for p in range(4):
        hand_meld_all_trumps(counts[p], tb, out)
        s += max(out[0], out[1], out[2], out[3])
    return s


# ------------------------------------------------------------------------------------------
# The simple reference kernels: the same work written the straightforward way (one SplitMix64
# word per card of the shuffle, meld counted combination by combination, a greedy trick play
# over bit masks), so the engine's figures are read against what plain numba code does on the
# same machine in the same run. They call no engine kernel.

_G = np.uint64(0x9E3779B97F4A7C15)


@numba.njit(cache=True)
def _ref_mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def _ref_deal(seed, i, deck, counts):
    """Fisher-Yates, one SplitMix64 word per card (32-bit multiply-shift, no rejection)."""
    state = _ref_mix(np.uint64(seed) * _G + np.uint64(i))
    for k in range(48):
        deck[k] = k // 2
    for j in range(47, 0, -1):
        state += _G
        r = np.int64(((_ref_mix(state) >> np.uint64(32)) * np.uint64(j + 1)) >> np.uint64(32))
        t = deck[j]
        deck[j] = deck[r]
        deck[r] = t
    counts[:] = 0
    for p in range(4):
        for m in range(12 * p, 12 * p + 12):
            counts[p, deck[m]] += 1


@numba.njit(cache=True)
def _ref_meld(c, t):
    """Classic meld of count vector ``c`` with trump ``t``, combination by combination."""
    total = 0
    run = min(c[6 * t], c[6 * t + 1], c[6 * t + 2], c[6 * t + 3], c[6 * t + 4])
    total += 1500 if run == 2 else 150 * run
    for s in range(4):
        m = min(c[6 * s + 2], c[6 * s + 3])
        if s == t:
            m -= run
            total += 40 * m
        else:
            total += 20 * m
    pin = min(c[3], c[16])
    total += 300 if pin == 2 else 40 * pin
    for r, single in ((0, 100), (2, 80), (3, 60), (4, 40)):
        n = min(c[r], c[6 + r], c[12 + r], c[18 + r])
        total += 10 * single if n == 2 else single * n
    total += 10 * c[6 * t + 5]
    return total


@numba.njit(cache=True)
def _ref_best_melds(counts, tb, out):
    """The four hands' meld in their best trump, by :func:`_ref_meld`."""
    s = 0
    for p in range(4):
        best = 0
        for t in range(4):
            best = max(best, _ref_meld(counts[p], t))
        s += best
    return s


#: What :func:`_streamed` times: dealing, or dealing and the best meld, by the engine or the reference.
DEAL, DEAL_MELD, REF_DEAL, REF_DEAL_MELD = range(4)


@numba.njit(cache=True, parallel=True)
def _streamed(seed, n, tb, kind):
    """Deals ``0 .. n-1`` of ``seed``, each dealt and scored as ``kind`` says (the engine's
    ``deal_one``, or the reference's; two cells of the deal, or the four hands' best meld),
    summed. One kernel for the four (a branch a deal, always the same way): compiled once and
    cached, where a kernel per pair of functions could not be."""
    nb = (n + BLOCK - 1) // BLOCK
    acc = np.zeros(nb, np.int64)
    for b in prange(nb):
        deck8 = np.empty(48, np.int8)
        deck64 = np.empty(48, np.int64)
        counts = np.empty((4, 24), np.int8)
        out = np.empty(4, np.int32)
        s = 0
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            if kind == DEAL or kind == DEAL_MELD:
                deal_one(seed, d, deck8, counts)
            else:
                _ref_deal(seed, d, deck64, counts)
            if kind == DEAL or kind == REF_DEAL:
                s += _corners(counts, tb, out)
            elif kind == DEAL_MELD:
                s += _best_melds(counts, tb, out)
            else:
                s += _ref_best_melds(counts, tb, out)
        acc[b] = s
    return acc.sum()


_REF_POINTS = np.array([11, 10, 4, 3, 2, 0], np.int64)


@numba.njit(cache=True)
def _ref_low(m):
    """The lowest card of mask ``m`` (the highest set bit: lower ranks have higher bits)."""
    return 63 - leading_zeros(m)


@numba.njit(cache=True)
def _ref_high(m):
    return trailing_zeros(m)


@numba.njit(cache=True)
def _ref_greedy(h, lead_suit, win, trump):
    """A legal card of the kinds held ``h`` (a 24-bit mask): follow suit and beat the winning card
    if possible, else trump if void; the lowest card that wins the trick, else the lowest legal
    card; leading, the highest card of the lowest suit held."""
    if lead_suit < 0:
        return _ref_high(h)
    suit = np.int64(0x3F) << (6 * lead_suit)
    trumps = np.int64(0x3F) << (6 * trump)
    legal = h & suit if h & suit else (h & trumps if h & trumps else h)
    ws = win // 6
    if ws == lead_suit or ws == trump:  # cards of the winner's suit above it
        over = legal & ((np.int64(1) << win) - (np.int64(1) << (6 * ws)))
    else:
        over = 0
    if ws != trump:
        over |= legal & trumps
    return _ref_low(over) if over else _ref_low(legal)


@numba.njit(cache=True, parallel=True)
def _ref_full(seed, n):
    """Deal, meld of every seat in every trump, seat 0 names its best trump, twelve greedy tricks."""
    nb = (n + BLOCK - 1) // BLOCK
    acc = np.zeros(nb, np.int64)
    for b in prange(nb):
        deck = np.empty(48, np.int64)
        counts = np.empty((4, 24), np.int8)
        melds = np.empty((4, 4), np.int64)
        h1 = np.empty(4, np.int64)
        h2 = np.empty(4, np.int64)
        s = 0
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            _ref_deal(seed, d, deck, counts)
            for p in range(4):
                h1[p] = 0
                h2[p] = 0
                for k in range(24):
                    if counts[p, k] > 0:
                        h1[p] |= np.int64(1) << k
                    if counts[p, k] > 1:
                        h2[p] |= np.int64(1) << k
                for t in range(4):
                    melds[p, t] = _ref_meld(counts[p], t)
            trump = 0
            for t in range(4):
                if melds[0, t] > melds[0, trump]:
                    trump = t
            leader = 0
            pts0 = 0
            for _ in range(12):
                lead_suit = -1
                win = -1
                win_seat = -1
                pts = 0
                for j in range(4):
                    seat = (leader + j) % 4
                    k = _ref_greedy(h1[seat], lead_suit, win, trump)
                    bit = np.int64(1) << k
                    if h2[seat] & bit:
                        h2[seat] ^= bit
                    else:
                        h1[seat] ^= bit
                    pts += _REF_POINTS[k % 6]
                    if j == 0:
                        lead_suit = k // 6
                        win, win_seat = k, seat
                    elif (k // 6 == win // 6 and k < win) or (k // 6 == trump and win // 6 != trump):
                        win, win_seat = k, seat
                if win_seat % 2 == 0:
                    pts0 += pts
                leader = win_seat
            s += pts0 + melds[0, trump]
        acc[b] = s
    return acc.sum()

def _rates(kernels: dict, repeat: int) -> dict[str, int]:
    """Deals per second of each kernel ``{key: (fn, n)}``: the best of ``repeat`` rounds after a
    warm-up (compile) call, every round timing each kernel in turn, so that an engine kernel and
    its reference see the same state of a shared machine."""
    for fn, n in kernels.values():
        fn(min(n, 10_000))  # compile / load from cache
    best = dict.fromkeys(kernels, float("inf"))
    for _ in range(repeat):
        for key, (fn, n) in kernels.items():
            best[key] = min(best[key], _timed(fn, n))
    return {key: round(n / best[key]) for key, (_, n) in kernels.items()}


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
    loop = Setup(variant, policy).loop

    def run(n: int) -> None:
        for start in range(0, n, CHUNK):
            play_rows(loop, 1, start, min(CHUNK, n - start))
    return run


CHUNK = 1 << 18


def _machine() -> dict:
    return {"cpu": _cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
            "numba": numba.__version__, "numpy": np.__version__, "platform": platform.platform()}


def measure(deals: int, repeat: int) -> dict:
    tb = compile_variant(ps.variant("classic"))
    seed = np.uint64(1)
    kernels = {
        "deal_per_s": (lambda n: _streamed(seed, n, tb, DEAL), deals),
        "deal_meld_per_s": (lambda n: _streamed(seed, n, tb, DEAL_MELD), deals),
        "full_hand_per_s": (_full_hands("thousand", "heuristic"), deals // 10),
        "full_hand_classic_pass4_per_s": (_full_hands("classic-pass4", "heuristic"), deals // 10),
        "full_hand_random_per_s": (_full_hands("thousand", "random"), deals // 10),
        "full_hand_contract_per_s": (_full_hands("thousand", "contract"), deals // 10),
        "ref_deal_per_s": (lambda n: _streamed(seed, n, tb, REF_DEAL), deals),
        "ref_deal_meld_per_s": (lambda n: _streamed(seed, n, tb, REF_DEAL_MELD), deals),
        "ref_full_hand_per_s": (lambda n: _ref_full(seed, n), deals // 10),
    }
    cores = numba.config.NUMBA_NUM_THREADS
    figures: dict[str, float] = {}
    for threads, suffix in ((cores, ""), (1, "_1thread")):
        set_threads(threads)
        rates = _rates({key: (fn, max(n, 1000)) for key, (fn, n) in kernels.items()}, repeat)
        figures.update({key + suffix: rate for key, rate in rates.items()})
    set_threads(cores)
    ratios = {f"{key}_vs_ref": round(figures[key] / figures["ref_" + key], 3)
              for key in ("deal_per_s", "deal_meld_per_s", "full_hand_per_s")}
    return {
        **figures, **ratios,
        "deals": deals, "repeat": repeat, "threads": cores,
        "machine": _machine(),
        "version": ps.__version__,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "notes": {"deal_meld": "deal, then meld of all four hands in all four trumps (classic)",
                  "full_hand": "thousand, heuristic play by every seat, unless named otherwise",
                  "full_hand_deals": "a tenth of --deals",
                  "ref": "the simple reference kernels of this script, same run: one SplitMix64 word per "
                         "card of the shuffle, classic meld combination by combination, seat 0 names its "
                         "best trump and every seat plays greedily (no auction, passing or scoring)",
                  "vs_ref": "engine figure / reference figure, all cores"},
    }


def double_dummy_speed(variant: str, deals: int, played: int = 4) -> dict:
    """The double-dummy solver's time (ms, one thread) on the positions after the heuristic has
    played ``played`` tricks of ``deals`` deals of seed 1 (thrown-in deals left out): median, 95th
    percentile and the worst (after the search is compiled)."""
    from pinochle_sim.studies.dd import double_dummy
    from pinochle_sim.studies.records import hands_at, records
    v = ps.variant(variant)
    times = []
    for rec in records(v, deals=deals, seed=1, bidding="formula"):
        if rec["bidder"] is None:
            continue
        if not times:  # compile (or load) the search on a small position
            late = v.hand_size - 2
            double_dummy([" ".join(h) for h in hands_at(rec, late)], rec["trump"],
                         rec["tricks"][late]["leader"], v, exact=False)
        hands = hands_at(rec, played)
        args = ([" ".join(h) for h in hands], rec["trump"], rec["tricks"][played]["leader"], v)
        t0 = time.perf_counter()
        double_dummy(*args, exact=False)
        times.append(1000 * (time.perf_counter() - t0))
    return {"median_ms": round(float(np.median(times)), 2), "p95_ms": round(float(np.percentile(times, 95)), 2),
            "max_ms": round(max(times), 1), "positions": len(times), "tricks_played_first": played}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=20_000_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true", help="also print the figures as JSON")
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument("--dd-deals", type=int, default=100,
                   help="deals whose double-dummy solve is timed, from 8 tricks left (0: none)")
    p.add_argument("--dd-full-deals", type=int, default=10,
                   help="deals whose full 12-trick double-dummy solve is timed (seconds to a minute each in "
                        "classic; 0: none)")
    p.add_argument("--dd-full-variants", nargs="+", default=["classic"],
                   help="variants of the full-deal timing (thousand takes minutes a deal)")
    p.add_argument("--only-dd", action="store_true",
                   help="time only the double-dummy solver; the other figures stay as --out holds them")
    args = p.parse_args(argv)
    if args.only_dd:
        if not Path(args.out).exists():
            p.error(f"--only-dd updates {args.out}, which does not exist yet: run the whole bench first")
        report = json.loads(Path(args.out).read_text())
        report["double_dummy_run"] = {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                      "machine": _machine(), "version": ps.__version__}
    else:
        report = measure(args.deals, args.repeat)
    if args.dd_deals:
        threads = set_threads(1)
        report["double_dummy_8_tricks_left"] = {v: double_dummy_speed(v, args.dd_deals)
                                                for v in ("classic", "thousand")}
        set_threads(threads)
    if args.dd_full_deals:
        threads = set_threads(1)
        report["double_dummy_full_deal"] = {v: double_dummy_speed(v, args.dd_full_deals, played=0)
                                            for v in args.dd_full_variants}
        set_threads(threads)
    with atomic_write(args.out) as fh:
        json.dump(report, fh, indent=2)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for k, v in report.items():
            if k.endswith("_vs_ref"):
                print(f"{k:28s} {v:8.2f} x")
            elif "_per_s" in k:
                print(f"{k:28s} {v / 1e6:8.2f} M/s")
        for key, what in (("double_dummy_8_tricks_left", "8 tricks left"), ("double_dummy_full_deal", "full deal")):
            for variant, f in report.get(key, {}).items():
                print(f"double dummy, {variant}, {what}: median {f['median_ms']} ms, p95 {f['p95_ms']} ms")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
