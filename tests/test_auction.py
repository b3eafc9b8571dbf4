"""Auction-aware bidding (issue 12): situations, the model read from auctions, its calibration,
and advice that reads the calls."""
import numpy as np
import pytest

import pinochle_sim as ps
from pinochle_sim.studies.advise import agrees, consistent_deals, read_auction
from pinochle_sim.engine.auction import N_SITUATIONS, situation
from pinochle_sim.studies.match import calibration, calibration_table
from pinochle_sim.engine.hand import worths_around
from pinochle_sim.studies.simulate import Setup
from pinochle_sim.studies.strategies import strategy
from pinochle_sim.studies.auction_model import (GAP_RAISES, KINDS, THIN_BLOCK, AuctionModel, _isotonic_decreasing,
                                                _observe, _read_thin, _thin_chunk, auction_table, coverage)
from pinochle_sim.engine.auction import KEEP_ALL, compile_bidding
from pinochle_sim.engine.hand import (BID, BID_ACES, BID_MELD, BID_SITUATION, BID_TENS, BID_TRUMPS, BIDDER, CALLS,
                                     NOT_PLAYED, THROWN, Loop, play_rows)
from pinochle_sim.engine.variants import band_width
from pinochle_sim.runs import HERE, Chunk, Run
from pinochle_sim.engine.variants import PRESETS

LONG_HEARTS = "9S AH TH JH 9H JH 9H AD TD AC TC JC"


def test_isotonic_fit_never_rises_and_keeps_the_weighted_mean():
    rng = np.random.default_rng(1)
    y, w = rng.random(50), rng.integers(1, 20, 50).astype(float)
    fit = _isotonic_decreasing(y, w)
    assert (np.diff(fit) <= 1e-12).all() and np.isclose((fit * w).sum(), (y * w).sum())
    assert np.allclose(_isotonic_decreasing(np.array([0.9, 0.5, 0.2]), np.ones(3)), [0.9, 0.5, 0.2])


def _toy(v, seen=slice(None), seed=7, count=400.0):
    """A toy world: contracts at the gaps ``seen``, made with a known never-rising chance per
    situation (the same for every kind of hand)."""
    rng = np.random.default_rng(seed)
    gaps = np.arange(2 * GAP_RAISES + 1)
    truth = np.stack([1 / (1 + np.exp((gaps - GAP_RAISES - 3 * s) / 8)) for s in range(N_SITUATIONS)])
    truth = np.repeat(truth[:, None], len(KINDS), 1)
    n = np.zeros(truth.shape)
    n[..., seen] = count
    made = rng.binomial(n.astype(int), truth).astype(float)
    return AuctionModel(v, 0.67, 0.0, np.zeros((16, 9, 9, 13)), made, n), truth


def test_the_model_recovers_a_known_chance():
    v = PRESETS["classic"]
    m, truth = _toy(v)
    assert np.abs(m.p - truth).max() < 0.08 and np.abs(m.p - truth).mean() < 0.02
    # the reach is the highest gap made at least 67% of the time: about -5.7 raises + 3 per situation
    expect = (np.floor(8 * np.log(1 / 0.67 - 1)) + 3 * np.arange(N_SITUATIONS)) * v.raise_min
    assert np.abs(m.reach() - expect[:, None]).max() <= 2 * v.raise_min


def test_past_the_data_the_chance_is_a_logistic_with_an_interval_and_never_bid_on():
    # issue 31: contracts seen only up to 8 raises below the true 67% point; beyond, the chance is
    # the logistic fitted to the curve (not the nearest fitted value), flagged, with 95% intervals
    # that hold the truth, and the model does not bid where it has seen nothing
    v = PRESETS["classic"]
    m, truth = _toy(v, slice(0, GAP_RAISES - 14), count=2000.0)
    f = m.fitted
    past = np.arange(GAP_RAISES - 14, GAP_RAISES + 10)
    assert not f["read"][..., past].any() and f["read"][..., :GAP_RAISES - 14].all()
    held = (f["low"][..., past] <= truth[..., past] + 1e-9) & (truth[..., past] <= f["high"][..., past])
    assert held.mean() > 0.8  # 95% intervals, 16 curves of 24 neighbouring (so not independent) gaps
    assert np.abs(f["p"][..., past] - truth[..., past]).max() < 0.1
    assert (np.diff(f["p"], axis=-1) <= 1e-12).all()  # never rises, data and logistic together
    assert (m.reach() <= (-15 * v.raise_min)).all()  # at most the last gap read
    t = auction_table(m)
    assert set(t.source) == {"read", "logistic"} and (t[t.source == "logistic"].contracts == 0).all()


def _toy_bidder(v):
    """The toy model of :func:`_toy` on a made-to-declare estimate of meld + 0.6 of the opening
    bid + 25 an ace, 15 a ten, 10 a trump: estimates fall on half raises as well as whole ones."""
    toy, _ = _toy(v)
    _, aces, tens, trumps = np.meshgrid(np.arange(16), np.arange(9), np.arange(9), np.arange(13), indexing="ij")
    return AuctionModel(v, 0.67, 1.0, 0.6 * v.opening_bid + 25.0 * aces + 15.0 * tens + 10.0 * trumps,
                        toy.made, toy.contracts)


def test_exploring_seats_win_contracts_past_the_limit_and_only_they_do():
    # issue 31: without exploring nobody bids past its limit, so nothing is seen there; with it,
    # contracts above the limit are seen, and each is an exploring seat's
    v = ps.variant("classic")
    m = _toy_bidder(v)  # a seat bids up to its estimate + the reach
    weight, table = m.limits()
    plain = _observe(m, table, "heuristic", 5, 4000, 0.0)
    above = np.arange(2 * GAP_RAISES + 1)[None, None, :] > GAP_RAISES + (m.reach() / v.raise_min)[..., None]
    assert plain[1].sum() > 1000 and plain[1][above].sum() == 0 and plain[2].sum() == 0
    made, n, explored, _ = _observe(m, table, "heuristic", 5, 4000, 1.0)
    assert n[above].sum() > 0 and (explored[above] == n[above]).all()
    assert explored.sum() == n.sum()  # exploring everywhere: only the exploring seats' contracts


def test_the_gap_at_the_limit_holds_exactly_the_bids_a_seat_at_its_limit_makes():
    # issue 31: gaps are rounded up, so a limit (the estimate plus whole raises) is the edge of
    # two gaps. Rounded to the nearest, the gap at the limit also held bids half a raise above
    # it, which only exploring seats make: in classic its chance read 7 points under what seats
    # at their limit make, and the calibration's 0.7-0.8 bin was 4 points off
    v = ps.variant("classic")
    m = _toy_bidder(v)
    weight, table = m.limits()
    _, _, _, c = _observe(m, table, "heuristic", 5, 4000, 1.0)
    cols = (c["meld"], c["aces"], c["tens"], c["trumps"])
    limit = weight * c["meld"] + table[(c["situation"], *m._cell(*cols))]
    g = m.gap(c["bid"], *cols)
    at = m.limit_index()[c["situation"], m.kind(*cols)]
    assert ((c["bid"] - limit) % v.raise_min != 0).any()  # bids off the raise grid are in the test
    assert ((g <= at) == (c["bid"] <= limit)).all() and (g > at).any()


def _bidding(v, m, keep=KEEP_ALL):
    weight, table = m.limits()
    return compile_bidding(np.full(v.players, weight), np.broadcast_to(table, (v.players, *table.shape)),
                           np.zeros(v.players), band_width(v), keep)


def test_keep_plays_out_only_the_contracts_asked_for_and_those_exactly():
    v = ps.variant("classic")
    m = _toy_bidder(v)
    rows = lambda keep: play_rows(Loop.build(v, _bidding(v, m, keep), "heuristic"), 3, 0, 3000)  # noqa: E731
    every = rows(KEEP_ALL)
    won = every[:, BIDDER] >= 0
    assert won.sum() > 500
    none = rows(np.zeros((1,) * 7, bool))
    assert (none[won, THROWN] == NOT_PLAYED).all() and (none[~won, THROWN] == 1).all()
    for col in (BIDDER, BID, BID_SITUATION, CALLS):  # the auction is the same, only the play is skipped
        assert (none[:, col] == every[:, col]).all()
    seat2 = rows(np.arange(v.players).reshape(-1, 1, 1, 1, 1, 1, 1) == 2)
    mine = every[:, BIDDER] == 2
    assert mine.any() and (seat2[mine] == every[mine]).all()
    assert (seat2[won & ~mine, THROWN] == NOT_PLAYED).all()
    # by raises below the limit: only contracts within one raise of the bidder's limit
    at_limit = np.zeros((1, 1, 1, 1, 1, 1, 2), bool)
    at_limit[..., 0] = True
    near = rows(at_limit)
    weight, table = m.limits()
    r = every[won].astype(np.int64)
    cols = (r[:, BID_MELD], r[:, BID_ACES], r[:, BID_TENS], r[:, BID_TRUMPS])
    limit = weight * r[:, BID_MELD] + table[(np.maximum(r[:, BID_SITUATION], 0), *m._cell(*cols))]
    expect = (r[:, BID_SITUATION] < 0) | (limit - r[:, BID] < v.raise_min)
    played = near[won, THROWN] == 0
    assert 0 < expect.sum() < len(expect) and (played == expect).all()
    assert (near[won][played] == r[played]).all() and (near[won][~played, THROWN] == NOT_PLAYED).all()


def test_the_thin_read_adds_the_contracts_of_the_gaps_it_wants_and_no_others():
    # issue 31: rounds that play out only the contracts at thin gaps near the limits; what they
    # add at a gap is exactly what the same exploring auctions played out in full win there
    v = ps.variant("classic")
    m = _toy_bidder(v)
    weight, table = m.limits()
    made, n, explored, _ = _observe(m, table, "heuristic", 5, 6000, 0.75)
    read = AuctionModel(v, 0.67, m.weight, m.anchor, made, n, explored)
    before, near = read.contracts.copy(), read.limit_index()
    with Run(HERE, {}, "auctions") as run:
        log = list(_read_thin(read, m.limit_index(), table, "heuristic", 9, 2 * THIN_BLOCK, run, least=1,
                              fewest=10 ** 6, rounds=1))
    assert log and log[0]["contracts"] > 0 and log[0]["gaps_wanted"] > 0
    added = read.contracts - before
    assert added.sum() == log[0]["contracts"]
    limit = m.limit_index()
    far = np.abs(np.arange(2 * GAP_RAISES + 1) - near[..., None]) > 10
    assert added[far].sum() == 0  # only within ten raises of a limit
    want = np.zeros(read.contracts.shape, bool)
    want[..., GAP_RAISES - 20:GAP_RAISES + 20] = True
    shift = 12
    chunk = Chunk(9, THIN_BLOCK, 3000)  # the second block: seat 1 explores
    some = _thin_chunk(v, weight, table, "heuristic", read.kind_grid, limit, want, shift, chunk)
    every = _thin_chunk(v, weight, table, "heuristic", read.kind_grid, limit, np.ones_like(want), shift, chunk)
    gap = lambda c: read.gap(c["bid"], c["meld"], c["aces"], c["tens"], c["trumps"])  # noqa: E731
    kind = lambda c: read.kind(c["meld"], c["aces"], c["tens"], c["trumps"])  # noqa: E731
    sel = want[every["situation"], kind(every), gap(every)]
    assert 0 < sel.sum() < len(sel) and len(some["bid"]) == sel.sum()
    for key in every:
        assert (np.sort(some[key]) == np.sort(every[key][sel])).all(), key


def test_calibration_table_on_a_known_answer():
    rng = np.random.default_rng(3)
    predicted = rng.uniform(0.5, 1.0, 200_000)
    made = rng.random(200_000) < predicted
    t = calibration_table(predicted, made)
    assert list(t.bin) == ["0.5-0.6", "0.6-0.7", "0.7-0.8", "0.8-0.9", "0.9-1.0"]
    assert (np.abs(t.made - t.predicted) < 4 * t.se + 1e-9).all()
    assert ((t.made_low <= t.made) & (t.made <= t.made_high)).all()


def _replay_under_model(worth, state, margin, v):
    """The calls the model makes for seats 1-3, seat 0's calls taken as given (pure Python);
    a bid is reproduced when the model would have bid at least that much."""
    calls, passed, high, high_seat = [], np.zeros(4, np.bool_), 0, -1
    for j, (seat, given) in enumerate(state.calls):
        need = v.opening_bid if high_seat < 0 else high + v.raise_min
        if seat == 0 or (j == 0 and v.forced_open):
            bid = given
        else:
            sit = situation(seat, high_seat, passed, (seat + 2) % 4)
            limit = worth[seat, sit] - (margin[seat] if sit == 1 else 0)
            # the model raises a step at a time: a jump to B agrees if it would have gone that far
            target = given if given is not None else need
            bid = target if limit >= target else (need if limit >= need else None)
        calls.append(bid)
        if bid is None:
            passed[seat] = True
        else:
            high, high_seat = bid, seat
    return calls


@pytest.mark.parametrize("name,text,model", [("classic", "p 260 p", "table"),
                                             ("thousand", "40 p 45", "cautious"),
                                             ("modern", "26 27", "formula")])
def test_every_sampled_world_reproduces_the_auction_under_the_model(name, text, model):
    v = PRESETS[name]
    counts = ps.hand_counts(LONG_HEARTS, 12)
    state = read_auction(text, v)
    idx, drawn = consistent_deals(counts, v, state, ps.studies.strategies.strategy(model), 200, seed=4)
    assert 0 < len(idx) <= 200 and drawn >= len(idx)
    setup = Setup(v, "heuristic", model)
    n = int(idx.max()) + 1
    worth = worths_around(setup.loop, 4, 0, n, 0, counts)
    margin = setup.bid.margin
    for i in idx:
        assert _replay_under_model(worth[i], state, margin, v) == [b for _, b in state.calls]
    rejected = np.setdiff1d(np.arange(n), idx)
    assert not agrees(worth[rejected], state, margin, v).any()
    for i in rejected[:50]:
        assert _replay_under_model(worth[i], state, margin, v) != [b for _, b in state.calls]


def test_the_auction_model_settles_and_holds_in_fresh_auctions():
    v = ps.variant("modern-15")
    s = ps.studies.strategies.strategy("auction:deals=60000,seed=21")  # the suite's 20,000 are too noisy here
    m = s.model(v)
    assert 2 <= len(m.history) <= 13 + 8 and "read" in [h["iteration"] for h in m.history]
    assert m.history[-1]["explored"] > 0 and m.kinds  # the check by kind of hand ran
    assert all(abs(k["diff"]) < 0.03 for k in m.kinds), m.kinds
    c = calibration(v, s, deals=60_000, seed=11)
    big = c.bins[c.bins.contracts >= 2000]
    assert len(big) and (np.abs(big.made - big.predicted) < 0.02).all(), c.bins
    assert c.brier < c.brier_base  # the model says more than the share made
    cov = coverage(m, least=1)
    assert len(cov) and (cov.fewest_near_limit >= 0).all()


def test_calibration_can_fail():
    # issue 31: the made-to-declare table is over-confident for auction winners; the check must say
    # so (a calibration that every strategy passes proves nothing), at the margin most of all
    c = calibration("classic", "table", deals=30_000, seed=11)
    big = c.bins[c.bins.contracts >= 1000]
    assert (big.predicted - big.made > 0.02).any(), c.bins
    assert {"situation", "contracts", "predicted", "made", "brier"} <= set(c.margin.columns)
    assert c.margin.contracts.sum() < c.situations[c.situations.situation == "all"].contracts.sum()


def test_calibration_against_another_strategy_checks_only_its_own_side():
    v = ps.variant("classic")
    every = calibration(v, "cautious", deals=6000, seed=3)
    mine = calibration(v, "cautious", deals=6000, seed=3, against="tricks")
    assert mine.provenance["against"] == "tricks"
    assert mine.provenance["bidding"] == [strategy("cautious").spec, "tricks"] * 2
    n = lambda c: int(c.situations[c.situations.situation == "all"].contracts.iloc[0])  # noqa: E731
    assert 0 < n(mine) < n(every)


def test_advice_reads_the_calls_and_weighs_a_bid_against_passing():
    a = ps.advise(LONG_HEARTS, "classic", deals=2000, seed=2, auction="p 260 p", model="table")
    c = a["conditioning"]
    assert c["model"] == strategy("table").spec and c["kept"] == 2000 and c["drawn"] > 2000
    values = [x["mean"] for x in a["value"].values()]
    assert all(x >= y for x, y in zip(values, values[1:]))  # a higher contract is worth less
    for x in a["value"].values():
        assert x["ci95"][0] <= x["mean"] <= x["ci95"][1]
    assert a["call"] in ("pass", "270") and a["call_why"]
    free = ps.advise(LONG_HEARTS, "classic", deals=2000, seed=2)
    assert "conditioning" not in free and "value" not in free


def test_seats_with_the_same_limits_share_one_table():
    # the kernels' Bidding holds each distinct table once, the four auction situations of a
    # cell side by side (one cache line per hand); each seat reads its own strategy's limits
    from pinochle_sim.engine.auction import compile_bidding
    from pinochle_sim.studies.strategies import strategies_arrays, strategy
    from pinochle_sim.engine.variants import band_width
    v = ps.variant("thousand")
    names = ["formula", "meld+20", "formula", "tricks"]
    weight, tables, margin = strategies_arrays([strategy(s) for s in names], v)
    bd = compile_bidding(weight, tables, margin, band_width(v))
    assert bd.table.shape == (3, *tables.shape[2:], N_SITUATIONS) and bd.table.flags.c_contiguous
    assert bd.which.tolist() == [0, 1, 0, 2]
    for seat in range(4):
        assert np.array_equal(np.moveaxis(bd.table[bd.which[seat]], -1, 0), tables[seat], equal_nan=True)
    same = compile_bidding(weight[:1].repeat(4), np.broadcast_to(tables[:1], tables.shape), margin, 10)
    assert same.table.shape[0] == 1 and same.which.tolist() == [0, 0, 0, 0]
