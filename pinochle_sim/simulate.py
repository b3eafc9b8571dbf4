"""The full hand, deal by deal: deal, auction, trump, passing, meld, twelve tricks, scoring.

:func:`play_deal` is the kernel body shared by every driver: summaries streamed in chunks
(:func:`iter_play`, :func:`play`, :func:`simulate`) and full hand records (:func:`records`).
Deal ``i`` uses the random streams ``(seed, i, 0)`` for the cards and ``(seed, i, 1)`` for the
players' random choices, so it is the same deal, played the same way, whatever the thread
count, chunk size or starting index. The dealer of deal ``i`` is seat ``i % 4``.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from numba import prange

from . import __version__
from ._numba import njit, pnjit
from .auction import N_SITUATIONS, continue_auction, hand_worth, run_auction
from .cards import NINE, SUITS
from .deal import BLOCK, deal_around, deal_one, stream
from .files import atomic_write
from .meld import hand_meld_all_trumps
from .passing import pass_cards, sure_sweep
from .play import POLICIES, TRICKS, play_tricks
from .scoring import banked_meld, score_hand, score_playing_1000
from .strategies import DEFAULT_BIDDING, Strategy, strategies_arrays, strategy
from .variants import DIX, R, Variant, band_width, compile_variant, meld_unit, variant

COLUMNS = ("dealer", "thrown_in", "bidder", "bid", "trump", "meld_0", "meld_1", "meld_2", "meld_3",
           "points_0", "points_1", "tricks_0", "tricks_1", "counters_0", "counters_1", "made",
           "score_0", "score_1", "calls", "bidder_worth", "bid_meld", "bid_aces", "bid_tens",
           "bid_kings", "bid_trumps", "side_total", "playing_1000", "bid_situation")
C = {name: i for i, name in enumerate(COLUMNS)}
(DEALER, THROWN, BIDDER, BID, TRUMP, MELD0, _M1, _M2, _M3, POINTS0, _P1, TRICKS0, _T1, COUNTERS0, _C1,
 MADE, SCORE0, _S1, CALLS, WORTH, BID_MELD, BID_ACES, BID_TENS, BID_KINGS, BID_TRUMPS,
 SIDE_TOTAL, PLAYING_1000, BID_SITUATION) = range(len(COLUMNS))
#: What the bidder saw when bidding (its own cards before any passing) and what its side banked
#: towards the contract (meld kept under the no-trick rule, plus trick points).
DRAW_TRUMP_MIN = 4  # the heuristic declarer draws trump holding at least this many


@njit
def _five_nines_no_meld(c, mv, run_mode, extra_kq, melds):
    """Seed 004's optional throw-in: five nines or more, and no meld but nines of trump."""
    nines = 0
    for s in range(4):
        nines += c[6 * s + NINE]
    if nines < 5:
        return False
    for t in range(4):
        if melds[t] - mv[DIX, c[6 * t + NINE]] > 0:
            return False
    return True


@njit
def workspace(max_calls):
    """(hands, deck, calls, passes, tricks, tinfo, melds, worth, iw): one thread's scratch."""
    return (np.empty((4, 24), np.int8), np.empty(48, np.int8), np.empty((max_calls, 2), np.int32),
            np.empty((2, 12), np.int8), np.empty((TRICKS, 4), np.int8),
            np.empty((TRICKS, 3), np.int32), np.empty((4, 4), np.int32),
            np.empty((4, N_SITUATIONS), np.float64),
            np.empty(24, np.int64))


@njit
def value_hands(hands, mv, run_mode, extra_kq, rules, bid_weight, bid_table, band, melds, worth, trumps):
    """Every seat's meld in every trump (``melds``), what its bidding strategy bids in each auction
    situation (``worth``) and the trump it would name (``trumps``)."""
    for p in range(4):
        hand_meld_all_trumps(hands[p], mv, run_mode, extra_kq, melds[p])
        trumps[p] = hand_worth(hands[p], melds[p], bid_weight[p], bid_table[p], band, rules, worth[p])


@njit
def play_deal(seed, i, forced_bidder, mv, run_mode, extra_kq, points, rules, bid_weight, bid_table,
              margin, band, policy, hands, deck, calls, passes, tricks, tinfo, melds, worth, iw, row):
    """Play deal ``i`` in full and write its summary ``row`` (see ``COLUMNS``).

    ``hands`` (int8[4, 24]) receives the hands after passing; ``calls``, ``passes``, ``tricks``
    and ``tinfo`` (leader, winner, points of each trick) receive the hand record; ``deck``,
    ``melds``, ``worth`` and ``iw`` are scratch. ``forced_bidder >= 0`` skips the auction and
    makes that seat the declarer at a bid of 0 (for the bid tables).
    """
    row[:] = 0
    dealer = i % 4
    row[DEALER] = dealer
    deal_one(seed, i, deck, hands)
    state = stream(seed, i, 1)
    best_trump = iw[0:4]
    value_hands(hands, mv, run_mode, extra_kq, rules, bid_weight, bid_table, band, melds, worth, best_trump)
    thrown = False
    for p in range(4):
        if rules[R.five_nines] and _five_nines_no_meld(hands[p], mv, run_mode, extra_kq, melds[p]):
            thrown = True
    n_calls = 0
    bidder = -1
    bid = 0
    sit = -1
    if forced_bidder >= 0:
        bidder = forced_bidder
    elif not thrown:
        bidder, bid, n_calls, sit = run_auction(dealer, worth, margin, rules, calls)
    row[CALLS] = n_calls
    row[BID_SITUATION] = sit
    if bidder < 0:
        row[THROWN] = 1
        row[BIDDER] = -1
        row[TRUMP] = -1
        row[MADE] = -1
        return
    trump = best_trump[bidder]
    w = worth[bidder, max(sit, 0)]
    row[WORTH] = np.int32(round(w)) if np.isfinite(w) else -1
    declare(dealer, bidder, bid, trump, forced_bidder >= 0, mv, run_mode, extra_kq, points, rules,
            policy, hands, state, passes, tricks, tinfo, melds, iw, row)


@njit
def declare(dealer, bidder, bid, trump, forced, mv, run_mode, extra_kq, points, rules, policy,
            hands, state, passes, tricks, tinfo, melds, iw, row):
    """The hand from the contract on: passing, meld, the tricks and the score, into ``row``.

    ``hands`` (int8[4, 24]) are the hands as dealt and ``melds`` (int32[4, 4]) each seat's meld
    in every trump; both are updated by passing. ``forced``: a declarer simulation (no auction),
    so nobody plays for 1000 and ``made`` is not recorded.
    """
    team = iw[4:10].reshape((3, 2))
    team_meld = iw[10:12]
    team_dix = iw[12:14]
    score = iw[14:16]
    row[BIDDER] = bidder
    row[BID] = bid
    row[TRUMP] = trump
    row[BID_MELD] = melds[bidder, trump]
    for s in range(4):
        row[BID_ACES] += hands[bidder, 6 * s]
        row[BID_TENS] += hands[bidder, 6 * s + 1]
        row[BID_KINGS] += hands[bidder, 6 * s + 2]
    for r in range(6):
        row[BID_TRUMPS] += hands[bidder, 6 * trump + r]
    k = rules[R.pass_cards]
    if k > 0:  # only the passing partners' hands change
        pass_cards(hands, bidder, trump, k, mv, run_mode, extra_kq, passes)
        for p in (bidder, (bidder + 2) % 4):
            hand_meld_all_trumps(hands[p], mv, run_mode, extra_kq, melds[p])
    # seed 004's optional "playing 1000": the bidder, leading, announces a sure sweep; its side
    # shows no meld and its partner sits out
    sweep = (rules[R.playing_1000] and not forced and rules[R.first_lead] == 0
             and sure_sweep(hands[bidder], trump))
    row[PLAYING_1000] = sweep
    team_meld[:] = 0
    team_dix[:] = 0
    team[:] = 0
    for p in range(4):
        m = 0 if sweep and p % 2 == bidder % 2 else melds[p, trump]
        row[MELD0 + p] = m
        team_meld[p % 2] += m
        team_dix[p % 2] += mv[DIX, hands[p, 6 * trump + NINE]]
    leader = bidder if rules[R.first_lead] == 0 else (dealer + 1) % 4
    play_tricks(hands, leader, trump, bidder % 2, rules[R.must_head], rules[R.must_trump],
                rules[R.must_overtrump], points, rules[R.last_trick], policy, DRAW_TRUMP_MIN, state,
                tricks, tinfo, team, iw[16:20], iw[20:24], (bidder + 2) % 4 if sweep else -1)
    if sweep:
        made = score_playing_1000(bidder, team_meld, team[0], team[2], score)
    else:
        made = score_hand(bidder, bid, team_meld, team_dix, team[0], team[1], team[2],
                          rules[R.min_tricks], rules[R.no_trick], score)
    row[MADE] = made if not forced else -1
    bt = bidder % 2
    row[SIDE_TOTAL] = team[0, bt] + banked_meld(bt, bt, team_meld[bt], team_dix[bt], team[1, bt],
                                                team[2, bt], rules[R.no_trick])
    for t in range(2):
        row[POINTS0 + t] = team[0, t]
        row[TRICKS0 + t] = team[1, t]
        row[COUNTERS0 + t] = team[2, t]
        row[SCORE0 + t] = score[t]


@pnjit
def _play_many(seed, start, n, forced_bidder, mv, run_mode, extra_kq, points, rules, bid_weight,
               bid_table, margin, band, policy, max_calls, rows):
    """Summaries of deals ``start .. start+n-1`` into ``rows`` (int32[n, len(COLUMNS)])."""
    for b in prange((n + BLOCK - 1) // BLOCK):
        hands, deck, calls, passes, tricks, tinfo, melds, worth, iw = workspace(max_calls)
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            play_deal(seed, start + d, forced_bidder, mv, run_mode, extra_kq, points, rules,
                      bid_weight, bid_table, margin, band, policy, hands, deck, calls, passes,
                      tricks, tinfo, melds, worth, iw, rows[d])


@pnjit
def _record_many(seed, start, n, forced_bidder, mv, run_mode, extra_kq, points, rules, bid_weight,
                 bid_table, margin, band, policy, dealt, calls, passes, tricks, tinfo, rows):
    """As :func:`_play_many`, keeping each deal's cards, calls, passes and tricks."""
    for d in prange(n):
        hands, deck, _, _, _, _, melds, worth, iw = workspace(1)
        deal_one(seed, start + d, deck, dealt[d])
        play_deal(seed, start + d, forced_bidder, mv, run_mode, extra_kq, points, rules,
                  bid_weight, bid_table, margin, band, policy, hands, deck, calls[d], passes[d],
                  tricks[d], tinfo[d], melds, worth, iw, rows[d])


@pnjit
def _declare_hand(seed, deals, seat, fixed, dealer, trumps, mv, run_mode, extra_kq, points, rules,
                  policy, rows):
    """The deals numbered ``deals`` (int64[n]) with ``seat`` holding ``fixed`` (int8[24]) and
    declaring in each trump of ``trumps``, into ``rows`` (int32[n, len(trumps), len(COLUMNS)]).
    ``dealer < 0``: deal ``i``'s dealer is ``i % 4``. Every trump plays the same deals and
    random streams."""
    n = deals.shape[0]
    for b in prange((n + BLOCK - 1) // BLOCK):
        hands, deck, _, passes, tricks, tinfo, melds, _, iw = workspace(1)
        dealt = np.empty((4, 24), np.int8)
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            i = deals[d]
            deal_around(seed, i, seat, fixed, deck, dealt)
            dl = i % 4 if dealer < 0 else dealer
            for k in range(trumps.shape[0]):
                hands[:] = dealt
                for p in range(4):
                    hand_meld_all_trumps(hands[p], mv, run_mode, extra_kq, melds[p])
                row = rows[d, k]
                row[:] = 0
                row[DEALER] = dl
                declare(dl, seat, 0, trumps[k], True, mv, run_mode, extra_kq, points, rules, policy,
                        hands, stream(seed, i, 1), passes, tricks, tinfo, melds, iw, row)


@pnjit
def _worths_around(seed, start, n, seat, fixed, mv, run_mode, extra_kq, rules, bid_weight, bid_table,
                   band, out):
    """For deals ``start .. start+n-1`` dealt around ``fixed`` in ``seat``: what every seat's
    bidding strategy would bid in each auction situation, into ``out`` (float64[n, 4, situations])."""
    for b in prange((n + BLOCK - 1) // BLOCK):
        hands, deck, _, _, _, _, melds, _, iw = workspace(1)
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            deal_around(seed, start + d, seat, fixed, deck, hands)
            value_hands(hands, mv, run_mode, extra_kq, rules, bid_weight, bid_table, band, melds, out[d],
                        iw[0:4])


@pnjit
def _after_pass(seed, deals, fixed, dealer, passed0, high, high_seat, mv, run_mode, extra_kq, points,
                rules, bid_weight, bid_table, margin, band, policy, max_calls, out):
    """For the deals numbered ``deals``, dealt around ``fixed`` in seat 0: seat 0 passes now,
    the auction goes on under the seats' strategies from the state after the calls so far
    (``passed0``, the bid ``high`` held by ``high_seat``), and the hand is played out. ``out[d]``
    receives team 0's score minus team 1's (0 when the hand is thrown in)."""
    n = deals.shape[0]
    for b in prange((n + BLOCK - 1) // BLOCK):
        hands, deck, calls, passes, tricks, tinfo, melds, worth, iw = workspace(max_calls)
        passed = np.empty(4, np.bool_)
        row = np.empty(len(COLUMNS), np.int32)
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            i = deals[d]
            deal_around(seed, i, 0, fixed, deck, hands)
            value_hands(hands, mv, run_mode, extra_kq, rules, bid_weight, bid_table, band, melds, worth,
                        iw[0:4])
            passed[:] = passed0
            passed[0] = True
            bidder, bid, _, _ = continue_auction(1, passed, high, high_seat, -1, 0, worth, margin,
                                                 rules, calls)
            out[d] = 0
            if bidder >= 0:
                row[:] = 0
                declare(dealer, bidder, bid, iw[bidder], False, mv, run_mode, extra_kq, points, rules,
                        policy, hands, stream(seed, i, 1), passes, tricks, tinfo, melds, iw, row)
                out[d] = row[SCORE0] - row[SCORE0 + 1]


# ------------------------------------------------------------------------------------------
# Python drivers.

class Setup:
    """A variant and the seats' policies, compiled for the kernels."""

    def __init__(self, v: Variant | str = "thousand", policy: str | list[str] = "heuristic",
                 bidding=None, forced_bidder: int = -1):
        self.variant = variant(v) if isinstance(v, str) else v
        names = [policy] * 4 if isinstance(policy, str) else list(policy)
        for name in names:
            if name not in POLICIES:
                raise ValueError(f"unknown play policy {name!r}; valid: {', '.join(POLICIES)}")
        if len(names) != 4:
            raise ValueError("give one play policy, or one for each of the four seats")
        self.policy_names = names
        bids = [bidding] * 4 if bidding is None or isinstance(bidding, (str, Strategy)) else list(bidding)
        if len(bids) != 4:
            raise ValueError("give one bidding strategy, or one for each of the four seats")
        # a declarer simulation has no auction: its seats need no (costly) default strategy
        default = "formula" if forced_bidder >= 0 else DEFAULT_BIDDING
        self.bidding = [strategy(default if b is None else b) for b in bids]
        self.tables = compile_variant(self.variant)
        self.policy = np.array([POLICIES.index(n) for n in names], np.int64)
        self.bid_weight, self.bid_table, self.margin = strategies_arrays(self.bidding, self.variant)
        self.forced_bidder = int(forced_bidder)
        v = self.variant
        # Room for every call: bids rise by raise_min up to a limit no hand reaches (a side's
        # meld plus the trick points); run_auction stops raising if the room ever runs out.
        ceiling = 2 * (v.trick_total + 4 * 2000)
        self.max_calls = int(min(4096, 8 + ceiling // max(1, v.raise_min)))

    def args(self) -> tuple:
        t = self.tables
        return (self.forced_bidder, t.meld_values, t.run_mode, t.extra_kq, t.card_points, t.rules,
                self.bid_weight, self.bid_table, self.margin, band_width(self.variant), self.policy)

    def provenance(self, seed: int, deals: int, start: int = 0) -> dict:
        return {"variant": self.variant.spec, "options": self.variant.options(),
                "play_policy": self.policy_names,
                "bidding": [b.spec for b in self.bidding],
                "seed": seed, "deals": deals, "start": start, "version": __version__}


def _frame(rows: np.ndarray, start: int) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    df.insert(0, "deal", np.arange(start, start + len(rows), dtype=np.int64))
    df["thrown_in"] = df["thrown_in"].astype(bool)
    df["trump"] = pd.Categorical.from_codes(rows[:, TRUMP].astype(np.int64).clip(-1), list(SUITS))
    return df


def iter_play(v: Variant | str = "thousand", deals: int = 10_000, seed: int = 0, start: int = 0,
              policy: str | list[str] = "heuristic", bidding=None, chunk: int = 1 << 18,
              progress: bool = False, forced_bidder: int = -1) -> Iterator[pd.DataFrame]:
    """Play deals in chunks, yielding one DataFrame per chunk (memory stays one chunk)."""
    from .progress import bar
    setup = v if isinstance(v, Setup) else Setup(v, policy, bidding, forced_bidder)
    if deals < 0 or seed < 0 or start < 0:
        raise ValueError("deals, seed and start must be >= 0")
    with bar(deals, "playing", progress) as pb:
        for s in range(start, start + deals, chunk):
            n = min(chunk, start + deals - s)
            rows = np.empty((n, len(COLUMNS)), np.int32)
            _play_many(np.uint64(seed), np.int64(s), n, *setup.args(), setup.max_calls, rows)
            pb.update(n)
            yield _frame(rows, s)


def play(v: Variant | str = "thousand", deals: int = 10_000, seed: int = 0, start: int = 0,
         policy: str | list[str] = "heuristic", bidding=None, progress: bool = False,
         forced_bidder: int = -1) -> pd.DataFrame:
    """Play ``deals`` deals; one row per deal (see ``COLUMNS``; team 0 is seats 0 and 2).

    >>> df = play("classic", deals=8, seed=1)
    >>> len(df), bool((df.points_0 + df.points_1)[~df.thrown_in].eq(250).all())
    (8, True)
    """
    parts = list(iter_play(v, deals, seed, start, policy, bidding, progress=progress,
                           forced_bidder=forced_bidder))
    return pd.concat(parts, ignore_index=True) if parts else _frame(np.empty((0, len(COLUMNS)), np.int32), start)


def simulate(v: Variant | str, deals: int, seed: int, out: str | Path,
             policy: str | list[str] = "heuristic", bidding=None, progress: bool = True,
             chunk: int = 1 << 18) -> dict:
    """Play ``deals`` deals, streaming rows into the parquet file ``out`` (written whole or not
    at all), with its provenance beside it in ``out`` + ``.json``; return that metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    setup = Setup(v, policy, bidding)
    out = Path(out)
    meta = setup.provenance(seed, deals)
    t0 = time.perf_counter()
    summary = {"hands": 0, "thrown_in": 0, "made": 0, "bid_sum": 0}
    with atomic_write(out, "wb") as fh:
        writer = None
        for df in iter_play(setup, deals, seed, chunk=chunk, progress=progress):
            table = pa.Table.from_pandas(df, preserve_index=False)
            if writer is None:
                writer = pq.ParquetWriter(fh, table.schema, metadata_collector=None)
            writer.write_table(table)
            played = df[~df.thrown_in]
            summary["hands"] += len(df)
            summary["thrown_in"] += int(df.thrown_in.sum())
            summary["made"] += int((played.made == 1).sum())
            summary["bid_sum"] += int(played.bid.sum())
        if writer is None:  # no deals: an empty table with the same columns
            writer = pq.ParquetWriter(fh, pa.Table.from_pandas(
                _frame(np.empty((0, len(COLUMNS)), np.int32), 0), preserve_index=False).schema)
        writer.close()
    meta["seconds"] = round(time.perf_counter() - t0, 3)
    meta["summary"] = summary
    meta["meld_unit"] = meld_unit(setup.variant)
    with atomic_write(str(out) + ".json") as fh:
        json.dump(meta, fh, indent=2)
    return meta
