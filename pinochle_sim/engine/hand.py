"""The hand kernel: one deal from the shuffle to the score (deal, auction, kitty or passing,
meld, the tricks, scoring), and the loops over spans of deals (run side by side on threads,
``_numba.in_spans``) that every study drives.

:func:`play_deal` is the body shared by every loop, compiled once into :func:`play_block`, which
plays whole deals for the summaries (:func:`_play_many`), full hand records (:func:`_record_many`),
the double-dummy column (:func:`_play_many_dd`) and the matches; :func:`declare` (the hand from
the contract on) serves besides one hand declared on many deals (:func:`_declare_hand`) and the
worlds of the bid advisor (:func:`_after_pass`, and :func:`_worths_around` values them). The
studies call them through the typed functions at the end (:func:`play_rows`, :func:`play_rows_dd`,
:func:`record_deals`, :func:`declare_hand`, :func:`worths_around`, :func:`after_pass`), each
given a :class:`Loop`: what every loop reads besides the deals, built in one place. Kernels read a few named
structures: the variant's ``Tables`` (rules, seats, sides, meld), the seats' ``Bidding``, the play
policies, and a ``Work`` of scratch arrays. Deal ``i`` uses the random streams ``(seed, i, 0)``
for the cards and ``(seed, i, 1)`` for the players' random choices, so it is the same deal,
played the same way, whatever the thread count, chunk size or starting index. The dealer of
deal ``i`` is seat ``i % seats``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import types
from numba.extending import overload

from .._numba import bjit, copy_into, copy_rows, ijit, in_spans, njit
from .auction import (MAX_CARDS, MAX_TRUMPS, N_BANDS, N_SITUATIONS, Bidding, choose_trump, compile_bidding,
                      continue_auction, hand_worth, kept, over_partner, run_auction)
from .cards import N_KINDS, NINE
from .deal import BLOCK, check_deals, deal_around, deal_kinds_around, deal_one, deal_ordered, order_deck, stream
from .meld import hand_meld_all_trumps
from .melds import DIX
from .passing import discard, new_pass_scratch, pass_cards, sure_sweep
from .knowledge import new_seen, note_calls, start_seen
from .pimc import new_scratch
from .play import to_masks
from .tricks import CONTRACT, DEFAULT_POLICY, MAX_TRICKS, PIMC, Hands, play_tricks, policy_row, search_room
from .scoring import banked_meld, score_hand, score_playing_1000
from .search import trick_start_value
from .variants import BIDDER_LEADS, R, Variant, band_width, compile_variant

#: The columns of a summary row, for the largest table (four seats' meld, three sides' points,
#: tricks, counters and scores); a variant's frame keeps its own (:func:`columns`).
COLUMNS = ("dealer", "thrown_in", "bidder", "bid", "trump", "meld_0", "meld_1", "meld_2", "meld_3",
           "points_0", "points_1", "points_2", "tricks_0", "tricks_1", "tricks_2", "counters_0",
           "counters_1", "counters_2", "made", "score_0", "score_1", "score_2", "calls",
           "bidder_worth", "bid_meld", "bid_aces", "bid_tens", "bid_kings", "bid_trumps",
           "side_total", "playing_1000", "bid_situation", "discard_points")
C = {name: i for i, name in enumerate(COLUMNS)}
(DEALER, THROWN, BIDDER, BID, TRUMP, MELD0, POINTS0, TRICKS0, COUNTERS0, MADE, SCORE0, CALLS, WORTH,
 BID_MELD, BID_ACES, BID_TENS, BID_KINGS, BID_TRUMPS, SIDE_TOTAL, PLAYING_1000, BID_SITUATION,
 DISCARD_POINTS) = (C[n] for n in (
    "dealer", "thrown_in", "bidder", "bid", "trump", "meld_0", "points_0", "tricks_0", "counters_0",
    "made", "score_0", "calls", "bidder_worth", "bid_meld", "bid_aces", "bid_tens", "bid_kings",
    "bid_trumps", "side_total", "playing_1000", "bid_situation", "discard_points"))
# The bid_* columns are what the bidder saw when bidding (its own cards before any passing or
# kitty); side_total is what its side banked towards the contract (meld kept under the no-trick
# rule, plus trick points, a counting discard included).
#: ``thrown_in`` of a deal whose contract was not played out (``Bidding.keep``): only the
#: auction's columns and the bidder's are filled in.
NOT_PLAYED = 2
DRAW_TRUMP_MIN = 4  # the heuristic declarer draws trump holding at least this many


def columns(v: Variant) -> list[str]:
    """The columns of variant ``v``'s frame: meld per seat; points, tricks, counters and score
    per side (team 0 = seats 0 and 2 in four-hand; each seat its own side in three-hand); the
    discard's points where there is a kitty."""
    def keep(name: str) -> bool:
        stem, _, k = name.rpartition("_")
        if stem == "meld":
            return int(k) < v.players
        if stem in ("points", "tricks", "counters", "score"):
            return int(k) < v.teams
        return name != "discard_points" or v.kitty > 0
    return [c for c in COLUMNS if keep(c)]


def side_of(v: Variant, seats: np.ndarray) -> np.ndarray:
    """The side each seat in ``seats`` plays for, as the kernels read it (``Tables.team``)."""
    return compile_variant(v).team[np.asarray(seats)]


def partner_meld(v: Variant, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The meld of each row's partner of ``seats`` (``Tables.partner``; 0 without partners)."""
    partner = compile_variant(v).partner[np.asarray(seats)]
    meld = np.take_along_axis(rows[:, MELD0:MELD0 + v.players], np.maximum(partner, 0)[:, None], 1)[:, 0]
    return np.where(partner >= 0, meld, 0)


def others_score(v: Variant, rows: np.ndarray, side: np.ndarray) -> np.ndarray:
    """What the sides other than ``side`` bank, per row: the other team's score in four-hand,
    the mean of the other seats' in three-hand."""
    scores = rows[:, SCORE0:SCORE0 + v.teams]
    own = np.take_along_axis(scores, np.asarray(side)[:, None], 1)[:, 0]
    others = scores.sum(1) - own
    return others if v.teams == 2 else others / (v.teams - 1)


class Work(NamedTuple):
    """One thread's scratch for a hand (see :func:`workspace`): the hand kernels allocate
    nothing, so they run without numba's reference counting (``_numba.bjit``)."""

    hands: np.ndarray      # int8[seats + 1, 24]: each seat's cards, the kitty last
    deck: np.ndarray       # int8[deck size]: the cards, shuffled
    calls: np.ndarray      # int32[max_calls, 2]: (seat, bid or -1)
    passes: np.ndarray     # int8[2, 12]: cards passed each way, or the discard (row 0)
    tricks: np.ndarray     # int8[MAX_TRICKS, 4]: each trick's cards from its leader
    tinfo: np.ndarray      # int32[MAX_TRICKS, 3]: leader, winner, points
    melds: np.ndarray      # int32[seats, 4]: each seat's meld in every trump
    worth: np.ndarray      # float64[seats, situations]: what each seat bids
    trumps: np.ndarray     # int64[seats]: the trump each seat would name
    team: np.ndarray       # int64[3, sides]: trick points, tricks, counters
    team_meld: np.ndarray  # int64[sides]
    team_dix: np.ndarray   # int64[sides]
    score: np.ndarray      # int64[sides]
    hs: tuple              # tricks.Hands: the trick play's hands as masks, what the seats know, scratch
    passed: np.ndarray     # bool[seats]: the seats out of the auction
    pw: tuple              # passing.PassScratch
    dealt: np.ndarray      # int8[seats + 1, 24]: the deal as dealt, while every seat declares it
    dealt_melds: np.ndarray  # int32[seats, 4]: its meld
    pimc: tuple | None     # pimc.Scratch: the sampling player's memory (None: no seat samples)


@njit
def workspace(tb, max_calls, search, bd):
    """A :class:`Work` for variant ``tb``, auctions of up to ``max_calls`` calls and a play whose
    ``search`` is ``tricks.search_room``'s (None: no seat samples, and the loop given None is
    compiled without the sampling player), the seats bidding by ``bd`` (which the sampling player
    reads the calls by)."""
    seats = tb.rules[R.players]
    sides = tb.rules[R.teams]
    return Work(np.zeros((seats + 1, 24), np.int8),
                np.empty(seats * tb.rules[R.hand_size] + tb.rules[R.kitty], np.int8),
                np.empty((max_calls, 2), np.int32), np.zeros((2, 12), np.int8),
                np.empty((MAX_TRICKS, 4), np.int8), np.empty((MAX_TRICKS, 3), np.int32),
                np.empty((seats, 4), np.int32), np.empty((seats, N_SITUATIONS), np.float64),
                np.empty(seats, np.int64), np.empty((3, sides), np.int64), np.empty(sides, np.int64),
                np.empty(sides, np.int64), np.empty(sides, np.int64),
                Hands(np.empty(seats, np.int64), np.empty(seats, np.int64), new_seen(seats),
                      np.zeros(seats, np.int64), np.zeros(N_KINDS, np.int64)),
                np.zeros(seats, np.bool_), new_pass_scratch(),
                np.empty((seats + 1, N_KINDS), np.int8), np.empty((seats, 4), np.int32),
                _sampling_scratch(seats, sides, search, bd))


def _sampling_scratch(seats, sides, search, bd):
    """The sampling player's scratch for ``search`` (None: no seat samples, and no scratch)."""
    return None if search is None else new_scratch(seats, sides, search, bd)


@overload(_sampling_scratch, jit_options={"cache": True, "nogil": True})
def _sampling_scratch_kernel(seats, sides, search, bd):
    """:func:`_sampling_scratch` in the kernels, chosen by the type of ``search``: as a kernel
    with a branch on ``search is None``, numba typed its result as optional (``Scratch`` or
    None), and the trick loop, the sampling player and everything between were compiled for
    that type, apart from the plain ``Scratch`` a direct call passes."""
    if isinstance(search, types.NoneType):
        return lambda seats, sides, search, bd: None
    return lambda seats, sides, search, bd: new_scratch(seats, sides, search, bd)


@njit
def with_record(w, calls, passes, tricks, tinfo):
    """``w`` writing its hand record into the given arrays."""
    return Work(w.hands, w.deck, calls, passes, tricks, tinfo, w.melds, w.worth, w.trumps, w.team,
                w.team_meld, w.team_dix, w.score, w.hs, w.passed, w.pw, w.dealt, w.dealt_melds, w.pimc)


@ijit
def deal_hands(seed, i, tb, w):
    """Deal ``i`` of variant ``tb`` into ``w.hands`` (the kitty last). A deck other than the 48
    cards is read from the rules (``copies``, ``absent_kinds``), not from an array of the
    variant's tables: every call that passes the tables would pass it too."""
    rules = tb.rules
    if _deck48(rules):
        deal_one(seed, i, w.deck, w.hands, rules[R.players], rules[R.hand_size])
    else:
        order_deck(rules[R.copies], rules[R.absent_kinds], w.deck)
        deal_ordered(seed, i, w.deck, w.hands, rules[R.hand_size])


@ijit
def _deck48(rules):
    """The variant deals the 48 cards (:func:`deal.deal_one`, a word at a time): two copies of
    every kind. A deck of another size, or of 48 other cards (``deck=4/4/4/0/0/0``), is dealt
    from its kinds in order."""
    return rules[R.copies] == 2 and rules[R.absent_kinds] == 0


@njit
def _deal_around(seed, i, seat, fixed, tb, hands, w):
    """Deal ``i`` of variant ``tb`` into ``hands`` with ``seat`` holding ``fixed``."""
    rules = tb.rules
    if _deck48(rules):
        deal_around(seed, i, seat, fixed, w.deck, hands, rules[R.players], rules[R.hand_size])
    else:
        deal_kinds_around(seed, i, seat, fixed, rules[R.copies], rules[R.absent_kinds], w.deck, hands,
                          rules[R.hand_size])


@bjit
def _five_nines_no_meld(c, mv, melds):
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


@ijit
def meld_hands(tb, hands, melds):
    """Every seat's meld in every trump."""
    for p in range(tb.rules[R.players]):
        hand_meld_all_trumps(hands[p], tb, melds[p])


@ijit
def value_hands(tb, bd, hands, melds, worth, trumps):
    """Every seat's meld in every trump (``melds``), what its bidding strategy bids in each auction
    situation (``worth``) and the trump it would name (``trumps``)."""
    meld_hands(tb, hands, melds)
    for p in range(tb.rules[R.players]):
        trumps[p] = hand_worth(hands[p], melds[p], bd.weight[p], bd.table[bd.which[p]], bd.band, tb.rules,
                               worth[p])


@ijit
def play_deal(seed, i, forced_bidder, tb, bd, policy, w, row):
    """Play deal ``i`` of variant ``tb``, dealt into ``w.hands`` (:func:`deal_hands`), with the
    seats' bidding ``bd`` and play ``policy``, and write its summary ``row`` (see ``COLUMNS``).

    ``w.hands`` receives the hands as played; ``w.calls``, ``w.passes``, ``w.tricks`` and
    ``w.tinfo`` the hand record. ``forced_bidder >= 0`` skips the auction and makes that seat the
    declarer at a bid of 0 (for the bid tables).

    Inlined into :func:`play_block`, the one kernel that plays deals for every loop: a call passing
    the workspace and the variant's tables (some 60 arrays, flattened into arguments) costs about
    0.1 µs, and a compiled copy of its own beside the block's doubled what the loops compile.
    """
    rules = tb.rules
    row[:] = 0
    dealer = i % rules[R.players]
    row[DEALER] = dealer
    value_hands(tb, bd, w.hands, w.melds, w.worth, w.trumps)
    thrown = False
    for p in range(rules[R.players]):
        if rules[R.five_nines] and _five_nines_no_meld(w.hands[p], tb.meld_values, w.melds[p]):
            thrown = True
    n_calls = 0
    bidder = -1
    bid = 0
    sit = -1
    if forced_bidder >= 0:
        bidder = forced_bidder
    elif not thrown:
        bidder, bid, n_calls, sit = run_auction(dealer, w.worth, bd.margin, tb, w.calls, w.passed)
    row[CALLS] = n_calls
    row[BID_SITUATION] = sit
    if bidder >= 0 and forced_bidder < 0:
        limit = w.worth[bidder, max(sit, 0)] - over_partner(bd.margin, bidder, sit)
        if not kept(bd, bidder, w.hands[bidder], w.melds[bidder], w.trumps[bidder], sit, bid, limit,
                    rules[R.raise_min]):
            row[THROWN] = NOT_PLAYED
            row[BIDDER] = bidder
            row[BID] = bid
            row[TRUMP] = -1
            row[MADE] = -1
            return
    if bidder < 0:
        row[THROWN] = 1
        row[BIDDER] = -1
        row[TRUMP] = -1
        row[MADE] = -1
        return
    _row_worth(w, bidder, sit, row)
    declare(dealer, bidder, bid, w.trumps[bidder], forced_bidder >= 0, tb, policy, w, stream(seed, i, 1), row)


@ijit
def _row_worth(w, bidder, sit, row):
    """What the bidder's strategy made of its hand in auction situation ``sit``, into ``row``."""
    x = w.worth[bidder, max(sit, 0)]
    row[WORTH] = np.int32(round(x)) if np.isfinite(x) else -1


@bjit
def declare(dealer, bidder, bid, trump, forced, tb, policy, w, state, row):
    """The hand from the contract on: the kitty and discard or the passing, meld, the tricks and
    the score, into ``row``.

    ``w.hands`` are the hands as dealt (the kitty last) and ``w.melds`` each seat's meld in every
    trump; both are updated as cards change hands. ``trump`` is the one the bidder saw when
    bidding (-1: its best); with a kitty it names trump again after the discard. ``forced``: a
    declarer simulation (no auction), so nobody plays for 1000 and ``made`` is not recorded.
    """
    rules = tb.rules
    mv = tb.meld_values
    hands, melds = w.hands, w.melds
    players = rules[R.players]
    sides = rules[R.teams]
    partner = tb.partner[bidder]
    if trump < 0:
        trump = choose_trump(hands[bidder], melds[bidder], rules)
    row[BIDDER] = bidder
    row[BID] = bid
    row[BID_MELD] = melds[bidder, trump]
    for s in range(4):
        row[BID_ACES] += hands[bidder, 6 * s]
        row[BID_TENS] += hands[bidder, 6 * s + 1]
        row[BID_KINGS] += hands[bidder, 6 * s + 2]
    for r in range(6):
        row[BID_TRUMPS] += hands[bidder, 6 * trump + r]
    discard_pts = 0
    k = rules[R.kitty]
    if k > 0:  # the bid winner takes the kitty, discards as many cards, then names trump
        for c in range(24):
            hands[bidder, c] += hands[players, c]
        hand_meld_all_trumps(hands[bidder], tb, melds[bidder])
        trump = choose_trump(hands[bidder], melds[bidder], rules)
        discard(hands[bidder], trump, k, tb, w.passes[0], w.pw)
        hand_meld_all_trumps(hands[bidder], tb, melds[bidder])
        for j in range(k):
            discard_pts += tb.card_points[w.passes[0, j] % 6]
    row[TRUMP] = trump
    row[DISCARD_POINTS] = discard_pts
    if not rules[R.discard_counts]:
        discard_pts = 0  # buried points count for nobody
    n = rules[R.pass_cards]
    if n > 0:  # only the passing partners' hands change
        pass_cards(hands, bidder, partner, trump, n, tb, w.passes, w.pw)
        for p in (bidder, partner):
            hand_meld_all_trumps(hands[p], tb, melds[p])
    # seed 004's optional "playing 1000": the bidder, leading, announces a sure sweep; its side
    # shows no meld and its partner sits out
    sweep = (rules[R.playing_1000] and not forced and rules[R.first_lead] == BIDDER_LEADS and partner >= 0
             and sure_sweep(hands[bidder], trump))
    row[PLAYING_1000] = sweep
    bt = tb.team[bidder]
    w.team_meld[:] = 0
    w.team_dix[:] = 0
    w.team[:] = 0
    w.team[0, bt] = discard_pts
    for p in range(players):
        m = 0 if sweep and tb.team[p] == bt else melds[p, trump]
        row[MELD0 + p] = m
        w.team_meld[tb.team[p]] += m
        w.team_dix[tb.team[p]] += mv[DIX, hands[p, 6 * trump + NINE]]
    leader = bidder if rules[R.first_lead] == BIDDER_LEADS else (dealer + 1) % players
    knows = False
    for p in range(players):
        knows |= policy[p, 0] >= CONTRACT
    if knows:
        start_seen(w.hs.seen, hands, melds, trump, bidder, w.passes, tb, bid, bt if sweep else -1, w.hs.used)
        _note_calls(w.hs.seen, w.calls, row[CALLS], bidder, w.pimc, tb)
    play_tricks(hands, leader, trump, bt, tb, policy, DRAW_TRUMP_MIN, state, w.tricks, w.tinfo,
                w.team, w.hs, w.pimc, partner if sweep else -1)
    if sweep:
        made = score_playing_1000(bt, w.team_meld, w.team[0], w.team[2], w.score)
    else:
        made = score_hand(bt, bid, w.team_meld, w.team_dix, w.team[0], w.team[1], w.team[2], rules,
                          w.score)
    row[MADE] = made if not forced else -1
    row[SIDE_TOTAL] = w.team[0, bt] + banked_meld(bt, bt, w.team_meld[bt], w.team_dix[bt],
                                                  w.team[1, bt], w.team[2, bt], rules[R.no_trick])
    for t in range(sides):
        row[POINTS0 + t] = w.team[0, t]
        row[TRICKS0 + t] = w.team[1, t]
        row[COUNTERS0 + t] = w.team[2, t]
        row[SCORE0 + t] = w.score[t]


#: ``forced_bidder`` of :func:`_play_many` for the declarer simulation: every seat declares each
#: deal in turn, the deal dealt and valued once for all of them.
EVERY_SEAT = -2


@bjit
def _note_calls(seen, calls, n_calls, bidder, sc, tb):
    """What the calls say, for the sampling player (``sc``: its scratch; None when no seat
    samples, and numba then drops the branch)."""
    if sc is not None:
        note_calls(seen, calls, n_calls, bidder, sc.bidding.margin, tb)


@bjit
def play_block(seed, start, lo, hi, forced_bidder, tb, bd, policy, w, rows):
    """Deals ``start + lo .. start + hi - 1`` dealt and played (:func:`play_deal`) into
    ``rows[lo:hi]`` (with ``EVERY_SEAT``, seat ``s`` declaring deal ``d`` into ``rows[s * n + d]``,
    ``n`` rows a seat), in one thread's workspace ``w``: every loop that plays whole deals (the
    summaries, the records, the double-dummy column, the matches) plays them here, so that the
    hand is compiled once for them all. Compiled without reference counting like the hand
    kernels: in a parallel loop every array taken from ``w`` or ``tb`` for a call would cost two
    atomic updates a deal."""
    for d in range(lo, hi):
        deal_hands(seed, start + d, tb, w)
        if forced_bidder == EVERY_SEAT:
            _declare_every_seat(seed, start + d, d, tb, bd, policy, w, rows)
        else:
            play_deal(seed, start + d, forced_bidder, tb, bd, policy, w, rows[d])


@ijit
def _declare_every_seat(seed, i, d, tb, bd, policy, w, rows):
    """Deal ``i``, dealt into ``w.hands``, valued once and then declared by every seat in turn
    into ``rows[seat * n + d]``: the rows :func:`play_deal` gives with that seat forced to
    declare, without dealing and melding the deal again for each seat."""
    players = tb.rules[R.players]
    n = rows.shape[0] // players
    value_hands(tb, bd, w.hands, w.melds, w.worth, w.trumps)
    copy_rows(w.dealt, w.hands)
    copy_rows(w.dealt_melds, w.melds)
    for seat in range(players):
        if seat > 0:  # declaring changes the hands (passing, the kitty) and their meld
            copy_rows(w.hands, w.dealt)
            copy_rows(w.melds, w.dealt_melds)
        row = rows[seat * n + d]
        row[:] = 0
        row[DEALER] = i % players
        row[BID_SITUATION] = -1
        _row_worth(w, seat, -1, row)
        # a call, not the inlined body: a second copy of it in play_block would double its
        # compile time for about 0.1 µs a declarer
        declare(i % players, seat, 0, w.trumps[seat], True, tb, policy, w, stream(seed, i, 1), row)


@njit
def _play_many(seed, start, lo, hi, forced_bidder, tb, bd, policy, search, max_calls, rows):
    """Summaries of deals ``start + lo .. start + hi - 1`` into ``rows[lo:hi]`` (``rows``:
    int32[n, len(COLUMNS)]; with ``EVERY_SEAT``, int32[seats * n, len(COLUMNS)], seat by seat);
    ``search``: ``tricks.search_room`` of ``policy``. One span of :func:`play_rows`."""
    w = workspace(tb, max_calls, search, bd)
    play_block(seed, start, lo, hi, forced_bidder, tb, bd, policy, w, rows)


@njit
def _record_many(seed, start, lo, hi, forced_bidder, tb, bd, policy, search, dealt, calls, passes, tricks, tinfo,
                 rows):
    """As :func:`_play_many`, keeping each deal's cards (and kitty), calls, passes or discard and
    tricks (the block deals each deal again, after its cards are kept)."""
    for d in range(lo, hi):
        w = with_record(workspace(tb, 1, search, bd), calls[d], passes[d], tricks[d], tinfo[d])
        deal_hands(seed, start + d, tb, w)
        copy_rows(dealt[d], w.hands)  # (not ``dealt[d] = w.hands``: its shape check costs seconds of compile)
        play_block(seed, start, d, d + 1, forced_bidder, tb, bd, policy, w, rows)


@njit
def dd_points(tb, w, row, dd_from):
    """The trick points of the bid winner's side in the hand just played into ``w`` and ``row``
    (a counting discard included) had every seat played perfectly with all cards visible from
    trick ``dd_from`` on (-1: thrown in, or a playing-1000 sweep). ``w.hands`` is spent."""
    if row[THROWN] or row[PLAYING_1000]:
        return -1
    players = tb.rules[R.players]
    side = tb.team[row[BIDDER]]
    got = w.team[0, side]  # the discard, then the tricks before dd_from
    for t in range(tb.rules[R.hand_size]):
        if tb.team[w.tinfo[t, 1]] == side and t >= dd_from:
            got -= w.tinfo[t, 2]
        if t < dd_from:
            for j in range(players):
                w.hands[(w.tinfo[t, 0] + j) % players, w.tricks[t, j]] -= 1
    for p in range(players):
        w.hs.h1[p], w.hs.h2[p] = to_masks(w.hands[p])
    return got + trick_start_value(w.hs.h1, w.hs.h2, w.tinfo[dd_from, 0], side, row[TRUMP], tb)


@njit
def _play_many_dd(seed, start, lo, hi, forced_bidder, tb, bd, policy, search, max_calls, dd_from, rows, dd):
    """As :func:`_play_many`, and ``dd[d]``: :func:`dd_points` of each deal."""
    for d in range(lo, hi):
        w = workspace(tb, max_calls, search, bd)
        play_block(seed, start, d, d + 1, forced_bidder, tb, bd, policy, w, rows)
        dd[d] = dd_points(tb, w, rows[d], dd_from)


@njit
def _declare_hand(seed, deals, lo, hi, seat, fixed, dealer, trumps, tb, bd, policy, search, rows):
    """The deals numbered ``deals[lo:hi]`` (``deals``: int64[n]) with ``seat`` holding ``fixed``
    (int8[24]) and declaring in each trump of ``trumps`` (-1: the trump it names), into ``rows``
    (int32[n, len(trumps), len(COLUMNS)]). ``dealer < 0``: deal ``i``'s dealer is ``i % seats``.
    Every trump plays the same deals and random streams."""
    players = tb.rules[R.players]
    w = workspace(tb, 1, search, bd)
    dealt = np.zeros(w.hands.shape, np.int8)
    for d in range(lo, hi):
        i = deals[d]
        _deal_around(seed, i, seat, fixed, tb, dealt, w)
        dl = i % players if dealer < 0 else dealer
        for k in range(trumps.shape[0]):
            copy_rows(w.hands, dealt)  # (not ``w.hands[:] = dealt``: its shape check costs seconds of compile)
            meld_hands(tb, w.hands, w.melds)
            row = rows[d, k]
            row[:] = 0
            row[DEALER] = dl
            declare(dl, seat, 0, trumps[k], True, tb, policy, w, stream(seed, i, 1), row)


@njit
def _worths_around(seed, start, lo, hi, seat, fixed, tb, bd, out):
    """For deals ``start + lo .. start + hi - 1`` dealt around ``fixed`` in ``seat``: what every
    seat's bidding strategy would bid in each auction situation, into ``out[lo:hi]``
    (float64[n, seats, situations])."""
    w = workspace(tb, 1, None, bd)  # nobody plays
    for d in range(lo, hi):
        _deal_around(seed, start + d, seat, fixed, tb, w.hands, w)
        value_hands(tb, bd, w.hands, w.melds, out[d], w.trumps)


@njit
def lead_over_others(score, side):
    """Side ``side``'s score minus the mean of the other sides' (the other team's in four-hand)."""
    others = 0.0
    for t in range(score.shape[0]):
        if t != side:
            others += score[t]
    return score[side] - others / (score.shape[0] - 1)


@njit
def _after_pass(seed, deals, lo, hi, fixed, dealer, passed0, high, high_seat, tb, bd, policy, search, max_calls,
                out):
    """For the deals numbered ``deals[lo:hi]``, dealt around ``fixed`` in seat 0: seat 0 passes
    now, the auction goes on under the seats' strategies from the state after the calls so far
    (``passed0``, the bid ``high`` held by ``high_seat``), and the hand is played out. ``out[d]``
    receives seat 0's side's score minus the others' (:func:`lead_over_others`; 0 when the hand
    is thrown in)."""
    w = workspace(tb, max_calls, search, bd)
    passed = np.empty(passed0.shape[0], np.bool_)
    row = np.empty(len(COLUMNS), np.int32)
    for d in range(lo, hi):
        i = deals[d]
        _deal_around(seed, i, 0, fixed, tb, w.hands, w)
        value_hands(tb, bd, w.hands, w.melds, w.worth, w.trumps)
        copy_into(passed, passed0)
        passed[0] = True
        bidder, bid, _, _ = continue_auction(1, passed, high, high_seat, -1, 0, w.worth,
                                             bd.margin, tb, w.calls)
        out[d] = 0.0
        if bidder >= 0:
            row[:] = 0
            declare(dealer, bidder, bid, w.trumps[bidder], False, tb, policy, w,
                    stream(seed, i, 1), row)
            out[d] = lead_over_others(row[SCORE0:SCORE0 + tb.rules[R.teams]], tb.team[0])


# ------------------------------------------------------------------------------------------
# What the loops read, built from plain data (the studies add named strategies on top).

def max_calls(v: Variant) -> int:
    """Room for every call of an auction: bids rise by ``raise_min`` up to a limit no hand
    reaches (a side's meld plus the trick points); the auction stops raising if it runs out."""
    ceiling = 2 * (v.trick_total + 4 * 2000)
    return int(min(4096, 8 + ceiling // max(1, v.raise_min)))


def policy_codes(v: Variant, policy: str | list[str]) -> tuple[list[str], np.ndarray]:
    """The play policy of every seat: one name for all, or one per seat (names as written
    canonically, kernel rows: ``tricks.policy_row``)."""
    names = [policy] * v.players if isinstance(policy, str) else list(policy)
    if len(names) != v.players:
        raise ValueError(f"give one play policy, or one for each of the {v.players} seats")
    rows = [policy_row(n, v.name) for n in names]
    return [r[0] for r in rows], np.array([r[1] for r in rows], np.int64)


def fixed_bidding(v: Variant, weight: float = 0.0, limits: np.ndarray | None = None) -> Bidding:
    """Every seat bids by the same limits ``weight * meld + limits[situation, band, aces, tens,
    trumps]`` (NaN: pass), with no partner margin; no limits: nobody bids (a declarer
    simulation, whose declarer is forced)."""
    if limits is None:
        limits = np.full((N_SITUATIONS, N_BANDS, MAX_CARDS, MAX_CARDS, MAX_TRUMPS), np.nan)
    tables = np.broadcast_to(limits, (v.players, *limits.shape))
    return compile_bidding(np.full(v.players, float(weight)), tables, np.zeros(v.players), band_width(v))


class Loop(NamedTuple):
    """What every loop over deals reads besides the deals, built in one place (:meth:`build`):
    the seat forced to declare (-1: the auction decides; ``EVERY_SEAT``), the variant's tables,
    the seats' bidding, their play policies and the policies' ``search`` (``tricks.search_room``),
    and the room for an auction's calls."""

    forced_bidder: int
    tables: object
    bidding: Bidding
    policy: np.ndarray
    search: object
    max_calls: int

    @classmethod
    def build(cls, v: Variant, bidding: Bidding, policy: str | list[str] = DEFAULT_POLICY,
              forced_bidder: int = -1) -> Loop:
        v.require_play()
        if forced_bidder not in (-1, EVERY_SEAT) and not 0 <= forced_bidder < v.players:
            raise ValueError(f"forced_bidder={forced_bidder}: a seat from 0 to {v.players - 1}, or -1 (an auction)")
        tb = compile_variant(v)
        codes = policy_codes(v, policy)[1]
        return cls(int(forced_bidder), tb, bidding, codes, search_room(tb, codes), max_calls(v))

    @property
    def seats(self) -> int:
        return int(self.tables.rules[R.players])


# ------------------------------------------------------------------------------------------
# The loops as the studies call them: each allocates its output, gives the kernel its types and
# checks what it is given. Deal ``i`` is the same wherever and however often it is played.

def samples(policy: np.ndarray) -> bool:
    """Whether a seat of these play policies (kernel rows: :func:`policy_codes`) samples
    (``pimc``): hundredths of a second to seconds a hand, where the other policies take microseconds."""
    return bool((policy[:, 0] == PIMC).any())


def _span(loop: Loop) -> int | None:
    """Deals a thread takes at a time: blocks of :data:`BLOCK` (a thread's workspace is made once
    a span), but where a seat samples the spans ``in_spans`` makes by default, so that a run of a
    few thousand deals uses every thread."""
    return None if samples(loop.policy) else BLOCK


def _deals(seed: int, start: int, n: int) -> tuple[np.int64, int]:
    check_deals(n, seed, start)
    return np.int64(start), int(n)


def play_rows(loop: Loop, seed: int, start: int, n: int) -> np.ndarray:
    """Summary rows (int32[n, len(COLUMNS)]) of deals ``start .. start+n-1``; with ``EVERY_SEAT``,
    int32[seats, n, len(COLUMNS)]: each deal declared by every seat in turn."""
    start, n = _deals(seed, start, n)
    every = loop.forced_bidder == EVERY_SEAT
    rows = np.empty(((loop.seats if every else 1) * n, len(COLUMNS)), np.int32)
    in_spans(n, lambda lo, hi: _play_many(np.uint64(seed), start, lo, hi, loop.forced_bidder, loop.tables,
                                          loop.bidding, loop.policy, loop.search, loop.max_calls, rows), _span(loop))
    return rows.reshape(loop.seats, n, len(COLUMNS)) if every else rows


def play_rows_dd(loop: Loop, seed: int, start: int, n: int, dd_from: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`play_rows`, and each deal's :func:`dd_points` from trick ``dd_from`` (int32[n])."""
    start, n = _deals(seed, start, n)
    if loop.forced_bidder == EVERY_SEAT:
        raise ValueError("double dummy is played one declaring seat at a time")
    if not 0 <= dd_from < loop.tables.rules[R.hand_size]:
        raise ValueError(f"dd_from is a trick number from 0 to {loop.tables.rules[R.hand_size] - 1}")
    rows = np.empty((n, len(COLUMNS)), np.int32)
    dd = np.empty(n, np.int32)
    in_spans(n, lambda lo, hi: _play_many_dd(np.uint64(seed), start, lo, hi, loop.forced_bidder, loop.tables,
                                             loop.bidding, loop.policy, loop.search, loop.max_calls, int(dd_from),
                                             rows, dd))
    return rows, dd


class Records(NamedTuple):
    """Deals played with everything kept: the cards dealt (and the kitty, as a last hand), the
    calls (seat, bid; -1 a pass), the passes (or the discard), the tricks (cards by seat from the
    leader) and each trick's (leader, winner, points), and the summary rows."""

    dealt: np.ndarray
    calls: np.ndarray
    passes: np.ndarray
    tricks: np.ndarray
    tinfo: np.ndarray
    rows: np.ndarray


def record_deals(loop: Loop, seed: int, start: int, n: int) -> Records:
    """Deals ``start .. start+n-1`` played, with every card and call kept (:class:`Records`)."""
    start, n = _deals(seed, start, n)
    if loop.forced_bidder == EVERY_SEAT:
        raise ValueError("hand records are kept one declaring seat at a time")
    out = Records(np.zeros((n, loop.seats + 1, N_KINDS), np.int8), np.zeros((n, loop.max_calls, 2), np.int32),
                  np.zeros((n, 2, 12), np.int8), np.zeros((n, MAX_TRICKS, 4), np.int8),
                  np.zeros((n, MAX_TRICKS, 3), np.int32), np.zeros((n, len(COLUMNS)), np.int32))
    in_spans(n, lambda lo, hi: _record_many(np.uint64(seed), start, lo, hi, loop.forced_bidder, loop.tables,
                                            loop.bidding, loop.policy, loop.search, *out))
    return out


def _fixed(loop: Loop, seat: int, fixed: np.ndarray) -> np.ndarray:
    if not 0 <= seat < loop.seats:
        raise ValueError(f"seat {seat}: seats are 0 to {loop.seats - 1}")
    fixed = np.ascontiguousarray(fixed, np.int8)
    if fixed.shape != (N_KINDS,) or fixed.sum() != loop.tables.rules[R.hand_size]:
        raise ValueError(f"a fixed hand is {N_KINDS} card counts summing to the hand size")
    return fixed


def declare_hand(loop: Loop, seed: int, deals: np.ndarray, seat: int, fixed: np.ndarray, dealer: int,
                 trumps: np.ndarray) -> np.ndarray:
    """The deals numbered ``deals`` with ``seat`` holding ``fixed`` (card counts) and declaring
    in each trump of ``trumps`` (-1: the trump it names): int32[len(deals), len(trumps),
    len(COLUMNS)]. ``dealer < 0``: deal ``i``'s dealer is ``i % seats``. Every trump plays the
    same deals and random streams."""
    deals = np.ascontiguousarray(deals, np.int64)
    trumps = np.ascontiguousarray(trumps, np.int64)
    rows = np.empty((len(deals), len(trumps), len(COLUMNS)), np.int32)
    fixed = _fixed(loop, seat, fixed)
    in_spans(len(deals), lambda lo, hi: _declare_hand(np.uint64(seed), deals, lo, hi, int(seat), fixed, int(dealer),
                                                      trumps, loop.tables, loop.bidding, loop.policy, loop.search,
                                                      rows), _span(loop))
    return rows


def worths_around(loop: Loop, seed: int, start: int, n: int, seat: int, fixed: np.ndarray) -> np.ndarray:
    """For deals ``start .. start+n-1`` dealt around ``fixed`` in ``seat``: what every seat's
    bidding would bid in each auction situation (float64[n, seats, situations])."""
    start, n = _deals(seed, start, n)
    out = np.empty((n, loop.seats, N_SITUATIONS))
    fixed = _fixed(loop, seat, fixed)
    in_spans(n, lambda lo, hi: _worths_around(np.uint64(seed), start, lo, hi, int(seat), fixed, loop.tables,
                                              loop.bidding, out), BLOCK)
    return out


def after_pass(loop: Loop, seed: int, deals: np.ndarray, fixed: np.ndarray, dealer: int, passed: np.ndarray,
               high: int, high_seat: int) -> np.ndarray:
    """For the deals numbered ``deals`` dealt around ``fixed`` in seat 0: seat 0 passes now, the
    auction goes on from the state after the calls so far (``passed`` seats, the bid ``high``
    held by ``high_seat``) and the hand is played out; seat 0's side's score minus the others'
    (:func:`lead_over_others`; 0 when the hand is thrown in), float64[len(deals)]."""
    deals = np.ascontiguousarray(deals, np.int64)
    passed = np.ascontiguousarray(passed, np.bool_)
    if passed.shape != (loop.seats,):
        raise ValueError(f"passed holds one flag per seat ({loop.seats})")
    out = np.empty(len(deals), np.float64)
    fixed = _fixed(loop, 0, fixed)
    in_spans(len(deals), lambda lo, hi: _after_pass(np.uint64(seed), deals, lo, hi, fixed, int(dealer), passed,
                                                    int(high), int(high_seat), loop.tables, loop.bidding, loop.policy,
                                                    loop.search, loop.max_calls, out), _span(loop))
    return out
