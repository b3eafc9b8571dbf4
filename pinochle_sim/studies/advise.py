"""What to bid with one hand: the hand itself is simulated.

The given cards stay with their seat; the other cards are dealt at random, again and again, and
the hand is played out under the variant's full rules (passing included) with the seat as
declarer in every candidate trump, on the same deals. What comes back is the side's total
towards a contract in each trump (its mean with a 95% interval), the chance of making each bid
(with Wilson intervals), the trump to name, and the highest bid made at least ``confidence`` of
the time (with the range of bids that the simulation cannot tell apart from it).

With the auction so far (``auction="p 260 p"``, the calls from the seat after the dealer), the
other hands are dealt only in ways that agree with every other seat's call under a bidding
model, each bid is weighed against passing, and the advice says what to call now.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from .. import __version__
from ..runs import HERE, Chunk, Run, Where, chunks_of
from ..engine.cards import DECK_SIZE, SUITS, format_hand, hand_counts
from ..engine.meld import meld_all_trumps
from ..engine.auction import N_SITUATIONS, SITUATIONS, AuctionError, AuctionState, hand_worth
from ..engine.hand import (COLUMNS, SIDE_TOTAL, TRICKS0, TRUMP, after_pass, declare_hand, others_score, samples,
                           worths_around)
from .simulate import Setup
from .stats import t975, wilson
from .tables import recommended_bid
from .strategies import default_bidding, strategy
from ..engine.variants import Variant, compile_variant, variant
from ..engine.tricks import DEFAULT_POLICY, in_full


def _declared_chunk(setup: Setup, counts: np.ndarray, index: np.ndarray, dealer: int, trumps: np.ndarray,
                    chunk: Chunk) -> np.ndarray:
    """:func:`simulate_hand`'s rows for the deal numbers ``index[chunk.start:][:chunk.count]``."""
    return declare_hand(setup.loop, chunk.seed, index[chunk.start:chunk.start + chunk.count], 0, counts, dealer,
                        trumps)


def _after_pass_chunk(setup: Setup, counts: np.ndarray, index: np.ndarray, state: AuctionState,
                      chunk: Chunk) -> np.ndarray:
    """:func:`_values`' score differences after passing, for ``index[chunk.start:][:chunk.count]``."""
    return after_pass(setup.loop, chunk.seed, index[chunk.start:chunk.start + chunk.count], counts, state.dealer,
                      state.passed, state.high, state.high_seat)


def _over_worlds(fn, setup: Setup, n: int, seed: int, run: Run | None, tag: str) -> np.ndarray:
    """``fn`` over the ``n`` worlds in chunks (positions in the list of deal numbers), joined
    (``setup``: the seats' play, which sets the chunks' size)."""
    chunks = chunks_of(seed, 0, n, ADVISE_CHUNK, sampling=samples(setup.loop.policy))
    if run is None:
        with Run(HERE, {}, "worlds") as here:
            parts = [x for _, x in here.map(fn, chunks)]
    else:
        parts = [x for _, x in run.map(fn, chunks, tag=tag)]
    return np.concatenate(parts)


ADVISE_CHUNK = 4096


def simulate_hand(hand, v: Variant | str = "thousand", deals: int | np.ndarray = 10_000, seed: int = 1,
                  policy: str = DEFAULT_POLICY, dealer: int | None = None,
                  trumps: tuple[int, ...] = (0, 1, 2, 3), run: Run | None = None) -> np.ndarray:
    """Summary rows of ``deals`` deals (a count, or the deal numbers) with seat 0 holding ``hand``
    and declaring in each of ``trumps`` (-1: the trump it names, after the kitty where there is
    one): int32[deals, len(trumps), len(COLUMNS)] (see :data:`simulate.COLUMNS`).

    ``dealer``: the dealer's seat (0 is the hand's own), or None for every seat in turn.

    >>> rows = simulate_hand("AS AS TS TS KS KS QS QS JS JS 9S 9S", "classic", deals=50, trumps=(0,))
    >>> from pinochle_sim.engine.hand import SIDE_TOTAL
    >>> int(rows[:, 0, SIDE_TOTAL].min()) >= 1520 + 250   # a double run and every trick
    True
    """
    setup = Setup(v, policy, forced_bidder=0)
    counts = hand_counts(hand, setup.variant.hand_size, setup.variant.deck_counts)
    index = np.arange(deals, dtype=np.int64) if isinstance(deals, int) else np.asarray(deals, np.int64)
    if len(index) == 0:
        return np.empty((0, len(trumps), len(COLUMNS)), np.int32)
    fn = partial(_declared_chunk, setup, counts, index, -1 if dealer is None else dealer,
                 np.asarray(trumps, np.int64))
    return _over_worlds(fn, setup, len(index), seed, run, "declared")


def _named_after_kitty(rows: np.ndarray, melds: dict) -> dict:
    """The trump a bid winner names after taking the kitty, as advice reports it: the one named
    most often, how often each suit was, and the hand's own best meld before the kitty."""
    share = np.bincount(rows[:, TRUMP], minlength=4) / len(rows)
    top = SUITS[int(np.argmax(share))]
    return {"trump": top, "meld": max(melds.values()), "trumps": None,
            "named_after_kitty": {s: float(x) for s, x in zip(SUITS, share)}}


def bidding_limits(counts: np.ndarray, v: Variant, s=None) -> dict:
    """How far the bidding strategy ``s`` (default: the variant's default) takes this hand, in
    each auction situation it can be in: the trump it would name, its limit and the highest
    legal bid within it (None: it passes), as the kernels' auctions bid it."""
    s = strategy(s or default_bidding(v))
    setup = Setup(v, bidding=s)
    bd = setup.bid
    melds = {m.trump: m.total for m in meld_all_trumps(counts, v)}
    worth = np.empty(N_SITUATIONS)
    t = hand_worth(np.asarray(counts, np.int8), np.array([melds[x] for x in SUITS], np.int64), bd.weight[0],
                   bd.table[bd.which[0]], bd.band, compile_variant(v).rules, worth)
    seen = SITUATIONS if v.players == 4 else ("open", "opponent_high")
    out = {}
    for k, name in enumerate(SITUATIONS):
        if name not in seen:
            continue
        limit = worth[k] - (bd.margin[0] if k == 1 else 0.0)
        top = v.opening_bid + v.raise_min * np.floor((limit - v.opening_bid) / v.raise_min) if v.raise_min else limit
        out[name] = {"limit": float(limit) if np.isfinite(limit) else None,
                     "bid": int(top) if np.isfinite(limit) and top >= v.opening_bid else None}
    return {"strategy": s.spec, "trump": SUITS[int(t)], "situations": out}


def _bid_chances(total: np.ndarray, ok: np.ndarray, bids: np.ndarray) -> np.ndarray:
    """How many deals make each bid: side total at least the bid and the required tricks."""
    made = np.sort(np.where(ok, total, -1))
    return len(made) - np.searchsorted(made, bids, side="left")


def advise(hand, v: Variant | str = "thousand", deals: int = 10_000, seed: int = 1,
           confidence: float = 0.67, policy: str = DEFAULT_POLICY, dealer: int | None = None,
           auction: str | None = None, model=None, where: Where | None = None) -> dict:
    """Advice for one hand, from ``deals`` simulated deals of the other cards.

    Returns a dict: ``melds`` (per trump: meld, trump length, expected side total with its 95%
    interval), ``best_trump``, ``expected_total`` and ``expected_total_ci95``, ``trump_margin``
    (best minus runner-up on the same deals, with its interval), ``total_10_90``, ``p_make`` and
    ``p_make_ci95`` per bid, ``recommended_bid`` (None: pass) with ``recommended_bid_range``,
    ``why`` in one line, ``bidding`` (how far the default bidding, or ``model``, takes the hand
    in each auction situation: :func:`bidding_limits`), and the provenance. With ``auction``
    (the calls so far; ``""``: you call first) the other hands are sampled to agree with the
    calls under the bidding strategy ``model``, by default the variant's (``conditioning``
    reports the worlds drawn, kept and the effective sample size), and the answer adds
    ``value`` (per bid, the expected score difference, your side minus the other, of taking
    the contract at that bid against passing now and letting the auction go on under the
    model, with 95% intervals), ``value_bid`` (the highest bid worth more than
    passing), ``call`` and ``call_why``.

    >>> a = advise("AS TS KS QS JS KS 9S QS JD AH AD AC", "thousand", deals=400, seed=1)
    >>> a["best_trump"], a["recommended_bid"] > 300
    ('S', True)
    """
    v = variant(v) if isinstance(v, str) else v
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    if deals < 1:
        raise ValueError("advise needs at least one deal")
    if dealer is not None:
        v.check_seat(dealer, "dealer")
    counts = hand_counts(hand, v.hand_size, v.deck_counts)
    state = conditioning = None
    index: int | np.ndarray = deals
    model = strategy(model or default_bidding(v))
    if auction is not None:
        state = read_auction(auction, v, dealer)
        dealer = state.dealer
        index, tried = consistent_deals(counts, v, state, model, deals, seed)
        conditioning = {"model": model.spec, "drawn": tried, "kept": int(len(index)),
                        "effective_sample_size": int(len(index)),
                        "note": "worlds kept only where every other seat's call agrees with the model"}
        if len(index) < 2:
            raise AuctionError(f"no dealing of the other cards agrees with {auction!r} under the "
                               f"{model.spec} model ({tried:,} tried); try another --model")
    # with a kitty the trump is named after the discard, so the hand is played that way only
    trumps = (-1,) if v.kitty else (0, 1, 2, 3)
    identity = {"command": "advise", "hand": counts.tolist(), "variant": v.spec, "deals": deals, "seed": seed,
                "policy": policy, "dealer": dealer, "auction": auction, "model": str(model)}
    with Run(where, identity, "worlds") as run:
        return _advise(counts, v, deals, index, seed, confidence, policy, dealer, auction, model, state,
                       conditioning, trumps, run)


def _advise(counts, v, deals, index, seed, confidence, policy, dealer, auction, model, state, conditioning,
            trumps, run) -> dict:
    rows = simulate_hand(counts, v, index, seed, policy, dealer, trumps, run).astype(np.int64)
    total = rows[:, :, SIDE_TOTAL]
    ok = rows[:, :, TRICKS0] >= v.min_tricks  # seat 0 declares: team 0
    n = len(rows)
    tq = t975(n - 1)
    melds = {m.trump: m.total for m in meld_all_trumps(counts, v)}
    options = []
    for k, t in enumerate(trumps):
        x = total[:, k]
        se = x.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
        named = {"trump": SUITS[t], "meld": melds[SUITS[t]], "trumps": int(counts[6 * t: 6 * t + 6].sum())
                 } if t >= 0 else _named_after_kitty(rows[:, k], melds)
        options.append({**named, "expected_total": float(x.mean()), "se": float(se),
                        "ci95": [float(x.mean() - tq * se), float(x.mean() + tq * se)],
                        "p_make_opening": float(_bid_chances(x, ok[:, k], np.array([v.opening_bid]))[0] / n)})
    # the trump with the highest expected total; exact ties go to the longer, then stronger suit
    order = sorted(range(len(trumps)), key=lambda k: (options[k]["expected_total"], options[k]["trumps"],
                                                      options[k]["meld"]), reverse=True)
    best, second = order[0], order[-1] if len(order) == 1 else order[1]
    diff = total[:, best] - total[:, second]
    dse = diff.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
    x, okb = total[:, best], ok[:, best]
    bids = np.arange(v.opening_bid, max(int(x.max()), v.opening_bid) + v.raise_min, v.raise_min)
    k_made = _bid_chances(x, okb, bids)
    p = k_made / n
    lo, hi = wilson(k_made, n)
    first = max(int(np.argmax(p < 0.995)) - 2, 0) if (p < 0.995).any() else 0
    last = int(np.nonzero(p >= 0.02)[0].max()) + 1 if (p >= 0.02).any() else 1
    rec, rec_lo, rec_hi = (None if np.isnan(r) else int(r)
                           for r in recommended_bid(np.stack([p, lo, hi]), bids, confidence))
    b = options[best]
    lead = (f"with {b['trump']} trump the side" if not v.kitty else
            f"taking the kitty (then naming {b['trump']} in {b['named_after_kitty'][b['trump']]:.0%} of deals) you")
    if rec is None:
        why = (f"{lead} made the opening bid {v.opening_bid} in "
               f"{p[0]:.0%} of {n:,} simulated deals (95% interval {lo[0]:.0%}-{hi[0]:.0%}), "
               f"under {confidence:.0%}: pass")
    else:
        j = int(np.nonzero(bids == rec)[0][0])
        why = (f"{lead} reached {rec} or more in {p[j]:.0%} of {n:,} "
               f"simulated deals (95% interval {lo[j]:.0%}-{hi[j]:.0%}); it is the highest bid made "
               f"at least {confidence:.0%} of the time")
    q10, q90 = np.quantile(x, [0.1, 0.9])
    out = {
        "variant": v.spec, "hand": format_hand(counts), "aces": int(counts[0::6].sum()),
        "tens": int(counts[1::6].sum()), "melds": options, "best_trump": b["trump"],
        "expected_total": b["expected_total"], "expected_total_ci95": b["ci95"],
        "trump_margin": None if best == second else {
            "over": options[second]["trump"], "diff": float(diff.mean()),
            "ci95": [float(diff.mean() - tq * dse), float(diff.mean() + tq * dse)]},
        "total_10_90": [int(q10), int(q90)],
        "p_make": {int(bb): float(pp) for bb, pp in zip(bids[first:last], p[first:last])},
        "p_make_ci95": {int(bb): [float(a), float(c)] for bb, a, c in
                        zip(bids[first:last], lo[first:last], hi[first:last])},
        "recommended_bid": rec, "recommended_bid_range": [rec_lo, rec_hi],
        "confidence": confidence, "why": why,
        "provenance": {"variant": v.spec, "options": v.options(), "play_policy": policy,
                       "play_policy_in_full": in_full(policy, v.name),
                       "bidding": model.spec, "seed": seed, "deals": deals,
                       "dealer": "every seat in turn" if dealer is None else dealer,
                       "method": f"the hand fixed, the other {DECK_SIZE - v.hand_size} cards dealt at random, "
                                 + ("the kitty taken, trump named after the discard" if v.kitty else
                                    "declared in every trump on the same deals"), "version": __version__},
    }
    out["bidding"] = bidding_limits(counts, v, model)
    if state is not None:
        out["auction"] = auction
        out["conditioning"] = conditioning
        out["provenance"]["method"] += f"; other hands agree with the calls under {model.spec}"
        value, value_bid = _values(counts, v, state, model, index, seed, policy, rows[:, best], bids, run)
        out["value"] = {b_: value[b_] for b_ in out["p_make"] if b_ in value}
        out["value_bid"] = value_bid
        out["call"], out["call_why"] = _call(state, rec, v, value_bid)
    return out


def _values(counts, v: Variant, state: AuctionState, model, index: np.ndarray, seed: int, policy: str,
            rows: np.ndarray, bids: np.ndarray, run: Run | None = None) -> tuple[dict, int | None]:
    """Per bid: the mean and 95% interval of (your side's score minus theirs) when you take the
    contract at that bid, minus the same when you pass now; and the highest bid whose mean is
    above zero. Both on the same sampled worlds (paired)."""
    setup = Setup(v, policy, model)
    after = _over_worlds(partial(_after_pass_chunk, setup, counts, index, state), setup, len(index), seed, run,
                         "after pass")
    total, ok = rows[:, SIDE_TOTAL], rows[:, TRICKS0] >= v.min_tricks
    defenders = others_score(v, rows, np.zeros(len(rows), np.int64))
    n = len(rows)
    tq = t975(n - 1)
    value, best = {}, None
    for b in bids:
        take = np.where(ok & (total >= b), total, -b) - defenders
        d = take - after
        m, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
        value[int(b)] = {"mean": m, "ci95": [m - tq * se, m + tq * se]}
        if m > 0:
            best = int(b)
    return value, best


# --------------------------------------------------------------------------------------------
# The auction so far.

def read_auction(text: str, v: Variant, dealer: int | None = None) -> AuctionState:
    """Replay the calls so far (``"p 260 p"``: pass, 260, pass, from the seat after the dealer)
    and check them against the variant's rules (:class:`~pinochle_sim.engine.auction.AuctionState`).
    The hand advised is seat 0, which must be the next to call; without ``dealer`` the dealer is
    the seat that makes it so.

    >>> s = read_auction("p 260 p", variant("classic"))
    >>> s.dealer, s.high, s.high_seat
    (0, 260, 2)
    """
    words = text.replace(",", " ").split()
    calls = []
    for w in words:
        if w.lower() in ("p", "pass", "-"):
            calls.append(None)
        elif w.isdigit():
            calls.append(int(w))
        else:
            raise AuctionError(f"unknown call {w!r} in the auction: write a bid (260) or p for a pass")
    candidates = range(v.players) if dealer is None else [dealer]
    reasons = []
    for d in candidates:
        try:
            return _replay(calls, v, d)
        except AuctionError as e:
            reasons.append(str(e))
    if dealer is not None:
        raise AuctionError(reasons[0])
    raise AuctionError(f"the auction {text!r} cannot lead to your turn from any dealer "
                       f"({reasons[0]})")


def _replay(calls: list[int | None], v: Variant, dealer: int) -> AuctionState:
    state = AuctionState(v, dealer)
    for bid in calls:
        state.call(bid)
    # the others' passes and no bid leave the last seat to open (or, stuck, to take it without a call)
    if state.over:
        raise AuctionError("the auction is already over")
    if state.seat != 0:
        raise AuctionError(f"with that dealer these calls end on another seat's turn, not yours "
                           f"({(state.seat - dealer - 1) % v.players + 1} seats after the dealer)")
    return state


def agrees(worth: np.ndarray, state: AuctionState, margin: np.ndarray, v: Variant) -> np.ndarray:
    """Which sampled worlds agree with the calls so far under a bidding model: ``worth[world,
    seat, situation]`` is what the model bids. A pass needs the seat's limit below the least
    legal bid; a bid of B needs the limit to reach B (the model raises one step at a time, so it
    would have gone at least that far). Seat 0's own calls and a forced opening need nothing."""
    ok = np.ones(worth.shape[0], bool)
    replay = AuctionState(v, state.dealer)
    for seat, bid in state.calls:
        if seat != 0 and not replay.forced:
            sit = replay.situation()
            limit = worth[:, seat, sit] - (margin[seat] if sit == 1 else 0)
            ok &= (limit < replay.least_bid) if bid is None else (limit >= bid)
        replay.call(bid)
    return ok


def consistent_deals(counts: np.ndarray, v: Variant, state: AuctionState, model, want: int, seed: int,
                     max_draws: int | None = None) -> tuple[np.ndarray, int]:
    """Deal numbers of worlds (the other cards dealt around ``counts`` in seat 0) that agree
    with the calls in ``state`` under the bidding strategy ``model``: up to ``want`` of them,
    drawing at most ``max_draws`` (default 50 x ``want``). Returns (deal numbers, draws)."""
    setup = Setup(v, "heuristic", model)
    max_draws = max_draws or 50 * want
    found: list[np.ndarray] = []
    tried = have = 0
    while have < want and tried < max_draws:
        n = min(max(4 * (want - have), 2000), max_draws - tried)
        worth = worths_around(setup.loop, seed, tried, n, 0, counts)
        hit = tried + np.nonzero(agrees(worth, state, setup.bid.margin, v))[0]
        found.append(hit)
        have += len(hit)
        tried += n
    idx = np.concatenate(found) if found else np.empty(0, np.int64)
    if len(idx) >= want:  # the draws it took to find them, not the whole last batch
        tried = int(idx[want - 1]) + 1
    return idx[:want].astype(np.int64), tried


def _call(state: AuctionState, limit: int | None, v: Variant, value_bid: int | None) -> tuple[str, str]:
    """What seat 0 calls now, and why: the least legal bid if both the chance of making it and
    its value against passing allow it (``limit``: the highest bid made often enough;
    ``value_bid``: the highest bid worth more than passing; None for either: none)."""
    high, high_seat = state.high, state.high_seat
    if state.stuck:
        others = 'three' if v.players == 4 else 'two'
        return str(v.stuck_bid), (f"the other {others} passed: as dealer you take the contract at "
                                  f"{v.stuck_bid} ({v.name})")
    need = state.least_bid
    partner = high_seat >= 0 and high_seat == v.partner(0)
    stands = "" if high_seat < 0 else f"; {'your partner' if partner else 'seat ' + str(high_seat)}'s {high} stands"
    by_chance = "no bid" if limit is None else f"up to {limit}"
    by_value = "no bid" if value_bid is None else f"up to {value_bid}"
    if limit is None or limit < need or value_bid is None or value_bid < need:
        return "pass", (f"the least legal bid is {need}; made often enough: {by_chance}; worth more "
                        f"than passing: {by_value}{stands}")
    cap = min(limit, value_bid)
    return str(need), (f"bid {need}, the least legal bid, and keep raising up to {cap} (made often "
                       f"enough: {by_chance}; worth more than passing: {by_value})"
                       + ("; over your partner only because the hand is worth it" if partner else ""))
