"""Speed of the kernels, on one thread and on all cores; writes results/bench.json.

    python scripts/bench.py [--deals N] [--repeat R] [--json]
    python scripts/bench.py --only-dd      # the double-dummy figures alone, the others kept
    python scripts/bench.py --only-dd --dd-deals 0 --dd-full thousand=20   # whole thousand hands alone

Each figure is the best of ``--repeat`` rounds after a warm-up (compile) run, in deals per
second; a round times every kernel once, in turn, and ``rounds`` keeps the worst and the median
round of each figure and of each ratio. The kernels stream: they reduce to a checksum instead of
storing hands, as long runs do. Beside the engine's figures it times reference kernels for the
same work (``ref_*``), written as plainly and as fast as we could, and writes the ratios
(``*_vs_ref``), so the figures read against fast plain numba code on the same machine in the
same rounds. The double-dummy solver is timed on one thread: from 8 tricks left, and on whole
hands (``--dd-full``, 100 ``classic`` and 20 ``thousand`` deals by default; each hand's time is
appended to ``--dd-log`` as it is solved, and a run stopped part way goes on from it). Its times
are the solving thread's processor time (``time.thread_time``), which leaves out what the thread
waits on other work of this machine (a slower host it does not: that shows in both clocks).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import sys
import time
from pathlib import Path

import numba
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import pinochle_sim as ps  # noqa: E402
from pinochle_sim._numba import in_spans, set_threads  # noqa: E402
from pinochle_sim.files import atomic_write  # noqa: E402
from pinochle_sim.progress import bar  # noqa: E402
from pinochle_sim.engine.deal import BLOCK, deal_one  # noqa: E402
from pinochle_sim.engine.meld import hand_meld_all_trumps  # noqa: E402
from pinochle_sim.engine.hand import play_rows  # noqa: E402
from pinochle_sim.studies.simulate import Setup  # noqa: E402
from pinochle_sim.engine.variants import compile_variant  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "results" / "bench.json"


# ------------------------------------------------------------------------------------------
# The reference kernels: each stage written as plainly and as fast as we can, calling no engine
# kernel, so that the engine's figures read against what simple numba code does on the same
# machine in the same rounds. Dealing: one SplitMix64 word per deal to seed it and one per four
# cards of a Fisher-Yates shuffle (16-bit multiply-shift draws, no rejection) of card ids
# (copy c of kind k is k + 24 c), each hand gathered as one 48-bit mask and written as its count
# vector three words at a time. Meld (classic): from the masks, each suit's meld read from two
# tables by its 12 bits, the four arounds and the pinochle by bit operations. Play: seat 0 names
# its best trump and every seat plays greedily over the masks (no auction, passing or scoring).

_G = np.uint64(0x9E3779B97F4A7C15)
_M16 = np.uint64(0xFFFF)
_LOW24 = np.uint64(0xFFFFFF)
_REF_IDS = np.array([k // 2 + 24 * (k % 2) for k in range(48)], np.int8)


@numba.njit(cache=True, inline="always")
def _ref_mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def _ref_spread(x):
    """The 8 bits of ``x`` as 8 bytes of 0 or 1."""
    y = (x * np.uint64(0x0101010101010101)) & np.uint64(0x8040201008040201)
    return (((y + np.uint64(0x7F7F7F7F7F7F7F7F)) | y) & np.uint64(0x8080808080808080)) >> np.uint64(7)


@numba.njit(cache=True, inline="always")
def _ref_deal(seed, i, deck, hands):
    """Deal ``i`` of ``seed``: the four hands as masks of card ids into ``hands`` (uint64[4])."""
    state = _ref_mix(seed * _G + np.uint64(i))
    for k in range(48):
        deck[k] = _REF_IDS[k]
    j = 47
    while j > 11:
        state += _G
        w = _ref_mix(state)
        for _ in range(4):
            r = ((w & _M16) * np.uint64(j + 1)) >> np.uint64(16)
            w >>= np.uint64(16)
            t = deck[j]
            deck[j] = deck[r]
            deck[r] = t
            j -= 1
    for p in range(4):
        h = np.uint64(0)
        for m in range(12 * p, 12 * p + 12):
            h |= np.uint64(1) << np.uint64(deck[m])
        hands[p] = h


@numba.njit(cache=True, inline="always")
def _ref_counts(hands, words):
    """The count vectors (int8[4, 24] seen as uint64[12]) of the hands' masks."""
    for p in range(4):
        lo = hands[p] & _LOW24
        hi = hands[p] >> np.uint64(24)
        for q in range(3):
            s = np.uint64(8 * q)
            words[3 * p + q] = _ref_spread((lo >> s) & np.uint64(255)) + _ref_spread((hi >> s) & np.uint64(255))


def _ref_suit_tables() -> tuple[np.ndarray, np.ndarray]:
    """Classic meld within one suit, by its 12 bits (copy 0 of ranks A..9, then copy 1): as
    trump (run, royal marriages beside it, dix) and as a plain suit (marriages)."""
    trump = np.zeros(4096, np.int64)
    plain = np.zeros(4096, np.int64)
    for code in range(4096):
        c = [(code >> r & 1) + (code >> (6 + r) & 1) for r in range(6)]
        run = min(c[:5])
        married = min(c[2], c[3])
        trump[code] = (1500 if run == 2 else 150 * run) + 40 * (married - run) + 10 * c[5]
        plain[code] = 20 * married
    return trump, plain


_REF_TRUMP, _REF_PLAIN = _ref_suit_tables()
_REF_AROUND = np.array([100, 0, 80, 60, 40, 0], np.int64)  # aces, kings, queens, jacks around


@numba.njit(cache=True, inline="always")
def _ref_meld(h, out):
    """Classic meld of the hand of card-id mask ``h`` in each trump, into ``out`` (int64[4])."""
    lo = h & _LOW24
    hi = h >> np.uint64(24)
    h1 = lo | hi
    h2 = lo & hi
    base = 0
    for s in range(4):
        code = ((lo >> np.uint64(6 * s)) & np.uint64(63)) | (((hi >> np.uint64(6 * s)) & np.uint64(63)) << np.uint64(6))
        base += _REF_PLAIN[code]
        out[s] = _REF_TRUMP[code] - _REF_PLAIN[code]
    a1 = h1 & (h1 >> np.uint64(6)) & (h1 >> np.uint64(12)) & (h1 >> np.uint64(18))
    a2 = h2 & (h2 >> np.uint64(6)) & (h2 >> np.uint64(12)) & (h2 >> np.uint64(18))
    for r in range(5):
        if (a2 >> np.uint64(r)) & np.uint64(1):
            base += 10 * _REF_AROUND[r]
        elif (a1 >> np.uint64(r)) & np.uint64(1):
            base += _REF_AROUND[r]
    if (h2 >> np.uint64(3)) & (h2 >> np.uint64(16)) & np.uint64(1):  # Q of spades, J of diamonds
        base += 300
    elif (h1 >> np.uint64(3)) & (h1 >> np.uint64(16)) & np.uint64(1):
        base += 40
    for t in range(4):
        out[t] += base


@numba.njit(cache=True, inline="always")
def _corners(counts):
    """Two cells of the deal, so that dealing alone is not optimised away."""
    return counts[0, 0] + counts[3, 23]


@numba.njit(cache=True, inline="always")
def _best_melds(counts, tb, out):
    """The four hands' meld in their best trump, by the engine's kernel."""
    s = 0
    for p in range(4):
        hand_meld_all_trumps(counts[p], tb, out)
        s += max(out[0], out[1], out[2], out[3])
    return s


#: What :func:`_streamed` times: dealing, or dealing and the best meld, by the engine or the reference.
DEAL, DEAL_MELD, REF_DEAL, REF_DEAL_MELD = range(4)


@numba.njit(cache=True, nogil=True)
def _streamed_span(seed, lo, hi, tb, kind):
    """Deals ``lo .. hi-1`` of ``seed``, each dealt and scored as ``kind`` says (the engine's
    ``deal_one`` or the reference's; two cells of the deal, or the four hands' best meld),
    summed. One kernel for the four (a branch a deal, always the same way): compiled once and
    cached, where a kernel per pair of functions could not be."""
    deck = np.empty(48, np.int8)
    counts = np.empty((4, 24), np.int8)
    words = counts.reshape(96).view(np.uint64)
    hands = np.empty(4, np.uint64)
    out = np.empty(4, np.int32)
    melds = np.empty(4, np.int64)
    s = 0
    for d in range(lo, hi):
        if kind == DEAL:
            deal_one(seed, d, deck, counts)
            s += _corners(counts)
        elif kind == DEAL_MELD:
            deal_one(seed, d, deck, counts)
            s += _best_melds(counts, tb, out)
        elif kind == REF_DEAL:
            _ref_deal(seed, d, deck, hands)
            _ref_counts(hands, words)
            s += _corners(counts)
        else:
            _ref_deal(seed, d, deck, hands)
            for p in range(4):
                _ref_meld(hands[p], melds)
                s += max(melds[0], melds[1], melds[2], melds[3])
    return s


def _spans(n: int, kernel) -> int:
    """``kernel(lo, hi)`` over the spans of ``n`` deals on every thread allowed, as the engine's
    loops run (``_numba.in_spans``: serial kernels that release the GIL), summed."""
    sums: list[int] = []
    in_spans(n, lambda lo, hi: sums.append(kernel(lo, hi)), BLOCK)
    return sum(sums)


def _streamed(seed, n, tb, kind):
    return _spans(n, lambda lo, hi: _streamed_span(seed, lo, hi, tb, kind))


_REF_POINTS = np.array([11, 10, 4, 3, 2, 0], np.int64)


@numba.njit(cache=True, inline="always")
def _ref_greedy(h, lead_suit, win, trump):
    """A legal card of the kinds held ``h`` (a 24-bit mask): follow suit and beat the winning card
    if possible, else trump if void; the lowest card that wins the trick, else the lowest legal
    card; leading, the highest card of the lowest suit held."""
    if lead_suit < 0:
        return trailing_zeros(h)
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
    return 63 - leading_zeros(over if over else legal)


@numba.njit(cache=True, nogil=True)
def _ref_full_span(seed, lo, hi):
    """Deals ``lo .. hi-1``: deal, meld of every seat in every trump, seat 0 names its best trump,
    twelve greedy tricks."""
    deck = np.empty(48, np.int8)
    hands = np.empty(4, np.uint64)
    melds = np.empty((4, 4), np.int64)
    h1 = np.empty(4, np.int64)
    h2 = np.empty(4, np.int64)
    s = 0
    for d in range(lo, hi):
        _ref_deal(seed, d, deck, hands)
        for p in range(4):
            _ref_meld(hands[p], melds[p])
            c0 = np.int64(hands[p] & _LOW24)  # the kinds of which copy 0 is held, and copy 1
            c1 = np.int64(hands[p] >> np.uint64(24))
            h1[p] = c0 | c1
            h2[p] = c0 & c1
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
    return s


def _ref_full(seed, n):
    return _spans(n, lambda lo, hi: _ref_full_span(seed, lo, hi))


def _rates(kernels: dict, repeat: int) -> dict[str, list[float]]:
    """Deals per second of each kernel ``{key: (fn, n)}`` in each of ``repeat`` rounds, after a
    warm-up (compile) call; every round times each kernel in turn, so that an engine kernel and
    its reference see the same state of a shared machine."""
    for fn, n in kernels.values():
        fn(min(n, 10_000))  # compile / load from cache
    rounds: dict[str, list[float]] = {key: [] for key in kernels}
    for _ in range(repeat):
        for key, (fn, n) in kernels.items():
            rounds[key].append(n / _timed(fn, n))
    return rounds


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
        "full_hand_double_deck_per_s": (_full_hands("double-deck", "heuristic"), deals // 40),
        "full_hand_double_deck_contract_per_s": (_full_hands("double-deck", "contract"), deals // 40),
        "ref_deal_per_s": (lambda n: _streamed(seed, n, tb, REF_DEAL), deals),
        "ref_deal_meld_per_s": (lambda n: _streamed(seed, n, tb, REF_DEAL_MELD), deals),
        "ref_full_hand_per_s": (lambda n: _ref_full(seed, n), deals // 10),
    }
    cores = numba.config.NUMBA_NUM_THREADS
    figures: dict[str, float] = {}
    spread: dict[str, dict] = {}
    for threads, suffix in ((cores, ""), (1, "_1thread")):
        set_threads(threads)
        rounds = _rates({key: (fn, max(n, 1000)) for key, (fn, n) in kernels.items()}, repeat)
        for key, rates in rounds.items():
            figures[key + suffix] = round(max(rates))
            spread[key + suffix] = {"min": round(min(rates)), "median": round(float(np.median(rates)))}
        for key, ref in RATIOS.items():  # the ratio in each round, engine and reference timed side by side
            per_round = [e / r for e, r in zip(rounds[key], rounds[ref])]
            spread[f"{key}{suffix}_vs_ref"] = {"min": round(min(per_round), 3),
                                               "median": round(float(np.median(per_round)), 3)}
    set_threads(cores)
    ratios = {f"{key}_vs_ref": round(figures[key] / figures[ref], 3) for key, ref in RATIOS.items()}
    return {
        **figures, **ratios,
        "rounds": spread,
        "deals": deals, "repeat": repeat, "threads": cores,
        "machine": _machine(),
        "version": ps.__version__,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "notes": {"deal_meld": "deal, then meld of all four hands in all four trumps (classic)",
                  "full_hand": "thousand: deal, auction, trump, passing, meld, twelve tricks and scoring, "
                               "heuristic play by every seat unless named otherwise",
                  "full_hand_deals": "a tenth of --deals (double-deck: a fortieth)",
                  "full_hand_double_deck": "double-deck (seed 003's 80 cards): deal, auction, trump, passing of "
                                           "four cards each way, meld, twenty tricks and scoring",
                  "ref": "the reference kernels of this script, as plain and as fast as we could write them, "
                         "same rounds: dealing is one SplitMix64 word per four cards (16-bit draws, no "
                         "rejection) and the hands' count vectors written a word at a time; deal + meld reads "
                         "classic meld from the hands' bit masks (a table lookup a suit, arounds and pinochle "
                         "by bit operations) and equals the engine's; the full hand deals and melds so, seat 0 "
                         "names its best trump and every seat plays greedily (no auction, passing or scoring); "
                         "every loop, engine and reference, runs as serial spans of deals on the threads "
                         "(_numba.in_spans)",
                  "vs_ref": "engine figure / reference figure, each the best of its rounds, all cores; "
                            "full hands (heuristic and contract play) against the greedy full-hand reference",
                  "rounds": "the worst and the median round of each figure, and of each ratio taken round by "
                            "round (the machine is shared: rounds differ)"},
    }


#: The ratios written: engine figure -> its reference.
RATIOS = {"deal_per_s": "ref_deal_per_s", "deal_meld_per_s": "ref_deal_meld_per_s",
          "full_hand_per_s": "ref_full_hand_per_s", "full_hand_contract_per_s": "ref_full_hand_per_s"}


#: What the double-dummy times are: the solving thread's processor time.
DD_CLOCK = "thread_time"


def _search_fingerprint() -> str:
    """What a logged full-deal time was measured with: the engine's code, the version, the clock
    and the machine (a time is reused only under the same)."""
    engine = Path(ps.__file__).parent / "engine"
    h = hashlib.sha256(ps.__version__.encode() + DD_CLOCK.encode())
    for f in sorted(engine.glob("*.py")):
        h.update(f.name.encode() + f.read_bytes())
    h.update(json.dumps(_machine(), sort_keys=True).encode())
    return h.hexdigest()[:16]


def double_dummy_speed(variant: str, deals: int, played: int = 4, log: Path | None = None) -> dict:
    """The double-dummy solver's time (ms of one thread's processor time, :data:`DD_CLOCK`) on the
    positions after the heuristic has played ``played`` tricks of the first ``deals`` deals of seed
    1 with a contract (thrown-in deals passed over): median, 95th percentile and the worst (after
    the search is compiled).
    With ``log`` (a JSON-lines file), each position's time is appended to it as soon as it is
    solved, and a position the log already holds from the same code on the same machine
    (:func:`_search_fingerprint`) is not solved again: a long run (whole hands) goes on where it
    was stopped."""
    from pinochle_sim.studies.dd import double_dummy
    from pinochle_sim.studies.records import hands_at, records
    v = ps.variant(variant)
    fp = _search_fingerprint() if log is not None else ""
    done = {}
    if log is not None and log.exists():
        for line in log.read_text().splitlines():
            row = json.loads(line)
            if row["fingerprint"] == fp and row["variant"] == variant and row["played"] == played:
                done[row["deal"]] = row
    recs, start = [], 0
    while len(recs) < deals:
        batch = deals - len(recs) + (deals - len(recs)) // 4 + 4
        recs += [r for r in records(v, deals=batch, seed=1, start=start, bidding="formula") if r["bidder"] is not None]
        start += batch
    recs = recs[:deals]
    times, nodes = [], []
    warm = False
    with bar(len(recs), f"double dummy, {variant}, from trick {played + 1}", unit=" positions") as pb:
        for rec in recs:
            if rec["deal"] not in done:
                if not warm:  # compile (or load) the search on a small position
                    late = v.hand_size - 2
                    double_dummy([" ".join(h) for h in hands_at(rec, late)], rec["trump"],
                                 rec["tricks"][late]["leader"], v, exact=False)
                    warm = True
                hands = hands_at(rec, played)
                args = ([" ".join(h) for h in hands], rec["trump"], rec["tricks"][played]["leader"], v)
                t0 = time.thread_time()
                r = double_dummy(*args, exact=False)
                ms = 1000 * (time.thread_time() - t0)
                done[rec["deal"]] = {"fingerprint": fp, "variant": variant, "played": played, "deal": rec["deal"],
                                     "ms": round(ms, 2), "nodes": int(r.nodes), "points": int(r.points)}
                if log is not None:
                    with open(log, "a") as fh:
                        fh.write(json.dumps(done[rec["deal"]]) + "\n")
            times.append(done[rec["deal"]]["ms"])
            nodes.append(done[rec["deal"]]["nodes"])
            pb.update(1)
    return {"median_ms": round(float(np.median(times)), 2), "p95_ms": round(float(np.percentile(times, 95)), 2),
            "max_ms": round(max(times), 1), "median_nodes": int(np.median(nodes)),
            "p95_nodes": int(np.percentile(nodes, 95)), "positions": len(times), "tricks_played_first": played}


def _full_specs(p: argparse.ArgumentParser, specs: list[str]) -> dict[str, int]:
    out = {}
    for spec in specs:
        name, _, n = spec.partition("=")
        if name not in ps.PLAYABLE or not n.isdigit() or int(n) < 1:
            p.error(f"--dd-full takes VARIANT=DEALS (a preset, a positive count), not {spec!r}")
        out[name] = int(n)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=20_000_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true", help="also print the figures as JSON")
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument("--dd-deals", type=int, default=100,
                   help="deals (with a contract) whose double-dummy solve is timed, from 8 tricks left (0: none)")
    p.add_argument("--dd-full", nargs="*", default=["classic=100", "thousand=20"], metavar="VARIANT=DEALS",
                   help="deals of each variant whose whole-hand double-dummy solve is timed (seconds a deal in "
                        "classic, up to minutes in thousand; none given: none timed)")
    p.add_argument("--dd-log", default=str(RESULTS.parent / "bench_dd_full.jsonl"),
                   help="each whole-hand solve's time is appended here as it is solved; a run stopped part "
                        "way goes on from it (times of the same code on the same machine are reused)")
    p.add_argument("--only-dd", action="store_true",
                   help="time only the double-dummy solver; the other figures stay as --out holds them")
    p.add_argument("--no-dd", action="store_true",
                   help="time all but the double-dummy solver; its figures stay as --out holds them")
    args = p.parse_args(argv)
    if args.only_dd and args.no_dd:
        p.error("--only-dd and --no-dd leave nothing to time together")
    if (args.only_dd or args.no_dd) and not Path(args.out).exists():
        p.error(f"--{'only' if args.only_dd else 'no'}-dd keeps figures of {args.out}, which does not exist yet: "
                "run the whole bench first")
    if args.no_dd:
        args.dd_deals, args.dd_full = 0, []
    full = _full_specs(p, args.dd_full)
    if full and not Path(args.dd_log).resolve().parent.is_dir():
        p.error(f"--dd-log {args.dd_log}: no such folder")
    if args.only_dd:
        report = json.loads(Path(args.out).read_text())
    else:
        report = measure(args.deals, args.repeat)
    if args.dd_deals or full:
        report["double_dummy_run"] = {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                      "machine": _machine(), "version": ps.__version__, "clock": DD_CLOCK}
    if args.no_dd:  # the solver's figures as they were, with the run that timed them
        old = json.loads(Path(args.out).read_text())
        kept = {key: old[key] for key in ("double_dummy_8_tricks_left", "double_dummy_full_deal") if key in old}
        if kept:  # timed by an --only-dd run, or else by the whole run before
            stamp = old.get("double_dummy_run") or {k: old.get(k) for k in ("when", "machine", "version")}
            report.update(kept, double_dummy_run=stamp)
    if args.dd_deals:
        threads = set_threads(1)
        report["double_dummy_8_tricks_left"] = {v: double_dummy_speed(v, args.dd_deals, ps.variant(v).dd_trick)
                                                for v in ("classic", "thousand", "double-deck")}
        set_threads(threads)
    if full:
        threads = set_threads(1)
        report.setdefault("double_dummy_full_deal", {}).update(
            {v: double_dummy_speed(v, n, played=0, log=Path(args.dd_log)) for v, n in full.items()})
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
                print(f"double dummy, {variant}, {what}: median {f['median_ms']} ms, p95 {f['p95_ms']} ms, "
                      f"median {f['median_nodes']:,} positions searched")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
